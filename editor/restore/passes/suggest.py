"""Model predictions -> the document's suggestions (pure Python; no torch needed to call it)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence

from editor.core.document.transcript import Kind, Suggestion, Token
from editor.core.document.text import (CLOSING_BRACKETS, CLOSING_QUOTES, INVISIBLE, ends_sentence, is_tag,
                              split_opening)
from editor.restore.model.labels import PUNCT_MARKS, apply_case, mark_of
from editor.restore.passes.prediction import WordPrediction


#: Case classes whose written form needs no lexicon, so the prediction's text is one of the surfaces.
_PLAIN_CASES = frozenset({"lower", "capitalized", "upper"})
#: Marks exactly as the model writes them.
_PLAIN_MARKS = frozenset(PUNCT_MARKS)


def surface_probs(word: str, case_probs: dict[str, float], lexicon: dict[str, str] | None = None) -> dict[str, float]:
    """Case-class probabilities as written alternatives: {"the": .7, "The": .3, "THE": 0}.

    Classes that write the same text ("i" capitalized and upper are both "I") share their mass.
    """
    out: dict[str, float] = {}
    for case, p in case_probs.items():
        if case == "mixed" and not (lexicon and word in lexicon):
            continue
        text = apply_case(word, case, lexicon)
        out[text] = out.get(text, 0.0) + p
    total = sum(out.values()) or 1.0
    return {k: v / total for k, v in out.items()}


#: Characters after a word that close something (quotes, brackets): a suggested mark keeps them.
#: After a mark a single quote or an apostrophe closes a quote too (,' and ,’ keep it).
_QUOTES = CLOSING_QUOTES | {"'", "’"}
_CLOSERS = _QUOTES | CLOSING_BRACKETS


def current_mark(punct: str) -> str:
    """The mark a token's written punctuation amounts to, in the model's terms: the strongest of
    ? ! . ; : , ("?!" -> "?", "..." -> "."), a dash counting as a comma; quotes and brackets aside."""
    return mark_of(punct.replace("…", "."))


#: What may stand after a word besides its marks, closers and invisible characters and be
#: replaced with them: spaces, and the dashes and dots a mark stands for (" --", " ...")
_REPLACEABLE = frozenset(" \t.,?!;:…-–—")


def with_mark(punct: str, mark: str) -> str:
    """`punct` (what follows a word now) with its marks replaced by `mark`, keeping closing quotes
    and brackets: ',"' -> '?"', ')' -> ').'. A mark goes inside closing quotes, after brackets.
    Invisible characters after the marks (a right-to-left mark: `INVISIBLE`) stay after them; so
    do symbols that stand after a word and are no mark (a lyric's closing note, an emoji:
    " ♪" -> ". ♪"), the mark going before them."""
    head = len(punct)
    for k, ch in enumerate(punct):
        if ch in " \t":
            head = k
            break
    if any(ch not in _REPLACEABLE and ch not in _CLOSERS and ch not in INVISIBLE for ch in punct[head:]):
        return _with_mark(punct[:head], mark) + punct[head:]
    return _with_mark(punct, mark)


def _with_mark(punct: str, mark: str) -> str:
    cut = len(punct)
    while cut > 0 and punct[cut - 1] in INVISIBLE:
        cut -= 1
    punct, tail = punct[:cut], punct[cut:]
    closers = "".join(ch for ch in punct if ch in _CLOSERS)
    if not closers:
        return mark + tail
    q = next((i for i, ch in enumerate(closers) if ch in _QUOTES), len(closers))
    return closers[:q] + mark + closers[q:] + tail


def with_author_prior(probs: dict[str, float], current: str, prior: float) -> dict[str, float]:
    """The model's distribution `probs` with the evidence of the value the author wrote: the author
    is right with probability `prior`, and otherwise wrote any other value alike, so
    P(v | model, author wrote a) is proportional to p(v) * prior for v = a and p(v) * (1 - prior) / (K - 1)
    for the K - 1 others. The author's value must be among `probs`."""
    k = max(len(probs) - 1, 1)
    post = {v: p * (prior if v == current else (1.0 - prior) / k) for v, p in probs.items()}
    total = sum(post.values())
    if total <= 0.0:
        return dict(probs)
    return {v: p / total for v, p in post.items()}


