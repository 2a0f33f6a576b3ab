"""A model directory: weights, vocabulary, lexicon, config and checksums; written and checked here.

    resources/models/<name>/
        weights.pt     state dict only (float16 tensors), loaded with weights_only=True
        vocab.json     words and characters
        lexicon.json   lowercase word -> mixed-case form (iPhone, McDonald's)
        config.json    model_args, labels, decision rule, calibration, chunking, metrics
        names.json     (optional) the vocabulary's names: words the training text capitalises where
                       no sentence starts; only they take a capital right after a , or ;
        SHA256SUMS     checksums of the four files above (and of names.json where there is one)
        MODEL_CARD.md

A file failing its checksum or the schema is refused with a clear UserError; a weights file that
carries a pickle payload is refused by torch's weights-only unpickler before it can run code.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import torch

from editor.core.errors import UserError
from editor.core.restore_models import DEFAULT_MODEL as DEFAULT_MODEL
from editor.core.restore_models import MODEL_ENV, default_model_path
from editor.core.restore_models import OPEN_MODEL as OPEN_MODEL
from editor.core.restore_models import WORD_MODEL as WORD_MODEL
from editor.restore.model.labels import CASE_CLASSES, PUNCT_MARKS
from editor.restore.model.encoder import FAMILY, EncoderBiLSTMCRF, EncoderConfig
from editor.restore.model.bilstm_crf import BiLSTMCRF, ModelConfig
from editor.restore.model.pieces import Pieces
from editor.restore.model.quant import dequantize_state, quantize_state
from editor.restore.model.vocab import Vocab

WORD_FAMILY = "bilstm-crf"
#: What `load_model_dir` builds from a model directory (a `Restorer`).
_Loaded = TypeVar("_Loaded")

FORMAT_VERSION = 1
FILES = ("weights.pt", "vocab.json", "lexicon.json", "config.json")
#: Files a model directory may have (a model exported before them has none); checked when present.
#: tokenizer.json: the encoder family's WordPiece tokenizer (required for that family).
OPTIONAL_FILES = ("names.json", "tokenizer.json")
# DEFAULT_MODEL (the model used where none is named), OPEN_MODEL (public-domain text only), MODEL_ENV
# ($STET_RESTORE_MODEL: an install's default) and WORD_MODEL (the fast word model; the encoder family
# trained on the TED-era sources borrows its vocabulary and lexicon when tuned) are editor.core's.


class ModelError(UserError):
    """A model directory that Stet refuses to load."""


def resource_model_dir(name: str) -> Path:
    from editor.core.paths import resource_path

    return resource_path("models", name)


def default_model_dir() -> Path:
    """The model used where none is named: $STET_RESTORE_MODEL's where set, else DEFAULT_MODEL's."""
    return default_model_path()


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_checksums(model_dir: Path) -> None:
    present = FILES + tuple(n for n in OPTIONAL_FILES if (model_dir / n).is_file())
    lines = [f"{sha256(model_dir / name)}  {name}\n" for name in present]
    (model_dir / "SHA256SUMS").write_text("".join(lines))


def verify_checksums(model_dir: Path) -> None:
    sums = model_dir / "SHA256SUMS"
    if not sums.is_file():
        raise ModelError(f"{model_dir}: no SHA256SUMS file; this is not a Stet model directory")
    expected = {}
    for line in sums.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split()
        if len(parts) == 2:
            expected[parts[1]] = parts[0]
    for name in FILES + tuple(n for n in OPTIONAL_FILES if n in expected or (model_dir / n).is_file()):
        path = model_dir / name
        if not path.is_file():
            raise ModelError(f"{model_dir}: {name} is missing")
        if name not in expected:
            raise ModelError(f"{model_dir}: SHA256SUMS does not list {name}")
        if sha256(path) != expected[name]:
            raise ModelError(f"{path}: checksum mismatch; the file is damaged or was changed, so Stet will not load it")


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as err:
        raise ModelError(f"{path}: not readable JSON ({err})") from None
    if not isinstance(data, dict):
        raise ModelError(f"{path}: expected a JSON object")
    return data


def _number(value: Any, where: str, low: float, high: float, *, above: bool = False,
            integer: bool = False) -> float:
    """A finite number (an int when ``integer``) in low..high (above ``low`` when ``above``)."""
    kind = "an integer" if integer else "a number"
    if isinstance(value, bool) or not isinstance(value, int if integer else (int, float)):
        raise ModelError(f"{where} must be {kind}, not {value!r:.40}")
    try:
        finite = math.isfinite(value)
    except OverflowError:
        finite = False
    if not finite or value < low or (above and value == low) or value > high:
        bounds = f"{'above' if above else 'at least'} {low:g} and at most {high:g}"
        raise ModelError(f"{where} must be {kind} {bounds}, not {value!r:.40}")
    return value


def _section(config: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = config.get(key, {})
    if not isinstance(value, dict):
        raise ModelError(f"{where}: \"{key}\" must be an object, not {type(value).__name__}")
    return value


def _scales(decision: dict[str, Any], key: str, classes: tuple[str, ...], where: str) -> None:
    scales = decision.get(key, {})
    if not isinstance(scales, dict):
        raise ModelError(f"{where}: decision.{key} must be an object of class -> weight")
    for name, weight in scales.items():
        if name not in classes:
            raise ModelError(f"{where}: decision.{key} names an unknown class {name!r} (the classes "
                             f"are {', '.join(classes)})")
        _number(weight, f"{where}: decision.{key}.{name}", 0.0, 1000.0)


def validate_settings(config: dict[str, Any], vocab: dict[str, Any], lexicon: dict[str, Any], where: str) -> None:
    """Every field of config.json that inference reads, and the vocabulary and lexicon, checked
    for type and range, so a tampered directory (checksums recomputed) is one ModelError line
    instead of a traceback or nonsense later."""
    from editor.restore.model.labels import THREE_CLASS

    name = config.get("name", "")
    if not isinstance(name, str):
        raise ModelError(f"{where}: \"name\" must be text")
    if not isinstance(config.get("weights_licence", ""), str):
        raise ModelError(f"{where}: \"weights_licence\" must be text (SPDX identifiers)")
    decision = _section(config, "decision", where)
    _scales(decision, "class_scales", THREE_CLASS, where)
    _scales(decision, "case_scales", CASE_CLASSES, where)
    if "none_scale" in decision:
        _number(decision["none_scale"], f"{where}: decision.none_scale", 0.0, 1000.0)
    for key in ("capitalize_sentences", "names_after_no_mark"):
        if not isinstance(decision.get(key, True), bool):
            raise ModelError(f"{where}: decision.{key} must be true or false")
    if "paragraph_end_odds" in decision:
        _number(decision["paragraph_end_odds"], f"{where}: decision.paragraph_end_odds", 0.0, 1e6,
                above=True)
    calibration = _section(config, "calibration", where)
    for key in ("punct_temperature", "case_temperature"):
        if key in calibration:
            _number(calibration[key], f"{where}: calibration.{key}", 0.0, 100.0, above=True)
    chunking = _section(config, "chunking", where)
    size = int(_number(chunking.get("size", 120), f"{where}: chunking.size", 1, 100_000,
                       integer=True))
    overlap = int(_number(chunking.get("overlap", 0), f"{where}: chunking.overlap", 0, 100_000,
                          integer=True))
    if overlap >= size:
        raise ModelError(f"{where}: chunking.overlap ({overlap}) must be smaller than the window "
                         f"(chunking.size {size})")
    if chunking.get("cut") is not None:
        _number(chunking["cut"], f"{where}: chunking.cut", 0, overlap, integer=True)
    if chunking.get("merge", "owned") not in ("owned", "weighted"):
        raise ModelError(f"{where}: chunking.merge must be \"owned\" or \"weighted\"")
    words, chars = vocab.get("words"), vocab.get("chars")
    for key, items in (("words", words), ("chars", chars)):
        if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
            raise ModelError(f"{where}: vocab.json \"{key}\" must be a list of text")
    _number(vocab.get("max_word_len"), f"{where}: vocab.json max_word_len", 1, 1000, integer=True)
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in lexicon.items()):
        raise ModelError(f"{where}: lexicon.json must map words to words (text to text)")


def shipped_models() -> list[str]:
    """The names of the model directories that come with Stet (resources/models)."""
    root = resource_model_dir(DEFAULT_MODEL).parent
    return sorted(p.name for p in root.iterdir() if (p / "config.json").is_file()) if root.is_dir() else []


def load_model_dir(path: str | os.PathLike[str] | None, device: torch.device, cls: Callable[..., _Loaded]) -> _Loaded:
    """`path`: a model directory, the name of a shipped one (`stet-en-bilstm-crf`), or None (the default)."""
    model_dir = Path(path) if path is not None else default_model_dir()
    if path is not None and not model_dir.is_dir() and str(path) in shipped_models():
        model_dir = resource_model_dir(str(path))
    if not model_dir.is_dir():
        why = f" (${MODEL_ENV} names it)" if path is None and os.environ.get(MODEL_ENV, "").strip() else ""
        raise ModelError(f"{model_dir}: no such model directory{why}")
    verify_checksums(model_dir)
    config = _read_json(model_dir / "config.json")
    if config.get("format_version") != FORMAT_VERSION:
        raise ModelError(f"{model_dir}: model format {config.get('format_version')!r} is not supported (expected {FORMAT_VERSION})")
    labels = config.get("labels")
    if not isinstance(labels, dict) or labels.get("punct") != list(PUNCT_MARKS) or labels.get("case") != list(CASE_CLASSES):
        raise ModelError(f"{model_dir}: the model's label set does not match this version of Stet")
    vocab_data = _read_json(model_dir / "vocab.json")
    lexicon = _read_json(model_dir / "lexicon.json")
    validate_settings(config, vocab_data, lexicon, str(model_dir))
    names = read_names(model_dir)
    family = config.get("family", WORD_FAMILY)
    if family not in (WORD_FAMILY, FAMILY):
        raise ModelError(f"{model_dir}: model family {family!r} is not known to this version of Stet")
    try:
        vocab = Vocab.from_dict(vocab_data)
        mcfg: ModelConfig | EncoderConfig = (EncoderConfig if family == FAMILY else ModelConfig)(**config["model_args"])
    except (KeyError, TypeError, ValueError) as err:
        raise ModelError(f"{model_dir}: config or vocabulary does not fit the schema ({err})") from None
    weights = model_dir / "weights.pt"
    try:
        state = torch.load(weights, map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, RuntimeError, EOFError, ValueError, AttributeError) as err:
        # torch's own message suggests loading with weights_only=False, which is what must not happen
        raise ModelError(f"{weights}: refused: it is not a plain file of tensors (it holds other "
                         f"Python objects or is damaged: {type(err).__name__}); Stet never loads such a file") from None
    if not isinstance(state, dict):
        raise ModelError(f"{weights}: the weights do not match the model described in config.json")
    if family == FAMILY:
        try:
            state = dequantize_state(state)
        except ValueError as err:
            raise ModelError(f"{weights}: {err}") from None
    try:
        model: BiLSTMCRF | EncoderBiLSTMCRF = (EncoderBiLSTMCRF(mcfg) if isinstance(mcfg, EncoderConfig)
                                               else BiLSTMCRF(mcfg))
    except (RuntimeError, ValueError, TypeError) as err:
        raise ModelError(f"{model_dir}: config.json describes a network that cannot be built ({err})") from None
    expected = model.state_dict()
    if set(state) != set(expected):
        raise ModelError(f"{weights}: the weights do not match the model described in config.json")
    for k, v in state.items():
        if not isinstance(v, torch.Tensor) or v.shape != expected[k].shape:
            raise ModelError(f"{weights}: tensor {k} has the wrong shape")
        if v.is_floating_point() and not bool(torch.isfinite(v).all()):
            raise ModelError(f"{weights}: tensor {k} holds NaN or infinite values")
    model.load_state_dict({k: v.float() for k, v in state.items()})
    if isinstance(model, EncoderBiLSTMCRF):
        model.pieces = read_tokenizer(model_dir, model.cfg)
    elif mcfg.vocab_size != len(vocab.words) or mcfg.n_chars != len(vocab.chars):  # type: ignore[union-attr]
        raise ModelError(f"{model_dir}: vocabulary size does not match the model")
    return cls(model, vocab, dict(lexicon), config, device, name=config.get("name") or model_dir.name, names=names)


def read_tokenizer(model_dir: Path, cfg: EncoderConfig) -> Pieces:
    """The encoder family's WordPiece tokenizer (tokenizer.json), checked against the model."""
    path = model_dir / "tokenizer.json"
    if not path.is_file():
        raise ModelError(f"{model_dir}: tokenizer.json is missing (an encoder model needs its tokenizer)")
    try:
        pieces = Pieces.from_file(path, cfg.max_pieces)
    except Exception as err:  # noqa: BLE001 - the tokenizers library raises a bare Exception for a bad file
        raise ModelError(f"{path}: not a tokenizer this version of Stet can read ({str(err)[:120]})") from None
    if pieces.vocab_size != cfg.vocab_size:
        raise ModelError(f"{path}: the tokenizer has {pieces.vocab_size} sub-words, the model {cfg.vocab_size}")
    return pieces


