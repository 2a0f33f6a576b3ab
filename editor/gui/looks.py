"""What a word looks like in the view: its separator, its text with pending suggestions shown as
proposals, and the character formats of the confidence bands (the legend explains each one)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor, QTextFormat

from editor.core.document import Kind, State, Transcript
from editor.core.settings import Settings

BANDS = ("high", "medium", "low")
PARAGRAPH_GAP = "\n\n"  # an empty line between paragraphs, as the text will be written
SOFT_BREAK = "\n"  # a line break the view adds inside a huge paragraph; reads as a space
LONG_PARAGRAPH, SOFT_EVERY = 2000, 1000  # words
# Why soft breaks at all: a text block is laid out again whole on every change. Measured with a
# 12,000-word raw transcript in one paragraph (02:50 UTC, 2 busy cores, offscreen), one slice of
# restoration results cost 26 ms to restyle plus 30 ms to lay out and paint as one block, 2-3 ms
# in blocks of 150 words, 5-10 ms in blocks of 1,000-2,000 words. So no paragraph of up to 2,000
# words (a quarter of an hour of speech) is ever broken; a longer one is shown in blocks of 1,000
# words, each continuation marked "⋯" in the margin, so it never reads as a paragraph break.
_ALPHA = {"high": 70, "medium": 110, "low": 120}  # lighter where there are many, so text stays legible
CURRENT_COLOUR = "#1a1a1a"  # the frame around the suggestion under review

Look = tuple[str, str, str, QTextCharFormat | None, QTextCharFormat | None]


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
    if kind == Kind.PUNCT:
        return repr(value) if value else "no mark"
    return value


def soft_breaks(doc: Transcript, starts: list[int] | None = None) -> set[int]:
    """Ids of the words that start a new line inside a very long paragraph. Chosen when the text is
    laid out or paragraphs change, then kept by id, so typing never moves them. ``starts``: the
    document's paragraph starts, when already at hand."""
    starts = doc.paragraph_starts if starts is None else starts
    soft: set[int] = set()
    for a, b in zip(starts, [*starts[1:], len(doc)]):
        if b - a > LONG_PARAGRAPH:
            soft.update(doc[i].id for i in range(a + SOFT_EVERY, b, SOFT_EVERY))
    return soft


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
        if index == 0:
            return ""
        if doc.is_paragraph_start(index):
            return PARAGRAPH_GAP
        return SOFT_BREAK if doc[index].id in soft else " "

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
