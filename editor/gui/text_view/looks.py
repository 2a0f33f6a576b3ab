"""What a word looks like in the view: its separator, its text with pending suggestions shown as
proposals, and the character formats of the confidence bands (the legend explains each one)."""

from __future__ import annotations

import math

from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor, QTextFormat

from editor.core.document.transcript import Kind, State, Suggestion, Transcript
from editor.core.formats.subtitles import WordStyles
from editor.core.document.records import CHOICE
from editor.core.settings import Settings
from editor.core.document.text import ends_sentence

BANDS = ("high", "medium", "low")
PARAGRAPH_GAP = "\n\n"  # an empty line between paragraphs, as the text will be written
SOFT_BREAK = "\n"  # a new line, no empty line: before a proposed paragraph break (or a rejected
# one kept as a line, see editor.core.document.paragraphs.kept_lines); it reads as a space when written.
# Why a text running on is shown in lines at proposed breaks: Qt lays a text block out again whole
# on every change, so a keystroke in one block of 100,000 words costs tens of ms (and turning
# wrapping off makes it slower): docs/performance.md, "One long text block in Qt".
_ALPHA = {"high": 70, "medium": 110, "low": 120}  # lighter where there are many, so text stays legible
CURRENT_COLOUR = "#1a1a1a"  # the frame around the suggestion under review
# A proposed mark is drawn heavier than the text (its weight, Black where the font has it), so
# that a full stop is a square dot and a comma a tadpole at the default size. Not larger: a larger
# glyph makes its line taller, and the lines would jump as marks are accepted. Not outlined
# either: Qt draws an outlined glyph as a path, never from its glyph cache, and a screen of
# restored text (about 100 marks) took three times as long to paint, 4-12 ms more in the turn of
# every Enter and every slice of accept-all (docs/performance.md).
#: Space after a proposed sentence end (. ? !), in ems, so its tint is a wide box where a pause's
#: (, ; :) is a narrow one: the two differ by the tint's shape as well. Only there: a mark's box
#: shrinks back when it is accepted, and the fewer such boxes, the less the lines rewrap under
#: the reader during a review.
PAUSE_GAP, END_GAP = 0.0, 0.3

Look = tuple[str, str, str, QTextCharFormat | None, QTextCharFormat | None]
#: a colour read from a cue is shown at least this contrast against the text's background (WCAG
#: asks 3 of large text): white or yellow subtitle text would vanish on a white page
_MIN_CONTRAST = 3.0


#: Speakers' colours in the margin: blues, purples and greys, apart from the confidence colours
#: (green, orange, vermilion and their palettes' kin), so a name never reads as a confidence.
SPEAKER_COLOURS = ("#0072B2", "#8E44AD", "#56B4E9", "#CC79A7", "#34495E", "#5D6D9E", "#6C3483",
                   "#7F8C8D", "#2E4053")


def speaker_colour(index: int) -> str:
    """The colour of the ``index``-th speaker (in the order they first speak)."""
    return SPEAKER_COLOURS[index % len(SPEAKER_COLOURS)]


def percent(p: float) -> str:
    """A confidence as the review shows it: whole percent, rounded down, so that one just under
    a threshold (59.6 % under "Low < 60 %") never reads as the threshold itself."""
    return f"{math.floor(p * 100 + 1e-9):.0f}%"


def band_of(confidence: float, settings: Settings) -> str:
    if confidence >= settings.review.high:
        return "high"
    return "low" if confidence < settings.review.low else "medium"


#: The suggestion list's filter (and Tab's) to the proposals that repeat the person's choice
#: elsewhere, beside the confidence bands.
CHOICE_BAND = "choice"


def in_band(s: Suggestion, band: str | None, settings: Settings) -> bool:
    """Whether the list filtered to ``band`` (a confidence band, ``CHOICE_BAND`` or None: all)
    shows ``s``."""
    if band is None:
        return True
    if band == CHOICE_BAND:
        return s.source == CHOICE
    return band_of(s.confidence, settings) == band


def band_phrase(band: str) -> str:
    """"low-confidence suggestions", "suggestions from your choice"."""
    return "suggestions from your choice" if band == CHOICE_BAND else f"{band}-confidence suggestions"


