"""How often a line of real legacy text is valid UTF-8 by chance, and so would be read as UTF-8
by `decoding._decode_mixed` in a file that also holds lines that are not (issue: files mixing
UTF-8 and Windows-1252 lines).

Run on purpose (not part of the test suite):
    .venv/bin/python tests/perf/bench_mixed_encodings.py [--locale-dir /usr/share/locale]

The text is real: the translated messages of every gettext catalogue (.mo) on this machine for
languages written in a single-byte Windows code page (French, German, Spanish... in Windows-1252;
Polish, Czech, Hungarian... in Windows-1250; Turkish in Windows-1254). Each message is split into
lines, each line encoded in its language's code page (lines the code page cannot hold are left
out), and the lines with a byte above ASCII are counted, with those of them that decode as UTF-8 and those the
reader takes for UTF-8 (`decoding.utf8_line`: valid, no word mixing Latin with another script).
The second figure is whole files: the catalogue's lines joined, as a legacy file; how many such
files hold at least one line valid as UTF-8 (it would then be read as mixed).
"""

from __future__ import annotations

import argparse
import gettext
import sys
from collections import Counter
from pathlib import Path

from editor.core.decoding import utf8_line

CODE_PAGES = {
    "cp1252": ["fr", "de", "es", "it", "pt", "pt_BR", "nl", "sv", "da", "nb", "fi", "ca", "is", "ga"],
    "cp1250": ["pl", "cs", "hu", "ro", "hr", "sk", "sl"],
    "cp1254": ["tr"],
}


def _messages(mo: Path) -> list[str]:
    try:
        with mo.open("rb") as f:
            catalog = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    except (OSError, UnicodeDecodeError, ValueError):  # a catalogue in an old charset or broken: left out
        return []
    return [v for k, v in catalog.items() if k and isinstance(v, str)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--locale-dir", default="/usr/share/locale", type=Path)
    args = parser.parse_args()
    lines, valid, taken = Counter(), Counter(), Counter()
    files, mixed_files = Counter(), Counter()
    examples: list[str] = []
    for codec, languages in CODE_PAGES.items():
        for language in languages:
            for mo in sorted((args.locale_dir / language / "LC_MESSAGES").glob("*.mo")):
                any_valid = False
                any_legacy = False
                for message in _messages(mo):
                    for line in message.splitlines():
                        try:
                            data = line.encode(codec)
                        except UnicodeEncodeError:
                            continue
                        if data.isascii():
                            continue
                        any_legacy = True
                        lines[codec] += 1
                        try:
                            data.decode("utf-8")
                        except UnicodeDecodeError:
                            continue
                        valid[codec] += 1
                        if not utf8_line(data):  # the reader's own test: valid, and no word
                            continue             # mixing Latin with another script
                        taken[codec] += 1
                        any_valid = True
                        if len(examples) < 12:
                            examples.append(f"{language} {mo.name}: {line[:60]!r}")
                if any_legacy:
                    files[codec] += 1
                    mixed_files[codec] += any_valid
    for codec in CODE_PAGES:
        share = valid[codec] / lines[codec] if lines[codec] else 0.0
        print(f"{codec}: {lines[codec]:,} lines with letters beyond ASCII, {valid[codec]:,} valid "
              f"UTF-8 ({share:.4%}), {taken[codec]} of them read as UTF-8 by the reader's test; "
              f"{files[codec]} catalogues, {mixed_files[codec]} with a line read as UTF-8")
    for example in examples:
        print("  e.g.", example)
    return 0


if __name__ == "__main__":
    sys.exit(main())