def read_names(model_dir: Path) -> frozenset[str] | None:
    """The names lexicon of a (checked) model directory; None where it has none."""
    path = model_dir / "names.json"
    if not path.is_file():
        return None
    data = _read_json(path)
    names = data.get("names")
    if not isinstance(names, list) or not all(isinstance(w, str) for w in names):
        raise ModelError(f"{path}: \"names\" must be a list of words")
    return frozenset(names)


def write_names(out_dir: Path, names: list[str], about: dict[str, Any]) -> None:
    """names.json: the names lexicon (sorted words) and how it was counted (`about`)."""
    (out_dir / "names.json").write_text(json.dumps({**about, "names": sorted(names)}, ensure_ascii=False, indent=0))


def export_model(model: BiLSTMCRF | EncoderBiLSTMCRF, vocab: Vocab, lexicon: dict[str, str], out_dir: Path, *, name: str,
                 decision: dict[str, Any], calibration: dict[str, Any], chunking: dict[str, Any], metrics: dict[str, Any],
                 language: str | None = None, names: tuple[list[str], dict[str, Any]] | None = None,
                 licence: str | None = None) -> None:
    """Write a model directory (float16 weights) and its checksums. `language`: that of the training
    text (the restorer refuses text that does not look like it); None: not checked. `names`: the
    names lexicon and how it was counted (names.json); None: none. `licence`: the weights' licence
    (config.json "weights_licence", SPDX identifiers); None: not stated."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if isinstance(model, EncoderBiLSTMCRF):  # large matrices in int8, one scale a row; the rest float16
        state = quantize_state(model.state_dict())
        # an encoder trained or read from a directory carries its tokenizer (a None here is a bug)
        (out_dir / "tokenizer.json").write_text(model.pieces.tokenizer.to_str(), encoding="utf-8")  # type: ignore[union-attr]
    else:
        state = {k: v.detach().to(torch.float16).contiguous() for k, v in model.state_dict().items()}
        (out_dir / "tokenizer.json").unlink(missing_ok=True)
    torch.save(state, out_dir / "weights.pt")
    (out_dir / "vocab.json").write_text(json.dumps(vocab.to_dict(), ensure_ascii=False))
    (out_dir / "lexicon.json").write_text(json.dumps(lexicon, ensure_ascii=False, indent=0, sort_keys=True))
    config = {
        "format_version": FORMAT_VERSION, "name": name, "family": getattr(model, "family", WORD_FAMILY),
        "model_args": model.cfg.to_dict(),
        "labels": {"punct": list(PUNCT_MARKS), "case": list(CASE_CLASSES)},
        "decision": decision, "calibration": calibration, "chunking": chunking, "metrics": metrics,
    }
    if language is not None:
        config["language"] = language
    if licence is not None:
        config["weights_licence"] = licence
    (out_dir / "config.json").write_text(json.dumps(config, indent=1))
    if names is not None:
        write_names(out_dir, *names)
    else:
        (out_dir / "names.json").unlink(missing_ok=True)
    write_checksums(out_dir)
