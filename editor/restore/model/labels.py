"""Label sets of the restoration model and the text <-> (word, label) conversions.

Pure Python (no torch): the evaluation, the training-data preparation and the
inference code all share these rules, so that what the model learns is exactly
what it is scored on.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from editor.core.document.text import is_abbreviation

# Punctuation after a word. Index 0 is "no mark".
PUNCT_MARKS: tuple[str, ...] = ("", ",", ".", "?", "!", ":", ";")
#: The marks that end a sentence, and their indices in PUNCT_MARKS.
END_MARKS: tuple[str, ...] = (".", "?", "!")
END_INDEX: tuple[int, ...] = tuple(PUNCT_MARKS.index(m) for m in END_MARKS)
# Case of a word as written.
CASE_CLASSES: tuple[str, ...] = ("lower", "capitalized", "upper", "mixed")

N_PUNCT = len(PUNCT_MARKS)
N_CASE = len(CASE_CLASSES)
N_JOINT = N_PUNCT * N_CASE

# Recognition errors per word in a window chosen for simulation: a word replaced by another, a word
# dropped (its mark moves to the word before, as it would stand in the transcript) and a word
# inserted (no mark, lowercase). Rates we chose, not measured from a recogniser (no English
# recogniser output with references is available to us).
ASR_ERRORS = {"substitute": 0.05, "delete": 0.03, "insert": 0.02}

PUNCT_INDEX = {m: i for i, m in enumerate(PUNCT_MARKS)}
CASE_INDEX = {c: i for i, c in enumerate(CASE_CLASSES)}

# The literature's 3-class view (IWSLT): COMMA <- , : dash; PERIOD <- . ! ;; QUESTION <- ?
THREE_CLASS = ("O", "COMMA", "PERIOD", "QUESTION")
MARK_TO_3CLASS = {"": "O", ",": "COMMA", ":": "COMMA", ".": "PERIOD", "!": "PERIOD", ";": "PERIOD", "?": "QUESTION"}

# MARK_GROUP[i, g] = 1 when mark i belongs to 3-class group g
MARK_GROUP: tuple[tuple[int, ...], ...] = tuple(
    tuple(int(MARK_TO_3CLASS[m] == g) for g in THREE_CLASS) for m in PUNCT_MARKS)

# When a word carries several marks ('?!', '."', '...'), the strongest one wins.
_MARK_PRIORITY = {"?": 6, "!": 5, ".": 4, ";": 3, ":": 2, ",": 1}

_DASHES = {"--", "—", "–", "---", "-"}
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'", "ʼ": "'"})


def joint_index(punct: int, case: int) -> int:
    return punct * N_CASE + case


def split_joint(j: int) -> tuple[int, int]:
    return divmod(j, N_CASE)


def case_of(surface: str) -> str:
    """Case class of a written word: lower / capitalized / upper / mixed."""
    letters = [ch for ch in surface if ch.isalpha()]
    if not letters:
        return "lower"
    if all(ch.islower() for ch in letters):
        return "lower"
    if all(ch.isupper() for ch in letters):
        # "I", "A", "O'" are capitalized, not shouted
        return "capitalized" if len(letters) == 1 else "upper"
    if letters[0].isupper() and all(ch.islower() for ch in letters[1:]):
        return "capitalized"
    return "mixed"


#: Abbreviations that take their period in lower case too ("e.g.", "a.m.", "vs."); the others only
#: when written with a capital ("Rep. Lewis" but "a sales rep", "Gen. Lee" but "next gen"). A lone
#: "v" is also a letter ("vitamin V"), so it never gets one.
PERIOD_IN_LOWER = frozenset({"vs"})
_NO_PERIOD = frozenset({"v"})


def abbreviation_period(word: str, case: str) -> str:
    """"." when `word` (lowercase) written in `case` is an abbreviation with its own period, else ""."""
    if word in _NO_PERIOD or not is_abbreviation(word):
        return ""
    if case != "lower" or word in PERIOD_IN_LOWER or "." in word:
        return "."
    return ""


def apply_case(word: str, case: str, mixed: dict[str, str] | None = None) -> str:
    """Write `word` (lowercase) in the case class `case`; mixed forms come from the lexicon; a
    known abbreviation gets its period ("mr" -> "Mr.", "e.g" -> "e.g.")."""
    return _cased(word, case, mixed) + abbreviation_period(word, case)


def _cased(word: str, case: str, mixed: dict[str, str] | None) -> str:
    if case == "lower":
        return word
    if case == "upper":
        return word.upper()
    if case == "mixed":
        if mixed and word in mixed:
            return mixed[word]
        case = "capitalized"
    # capitalized: first letter up (skipping leading digits/apostrophes)
    for i, ch in enumerate(word):
        if ch.isalpha():
            return word[:i] + ch.upper() + word[i + 1 :]
    return word


def normalize_word(token: str) -> str:
    """The ASR-like form of one written token: lowercase, no outer punctuation."""
    return _split_token(token)[1].lower()


@dataclass(frozen=True, slots=True)
class LabelledWord:
    word: str  # lowercase, as a recogniser writes it
    punct: str  # mark after the word ("" for none)
    case: str  # case class of the original
    surface: str  # the original word without outer punctuation


_EDGE = re.compile(r"^([^\w]*)(.*?)([^\w]*)$", re.DOTALL)


def _split_token(token: str) -> tuple[str, str, str]:
    token = unicodedata.normalize("NFC", token).translate(_APOSTROPHES)
    m = _EDGE.match(token)
    assert m is not None
    lead, core, trail = m.groups()
    # keep a trailing apostrophe of plural possessives ("students'") out; keep inner ones
    return lead, core.replace("_", ""), trail


def mark_of(trail: str) -> str:
    best = ""
    for ch in trail:
        if ch in _MARK_PRIORITY and _MARK_PRIORITY[ch] > _MARK_PRIORITY.get(best, 0):
            best = ch
    if not best and any(d in trail for d in ("--", "—", "–")):
        best = ","
    return best


_INNER_DASHES = re.compile(r"--+|—|–")


def split_token(token: str) -> tuple[str, str, str]:
    """(what leads, the word, what trails) of one written token: '"Well,' -> ('"', 'Well', ',')."""
    return _split_token(token)


def split_dashes(core: str) -> list[str]:
    """The words a token's core holds between inner dashes ("well--I" -> ["well", "I"]), each
    without outer hyphens and apostrophes ("" where nothing is left)."""
    return [part.strip("-'") for part in _INNER_DASHES.split(core)]


def labelled_words(text: str) -> list[LabelledWord]:
    """Turn cased, punctuated text into words with the punctuation after each and its case.

    Marks that stand alone ('--', '...') attach to the word before them; dashes count as
    commas; the period of a known abbreviation ("Mr.") belongs to the word.
    """
    out: list[LabelledWord] = []
    for raw in text.split():
        lead, core, trail = _split_token(raw)
        if not core:
            # a token of punctuation only: give its mark to the previous word
            mark = mark_of(raw if raw not in _DASHES else "--")
            if out and mark and not out[-1].punct:
                prev = out[-1]
                out[-1] = LabelledWord(prev.word, mark, prev.case, prev.surface)
            continue
        mark = mark_of(trail)
        parts = split_dashes(core)
        for k, part in enumerate(parts):
            if not part:
                continue
            lower = part.lower()
            p = mark if k == len(parts) - 1 else ","
            if p == "." and is_abbreviation(lower):
                p = ""
            out.append(LabelledWord(lower, p, case_of(part), part))
    return out


def words_of(text: str) -> list[str]:
    """The lowercase, unpunctuated words of `text`, as an ASR engine would write them."""
    return [w.word for w in labelled_words(text)]
