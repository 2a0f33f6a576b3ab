"""Splitting written text into words, the surface they show and the punctuation after them.

Both the format readers and span editing use this, so typed text and read text behave the same.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

#: Closing quotation marks and brackets. Apostrophes are not among the quotes: they stay with the
#: word ("students'", "rock'n'roll").
CLOSING_QUOTES = frozenset('"”»')
CLOSING_BRACKETS = frozenset(")]}")
#: Characters that, at the end of a chunk, are punctuation after the word rather than part of it.
#: The commas and stops of other scripts count too (Arabic "،؟", Chinese and Japanese "。、，！？",
#: Devanagari "।"), so a word read from such text is the word alone, as a recogniser emits it.
TRAILING_MARKS = (frozenset(".,?!:;…—–") | frozenset("،؛؟۔。、，！？；：।॥") | CLOSING_QUOTES
                  | CLOSING_BRACKETS)
SENTENCE_END = frozenset(".?!…")
#: A character reference: a name or number between "&" and ";" (&amp; &lt; &nbsp; &#39;). Without
#: its ";" it is text: "&para" in "Tom &paragraph" is not "¶", nor "&not" in "&notin" "¬".
CHARACTER_REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")

_WHITESPACE = re.compile(r"\s+")
#: Characters that show nothing and are no whitespace, yet belong to the text where they stand:
#: the soft hyphen, the zero-width space, non-joiner and joiner (Persian and Indic spelling, emoji
#: sequences), the word joiner and the invisible operators, and the direction marks, embeddings
#: and isolates of right-to-left text (U+061C, U+200E/F, U+202A-E, U+2066-9). None of them parts
#: words (``str.split`` and ``\s`` take none of them for a space): a word keeps them where they
#: were, and is written back with them. The model reads words without them (`bare_word`).
INVISIBLE = frozenset("\u00ad\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d"
                      "\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069")
_INVISIBLE = re.compile("[" + "".join(sorted(INVISIBLE)) + "]")
#: Control characters no text holds (NUL, escape codes) and a byte order mark within the text
#: (where files were joined): dropped on reading.
_CONTROLS = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\ufeff]")
#: Whitespace that is not a space, tab or newline but ends a line, as ``str.splitlines`` and the
#: Unicode line breaking rules (UAX #14: BK, NL) take it: in plain text each is a line break
#: (pdftotext puts a form feed between pages; NEL and U+2028 end lines, U+2029 a paragraph).
_LINE_BREAKS = str.maketrans({"\x0b": "\n", "\x0c": "\n", "\x1c": "\n", "\x1d": "\n",
                              "\x1e": "\n", "\x1f": "\n", "\x85": "\n", "\u2028": "\n",
                              "\u2029": "\n\n"})
#: A line end of any style: CR LF (Windows), LF (Unix), CR (classic Mac OS), LF CR (written by
#: some converters and by hand-rolled writers), and CR CR LF (CR LF sent through a text-mode
#: write once more). Read left to right, so "\n\r\n\r" is two line ends, not LF, CR LF, CR.
_LINE_END = re.compile("\r\r\n|\r\n|\n\r|\r")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n")


@dataclass(frozen=True, slots=True)
class Piece:
    """One written word: ``surface`` as shown, ``punct`` after it, ``word`` as a recogniser says it."""

    word: str
    surface: str
    punct: str = ""


#: Abbreviations whose final period belongs to the word ("Mr.", "vs."), not to the sentence. Dotted
#: forms ("U.S.", "e.g.", "a.m.") count too (see `is_abbreviation`). Training labels, the reading of
#: written text and the restorer's output all follow this one rule.
ABBREVIATIONS = frozenset(
    "mr mrs ms dr st jr sr prof gen col lt capt sgt rev hon gov sen rep messrs mme mlle "
    "vs v e.g i.e u.s u.k a.m p.m".split()
)
_DOTTED = re.compile(r"(?:[^\W\d_]\.)+[^\W\d_]")  # single letters joined by periods: u.s, e.g


def is_abbreviation(word: str) -> bool:
    """Whether `word` (lower case, without its final period) is written with a period of its own."""
    return word in ABBREVIATIONS or _DOTTED.fullmatch(word) is not None


def split_opening(surface: str) -> tuple[str, str]:
    """(opening marks, the rest): '"(Hello' -> ('"(', 'Hello'); '...' -> ('...', '')."""
    cut = 0
    while cut < len(surface) and not surface[cut].isalnum():
        cut += 1
    return surface[:cut], surface[cut:]


def normalize_word(surface: str) -> str:
    """The word as an ASR engine would emit it: lower case, no opening quotes, brackets or other
    marks before it, no abbreviation period after it ("Mr." -> "mr")."""
    word = (split_opening(surface)[1] or surface).lower()
    if word.endswith(".") and is_abbreviation(word[:-1]):
        word = word[:-1]
    return word


def split_chunk(chunk: str) -> tuple[str, str]:
    r"""Split one whitespace-free chunk into (surface, trailing punctuation). An abbreviation keeps
    its own period ("Mr." -> ("Mr.", ""); "U.S.," -> ("U.S.", ",")). `INVISIBLE` characters
    stay where they stand: after the marks with the marks ("שלום.\u200f" -> ("שלום", ".\u200f"),
    a right-to-left mark after a full stop), else with the word ("fi\u200drst\u200b")."""
    cut = len(chunk)
    while cut > 0 and (chunk[cut - 1] in TRAILING_MARKS or chunk[cut - 1] in INVISIBLE):
        cut -= 1
    while cut < len(chunk) and chunk[cut] in INVISIBLE:
        cut += 1
    if cut < len(chunk) and chunk[cut] == "." and cut > 0 and is_abbreviation(split_opening(chunk[:cut])[1].lower()):
        cut += 1
    return chunk[:cut], chunk[cut:]


def join_mark(surface: str, punct: str) -> str:
    """A word and the mark after it as written: an abbreviation's period also ends the sentence
    ("in the U.S." + "." -> "in the U.S.")."""
    if punct == "." and surface.endswith("."):
        return surface
    return f"{surface}{punct}"


def _chunks(text: str, piece: int = 1 << 15) -> Iterator[str]:
    """``_WHITESPACE.split(text)`` a piece of ``piece`` characters at a time, cut at whitespace
    (so with an empty chunk or two more): one split of a 0.5 MB text is one C call of ~16 ms that
    holds the GIL, the time a reading thread then holds the window up."""
    start, n = 0, len(text)
    while start < n:
        cut = _WHITESPACE.search(text, start + piece) if start + piece < n else None
        end = n if cut is None else cut.start()
        yield from _WHITESPACE.split(text[start:end])
        start = end


def split_words(text: str) -> list[Piece]:
    """Split text into pieces; a chunk of punctuation alone joins the punctuation of the word before,
    or, before the first word, opens it with the space kept ("- Hello": a dialogue dash, an emoji)."""
    pieces: list[Piece] = []
    pending_prefix = ""
    for chunk in _chunks(text):
        if not chunk:
            continue
        if not pending_prefix:  # the commonest words at C speed: "word", "word," "word." (no abbreviation)
            mark = chunk[-1]
            if chunk.isalnum():
                pieces.append(_piece(chunk, ""))
                continue
            if mark in _PLAIN_MARKS and chunk[:-1].isalnum() and not (
                    mark == "." and is_abbreviation(chunk[:-1].lower())):
                pieces.append(_piece(chunk[:-1], mark))
                continue
        surface, punct = split_chunk(chunk)
        if not any(ch.isalnum() for ch in surface):
            # "—", "...", "-" standing alone: punctuation belonging to the word before.
            if pieces:
                last = pieces[-1]
                pieces[-1] = Piece(last.word, last.surface, f"{last.punct} {chunk}")
            else:
                pending_prefix += f"{chunk} "
            continue
        surface = pending_prefix + surface
        pending_prefix = ""
        word = normalize_word(surface)
        pieces.append(Piece(surface if word == surface else word, surface, punct))
    if pending_prefix and not pieces:
        pieces.append(Piece(pending_prefix.strip(), pending_prefix.strip()))
    return pieces


#: Marks after a word that `split_words` reads without `split_chunk` (one, alone, after letters)
_PLAIN_MARKS = frozenset(".,?!;:")


def _piece(surface: str, punct: str) -> Piece:
    """The piece of a word of letters or digits alone: its word is its surface in lower case, the
    same string where it already is (a word read costs one string, not two: 51 bytes of a word's
    500 in a long text)."""
    word = surface.lower()
    return Piece(surface if word == surface else word, surface, punct)


def words_of_blocks(blocks: Iterable[str]) -> tuple[list[Piece], list[int]]:
    """The words of blocks of text (paragraphs, or typed lines) and, for each block with words,
    the index of its first word. A block of punctuation only belongs to the words around it, as
    within a line: after a word it ends that word, before the first word it opens it. Blank
    blocks are passed over."""
    pieces: list[Piece] = []
    starts: list[int] = []
    carry = ""  # marks of blocks before the first word
    for block in blocks:
        if not block.strip():
            continue
        if not any(ch.isalnum() for ch in block):
            marks = " ".join(block.split())
            if pieces:
                last = pieces[-1]
                pieces[-1] = Piece(last.word, last.surface, f"{last.punct} {marks}")
            else:
                carry = f"{carry} {marks}".strip()
            continue
        starts.append(len(pieces))
        pieces.extend(split_words(f"{carry} {block}" if carry else block))
        carry = ""
    if carry:
        starts.append(len(pieces))
        pieces.extend(split_words(carry))
    return pieces, starts


def split_paragraphs(text: str) -> list[str]:
    """Blocks separated by blank lines; without any blank line, every non-empty line is a paragraph
    (a recogniser's or subtitle tool's text, one utterance per line), unless the lines are hard-
    wrapped at a fixed width: then a line that ends short ends a paragraph (see `unwrap`)."""
    text = normalize_newlines(text)
    if _PARAGRAPH_BREAK.search(text):
        return [block for block in _PARAGRAPH_BREAK.split(text) if block.strip()]
    lines = [line for line in text.split("\n") if line.strip()]
    if caption_lines(lines):
        return [" ".join(line.strip() for line in lines)]
    return unwrap(lines) or lines


def text_as_read(text: str) -> str:
    """Pasted text as a .txt file of it is read: its paragraphs (`split_paragraphs`: caption lines
    and hard-wrapped lines flow into running text) one to a line, and character references decoded
    where it holds any (``weren&#39;t``: see `character_references`). Space and line breaks
    around it stay (a paste that begins with a line break starts a paragraph); text of one line
    is left as it is."""
    body = text.strip()
    if character_references(body):
        body = unescape(body)
    if "\n" in body or "\r" in body:
        body = "\n".join(" ".join(p.split()) for p in split_paragraphs(body))
    if body == text.strip():
        return text
    head = text[:len(text) - len(text.lstrip())]
    tail = text[len(text.rstrip()):]
    return head + body + tail


def caption_lines(lines: list[str]) -> bool:
    """Whether lines are subtitle captions saved as text (YouTube's transcript, a .srt's text):
    at least six, none longer than a caption line (45 characters), most of them long enough to
    be a piece of a sentence (20 or more on average), and few ending a sentence. Such lines
    are pieces of running text, not paragraphs; utterance lines run longer or end sentences."""
    if len(lines) < 6:
        return False
    widths = [len(line.strip()) for line in lines]
    ends = sum(1 for line in lines if line.rstrip()[-1:] in SENTENCE_END)
    return max(widths) <= 45 and sum(widths) / len(widths) >= 20 and ends <= 0.25 * len(lines)


def unwrap(lines: list[str]) -> list[str] | None:
    """The paragraphs of lines hard-wrapped at a fixed width (an editor's or mailer's wrapping), or
    None when they do not look wrapped. A wrapped line is full: the next line's first word would
    not have fitted on it within the widest line. The lines are taken as wrapped when there are at
    least four and three quarters of all but the last are full (at least three); a line that is
    not full ends a paragraph. Lines of utterances or sentences end short far more often."""
    if len(lines) < 4:
        return None
    widths = [len(line.rstrip()) for line in lines]
    widest = max(widths)
    full = [widths[i] + 1 + len(lines[i + 1].split()[0]) > widest for i in range(len(lines) - 1)]
    if sum(full) < max(3, 0.75 * len(full)):
        return None
    paragraphs, current = [], []
    for i, line in enumerate(lines):
        current.append(line.strip())
        if i == len(lines) - 1 or not full[i]:
            paragraphs.append(" ".join(current))
            current = []
    return paragraphs


def unescape(text: str) -> str:
    """Text with its character references (see `CHARACTER_REFERENCE`) decoded; a lone "&", and
    "&name;" where no character has that name ("R&D;"), stay."""
    return CHARACTER_REFERENCE.sub(lambda m: html.unescape(m.group(0)), text)


def character_references(text: str) -> list[str]:
    """The character references in ``text`` that stand for a character (``&#39;``, ``&amp;``)."""
    return [m.group(0) for m in CHARACTER_REFERENCE.finditer(text)
            if html.unescape(m.group(0)) != m.group(0)]


def ends_sentence(punct: str) -> bool:
    return any(ch in SENTENCE_END for ch in punct)


_TAG = re.compile(r"[\[<{].*[\]>}]", re.DOTALL)


def is_tag(text: str) -> bool:
    """Whether a written token is not a word: a bracketed tag that recognisers and transcribers
    write ("[noise]", "<unk>", "[3]", "{laughs}"), or no letter or digit at all. A mark after it
    ("[noise].") does not count."""
    text = text.rstrip(".,?!:;…")
    return bool(_TAG.fullmatch(text)) or not any(ch.isalnum() for ch in text)


def strip_controls(text: str, line_breaks: bool = True) -> str:
    """Drop control characters (NUL, escape codes, a BOM within the text) but keep line breaks,
    tabs and the `INVISIBLE` characters, which belong to the words they stand in. Other
    whitespace controls that end lines (form feed, vertical tab, NEL, U+2028/2029) become line
    breaks, unless ``line_breaks`` is False (subtitle files, whose lines end at CR and LF only:
    there they stay in the text as written, and part words as any whitespace does)."""
    text = _CONTROLS.sub("", text)
    return text.translate(_LINE_BREAKS) if line_breaks else text


def normalize_newlines(text: str) -> str:
    r"""Text with every line end ("\r\n", "\r", "\n\r", "\r\r\n", mixed within it) made "\n"."""
    return _LINE_END.sub("\n", text) if "\r" in text else text


def bare_word(word: str) -> str:
    r"""A word without its `INVISIBLE` characters, as the restoration model reads it ("fi\u200brst"
    is "first"); a word of nothing else stays as it is."""
    if not _INVISIBLE.search(word):
        return word
    return _INVISIBLE.sub("", word) or word
