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

from editor.restore.lab.card_sections import (joint_decision_lines, measured_failure_modes, names_lexicon_lines,
                                              reliability_lines,
                                              review_lines, table_row)
from editor.restore.model.labels import END_MARKS

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


def encoder_architecture(model_dir: Path, ma: dict, extra: dict) -> list[str]:
    """The architecture lines of an encoder-family model (a pretrained encoder under the BiLSTM-CRF)."""
    size_mb = sum(f.stat().st_size for f in model_dir.iterdir() if f.is_file()) / 1e6
    weights_mb = (model_dir / "weights.pt").stat().st_size / 1e6
    lexicon = len(json.loads((model_dir / "lexicon.json").read_text()))
    return [
        f"- A pretrained encoder, {extra.get('encoder', 'all-MiniLM-L6-v2')}: {ma['layers']} BERT layers (post-norm, GELU), "
        f"width {ma['hidden']}, {ma['heads']} attention heads, feed-forward {ma['intermediate']}, "
        f"{ma['vocab_size']:,} uncased WordPiece sub-words (its own tokenizer.json, read by the `tokenizers` library), "
        + ("kept as published (frozen: not trained here; its weights are the published ones, stored in int8). "
           if extra.get("encoder_frozen")
           else f"{extra['encoder_trained']} (stored in int8). " if extra.get("encoder_trained")
           else "fine-tuned with the rest. ")
        + "Written in torch in `editor/restore/model/encoder.py` (no `transformers` at run time).",
        f"- Each word is cut into at most {ma['max_pieces']} sub-words; a window of words is read as [CLS] sub-words [SEP] "
        f"(at most {ma['max_positions']} positions), and the state of each word's first sub-word goes on.",
        f"- A {ma['lstm_layers']}-layer BiLSTM, {ma['lstm_hidden']} units per direction, dropout {ma['dropout']}, on those "
        "word states; two heads on it (correlated heads, Pahuja et al.): a linear-chain CRF over the 7 marks and a softmax "
        "over the 4 case classes. Punctuation confidences are the CRF's forward-backward marginals, case confidences the "
        "softmax; both temperature-scaled.",
        f"- Mixed-case forms (iPhone, McDonald's) come from the lexicon learned from the training text ({lexicon:,} entries); "
        "the word list that decides which words are known to the language check and may take a capital after a comma "
        + ("(vocab.json, names.json) was counted on the same training text."
           if extra.get("own_vocabulary") else "(vocab.json, names.json) is the word model's."),
        f"- Files: the encoder's and BiLSTM's large matrices stored in int8 with one float32 scale per row, the rest "
        f"float16 ({weights_mb:.1f} MB; 45 MB in float16), whole directory {size_mb:.1f} MB; checked against SHA256SUMS "
        "and loaded with `torch.load(weights_only=True)`; all dev figures below are of these int8-stored weights.",
    ]


def _architecture_lines(model_dir: Path, cfg: dict, extra: dict, size_mb: float, weights_mb: float) -> list[str]:
    """The model's architecture, from its config."""
    L: list[str] = []
    a = L.append
    ma = cfg["model_args"]
    a("## Architecture")
    a("")
    if cfg.get("family") == "encoder-bilstm-crf":
        L.extend(encoder_architecture(model_dir, ma, extra))
    else:
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
    return L


def _training_data_lines(tc: dict, extra: dict) -> list[str]:
    """Where the training text came from, and by what weights it was drawn."""
    L: list[str] = []
    a = L.append
    a("## Training data")
    a("")
    # a model trained in stages may have drawn its sources by different weights in each
    stages = extra.get("sampling_stages") or [{"name": "sampling weight", "sources": tc["sources"]}]
    a("| source | register | words | licence | origin | " + " | ".join(st["name"] for st in stages) + " |")
    a("|---|---|---|---|---|" + "---|" * len(stages))
    for key, reg, words, lic, origin in SOURCES:
        words = extra.get("source_words", {}).get(key, words)  # the text as it was when this model was trained
        a(f"| {key} | {reg} | {words} | {lic} | {origin} | "
          + " | ".join(f"{st['sources'].get(key, 0):.2f}" for st in stages) + " |")
    a("")
    used = [(key, lic) for key, _, _, lic, _ in SOURCES if any(st["sources"].get(key, 0) > 0 for st in stages)]
    if any(lic != "public domain" for _key, lic in used):
        a("The text is not redistributed; TED and Oyez text is for non-commercial research use, so these weights "
          "inherit a non-commercial restriction.")
    else:
        a("The text is not redistributed. Only the public-domain sources were drawn from (weight above 0); the "
          "others are listed to say that they were not.")
    a("")
    a("## Licence")
    a("")
    a(licence_paragraph(used, encoder=extra.get("encoder_licence"), encoder_changed=bool(extra.get("encoder_trained"))))
    a("")
    return L


def _recipe_lines(tc: dict, extra: dict, seen: float, minutes: float) -> list[str]:
    """How it was trained."""
    L: list[str] = []
    a = L.append
    a("## Recipe")
    a("")
    if extra.get("recipe"):
        for line in extra["recipe"]:
            a(f"- {line}")
        a("")
    else:
        a("- Input made ASR-like: lowercased, punctuation stripped (a mark belongs to the word before it; dashes "
          "count as commas; the period of known abbreviations such as Mr. belongs to the word), half of the numbers "
          "spelled out as a recogniser writes them (num2words: 1989 -> nineteen eighty nine).")
        a("- Training windows of 40-120 words starting anywhere (usually mid-sentence), never across a document; "
          "sources drawn by the weights above.")
        if tc.get("asr_errors", 0) > 0:
            from editor.restore.model.labels import ASR_ERRORS

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
    return L