#: Marks the model cannot predict well, measured per class on the dev talks with the author prior
#: (tests/perf/bench_authored_marks.py; docs/performance.md): "!" and ";" (its F1 for them is near
#: 0), and what it has no class for: an ellipsis, a dash, a mark beside a closing quote. A mark
#: written with one of them is never removed or replaced by a suggestion.
_UNPREDICTED = ("!", ";", "...", "…", "--", "—", "–", *sorted(_QUOTES))
#: A word past this rank of the model's vocabulary (ordered by frequency) is rare ("gecko" is
#: 27,266th): written with a capital where no sentence starts, it is a name the model cannot know.
RARE_RANK = 10_000


def authors_own(punct: str) -> bool:
    """Whether the punctuation written after a word holds a mark the model cannot predict well
    (see _UNPREDICTED): "!", "?!", "...", " --", ',"'. Suggestions leave it as written."""
    return any(m in punct for m in _UNPREDICTED) or punct.strip() == "-"


def rare_word(restorer: object) -> Callable[[str], bool]:
    """A lowercase word -> whether it is rare for `restorer`'s model: a name of its names lexicon,
    a form of the lexicons, a word its vocabulary does not hold or holds past RARE_RANK. A capital
    an author wrote on such a word where no sentence starts is kept (make_suggestions' `rare`)."""
    names = getattr(restorer, "may_capitalize_after_comma", None)
    vocab = getattr(restorer, "vocab", None)

    def rare(word: str) -> bool:
        return (names is None or names(word)) or vocab is None or vocab.word_id(word) > RARE_RANK
    return rare


def removes_authors(token: Token, kind: Kind | str, value: str) -> bool:
    """Whether setting `token`'s `kind` to `value` would remove or replace what was written there:
    a mark where one is written (its quotes and brackets aside), any form of a word written with a
    capital. Adding a missing mark or capital is not."""
    if kind == Kind.PUNCT:
        return bool(current_mark(token.punct)) and current_mark(value) != current_mark(token.punct)
    if kind == Kind.CASE:
        written = token.surface or token.word
        return written != written.lower() and value != written
    return False


_PUNCT = operator.attrgetter("punct")


def authored(tokens: Sequence[Token]) -> tuple[bool, bool]:
    """Whether the text's marks and its capitals were written by someone (an author, a recogniser
    that punctuates): any word with a mark after it, any word with a capital. A raw transcript
    (lowercase words, no marks) has neither, and the model's say is all the evidence there is."""
    marks = any(map(_PUNCT, tokens)) and any(t.punct and not is_tag(t.text) for t in tokens)
    forms = [t.surface or t.word for t in tokens]
    joined = "\n".join(forms)  # one lower() over the text, not one a word: a raw text has none
    capitals = joined != joined.lower() and any(
        form != form.lower() and not is_tag(t.text) for t, form in zip(tokens, forms))
    return marks, capitals


#: A run of this many words or more with no mark written after any of them and no capital is raw
#: (a recogniser's words, the part of a transcript not yet reviewed), however written the text around
#: it is. In written text such runs are short: in 11.6 M words of the training text (3 M each of TED,
#: Supreme Court, presidential speeches, 2.6 M of novels) the longest were 64, 85, 74 and 209 (one in
#: a novel), on the dev talks 48; a transcript exported half reviewed has one as long as its rest.
RAW_RUN = 100