def band_colour(band: str, settings: Settings, alpha: int | None = None) -> QColor:
    colour = QColor(getattr(settings.appearance, f"{band}_colour"))
    if alpha is not None:
        colour.setAlpha(alpha)
    return colour


#: A mark's name, said beside it where the mark alone is a dot or a tick hard to tell apart
MARK_NAMES = {",": "comma", ".": "full stop", "?": "question mark", "!": "exclamation mark", ":": "colon",
              ";": "semicolon", "…": "ellipsis"}


def named_mark(mark: str) -> str:
    """"‘,’ comma", "‘.’ full stop": a mark as the list and the panel name it."""
    name = MARK_NAMES.get(mark)
    return f"‘{mark}’ {name}" if name else f"‘{mark}’"


def describe_value(kind: Kind, value: str) -> str:
    if kind == Kind.BREAK:
        return "new paragraph" if value else "run on (no break)"
    if kind == Kind.PUNCT:
        return named_mark(value) if value else "no mark"
    return value


def _luminance(colour: QColor) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF())


def readable(colour: QColor, background: QColor) -> QColor:
    """``colour`` made darker (on a light background; lighter on a dark one) until text in it
    can be read there: its hue stays, so yellow subtitle text reads as a dark yellow."""
    bg = _luminance(background)
    dark_page = bg < 0.5
    for _ in range(24):
        fg = _luminance(colour)
        if (max(fg, bg) + 0.05) / (min(fg, bg) + 0.05) >= _MIN_CONTRAST:
            break
        colour = colour.lighter(125) if dark_page else colour.darker(125)
    return colour


