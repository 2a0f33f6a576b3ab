"""Clean text out of a transcript: accepted suggestions applied, pending ones by policy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from editor.core.document.transcript import Kind, Transcript
from editor.core.document.text import join_mark


def parse_confidence(text: str) -> float | None:
    """A confidence as typed: a fraction 0..1 ("0.8") or a percentage ("80%", as the window shows
    them); None when it is neither. A bare number over 1 is neither ("1.5" may mean 0.15)."""
    word = text.strip()
    percent = word.endswith("%")
    try:
        value = float(word[:-1].strip() if percent else word)
    except ValueError:
        return None
    if percent:
        value /= 100
    return value if 0.0 <= value <= 1.0 else None


@dataclass(frozen=True, slots=True)
class RenderPolicy:
    """What to do with pending suggestions: ``min_confidence`` None applies none, 0.0 applies all,
    t applies those at or above t. Accepted ones are always in the tokens; rejected never apply."""

    min_confidence: float | None = None

    @classmethod
    def parse(cls, text: str) -> RenderPolicy:
        """"none", "all" or a confidence, 0..1 or in percent (as the CLI's ``--policy`` takes it)."""
        word = text.strip().lower()
        if word == "none":
            return NONE
        if word == "all":
            return ALL
        value = parse_confidence(word)
        if value is None:
            raise ValueError(f"policy must be 'none', 'all' or a confidence 0..1 or in percent "
                             f"(0.8 or 80%), not {text!r}")
        return cls(value)

    def applies(self, confidence: float) -> bool:
        return self.min_confidence is not None and confidence >= self.min_confidence

    def __str__(self) -> str:
        if self.min_confidence is None:
            return "none"
        return "all" if self.min_confidence == 0.0 else f"{self.min_confidence:g}"


NONE = RenderPolicy(None)
ALL = RenderPolicy(0.0)


@dataclass(frozen=True, slots=True)
class RenderedWord:
    """A token as it will be written."""

    index: int
    surface: str
    punct: str
    start: float | None
    end: float | None
    speaker: str | None
    paragraph_start: bool

    @property
    def text(self) -> str:
        return join_mark(self.surface, self.punct)


def render_words(transcript: Transcript, policy: RenderPolicy = NONE) -> list[RenderedWord]:
    """The words as written, pending suggestions applied as accepting all at the policy's threshold
    would apply them (``Transcript.pending_to_apply``)."""
    words = []
    applied = ({s.key for s in transcript.pending_to_apply(policy.min_confidence)}
               if policy.min_confidence is not None else set())
    for index, token in enumerate(transcript.tokens):
        surface, punct = token.surface or token.word, token.punct
        starts = transcript.is_paragraph_start(index)
        for s in transcript.suggestions_of(token.id).values():
            if s.key in applied:
                if s.kind == Kind.PUNCT:
                    punct = s.value
                elif s.kind == Kind.BREAK:
                    starts = bool(s.value)
                else:
                    surface = s.value or surface
        words.append(RenderedWord(index, surface, punct, token.start, token.end, token.speaker, starts))
    return words


def render_paragraphs(transcript: Transcript, policy: RenderPolicy = NONE
                      ) -> list[tuple[str | None, list[RenderedWord]]]:
    """(speaker, words) per paragraph; a new speaker starts one."""
    paragraphs: list[tuple[str | None, list[RenderedWord]]] = []
    for word in render_words(transcript, policy):
        if word.paragraph_start or not paragraphs or word.speaker != paragraphs[-1][1][-1].speaker:
            paragraphs.append((word.speaker, []))
        paragraphs[-1][1].append(word)
    return paragraphs


def join_rendered(words: list[RenderedWord]) -> str:
    return " ".join(w.text for w in words)


def render(transcript: Transcript, policy: RenderPolicy = NONE, *, speakers: bool = True,
           turn_times: bool = False) -> str:
    """The clean text: paragraphs separated by a blank line, "Name: " where the speaker changes,
    and before a paragraph of theirs that begins as a name would ("Ohio: Cleveland."), so that it
    is not read back as one. ``turn_times``: "[00:12:34] " before the name where a speaker takes
    over (`turn_time`)."""
    from editor.core.formats.subtitles.prefixes import reads_as_name, written_prefix  # (imports this module)

    out = []
    previous: str | None = None
    for speaker, words in render_paragraphs(transcript, policy):
        text = join_rendered(words)
        turn = bool(speaker and speaker != previous)
        if speakers and speaker and (turn or reads_as_name(text)):
            text = f"{written_prefix(speaker)}{text}"
        if turn_times and turn and (stamp := turn_time(words)):
            text = f"{stamp} {text}"
        previous = speaker
        out.append(text)
    return "\n\n".join(out)


def turn_time(words: Sequence[RenderedWord]) -> str:
    """``[00:12:34]``: when a paragraph's first timed word starts, as noScribe marks each speaker
    turn ("" when none of its words has a time)."""
    start = next((w.start for w in words if w.start is not None), None)
    if start is None:
        return ""
    seconds = int(max(start, 0.0))
    return f"[{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}]"
