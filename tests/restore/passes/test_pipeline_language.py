"""`stet restore` (one file or a batch) refuses text that does not look like the model's language."""

import json
import shutil

import pytest

from editor.core.document.transcript import Transcript
from editor.core.errors import UserError
from editor.restore.passes.inference import Restorer
from editor.restore.model.package import write_checksums
from editor.restore.passes.pipeline import PassSettings, restore_transcript

from ..conftest import WORDS

GERMAN = ("also ich habe mit dem mann gesprochen und er hat gesagt dass die firma im nächsten jahr nach berlin "
          "umziehen will wir waren alle ein bisschen überrascht weil niemand davon wusste")


@pytest.fixture
def english_model(tiny_model_dir, tmp_path):
    model = tmp_path / "tiny-en"
    shutil.copytree(tiny_model_dir, model)
    config = json.loads((model / "config.json").read_text())
    config["language"] = "en"
    (model / "config.json").write_text(json.dumps(config))
    write_checksums(model)
    return model


def test_another_language_is_refused_in_one_line_unless_asked(english_model):
    r = Restorer.load(str(english_model), device="cpu")
    doc = Transcript.from_text(GERMAN)
    with pytest.raises(UserError, match=r"^interview.txt: not restored: this text does not look like English"):
        restore_transcript(r, doc, name="interview.txt")
    assert not doc.suggestions()
    restore_transcript(r, doc, PassSettings(any_language=True))
    assert doc.suggestions()


def test_the_models_language_and_short_texts_are_restored(english_model):
    r = Restorer.load(str(english_model), device="cpu")
    assert r.language_check(WORDS * 2).matches
    assert r.language_check(WORDS[:3]).matches
    doc = Transcript.from_text(" ".join(WORDS * 2))
    restore_transcript(r, doc)
    assert doc.metadata.restore_model == r.name


KOREAN = "오늘은 날씨가 좋습니다 저는 학교에 갑니다 어제 친구를 만났습니다 우리는 함께 점심을 먹었습니다".split()


def test_a_short_text_is_judged_by_the_same_rule_as_a_long_one(english_model):
    """Issue 50: three Korean words got a full stop proposed while 75 were refused. One rule: a
    short text counts as if the words it lacks were known, and none known is never the language."""
    r = Restorer.load(str(english_model), device="cpu")
    for words in (KOREAN[:1], KOREAN[:3], KOREAN * 6):
        check = r.language_check(words)
        assert not check.matches, words
        doc = Transcript.from_text(" ".join(words))
        with pytest.raises(UserError, match=r"not restored: this text does not look like English"):
            restore_transcript(r, doc, name="cut.txt")
        assert not doc.suggestions()
    # a short English text with a name or two the vocabulary lacks is still restored
    assert r.language_check([*WORDS[:4], "zqxname"]).matches
    assert r.language_check([*WORDS[:10], "zqxname", "zqxother"]).matches
    assert not r.language_check([*WORDS[:2], "zqxa", "zqxb", "zqxc"]).matches


def test_a_model_without_a_language_restores_anything(tiny_model_dir):
    r = Restorer.load(str(tiny_model_dir), device="cpu")
    assert r.language is None and r.language_check(GERMAN.split()).matches


def test_a_batch_reports_the_refused_file_and_restores_the_others(english_model, tmp_path, capsys):
    from editor.cli import main

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "de.txt").write_text(GERMAN, encoding="utf-8")
    (tmp_path / "in" / "en.txt").write_text(" ".join(WORDS * 2), encoding="utf-8")
    code = main(["restore", str(tmp_path / "in" / "de.txt"), str(tmp_path / "in" / "en.txt"), "--model",
                 str(english_model), "--device", "cpu", "-o", str(tmp_path / "out"), "-q"])
    err = capsys.readouterr().err
    assert code != 0 and "de.txt: not restored" in err and "Traceback" not in err
    assert (tmp_path / "out" / "en.txt").is_file() and not (tmp_path / "out" / "de.txt").exists()


def test_a_new_speaker_is_given_to_the_restorer_as_a_paragraph_start(tiny_model_dir):
    """A speaker change is evidence of a sentence end, as a paragraph's start is: the restorer is
    told of both (and of a speaker's first word after unlabelled ones), not of a speaker who goes on."""
    from editor.core.document.transcript import Token
    from editor.restore.passes.pipeline import speaker_turns

    words = "so what is it i think it is okay yes and you".split()
    speakers = [None, None, "Ann", "Ann", "Bo", "Bo", "Bo", "Ann", "Ann", "Ann", "Ann", "Ann"]
    doc = Transcript([Token(w, id=i, speaker=s) for i, (w, s) in enumerate(zip(words, speakers))],
                     paragraph_starts=[10])
    assert speaker_turns(doc.tokens) == {2, 4, 7}
    r = Restorer.load(str(tiny_model_dir), device="cpu")
    seen = {}
    real = r.restore

    def spy(words, **kw):
        seen["starts"] = sorted(kw.get("paragraph_starts", ()))
        return real(words, **kw)

    r.restore = spy
    restore_transcript(r, doc, PassSettings(any_language=True))
    assert [i for i in seen["starts"] if i > 0] == [2, 4, 7, 10]