class Looks:
    """The formats of one set of settings, and the look of any token of a transcript."""

    def __init__(self, settings: Settings, background: QColor | None = None) -> None:
        self.settings = settings
        self.formats = {band: self._band_format(band) for band in BANDS}
        #: (band, ends a sentence) -> the format of a proposed mark
        self.mark_formats = {(band, end): self._band_format(band, mark=True, end=end)
                             for band in BANDS for end in (False, True)}
        self.plain = QTextCharFormat()
        self.background = QColor("white") if background is None else background
        self._styled: dict[frozenset[str], QTextCharFormat | None] = {}

    def style_format(self, styles: frozenset[str]) -> QTextCharFormat | None:
        """The format of a word's styles as read from its cue (italics, bold, underline,
        strike-through, colour; a WebVTT class shows what it sets), None when it has none."""
        if styles in self._styled:
            return self._styled[styles]
        colour = next((QColor(s.removeprefix("color:")) for s in styles if s.startswith("color:")), None)
        if not styles & {"i", "b", "u", "s"} and (colour is None or not colour.isValid()):
            self._styled[styles] = None  # a WebVTT class that sets nothing shown
            return None
        fmt = QTextCharFormat()
        fmt.setFontItalic("i" in styles)
        if "b" in styles:
            fmt.setFontWeight(QFont.Weight.Bold)
        fmt.setFontUnderline("u" in styles)
        fmt.setFontStrikeOut("s" in styles)
        if colour is not None and colour.isValid():
            fmt.setForeground(readable(colour, self.background))
        self._styled[styles] = fmt
        return fmt

    def mark_format(self, band: str, mark: str) -> QTextCharFormat:
        """The format of a proposed ``mark`` ("," or "." ...) of confidence ``band``."""
        return self.mark_formats[band, ends_sentence(mark)]

    def _band_format(self, band: str, mark: bool = False, end: bool = False) -> QTextCharFormat:
        """A suggested capital is tinted; a suggested mark also heavy and a shade
        stronger, in a box of its own: a lone comma stands out, and reads apart from a full stop."""
        fmt = QTextCharFormat()
        fmt.setBackground(band_colour(band, self.settings, _ALPHA[band] + (60 if mark else 0)))
        if mark:
            size = self.settings.appearance.font_size
            fmt.setFontWeight(QFont.Weight.Black)
            gap = END_GAP if end else PAUSE_GAP
            if gap:
                fmt.setFontLetterSpacingType(QFont.SpacingType.AbsoluteSpacing)
                # points to pixels at 96 dpi, about: the box only needs to be visibly wider
                fmt.setFontLetterSpacing(round(gap * size * 4 / 3))
        if band == "low":  # a cue that does not depend on telling colours apart
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
            fmt.setUnderlineColor(band_colour(band, self.settings))
        fmt.setProperty(QTextFormat.Property.UserProperty, band)
        return fmt

    def separator(self, doc: Transcript, index: int, soft: set[int]) -> str:
        """A paragraph's empty line; a new line before a proposed break or a rejected one in
        ``soft`` (token ids); else a space."""
        if index == 0:
            return ""
        if doc.is_paragraph_start(index):
            return PARAGRAPH_GAP
        token_id = doc[index].id
        if token_id in soft:
            return SOFT_BREAK
        proposal = doc.suggestion_view(token_id).get(Kind.BREAK)
        return SOFT_BREAK if proposal is not None and proposal.state == State.PENDING else " "

    def look(self, doc: Transcript, index: int, soft: set[int],
             styles: WordStyles | None = None) -> Look:
        """(separator, surface, punct, surface format, punct format) of token ``index``; a word
        read from a styled subtitle cue (``styles``, by token id) in its italics, bold...
        under any proposal's tint."""
        token = doc[index]
        sep = self.separator(doc, index, soft)
        surface, punct = token.surface or token.word, token.punct
        sfmt = pfmt = None
        slot = doc.suggestion_view(token.id)  # not copied: this runs for every token of a rebuild
        if slot:
            case = slot.get(Kind.CASE)
            if case is not None and case.state == State.PENDING:
                surface = case.value or surface
                sfmt = self.formats[band_of(case.confidence, self.settings)]
            mark = slot.get(Kind.PUNCT)
            if mark is not None and mark.state == State.PENDING:
                punct = mark.value
                pfmt = self.mark_format(band_of(mark.confidence, self.settings), punct)
                if not punct and not token.punct:  # keep it without a mark (from your choice):
                    sfmt = sfmt or self.formats[band_of(mark.confidence, self.settings)]  # the word tinted
                elif not punct:  # a mark to take away: underline the word in the band's colour
                    sfmt = QTextCharFormat(sfmt or self.plain)
                    sfmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
                    sfmt.setUnderlineColor(band_colour(band_of(mark.confidence, self.settings),
                                                       self.settings))
        style = styles.get(token.id) if styles else None
        if style is not None:
            word, after = style
            word_fmt = self.style_format(word)
            # a mark the cue did not have (one proposed or typed) in the word's styles
            mark_fmt = word_fmt if after is None else self.style_format(after)
            sfmt, pfmt = _under(word_fmt, sfmt), _under(mark_fmt, pfmt)
        return sep, surface, punct, sfmt, pfmt

    def format_token(self, cursor: QTextCursor, at: int, surface: str, punct: str,
                     sfmt: QTextCharFormat | None, pfmt: QTextCharFormat | None) -> None:
        """Give the word at ``at`` (already in the text) its formats."""
        if sfmt is pfmt:  # both plain: one range
            cursor.setPosition(at)
            cursor.setPosition(at + len(surface) + len(punct), QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(sfmt or self.plain)
            return
        cursor.setPosition(at)
        cursor.setPosition(at + len(surface), QTextCursor.MoveMode.KeepAnchor)
        cursor.setCharFormat(sfmt or self.plain)
        if punct:
            cursor.setPosition(at + len(surface))
            cursor.setPosition(at + len(surface) + len(punct), QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(pfmt or self.plain)

    def insert(self, cursor: QTextCursor, sep: str, surface: str, punct: str,
               sfmt: QTextCharFormat | None, pfmt: QTextCharFormat | None) -> None:
        """Type one token's piece at the cursor, with its formats."""
        if sep:
            cursor.insertText(sep, self.plain)
        cursor.insertText(surface, sfmt or self.plain)
        if punct:
            cursor.insertText(punct, pfmt or self.plain)


def _under(base: QTextCharFormat | None, fmt: QTextCharFormat | None) -> QTextCharFormat | None:
    """``fmt`` (a proposal's tint) over ``base`` (a word's own styles)."""
    if base is None or fmt is None:
        return fmt if base is None else base
    merged = QTextCharFormat(base)
    merged.merge(fmt)
    return merged
