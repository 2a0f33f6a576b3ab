"""`python -m editor.restore.lab.lease pack`: make `.gpu/` (git-ignored) for a GPU lease of the
`device` tool: the training text and dev set as xz (a lease carries at most 64 MiB with the
working tree), and the pure-Python packages the lease's image lacks, unpacked. Then run
`bash editor/restore/lab/lease.sh 500` there with `.gpu` carried (see the model card)."""

from __future__ import annotations

import argparse
import lzma
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from editor.restore.lab.train_config import DEFAULT_DATA_DIR

#: the sources that fit beside a working tree holding both shipped models (about 17 MB as xz)
LEASE_SOURCES = ("ted_saranyan", "scotus_oyez_2010plus", "presidential_speeches")
#: what `editor.core` and the training text need that the lease's image does not have
WHEELS = ("psygnal", "platformdirs", "num2words")


def pack(data: Path, out: Path, sources: tuple[str, ...]) -> None:
    import gzip

    (out / "data" / "train").mkdir(parents=True, exist_ok=True)
    (out / "data" / "dev").mkdir(parents=True, exist_ok=True)
    for name in sources:
        with gzip.open(data / "train" / f"{name}.txt.gz", "rb") as src, \
                lzma.open(out / "data" / "train" / f"{name}.txt.xz", "wb", preset=6) as dst:
            shutil.copyfileobj(src, dst)
    with open(data / "dev" / "dev2012.tsv", "rb") as src, lzma.open(out / "data" / "dev" / "dev2012.tsv.xz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    site = out / "site"
    site.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                        "--python-version", "3.12", "--implementation", "py", "-d", tmp, *WHEELS], check=True)
        for wheel in Path(tmp).glob("*.whl"):
            with zipfile.ZipFile(wheel) as z:
                z.extractall(site)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"{out}: {size / 1e6:.1f} MB to carry")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("what", choices=("pack",))
    p.add_argument("--data", type=Path, default=Path(DEFAULT_DATA_DIR))
    p.add_argument("--out", type=Path, default=Path(".gpu"))
    p.add_argument("--sources", nargs="+", default=list(LEASE_SOURCES))
    a = p.parse_args(argv)
    pack(a.data, a.out, tuple(a.sources))
    return 0


if __name__ == "__main__":
    sys.exit(main())