def raw_runs(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """The (start, end) runs of `RAW_RUN` or more words with no mark after them and no capital (tags
    such as "[noise]" within a run neither end it nor count): where no one wrote marks or capitals,
    whatever the rest of the text has, so the model's say is all the evidence there is."""
    runs: list[tuple[int, int]] = []
    start, words = 0, 0
    for n, tok in enumerate([*tokens, None]):
        if tok is not None and is_tag(tok.text):
            continue
        written = tok is None or bool(tok.punct) or (tok.surface or tok.word) != (tok.surface or tok.word).lower()
        if not written:
            words += 1
            continue
        if words >= RAW_RUN:
            runs.append((start, n))
        start, words = n + 1, 0
    return runs


#: What opens an aside the author wrote around words: a sound description "(Deep rumbling)", a
#: speaker or sound cue "[SCREAMING]", a lyric "♪ la la la ♪"; each closes with its pair.
_ASIDE_PAIRS = {"(": ")", "[": "]", "{": "}", "♪": "♪", "♫": "♫"}
#: An aside whose closer never comes ("♪ Happy birthday to you", a lyric line that is not closed)
#: ends at the next sentence end written, or after this many words: a subtitle cue holds two
#: lines of at most 42 characters (the Netflix and BBC guidelines), some 16 words.
ASIDE_WORDS = 20
#: A word cut off by its speaker ("Dad--", "I was…"): no mark is proposed after it.
_CUT_OFFS = ("--", "—", "–", "…", "...")


def asides(tokens: Sequence[Token]) -> list[bool]:
    """Per token, whether it stands in an aside the author wrote (see `_ASIDE_PAIRS`): from the
    word that opens it to the one that closes it, the closer's punctuation included. Nothing is
    proposed there: not a capital, not a mark inside it or after its closer ("(computer playing
    electronic melody)." was proposed at 96 %)."""
    out = [False] * len(tokens)
    closer: str | None = None
    words = 0
    for n, tok in enumerate(tokens):
        surface = tok.surface or tok.word
        if surface[:1].isalnum():  # (most words: nothing opens before them)
            if closer is None:
                continue
        else:
            opener = next((ch for ch in split_opening(surface)[0] if ch in _ASIDE_PAIRS), None)
            if opener is not None:
                closer, words = _ASIDE_PAIRS[opener], 0
            if closer is None:
                continue
        out[n] = True
        words += 1
        if closer in tok.punct or closer in split_opening(surface)[1]:
            closer = None
        elif ends_sentence(current_mark(tok.punct)) or words >= ASIDE_WORDS:
            closer = None  # never closed: it ends with its line's sentence, or soon
    return out


def cut_off(token: Token) -> bool:
    """Whether the speaker was cut off after ``token`` ("Dad--", "I was…"): the author's dash or
    ellipsis stands for the mark, and none is proposed after it."""
    return (any(m in token.punct for m in _CUT_OFFS)
            or (token.surface or token.word).endswith(_CUT_OFFS))


def make_suggestions(tokens: Sequence[Token], predictions: Sequence[WordPrediction], lexicon: dict[str, str] | None = None, *,
                     author_prior: dict[str, float] | None = None, free_lower: float = 0.02,
                     written: tuple[bool, bool] | None = None, mark_before: str | None = None,
                     follow_marks: bool | None = None, comma_capital: Callable[[str], bool] | None = None,
                     keep_author: bool | None = False, rare: Callable[[str], bool] | None = None,
                     aside: Sequence[bool] | None = None) -> list[Suggestion]:
    """One punct and one case suggestion per token where the model's best guess differs from the
    token's current state and is likelier than it (raw ASR text: every predicted mark and capital;
    already written text: only where the model disagrees). Written text keeps what the model does
    not predict: opening quotes and brackets before a word, closing ones after it, an ellipsis or a
    dash where the model agrees that a sentence ends or a clause breaks there. Tokens that are not
    words ("[noise]", "<unk>", "[3]") get no suggestions.

    `author_prior` ({"punct": p, "case": p}, fitted on dev: see lab.author_prior.tune_author_prior): where the
    text's marks (or capitals) were written by someone, each is taken as right with that
    probability, so changing it needs that much evidence; the probabilities shown then include that
    evidence. The case follows the marks as the text will stand: no lowercase after a sentence end,
    no capital after anything else unless its lowercase form is under `free_lower` likely (a name, "I").
    Where `tokens` are part of a document (a chunk), `written` gives `authored()` of the whole
    document and `mark_before` the mark before the first token as the text will stand (None: the
    first token starts the text). `follow_marks`: the case follows the marks as the text will
    stand even where no one wrote marks (raw words pasted into a written text: no capital after
    the comma before them); None: only where they were written. `comma_capital` (a lowercase
    word -> whether it may take a capital right after a , or ;: `Restorer.may_capitalize_after_comma`)
    keeps a common word lowercase there where the case follows the marks; None: the probabilities
    alone decide.

    Where the marks were written (and `author_prior` given), a mark the model cannot predict well
    (`authors_own`: "!", ";", ellipses, dashes, a mark beside a closing quote) is never changed, and
    where capitals were written, a capital on a `rare` word (`rare_word`) where no sentence starts
    is never taken away. `keep_author` (keep the author's punctuation): only missing marks and
    capitals are proposed, no removal or replacement of what is written (`removes_authors`); None:
    so where the text has marks or capitals written (`written`), else all are proposed.

    Nothing is proposed in an aside the author wrote (`asides`: a sound description, a speaker
    cue, a lyric line; ``aside``, a flag per token, gives them where `tokens` are a chunk of a
    document), and no mark after a word cut off with a dash or an ellipsis (`cut_off`)."""
    if len(tokens) != len(predictions):
        raise ValueError(f"{len(tokens)} tokens but {len(predictions)} predictions")
    prior = author_prior or {}
    marks_written, capitals_written = (written or authored(tokens)) if prior else (False, False)
    punct_prior = float(prior.get("punct", 0.0)) if marks_written else 0.0
    case_prior = float(prior.get("case", 0.0)) if capitals_written else 0.0
    # Without marks written, a lowercase word says nothing of where a sentence starts (raw words
    # with a name typed in): the author's evidence keeps the capitals written, not the lowercase.
    lower_prior = case_prior if marks_written else 0.0
    if keep_author is None:
        keep_author = any(written or authored(tokens))
    if aside is None:
        aside = asides(tokens)
    elif len(aside) != len(tokens):
        raise ValueError(f"{len(tokens)} tokens but {len(aside)} aside flags")
    out: list[Suggestion] = []
    prev_then = mark_before  # the mark before the word as the text will stand (None: the text's start)
    for n, (tok, pred) in enumerate(zip(tokens, predictions)):
        if is_tag(tok.text) or aside[n]:
            prev_then = tok.punct
            continue
        punct = tok.punct
        now = current_mark(punct)
        plain = not punct or punct in _PLAIN_MARKS
        probs: dict[str, float] = {}
        for m, p in pred.punct_probs.items():
            key = m if plain else with_mark(punct, m)
            probs[key] = probs.get(key, 0.0) + p
        current = punct if plain else with_mark(punct, now)
        value = pred.punct if plain else with_mark(punct, pred.punct)
        if punct_prior > 0.0:
            probs = with_author_prior(probs, current, punct_prior)
            value = max(probs, key=probs.__getitem__)
            if (ends_sentence(current_mark(value)) and not ends_sentence(now)
                    and not _capital_follows(tokens, predictions, n + 1, lexicon, lower_prior)):
                # A sentence end only with the capital it brings ("Jagger. we're" never): the
                # author's lowercase word after it outweighed the model's capital, so the best mark
                # that ends no sentence (decide_jointly's rule, with the author's evidence).
                value = max((k for k in probs if not ends_sentence(current_mark(k))), key=probs.__getitem__,
                            default=current)
        then = punct
        kept = (keep_author and bool(now)) or (punct_prior > 0.0 and authors_own(punct)) or cut_off(tok)
        if not kept and current_mark(value) != now and probs.get(value, 0.0) > probs.get(current, 0.0):
            out.append(Suggestion(tok.id, Kind.PUNCT, value, probs))
            then = value
        written_lower = (tok.surface or tok.word) == (tok.surface or tok.word).lower()
        case = _case_suggestion(tok, pred, lexicon, lower_prior if written_lower else case_prior, prev_then, free_lower,
                                marks_written if follow_marks is None else follow_marks, comma_capital)
        if case is not None and not (keep_author and not written_lower) and not (
                case_prior > 0.0 and rare is not None and _keeps_name(tok, case.value, prev_then, rare)):
            out.append(case)
        prev_then = then
    return out


def _keeps_name(tok: Token, value: str, prev_then: str | None, rare: Callable[[str], bool]) -> bool:
    """Whether `value` would take the capital off a `rare` word written with one where no sentence
    starts (`prev_then`: the mark before it as the text will stand): a name the model cannot know."""
    written = split_opening(tok.surface or tok.word)[1]
    proposed = split_opening(value)[1]
    starts = prev_then is None or ends_sentence(prev_then)
    return (not starts and written[:1] != written[:1].lower() and proposed[:1] == proposed[:1].lower()
            and rare(tok.word.lower()))


def _capital_follows(tokens: Sequence[Token], predictions: Sequence[WordPrediction], index: int,
                     lexicon: dict[str, str] | None, case_prior: float) -> bool:
    """Whether the word at `index` (the next one that is a word) would start a sentence as it
    should: it is capitalised already, or its likeliest capital form, with the author's evidence
    for the lowercase form written (`case_prior`), is likelier than the form as it stands. True past the
    end of `tokens` (a chunk: the next chunk decides)."""
    while index < len(tokens) and is_tag(tokens[index].text):
        index += 1
    if index >= len(tokens):
        return True
    tok, pred = tokens[index], predictions[index]
    _lead, surface = split_opening(tok.surface or tok.word)
    if not surface or surface[:1] != surface[:1].lower() or not surface[:1].isalpha():
        return True
    surfaces = surface_probs(tok.word.lower(), pred.case_probs, lexicon)
    if case_prior > 0.0 and surface in surfaces:
        surfaces = with_author_prior(surfaces, surface, case_prior)
    capital = max((p for k, p in surfaces.items() if k[:1] != k[:1].lower()), default=0.0)
    return capital > surfaces.get(surface, 0.0)


def _case_suggestion(tok: Token, pred: WordPrediction, lexicon: dict[str, str] | None, case_prior: float, prev_then: str | None, free_lower: float,
                     follow_marks: bool, comma_capital: Callable[[str], bool] | None = None) -> Suggestion | None:
    written = tok.surface or tok.word  # a Token's surface is always set (its word by default)
    lead, surface = split_opening(written)
    if not surface:
        lead, surface = "", written
    if not lead and pred.text == surface and pred.case in _PLAIN_CASES:
        return None  # the model writes the word as it stands: no case suggestion to make
    surfaces = surface_probs(tok.word.lower(), pred.case_probs, lexicon)
    best = pred.text if pred.text in surfaces else max(surfaces, key=surfaces.__getitem__)
    if case_prior > 0.0:
        if surface not in surfaces:
            return None  # a form the model cannot write (a brand's mixed case): the author's stands
        surfaces = with_author_prior(surfaces, surface, case_prior)
        best = max(surfaces, key=surfaces.__getitem__)
    if best == surface or surfaces.get(best, 0.0) <= surfaces.get(surface, 0.0):
        return None
    if follow_marks:
        # the marks were written by someone: the case follows them as the text will stand
        starts = prev_then is None or ends_sentence(prev_then)
        capital = best[:1] != best[:1].lower()
        if starts and not capital and surface[:1] != surface[:1].lower():
            return None  # a sentence start keeps its capital
        if not starts and capital and surface[:1] == surface[:1].lower():
            if surfaces.get(best.lower(), 0.0) >= free_lower:
                return None  # no capital mid-sentence unless its lowercase form is unlikely anywhere
            if (comma_capital is not None and prev_then is not None and current_mark(prev_then) in (",", ";")
                    and not comma_capital(tok.word.lower())):
                return None  # after a , or ; only a name takes a capital
    # a capital of a word that is no name comes only with a sentence start (review.hangs_on_start)
    needs_start = (comma_capital is not None and best[:1] != best[:1].lower()
                   and not comma_capital(tok.word.lower()))
    if lead:
        best, surfaces = lead + best, {lead + k: v for k, v in surfaces.items()}
    return Suggestion(tok.id, Kind.CASE, best, surfaces, needs_start=needs_start)
