"""What the restorer says, as plain values: a word's prediction, the language check, and the
exception a cancelled restoration raises. No torch or numpy needed to read them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from editor.restore.model.labels import CASE_CLASSES, PUNCT_MARKS

#: A distribution as the restorer gives it: a dict label -> p, or a row of probabilities in label
#: order (a list, or a row of a numpy array, kept without importing numpy here).
Distribution = Any


class Cancelled(Exception):
    """Restoration was cancelled; regions already reported through on_chunk stay valid."""


@runtime_checkable
class CancelFlag(Protocol):
    """What can cancel a restoration: a `threading.Event` or anything with its `is_set`."""

    def is_set(self) -> bool: ...


#: A restoration's `cancel`: a flag, a callable (true: stop), or None (never cancelled).
Cancel = CancelFlag | Callable[[], object] | None


class WordPrediction:
    """What the model says about one word. Probabilities are calibrated marginals.

    `punct` is the mark after the word ("" for none), `punct_probs` mark -> p (sums to 1), `case`
    lower / capitalized / upper / mixed, `case_probs` case -> p, and `text` the word written in its
    case (mixed forms from the lexicon), without punctuation. Read-only.

    The distributions may be given as dicts or as rows of probabilities in the order of
    PUNCT_MARKS / CASE_CLASSES; the dicts are built only when asked for (building 100,000 small
    dicts per 50,000 words took a quarter of restoration time).
    """

    __slots__ = ("punct", "case", "text", "_punct_p", "_case_p")
    punct: str
    case: str
    text: str
    _punct_p: Distribution
    _case_p: Distribution

    def __init__(self, punct: str, punct_probs: Distribution, case: str, case_probs: Distribution, text: str) -> None:
        set_ = object.__setattr__
        set_(self, "punct", punct)
        set_(self, "_punct_p", punct_probs)
        set_(self, "case", case)
        set_(self, "_case_p", case_probs)
        set_(self, "text", text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"WordPrediction is read-only (cannot set {name!r})")

    @property
    def punct_probs(self) -> dict[str, float]:
        return _as_dict(self._punct_p, PUNCT_MARKS)

    @property
    def case_probs(self) -> dict[str, float]:
        return _as_dict(self._case_p, CASE_CLASSES)

    @property
    def punct_distribution(self) -> list[float]:
        """The mark probabilities in PUNCT_MARKS order, without building a dict."""
        p = self._punct_p
        return [float(p[m]) for m in PUNCT_MARKS] if isinstance(p, dict) else [float(x) for x in p]

    @property
    def punct_confidence(self) -> float:
        return _prob(self._punct_p, self.punct, PUNCT_MARKS)

    @property
    def case_confidence(self) -> float:
        return _prob(self._case_p, self.case, CASE_CLASSES)

    def _key(self) -> tuple[object, ...]:
        return (self.punct, self.punct_probs, self.case, self.case_probs, self.text)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WordPrediction):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # holds distributions, like the dicts it gives

    def __repr__(self) -> str:
        return (f"WordPrediction(punct={self.punct!r}, punct_probs={self.punct_probs!r}, case={self.case!r}, "
                f"case_probs={self.case_probs!r}, text={self.text!r})")


def _as_dict(p: Distribution, labels: tuple[str, ...]) -> dict[str, float]:
    if isinstance(p, dict):
        return dict(p)
    return dict(zip(labels, p.tolist() if hasattr(p, "tolist") else p))


def _prob(p: Distribution, label: str, labels: tuple[str, ...]) -> float:
    if isinstance(p, dict):
        return float(p[label])
    return float(p[labels.index(label)])


#: A text is taken for the restorer's language when at least this share of its words is in the
#: model's vocabulary (measured with the shipped model: the bundled sample 98 %, the dev talks 97 %,
#: a German paragraph 47 %, a French one 65 %) ...
IN_VOCABULARY_SHARE = 0.8
#: ... a text shorter than this many words counting as if the words it lacks were known (a short
#: text may hold a name or two the vocabulary lacks); and a text none of whose words is known is
#: never the restorer's language, however short (three Korean words are refused as 75 are).
LANGUAGE_MIN_WORDS = 12


class LanguageCheck:
    """Whether a text looks like the restorer's language, from the share of its words that the
    model's vocabulary knows (`Restorer.language_check`)."""

    __slots__ = ("language", "words", "known", "matches")

    def __init__(self, language: str | None, words: int, known: int) -> None:
        self.language, self.words, self.known = language, words, known
        unknown = words - known
        self.matches = language is None or words == 0 or (
            known > 0 and unknown <= (1 - IN_VOCABULARY_SHARE) * max(words, LANGUAGE_MIN_WORDS))

    @property
    def share(self) -> float:
        return self.known / self.words if self.words else 1.0

    @property
    def message(self) -> str:
        name = LANGUAGE_NAMES.get(self.language or "", self.language or "the model's language")
        return (f"this text does not look like {name}: only {100 * self.share:.0f} % of its words are in the "
                f"{name} restorer's vocabulary, so its suggestions would be wrong (another language?)")


LANGUAGE_NAMES = {"en": "English"}
