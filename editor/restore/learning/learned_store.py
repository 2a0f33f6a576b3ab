"""What Stet keeps of the person's reviews, and what a restoration applies: the user lexicon, a
project's own lexicon, and the adaptation learned per language and speaker set (a profile).

Learned state lives in the user's data folder (``learned/KEY.json``, one file per profile; see
`profile_key`) and is applied only to a document of the same language and speakers, unless the
person chooses another profile for it on purpose (the document's ``learned_profile``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from editor.restore.model.labels import END_MARKS
from editor.restore.learning.review_lessons import BIAS_PENALTY, Adaptation, Decision, common_words, plain_words

if TYPE_CHECKING:
    from editor.core.document.transcript import Transcript
    from editor.core.document.records import Kind, Suggestion, Token
    from editor.restore.passes.inference import Restorer

#: A document's metadata extra names the profile the person chose for it here (any language or speakers).
CHOSEN = "learned_profile"
#: A project's metadata extra says what Stet had learned from its review when it was written:
#: {"learned": the `review_digest` last learned from (None: nothing yet), "pending": whether it held
#: decisions not yet learned from}. A project without it (older ones) has everything still to learn.
LEARNING = "learning"
_KEY = re.compile(r"[a-z0-9-]{1,64}")


def profile_key(language: str | None, speakers: Iterable[str | None] = ()) -> str:
    """Where an adaptation belongs: the text's language and its set of speakers. Learned state is
    applied only to a document with the same key unless the person chooses otherwise."""
    import hashlib

    names = sorted({s.strip().lower() for s in speakers if s and s.strip()})
    who = hashlib.sha1("\n".join(names).encode("utf-8")).hexdigest()[:12] if names else "anyone"
    lang = "".join(ch for ch in (language or "en").lower() if ch.isalnum() or ch == "-")[:16] or "en"
    return f"{lang}-{who}"


def profile_label(language: str | None, speakers: Iterable[str | None] = ()) -> str:
    """What a person reads for a profile: "en, speakers Ann and Bo" (the key is a hash)."""
    names = sorted({s.strip() for s in speakers if s and s.strip()}, key=str.lower)
    lang = (language or "en").strip() or "en"
    if not names:
        return f"{lang}, no speakers named"
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    return f"{lang}, speaker{'s' if len(names) > 1 else ''} {shown}"


def learned_dir() -> Path:
    from editor.core.paths import data_dir

    path = data_dir() / "learned"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _path(key: str) -> Path:
    if not _KEY.fullmatch(key):
        raise ValueError(f"{key!r} is not a profile (see `stet learned --profiles`)")
    return learned_dir() / f"{key}.json"


def load_learned(key: str) -> Adaptation | None:
    """The adaptation kept for `key`, or None. A damaged file is a ValueError naming it."""
    path = _path(key)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        return Adaptation.from_dict(json.loads(raw))
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None


def save_learned(key: str, adaptation: Adaptation, label: str = "",
                 sources: Mapping[str, Mapping[str, Any]] | None = None) -> None:
    """Keep `adaptation` for `key`; `sources`: what each reviewed document taught on its own (see
    `remember_review`), kept beside it so that saving a document again replaces its share."""
    from editor.core.atomic import atomic_write

    data = {**adaptation.to_dict(), "label": label, **({"sources": dict(sources)} if sources else {})}
    atomic_write(_path(key), (json.dumps(data, ensure_ascii=False) + "\n").encode())


def _sources(key: str) -> dict[str, dict[str, Any]]:
    """Each reviewed document's own adaptation kept in profile `key` (a profile from before they
    were kept apart counts as one earlier review); damaged or missing: none."""
    try:
        data = json.loads(_path(key).read_text(encoding="utf-8"))
        sources = data.get("sources")
        if isinstance(sources, dict):
            return {str(k): {**Adaptation.from_dict(v).to_dict(), **_origin(v)} for k, v in sources.items()}
        return {"earlier": Adaptation.from_dict(data).to_dict()}
    except (OSError, ValueError, AttributeError, TypeError):
        return {}


def _origin(data: Mapping[str, Any]) -> dict[str, str]:
    """Where a share of a profile came from: {"file": the project, "when": ISO time}, where known."""
    return {k: data[k] for k in ("file", "when") if isinstance(data.get(k), str)}


@dataclass(frozen=True)
class Profile:
    key: str
    label: str  # the language and speakers it was learned from
    words: int  # reviewed words it was learned from
    #: where each share came from, oldest first: (the project file or "", when, reviewed words)
    sources: tuple[tuple[str, str, int], ...] = ()


def list_profiles() -> list[Profile]:
    """The kept adaptations, most reviewed words first; damaged files are left out."""
    out = []
    for path in learned_dir().glob("*.json"):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            words = int(data.get("words", 0))
            label = str(data.get("label") or path.stem)
            shares = data.get("sources") if isinstance(data.get("sources"), dict) else {}
            sources = tuple((str(v.get("file", "")), str(v.get("when", "")), int(v.get("words", 0)))
                            for v in shares.values() if isinstance(v, dict))
        except (OSError, ValueError, AttributeError, TypeError):
            continue
        out.append(Profile(path.stem, label, words, sources))
    return sorted(out, key=lambda p: (-p.words, p.key))


def reset_learned() -> int:
    """Forget every adaptation ("reset what Stet learned"); the shipped model is never changed."""
    n = 0
    for path in learned_dir().glob("*.json"):
        path.unlink(missing_ok=True)
        n += 1
    return n


def adaptation_for(transcript: Transcript, *, lexicon: bool = True, learned: bool = False,
                   profile: str | None = None) -> Adaptation:
    """What to apply when restoring `transcript`: the user lexicon (unless `lexicon` is False) and
    the project's own lexicon, and with `learned` the adaptation kept for the transcript's language
    and speakers, never one from another language or speaker set unless the person chose it
    (`profile`, or the profile the document names: see `CHOSEN`)."""
    return adaptation_from(transcript.metadata.extra, transcript.metadata.language,
                           {t.speaker for t in transcript.tokens}, lexicon=lexicon, learned=learned,
                           profile=profile)


def adaptation_from(extra: Mapping[str, Any], language: str | None, speakers: Iterable[str | None], *,
                    lexicon: bool = True, learned: bool = False, profile: str | None = None,
                    notes: list[str] | None = None) -> Adaptation:
    """`adaptation_for` from a document's parts (safe to call off the UI thread with copies). A
    profile chosen on purpose that is not kept (any more) or is damaged is a ValueError, unless
    `notes` is given and it was the document's choice (not `profile`): then the document's own
    profile (with `learned`) and the lexicons are used, and a line saying so joins `notes`."""
    from editor.core.review.lexicon import UserLexicon, project_forms

    forms: dict[str, str] = {}
    if lexicon:
        forms.update(UserLexicon.load().forms)
    forms.update(project_forms(extra))
    out = Adaptation(fixed_forms={w: f for w, f in forms.items() if f != w})
    chosen = profile or extra.get(CHOSEN)
    if learned or profile:
        speakers = list(speakers)
        key = chosen if isinstance(chosen, str) and chosen else profile_key(language, speakers)
        try:
            kept = load_learned(key)
            if kept is None and key == chosen:
                raise ValueError(f"no learned profile {key!r} (see `stet learned --profiles`)")
        except ValueError as err:
            if notes is None or profile or key != chosen:
                raise
            kept = _instead_of_chosen(err, language, speakers, learned, lexicon, notes)
        if kept is not None:
            out = kept.merged(out)
    return out


def _instead_of_chosen(err: ValueError, language: str | None, speakers: Sequence[str | None], learned: bool,
                       lexicon: bool, notes: list[str]) -> Adaptation | None:
    """The document's own profile (or None) where the profile chosen for it is gone or damaged,
    with a line for `notes` saying what is used instead."""
    own = profile_key(language, speakers)
    try:
        kept = load_learned(own) if learned else None
    except ValueError:
        kept = None
    what = [f"what Stet learned for this document's language and speakers ({profile_label(language, speakers)})"
            ] if kept is not None else []
    what += ["your lexicon"] if lexicon else []
    gone = "is gone" if "no learned profile" in str(err) else "cannot be read"
    notes.append(f"The learned profile chosen for this document {gone}; using "
                 + (" and ".join(what) if what else "the model alone") + " instead")
    return kept


# ------------------------------------------------------------------------------------ a review
def reviewed_decisions(doc: Transcript) -> tuple[int, list[Decision], list[bool]]:
    """The stretch of `doc` (an editor.core Transcript) the person reviewed, as `Decision`s: from
    the first word they decided on to the last. Words whose suggestion still waits are in the
    stretch but flagged not reviewed; a word without a suggestion is as Stet proposed it (the model
    agreed with the text). Returns (index of the first word, decisions, reviewed flags)."""
    return reviewed_decisions_in(doc.tokens, suggestions_snapshot(doc))


def suggestions_snapshot(doc: Transcript) -> list[Suggestion]:
    """`doc`'s suggestions, copied (a list of the frozen records, in no order): with its tokens (an
    immutable tuple), what `reviewed_decisions_in` reads on a worker thread while the person goes on."""
    return list(doc.iter_suggestions())


def reviewed_decisions_in(tokens: Sequence[Token], snapshot: Sequence[Suggestion],
                          authored: Mapping[int, str] | None = None) -> tuple[int, list[Decision], list[bool]]:
    """`reviewed_decisions` of a document's tokens and its `suggestions_snapshot`. ``authored``
    (see `authored_forms`): the forms the words had when the document was opened; a word that
    still stands so, with no case suggestion, was written by the author, not decided by the
    person, and teaches no form. A word after a pending proposal of an end mark starts a
    sentence, as the text shows it: a capital typed there teaches nothing either."""
    from editor.core.document.transcript import Kind, State
    from editor.core.document.text import ends_sentence, split_opening

    suggestions: dict[int, dict[Kind, Suggestion]] = {}
    for s in snapshot:
        suggestions.setdefault(s.token_id, {})[s.kind] = s
    index = {t.id: i for i, t in enumerate(tokens)}
    decided = [index[tid] for tid, slot in suggestions.items()
               if tid in index and any(s.state != State.PENDING and s.kind != Kind.BREAK for s in slot.values())]
    if not decided:
        return 0, [], []
    lo, hi = min(decided), max(decided) + 1
    out, flags = [], []
    proposed_end = lo == 0 or tokens[lo - 1].punct in END_MARKS
    empty: Mapping[Kind, Suggestion] = {}
    for i in range(lo, hi):
        t = tokens[i]
        lead, bare = split_opening(t.surface or t.word)
        surface = bare or t.surface or t.word
        sugs = suggestions.get(t.id, empty)
        case, punct = sugs.get(Kind.CASE), sugs.get(Kind.PUNCT)
        pending = any(s.state == State.PENDING and s.kind != Kind.BREAK for s in sugs.values())
        p_punct = punct.value if punct is not None else t.punct
        p_case = (split_opening(case.value)[1] or case.value) if case is not None else surface
        before = suggestions.get(tokens[i - 1].id, empty).get(Kind.PUNCT) if i > 0 else None
        start = i == 0 or ends_sentence(tokens[i - 1].punct) or (  # or by an end mark still proposed
            before is not None and before.state == State.PENDING and ends_sentence(before.value))
        written = case is None and authored is not None and authored.get(t.id) == (t.surface or t.word)
        out.append(Decision(t.word, t.punct, surface, start, p_punct, p_case, proposed_end, authored=written))
        flags.append(not pending and t.word.lower() == surface.lower())
        proposed_end = p_punct in END_MARKS
    return lo, out, flags


def authored_forms(opened: Iterable[Token]) -> dict[int, str]:
    """The forms other than plain lowercase of the tokens a document was opened with, by token id:
    the author's capitals ("George Washington Bridge"), which no review decided (see
    `reviewed_decisions_in`; `editor.core.review.repeat_choices.forms_of`)."""
    return {t.id: t.surface for t in opened if t.surface is not None and t.surface != t.word}


def review_digest(decisions: Sequence[Decision], reviewed: Sequence[bool], forms: Mapping[str, str],
                  key: str) -> str:
    """A short fingerprint of what a review teaches profile `key` (its decisions, which of them
    were reviewed, the forms written): equal fingerprints teach the same, so a save that changed
    none of it need not learn again (see the document's `LEARNING` record)."""
    import hashlib

    lines = [key, *(f"{d.word}\t{d.punct}\t{d.surface}\t{d.sentence_start:d}\t{d.proposed_punct}\t"
                    f"{d.proposed_surface}\t{d.proposed_start:d}\t{r:d}" for d, r in zip(decisions, reviewed)),
             json.dumps(sorted(forms.items()), ensure_ascii=False)]
    return hashlib.sha1("\n".join(lines).encode("utf-8")).hexdigest()[:20]


#: How many mid-sentence occurrences in one review, all written alike, a form needs to join the
#: user lexicon (which writes it outright in every later file): tuned on talk splits of dev
#: (editor.restore.lab.splits).
LEXICON_MIN_DECISIONS = 2

#: The mark bias (a handful of numbers) is fitted on the marginals of at most this many reviewed
#: words, read in blocks of BIAS_BLOCK words spread evenly over a longer review: learning from a
#: review of a whole long transcript then takes as long as from one of this size.
BIAS_WORDS = 4000
BIAS_BLOCK = 1000
_BLOCK_CONTEXT = 40  # words read on either side of a block, for its edges' context


def bias_blocks(reviewed: Sequence[bool], most: int | None = None, block: int = BIAS_BLOCK) -> list[tuple[int, int]]:
    """The stretches ``(start, end)`` of a review whose marginals the mark bias is fitted on:
    blocks holding reviewed words (one not reviewed teaches nothing), adjacent ones joined, at most
    ``most`` words in all (default `BIAS_WORDS`; blocks spread evenly when there are more)."""
    most = BIAS_WORDS if most is None else most
    n = len(reviewed)
    flags = np.asarray(reviewed, bool)
    blocks = [(a, min(n, a + block)) for a in range(0, n, block) if flags[a:a + block].any()]
    if sum(b - a for a, b in blocks) > most:
        keep = max(1, most // block)
        picks = np.unique(np.round(np.linspace(0, len(blocks) - 1, keep)).astype(int))
        blocks = [blocks[i] for i in picks]
    joined: list[tuple[int, int]] = []
    for a, b in blocks:
        if joined and joined[-1][1] == a:
            joined[-1] = (joined[-1][0], b)
        else:
            joined.append((a, b))
    return joined


#: What `review_marginals` reads of the model for one block of a review: the block's place
#: ``(start, end)``, where the words read begin, and those words (the block with up to
#: `_BLOCK_CONTEXT` words either side, for its edges' context). Plain values: a window asks its
#: worker process for them (see `model_lessons`).
MarginalRead = tuple[int, int, int, list[str]]


def marginal_reads(words: Sequence[str], reviewed: Sequence[bool] | None = None) -> list[MarginalRead]:
    """What the model reads of a review's ``words`` for `review_marginals`: one `MarginalRead` for
    each of its `bias_blocks` (none when no word was reviewed)."""
    n = len(words)
    reads = []
    for a, b in bias_blocks([True] * n if reviewed is None else reviewed):
        lo, hi = max(0, a - _BLOCK_CONTEXT), min(n, b + _BLOCK_CONTEXT)
        reads.append((a, b, lo, list(words[lo:hi])))
    return reads


def model_lessons(restorer: Restorer, reads: Sequence[MarginalRead]
                  ) -> tuple[list[np.ndarray], frozenset[str], frozenset[str]]:
    """What learning from a review takes from the model: the (end - start, 28) joint marginals of
    each read's block, the model's `common_words` and its `plain_words`. Run where the model is
    loaded: in the window's worker process (editor.restore.passes.pass_process), or in this one."""
    from editor.restore.passes.windows import joint_marginals_chunked

    blocks = []
    for a, b, lo, words in reads:
        joint = joint_marginals_chunked(restorer.model, restorer.vocab, words, restorer.size, restorer.overlap,
                                        restorer.cut, restorer.merge, device=restorer.device)
        blocks.append(np.asarray(joint[a - lo : b - lo], np.float32))
    return blocks, common_words(restorer.vocab), plain_words(restorer.vocab, restorer.names)


def placed_marginals(n: int, reads: Sequence[MarginalRead], blocks: Sequence[np.ndarray]) -> np.ndarray:
    """The (n, 28) marginals of a review of ``n`` words from its reads' ``blocks`` (see
    `model_lessons`): NaN rows outside them."""
    from editor.restore.model.labels import N_CASE as NC
    from editor.restore.model.labels import N_PUNCT as NP

    out = np.full((n, NP * NC), np.nan, np.float32)
    for (a, b, _lo, _words), block in zip(reads, blocks, strict=True):
        out[a:b] = block
    return out


def review_marginals(restorer: Restorer, words: Sequence[str], reviewed: Sequence[bool] | None = None) -> np.ndarray:
    """(N, 28) joint marginals of a review's words where the mark bias needs them (`bias_blocks`,
    each read with some context around it); NaN rows elsewhere."""
    reads = marginal_reads(words, reviewed)
    return placed_marginals(len(words), reads, model_lessons(restorer, reads)[0])


def learn_review(restorer: Restorer | None, decisions: Sequence[Decision], reviewed: Sequence[bool] | None = None,
                 joint: np.ndarray | None = None, common: Collection[str] | None = None,
                 plain: Collection[str] | None = None, *, min_form: int | None = None,
                 min_pair: int | None = None, check_bias: bool | str | None = None,
                 penalty: float | None = None, min_known_form: int | None = None) -> Adaptation:
    """What a review teaches: the same in the editor (after a save) and in the simulated review
    (`stet eval --simulate-review`). The mark bias is fitted on the marginals the model gives the
    reviewed words (`joint`, or computed here from `restorer`'s model for at most `BIAS_WORDS` of
    them: under a second on one core); forms and pair marks as `Adaptation.learn` says, from every
    reviewed word; `common` and `plain`: the model's `common_words` and `plain_words` (by default
    `restorer`'s). Without `restorer`, `joint`, `common` and `plain` are needed (what
    `model_lessons` gave, in another process)."""
    if joint is None and decisions:
        if restorer is None:
            raise ValueError("learning a review's mark bias needs the model or its marginals")
        joint = review_marginals(restorer, [d.word for d in decisions], reviewed)
    if common is None:
        common = common_words(restorer.vocab) if restorer is not None else ()
    if plain is None:
        plain = plain_words(restorer.vocab, restorer.names) if restorer is not None else ()
    return Adaptation.learn(decisions, joint, common=common, reviewed=reviewed, plain=plain, min_form=min_form,
                            min_pair=min_pair, check_bias=check_bias, min_known_form=min_known_form,
                            penalty=BIAS_PENALTY if penalty is None else penalty)


@dataclass(frozen=True)
class Taught:
    """What one save's review taught, and what it takes to forget it again (`forget_taught`)."""

    key: str  # the profile
    #: the user lexicon's entries this save changed: (word, the form before or None, the form now)
    lexicon: tuple[tuple[str, str | None, str], ...] = ()
    #: forms and pairs' marks the profile did not hold before this save
    forms: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()  # "word word" pairs whose mark is remembered now
    before: str | None = None  # the profile's file as it was (None: there was none)
    after: str | None = None  # as this save left it (None: unchanged)
    words: int = 0  # reviewed words the profile has learned from now

    @property
    def added(self) -> int:
        """Forms this save added to or changed in the user lexicon."""
        return len(self.lexicon)

    def names(self) -> list[str]:
        """What a person reads for it: the forms learned, then the marks ("Manhattan, 1D, a
        mark after "well you""), empty when it taught nothing new."""
        forms = sorted({f for _w, _old, f in self.lexicon} | set(self.forms), key=str.lower)
        return forms + [f"the mark in \u201c{m}\u201d" for m in self.marks]


def remember_review(learned: Adaptation | None, forms: Mapping[str, str], key: str, label: str = "",
                    source: str | None = None, common: Collection[str] = ()) -> tuple[int, int]:
    """`keep_review`, returning (forms added or changed, reviewed words the profile has now
    learned from)."""
    taught = keep_review(learned, forms, key, label, source, common)
    return taught.added, taught.words


def keep_review(learned: Adaptation | None, forms: Mapping[str, str], key: str, label: str = "",
                source: str | None = None, common: Collection[str] = ()) -> Taught:
    """Keep what a review taught: `forms` join the user lexicon, but for words in `common` (the
    model's most frequent and its `plain_words`: a capital there, as in "Saddleback Church", "the
    Great Divergence" or a quoted "We", mostly belongs to the words around it, which the
    adaptation's context forms keep, and a capital of its own stays with the profile; written
    outright in every later file it made more errors than it fixed: see the model card), and
    `learned` (see `learn_review`) joins the adaptation kept for `key` (see `profile_key`). `source` names the reviewed document
    (its project file): saving it again replaces what it taught before instead of counting its
    decisions twice; the latest document's forms and marks come first. Each lexicon entry and
    each share of the profile records where it came from (the file, and when).  Returns what it
    kept, with what it takes to forget it (`forget_taught`)."""
    import hashlib
    from datetime import datetime

    from editor.core.review.lexicon import UserLexicon

    when = datetime.now().astimezone().isoformat(timespec="minutes")  # the local time, with its offset
    origin = {"file": source or "", "when": when}
    lex = UserLexicon.load()
    was = dict(lex.forms)
    changed = lex.learn({w: f for w, f in forms.items() if w not in common}, origin=origin)
    if changed:
        lex.save()
    entries = tuple((w, was.get(w), lex.forms[w]) for w in changed)
    sources = _sources(key)
    if learned is None or learned.is_empty():
        return Taught(key, entries, words=sum(int(v.get("words", 0)) for v in sources.values()))
    path = _path(key)
    try:
        before: str | None = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        before = None
    old = Adaptation()
    for data in sources.values():
        old = old.merged(Adaptation.from_dict(data))
    name = hashlib.sha1(source.encode("utf-8")).hexdigest()[:16] if source else f"review-{len(sources) + 1}"
    sources.pop(name, None)
    sources[name] = {**learned.to_dict(), **origin}  # last: its choices take precedence
    merged = Adaptation()
    for data in sources.values():
        merged = merged.merged(Adaptation.from_dict(data))
    save_learned(key, merged, label, sources)
    new_forms = ({f for w, f in merged.case_forms.items() if old.case_forms.get(w) != f}
                 | {f for p, f in merged.context_forms.items() if old.context_forms.get(p) != f}
                 | {f for p, f in merged.next_forms.items() if old.next_forms.get(p) != f})
    new_marks = sorted(f"{a} {b}" for (a, b), m in merged.pair_marks.items() if old.pair_marks.get((a, b)) != m)
    return Taught(key, entries, tuple(sorted(new_forms - {f for _w, _o, f in entries})), tuple(new_marks),
                  before, path.read_text(encoding="utf-8"), merged.words)


def forget_taught(taught: Taught) -> int:
    """Forget what one save taught (`keep_review`): the lexicon entries it changed go back to
    what they were, where they still read as it left them, and the profile goes back to what it
    was, if nothing learned since changed it. Returns how many entries were forgotten."""
    from editor.core.atomic import atomic_write
    from editor.core.review.lexicon import UserLexicon

    n = 0
    lex = UserLexicon.load()
    for word, old, new in taught.lexicon:
        if lex.forms.get(word) != new:
            continue  # changed since: the person's later choice stays
        if old is None:
            lex.remove([word])
        else:
            lex.learn({word: old})
        n += 1
    if n:
        lex.save()
    if taught.after is not None:
        path = _path(taught.key)
        try:
            now: str | None = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            now = None
        if now == taught.after:
            if taught.before is None:
                path.unlink(missing_ok=True)
            else:
                atomic_write(path, taught.before.encode("utf-8"))
            n += len(taught.forms) + len(taught.marks)
    return n
