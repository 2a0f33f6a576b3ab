"""YouTube's SubViewer subtitles (.sbv): SubRip's blocks (`srt.parse_blocks`) with a time line
"0:00:01.000,0:00:02.000" and no cue number; plain text, no styling."""

from __future__ import annotations

from editor.core.document.transcript import Transcript
from editor.core.formats._common import PathLike, atomic_write, format_clock
from editor.core.formats.subtitles.cues import protect
from editor.core.formats.subtitles.reading import transcript_from_cues
from editor.core.formats.subtitles.layout import DEFAULT_LAYOUT, SubtitleLayout
from editor.core.formats.subtitles.srt import SBV_TIMING, last_voice, parse_blocks, srt_text
from editor.core.formats.subtitles.writeback import encode, source_of, write_back
from editor.core.formats.subtitles.writing import OutCue, cues_to_write, styling_warnings
from editor.core.formats.txt import read_source
from editor.core.render import NONE, RenderPolicy


def read_sbv(path: PathLike, encoding: str | None = None) -> Transcript:
    text, warnings, source = read_source(path, encoding, line_breaks=False)
    return transcript_from_cues(parse_blocks(text, path, warnings, SBV_TIMING, "SubViewer (.sbv)",
                                             "0:00:01.000,0:00:02.000"), path, warnings, "sbv",
                                source=source)


def write_sbv(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE, *,
              layout: SubtitleLayout = DEFAULT_LAYOUT) -> list[str]:
    """Write SubViewer (YouTube's .sbv) laid out by ``layout``: plain text, no styling."""
    speaker_style = layout.speaker_style
    source = source_of(transcript, "sbv", path)
    if source is not None:
        patched = write_back(transcript, policy, path, source, protect, lambda cue, before: srt_text(
            OutCue(cue.start, cue.end, cue.lines, cue.speaker, voices=cue.voices), before, speaker_style),
            layout)
        if patched is not None:
            atomic_write(path, patched[0])
            return patched[1]
    blocks, previous = [], None
    cues = cues_to_write(transcript, policy, path, layout)
    for cue in cues:
        src = cue.source
        if src is not None and src.format == "sbv":
            blocks.append(f"{src.timing}" + (f"\n{src.text}" if src.text else ""))
        else:
            plain = OutCue(cue.start, cue.end, cue.lines, cue.speaker, voices=cue.voices)
            text = srt_text(plain, previous, speaker_style)
            blocks.append(f"{_sbv_clock(cue.start)},{_sbv_clock(cue.end)}\n{text}")
        previous = last_voice(cue)
    data, warnings = encode("\n\n".join(blocks) + "\n", source)
    atomic_write(path, data)
    return warnings + styling_warnings(cues, "sbv", "SubViewer (.sbv)")


def _sbv_clock(t: float) -> str:
    clock = format_clock(t)
    return clock[1:] if clock.startswith("0") else clock
