"""The sdist and the wheel carry everything Stet needs at run time: built offline, installed into a
fresh virtual environment outside the checkout, the wheel's `stet` restores a sample and draws its
window with the shipped model.

The fresh environment gets only the wheel (pip --no-deps); torch, Qt and the other dependencies
come from the test's own environment through a .pth file, because installing them anew would take
minutes and the network. A .pth in a directory added that way is not processed, so the editable
install of the checkout stays invisible: `editor` can only come from the wheel, which is asserted.
"""

import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ("models/stet-en-bilstm-crf/weights.pt", "models/stet-en-bilstm-crf/SHA256SUMS",
           "models/stet-en-bilstm-crf/config.json", "models/stet-en-bilstm-crf/vocab.json",
           "models/stet-en-bilstm-crf/lexicon.json", "samples/sample.txt", "samples/sample.srt",
           "icons/stet.svg", "asr/model-list.json",
           # the open model (issue 52): trained on public-domain text only
           "models/stet-en-open-minilm-bilstm-crf/weights.pt", "models/stet-en-open-minilm-bilstm-crf/config.json",
           "models/stet-en-open-minilm-bilstm-crf/tokenizer.json", "models/stet-en-open-minilm-bilstm-crf/SHA256SUMS")


def run(args, **kwargs):
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=300,
                            **kwargs)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The sdist, and the wheel that `build` makes from that sdist (so the sdist is complete)."""
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, ROOT], cwd=ROOT)
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return sdist, wheel


def test_sdist_and_wheel_carry_the_resources(built):
    sdist, wheel = built
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for name in RUNTIME:
        assert f"resources/{name}" in names, f"sdist lacks resources/{name}"
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
    for name in RUNTIME:
        assert f"editor/resources/{name}" in names, f"wheel lacks editor/resources/{name}"
    # The checksummed model files are byte for byte the ones in resources/.
    with zipfile.ZipFile(wheel) as whl:
        for name in RUNTIME[:5]:
            assert whl.read(f"editor/resources/{name}") == (ROOT / "resources" / name).read_bytes()
    assert not any(n.startswith(("tests/", "editor/resources/screenshots/")) for n in names)
    # Help shows docs/ in a window: the pages and their pictures, byte for byte docs/ itself
    with zipfile.ZipFile(wheel) as whl:
        shipped = [*sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "images").glob("*.png"))]
        for page in shipped:
            name = f"editor/docs/{page.relative_to(ROOT / 'docs').as_posix()}"
            assert whl.read(name) == page.read_bytes(), name
        assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
        metadata = next(whl.read(n) for n in names if n.endswith(".dist-info/METADATA")).decode()
        assert "License-Expression: Apache-2.0" in metadata.splitlines()
    with tarfile.open(sdist) as tar:
        sdist_names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {"docs/user-guide.md", "docs/formats.md", "docs/guarantees.md", "LICENSE"} <= sdist_names


def test_installed_wheel_restores_and_draws_its_window(built, tmp_path, clean_env, window_picture_ok):
    _, wheel = built
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    # Without PYTHONPATH: the checkout's own metadata there would make pip skip the wheel.
    host = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index",
         "--quiet", wheel], env=host)
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                .stdout.strip())
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "zz_stet_test_dependencies.pth").write_text("".join(f"{p}\n" for p in sorted(deps)))

    work = tmp_path / "work"
    work.mkdir()
    env = clean_env(path=f"{venv / 'bin'}:/usr/bin:/bin", QT_QPA_PLATFORM="offscreen")
    where = run([python, "-c", "import editor, editor.core.paths as p; "
                 "print(editor.__file__); print(p.resource_path('models')); print(p.docs_path('user-guide.md'))"],
                cwd=work, env=env)
    package_file, models, guide = where.stdout.split("\n")[:3]
    assert package_file.startswith(str(site)), f"editor imported from {package_file}, not the wheel"
    assert models == str(Path(site) / "editor" / "resources" / "models")
    assert guide == str(Path(site) / "editor" / "docs" / "user-guide.md") and Path(guide).is_file()

    stet = venv / "bin" / "stet"
    assert run([stet, "--version"], cwd=work, env=env).stdout.startswith("stet ")
    sample = Path(site) / "editor" / "resources" / "samples" / "sample.txt"
    run([stet, "restore", sample, "-o", work / "out.txt", "--min-confidence", "0.5"], cwd=work, env=env)
    restored = (work / "out.txt").read_text(encoding="utf-8")
    assert restored.startswith("Welcome back") and restored.count(".") >= 10, restored[:300]

    shot = run([stet, "gui", sample, "--screenshot", work / "window.png", "--timeout", "120"],
               cwd=work, env=env)
    assert "(done)" in shot.stdout, shot.stdout + shot.stderr  # restoration finished in time
    window_picture_ok(work / "window.png")
