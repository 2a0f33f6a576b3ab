"""Issue 41's audit with the shipped model: the subtitle files of `tests/core/formats/subtitles/subtitle_programs.py`
(shaped as Subtitle Edit, YouTube, Netflix, Vimeo, Whisper, Amara, ffmpeg and Windows tools write
them) restored by `stet` to their own format, and checked as a captioner would.

Run on purpose (not part of the test suite; about 30 s on two cores):
    PYTHONPATH=$PWD .venv/bin/python tests/perf/bench_writeback_programs.py [--code TREE] [--corpus]

For each file, four runs of the command line, in one folder each (one model load a run):
- `stet restore IN -o OUT --min-confidence 0.9` (and `0`, and `--no-keep-author`): the same file
  in everything but the marks and letter case (BOM, line ends, header, blocks, ids, time lines,
  tags, every line in its place);
- `stet restore IN -o OUT --min-confidence 1.0`, and `stet restore --to .stet` then `stet convert
  --policy none`: byte for byte the file; `stet convert --policy 90%` from the project: the same
  bytes as the restore at 0.9;
- read: every word of every cue there (each once for rolling captions), no credit line read as a
  speaker.
A file passes when all hold. ``--code TREE`` runs another checkout's `stet` (a "before" figure)
on the same files; ``--corpus`` runs the corpus's SubRip and WebVTT files instead (there the word
check is looser: its readers are lenient on purpose, see tests/corpus/manifest.json).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]
#: Words of the files' credit lines: no one says them
CREDITED = {"@handle", "n17t01", "www.example-subs.org", "explosiveskull"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--code", type=Path, default=HERE, help="the tree whose stet runs (default: this one)")
    parser.add_argument("--corpus", action="store_true", help="the corpus's .srt and .vtt files instead")
    args = parser.parse_args()
    sys.path[:0] = [str(args.code), str(HERE)]
    from editor.core.formats import read_any
    from tests.core.formats.subtitles.subtitle_programs import FILES
    from tests.core.formats.test_writeback_programs import ROLLING, _letters, _without_marks_and_case, _words_in_file

    files = FILES
    if args.corpus:
        corpus = HERE / "tests" / "corpus"
        files = {e["file"].replace("/", "__"): (corpus / "files" / e["file"]).read_bytes()
                 for e in json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))
                 if e["expect"] == "intact" and Path(e["file"]).suffix in (".srt", ".vtt")}
    root = Path(tempfile.mkdtemp(prefix="stet-writeback-"))
    src, projects = root / "in", root / "in-projects"
    src.mkdir()
    projects.mkdir()
    for name, data in files.items():
        (src / name).write_bytes(data)
        # one project a file: film.srt and film.vtt would both make film.stet
        (projects / (name.replace(".", "-") + Path(name).suffix)).write_bytes(data)
    env = dict(os.environ, PYTHONPATH=str(args.code))

    def stet(*argv: str) -> None:
        done = subprocess.run([sys.executable, "-m", "editor", *argv], env=env, cwd=args.code,
                              capture_output=True, text=True)
        if done.returncode:
            print(f"stet {' '.join(argv[:1])}: {done.stderr.strip()[-300:]}", file=sys.stderr)

    common = ("-j", "1", "-q", "--any-language")
    for folder, extra in (("sure", ("--min-confidence", "0.9")), ("all", ("--min-confidence", "0")),
                          ("noauthor", ("--no-keep-author",)), ("none", ("--min-confidence", "1.0"))):
        stet("restore", str(src), "-o", str(root / folder), *extra, *common)
    stet("restore", str(projects), "-o", str(root / "stet"), "--to", ".stet", *common)
    for folder in ("conv", "conv90"):
        (root / folder).mkdir()
    for project in sorted((root / "stet").glob("*.stet")):
        stem = project.name.removesuffix(".stet")
        name = stem[::-1].replace("-", ".", 1)[::-1]
        stet("convert", str(project), "-o", str(root / "conv" / name), "--policy", "none")
        stet("convert", str(project), "-o", str(root / "conv90" / name), "--policy", "90%")

    failed = 0
    for name, data in files.items():
        problems = []
        out = {kind: (root / kind / name).read_bytes() if (root / kind / name).exists() else None
               for kind in ("sure", "all", "noauthor", "none", "conv", "conv90")}
        for kind in ("none", "conv"):
            if out[kind] != data:
                problems.append(f"{kind}: not the same bytes")
        for kind in ("sure", "all", "noauthor"):
            if out[kind] is None or _without_marks_and_case(out[kind]) != _without_marks_and_case(data):
                problems.append(f"{kind}: more than marks and case changed")
        if out["conv90"] != out["sure"]:
            problems.append("convert --policy 90% differs from restore --min-confidence 0.9")
        doc = read_any(src / name)
        speakers = {t.speaker for t in doc.tokens if t.speaker}
        read = _letters("".join(t.text for t in doc.tokens))
        shown = _words_in_file(data, speakers)
        if name in ROLLING or args.corpus:
            letters = iter(shown)
            lost = not read or not all(ch in letters for ch in read)
        else:
            lost = read != shown
        if lost:
            problems.append("read: words missing or more than shown")
        if speakers & {"Subtitles", "Translation", "Sync", "Reviewer"}:
            problems.append(f"read: a credit as a speaker ({', '.join(sorted(speakers))})")
        credited = [t.text for t in doc.tokens if t.speaker and t.text in CREDITED]
        if credited:
            problems.append(f"read: credits said by a speaker ({', '.join(credited)})")
        failed += bool(problems)
        print(f"{'FAIL' if problems else 'ok  '} {name} {'; '.join(problems)}")
    print(f"{len(files) - failed} of {len(files)} files faithful ({args.code})")
    shutil.rmtree(root, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