def _dev_figure_lines(tsv: dict, talks: dict, history: list) -> list[str]:
    """The dev figures and the learning curve."""
    L: list[str] = []
    a = L.append
    a("## Dev figures (IWSLT 2012 dev; the held-out IWSLT 2011 test was not available to us)")
    a("")
    a(f"dev2012.tsv, {tsv['words']:,} words (reference transcripts; contractions joined as ASR writes them), "
      "3-class view (COMMA <- , : dash; PERIOD <- . ! ;; QUESTION <- ?):")
    a("")
    a("| class | P | R | F1 | support |")
    a("|---|---|---|---|---|")
    for c in ("COMMA", "PERIOD", "QUESTION", "overall"):
        a(table_row(c, tsv[c]))
    a("")
    a(f"Slot error rate {tsv['ser']:.1f} %. Sentences with every mark right: {tsv['sentence_accuracy']:.1f} %.")
    a("")
    a(f"ted_dev2012_talks.txt (the same talks, cased), {talks['words']:,} words:")
    a("")
    a("| measure | P | R | F1 | support |")
    a("|---|---|---|---|---|")
    a(table_row("case (words not all-lowercase, exact form)", talks["case"]))
    for m in (",", ".", "?", "!", ":", ";"):
        if m in talks["all_marks"]:
            a(table_row(f"mark `{m}`", talks["all_marks"][m]))
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
    return L


def _decision_lines(cfg: dict, tuning: dict, extra: dict) -> list[str]:
    """Decision rules tuned on dev."""
    L: list[str] = []
    a = L.append
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
    return L


def _calibration_lines(cal: dict, held: dict) -> list[str]:
    """Calibration and reliability on the odd-numbered dev talks."""
    L: list[str] = []
    a = L.append
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
    L.extend(reliability_lines(hp["suggestions"]["table"]))
    a("")
    hc = held["calibration"]["case"]
    a(f"Case suggestions shown (predicted form not all-lowercase), odd talks, ECE {hc['suggestions']['ece']:.3f}:")
    a("")
    L.extend(reliability_lines(hc["suggestions"]["table"]))
    a("")
    for head in ("punct", "case"):
        h = held["high_confidence"][head]
        a(f"- {head}: suggestions at confidence >= 0.9 are right {h['precision']:.1f} % of the time and cover "
          f"{h['coverage']:.1f} % of the reference {'marks' if head == 'punct' else 'capitalised words'} (odd talks).")
    a("")
    return L


def _speed_lines(bench: dict | list, extra: dict) -> list[str]:
    """Speed on this project's machine."""
    L: list[str] = []
    a = L.append
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
    return L


def card(model_dir: Path, tuning: dict, bench: dict, history: list, extra: dict) -> str:
    cfg = json.loads((model_dir / "config.json").read_text())
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
    L.extend(_architecture_lines(model_dir, cfg, extra, size_mb, weights_mb))
    L.extend(_training_data_lines(tc, extra))
    L.extend(_recipe_lines(tc, extra, seen, minutes))
    L.extend(_dev_figure_lines(tsv, talks, history))
    L.extend(_decision_lines(cfg, tuning, extra))
    L.extend(_calibration_lines(cal, held))
    L.extend(_speed_lines(bench, extra))
    if extra.get("simulate_review"):
        L.extend(review_lines(extra["simulate_review"]))
    a("## Known failure modes")
    a("")
    names = names_lexicon_lines(model_dir, extra.get("names_lexicon"))
    for line in measured_failure_modes(tuning) + names + extra.get("failure_modes", []):
        a(f"- {line}")
    a("")
    return "\n".join(L) + "\n"


def licence_paragraph(sources: list[tuple[str, str]], encoder: str | None = None, encoder_changed: bool = False) -> str:
    """What the weights may be used for, from the licences of the ``(source, licence)`` texts they
    were trained on: a non-commercial ("NC") licence among them binds the weights too. ``encoder``:
    the licence of a published encoder they carry (said where the text is all public domain);
    ``encoder_changed``: some of its layers were trained further here on that text (a modified
    version, which the Apache License 2.0 allows where the change is stated)."""
    restricted = []
    for key, lic in sources:
        terms, _, owner = lic.partition(" (")  # "CC BY-NC-ND 4.0 (TED)"
        if "NC" in terms.replace("-", " ").split():
            restricted.append(f"{owner.rstrip(')') or key} text ({terms})")
    text = "Stet's code is under the Apache License 2.0; these weights are not covered by it. "
    if restricted:
        text += ("They were trained on " + " and ".join(restricted) + " and inherit those "
                 "non-commercial terms: they may be used and shared for non-commercial purposes only, "
                 "with the sources credited. The rest of the training text is in the public domain.")
    elif encoder:
        how = ("the published all-MiniLM-L6-v2 with some of its layers trained further on that public-domain text "
               "(a modified version, stated here as that licence asks)" if encoder_changed
               else "the published all-MiniLM-L6-v2, unchanged")
        text += ("Every text they were trained on is in the public domain, and the encoder in them is "
                 f"{how}, under the {encoder.replace('Apache-2.0', 'Apache License 2.0')}: "
                 "they may be used for any purpose, paid work included, under that licence "
                 f"(config.json \"weights_licence\": public-domain AND {encoder}).")
    else:
        text += "Every text they were trained on is in the public domain."
    return text


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
