"""`stet eval`: score a Restorer on an IWSLT-style `word<TAB>LABEL` file or on cased, punctuated text."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

from editor.core.errors import UserError
from editor.restore.lab.asr_noise import RecognizerNoise, recognizer_errors, simulate_asr_errors
from editor.restore.lab.data import read_cased_paragraphs, read_iwslt_tsv
from editor.restore.lab.evaluate import calibration, case_errors, case_scores, high_confidence, punct_scores, sentence_accuracy
from editor.restore.model.labels import MARK_TO_3CLASS, PUNCT_MARKS, THREE_CLASS


def is_tsv(text: str) -> bool:
    """Whether the first non-blank line is IWSLT-style `word<TAB>LABEL`."""
    for line in text.splitlines():
        if line.strip():
            return "\t" in line
    return False


def _suggestion_calibration(conf: np.ndarray, correct: np.ndarray, shown: np.ndarray) -> dict:
    """Calibration over every word's decision and over the suggestions a person would see."""
    return {"all_words": calibration(conf, correct), "suggestions": calibration(conf[shown], correct[shown])}


def score_tsv(restorer, words: list[str], gold: list[str]) -> dict:
    preds = restorer.restore(words)
    pred3 = [MARK_TO_3CLASS[p.punct] for p in preds]
    res = punct_scores(gold, pred3)
    # scored in the 3-class view, so the confidence is that of the predicted class: the summed
    # probability of its marks (":" counts as COMMA, "!" and ";" as PERIOD)
    conf = np.asarray([sum(v for m, v in p.punct_probs.items() if MARK_TO_3CLASS[m] == q) for p, q in zip(preds, pred3)])
    correct = np.asarray([g == q for g, q in zip(gold, pred3)])
    shown = np.asarray([p.punct != "" for p in preds])
    res["sentence_accuracy"] = sentence_accuracy(
        [{"PERIOD": ".", "QUESTION": "?"}.get(g, g) for g in gold], [{"PERIOD": ".", "QUESTION": "?"}.get(q, q) for q in pred3])
    res["calibration"] = _suggestion_calibration(conf, correct, shown)
    n_ref = sum(1 for g in gold if g != "O")
    res["high_confidence"] = high_confidence(conf[shown], correct[shown], n_ref)
    res["words"] = len(words)
    return res


def with_asr_errors(words: list[str], gold: list[str], seed: int = 0, kind: str = "random") -> tuple[list[str], list[str]]:
    """A copy of an IWSLT-style reference with the recognition errors training simulates (words
    substituted, dropped, inserted; a dropped word's mark moves to the word before), for a view of
    how marks hold up on noisy words when no real recogniser output with references is at hand.

    kind "random": any word of the text replaces a word (the noisy dev copy of the model card);
    "recognizer": words that sound alike, short words dropped, compounds split and merged, the
    sound-alikes and compounds taken from the words of the text itself (a recogniser's vocabulary
    is not at hand)."""
    names = list(THREE_CLASS)  # "O" (no mark) first: index 0 is what a dropped word's mark leaves
    punct = np.asarray([names.index(g) for g in gold])
    rng = np.random.default_rng(seed)
    if kind == "random":
        idx = np.arange(len(words))
        tokens, punct, _ = simulate_asr_errors(idx, punct, np.zeros_like(punct), idx, rng)
        return [words[i] for i in tokens], [names[k] for k in punct]
    if kind != "recognizer":
        raise ValueError(f"unknown kind of recognition errors {kind!r}")
    forms = sorted(set(words))
    form_id = {w: i for i, w in enumerate(forms)}
    ids = np.asarray([form_id[w] for w in words], np.int64)
    noise = RecognizerNoise(forms, Counter(words), min_count=1, part_count=5)
    tokens, punct, _ = recognizer_errors(ids, punct, np.zeros_like(punct), ids, rng, noise)
    return [forms[i] for i in tokens], [names[k] for k in punct]


