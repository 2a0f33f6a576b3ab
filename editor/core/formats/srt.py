"""SubRip subtitles (.srt), parsed and composed by the ``srt`` library."""

from __future__ import annotations

import datetime
import re

import srt

from editor.core.document import Transcript
from editor.core.errors import FormatError
from editor.core.formats._common import MAX_SECONDS, PathLike, atomic_write
from editor.core.formats.subtitles import Cue, cut_cues, transcript_from_cues
from editor.core.formats.txt import read_text
from editor.core.render import NONE, RenderPolicy

# SubRip files often carry <i>, <b>, <font ...> and {\an8}-style tags; they are not words.
_TAGS = re.compile(r"</?[a-zA-Z][^>\n]{0,80}>|\{\\[^}\n]{0,80}\}")
# A cue whose time line is missing is read by the parser as more text of the cue before it,
# blank line and cue number included.
_ORPHAN_CUE = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)*[ \t]*(\d+)[ \t]*\n")


def read_srt(path: PathLike) -> Transcript:
    text, warnings = read_text(path)
    cues = []
    try:
        for sub in srt.parse(text):
            start, end = sub.start.total_seconds(), sub.end.total_seconds()
            if max(start, end) > MAX_SECONDS or min(start, end) < 0:
                raise FormatError(path, f"cue {sub.index} has an implausible time "
                                  f"({sub.start} --> {sub.end})")
            # A reversed cue is a slip of the pen, not a reason to refuse the file.
            if end < start:
                warnings.append(f"cue {sub.index} ends before it starts ({sub.start} --> {sub.end}); "
                                "its times were swapped")
            content = sub.content
            orphans = _ORPHAN_CUE.findall(content)
            if orphans:
                # keep the words (they are the user's text), drop the cue numbers, and say so
                warnings.append(f"cue{'s' if len(orphans) > 1 else ''} {', '.join(orphans)} "
                                f"{'have' if len(orphans) > 1 else 'has'} no time line; "
                                f"the words were joined to cue {sub.index}")
                content = _ORPHAN_CUE.sub("\n", content)
            cues.append(Cue(min(start, end), max(start, end),
                            tuple(_TAGS.sub("", content).split("\n"))))
    except srt.SRTParseError as err:
        line = text.count("\n", 0, err.actual_start) + 1
        raise FormatError(path, "this is not SubRip: expected a cue number and a time line "
                          "such as 00:00:01,000 --> 00:00:02,000", line=line) from None
    except (ValueError, OverflowError) as err:  # srt.TimestampParseError is a ValueError
        raise FormatError(path, f"a cue time cannot be read ({err})") from None
    if not cues and text.strip():
        raise FormatError(path, "no subtitle cues found")
    return transcript_from_cues(cues, path, warnings)


def write_srt(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE) -> None:
    subs = [srt.Subtitle(n, datetime.timedelta(seconds=c.start), datetime.timedelta(seconds=c.end),
                         "\n".join(c.lines))
            for n, c in enumerate(cut_cues(transcript, policy, path), 1)]
    atomic_write(path, srt.compose(subs, reindex=False).encode("utf-8"))
