"""Subtitles: one module a format (srt and sbv, vtt, ass, ttml, sami) and what they share.

Reading: ``cues`` (cue text to words, cues into a transcript), ``rolling`` (rolling captions and
word highlights collapsed), ``styles`` (colours, bold, italic, WebVTT classes), ``prefixes``
(speaker prefixes such as "Ann: "). Writing: ``layout`` (`SubtitleLayout`, the one record of how
cues are laid out), ``writing`` (words into cues), ``writeback`` (a file patched where it stands).
Callers read and write through ``editor.core.formats`` (`read_any`, `write_any`), by extension.
"""
