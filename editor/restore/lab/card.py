"""Write a model directory's MODEL_CARD.md from the measured reports (tuning, benchmark, training
history), so that every figure in the card comes from a file a command wrote.

    python -m editor.restore.lab.card MODEL_DIR TUNING.json BENCH.json HISTORY.json [--extra EXTRA.json]
    python -m editor.restore.lab.card MODEL_DIR      # from MODEL_DIR/TUNING_REPORT.json and MODEL_DIR/card-sources/

A shipped model keeps its card's sources beside it: TUNING_REPORT.json (written by `stet train
--export`), card-sources/bench.json (tests/perf/bench_restore.py), card-sources/history.json (the
training run's dev figures) and card-sources/extra.json (what was measured by hand: comparisons,
notes, the failure modes that are not figures of the tuning report), so the card can be rebuilt and
checked against them.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from editor.restore.labels import END_MARKS

SOURCES = [
    ("ted_saranyan", "TED / TED-Ed talk transcripts (spoken)", "5.36 M", "CC BY-NC-ND 4.0 (TED)",
     "github saranyan/TED-Talks @4d7e8c21, talks overlapping IWSLT dev/test removed"),
    ("scotus_oyez_2010plus", "US Supreme Court oral arguments 2010+ (spoken, verbatim)", "11.24 M", "CC BY-NC (Oyez)",
     "github walkerdb/supreme_court_transcripts @f8c155e2"),
    ("presidential_speeches", "US presidential speeches 1789-2020 (spoken, formal)", "4.00 M", "public domain",
     "github kfogel/presidential-speeches @a4c8b38e"),
    ("gutenberg_dialogue_subset", "177 dialogue-heavy public-domain novels (written)", "11.94 M", "public domain",
     "github rcdm-uga/Gutenberg_Text @a0b16d35"),
    ("ljspeech_text", "LJ Speech utterance texts (read non-fiction)", "0.22 M", "public domain",
     "github NVIDIA/tacotron2 filelists"),
]


def _row(name: str, m: dict) -> str:
    return f"| {name} | {m['precision']:.1f} | {m['recall']:.1f} | {m['f1']:.1f} | {m['support']:,} |"


def _reliability(table: list[dict]) -> list[str]:
    out = ["| confidence bin | words | mean confidence | accuracy |", "|---|---|---|---|"]
    for r in table:
        out.append(f"| {r['bin']} | {r['n']:,} | {r['confidence']:.3f} | {r['accuracy']:.3f} |")
    return out


def measured_failure_modes(tuning: dict) -> list[str]:
    """The known failure modes that are figures of the tuning report (so they change with the model)."""
    tsv, talks = tuning["dev2012_tsv"], tuning["dev_talks"]
    marks = talks["all_marks"]
    out = []
    if "dev2012_noisy" in tuning:
        out.append(f"On a copy of dev2012 with simulated recognition errors (`stet eval FILE --simulate-asr-errors`, "
                   f"seed 0: 5 % of words substituted, 3 % dropped, 2 % inserted) overall F1 falls from "
                   f"{tsv['overall']['f1']:.1f} to {tuning['dev2012_noisy']['overall']['f1']:.1f}. Training uses the "
                   "same simulation, so real recogniser output (not measured: no English recogniser output with "
                   "references was available) may fare worse.")
    c = tsv["COMMA"]
    out.append(f"Commas are the weakest class (dev2012 COMMA F1 {c['f1']:.1f}, P {c['precision']:.1f} / R {c['recall']:.1f}).")
    rare = [m for m in ("!", ";", ":") if m in marks]
    if rare:
        out.append("The rarer marks are weak: on the dev talks " + ", ".join(
            f"`{m}` F1 {marks[m]['f1']:.1f} (P {marks[m]['precision']:.1f} / R {marks[m]['recall']:.1f}, "
            f"{marks[m]['support']:,} in the reference)" for m in rare)
            + ": they are rare in speech transcripts. Quotation marks and dashes are not predicted at all (dashes in "
              "the training text count as commas).")
    ce = talks.get("case_errors")
    if ce and "joint_case" in tuning:
        jc = tuning["joint_case"]
        out.append(f"A capital after a suggested , or ; is given only where the word's lowercase form is unlikely "
                   f"there (under {100 * jc['position_free_lower']:g} % where no sentence ends before it): on the dev "
                   f"talks {ce.get('capitals_after_comma', 0):,} capitals follow a suggested comma, "
                   f"{ce.get('wrong_capitals_after_comma', 0):,} of them where the reference has lowercase (the rest are "
                   "names and \"I\")"
                   + (f"; after \":\" a capital where the lowercase form is under {100 * jc['colon_lower']:g} % likely"
                      if "colon_lower" in jc else "")
                   + f"; after any of , : ; {ce['capitals_after_mid_mark']:,} capitals, "
                   f"{ce['wrong_capitals_after_mid_mark']:,} lowercase in the reference.")
    elif ce:
        out.append("The mark and the case of a word are decided separately, so where the model hesitates between a "
                   "comma and a sentence end a capital can follow a suggested comma (\"this week, Thanks for "
                   f"listening\"): on the dev talks {ce['capitals_after_mid_mark']:,} capitals follow a suggested , : "
                   f"or ;, {ce['wrong_capitals_after_mid_mark']:,} of them where the reference has lowercase (the rest "
                   "are mostly names).")
    if ce:
        share = 100 * ce["at_sentence_start"] / max(ce["errors"], 1)
        out.append(f"Case F1 on the dev talks is {talks['case']['f1']:.1f}. {ce['at_sentence_start']:,} of its "
                   f"{ce['errors']:,} case errors ({share:.0f} %) are at sentence starts: a capital missing after a "
                   "missed sentence end, or one given after a wrong sentence end (a capital always follows a "
                   "suggested end mark); most of the rest are names that are also common words, titles, and "
                   "sentence starts inside quotes or after a colon.")
    held = tuning["dev_talks_odd_half"]["high_confidence"]
    hp, hc = held["punct"], held["case"]
    out.append(f"High-confidence punctuation is rare: marks at confidence >= 0.9 are right {hp['precision']:.1f} % of "
               f"the time but cover only {hp['coverage']:.1f} % of the reference marks, so most punctuation needs "
               f"review; case suggestions at >= 0.9 are right {hc['precision']:.1f} % of the time and cover "
               f"{hc['coverage']:.1f} % of the capitalised words (odd-numbered dev talks).")
    out.append("Dev figures only: the project's held-out IWSLT 2011 test was not available, so the held-out targets "
               "(reference F1 >= 68, ASR F1 >= 62, case F1 >= 85) are not shown to be met; on dev the model reaches "
               f"{tsv['overall']['f1']:.1f} overall and {talks['case']['f1']:.1f} case F1.")
    return out


def joint_decision_lines(tuning: dict) -> str:
    """The decision rule of the card: one honest rule, mark and case decided together, the author
    prior, each with what it gave on dev (before: the figures kept under "before_joint_decision")."""
    d, u, jc = tuning["decision"], tuning["decision_unconstrained"], tuning["joint_case"]
    w = ", ".join(f"{k} {v:g}" for k, v in d["chosen"].items())
    before = tuning.get("before_joint_decision", {})
    lines = [
        "Decision rule: one rule for every suggestion, a value is suggested only where it is likelier than the text "
        "as it stands, and the confidence shown is that value's calibrated probability. Marks: the summed probability "
        f"of each 3-class group (no mark; , :; . ! ;; ?) is weighted ({w}), the heaviest group wins and its likeliest "
        "mark is suggested if it is likelier than no mark; a sentence end only where the capital it brings to the next "
        "word is likelier than that word's lowercase form (else the best other mark). Case, decided with the mark "
        "before it: after a sentence end the likeliest capital form; after , : ; a capital only where the word's "
        f"lowercase form is under {jc['position_free_lower']:g} likely where no sentence ends before it (names, "
        f"\"I\"); after no mark, under {jc['unmarked_lower']:g}"
        + (f"; after \":\" (which often opens a quote or a sentence), under {jc['colon_lower']:g}." if "colon_lower" in jc else "."),
        f"The weights tuned on dev2012 under the rule give F1 {d['f1_chosen']:.2f} (marks alone; "
        f"{d['f1_unweighted']:.2f} unweighted); the round-1 rule, which suggested marks less likely than no mark "
        f"where that raised F1, reaches {u['f1_chosen']:.2f} with its own weights ("
        + ", ".join(f"{k} {v:g}" for k, v in u["chosen"].items()) + ").",
        "Thresholds of the case, on the dev talks with their paragraphs (case F1; capitals after a suggested , : ; "
        "and how many of them the reference writes lowercase): after , : ; "
        + "; ".join(f"{k}: {v['case_f1']:.2f}, {v['capitals_after_mid_mark']:,} ({v['wrong_capitals_after_mid_mark']:,})"
                    for k, v in jc["after_mid_mark_grid"].items())
        + " (kept: the largest with at most 0.5 % lowercase); after no mark "
        + "; ".join(f"{k}: {v['case_f1']:.2f}" for k, v in jc["after_no_mark_grid"].items())
        + ("; then after \":\" alone " + "; ".join(f"{k}: {v['case_f1']:.2f}, {v['capitals_after_mid_mark']:,} "
                                                 f"({v['wrong_capitals_after_mid_mark']:,})"
                                                 for k, v in jc["after_colon_grid"].items())
           if "after_colon_grid" in jc else "") + ".",
    ]
    if before.get("metrics"):
        b, m = before["metrics"], tuning["metrics"]
        bt, t = before.get("dev_talks", {}), tuning["dev_talks"]
        ce_b, ce = bt.get("case_errors", {}), t.get("case_errors", {})
        lines.append(
            "What the rule gave against the round-1 rule (weighted marks, \"lower\" weighted 0.7 in the case, a capital "
            f"after every suggested end mark), same weights of the network: dev2012 overall F1 {b['dev2012_overall_f1']:.2f} "
            f"-> {m['dev2012_overall_f1']:.2f}, noisy copy {b['dev2012_noisy_f1']:.2f} -> {m['dev2012_noisy_f1']:.2f}, "
            f"case F1 on the dev talks {b['dev_talks_case_f1']:.2f} -> {m['dev_talks_case_f1']:.2f} (precision "
            f"{bt['case']['precision']:.1f} -> {t['case']['precision']:.1f}, recall {bt['case']['recall']:.1f} -> "
            f"{t['case']['recall']:.1f}); capitals after a suggested , : ; {ce_b.get('capitals_after_mid_mark', 0):,} "
            f"({ce_b.get('wrong_capitals_after_mid_mark', 0):,} lowercase in the reference) -> "
            f"{ce.get('capitals_after_mid_mark', 0):,} ({ce.get('wrong_capitals_after_mid_mark', 0):,}); calibration error of "
            f"every word's decision on the odd-numbered talks, marks {b['punct_ece_odd_talks']:.4f} -> "
            f"{m['punct_ece_odd_talks']:.4f}, case {b['case_ece_odd_talks']:.4f} -> {m['case_ece_odd_talks']:.4f}. The cost "
            "in F1 is the marks and capitals the old rule suggested while leaving the text alone was likelier; fusing the "
            "case head's belief in a sentence start into the sentence-end probability (a logistic fit on the even talks) "
            "gave nothing measurable (its weight came out 0.004) and is not used.")
    ap = tuning.get("author_prior")
    if ap:
        e = ap["errors_simulated"]
        cw, cn = ap["correct_text_with_prior"], ap["correct_text_without_prior"]
        pw, pn = ap["perturbed_text_with_prior"], ap["perturbed_text_without_prior"]
        lines.append(
            f"Already punctuated text: the author's marks and capitals are evidence. Each is taken as right with a "
            f"probability fitted by likelihood on the even-numbered dev talks with simulated author errors "
            f"({100 * e['punct']:g} % of the marks changed to another of none , . ?, {100 * e['case']:g} % of the words' "
            f"case flipped): marks {ap['prior']['punct']:g}, case {ap['prior']['case']:g}; a change needs that much "
            "evidence, and the probabilities shown include it. Accept-all at 0.9 on the odd-numbered talks: on the "
            f"correct text it changes {cw['marks_changed']:,} of {cw['author_marks']:,} marks ({cw['marks_changed_share']:.2f} %; "
            f"without the prior {cn['marks_changed']:,}, {cn['marks_changed_share']:.2f} %) and recases {cw['words_recased']:,} "
            f"words (without: {cn['words_recased']:,}); on the copy with author errors its mark changes are right "
            f"{pw['mark_precision']:.1f} % of the time (without the prior {pn['mark_precision']:.1f} %), fixing "
            f"{pw['author_mark_errors_fixed']:,} of {pw['author_mark_errors']:,} wrong marks (without: "
            f"{pn['author_mark_errors_fixed']:,}), and its case changes {pw['case_precision']:.1f} % (without: "
            f"{pn['case_precision']:.1f} %).")
    return "\n".join(f"- {x}" for x in lines)


def review_lines(sim: dict) -> list[str]:
    """The simulated review (`stet eval FILE --simulate-review SHARE --json`'s "simulate_review",
    with "when", "file" and "notes" added in extra.json): before and after, per variant measured."""
    L = [f"## Learning from the person reviewing (`stet eval FILE --simulate-review {sim['share']}`)", ""]
    L.append(f"On {sim['file']} ({sim['talks']} talks; {sim['when']}): in each talk a simulated reviewer fixes every "
             f"error in the first {100 * sim['share']:.0f} % of the words, Stet learns from them as the editor does "
             "after a save, and the rest of the talk "
             f"({sim['before']['words']:,} words in all) is scored before and after. Actions: words of the rest "
             "whose mark or written form still differs from the reference (each one the person has to change).")
    L.append("")
    L.append("| | overall F1 | case F1 | actions | marks | case |")
    L.append("|---|---|---|---|---|---|")
    rows = [("before (the model, the reviewed part fixed)", sim["before"])]
    rows += [(v["name"], v["after"]) for v in sim.get("variants", [])] or [("after", sim["after"])]
    for name, m in rows:
        L.append(f"| {name} | {m['overall_f1']:.2f} | {m['case_f1']:.2f} | {m['actions']:,} | {m['mark_actions']:,} | "
                 f"{m['case_actions']:,} |")
    L.append("")
    n = sim.get("names") or {}
    if n.get("later_occurrences"):
        L.append(f"- Forms the reviewer wrote mid-sentence (names, \"I\", acronyms): their {n['later_occurrences']:,} "
                 f"later occurrences are written right {n['right_before']:.1f} % of the time before, "
                 f"{n['right_after']:.1f} % after.")
    for line in sim.get("notes", []):
        L.append(f"- {line}")
    L.append("")
    return L


def card(model_dir: Path, tuning: dict, bench: dict, history: list, extra: dict) -> str:
    cfg = json.loads((model_dir / "config.json").read_text())
    ma = cfg["model_args"]
    tc = tuning["train_config"]
    tsv, talks = tuning["dev2012_tsv"], tuning["dev_talks"]
    cal = tuning["calibration_fit"]
    held = tuning["dev_talks_odd_half"]
    size_mb = sum(f.stat().st_size for f in model_dir.iterdir() if f.is_file()) / 1e6
    weights_mb = (model_dir / "weights.pt").stat().st_size / 1e6
    # a model continued from another (--init) counts the words of both stages
    seen = extra.get("words_seen_total") or (history[-1]["seen"] if history else 0)
    minutes = extra.get("train_minutes", 0)
    L: list[str] = []
    a = L.append
    a(f"# Model card: {cfg['name']}")
    a("")
    a("Restores punctuation (the mark after each word: none , . ? ! : ;) and case (lower, Capitalized, UPPER, "
      "Mixed) of English ASR output: lowercase words without punctuation. Stet shows its predictions as "
      "suggestions with calibrated confidences; nothing is applied without review unless the user asks.")
    a("")
    a("## Architecture")
    a("")
    a(f"- Word embeddings ({ma['vocab_size']:,} words, dim {ma['word_dim']}) + a character CNN "
      f"({ma['char_dim']}-dim characters, {ma['char_filters']} filters of width {ma['char_width']}, max-pooled; "
      f"words clipped to {ma['max_word_len']} characters keeping start and end) so unknown words and names get features.")
    a(f"- A {ma['layers']}-layer BiLSTM, {ma['hidden']} units per direction, dropout {ma['dropout']}.")
    if ma.get("heads", "joint") == "separate":
        a("- Two heads on the shared BiLSTM (correlated heads, Pahuja et al.): a linear-chain CRF over the 7 marks "
          "and a softmax over the 4 case classes. Punctuation confidences are the CRF's forward-backward marginals "
          "(alpha + beta - log Z), case confidences the softmax; both are temperature-scaled.")
    else:
        a(f"- A linear-chain CRF over the {ma['n_labels']} joint labels (7 marks x 4 cases) in one label space, so "
          "transitions learn that a capital follows a full stop. Confidences are forward-backward marginals "
          "(alpha + beta - log Z), summed to a punctuation and a case distribution per word, then temperature-scaled.")
    a(f"- Mixed-case forms (iPhone, McDonald's) come from a lexicon learned from the training text "
      f"({len(json.loads((model_dir / 'lexicon.json').read_text())):,} entries); a word predicted Mixed without a "
      "lexicon entry is written Capitalized.")
    a(f"- Files: weights stored as float16 ({weights_mb:.1f} MB), whole directory {size_mb:.1f} MB; "
      "checked against SHA256SUMS and loaded with `torch.load(weights_only=True)`.")
    a("")
    a("## Training data")
    a("")
    # a model trained in stages may have drawn its sources by different weights in each
    stages = extra.get("sampling_stages") or [{"name": "sampling weight", "sources": tc["sources"]}]
    a("| source | register | words | licence | origin | " + " | ".join(st["name"] for st in stages) + " |")
    a("|---|---|---|---|---|" + "---|" * len(stages))
    for key, reg, words, lic, origin in SOURCES:
        a(f"| {key} | {reg} | {words} | {lic} | {origin} | "
          + " | ".join(f"{st['sources'].get(key, 0):.2f}" for st in stages) + " |")
    a("")
    a("The text is not redistributed; TED and Oyez text is for non-commercial research use, so these weights "
      "inherit a non-commercial restriction.")
    a("")
    a("## Recipe")
    a("")
    a("- Input made ASR-like: lowercased, punctuation stripped (a mark belongs to the word before it; dashes "
      "count as commas; the period of known abbreviations such as Mr. belongs to the word), half of the numbers "
      "spelled out as a recogniser writes them (num2words: 1989 -> nineteen eighty nine).")
    a("- Training windows of 40-120 words starting anywhere (usually mid-sentence), never across a document; "
      "sources drawn by the weights above.")
    if tc.get("asr_errors", 0) > 0:
        from editor.restore.labels import ASR_ERRORS

        a(f"- Recognition errors simulated in {100 * tc['asr_errors']:.0f} % of the windows (of the last stage): "
          f"{100 * ASR_ERRORS['substitute']:.0f} % of their words replaced by another word of the batch, "
          f"{100 * ASR_ERRORS['delete']:.0f} % dropped (the mark moves to the word before), "
          f"{100 * ASR_ERRORS['insert']:.0f} % inserted without a mark.")
    a(f"- Adam, peak learning rate {tc['lr']}, warm-up {tc['warmup_tokens']:,} words, linear decay over the last "
      f"{100 * (1 - tc['decay_from']):.0f} % of a {tc['tokens'] / 1e6:.0f} M-word budget, {tc['tokens_per_batch']:,} "
      f"words per batch, word dropout {tc['word_dropout']}, gradient clip {tc['clip']}, seed {tc['seed']}, "
      f"{tc['threads']} CPU thread(s).")
    a(f"- This model: {seen / 1e6:.1f} M words seen in {minutes:.0f} minutes of wall time on this project's 2-core "
      f"machine (shared with other work; {extra.get('train_note', '')}). "
      + (f"Reproduce: {extra['reproduce']}" if extra.get("reproduce") else
         f"Reproduce: `stet train --out runs/x --tokens {tc['tokens']:.0f}` then `stet train --out runs/x --export DIR`; "
         "an interrupted run resumes; `--init DIR` continues from a shipped model."))
    if extra.get("epoch_note"):
        a(f"- {extra['epoch_note']}")
    a("")
    a("## Dev figures (IWSLT 2012 dev; the held-out IWSLT 2011 test was not available to us)")
    a("")
    a(f"dev2012.tsv, {tsv['words']:,} words (reference transcripts; contractions joined as ASR writes them), "
      "3-class view (COMMA <- , : dash; PERIOD <- . ! ;; QUESTION <- ?):")
    a("")
    a("| class | P | R | F1 | support |")
    a("|---|---|---|---|---|")
    for c in ("COMMA", "PERIOD", "QUESTION", "overall"):
        a(_row(c, tsv[c]))
    a("")
    a(f"Slot error rate {tsv['ser']:.1f} %. Sentences with every mark right: {tsv['sentence_accuracy']:.1f} %.")
    a("")
    a(f"ted_dev2012_talks.txt (the same talks, cased), {talks['words']:,} words:")
    a("")
    a("| measure | P | R | F1 | support |")
    a("|---|---|---|---|---|")
    a(_row("case (words not all-lowercase, exact form)", talks["case"]))
    for m in (",", ".", "?", "!", ":", ";"):
        if m in talks["all_marks"]:
            a(_row(f"mark `{m}`", talks["all_marks"][m]))
    a("")
    a(f"Sentences restored exactly (marks and case): {talks['sentence_accuracy']:.1f} %; punctuation only: "
      f"{talks['sentence_accuracy_punct_only']:.1f} %.")
    a("")
    if history:
        a("Learning curve (dev2012 overall F1, argmax decision, during training):")
        a("")
        staged = any("stage" in h for h in history)  # curves of several stages, words counted across them
        a("| " + ("stage | " if staged else "") + "words seen | overall F1 | COMMA | PERIOD | QUESTION |")
        a("|---|---|---|---|---|" + ("---|" if staged else ""))
        for h in history:
            d = h["dev"]
            a("| " + (f"{h.get('stage', '')} | " if staged else "")
              + f"{h['seen'] / 1e6:.1f} M | {d['overall']['f1']:.1f} | {d['COMMA']['f1']:.1f} | {d['PERIOD']['f1']:.1f} | {d['QUESTION']['f1']:.1f} |")
        a("")
    a("## Decisions measured on dev")
    a("")
    a(f"- Chunk merge (windows of {cfg['chunking']['size']} words overlapping by {cfg['chunking']['overlap']}), "
      "dev2012 overall F1 with the argmax decision:")
    for k, v in tuning["merge"].items():
        a(f"  - {k}: {v:.2f}")
    a(f"  Chosen: {tuning['merge_chosen']}.")
    d = tuning["decision"]
    w = ", ".join(f"{k} {v:g}" for k, v in d["chosen"].items())
    if "joint_case" in tuning:
        L.append(joint_decision_lines(tuning))
    else:
        a(f"- Decision rule: the summed probability of each 3-class group (no mark; , :; . ! ;; ?) is weighted "
          f"({w}) and the heaviest group wins; within it the likeliest mark is suggested. Tuned on dev2012: F1 "
          f"{tuning['dev2012_tsv']['overall']['f1']:.2f} with these weights"
          + (f" ({d['f1_chosen']:.2f} at the best weights for punctuation alone, before the tie-break by case F1 below)"
             if "case_tie_break" in d and abs(d["f1_chosen"] - tuning["dev2012_tsv"]["overall"]["f1"]) >= 0.005 else "")
          + f" vs {d['f1_none_only']:.2f} with only \"no mark\" weighted and {d['f1_unweighted']:.2f} "
          "unweighted. The confidence shown is still the calibrated probability of the suggested mark.")
    if "case_tie_break" in d:
        a("- Tie-break by case: the weight of \"no mark\" also decides where sentences start (a capital follows every "
          "suggested end mark), and punctuation F1 is flat near its best, so among the weights within 0.05 F1 of the "
          "best the one with the best case F1 on the dev talks is kept: "
          + "; ".join(f"O {o}: F1 {v['f1']:.2f}, case F1 {v['case_f1']:.2f}" for o, v in d["case_tie_break"].items())
          + f". Kept: O {d['chosen']['O']:g}.")
    if "case_decision" in tuning:
        cd = tuning["case_decision"]
        low = cd["chosen"]["lower"]
        grid = cd["lower_grid"]
        a(f"- Case decision: the probability of \"lower\" is weighted {low:g} against the capitals before the likeliest "
          f"form is taken (the case head leaves out more capitals than it puts in wrongly); case F1 on the dev talks "
          f"{grid.get('1.0', float('nan')):.2f} unweighted, {grid[str(low)]:.2f} weighted (grid: "
          + ", ".join(f"{k} {v:.2f}" for k, v in grid.items())
          + "). The confidence shown is still the calibrated probability, so a capital can be suggested below 0.5.")
    pe = tuning.get("paragraph_ends")
    if pe and pe.get("reported_on"):
        b, f = pe["before"], pe["after"]
        tb, tf = pe["odd_talks_before"], pe["odd_talks_after"]
        refs = pe["reference_marks_at_paragraph_ends"]
        ends = sum(refs.get(m, 0) for m in END_MARKS)
        a(f"- Paragraph breaks: the model reads only words, but where a paragraph starts (a typed break, or in "
          f"a recording a pause of 2 s or more or a new speaker) the word before it is likelier to end a sentence; the odds of "
          f". ? ! there are multiplied by {pe['odds']:g} (fitted by likelihood on the {pe['fit_on']}: "
          + ", ".join(f"x{k} {v:.3f}" for k, v in pe["log_likelihood_grid"].items())
          + f"). In the dev talks {ends:,} of {sum(refs.values()):,} paragraph ends are sentence ends (the rest: "
          + ", ".join(f"{k if k == 'none' else '`' + k + '`'} {v}" for k, v in refs.items() if k not in END_MARKS and v)
          + f"). On the {pe['reported_on']}: the suggested mark right {b['marks_right']:.1f} % -> "
          f"{f['marks_right']:.1f} %, sentence end or not right {b['sentence_end_right']:.1f} % -> "
          f"{f['sentence_end_right']:.1f} %, calibration error of the suggested mark there {b['ece']:.3f} -> "
          f"{f['ece']:.3f}; over the whole odd-numbered talks with their paragraph breaks given, overall F1 "
          f"{tb['overall_f1']:.2f} -> {tf['overall_f1']:.2f}, case F1 {tb['case_f1']:.2f} -> {tf['case_f1']:.2f}, "
          f"sentences restored exactly {tb['sentence_accuracy']:.1f} % -> {tf['sentence_accuracy']:.1f} %. "
          "The editor and `stet restore` give the model a document's paragraphs; the dev2012 figures above are of "
          "the words alone. Pause-made paragraphs were not measured (no recordings with references).")
    for line in extra.get("comparisons", []):
        a(f"- {line}")
    a("")
    a("## Calibration")
    a("")
    a(f"Temperatures fitted on the even-numbered dev talks by log-likelihood: punctuation T = {cal['punct_temperature']:.2f}, "
      f"case T = {cal['case_temperature']:.2f}. Expected calibration error (10 bins) on the odd-numbered talks, every "
      f"word's decision: punctuation {cal['punct_ece_before']:.3f} before -> {cal['punct_ece_after']:.3f} after; "
      f"case {cal['case_ece_before']:.3f} -> {cal['case_ece_after']:.3f}.")
    a("")
    hp = held["calibration"]["punct"]
    a(f"Reliability of the punctuation marks a person is shown (predicted mark is not \"none\"), odd talks, "
      f"ECE {hp['suggestions']['ece']:.3f}:")
    a("")
    L.extend(_reliability(hp["suggestions"]["table"]))
    a("")
    hc = held["calibration"]["case"]
    a(f"Case suggestions shown (predicted form not all-lowercase), odd talks, ECE {hc['suggestions']['ece']:.3f}:")
    a("")
    L.extend(_reliability(hc["suggestions"]["table"]))
    a("")
    for head in ("punct", "case"):
        h = held["high_confidence"][head]
        a(f"- {head}: suggestions at confidence >= 0.9 are right {h['precision']:.1f} % of the time and cover "
          f"{h['coverage']:.1f} % of the reference {'marks' if head == 'punct' else 'capitalised words'} (odd talks).")
    a("")
    a("## Speed (this project's 2-core CPU machine, `tests/perf/bench_restore.py`)")
    a("")
    for b in bench if isinstance(bench, list) else [bench]:
        when = f" ({b['when']})" if b.get("when") else ""
        gemm = (f"; the machine's 1024 x 1024 float32 matrix product ran at {b['gemm_gflops_before']:.0f} / "
                f"{b['gemm_gflops_after']:.0f} GFLOPS on the same threads before / after"
                if "gemm_gflops_before" in b else "")
        a(f"- {b['threads']} thread(s){', int8 dynamic quantization' if b.get('quantized') else ''}{when}: median "
          f"{b['median_words_per_s']:,} words/s over {b['runs']} runs of {b['words']:,} words "
          f"(min {b['min_words_per_s']:,}, max {b['max_words_per_s']:,}); first chunk after a median "
          f"{b['median_first_chunk_ms']:.0f} ms; model load {b['load_seconds']:.1f} s{gemm}.")
    for line in extra.get("speed_notes", []):
        a(f"- {line}")
    a("")
    if extra.get("simulate_review"):
        L.extend(review_lines(extra["simulate_review"]))
    a("## Known failure modes")
    a("")
    for line in measured_failure_modes(tuning) + extra.get("failure_modes", []):
        a(f"- {line}")
    a("")
    return "\n".join(L) + "\n"


def card_from_sources(model_dir: Path) -> str:
    """The card of a model directory that keeps its sources (see the module's docstring)."""
    src = model_dir / "card-sources"

    def read(path: Path) -> dict:
        return json.loads(path.read_text())

    return card(model_dir, read(model_dir / "TUNING_REPORT.json"), read(src / "bench.json"),
                read(src / "history.json"), read(src / "extra.json"))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model_dir")
    p.add_argument("tuning", nargs="?")
    p.add_argument("bench", nargs="?")
    p.add_argument("history", nargs="?")
    p.add_argument("--extra")
    a = p.parse_args()
    model_dir = Path(a.model_dir)
    if a.tuning is None:
        text = card_from_sources(model_dir)
    else:
        if a.bench is None or a.history is None:
            p.error("give TUNING, BENCH and HISTORY together, or none of them")
        extra = json.loads(Path(a.extra).read_text()) if a.extra else {}
        text = card(model_dir, json.loads(Path(a.tuning).read_text()), json.loads(Path(a.bench).read_text()),
                    json.loads(Path(a.history).read_text()), extra)
    (model_dir / "MODEL_CARD.md").write_text(text)


if __name__ == "__main__":
    main()
