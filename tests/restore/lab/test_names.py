"""The names lexicon: the words the training text capitalises where no sentence starts, counted
from the text as written, shipped beside the model (names.json) and checked like its other files."""

import gzip
import json
import shutil
from collections import Counter

import pytest

from editor.cli import main
from editor.restore.passes.inference import Restorer
from editor.restore.lab.names import mid_sentence_case, names_lexicon
from editor.restore.model.package import ModelError, sha256, write_checksums, write_names


def test_words_are_counted_only_where_no_sentence_starts():
    lines = ["# A talk about Paris\n",
             "Well, I went to Paris. Well then, she said, \"Well, no.\" (Well, maybe.) Oh, well -- Well\n",
             "and OK: Well, it was, OK, fine; Paris, well--known.\n"]
    seen, capital = mid_sentence_case(lines)
    # "Well" opening a paragraph, after ". ", after an opening quote or bracket, after ":" is a start;
    # a part after a dash is not
    assert seen["well"] == 3 and capital["well"] == 1
    assert seen["paris"] == 2 and capital["paris"] == 2
    assert seen["i"] == 1 and capital["i"] == 1 and seen["ok"] == 2 and capital["ok"] == 2
    assert "talk" not in seen  # titles are not text
    assert seen["known"] == 1 and capital["known"] == 0  # "well--known": two words, as the model reads them


def test_a_name_is_a_vocabulary_word_capitalised_in_at_least_half_its_mid_sentence_uses():
    seen = Counter({"paris": 10, "court": 10, "well": 100, "i": 50})
    capital = Counter({"paris": 10, "court": 5, "well": 3, "i": 50})
    assert names_lexicon(["paris", "court", "well", "i", "unseen"], seen, capital) == ["court", "i", "paris"]


@pytest.fixture
def model_copy(tiny_model_dir, tmp_path):
    return shutil.copytree(tiny_model_dir, tmp_path / "model")


def test_a_model_without_names_lets_the_probabilities_decide(model_copy):
    r = Restorer.load(str(model_copy), device="cpu")
    assert r.names is None and r.may_capitalize_after_comma("so")


def test_a_model_with_names_capitalises_after_a_comma_only_names_forms_and_unknown_words(model_copy):
    write_names(model_copy, ["i", "okay"], {"share": 0.5})
    write_checksums(model_copy)
    r = Restorer.load(str(model_copy), device="cpu")
    assert r.names == {"i", "okay"}
    ok = r.may_capitalize_after_comma
    assert ok("i") and ok("okay") and ok("iphone")  # names, and a mixed form of the lexicon
    assert ok("okafor")  # not in the vocabulary: the model judges it by its letters
    assert not ok("so") and not ok("the")


def test_names_are_checked_like_the_model_s_other_files(model_copy):
    write_names(model_copy, ["i"], {"share": 0.5})
    with pytest.raises(ModelError, match="does not list names.json"):  # added without its checksum
        Restorer.load(str(model_copy), device="cpu")
    write_checksums(model_copy)
    (model_copy / "names.json").write_text(json.dumps({"names": ["i", "so"]}))
    with pytest.raises(ModelError, match="checksum mismatch"):
        Restorer.load(str(model_copy), device="cpu")
    (model_copy / "names.json").unlink()
    with pytest.raises(ModelError, match="names.json is missing"):  # listed, then removed
        Restorer.load(str(model_copy), device="cpu")
    (model_copy / "names.json").write_text(json.dumps({"names": "i"}))
    write_checksums(model_copy)
    with pytest.raises(ModelError, match="must be a list of words"):
        Restorer.load(str(model_copy), device="cpu")


def test_stet_names_adds_the_lexicon_to_a_model_from_the_training_text(model_copy, tmp_path, capsys):
    train = tmp_path / "data" / "train"
    train.mkdir(parents=True)
    with gzip.open(train / "talks.txt.gz", "wt", encoding="utf-8") as f:
        f.write("# one\nSo I said, Okay, fine. And you said so, OKAY and I agreed.\n")
    before = sha256(model_copy / "weights.pt")
    assert main(["names", str(model_copy), "--data", str(tmp_path / "data"), "--sources", "talks"]) == 0
    data = json.loads((model_copy / "names.json").read_text())
    assert data["names"] == ["i", "okay"] and data["sources"] == ["talks"] and data["share"] == 0.5
    assert sha256(model_copy / "weights.pt") == before
    assert Restorer.load(str(model_copy), device="cpu").names == {"i", "okay"}
    assert main(["names", str(model_copy), "--data", str(tmp_path / "data"), "--sources", "nope"]) == 1
    assert "nope.txt.gz" in capsys.readouterr().err
