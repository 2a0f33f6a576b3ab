"""The window, `stet restore` and a batch worker run the same restoration pass
(editor.restore.passes.pipeline.run_pass): the same file and settings give the same suggestions in all
three, and each falls back, refuses or reports the same way (the shipped model, small texts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from editor.core.document.transcript import Kind, Transcript
from editor.core.errors import UserError
from editor.restore.passes.pipeline import PassSettings

RAW = ("so we went down to the station on saturday and nobody was there i asked dana what happened "
       "and she said the library had moved to the school hall last week okay so what do we do now")
WRITTEN = ("So we went down to the station on Saturday, and nobody was there. i asked Dana what happened "
           "and she said the library had moved to the school hall last week okay. so what do we do now")
GERMAN = ("also ich habe mit dem mann gesprochen und er hat gesagt dass die firma im nächsten jahr nach berlin "
          "umziehen will wir waren alle ein bisschen überrascht weil niemand davon wusste")


def suggestions(doc: Transcript) -> list[tuple[int, str, str, tuple[tuple[str, float], ...]]]:
    """A document's restoration suggestions, comparable across documents: marks, capitals and
    the proposed paragraph breaks (placed again by the pass at the sentence ends it proposes)."""
    index = {t.id: i for i, t in enumerate(doc.tokens)}
    return sorted((index[s.token_id], str(s.kind), s.value, tuple(sorted((k, round(p, 4)) for k, p in s.probs.items())))
                  for s in doc.iter_suggestions())


def breaks(found: list) -> list[int]:
    return [s[0] for s in found if s[1] == str(Kind.BREAK)]


def cli(path: Path, tmp_path: Path, capsys, *extra: str) -> tuple[int, list | None, str]:
    """`stet restore PATH -o OUT.stet` in this process: exit code, suggestions written, stderr."""
    from editor.cli import main
    from editor.core.formats import read_any

    out = tmp_path / f"cli-{path.stem}-{len(list(tmp_path.iterdir()))}.stet"
    code = main(["restore", str(path), "-o", str(out), "--device", "cpu", "-q", *extra])
    err = capsys.readouterr().err
    return code, suggestions(read_any(out)) if out.exists() else None, err


def batch(path: Path, tmp_path: Path, settings: PassSettings) -> tuple[list, tuple[str, ...]]:
    """What a batch worker does to one file (editor.batch.jobs.RestoreJob): suggestions, warnings."""
    from editor.batch.jobs import RestoreJob
    from editor.core.formats import read_any

    job = RestoreJob(None, "cpu", 0.0, settings)
    job.load(threads=None)
    out = tmp_path / f"batch-{path.stem}.stet"
    outcome = job.run(path, out, lambda fraction: None)
    return suggestions(read_any(out)), outcome.warnings


@pytest.fixture
def shipped(settings):
    settings.set("engine.restore_model", "")  # the shipped model (tens of thousands of words a second)
    return settings


@pytest.fixture
def window(qtbot, shipped, request):
    """The window; with the parameter "worker process", its passes run in the worker process the
    window's own process uses (editor.restore.passes.pass_process), else on a pool thread."""
    from editor.gui import MainWindow
    from editor.gui.work.restoration import Restorers

    w = MainWindow(shipped, interactive=False)
    if getattr(request, "param", "thread") == "worker process":
        restorers = w.restoration.restorers = Restorers(in_worker=True)

        def still_in_worker() -> None:  # (not fallen back to a thread)
            assert restorers.in_worker
            restorers.close()

        request.addfinalizer(still_in_worker)
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    return w


WHERE = pytest.mark.parametrize("window", ["thread", "worker process"], indirect=True)


def in_window(window, qtbot, path: Path) -> tuple[str, list, list[str]]:
    """The window opens ``path`` and restores it: how it ended, its suggestions, the notes shown."""
    notes: list[str] = []
    window.restoration.note.connect(notes.append)
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        window.open_path(path)
    return window.restoration_status, suggestions(window.transcript), notes


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text + "\n", encoding="utf-8")
    return path


