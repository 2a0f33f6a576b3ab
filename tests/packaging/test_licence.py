"""Stet's licence is stated where a person or a packager looks: LICENSE (the full Apache-2.0 text),
the package metadata, About, the .deb's machine-readable copyright file; and the shipped weights
say that they inherit the non-commercial terms of their training text (TED, Oyez)."""

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

import editor

ROOT = Path(__file__).resolve().parents[2]
# (STET_DATA_README: where a worktree does not sit beside shared/)
DATA_README = Path(os.environ.get("STET_DATA_README", ROOT.parent / "shared" / "data" / "README.md"))


def test_licence_file_is_the_apache_2_0_text():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.lstrip().startswith("Apache License\n                           Version 2.0, January 2004")
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text and len(text) > 11000
    canonical = Path("/usr/share/common-licenses/Apache-2.0")  # Debian's copy (base-files)
    if canonical.is_file():
        assert text == canonical.read_text(encoding="utf-8")


def test_pyproject_states_the_licence_as_the_package_does():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == editor.__license__ == "Apache-2.0"
    assert project["license-files"] == ["LICENSE"]


def test_the_model_cards_say_what_the_weights_may_be_used_for():
    """The two models trained on TED and Oyez text inherit their non-commercial terms; the open one,
    trained on public-domain text under the Apache-2.0 encoder, says it may be used for paid work."""
    cards = {c.parent.name: c.read_text(encoding="utf-8")
             for c in sorted((ROOT / "resources" / "models").glob("*/MODEL_CARD.md"))}
    assert len(cards) == 3
    for name, text in cards.items():
        section = text[text.index("## Licence"):].split("\n## ")[0]
        assert "Apache License 2.0" in section
        if name == "stet-en-open-minilm-bilstm-crf":
            assert "non-commercial" not in section and "public domain" in section and "paid work" in section
        else:
            assert "non-commercial" in section
            assert "TED text (CC BY-NC-ND 4.0)" in section and "Oyez text (CC BY-NC)" in section


@pytest.mark.skipif(not DATA_README.is_file(), reason="the training data's README is not beside the checkout")
def test_the_cards_licences_are_the_data_readmes():
    """The licence of each training source as the data's own README gives it."""
    rows = re.findall(r"^\| (\w+)\.txt\.gz \|[^|]*\|[^|]*\| ([^|]+) \|", DATA_README.read_text(), re.M)
    assert len(rows) == 5
    for card in sorted((ROOT / "resources" / "models").glob("*/MODEL_CARD.md")):
        text = card.read_text(encoding="utf-8")
        for source, licence in rows:
            assert re.search(rf"^\| {source} \|.*\| {re.escape(licence.strip())} \|", text, re.M), (card, source)


@pytest.mark.skipif(not (shutil.which("dpkg-deb") and shutil.which("rsvg-convert")),
                    reason="needs dpkg-deb and rsvg-convert (as `make dist` does)")
def test_the_deb_carries_a_machine_readable_copyright_file(tmp_path):
    """packaging/build-deb.sh run on a stand-in bundle: /usr/share/doc/stet/copyright in Debian's
    format 1.0, the code Apache-2.0, the models' weights non-commercial (the last stanza that
    matches a file is its), the licence's text beside it."""
    bundle = tmp_path / "bundle" / "stet"
    (bundle / "_internal" / "resources" / "models").mkdir(parents=True)
    (bundle / "stet").write_text("#!/bin/sh\n")
    (bundle / "stet").chmod(0o755)
    out = tmp_path / "out"
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    subprocess.run(["bash", ROOT / "packaging" / "build-deb.sh", bundle, out, "0.1.0", "https://example.org/stet/",
                    "Stet <stet@example.org>"], check=True, capture_output=True, env=env, timeout=120)
    (deb,) = out.glob("*.deb")
    root = tmp_path / "root"
    subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    doc = root / "usr" / "share" / "doc" / "stet"
    assert (doc / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    text = (doc / "copyright").read_text(encoding="utf-8")
    stanzas = [dict(re.findall(r"^([A-Za-z-]+): ?(.*)$", s, re.M)) for s in text.strip().split("\n\n")]
    header, *files = stanzas
    assert header["Format"] == "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    assert header["Upstream-Name"] == "Stet" and header["Source"] == "https://example.org/stet"
    by_files = {s["Files"]: s["License"] for s in files if "Files" in s}
    assert by_files["*"] == "Apache-2.0"
    models, open_model = [s for s in files if "Files" in s][-2:]
    assert models["Files"] == "opt/stet/_internal/resources/models/*"
    assert "non-commercial" in text.split(models["Files"])[1].split("\n\n")[0]
    # the open model (trained on public-domain text under an Apache-2.0 encoder): its own stanza, after
    # the models' one, so it is the one that matches its files
    assert open_model["Files"] == "opt/stet/_internal/resources/models/stet-en-open-minilm-bilstm-crf/*"
    assert open_model["License"] == "Apache-2.0" and "public-domain" in text.split(open_model["Files"])[1]
    # a short name used without its text has a stand-alone License paragraph
    assert any(s.get("License", "").startswith("Apache-2.0") and "Files" not in s for s in files)
    assert "/usr/share/common-licenses/Apache-2.0" in text
