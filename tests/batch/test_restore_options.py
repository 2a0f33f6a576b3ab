"""A batch restores each file as `stet restore` restores one: the options of the command reach the
batch job (a profile named with --learned-from was ignored by batches; keep the author's
punctuation is chosen the same way), and a worker applies them (the shipped model)."""

from __future__ import annotations

import pytest

from editor.batch.cli import job_for
from editor.cli import build_parser
from editor.core.errors import UserError
from editor.restore.passes.pipeline import PassSettings


def batch_args(*extra: str):
    args = build_parser().parse_args(["restore", "a.txt", "b.txt", "-o", "out", *extra])
    assert args.batch == "restore"
    return args


def test_the_commands_options_reach_the_batch_job():
    assert job_for(batch_args()).settings == PassSettings()
    job = job_for(batch_args("--no-lexicon", "--learned", "--any-language", "--no-keep-author"))
    assert job.settings == PassSettings(lexicon=False, learned=True, any_language=True, keep_author=False)
    assert job_for(batch_args("--keep-author")).settings.keep_author is True


def test_a_batch_applies_the_profile_named_and_refuses_one_not_kept(tmp_path, monkeypatch):
    from editor.restore.learning.review_lessons import Adaptation
    from editor.restore.learning.learned_store import profile_key, save_learned

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    key = profile_key("en", ["Ann"])
    # Ann's reviewer kept "zarvex" lowercase (the model alone writes it as a name)
    save_learned(key, Adaptation(case_forms={"zarvex": "zarvex"}, words=7), "en, speaker Ann")
    with pytest.raises(UserError, match="--learned-from: no learned profile 'en-nothing'"):
        job_for(batch_args("--learned-from", "en-nothing"))
    source = tmp_path / "t.txt"
    source.write_text("we met zarvex today and zarvex said hi\n", encoding="utf-8")
    written = {}
    for name, extra in (("plain", ()), ("chosen", ("--learned-from", key))):
        # the word model: how strongly a learned form outweighs the model is the learning's business
        job = job_for(batch_args("--device", "cpu", "--model", "stet-en-bilstm-crf", *extra))
        job.load(threads=None)
        out = tmp_path / f"{name}.txt"
        assert job.run(source, out, lambda fraction: None).warnings == ()
        written[name] = out.read_text(encoding="utf-8")
    assert written["plain"].count("Zarvex") == 2
    assert written["chosen"].count("zarvex") == 2 and "Zarvex" not in written["chosen"]
