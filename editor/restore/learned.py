"""What Stet keeps of the person's reviews, and what a restoration applies: the user lexicon, a
project's own lexicon, and the adaptation learned per language and speaker set (a profile).

Learned state lives in the user's data folder (``learned/KEY.json``, one file per profile; see
`profile_key`) and is applied only to a document of the same language and speakers, unless the
person chooses another profile for it on purpose (the document's ``learned_profile``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from editor.restore.labels import PUNCT_INDEX
from editor.restore.learn import Adaptation

def profile_key(language: str | None, speakers: Iterable[str | None] = ()) -> str:
    """Where an adaptation belongs: the text's language and its set of speakers. Learned state is
    applied only to a document with the same key unless the person chooses otherwise."""
    import hashlib

    names = sorted({s.strip().lower() for s in speakers if s and s.strip()})
    who = hashlib.sha1("\n".join(names).encode("utf-8")).hexdigest()[:12] if names else "anyone"
    lang = "".join(ch for ch in (language or "en").lower() if ch.isalnum() or ch == "-")[:16] or "en"
    return f"{lang}-{who}"


def learned_dir():
    from editor.core.paths import data_dir

    path = data_dir() / "learned"
    path.mkdir(parents=True, exist_ok=True)
    return path


def load_learned(key: str) -> Adaptation | None:
    """The adaptation kept for `key`, or None. A damaged file is a ValueError naming it."""
    import json

    path = learned_dir() / f"{key}.json"
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        return Adaptation.from_dict(json.loads(raw))
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None


def save_learned(key: str, adaptation: Adaptation) -> None:
    import json

    from editor.core.formats._common import atomic_write

    atomic_write(learned_dir() / f"{key}.json", (json.dumps(adaptation.to_dict(), ensure_ascii=False) + "\n").encode())


def reset_learned() -> int:
    """Forget every adaptation ("reset what Stet learned"); the shipped model is never changed."""
    n = 0
    for path in learned_dir().glob("*.json"):
        path.unlink(missing_ok=True)
        n += 1
    return n


def adaptation_for(transcript, *, lexicon: bool = True, learned: bool = False) -> Adaptation:
    """What to apply when restoring `transcript`: the user lexicon (unless `lexicon` is False) and
    the project's own lexicon, and with `learned` the adaptation kept for the transcript's language
    and speakers (never one from another language or speaker set)."""
    return adaptation_from(transcript.metadata.extra, transcript.metadata.language,
                           {t.speaker for t in transcript.tokens}, lexicon=lexicon, learned=learned)


def adaptation_from(extra: Mapping, language: str | None, speakers: Iterable[str | None], *,
                    lexicon: bool = True, learned: bool = False) -> Adaptation:
    """`adaptation_for` from a document's parts (safe to call off the UI thread with copies)."""
    from editor.core.lexicon import UserLexicon, project_forms

    forms: dict[str, str] = {}
    if lexicon:
        forms.update(UserLexicon.load().forms)
    forms.update(project_forms(extra))
    out = Adaptation(fixed_forms={w: f for w, f in forms.items() if f != w})
    if learned:
        kept = load_learned(profile_key(language, speakers))
        if kept is not None:
            out = kept.merged(out)
    return out


def remember_review(decisions: Sequence, forms: Mapping[str, str], key: str) -> tuple[int, int]:
    """Keep what a review taught: `forms` join the user lexicon, and the marks chosen between word
    pairs join the adaptation kept for `key` (see `profile_key`). Returns (forms added or changed,
    pair marks now kept)."""
    from editor.core.lexicon import UserLexicon

    lex = UserLexicon.load()
    changed = lex.learn(forms)
    if changed:
        lex.save()
    learned = from_review(decisions)
    try:
        kept = load_learned(key)
    except ValueError:
        kept = None  # a damaged file is replaced by what this review taught
    merged = kept.merged(learned) if kept is not None else learned
    if not merged.is_empty():
        save_learned(key, merged)
    return len(changed), len(merged.pair_marks)


def from_review(decisions: Sequence) -> Adaptation:
    """An adaptation from a document's review (editor.core.learning.review_decisions): the marks
    the person left between two words where they accepted or turned down a proposal (every
    decision on the same pair must agree). Case forms go to the user lexicon instead."""
    pairs: dict[tuple[str, str], set[str]] = {}
    # a rejected mark leaves the token's mark as it was; an accepted one is in the text
    for d in decisions:
        if getattr(d, "kind", None) == "punct" and d.next_word:
            pairs.setdefault((d.word, d.next_word), set()).add(d.punct)
    return Adaptation(pair_marks={p: next(iter(m)) for p, m in pairs.items() if len(m) == 1 and next(iter(m)) in PUNCT_INDEX},
                      words=len(decisions))

