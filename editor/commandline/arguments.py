"""argparse pieces that every subcommand module shares (those modules may import only core)."""

from __future__ import annotations

import argparse
import glob
import os
from collections.abc import Callable
from typing import Any, Protocol

from editor.core.formats.subtitles import (SPEAKER_STYLES, LayoutOption, SubtitleLayout,
                                                  layout_from_options, layout_options)
from editor.core.commas import COMMA_STYLES, DEFAULT_COMMAS
from editor.core.render import RenderPolicy, parse_confidence
from editor.core.restore_models import DEFAULT_MODEL, OPEN_MODEL, WORD_MODEL


class Subcommands(Protocol):
    """What a command module's ``add_parser`` is given: argparse's sub-parser action."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...  # argparse's own keywords


def policy_type(text: str) -> RenderPolicy:
    """``type=`` for an option naming a RenderPolicy: none, all, or a confidence 0..1."""
    try:
        return RenderPolicy.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_policy_argument(parser: argparse.ArgumentParser, default: str = "all") -> None:
    """``--policy``: which pending suggestions a text export applies."""
    parser.add_argument(
        "--policy", type=policy_type, default=default, metavar="none|all|P",
        help="pending suggestions to apply when writing text: all (the text as the window shows "
             "it, which its Export also writes by default), none (only what was accepted), or "
             f"those with confidence >= P, 0..1 or in percent (0.9 or 90%%; default: {default}); "
             ".stet files keep them pending")


def add_commas_argument(parser: argparse.ArgumentParser, restores: bool = True) -> None:
    """``--commas STYLE``: how sure a comma must be to be proposed (`editor.core.commas`); a
    command that only reads suggestions (``restores`` False: convert) changes none unless asked."""
    styles = "; ".join(f"{name}: {meaning}" for name, (_line, meaning) in COMMA_STYLES.items()).replace("%", "%%")
    if restores:
        what = (f"default: {DEFAULT_COMMAS}). Commas less sure than the style's line are neither proposed nor "
                "written, but where a sentence may end")
    else:
        what = ("default: the suggestions as they are). The pending comma proposals less sure than the style's "
                "line, where no sentence may end, are left out: neither written nor kept pending")
    parser.add_argument("--commas", choices=tuple(COMMA_STYLES), default=DEFAULT_COMMAS if restores else None,
                        metavar="STYLE", help=f"the comma style ({styles}; {what}")


def add_force_argument(parser: argparse.ArgumentParser) -> None:
    """``-f/--force``: replace an existing output file (never one of the command's inputs)."""
    parser.add_argument(
        "-f", "--force", action="store_true",
        help="replace OUT if it exists (Stet never writes over its input, even with --force)")


def add_restore_model_arguments(parser: argparse.ArgumentParser, *, from_settings: bool = False) -> None:
    """``--model`` and ``--device``: the restoration model (a directory or a shipped model's name)
    and where it runs; ``from_settings``: the window's, whose Settings choose both where these are
    not given."""
    first = "Settings, else " if from_settings else ""
    parser.add_argument(
        "--model", metavar="DIR",
        help=f"a restoration model directory, or the name of a shipped one (default: {first}"
             f"$STET_RESTORE_MODEL, else {DEFAULT_MODEL}; {WORD_MODEL} is the fast word model; "
             f"{OPEN_MODEL}, trained on public-domain text only, may be used for paid work)")
    parser.add_argument(
        "--device", default=None if from_settings else "auto", choices=("auto", "cpu", "cuda"),
        help="where restoration runs (default: " + ("Settings, else " if from_settings else "")
             + "CUDA when available)")


def add_turn_times_argument(parser: argparse.ArgumentParser) -> None:
    """``--turn-times``: a time at each speaker turn in .txt, .md and .docx ("[00:12:34] Ann: ")."""
    parser.add_argument(
        "--turn-times", action="store_true",
        help='write the time each speaker turn starts before the name ("[00:12:34] Ann: ...", '
             "as noScribe does) in .txt, .md and .docx")


def probability(text: str) -> float:
    """``type=`` for an option that is a probability: 0..1, or in percent ("80%")."""
    v = parse_confidence(text)
    if v is None:
        raise argparse.ArgumentTypeError(
            f"expected a probability between 0 and 1 or a percentage (0.8 or 80%), not {text!r}")
    return v


def add_batch_arguments(parser: argparse.ArgumentParser, *, kind: str, inputs: str,
                        ray: bool = False, default_to: str | None = None) -> None:
    """The options for many inputs at once; ``stet`` runs the command as a batch when they ask for it.

    ``kind`` names the batch job (restore, transcribe, convert), ``inputs`` the argument holding the
    input paths (nargs="+"). The command has -f/--force already (:func:`add_force_argument`)."""
    g = parser.add_argument_group(
        "many inputs", "Given several inputs, a folder or a glob, the command runs over all of them with "
                       "one model per worker process: -o names a folder (created if missing) where "
                       "each output takes its input's name and relative path, in the format --to. An "
                       "output newer than its input is skipped, so a stopped batch resumes; an "
                       "older one is replaced only with --force, which redoes every input.")
    g.add_argument("--to", metavar="EXT", type=_extension,
                   help="format of the outputs (e.g. .srt, txt, .stet; default: "
                        f"{default_to or 'the format of each input'})")
    g.add_argument("-r", "--recursive", action="store_true", help="include the files in sub-folders")
    g.add_argument("-j", "--jobs", type=_positive, metavar="N",
                   help="worker processes (default: one per free core)")
    if ray:
        g.add_argument("--ray", metavar="ADDRESS",
                       help="run on a Ray cluster (needs the `cluster` extra): its address, e.g. "
                            "10.0.0.5:6379 or auto, or `local` for a throwaway cluster on this machine")
    parser.set_defaults(batch=kind, batch_inputs=inputs, batch_default_to=default_to)


def batch_requested(args: argparse.Namespace) -> bool:
    """Whether a command given :func:`add_batch_arguments` asked for a batch, not one file in, one out."""
    inputs = getattr(args, args.batch_inputs)
    if len(inputs) > 1 or args.recursive or args.to or args.jobs or getattr(args, "ray", None):
        return True
    only = inputs[0]
    if os.path.isdir(only) or (not os.path.lexists(only) and glob.has_magic(only)):
        return True
    out: str | None = getattr(args, "output", None)
    return out is not None and bool(out) and (os.path.isdir(out) or out.endswith(("/", os.sep)))


def _extension(text: str) -> str:
    ext = text.strip().lower()
    ext = ext if ext.startswith(".") else "." + ext
    if len(ext) < 2 or any(c in ext for c in "/\\ ") or ext.count(".") > 1:
        raise argparse.ArgumentTypeError(f"expected a file extension such as .srt, not {text!r}")
    return ext


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return n


def encoding_type(text: str) -> str:
    """``type=`` for ``--encoding``: a text encoding Python knows (cp1251, gb18030, utf-16...)."""
    import codecs

    try:
        codecs.lookup(text)
    except LookupError:
        raise argparse.ArgumentTypeError(f"unknown text encoding {text!r} (for example utf-8, "
                                         "cp1251, cp1250, gb18030, latin-1, utf-16)") from None
    return text


def add_encoding_argument(parser: argparse.ArgumentParser) -> None:
    """``--encoding``: the text encoding of the input, instead of detecting it."""
    parser.add_argument(
        "--encoding", type=encoding_type, metavar="NAME",
        help="the input's text encoding (e.g. cp1251, cp1250, gb18030, utf-16), for a text or "
             "subtitle file whose encoding is guessed wrong (default: detected)")


def _within(text: str, bounds: tuple[float, float], what: str, unit: str) -> float:
    """``text`` as a number within ``bounds``, else the argparse error that says which are allowed."""
    low, high = bounds
    try:
        n = float(text)
    except ValueError:
        n = float("nan")
    if not low <= n <= high:
        raise argparse.ArgumentTypeError(f"expected {what} of {low:g} to {high:g} {unit}, not {text!r}")
    return n


def _number_of(declared: LayoutOption) -> Callable[[str], float]:
    """The argparse type of a layout option: a number within its bounds, whole where it must be."""
    def number(text: str) -> float:
        n = _within(text, declared.bounds, declared.what, declared.unit)
        if declared.whole and not n.is_integer():
            raise argparse.ArgumentTypeError(f"expected a whole number of {declared.unit}, not {text!r}")
        return int(n) if declared.whole else n
    return number


def add_layout_arguments(parser: argparse.ArgumentParser) -> None:
    """How the subtitles a command writes are laid out (`SubtitleLayout`; read back with
    :func:`layout_from_args`): a flag for each option the layout declares (`layout_options`),
    and the speaker style."""
    g = parser.add_argument_group("subtitles written (.srt .vtt .sbv .ass .ttml)")
    for name, declared in layout_options().items():
        g.add_argument(declared.flag, dest=name, type=_number_of(declared), metavar="N", help=declared.help)
    g.add_argument("--srt-speakers", choices=SPEAKER_STYLES, default=None,
                   help='how .srt and .sbv show who speaks: "name" writes "Ann: " where the speaker '
                        'changes (the default), "dash" a "- " before each speaker\'s line in a cue '
                        "two share")


def layout_from_args(args: argparse.Namespace) -> SubtitleLayout:
    """The layout that :func:`add_layout_arguments`' options ask for (the defaults where a command
    has none of them)."""
    return layout_from_options({name: getattr(args, name, None) for name in layout_options()},
                               getattr(args, "srt_speakers", None) or "name")
