"""The records a transcript is made of: tokens, suggestions on them, the subtitle cues they were
read from, metadata, and the snapshot a worker takes. Frozen and slotted; `evolve` copies one with
some fields changed, quickly."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntFlag, StrEnum
from typing import Any, TypeVar

from editor.core.document.text import join_mark


class Kind(StrEnum):
    PUNCT = "punct"  # the mark after the token; "" means none
    CASE = "case"  # the token's surface text
    BREAK = "break"  # a paragraph break before the token: "¶", or "" to run on (core.paragraphs)


class State(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class Spread(IntFlag):
    """Which of a word's times are not the speaker's: a reader that knows only when a cue or a
    segment of several words began and ended spreads its time over the words by their length,
    so only the cue's edges are measured. A pause is shown only between a measured end and a
    measured start (``editor.core.review.listening.pause_at``)."""

    NONE = 0
    START = 1  # its start was spread (a word of the same cue or segment comes before it)
    END = 2  # its end was spread (one comes after it), or guessed (a pace, the next stamp)
    BOTH = 3


@dataclass(frozen=True, slots=True)
class Token:
    """One word. ``id`` is stable for the document's lifetime; -1 means "let the transcript assign"."""

    word: str  # as recognised: lower case, no punctuation
    surface: str | None = None  # as shown (case applied or edited); None = same as word
    punct: str = ""  # punctuation after the word
    start: float | None = None  # seconds
    end: float | None = None
    confidence: float | None = None  # ASR confidence 0..1
    speaker: str | None = None
    id: int = -1
    spread: Spread = Spread.NONE  # which of start and end are not measured (NONE: both are)

    def __post_init__(self) -> None:
        if self.surface is None:
            object.__setattr__(self, "surface", self.word)

    @property
    def text(self) -> str:
        return join_mark(self.surface or self.word, self.punct)  # surface is set in __post_init__

    def value(self, kind: Kind) -> str:
        """The token's current value for a suggestion kind (a paragraph break is the document's
        to say: ``Transcript.value_of``)."""
        if kind == Kind.BREAK:
            return ""
        return self.punct if kind == Kind.PUNCT else (self.surface or self.word)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A proposed punctuation mark or surface for one token, with the full distribution behind it.

    ``original`` is the token's value before the suggestion was accepted (so it can be taken back).
    On a pending proposal from the person's choice (``source == CHOICE``) it is the value Stet had
    proposed there before the choice stood in for it (None: none), which comes back when the
    person turns the choice down there (``accept_rules.turned_down``).
    """

    token_id: int
    kind: Kind
    value: str
    probs: Mapping[str, float] = field(default_factory=dict)
    state: State = State.PENDING
    original: str | None = None
    #: who proposed it: "model", "choice" when it repeats a choice the person made elsewhere, or
    #: "lexicon" when a form of the lexicon gave it (``LEXICON``)
    source: str = "model"
    #: a capital that comes only with a sentence start: the word is no name (the model's names
    #: lexicon says its lowercase form is common), so however sure the model was, it waits for the
    #: end mark before it (False: the probabilities decide: review.hangs_on_start)
    needs_start: bool = False

    def __post_init__(self) -> None:
        if type(self.kind) is not Kind:
            object.__setattr__(self, "kind", Kind(self.kind))
        if type(self.state) is not State:
            object.__setattr__(self, "state", State(self.state))
        if self.kind == Kind.CASE and not self.value:
            raise ValueError("a case suggestion needs the surface text it proposes")
        probs = {str(k): float(v) for k, v in self.probs.items()}
        for key, p in probs.items():
            if not (-1e-6 <= p <= 1.0 + 1e-6):  # also rejects NaN
                raise ValueError(f"probability of {key!r} is {p}, not within 0..1")
            if not 0.0 <= p <= 1.0:  # rounding in a softmax or a normalisation
                probs[key] = min(max(p, 0.0), 1.0)
        if not probs:
            probs = {self.value: 1.0}
        probs.setdefault(self.value, 0.0)
        object.__setattr__(self, "probs", probs)

    @property
    def confidence(self) -> float:
        return self.probs[self.value]

    @property
    def key(self) -> tuple[int, Kind]:
        return (self.token_id, self.kind)

    def alternatives(self) -> list[tuple[str, float]]:
        """Values with their probabilities, most likely first."""
        return sorted(self.probs.items(), key=lambda item: -item[1])


@dataclass(frozen=True, slots=True)
class SourceCue:
    """A subtitle cue as it was read, so that a cue whose words are unchanged is written back
    exactly as it came (text with its tags and line breaks, timing, settings, identifier)."""

    token_ids: tuple[int, ...]  # the tokens read from it, in order
    start: float  # seconds
    end: float
    text: str  # the cue's text as written: lines, tags and entities
    words: tuple[str, ...]  # its tokens' text (surface and punctuation) when read
    line_starts: tuple[int, ...] = ()  # ids of the tokens that begin the second and later lines
    speaker: str | None = None
    ident: str | None = None  # the identifier line (SubRip's number, a WebVTT cue id)
    timing: str | None = None  # the time line as written, with settings or coordinates
    format: str = ""  # the format it came from: "srt", "vtt", "ass", ...


@dataclass(frozen=True, slots=True)
class Metadata:
    source_file: str | None = None
    audio_file: str | None = None
    language: str | None = None
    model: str | None = None  # ASR model that produced the words
    restore_model: str | None = None  # punctuation/case model that made the suggestions
    duration: float | None = None  # seconds of audio
    warnings: tuple[str, ...] = ()  # things a reader had to guess (e.g. the text encoding)
    extra: Mapping[str, Any] = field(default_factory=dict)  # JSON-able, kept in .stet files
    cues: tuple[SourceCue, ...] = ()  # the subtitle cues the words were read from, in order


@dataclass(frozen=True, slots=True)
class WordsSnapshot:
    """What a background worker needs from a document; safe to hand to another thread."""

    revision: int  # the transcript's words_revision when taken
    start: int  # index of the first word
    ids: tuple[int, ...]
    words: tuple[str, ...]
    paragraph_starts: tuple[int, ...] = ()  # indices into `words` of the words that start a paragraph


#: ``Suggestion.source`` of a proposal that repeats a choice the person made elsewhere.
CHOICE = "choice"
#: ``Suggestion.source`` of a capital the lexicon gave (the user's, or the project's own forms):
#: certain by the lexicon, not by the model, so never applied unseen by "accept all confident".
LEXICON = "lexicon"
#: ``Suggestion.source`` of the model's own proposal.
MODEL = "model"

_R = TypeVar("_R")


def evolve(obj: _R, **changes: Any) -> _R:
    """``dataclasses.replace`` for the frozen slotted records here, without re-validating:
    accept_all on 100,000 tokens spends most of its time in ``replace`` otherwise."""
    cls: Any = type(obj)  # a slotted dataclass of this module
    new: _R = object.__new__(cls)
    for name in cls.__slots__:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(obj, name))
    return new


def with_value(token: Token, kind: Kind, value: str) -> Token:
    """The token with its value for `kind` set: the mark after it, or its surface (a paragraph
    break is not the token's: it comes back unchanged)."""
    if kind == Kind.BREAK:
        return token
    if kind == Kind.PUNCT:
        return evolve(token, punct=value)
    return evolve(token, surface=value)
