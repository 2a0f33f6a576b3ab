"""Stet learns only what the person decided (issue 47): never the author's own forms, never a
capital of a sentence start, and what a review teaches is always kept readable."""

import json

import numpy as np

from editor.core.document.records import Token
from editor.core.document.transcript import Kind, Suggestion, Transcript
from editor.core.review.repeat_choices import decide, forms_of, user_forms
from editor.restore.learning.learned_store import (authored_forms, learn_review, learned_dir, load_learned, profile_key,
                                          remember_review, reviewed_decisions, reviewed_decisions_in,
                                          suggestions_snapshot)
from editor.restore.learning.review_lessons import Adaptation, Decision


def _authored() -> Transcript:
    """A source whose author wrote the names: "we drove over the George Washington Bridge and
    george said that the Hudson River was cold", one mark proposed after "bridge"."""
    text = "we drove over the George Washington Bridge and okafor said that the Hudson River was cold"
    doc = Transcript([Token(w.lower(), w, id=i) for i, w in enumerate(text.split())])
    doc.set_suggestions([Suggestion(doc[6].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[15].id, Kind.PUNCT, ".", {".": 0.9, "": 0.1})])
    return doc


def test_the_author_s_capitals_teach_nothing_the_person_s_do():
    doc = _authored()
    opened = authored_forms(doc.tokens)
    assert opened == {4: "George", 5: "Washington", 6: "Bridge", 12: "Hudson", 13: "River"}
    decide(doc, doc[6].id, Kind.PUNCT, accept=False, repeat=False)  # the person decides one mark
    doc.edit_token(8, surface="Okafor")  # and types a name
    decide(doc, doc[15].id, Kind.PUNCT, repeat=False)
    cases = {s.token_id: s for s in suggestions_snapshot(doc) if s.kind == Kind.CASE}
    marks = {s.token_id: s for s in suggestions_snapshot(doc) if s.kind == Kind.PUNCT}
    assert forms_of(doc.tokens, cases.get, marks.get, opened) == {"okafor": "Okafor"}
    assert set(user_forms(doc)) == {"george", "washington", "bridge", "okafor", "hudson", "river"}  # (no record)
    _start, decisions, reviewed = reviewed_decisions_in(doc.tokens, suggestions_snapshot(doc), opened)
    learned = Adaptation.learn(decisions, None, reviewed=reviewed)
    assert learned.case_forms == {"okafor": "Okafor"} and learned.context_forms == {} and learned.next_forms == {}
    assert learned.pair_marks == {("bridge", "and"): ""}


def test_a_capital_typed_after_a_proposed_full_stop_teaches_nothing():
    """ "Manhattan two minutes": the person types "Two" and the full stop before it is still a
    proposal (or typed after): either way a sentence starts there, and nothing is learned."""
    for mark_decided in (False, True):
        doc = Transcript.from_words("we reached manhattan two minutes later and okafor left".split())
        doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                             Suggestion(doc[2].id, Kind.PUNCT, ".", {".": 0.7, "": 0.3}),
                             Suggestion(doc[5].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4})])
        opened = authored_forms(doc.tokens)
        doc.edit_token(3, surface="Two")
        decide(doc, doc[0].id, Kind.PUNCT, accept=False, repeat=False)
        decide(doc, doc[5].id, Kind.PUNCT, accept=False, repeat=False)
        if mark_decided:
            decide(doc, doc[2].id, Kind.PUNCT, repeat=False)
        cases = {s.token_id: s for s in suggestions_snapshot(doc) if s.kind == Kind.CASE}
        marks = {s.token_id: s for s in suggestions_snapshot(doc) if s.kind == Kind.PUNCT}
        assert forms_of(doc.tokens, cases.get, marks.get, opened) == {}
        _start, decisions, reviewed = reviewed_decisions_in(doc.tokens, suggestions_snapshot(doc), opened)
        assert decisions[3].word == "two" and decisions[3].sentence_start and reviewed[3]
        assert Adaptation.learn(decisions, None, reviewed=reviewed).case_forms == {}


