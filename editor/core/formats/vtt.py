"""WebVTT subtitles (.vtt), parsed and written with ``webvtt-py``."""

from __future__ import annotations

import html
import io

import webvtt
from webvtt.errors import MalformedCaptionError, MalformedFileError

from editor.core.document import Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import MAX_SECONDS, PathLike, atomic_write, format_clock
from editor.core.formats.subtitles import Cue, cut_cues, transcript_from_cues
from editor.core.formats.txt import read_text
from editor.core.render import NONE, RenderPolicy


def read_vtt(path: PathLike) -> Transcript:
    text, warnings = read_text(path)
    try:
        # strict: a malformed cue block is an error, not silently left out
        captions = webvtt.from_buffer(io.StringIO(text), strict=True).captions
        cues = []
        for n, caption in enumerate(captions, 1):
            start = caption.start_time.in_milliseconds() / 1000
            end = caption.end_time.in_milliseconds() / 1000
            if max(start, end) > MAX_SECONDS or min(start, end) < 0:
                raise FormatError(path, f"cue {n} has an implausible time "
                                  f"({caption.start} --> {caption.end})")
            lines = tuple(html.unescape(line) for line in caption.text.split("\n"))
            cues.append(Cue(min(start, end), max(start, end), lines, caption.voice))
    except MalformedFileError:
        raise FormatError(path, "this is not WebVTT: it must begin with the line WEBVTT",
                          line=1) from None
    except (MalformedCaptionError, ValueError, OverflowError) as err:
        raise FormatError(path, f"a cue cannot be read ({err})") from None
    return transcript_from_cues(cues, path, warnings)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_vtt(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE) -> None:
    captions = []
    for cue in cut_cues(transcript, policy, path):
        lines = [_escape(line) for line in cue.lines]
        if cue.speaker:
            lines[0] = f"<v {_escape(cue.speaker)}>{lines[0]}"
        captions.append(webvtt.Caption(format_clock(cue.start), format_clock(cue.end), lines))
    atomic_write(path, webvtt.WebVTT(captions=captions).content.encode("utf-8"))
