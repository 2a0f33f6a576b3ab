"""How the corpus's independent word counts were first made (run by hand, not by the tests).

Each file is parsed by another library — pysubs2 for SubRip, WebVTT, SubStation Alpha, TTML and
SAMI, webvtt-py for YouTube's SBV — and a word is a whitespace-separated chunk of the visible
text holding a letter or digit. Where that count differs from Stet's, the file was read by hand
and the count set in manifest.json with a note saying why (pysubs2 counts a NOTE block as text,
keeps "&amp;" undecoded, drops a cue without milliseconds, reads rolling captions twice...).
Needs pysubs2 and webvtt-py: ``python tests/corpus/count_independently.py``.
"""

import sys
from pathlib import Path

HERE = Path(__file__).parent


def words(text: str) -> int:
    return sum(1 for chunk in text.split() if any(ch.isalnum() for ch in chunk))


def count(path: Path) -> int | str:
    import pysubs2
    import webvtt

    try:
        if path.suffix == ".sbv":
            return sum(words(c.text) for c in webvtt.from_sbv(str(path)).captions)
        fmt = {".dfxp": "ttml", ".smi": "sami"}.get(path.suffix)
        subs = pysubs2.load(str(path), format_=fmt)
        return sum(words(e.plaintext) for e in subs if not e.is_comment)
    except Exception as err:  # noqa: BLE001 - a survey: any failure is noted
        return f"error: {type(err).__name__}"


if __name__ == "__main__":
    for path in sorted((HERE / "files").rglob("*")):
        if path.is_file():
            print(f"{path.relative_to(HERE / 'files')}\t{count(path)}")
    sys.exit(0)