def score_text(restorer, docs, paragraphs=None) -> dict:
    """Scores on cased, punctuated documents (lists of LabelledWord); `paragraphs`: per document the
    indices of the words that start a paragraph, given to the restorer as the editor gives them."""
    g_marks, p_marks, g_surf, p_surf = [], [], [], []
    words: list[str] = []
    conf_p, conf_c, doc_starts = [], [], []
    for k, doc in enumerate(docs):
        doc_starts.append(len(g_marks))
        preds = restorer.restore([w.word for w in doc], paragraph_starts=paragraphs[k] if paragraphs else ())
        for w, p in zip(doc, preds):
            words.append(w.word)
            g_marks.append(w.punct)
            p_marks.append(p.punct)
            g_surf.append(w.surface)
            p_surf.append(p.text.removesuffix("."))  # reference surfaces carry no abbreviation period
            conf_p.append(p.punct_confidence)
            conf_c.append(p.case_confidence)
    g3 = [MARK_TO_3CLASS[m] for m in g_marks]
    p3 = [MARK_TO_3CLASS[m] for m in p_marks]
    res = punct_scores(g3, p3)
    res["all_marks"] = punct_scores(g_marks, p_marks, classes=PUNCT_MARKS[1:], none="")
    res["case"] = case_scores(g_surf, p_surf)
    res["case_errors"] = case_errors(g_marks, p_marks, g_surf, p_surf, doc_starts)
    res["case_errors"]["capitals_after_comma_by_kind"] = capitals_after_comma_by_kind(
        restorer, words, p_marks, p_surf, doc_starts)
    res["sentence_accuracy"] = sentence_accuracy(g_marks, p_marks, g_surf, p_surf)
    res["sentence_accuracy_punct_only"] = sentence_accuracy(g_marks, p_marks)
    cp, cc = np.asarray(conf_p), np.asarray(conf_c)
    okp = np.asarray([a == b for a, b in zip(g_marks, p_marks)])
    okc = np.asarray([a == b for a, b in zip(g_surf, p_surf)])
    shown_p = np.asarray([m != "" for m in p_marks])
    shown_c = np.asarray([s != s.lower() for s in p_surf])
    res["calibration"] = {"punct": _suggestion_calibration(cp, okp, shown_p), "case": _suggestion_calibration(cc, okc, shown_c)}
    n_ref_p = sum(1 for m in g_marks if m)
    n_ref_c = sum(1 for s in g_surf if s != s.lower())
    res["high_confidence"] = {"punct": high_confidence(cp[shown_p], okp[shown_p], n_ref_p),
                              "case": high_confidence(cc[shown_c], okc[shown_c], n_ref_c)}
    res["words"] = len(g_marks)
    return res