@WHERE
@pytest.mark.parametrize("text", [RAW, WRITTEN], ids=["raw", "written"])
def test_the_window_the_command_and_a_batch_give_the_same_suggestions(window, qtbot, tmp_path, capsys, text):
    from editor.core.review.lexicon import UserLexicon

    lexicon = UserLexicon.load()
    lexicon.learn({"dana": "DaNa"})  # the person's own form: all three apply it
    lexicon.save()
    path = write(tmp_path, "talk.txt", text)
    code, by_cli, err = cli(path, tmp_path, capsys, "--learned")
    assert code == 0 and err == "", err
    by_batch, warnings = batch(path, tmp_path, PassSettings(learned=True))
    status, by_window, notes = in_window(window, qtbot, path)
    assert status == "done" and not notes
    # (the written text's "Dana" is the author's: kept, its punctuation kept by default)
    assert by_cli and ("DaNa" in {s[2] for s in by_cli}) is (text is RAW)
    assert by_window == by_cli == by_batch and warnings == ()


def removals(path: Path, found: list) -> list:
    """The suggestions among ``found`` that remove or replace a mark or capital written in ``path``."""
    from editor.core.formats import read_any
    from editor.restore.passes.suggest import removes_authors

    tokens = read_any(path).tokens
    return [s for s in found if removes_authors(tokens[s[0]], s[1], s[2])]


@pytest.mark.parametrize("keep", [None, True, False], ids=["default", "keep-author", "no-keep-author"])
def test_keeping_the_authors_punctuation_is_alike_in_all_three(window, qtbot, tmp_path, capsys, keep):
    """Keep the author's punctuation: on by default for a text written with marks and capitals
    (`stet restore` and a batch without the option, the window as it opens), asked for
    (--keep-author, the Review menu's tick then Restore again) or turned off (--no-keep-author,
    the tick taken off, which restores again): the same suggestions in all three."""
    from editor.core.review.lexicon import UserLexicon

    lexicon = UserLexicon.load()
    lexicon.learn({"dana": "DaNa"})  # a form that would replace the author's "Dana"
    lexicon.save()
    path = write(tmp_path, "talk.txt", WRITTEN)
    flag = {None: (), True: ("--keep-author",), False: ("--no-keep-author",)}[keep]
    code, by_cli, err = cli(path, tmp_path, capsys, *flag)
    assert code == 0 and err == "", err
    by_batch, warnings = batch(path, tmp_path, PassSettings(keep_author=keep))
    window.settings.set("review.use_learned", False)
    status, by_window, _ = in_window(window, qtbot, path)
    assert status == "done" and window.restoring.keeping_author  # written marks and capitals: on as it opens
    if keep is not None:
        with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
            window.restoring.toggle_keep_author(keep)  # off: restores again
            if keep:
                window.start_restoration()  # Restore again, the tick on
        assert window.restoration_status == "done" and window.restoring.keeping_author is keep
        by_window = suggestions(window.transcript)
    assert by_window == by_cli == by_batch and warnings == ()
    if keep is False:  # removals and replacements of what the author wrote are proposed
        assert removals(path, by_cli) and "DaNa" in {s[2] for s in by_cli}
    else:  # only missing marks and capitals
        assert by_cli and not removals(path, by_cli)


@WHERE
def test_the_sample_talk_is_restored_alike_in_all_three(window, qtbot, tmp_path, capsys):
    """310 words in paragraphs: several regions, the window's first the ones shown."""
    from editor.core.paths import resource_path

    path = resource_path("samples", "sample.txt")
    _, by_cli, _ = cli(path, tmp_path, capsys)
    by_batch, _ = batch(path, tmp_path, PassSettings())
    window.settings.set("review.use_learned", False)
    _, by_window, _ = in_window(window, qtbot, path)
    assert len(by_cli) > 50 and by_window == by_cli == by_batch


@WHERE
def test_a_long_paragraph_gets_the_same_breaks_in_all_three(window, qtbot, tmp_path, capsys):
    """Raw words running on for 1,500 words (a recogniser's output): the pass proposes marks and,
    at the sentence ends it proposes, paragraph breaks; the window puts them in a slice at a time,
    the command and a batch region by region, and all three propose the same breaks."""
    from editor.core.paths import resource_path

    words = resource_path("samples", "sample.txt").read_text(encoding="utf-8").lower().split()
    text = " ".join(w.strip(".,?!;:\"") for w in (words * 6)[:1500])
    path = write(tmp_path, "long.txt", text)
    _, by_cli, _ = cli(path, tmp_path, capsys)
    by_batch, _ = batch(path, tmp_path, PassSettings())
    window.settings.set("review.use_learned", False)
    status, by_window, _ = in_window(window, qtbot, path)
    assert status == "done" and len(breaks(by_cli)) >= 3
    assert by_window == by_cli == by_batch


