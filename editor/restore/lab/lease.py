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


#: what the `device` tool carries at most: the working tree and the carried folders together
CARRY_LIMIT = 64 * 2**20
#: the file that marks a folder as this command's (it is emptied before packing again)
MARKER = "LEASE_PACK"


class PackError(Exception):
    """A pack that cannot be made or would not travel (one line for the person)."""


def tree_bytes(root: Path) -> int:
    """The size of the files git tracks under `root`: what a lease sends besides the carried paths."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout.split(b"\0")
    return sum((root / n.decode()).stat().st_size for n in names if n and (root / n.decode()).is_file())


def _emptied(out: Path) -> None:
    """`out` made empty: a previous pack's files (an older pack has data/ and no marker) would
    travel too, as an earlier one's 23 MB encoder folder nearly did; anything else is refused."""
    if out.is_dir() and any(out.iterdir()):
        if not ((out / MARKER).is_file() or (out / "data" / "train").is_dir()):
            raise PackError(f"{out}: not empty and not a lease pack; give another --out")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("made by python -m editor.restore.lab.lease pack; emptied by the next one\n")


def pack(data: Path, out: Path, sources: tuple[str, ...], wheels: tuple[str, ...] = WHEELS,
         tree: int = 0) -> int:
    """Write the pack to `out` (emptied first); returns its size in bytes. `tree`: the bytes of the
    working tree it travels with; a pack that would take the two over the lease's limit is an error."""
    import gzip

    missing = [s for s in sources if not (data / "train" / f"{s}.txt.gz").is_file()]
    if missing or not (data / "dev" / "dev2012.tsv").is_file():
        raise PackError(f"{data}: no training text {', '.join(missing)}" if missing else f"{data}: no dev/dev2012.tsv")
    _emptied(out)
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
    if wheels:
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                            "--python-version", "3.12", "--implementation", "py", "-d", tmp, *wheels], check=True)
            for wheel in Path(tmp).glob("*.whl"):
                with zipfile.ZipFile(wheel) as z:
                    z.extractall(site)
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    if tree and size + tree > CARRY_LIMIT:
        raise PackError(f"{out}: {size / 1e6:.1f} MB with the working tree's {tree / 1e6:.1f} MB is over the lease's "
                        f"{CARRY_LIMIT / 1e6:.1f} MB; pack fewer --sources")
    return size


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("what", choices=("pack",))
    p.add_argument("--data", type=Path, default=Path(DEFAULT_DATA_DIR))
    p.add_argument("--out", type=Path, default=Path(".gpu"))
    p.add_argument("--sources", nargs="+", default=list(LEASE_SOURCES))
    a = p.parse_args(argv)
    try:
        tree = tree_bytes(Path.cwd())
    except (OSError, subprocess.CalledProcessError):
        tree = 0  # not a git checkout: the size is said without the tree's
    try:
        size = pack(a.data, a.out, tuple(a.sources), tree=tree)
    except PackError as err:
        print(f"lease pack: {err}", file=sys.stderr)
        return 1
    with_tree = f", {(size + tree) / 1e6:.1f} MB with the working tree (at most {CARRY_LIMIT / 1e6:.1f})" if tree else ""
    print(f"{a.out}: {size / 1e6:.1f} MB to carry{with_tree}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