def score_file(restorer, path: str | Path, asr_errors_seed: int | None = None, paragraphs: bool = True,
               simulate_review: float | None = None, adapt_heads: bool = False, case_odds: float | None = None,
               encoding: str | None = None, asr_noise: str = "random") -> dict:
    """Scores on FILE; with `asr_errors_seed`, on a copy of an IWSLT-style FILE with simulated
    recognition errors. In cased text each line is a paragraph and, with `paragraphs`, its break is
    given to the restorer as the editor gives a document's paragraphs."""
    from editor.core.formats import READERS, read_any
    from editor.core.formats.txt import read_text
    from editor.core.render import join_rendered, render_paragraphs

    path = Path(path)
    if not path.is_file():
        raise UserError(f"{path}: no such file")
    if path.suffix.lower() in READERS and path.suffix.lower() not in (".txt", ".text"):
        # A reviewed transcript (subtitles, JSON, a project): its words as they stand, one paragraph
        # a line, not its cue numbers, times or JSON syntax read as words.
        doc = read_any(path, encoding)
        text = "\n".join(join_rendered(words) for _speaker, words in render_paragraphs(doc))
        warnings = list(doc.metadata.warnings)
    else:
        text, warnings = read_text(path, encoding)  # a binary file is refused; a guessed encoding is reported
    for w in warnings:
        print(f"warning: {path}: {w}", file=sys.stderr)
    try:
        if is_tsv(text):
            words, gold = read_iwslt_tsv(path, text)
            kind = "iwslt-tsv"
            if simulate_review is not None:
                raise UserError(f"{path}: a review is simulated only on cased, punctuated text (`# ` talk headers)")
            if asr_errors_seed is not None:
                words, gold = with_asr_errors(words, gold, asr_errors_seed, asr_noise)
                kind += f", simulated {'recogniser-like ' if asr_noise == 'recognizer' else ''}recognition errors (seed {asr_errors_seed})"
            if not words:
                raise UserError(f"{path}: no words to score")
            return {"file": str(path), "kind": kind, "warnings": warnings, **score_tsv(restorer, words, gold)}
        if asr_errors_seed is not None:
            raise UserError(f"{path}: recognition errors are simulated only on IWSLT-style word<TAB>LABEL files")
        docs = [d for d in read_cased_paragraphs(path, text) if d[0]]
    except ValueError as err:
        raise UserError(str(err)) from None
    if not docs:
        raise UserError(f"{path}: no words to score")
    breaks = sum(len(starts) - 1 for _words, starts in docs)
    kind = "cased-text, " + (f"{breaks:,} paragraph breaks given to the model" if paragraphs
                             else "paragraph breaks ignored")
    out = {"file": str(path), "kind": kind, "warnings": warnings,
           **score_text(restorer, [w for w, _s in docs], [s for _w, s in docs] if paragraphs else None)}
    if simulate_review is not None:
        from editor.restore.lab.simulate import simulate_review as simulate

        out["simulate_review"] = simulate(restorer, [w for w, _s in docs], [s for _w, s in docs] if paragraphs else None,
                                          simulate_review, head=adapt_heads, case_odds=case_odds)
    return out


def comma_capital_kind(restorer, word: str) -> str:
    """Why `word` (lowercase) may take a capital right after a , or ; (Restorer.may_capitalize_after_comma)."""
    names = getattr(restorer, "names", None)
    if names is None:
        return "no names lexicon"
    if word in names:
        return "names lexicon"
    if word in restorer.lexicon:
        return "mixed form of a lexicon"
    if word not in restorer.vocab:
        return "outside the vocabulary"
    return "other"


def capitals_after_comma_by_kind(restorer, words: list[str], p_marks: list[str], p_surf: list[str],
                                 doc_starts: list[int]) -> dict[str, int]:
    """The predicted capitals right after a predicted comma, counted by `comma_capital_kind`."""
    starts = set(doc_starts)
    kinds: dict[str, int] = {}
    for i in range(1, len(words)):
        if i not in starts and p_marks[i - 1] == "," and p_surf[i] != p_surf[i].lower():
            k = comma_capital_kind(restorer, words[i])
            kinds[k] = kinds.get(k, 0) + 1
    return kinds


def _reliability(name: str, cal: dict) -> list[str]:
    """The reliability table of the suggestions a person is shown."""
    lines = [f"reliability of shown {name} suggestions (confidence bin: words, mean confidence, accuracy)"]
    for row in cal["table"]:
        lines.append(f"  {row['bin']}: {row['n']:>8,}  {row['confidence']:.3f}  {row['accuracy']:.3f}")
    return lines


