"""Sections of a model card built from the measured reports: table rows, the reliability of the
confidence, the failure modes the tuning measured, the joint decision and the review simulation.
The card itself is assembled by ``editor.restore.lab.card``."""

from __future__ import annotations


def table_row(name: str, m: dict) -> str:
    return f"| {name} | {m['precision']:.1f} | {m['recall']:.1f} | {m['f1']:.1f} | {m['support']:,} |"


def reliability_lines(table: list[dict]) -> list[str]:
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
                   f"{ce.get('wrong_capitals_after_comma', 0):,} of them where the reference has lowercase (when it "
                   "was tuned, before the names lexicon below)"
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
               "of this round (reference F1 >= 72, ASR F1 >= 64, case F1 >= 87) are not shown to be met; on dev the model reaches "
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
    c = sim.get("corrected_names") or {}
    if c.get("later_occurrences"):
        L.append(f"- Names the reviewer had to correct (the issue's bar \"a talk's own names are right after their first "
                 f"correction\"; words outside the model's 2,000 commonest that the reviewer wrote with a capital "
                 f"mid-sentence where Stet proposed another form): {c['words']:,} words, whose {c['later_occurrences']:,} "
                 f"later occurrences are written right {c['right_before']:.1f} % of the time before, "
                 f"{c['right_after']:.1f} % after.")
    o = sim.get("names_corrected_once") or {}
    if o.get("later_occurrences"):
        L.append(f"- Of those, the names (words the reviewed part writes in one form wherever no sentence starts): "
                 f"{o['words']:,} words, whose {o['later_occurrences']:,} later occurrences are written right "
                 f"{o['right_before']:.1f} % of the time before, {o['right_after']:.1f} % after.")
    for line in sim.get("notes", []):
        L.append(f"- {line}")
    L.append("")
    return L


def names_lexicon_lines(model_dir, measured: dict | None) -> list[str]:
    """What the names lexicon (names.json) does, with the dev figures measured before and after it
    (card-sources/extra.json "names_lexicon": `stet eval` on the dev talks without and with it)."""
    import json

    path = model_dir / "names.json"
    if not path.is_file():
        return []
    about = json.loads(path.read_text(encoding="utf-8"))
    line = (f"Only a name takes a capital right after a suggested , or ;: a word of the names lexicon (names.json, "
            f"{len(about['names']):,} words of the vocabulary that the training text writes capitalised in at least "
            f"{100 * about['share']:g} % of their uses where no sentence starts: \"I\", \"OK\", \"Mandela\"), a mixed form "
            "of a lexicon, or a word outside the vocabulary, which the model judges by its letters; common words "
            "stay lowercase there however much the model believed a sentence ended (\"this week, well\").")
    if measured:
        b, n = measured["before"], measured["after"]

        def kinds(d: dict) -> str:
            return ", ".join(f"{k} {v:,}" for k, v in sorted(d["kinds"].items()))
        line += (f" On the dev talks ({measured['when']}, `stet eval`), without / with it: capitals after a suggested "
                 f"comma {b['after_comma']:,} ({b['wrong']:,} lowercase in the reference; {kinds(b)}) / "
                 f"{n['after_comma']:,} ({n['wrong']:,}; {kinds(n)}); the other words before were "
                 f"{measured['other_before']}; after any of , : ; {b['after_mid_mark']:,} / {n['after_mid_mark']:,}; "
                 f"case F1 {b['case_f1']:.1f} / {n['case_f1']:.1f} (precision {b['case_p']:.1f} / {n['case_p']:.1f}, "
                 f"recall {b['case_r']:.1f} / {n['case_r']:.1f}); the marks are unchanged.")
    return [line]