def test_a_review_with_marks_the_model_has_no_class_for_is_kept_and_read_back(tmp_path, monkeypatch):
    """ "Could not keep what this review taught: pair_marks must be a list of [word, next word,
    mark]": the author's "..." or "--" (subtitles write them), where the person turned down the
    mark Stet proposed instead, was remembered as a pair's mark that the saved profile could not
    be read back with."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    text = "well you know i think so and well you know he said no"
    doc = Transcript([Token(w, punct={4: "...", 9: "--", 2: '."'}.get(i, ""), id=i) for i, w in enumerate(text.split())])
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[4].id, Kind.PUNCT, ".", {".": 0.6, "...": 0.4}),
                         Suggestion(doc[9].id, Kind.PUNCT, ",", {",": 0.6, "--": 0.4}),
                         Suggestion(doc[2].id, Kind.PUNCT, ".", {".": 0.6, '."': 0.4})])
    for i in (0, 2, 4, 9):
        decide(doc, doc[i].id, Kind.PUNCT, accept=False, repeat=False)
    _start, decisions, reviewed = reviewed_decisions(doc)
    learned = learn_review(None, decisions, reviewed, joint=np.full((len(decisions), 28), np.nan), common=(),
                           plain=())
    key = profile_key("en", [])
    remember_review(learned, {}, key, "en", str(tmp_path / "talk.stet"))
    remember_review(learned, {}, key, "en", str(tmp_path / "talk.stet"))  # saved again: read back and merged
    kept = load_learned(key)
    assert kept is not None and kept.pair_marks == {("well", "you"): ""}
    raw = json.loads((learned_dir() / f"{key}.json").read_text(encoding="utf-8"))
    assert Adaptation.from_dict(raw).pair_marks == kept.pair_marks


def test_a_form_whose_lowercase_is_not_the_word_is_not_kept():
    """A word whose lowercase differs from the recogniser's ("İstanbul") is not remembered, so the
    saved profile stays readable."""
    d = [Decision("i̇stanbul", "", "İstanbul", False, "", "i̇stanbul", False),
         Decision("okafor", "", "Okafor", False, "", "okafor", False)]
    learned = Adaptation.learn(d, bias=False)
    assert Adaptation.from_dict(json.loads(json.dumps(learned.to_dict()))).case_forms == learned.case_forms


def test_stet_learned_says_where_each_entry_came_from(tmp_path, monkeypatch):
    import os
    import subprocess
    import sys

    from editor.core.review.lexicon import UserLexicon
    from editor.restore.learning.learned_store import keep_review

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    monkeypatch.setenv("XDG_DATA_HOME", env["XDG_DATA_HOME"])
    lex = UserLexicon.load()
    lex.learn({"nasa": "NASA"})  # added by hand: nothing recorded
    lex.save()
    taught = keep_review(Adaptation(pair_marks={("well", "you"): ""}, words=5), {"okafor": "Okafor"},
                         profile_key("en", ["Ann"]), "en, speaker Ann", "/home/ann/talks/monday.stet")
    assert taught.names() == ["Okafor", "the mark in \u201cwell you\u201d"]

    def stet(*args):
        return subprocess.run([sys.executable, "-m", "editor", *args], capture_output=True, text=True, timeout=300,
                              env=env)

    lines = stet("learned").stdout.splitlines()
    assert lines[0] == "NASA"
    form, where = lines[1].split("\t")
    assert form == "Okafor" and where.startswith("monday.stet, 20")
    profiles = stet("learned", "--profiles").stdout.splitlines()
    assert profiles[0].endswith("5 reviewed words\ten, speaker Ann")
    assert profiles[1].startswith("\tfrom /home/ann/talks/monday.stet, 20") and profiles[1].endswith("(5 words)")
    assert stet("learned", "--remove", "okafor").returncode == 0
    assert UserLexicon.load().origins == {}  # forgotten with its entry


def _said(text: str) -> list[Decision]:
    """Decisions of a reviewed sentence as written (every form decided, nothing proposed)."""
    words = text.split()
    return [Decision(w.lower(), "", w, i == 0, "", None, i == 0) for i, w in enumerate(words)]


def test_a_known_word_s_capital_needs_two_decisions_a_name_one():
    """On dev talk splits a capital given once to a word the model knows ("Campaign", "Bridge")
    added work in later talks; a name corrected once did not (editor.restore.lab.splits)."""
    plain = {"campaign", "bridge", "river"}
    once = Adaptation.learn(_said("so Okafor ran the SING Campaign today"), bias=False, plain=plain)
    assert once.case_forms["okafor"] == "Okafor" and once.case_forms["sing"] == "SING"
    assert "campaign" not in once.case_forms and once.next_forms == {} and once.context_forms == {}
    twice = Adaptation.learn(_said("so the SING Campaign and the SING Campaign again"), bias=False, plain=plain)
    assert twice.context_forms == {("sing", "campaign"): "Campaign"}


def test_a_bias_is_kept_only_where_it_holds_across_the_review():
    from editor.restore.model.labels import N_CASE, N_PUNCT, PUNCT_INDEX
    from editor.restore.learning.review_lessons import bias_holds

    rng = np.random.default_rng(0)
    n = 400
    joint = np.full((n, N_PUNCT, N_CASE), 0.02)
    joint[:, 0, 0], joint[:, PUNCT_INDEX[","], 0] = 0.7, 0.2
    joint = (joint / joint.sum((1, 2), keepdims=True)).reshape(n, -1)
    comma = PUNCT_INDEX[","] * N_CASE
    steady = np.where(rng.random(n) < 0.5, comma, 0)  # a speaker with twice the commas, all along
    assert bias_holds(joint, steady) and bias_holds(joint, steady, errors=True)
    turned = np.where(np.arange(n) < n // 2, comma, 0)  # all commas, then none: no habit to carry
    assert not bias_holds(joint, turned)
    decisions = [Decision("w", "," if g else "", "w", False, "", "w", False) for g in turned]
    assert not Adaptation.learn(decisions, joint).punct_bias.any()
    assert Adaptation.learn(decisions, joint, check_bias=False).punct_bias.any()


CASED = """# one talk
We met Zarvex at the station. Zarvex said the train was late, and we waited.
Then Zarvex called his sister, who lives in Lyon. She said the trains are always late there.
# another talk
Why do they never run on time? Nobody knows. We waited for an hour, and then we went home.
The next day Zarvex came back with his sister, and we all went to the station again.
"""


def test_the_split_evaluation_prints_each_part_on_each_half_and_chooses_on_the_other(tiny_model_dir, tmp_path,
                                                                                      capsys):
    from editor.restore.lab.splits import main

    talks = tmp_path / "talks.txt"
    talks.write_text(CASED * 2, encoding="utf-8")
    out = tmp_path / "splits.json"
    assert main([str(talks), "--model", str(tiny_model_dir), "--cache", str(tmp_path / "joint.npz"),
                 "--only", "nothing", "bias", "pairs>=1", "pairs>=2", "all, shipped", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    for part in ("even talks: 2 talks", "odd talks: 2 talks", "short (", "long (", "all talks: 4 talks"):
        assert part in text
    assert text.count("all, shipped") == 5 and "talks" in text and "worse" in text
    assert "pairs    fit on even talks:" in text and "pairs    fit on odd talks:" in text
    assert (tmp_path / "joint-4.npz").is_file()  # the marginals, read once for a rerun
    kept = json.loads(out.read_text())
    assert set(kept) == {"nothing", "bias", "pairs>=1", "pairs>=2", "all, shipped"}
    assert kept["nothing"]["after"] == kept["nothing"]["before"]  # learning nothing changes nothing
    # a rerun reads the marginals kept and gives the same figures
    assert main([str(talks), "--model", str(tiny_model_dir), "--cache", str(tmp_path / "joint.npz"),
                 "--only", "nothing", "bias", "pairs>=1", "pairs>=2", "all, shipped"]) == 0
    assert capsys.readouterr().out == text