def format_report(res: dict) -> str:
    lines = [f"{res['file']}: {res['words']:,} words ({res['kind']})", "",
             f"{'':10}{'P':>7}{'R':>7}{'F1':>7}{'support':>9}"]
    for c in ("COMMA", "PERIOD", "QUESTION", "overall"):
        m = res[c]
        lines.append(f"{c:10}{m['precision']:7.1f}{m['recall']:7.1f}{m['f1']:7.1f}{m['support']:9,}")
    lines.append(f"slot error rate {res['ser']:.1f} %")
    if "case" in res:
        m = res["case"]
        lines.append(f"case (non-lowercase words)  P {m['precision']:.1f}  R {m['recall']:.1f}  F1 {m['f1']:.1f}")
        ce = res["case_errors"]
        lines.append(f"case errors {ce['errors']:,}, {100 * ce['at_sentence_start'] / max(ce['errors'], 1):.0f} % at sentence starts; "
                     f"capitals after a suggested , : ; {ce['capitals_after_mid_mark']:,} "
                     f"({ce['wrong_capitals_after_mid_mark']:,} where the reference has lowercase), after a comma "
                     f"{ce.get('capitals_after_comma', 0):,} ({ce.get('wrong_capitals_after_comma', 0):,})"
                     + (": " + ", ".join(f"{k} {n:,}" for k, n in sorted(ce["capitals_after_comma_by_kind"].items()))
                        if ce.get("capitals_after_comma_by_kind") else ""))
        lines.append(f"sentences restored exactly: {res['sentence_accuracy']:.1f} % (punctuation only: {res['sentence_accuracy_punct_only']:.1f} %)")
        for head in ("punct", "case"):
            cal = res["calibration"][head]
            hc = res["high_confidence"][head]
            lines.append(f"{head}: ECE {cal['all_words']['ece']:.3f} (all words), {cal['suggestions']['ece']:.3f} (shown suggestions); "
                         f"at confidence >= 0.9: precision {hc['precision']:.1f} %, coverage {hc['coverage']:.1f} %")
        for head in ("punct", "case"):
            lines += _reliability(head, res["calibration"][head]["suggestions"])
    else:
        lines.append(f"sentences with every mark right: {res['sentence_accuracy']:.1f} %")
        cal = res["calibration"]
        hc = res["high_confidence"]
        lines.append(f"ECE {cal['all_words']['ece']:.3f} (all words), {cal['suggestions']['ece']:.3f} (shown suggestions); "
                     f"at confidence >= 0.9: precision {hc['precision']:.1f} %, coverage {hc['coverage']:.1f} %")
        lines += _reliability("punctuation", cal["suggestions"])
    if "simulate_review" in res:
        lines += _review_lines(res["simulate_review"])
    return "\n".join(lines)


def _review_lines(sim: dict) -> list[str]:
    b, a = sim["before"], sim["after"]
    out = ["", f"simulated review: the first {100 * sim['share']:.0f} % of each of {sim['talks']} talks fixed by a "
               f"reviewer; the rest ({b['words']:,} words) scored without and with what Stet learned",
           f"{'':22}{'without':>9}{'with':>9}",
           f"{'overall F1':22}{b['overall_f1']:9.2f}{a['overall_f1']:9.2f}",
           f"{'case F1':22}{b['case_f1']:9.2f}{a['case_f1']:9.2f}",
           f"{'words to change':22}{b['actions']:9,}{a['actions']:9,}"]
    names = sim["names"]
    if names["later_occurrences"]:
        out.append(f"words written mid-sentence with a capital in the reviewed part: {names['later_occurrences']:,} later "
                   f"occurrences, {names['right_before']:.1f} % right without, {names['right_after']:.1f} % with")
    for key, what in (("corrected_names", "words outside the 2,000 commonest the reviewer corrected to a capital "
                                          "mid-sentence"),
                      ("names_corrected_once", "of those, names (one form wherever no sentence starts in the "
                                               "reviewed part)")):
        c = sim.get(key) or {}
        if c.get("later_occurrences"):
            out.append(f"{what}: {c['words']:,} words, {c['later_occurrences']:,} later occurrences, "
                       f"{c['right_before']:.1f} % right without, {c['right_after']:.1f} % with")
    out.append(f"learning took {1000 * sim['fit_seconds_median']:.0f} ms per talk (median)")
    return out