@WHERE
@pytest.mark.parametrize("broken", ["lexicon", "profile"])
def test_an_adaptation_that_cannot_be_applied_is_said_in_one_line_and_left_out_alike(
        window, qtbot, tmp_path, capsys, broken):
    """A damaged lexicon: the model alone restores; a damaged learned profile: the lexicon still
    applies. Nothing is refused, and each caller says so once, in one line."""
    from editor.core.review.lexicon import UserLexicon
    from editor.restore.learning.learned_store import learned_dir, profile_key

    path = write(tmp_path, "talk.txt", RAW)
    if broken == "lexicon":
        UserLexicon.load().path.parent.mkdir(parents=True, exist_ok=True)
        UserLexicon.load().path.write_text("{not json", encoding="utf-8")
        said = "Restoring without what Stet learned or your lexicon: "
    else:
        lexicon = UserLexicon.load()
        lexicon.learn({"dana": "DaNa"})
        lexicon.save()
        (learned_dir() / f"{profile_key(None, [])}.json").write_text("{not json", encoding="utf-8")
        said = "Restoring without what Stet learned ("
    code, by_cli, err = cli(path, tmp_path, capsys, "--learned")
    assert code == 0 and err.count("\n") == 1 and said in err, err
    by_batch, warnings = batch(path, tmp_path, PassSettings(learned=True))
    status, by_window, notes = in_window(window, qtbot, path)
    assert status == "done"
    assert len(warnings) == 1 and said in warnings[0] and len(notes) == 1 and said in notes[0]
    assert "\n" not in notes[0] and notes[0] == warnings[0] and err.endswith(f": {notes[0]}\n")
    assert by_window == by_cli == by_batch
    if broken == "lexicon":  # what the model alone gives
        assert by_cli == cli(path, tmp_path, capsys, "--no-lexicon")[1]
    else:
        assert "DaNa" in {s[2] for s in by_cli}


@WHERE
def test_a_text_in_another_language_is_refused_alike_until_asked(window, qtbot, tmp_path, capsys):
    path = write(tmp_path, "interview.txt", GERMAN)
    code, by_cli, err = cli(path, tmp_path, capsys)
    assert code == 1 and by_cli is None and err.count("\n") == 1
    assert "interview.txt: not restored: this text does not look like English" in err
    with pytest.raises(UserError, match="interview.txt: not restored: this text does not look like English"):
        batch(path, tmp_path, PassSettings())
    status, by_window, _ = in_window(window, qtbot, path)
    assert status.startswith("skipped: this text does not look like English") and by_window == []
    # asked for: restored, alike
    code, by_cli, err = cli(path, tmp_path, capsys, "--any-language")
    assert code == 0 and by_cli
    by_batch, _ = batch(path, tmp_path, PassSettings(any_language=True))
    with qtbot.waitSignal(window.restoration_finished, timeout=60_000):
        window.start_restoration()  # Restore again
    assert window.restoration_status == "done"
    assert suggestions(window.transcript) == by_cli == by_batch


def test_an_empty_text_is_refused_alike(window, qtbot, tmp_path, capsys):
    """A file without words is refused in one line by the command line and a batch alike (it is
    read by the same reader, which refuses it before any restoring)."""
    path = write(tmp_path, "empty.txt", "")
    code, by_cli, err = cli(path, tmp_path, capsys)
    assert code == 1 and by_cli is None and err.count("\n") == 1 and "empty.txt: " in err and "no words" in err
    with pytest.raises(UserError, match="empty.txt: .*no words"):
        batch(path, tmp_path, PassSettings())


def test_a_worker_that_cannot_start_leaves_the_passes_to_a_thread(window, qtbot, tmp_path, monkeypatch):
    """Where no process can be started, the window restores as it did without one, alike."""
    import multiprocessing.context

    from editor.gui.work.restoration import Restorers

    path = write(tmp_path, "talk.txt", RAW)
    window.settings.set("review.use_learned", False)
    _, on_thread, _ = in_window(window, qtbot, path)

    def refused(self):
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", refused)
    restorers = window.restoration.restorers = Restorers(in_worker=True)
    status, by_window, notes = in_window(window, qtbot, path)
    assert status == "done" and by_window == on_thread and len(on_thread) > 10 and not notes
    assert not restorers.in_worker
