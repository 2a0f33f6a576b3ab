"""The model shipped in resources/models loads, passes its checks and restores plain speech."""

import json

import pytest

from editor.restore.passes.inference import Restorer
from editor.restore.model.package import FILES, default_model_dir, resource_model_dir, shipped_models


@pytest.fixture(scope="module")
def shipped():
    return Restorer.load(None, device="cpu")


def test_shipped_model_is_complete_and_small():
    d = default_model_dir()
    assert all((d / f).is_file() for f in FILES) and (d / "MODEL_CARD.md").is_file()
    # the quality issue's bound on the shipped model directory
    assert sum(f.stat().st_size for f in d.iterdir() if f.is_file()) <= 60 * 1000 * 1000
    config = json.loads((d / "config.json").read_text())
    assert config["metrics"]["dev2012_overall_f1"] > 50  # the figure the model card reports


def test_shipped_model_restores_a_question_and_capitals(shipped):
    words = "so what do you think about the iphone i think it is great but the price is high".split()
    preds = shipped.restore(words)
    text = " ".join(p.text + p.punct for p in preds)
    assert text.startswith("So ")
    assert "iPhone?" in text and " I " in text
    assert "great, but" in text or "great. But" in text  # a clause boundary either way


def test_already_punctuated_abbreviations_are_kept_not_stripped(shipped):
    from editor.core.document.transcript import Kind, Transcript
    from editor.core.render import RenderPolicy, render
    from editor.restore.passes.suggest import make_suggestions

    doc = Transcript.from_text("I met Mr. Smith and Dr. Jones at 9 a.m. on Main St. near the U.N. building.")
    preds = shipped.restore(doc.words())
    doc.set_suggestions(make_suggestions(doc.tokens, preds, shipped.lexicon))
    # a mark may be proposed after an abbreviation ("Main St., near"), never in place of its period
    touched = {doc.token(s.token_id).word: s.value for s in doc.suggestions() if s.kind == Kind.PUNCT}
    assert not {w for w, v in touched.items() if w in {"mr", "dr", "a.m", "st", "u.n"} and v in ("", ".")}
    everything = render(doc, RenderPolicy(0.0))
    for written in ("Mr. Smith", "Dr. Jones", "a.m.", "Main St.", "U.N."):
        assert written in everything


def test_raw_abbreviations_are_written_with_their_period_and_end_a_text_once(shipped):
    preds = shipped.restore("i met mr smith and we flew to the u.s".split())
    text = " ".join(p.text + p.punct for p in preds)
    assert "Mr. Smith" in text and text.endswith("U.S.")


def test_the_model_card_is_what_its_sources_give():
    """Every figure in MODEL_CARD.md comes from the files kept beside it; rebuild it after changing one
    (`python -m editor.restore.lab.card resources/models/NAME`); the fast word model's too."""
    from editor.restore.lab.card import card_from_sources

    for name in shipped_models():
        d = resource_model_dir(name)
        assert card_from_sources(d) == (d / "MODEL_CARD.md").read_text(), name


def test_the_open_model_is_small_states_an_open_licence_and_restores():
    """The model trained on public-domain text only (issue 52): its config says its weights may be
    used for paid work, its card draws on no non-commercial source, its word lists are its own."""
    import re

    from editor.core.restore_models import OPEN_MODEL, WORD_MODEL

    d = resource_model_dir(OPEN_MODEL)
    assert all((d / f).is_file() for f in FILES) and (d / "MODEL_CARD.md").is_file()
    assert sum(f.stat().st_size for f in d.iterdir() if f.is_file()) <= 30 * 1000 * 1000
    config = json.loads((d / "config.json").read_text())
    assert config["weights_licence"] == "public-domain AND Apache-2.0"
    card = (d / "MODEL_CARD.md").read_text()
    for source in ("ted_saranyan", "scotus_oyez_2010plus"):  # listed, with weight 0
        (row,) = [line for line in card.splitlines() if line.startswith(f"| {source} |")]
        assert re.search(r"\| 0\.00 \|$", row), row
    for name in ("vocab.json", "lexicon.json", "names.json"):  # not the TED-era model's
        assert (d / name).read_bytes() != (resource_model_dir(WORD_MODEL) / name).read_bytes(), name
    r = Restorer.load(OPEN_MODEL, device="cpu")
    preds = r.restore("so what is it for i asked".split())
    assert len(preds) == 7


# A correctly punctuated passage (the bundled sample as its author would write it).
PUNCTUATED = (
    "A few neighbours noticed that everyone had leftover seeds in paper envelopes, in coffee tins, in the back of "
    "kitchen drawers. Nobody knew what to do with them, so they brought them to the station on a Saturday morning "
    "and swapped. That was it. No sign-up form, no fees, just a folding table and a thermos of tea.\n\n"
    "Why does it work? I asked Tom Lindqvist, who keeps the records, and he laughed. He said people are "
    "surprisingly honest when the thing they share is alive.\n\n"
    "If you want to visit, the doors open at nine. Bring an envelope and maybe a story about what you grew.")


