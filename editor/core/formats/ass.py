"""SubStation Alpha subtitles (.ass, .ssa: Aegisub and most fansub tools), read and written with
pysubs2, and SAMI (.smi, .sami: Windows Media captions) read with it. Dialogue events are cues;
comments and vector drawings are not text."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from editor.core.document import Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import PathLike, atomic_write
from editor.core.formats.cue_writing import OutCue, ass_text, cues_to_write, styling_warnings
from editor.core.formats.subtitles import Cue, checked_times, transcript_from_cues
from editor.core.formats.txt import read_text
from editor.core.render import NONE, RenderPolicy

if TYPE_CHECKING:
    from pysubs2 import SSAFile  # imported when a file is read or written

_DRAWING = re.compile(r"\{[^}]*\\p[1-9]")
_OVERRIDE = re.compile(r"\{[^}]*\}")
_COMMENT = re.compile(r"\{(?!\\)[^}]*\}")


def _style_tags(subs: SSAFile, name: str) -> str:
    """Override tags saying what an event's style sets of what other formats carry: italics,
    bold, underline, strike-through and a position other than bottom centre."""
    style = subs.styles.get(name)
    if style is None:
        return ""
    tags = [f"\\{tag}1" for tag, on in (("b", style.bold), ("i", style.italic), ("u", style.underline),
                                         ("s", style.strikeout)) if on]
    if int(style.alignment) != 2:
        tags.append(f"\\an{int(style.alignment)}")
    return "{" + "".join(tags) + "}" if tags else ""


def _parse(path: PathLike, encoding: str | None, format_: str, name: str, marker: str,
           missing: str) -> tuple[SSAFile | None, str, list[str]]:
    """The file read by pysubs2 as `format_`, its text and the reading's warnings; None for a file
    with no text. A file without `marker` (lower case) is not `name` ("no ..." says what lacks)."""
    import pysubs2

    text, warnings = read_text(path, encoding)
    if not text.strip():
        return None, text, warnings
    if marker not in text.lower():
        raise FormatError(path, f"this is not {name}: {missing}")
    try:
        return pysubs2.SSAFile.from_string(text, format_=format_), text, warnings
    except Exception as err:  # noqa: BLE001 - pysubs2 raises many kinds; the user needs one line
        raise FormatError(path, f"this {name} file cannot be read ({_reason(err)})") from None


def read_ass(path: PathLike, encoding: str | None = None) -> Transcript:
    subs, text, warnings = _parse(path, encoding, "ass", "SubStation Alpha", "[events]", "no [Events] section")
    if subs is None:
        return transcript_from_cues([], path, warnings, "ass")
    cues = []
    for n, event in enumerate(subs.events, 1):
        if event.is_comment or _DRAWING.search(event.text):
            continue
        lines = tuple(line for line in _OVERRIDE.sub("", event.text).replace("\\h", "\u00a0")
                      .replace("\\n", "\n").replace("\\N", "\n").split("\n") if line.strip())
        # the text with its override tags ({\\i1}, {\\an8}; comments in braces dropped) and
        # its style's italics, bold and position, which carry to other formats (cue_style)
        tagged = _COMMENT.sub("", event.text).replace("\\h", "\u00a0").replace(
            "\\n", "\n").replace("\\N", "\n")
        cues.append(Cue(event.start / 1000, event.end / 1000, lines, event.name.strip() or None,
                        text=_style_tags(subs, event.style) + tagged if lines else "",
                        ident=str(n)))
    if not cues and subs.events == [] and "dialogue:" in text.lower():
        raise FormatError(path, "no Dialogue line could be read (is the [Events] Format line missing?)")
    return transcript_from_cues(checked_times(cues, path, warnings), path, warnings, "ass")


def read_sami(path: PathLike, encoding: str | None = None) -> Transcript:
    subs, _text, warnings = _parse(path, encoding, "sami", "SAMI", "<sync", "no <SYNC> element")
    if subs is None:
        return transcript_from_cues([], path, warnings, "sami")
    cues = []
    for n, event in enumerate(subs.events, 1):
        lines = tuple(line for line in event.plaintext.split("\n") if line.strip())
        if lines:
            cues.append(Cue(event.start / 1000, event.end / 1000, lines,
                            text="\n".join(lines), ident=str(n)))
    return transcript_from_cues(checked_times(cues, path, warnings), path, warnings, "sami")


def _reason(err: Exception) -> str:
    return " ".join(str(err).split())[:100] or type(err).__name__


def _subs(transcript: Transcript, policy: RenderPolicy, path: PathLike) -> tuple[SSAFile, list[OutCue]]:
    """The cues as pysubs2 events, their styles as override tags ({\\i1}, {\\an8}...)."""
    import pysubs2

    subs = pysubs2.SSAFile()
    cues = cues_to_write(transcript, policy, path)
    for cue in cues:
        if cue.styled:
            text = ass_text(cue.styled)
        else:
            text = "\\N".join(line.replace("{", "(").replace("}", ")") for line in cue.lines)
            if cue.italic:
                text = "{\\i1}" + text
        if cue.align:
            text = f"{{\\an{cue.align}}}{text}"
        subs.append(pysubs2.SSAEvent(start=round(cue.start * 1000), end=round(cue.end * 1000),
                                     text=text, name=cue.speaker or ""))
    return subs, cues


def write_ass(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE) -> list[str]:
    """Write SubStation Alpha (pysubs2); the warnings say what styling could not be written."""
    subs, cues = _subs(transcript, policy, path)
    atomic_write(path, subs.to_string("ass").encode("utf-8"))
    return styling_warnings(cues, "ass", "SubStation Alpha", verbatim=False)


def write_ttml(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE) -> list[str]:
    subs, cues = _subs(transcript, policy, path)
    atomic_write(path, subs.to_string("ttml").encode("utf-8"))
    return styling_warnings(cues, "ttml", "TTML", verbatim=False)
