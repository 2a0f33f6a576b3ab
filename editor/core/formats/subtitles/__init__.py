"""Subtitles: one module a format (srt, sbv, vtt, ass, ttml, sami) and what they share.

Reading: ``cues`` (a cue and its text: tags, words, times), ``reading`` (cues into a transcript),
``rolling`` (rolling captions and word highlights read once), ``styles`` (colours, bold, italic,
WebVTT classes), ``prefixes`` (speaker prefixes such as "Ann: "). Writing: ``layout``
(`SubtitleLayout`, the one record of how cues are laid out, and the options a person sets on it),
``writing`` (words into cues), ``writeback`` (a file patched where it stands).

Files are read and written through ``editor.core.formats`` (`read_any`, `write_any`), by
extension. What the rest of Stet uses of subtitles besides is exported here, each name imported
from its module on first use (`editor.core.lazy`), so that importing the layout loads no writer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.core.lazy import lazy_exports

# name -> module
_EXPORTS = {
    "DEFAULT_LAYOUT": "layout", "LayoutOption": "layout", "SPEAKER_STYLES": "layout",
    "SubtitleLayout": "layout", "layout_from_options": "layout", "layout_from_settings": "layout",
    "layout_options": "layout",
    "WordStyles": "styles",
    "CueProblem": "writing", "cue_problems": "writing",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from editor.core.formats.subtitles.layout import (DEFAULT_LAYOUT, SPEAKER_STYLES, LayoutOption, SubtitleLayout,
                                                      layout_from_options, layout_from_settings, layout_options)
    from editor.core.formats.subtitles.styles import WordStyles
    from editor.core.formats.subtitles.writing import CueProblem, cue_problems