def _accept_all(shipped, text, threshold, prior):
    from editor.core.document.transcript import Transcript
    from editor.core.render import RenderPolicy, render
    from editor.restore.passes.suggest import make_suggestions

    doc = Transcript.from_text(text)
    preds = shipped.restore(doc.words(), paragraph_starts=doc.paragraph_starts)
    doc.set_suggestions(make_suggestions(doc.tokens, preds, shipped.lexicon, author_prior=prior))
    doc.accept_all(threshold)
    return render(doc, RenderPolicy(None))


def test_accepting_all_at_0_9_keeps_an_authors_correct_marks_and_capitals(shipped):
    """Issue 19: accept-all at 0.9 on a correctly punctuated text wrote "swapped that was it.",
    "visit the doors" and "He said People"; the author's marks are evidence (the fitted prior)."""
    assert shipped.author_prior["punct"] >= 0.5 and shipped.author_prior["case"] >= 0.5
    out = _accept_all(shipped, PUNCTUATED, 0.9, shipped.author_prior)
    assert "and swapped. That was it." in out
    assert "want to visit, the doors open" in out
    assert "He said people are" in out
    assert out == PUNCTUATED.replace("\n\n", "\n\n")  # nothing at all changes in this passage


def test_an_author_mark_is_changed_where_the_model_is_sure_it_is_wrong(shipped):
    wrong = PUNCTUATED.replace("Why does it work? I asked", "Why does it work. I asked")
    out = _accept_all(shipped, wrong, 0.5, shipped.author_prior)
    assert "Why does it work? I asked" in out


def test_tokens_that_are_not_words_get_no_suggestions_from_the_model(shipped):
    from editor.core.document.transcript import Transcript
    from editor.restore.passes.suggest import make_suggestions

    doc = Transcript.from_text("so [3] we went <unk> there [noise] and it was fine")
    preds = shipped.restore(doc.words())
    made = make_suggestions(doc.tokens, preds, shipped.lexicon, author_prior=shipped.author_prior)
    tags = {t.id for t in doc.tokens if t.text in ("[3]", "<unk>", "[noise]")}
    assert len(tags) == 3 and not [s for s in made if s.token_id in tags]
    assert not [s for s in made if "[[" in s.value]


GERMAN = ("also ich habe mit dem mann gesprochen und er hat gesagt dass die firma im nächsten jahr nach berlin "
          "umziehen will wir waren alle ein bisschen überrascht weil niemand davon wusste")


def test_text_in_another_language_is_recognised_and_not_restored_unless_asked(shipped, tmp_path, capsys):
    from editor.cli import main

    assert shipped.language == "en"
    check = shipped.language_check(GERMAN.split())
    assert not check.matches and check.share < 0.6 and "English" in check.message
    assert shipped.language_check(PUNCTUATED.lower().split()).matches
    src = tmp_path / "interview.txt"
    src.write_text(GERMAN)
    assert main(["restore", str(src), "-q", "--device", "cpu"]) != 0
    err = capsys.readouterr().err
    assert "not restored" in err and "English" in err and "--any-language" in err and "Traceback" not in err
    out = tmp_path / "out.txt"
    assert main(["restore", str(src), "-q", "--device", "cpu", "--any-language", "-o", str(out)]) == 0
    assert out.is_file()


@pytest.mark.parametrize("model", ["stet-en-minilm-bilstm-crf", "stet-en-bilstm-crf"])
def test_words_with_invisible_characters_get_the_suggestions_of_the_words_without(model):
    """Issue 41: a zero-width space or a direction mark inside a word is the document's, not the
    model's: the model reads the word without it, and what it proposes keeps it where it was.
    (The encoder's tokenizer drops such characters itself; the word model had none of them in
    its vocabulary.)"""
    from editor.core.document.transcript import Kind, Transcript
    from editor.core.render import RenderPolicy, render
    from editor.restore.passes.pipeline import restore_transcript

    shipped = Restorer.load(str(default_model_dir().parent / model), device="cpu")

    plain = "so we flew to paris and then we went home what did you think of it"
    hidden = plain.replace("paris", "pa\u200bris").replace("then", "th\u200fen").replace("think", "\u2066think\u2069")
    assert [(p.punct, p.case, p.punct_probs) for p in shipped.restore(hidden.split())] == \
        [(p.punct, p.case, p.punct_probs) for p in shipped.restore(plain.split())]
    doc = restore_transcript(shipped, Transcript.from_text(hidden))
    values = {doc.token(s.token_id).word: s.value for s in doc.suggestions() if s.kind == Kind.CASE}
    assert values["pa\u200bris"] == "Pa\u200bris"
    assert render(doc, RenderPolicy(0.0)) == render(restore_transcript(shipped, Transcript.from_text(plain)),
                                                     RenderPolicy(0.0)).replace("Paris", "Pa\u200bris").replace(
        "then", "th\u200fen").replace("think", "\u2066think\u2069")
