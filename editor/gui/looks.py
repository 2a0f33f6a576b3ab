"""What a word looks like in the view: its separator, its text with pending suggestions shown as
proposals, and the character formats of the confidence bands (the legend explains each one)."""

from __future__ import annotations

import math

from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor, QTextFormat

from editor.core.document import Kind, State, Transcript
from editor.core.settings import Settings

BANDS = ("high", "medium", "low")
PARAGRAPH_GAP = "\n\n"  # an empty line between paragraphs, as the text will be written
SOFT_BREAK = "\n"  # a new line, no empty line: before a proposed paragraph break (or a rejected
# one kept as a line, see editor.core.paragraphs.kept_lines); it reads as a space when written.
# Why a text running on is shown in lines at proposed breaks: Qt lays a text block out again whole
# on every change, so a keystroke in one block of 100,000 words costs tens of ms (and turning
# wrapping off makes it slower): docs/performance.md, "One long text block in Qt".
_ALPHA = {"high": 70, "medium": 110, "low": 120}  # lighter where there are many, so text stays legible
CURRENT_COLOUR = "#1a1a1a"  # the frame around the suggestion under review

Look = tuple[str, str, str, QTextCharFormat | None, QTextCharFormat | None]


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


def band_colour(band: str, settings: Settings, alpha: int | None = None) -> QColor:
    colour = QColor(getattr(settings.appearance, f"{band}_colour"))
    if alpha is not None:
        colour.setAlpha(alpha)
    return colour


def describe_value(kind: Kind, value: str) -> str:
    if kind == Kind.BREAK:
        return "new paragraph" if value else "run on (no break)"
    if kind == Kind.PUNCT:
        return repr(value) if value else "no mark"
    return value


class Looks:
    """The formats of one set of settings, and the look of any token of a transcript."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.formats = {band: self._band_format(band) for band in BANDS}
        self.mark_formats = {band: self._band_format(band, mark=True) for band in BANDS}
        self.plain = QTextCharFormat()

    def _band_format(self, band: str, mark: bool = False) -> QTextCharFormat:
        """A suggested capital is tinted; a suggested mark also bold and a shade stronger, so a
        lone comma stands out."""
        fmt = QTextCharFormat()
        fmt.setBackground(band_colour(band, self.settings, _ALPHA[band] + (60 if mark else 0)))
        if mark:
            fmt.setFontWeight(QFont.Weight.Bold)
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

    def look(self, doc: Transcript, index: int, soft: set[int]) -> Look:
        """(separator, surface, punct, surface format, punct format) of token ``index``."""
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
                pfmt = self.mark_formats[band_of(mark.confidence, self.settings)]
                if not punct:  # a mark to take away: underline the word in the band's colour
                    sfmt = QTextCharFormat(sfmt or self.plain)
                    sfmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
                    sfmt.setUnderlineColor(band_colour(band_of(mark.confidence, self.settings),
                                                       self.settings))
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
