"""Learning from the person reviewing (editor.restore.learning.review_lessons, .learned, .lab.simulate): adaptation, the user lexicon in
restoration, `stet eval --simulate-review` and `stet learned`."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from editor.restore.model.labels import CASE_INDEX, N_CASE, N_PUNCT, PUNCT_INDEX
from editor.restore.learning.review_lessons import Adaptation, Decision, fit_bias
from editor.restore.learning.learned_store import load_learned, profile_key, reset_learned, save_learned
from editor.restore.lab.simulate import simulate_review

CASED = """# a talk
We met Zarvex at the station. Zarvex said the train was late, and we waited.
Then Zarvex called his sister, who lives in Lyon. She said the trains are always late there.
Why do they never run on time? Nobody knows. We waited for an hour, and then we went home.
The next day Zarvex came back with his sister, and we all went to the station again.
"""


@pytest.fixture(scope="module")
def shipped_restorer():
    from editor.restore.passes.inference import Restorer

    return Restorer.load(device="cpu")


def _uniform(n: int) -> np.ndarray:
    return np.full((n, N_PUNCT * N_CASE), 1.0 / (N_PUNCT * N_CASE), np.float32)


def test_remembered_case_forms_and_pair_marks_move_the_odds():
    a = Adaptation(case_forms={"zarvex": "Zarvex"}, pair_marks={("well", "you"): ","})
    words = ["well", "you", "see", "zarvex"]
    j = a.apply(words, _uniform(4)).reshape(4, N_PUNCT, N_CASE)
    assert np.allclose(j.sum((1, 2)), 1.0)
    assert j[3, :, CASE_INDEX["capitalized"]].sum() > 0.8
    assert j[0, PUNCT_INDEX[","], :].sum() > j[0, PUNCT_INDEX["."], :].sum() * 2
    assert np.allclose(j[2], 1.0 / (N_PUNCT * N_CASE))  # words it knows nothing of are untouched


def test_a_lexicon_form_is_written_outright():
    a = Adaptation(fixed_forms={"zarvex": "ZarVex"})
    j = a.apply(["zarvex"], _uniform(1)).reshape(1, N_PUNCT, N_CASE)
    assert j[0, :, CASE_INDEX["mixed"]].sum() == pytest.approx(1.0)
    assert a.mixed_forms() == {"zarvex": "ZarVex"}


def test_the_bias_learns_a_speaker_who_uses_more_commas():
    rng = np.random.default_rng(0)
    n = 400
    joint = _uniform(n).reshape(n, N_PUNCT, N_CASE)
    joint[:, PUNCT_INDEX[","], :] = 0.2 / N_CASE
    joint[:, 0, :] = 0.8 / N_CASE - 0.0
    joint[:, 2:, :] = 0.0
    joint /= joint.sum((1, 2), keepdims=True)
    gold_p = np.where(rng.random(n) < 0.5, PUNCT_INDEX[","], 0)
    bp, bc = fit_bias(joint.reshape(n, -1), gold_p * N_CASE)
    assert bp[PUNCT_INDEX[","]] - bp[0] > 1.0  # odds of a comma raised about 4x (0.2 -> 0.5)
    assert abs(bp[PUNCT_INDEX[","]] - bp[0] - np.log(4)) < 0.5


def test_case_forms_need_every_mid_sentence_occurrence_to_agree():
    d = [Decision("the", "", "The", False, "", "the", False),  # a title: "The Journal"
         Decision("journal", "", "Journal", False, "", "journal", False),
         Decision("the", "", "the", False, "", "the", False),
         Decision("okafor", "", "Okafor", False, "", "okafor", False),
         Decision("okafor", "", "Okafor", True, "", "Okafor", True)]
    a = Adaptation.learn(d, bias=False)
    assert a.case_forms == {"journal": "Journal", "okafor": "Okafor"}


def test_an_adaptation_round_trips_and_bad_ones_are_refused():
    a = Adaptation(np.arange(N_PUNCT) * 0.1, np.zeros(N_CASE), {"okafor": "Okafor"}, {("well", "you"): ","}, words=120)
    b = Adaptation.from_dict(json.loads(json.dumps(a.to_dict())))
    assert b.case_forms == a.case_forms and b.pair_marks == a.pair_marks and b.words == 120
    assert np.allclose(b.punct_bias, a.punct_bias)
    # a bias kept from a review too short to teach one (saved by an earlier Stet) is not applied
    short = Adaptation.from_dict({**a.to_dict(), "words": 12})
    assert not np.any(short.punct_bias) and short.case_forms == a.case_forms
    for bad in ({"punct_bias": [1e300] * N_PUNCT}, {"punct_bias": [0] * 3}, {"case_forms": {"x": "Y"}},
                {"pair_marks": [["a", "b", "#"]]}, {"next_forms": [["great", "divergence", "Divergence"]]},
                {"words": -1}, [1, 2]):
        with pytest.raises(ValueError):
            Adaptation.from_dict(bad)


def test_learned_state_is_kept_per_language_and_speakers_and_can_be_reset(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    en, de = profile_key("en", ["Ann", "Bo"]), profile_key("de", ["Ann", "Bo"])
    assert en != de and en == profile_key("en", ["bo", "ann", None]) and profile_key(None) == "en-anyone"
    save_learned(en, Adaptation(case_forms={"okafor": "Okafor"}, words=3))
    assert load_learned(en).case_forms == {"okafor": "Okafor"}
    assert load_learned(de) is None
    assert reset_learned() == 1 and load_learned(en) is None


def test_simulated_review_scores_the_rest_before_and_after(shipped_restorer, tmp_path):
    from editor.restore.lab.data import read_cased_paragraphs

    path = tmp_path / "talks.txt"
    path.write_text(CASED * 3, encoding="utf-8")
    docs = read_cased_paragraphs(path)
    res = simulate_review(shipped_restorer, [w for w, _ in docs], [s for _, s in docs], 0.3)
    assert res["talks"] == 3
    for side in ("before", "after"):
        assert set(res[side]) >= {"overall_f1", "case_f1", "actions"}
        assert 0 <= res[side]["overall_f1"] <= 100
    # the reviewer wrote "Zarvex" mid-sentence; its later occurrences are right with what was learned
    assert res["names"]["right_after"] == 100.0
    fixed = res["corrected_names"]  # the names the reviewer had to correct (none, or Zarvex)
    assert set(fixed) == {"words", "later_occurrences", "right_before", "right_after"}
    assert fixed["later_occurrences"] == 0 or fixed["right_after"] == 100.0
    once = res["names_corrected_once"]  # of those, the ones the reviewed part writes one way
    assert set(once) == {"words", "later_occurrences", "right_before", "right_after", "missed"}
    assert once["words"] <= fixed["words"] and once["later_occurrences"] <= fixed["later_occurrences"]
    with pytest.raises(ValueError):
        simulate_review(shipped_restorer, [w for w, _ in docs], None, 1.5)


def _stet(*args, env=None):
    return subprocess.run([sys.executable, "-m", "editor", *map(str, args)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, **(env or {})})


def test_eval_simulate_review_json(tmp_path):
    path = tmp_path / "talks.txt"
    path.write_text(CASED * 2, encoding="utf-8")
    run = _stet("eval", path, "--simulate-review", "0.25", "--json", "--device", "cpu")
    assert run.returncode == 0, run.stderr
    sim = json.loads(run.stdout)["simulate_review"]
    assert sim["share"] == 0.25
    assert set(sim["before"]) >= {"overall_f1", "case_f1", "actions"} and set(sim["after"]) >= {"overall_f1", "case_f1", "actions"}
    text = _stet("eval", path, "--simulate-review", "0.25", "--device", "cpu")
    assert "simulated review" in text.stdout and "words to change" in text.stdout
    bad = _stet("eval", path, "--simulate-review", "2")
    assert bad.returncode == 2 and "between 0 and 1" in bad.stderr


def test_the_user_lexicon_is_used_by_restore_and_edited_by_stet_learned(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path / "data")}
    text = tmp_path / "t.txt"
    text.write_text("we met zarvex today and zarvex said hi\n", encoding="utf-8")
    assert "ZarVex" not in _stet("restore", text, "--device", "cpu", env=env).stdout
    add = _stet("learned", "--add", "ZarVex", "NASA", env=env)
    assert add.returncode == 0, add.stderr
    assert _stet("learned", env=env).stdout.split() == ["NASA", "ZarVex"]
    out = _stet("restore", text, "--device", "cpu", env=env).stdout
    assert out.count("ZarVex") == 2
    assert "ZarVex" not in _stet("restore", text, "--device", "cpu", "--no-lexicon", env=env).stdout
    bad = _stet("learned", "--add", "Zar Vex", env=env)
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "one word" in bad.stderr
    exported = tmp_path / "forms.txt"
    assert _stet("learned", "--export", exported, env=env).returncode == 0
    assert exported.read_text(encoding="utf-8") == "NASA\nZarVex\n"
    assert _stet("learned", "--export", exported, env=env).returncode == 1  # asks for --force
    assert _stet("learned", "--remove", "nasa", env=env).returncode == 0
    assert _stet("learned", env=env).stdout.split() == ["ZarVex"]
    assert _stet("learned", "--reset", env=env).returncode == 0
    assert _stet("learned", env=env).stdout == ""


def test_a_review_is_kept_for_its_language_and_speakers_only(tmp_path, monkeypatch, shipped_restorer):
    from editor.core.document.transcript import Kind, Suggestion, Transcript
    from editor.core.review.repeat_choices import decide, user_forms
    from editor.core.review.lexicon import UserLexicon
    from editor.restore.learning.learned_store import (adaptation_from, learn_review, list_profiles, remember_review,
                                        reviewed_decisions)

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    doc = Transcript.from_words("well you know okafor came and well you know he left".split())
    doc.set_suggestions([Suggestion(doc[0].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[3].id, Kind.CASE, "Okafor", {"Okafor": 0.6, "okafor": 0.4}),
                         Suggestion(doc[9].id, Kind.CASE, "He", {"He": 0.6, "he": 0.4})])
    decide(doc, doc[0].id, Kind.PUNCT, accept=False)
    decide(doc, doc[3].id, Kind.CASE)
    start, decisions, reviewed = reviewed_decisions(doc)
    assert start == 0 and [d.word for d in decisions] == ["well", "you", "know", "okafor"] and all(reviewed)
    learned = learn_review(shipped_restorer, decisions, reviewed)  # what `stet eval --simulate-review` learns
    assert learned.pair_marks == {("well", "you"): ""} and learned.case_forms == {"okafor": "Okafor"}
    # four reviewed words teach no mark bias (fewer than BIAS_MIN_WORDS): a bias moves every later file
    assert not np.any(learned.punct_bias)
    added, words = remember_review(learned, user_forms(doc), profile_key("en", ["Ann"]), "en, speaker Ann",
                                   "/p/talk.stet")
    assert added == 1 and words == 4
    # saving the same project again replaces what it taught; another project adds to it
    assert remember_review(learned, {}, profile_key("en", ["Ann"]), "en, speaker Ann", "/p/talk.stet") == (0, 4)
    other = Adaptation(pair_marks={("well", "you"): ","}, words=6)
    assert remember_review(other, {}, profile_key("en", ["Ann"]), "en, speaker Ann", "/p/two.stet") == (0, 10)
    assert load_learned(profile_key("en", ["Ann"])).pair_marks == {("well", "you"): ","}  # the latest first
    assert remember_review(learned, {}, profile_key("en", ["Ann"]), "en, speaker Ann", "/p/talk.stet") == (0, 10)
    assert UserLexicon.load().forms == {"okafor": "Okafor"}
    same = adaptation_from({}, "en", ["Ann"], learned=True)
    assert same.pair_marks == {("well", "you"): ""} and same.fixed_forms == {"okafor": "Okafor"}
    assert not np.any(same.punct_bias)  # reviews of 4 and 6 words: no bias is applied
    other = adaptation_from({}, "de", ["Ann"], learned=True)
    assert other.pair_marks == {} and not np.any(other.punct_bias)
    assert adaptation_from({}, "en", ["Ann"], learned=False).pair_marks == {}
    assert adaptation_from({"lexicon": {"lyon": "LYON"}}, "en", [], lexicon=False).fixed_forms == {"lyon": "LYON"}
    # another language's profile applies when the person chooses it (kept in the document, or given)
    [prof] = list_profiles()
    assert prof.key == profile_key("en", ["Ann"]) and prof.label == "en, speaker Ann" and prof.words == 10
    assert adaptation_from({"learned_profile": prof.key}, "de", ["Bo"], learned=True).pair_marks == {("well", "you"): ""}
    assert adaptation_from({}, "de", ["Bo"], profile=prof.key).pair_marks == {("well", "you"): ""}
    with pytest.raises(ValueError, match="no learned profile"):
        adaptation_from({}, "de", ["Bo"], profile="en-000000000000")
    with pytest.raises(ValueError, match="not a profile"):
        adaptation_from({}, "de", ["Bo"], profile="../x")


def test_a_chosen_profile_gone_falls_back_to_the_own_profile_and_the_lexicon(tmp_path, monkeypatch):
    from editor.core.review.lexicon import UserLexicon
    from editor.restore.learning.learned_store import CHOSEN, adaptation_from, save_learned

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    lex = UserLexicon.load()
    lex.learn({"okafor": "Okafor"})
    lex.save()
    gone = {CHOSEN: "en-000000000000"}
    with pytest.raises(ValueError, match="no learned profile"):  # without notes: as before
        adaptation_from(gone, "de", ["Bo"], learned=True)
    notes: list[str] = []
    got = adaptation_from(gone, "de", ["Bo"], learned=True, notes=notes)
    assert got.fixed_forms == {"okafor": "Okafor"} and got.pair_marks == {}  # the person's own lexicon
    assert notes == ["The learned profile chosen for this document is gone; using your lexicon instead"]
    save_learned(profile_key("de", ["Bo"]), Adaptation(pair_marks={("well", "you"): ""}, words=5), "de, speaker Bo")
    notes.clear()
    got = adaptation_from(gone, "de", ["Bo"], learned=True, notes=notes)
    assert got.fixed_forms == {"okafor": "Okafor"} and got.pair_marks == {("well", "you"): ""}
    assert "using what Stet learned for this document's language and speakers (de, speaker Bo) and your lexicon" in notes[0]
    from editor.restore.learning.learned_store import learned_dir

    damaged = learned_dir() / "en-111111111111.json"
    damaged.write_text("{not json", encoding="utf-8")
    notes.clear()
    got = adaptation_from({CHOSEN: "en-111111111111"}, "de", ["Bo"], learned=True, notes=notes)
    assert got.fixed_forms == {"okafor": "Okafor"} and "cannot be read" in notes[0]
    with pytest.raises(ValueError, match="no learned profile"):  # chosen on the command line: an error still
        adaptation_from({}, "de", ["Bo"], profile="en-000000000000", notes=notes)


def test_a_pending_suggestion_in_the_reviewed_stretch_teaches_nothing():
    from editor.core.document.transcript import Kind, Suggestion, Transcript
    from editor.core.review.repeat_choices import decide
    from editor.restore.learning.learned_store import reviewed_decisions

    doc = Transcript.from_words("so okafor said that okafor was right".split())
    doc.set_suggestions([Suggestion(doc[1].id, Kind.CASE, "Okafor", {"Okafor": 0.6, "okafor": 0.4}),
                         Suggestion(doc[2].id, Kind.PUNCT, ",", {",": 0.6, "": 0.4}),
                         Suggestion(doc[4].id, Kind.CASE, "Okafor", {"Okafor": 0.6, "okafor": 0.4})])
    decide(doc, doc[4].id, Kind.CASE, accept=False, repeat=False)
    decide(doc, doc[1].id, Kind.CASE, accept=False, repeat=False)
    start, decisions, reviewed = reviewed_decisions(doc)
    assert start == 1 and reviewed == [True, False, True, True]  # the comma after "said" still waits
    a = Adaptation.learn(decisions, None, reviewed=reviewed)
    assert a.case_forms == {"okafor": "okafor"} and a.pair_marks == {}
    assert reviewed_decisions(Transcript.from_words(["hello"])) == (0, [], [])


def test_a_common_word_is_remembered_with_the_word_before_it():
    d = [Decision("saddleback", "", "Saddleback", False, "", "saddleback", False),
         Decision("church", "", "Church", False, "", "church", False),
         Decision("okafor", "", "Okafor", False, "", "okafor", False)]
    a = Adaptation.learn(d, bias=False, min_known_form=1, common={"church"})
    assert a.case_forms == {"saddleback": "Saddleback", "okafor": "Okafor"}
    assert a.context_forms == {("saddleback", "church"): "Church"}
    j = a.apply(["the", "church", "saddleback", "church"], _uniform(4)).reshape(4, N_PUNCT, N_CASE)
    cap = CASE_INDEX["capitalized"]
    assert j[3, :, cap].sum() > 0.8 and abs(j[1, :, cap].sum() - 0.25) < 1e-6
    back = Adaptation.from_dict(json.loads(json.dumps(a.to_dict())))
    assert back.context_forms == a.context_forms


def _said(text: str, decided: bool = True) -> list[Decision]:
    """A reviewed stretch as written ("the Great Divergence, a huge divergence"): every word
    mid-sentence but the first, Stet having proposed lowercase (so each capital is a decision)."""
    out = []
    for i, token in enumerate(text.split()):
        word = token.rstrip(",.")
        out.append(Decision(word.lower(), token[len(word):], word, i == 0, "", word.lower() if decided else word, False))
    return out


def test_a_known_word_capitalised_inside_a_name_is_remembered_with_the_name_only():
    # "divergence" is a word the model knows in lowercase (a plain word): its capital belongs to
    # "Great Divergence", and a later "huge divergence" stays as the model has it
    d = _said("so the Great Divergence began and the Great Divergence ended")
    plain = {"great", "divergence", "huge", "began", "ended"}
    a = Adaptation.learn(d, bias=False, min_known_form=1, common={"the", "so", "and", "a"}, plain=plain)
    assert a.case_forms == {} and a.fixed_forms == {}
    assert a.context_forms == {("great", "divergence"): "Divergence"}
    assert a.next_forms == {("great", "divergence"): "Great"}
    words = ["the", "great", "divergence", "a", "huge", "divergence"]
    j = a.apply(words, _uniform(6)).reshape(6, N_PUNCT, N_CASE)
    cap = CASE_INDEX["capitalized"]
    assert j[1, :, cap].sum() > 0.99 and j[2, :, cap].sum() > 0.99
    assert abs(j[5, :, cap].sum() - 0.25) < 1e-6 and abs(j[4, :, cap].sum() - 0.25) < 1e-6
    back = Adaptation.from_dict(json.loads(json.dumps(a.to_dict())))
    assert back.next_forms == a.next_forms and back.context_forms == a.context_forms
    assert a.merged(Adaptation()).next_forms == a.next_forms
    # without the model's plain words (an older caller), every capital is the word's own, as before
    assert Adaptation.learn(d, bias=False, min_known_form=1).case_forms == {"great": "Great", "divergence": "Divergence"}


def test_a_known_word_capitalised_on_its_own_is_a_name_unless_also_written_lowercase():
    plain = {"interface", "company", "founded", "uses", "every", "an"}
    alone = _said("so I founded Interface and every team at Interface uses it")
    assert Adaptation.learn(alone, bias=False, min_known_form=1, plain=plain).case_forms == {"i": "I", "interface": "Interface"}
    both = _said("so I founded Interface and every team uses an interface")
    assert "interface" not in Adaptation.learn(both, bias=False, min_known_form=1, plain=plain).case_forms
    # a number after it makes a name of it too: "Route 128", not "the route I took"
    numbered = _said("we drove on Route 128 and the route was long")
    a = Adaptation.learn(numbered, bias=False, min_known_form=1, plain={"route", "drove", "long"})
    assert a.next_forms == {("route", "128"): "Route"} and "route" not in a.case_forms


def test_a_common_word_capitalised_inside_a_name_is_kept_with_the_name_not_the_word_before():
    d = _said("it is called the World Peace Game and we save the world")
    a = Adaptation.learn(d, bias=False, min_known_form=1, common={"the", "world", "and", "we", "is", "it"},
                         plain={"peace", "game", "save", "called"})
    assert a.next_forms[("world", "peace")] == "World" and "world" not in a.case_forms
    assert ("the", "world") not in a.context_forms or a.context_forms[("the", "world")] == "world"


def test_plain_words_are_the_vocabulary_less_its_names():
    from editor.restore.learning.review_lessons import plain_words

    class Words:  # the vocabulary's word list (after padding and unknown) is all plain_words reads
        words = ["<pad>", "<unk>", "the", "bay", "mandela"]

    assert plain_words(Words(), {"mandela"}) == {"the", "bay"}
    assert plain_words(Words(), None) == frozenset()  # a model without a names lexicon: none


def test_a_profile_is_listed_and_applied_to_another_file_only_when_chosen(tmp_path, monkeypatch):
    from editor.restore.learning.learned_store import save_learned

    env = {"XDG_DATA_HOME": str(tmp_path / "data")}
    monkeypatch.setenv("XDG_DATA_HOME", env["XDG_DATA_HOME"])
    assert "nothing learned" in _stet("learned", "--profiles", env=env).stderr
    key = profile_key("en", ["Ann"])
    # Ann's reviewer kept "zarvex" lowercase (the model alone writes it as a name)
    save_learned(key, Adaptation(case_forms={"zarvex": "zarvex"}, words=7), "en, speaker Ann")
    listed = _stet("learned", "--profiles", env=env)
    assert listed.returncode == 0 and listed.stdout == f"{key}\t7 reviewed words\ten, speaker Ann\n"
    text = tmp_path / "t.txt"
    text.write_text("we met zarvex today and zarvex said hi\n", encoding="utf-8")
    # a plain text has no speakers: Ann's profile is not its own. (The default model is 99.8 % sure
    # of "Zarvex": the remembered form outweighs it all the same.)
    assert _stet("restore", text, "--device", "cpu", "--learned", env=env).stdout.count("Zarvex") == 2
    chosen = _stet("restore", text, "--device", "cpu", "--learned-from", key, env=env)
    assert chosen.returncode == 0 and chosen.stdout.count("zarvex") == 2, chosen.stdout + chosen.stderr
    bad = _stet("restore", text, "--device", "cpu", "--learned-from", "en-nothing", env=env)
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "no learned profile" in bad.stderr


def test_stet_learned_says_when_a_word_to_forget_is_not_there(tmp_path):
    """`stet learned --remove Okafr` (a typo) said nothing, as if Okafor had been forgotten."""
    env = {"XDG_DATA_HOME": str(tmp_path / "data")}
    assert _stet("learned", "--add", "Okafor", env=env).returncode == 0
    typo = _stet("learned", "--remove", "Okafr", env=env)
    assert typo.returncode == 0
    assert typo.stderr == "stet: warning: not in the lexicon: Okafr\n"
    assert _stet("learned", env=env).stdout.split() == ["Okafor"]
    gone = _stet("learned", "--remove", "OKAFOR", env=env)
    assert gone.returncode == 0 and gone.stderr == ""
    assert _stet("learned", env=env).stdout == ""


def test_the_bias_reads_marginals_only_where_words_were_reviewed_and_at_most_bias_words():
    from editor.restore.learning.learned_store import BIAS_BLOCK, BIAS_WORDS, bias_blocks

    assert bias_blocks([True] * 1200) == [(0, 1200)]  # a review of ordinary size: all of it, in one piece
    flags = [False] * 10000
    flags[10:20] = [True] * 10
    flags[5200] = True
    assert bias_blocks(flags) == [(0, BIAS_BLOCK), (5000, 5000 + BIAS_BLOCK)]  # not the stretch between
    blocks = bias_blocks([True] * 100_000)
    assert sum(b - a for a, b in blocks) <= BIAS_WORDS
    assert blocks[0][0] == 0 and blocks[-1][1] == 100_000  # spread over the whole review


def test_rows_of_unknown_marginals_do_not_move_the_bias():
    rng = np.random.default_rng(0)
    joint = rng.dirichlet(np.ones(N_PUNCT * N_CASE), size=600).astype(np.float32)
    decisions = [Decision("w", "," if k % 2 else "", "w", False) for k in range(600)]
    full = Adaptation.learn(decisions[:300], joint[:300])
    holes = joint.copy()
    holes[300:] = np.nan  # marginals not read there: the bias is fitted on the first 300 alone
    part = Adaptation.learn(decisions, holes)
    assert np.allclose(full.punct_bias, part.punct_bias) and part.words == 600


def test_a_short_review_teaches_no_bias_a_long_one_does():
    """A bias moves every suggestion of every later file: a few surprising words must not set it."""
    from editor.restore.learning.review_lessons import BIAS_MIN_WORDS

    joint = np.zeros((BIAS_MIN_WORDS, N_PUNCT * N_CASE), np.float32)
    joint[:, 1 * N_CASE] = 0.9  # the model is sure of a comma after every word
    joint[:, 0] = 0.1
    decisions = [Decision("w", "", "w", False) for _ in range(BIAS_MIN_WORDS)]  # the person wants none
    short = Adaptation.learn(decisions[:9], joint[:9])
    assert not np.any(short.punct_bias) and short.words == 9
    long = Adaptation.learn(decisions, joint)
    assert long.punct_bias[0] > long.punct_bias[1]  # no mark made likelier than the comma
