"""Which files a batch reads and writes: inputs expanded, outputs mirrored, finished work skipped.

Pure path logic (no model, no reading of the files), so it is the same on one machine and on a
cluster, and a mistake in the command line is found before any model loads.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from editor.core.errors import UsageError, UserError


@dataclass(frozen=True)
class Item:
    """One input and where its output goes."""

    source: Path
    output: Path
    size: int  # bytes of the input, the weight of its share of the progress bar


@dataclass
class Plan:
    todo: list[Item] = field(default_factory=list)
    skipped: list[Item] = field(default_factory=list)  # output newer than input: already done
    refused: list[tuple[Item | None, str]] = field(default_factory=list)  # (item, why) not run

    @property
    def total(self) -> int:
        return len(self.todo) + len(self.skipped) + len(self.refused)


def _hidden(path: Path) -> bool:
    return path.name.startswith(".")


def _glob_root(pattern: str) -> Path:
    """The folder a glob's matches are named relative to: its longest part without wildcards."""
    parts = Path(pattern).parts
    fixed: list[str] = []
    for part in parts:
        if glob.has_magic(part):
            break
        fixed.append(part)
    if len(fixed) == len(parts):
        fixed = fixed[:-1]
    return Path(*fixed) if fixed else Path(".")


def _folder_files(folder: Path, recursive: bool, wanted: Callable[[Path], bool],
                  exclude: Path | None) -> Iterable[Path]:
    for dirpath, dirnames, filenames in os.walk(folder):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and
                             (exclude is None or (here / d).resolve() != exclude)) if recursive else []
        for name in sorted(filenames):
            path = here / name
            if not name.startswith(".") and wanted(path) and path.is_file():
                yield path


def expand_inputs(specs: Sequence[str], *, recursive: bool, wanted: Callable[[Path], bool],
                  exclude: Path | None = None) -> tuple[list[tuple[Path, Path]], list[str]]:
    """(file, root) pairs for the files named, in folders, or matched by globs, each once; and a
    message for each spec that named nothing.

    A file named directly is taken whatever its extension (reading it says if it cannot be read);
    in a folder or a glob only files ``wanted`` says yes to, without hidden ones. ``exclude`` (the
    output folder) is never entered, so outputs written inside an input folder are not read back."""
    seen: set[Path] = set()
    found: list[tuple[Path, Path]] = []
    missing: list[str] = []

    def add(path: Path, root: Path) -> None:
        key = path.resolve()
        if key not in seen:
            seen.add(key)
            found.append((path, root))

    for spec in specs:
        path = Path(spec)
        if path.is_dir():
            files = list(_folder_files(path, recursive, wanted, exclude))
            if not files:
                missing.append(f"{spec}: no file Stet can take here"
                               + ("" if recursive else " (sub-folders are read with --recursive)"))
            for f in files:
                add(f, path)
        elif path.exists():
            add(path, path.parent)
        elif glob.has_magic(spec):
            root = _glob_root(spec)
            matches = sorted(glob.glob(spec, recursive=recursive))
            n = len(found)
            for match in map(Path, matches):
                if match.is_dir():
                    for f in _folder_files(match, recursive, wanted, exclude):
                        add(f, root)
                elif wanted(match) and not _hidden(match):
                    add(match, root)
            if len(found) == n:
                missing.append(f"{spec}: matches no file Stet can take")
        else:
            missing.append(f"{spec}: no such file or folder")
    return found, missing


def output_for(source: Path, root: Path, out_dir: Path | None, ext: str) -> Path:
    """Where the output of ``source`` goes: its path below ``root`` mirrored under ``out_dir`` (or
    beside it without one), with the extension ``ext``."""
    try:
        relative = source.relative_to(root)
    except ValueError:
        relative = Path(source.name)
    base = (out_dir / relative) if out_dir is not None else source
    return base.with_name(Path(base.name).stem + ext) if base.suffix else base.with_name(base.name + ext)


def make_plan(specs: Sequence[str], *, out_dir: str | None, to: str | None, recursive: bool,
              force: bool, wanted: Callable[[Path], bool], writable: Callable[[str], bool]) -> Plan:
    """The batch to run. Raises UserError when the command names nothing to do.

    Without ``to`` an output keeps its input's extension (refused where that cannot be written).
    An existing output newer than its input is skipped unless ``force``; an older one is
    refused unless ``force``; an output that would replace an input is always refused."""
    out = Path(out_dir) if out_dir else None
    if out is not None and out.exists() and not out.is_dir():
        raise UsageError(f"{out_dir}: this is a file; with many inputs -o names a folder")
    if out is None and to is None:
        raise UsageError("with many inputs, give -o FOLDER for the outputs (or --to EXT to write "
                        "them beside the inputs)")
    if to is not None and not writable("x" + to):
        raise UsageError(f"--to {to}: Stet cannot write this kind of file")
    pairs, missing = expand_inputs(specs, recursive=recursive, wanted=wanted,
                                   exclude=out.resolve() if out is not None else None)
    if not pairs:
        raise UserError(missing[0] if len(missing) == 1 else
                        "no input to process: " + "; ".join(missing))
    if out is not None and not out.exists() and out.suffix and writable(str(out)):
        # -o single.txt with many inputs would otherwise become a folder named single.txt
        hint = f" (and --to {out.suffix.lstrip('.').lower()})" if to is None else ""
        n = len(pairs)
        given = (f"with {len(specs)} inputs" if len(specs) > 1 else
                 f"{specs[0]} gives {n} input{'s' if n != 1 else ''} (a batch), so")
        # An input that is not there is named first: `stet restore nothere.txt x.srt -o one.txt`
        # said only "-o one.txt: 1 input from a batch need a folder".
        lost = "; ".join(missing) + "; and " if missing else ""
        raise UsageError(f"{lost}{given}{',' if len(specs) > 1 else ''} -o {out_dir} must name a folder, not a file: give -o "
                         f"FOLDER{hint}")
    plan = Plan()
    plan.refused.extend((None, why) for why in missing)
    inputs = {p.resolve() for p, _ in pairs}
    input_ids = {_file_id(p) for p, _ in pairs} - {None}
    claimed: dict[Path, Path] = {}
    for source, root in pairs:
        ext = to or source.suffix.lower()
        output = output_for(source, root, out, ext)
        try:
            size = source.stat().st_size
        except OSError:
            size = 0
        item = Item(source, output, size)
        key = output.resolve()
        if not writable(str(output)):
            plan.refused.append((item, f"{source}: Stet cannot write {ext or 'files without an extension'}"
                                       "; choose the outputs' format with --to"))
        elif key in inputs or _file_id(output) in input_ids:  # a link to an input counts
            plan.refused.append((item, f"{source}: its output {output} would replace an input; "
                                       "give -o FOLDER or another --to"))
        elif key in claimed:
            plan.refused.append((item, f"{source}: its output {output} is also the output of "
                                       f"{claimed[key]}; rename one of them"))
        else:
            claimed[key] = source
            state = _existing(source, output)
            if state is None or force:
                plan.todo.append(item)
            elif state == "newer":
                plan.skipped.append(item)
            else:
                plan.refused.append((item, f"{output}: exists and is older than its input "
                                           f"{source.name}; --force replaces it"))
    return plan


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _existing(source: Path, output: Path) -> str | None:
    """None when ``output`` does not exist, "newer" when it is newer than ``source``, else "older"."""
    try:
        out_time = output.stat().st_mtime_ns
    except OSError:
        return None
    try:
        in_time = source.stat().st_mtime_ns
    except OSError:
        return "older"
    return "newer" if out_time >= in_time else "older"
