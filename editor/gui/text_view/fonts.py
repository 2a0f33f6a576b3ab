"""Whether the fonts installed can show a transcript's script: Korean words drawn as empty boxes
read as a broken file, so a script no installed font has is said, with a font to install."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics

WS = QFontDatabase.WritingSystem


@dataclass(frozen=True, slots=True)
class Script:
    """A script, the writing system Qt finds fonts for it by, and a font to install for it."""

    name: str  # as said: "Korean"
    system: QFontDatabase.WritingSystem
    font: str  # "Noto Sans CJK KR (fonts-noto-cjk)": its family and a Debian/Ubuntu package


_CJK = "fonts-noto-cjk"
_CORE = "fonts-noto-core"
#: By the first word of a character's Unicode name ("HANGUL SYLLABLE HAN").
SCRIPTS = {
    "HANGUL": Script("Korean", WS.Korean, f"Noto Sans CJK KR ({_CJK})"),
    "HIRAGANA": Script("Japanese", WS.Japanese, f"Noto Sans CJK JP ({_CJK})"),
    "KATAKANA": Script("Japanese", WS.Japanese, f"Noto Sans CJK JP ({_CJK})"),
    "CJK": Script("Chinese", WS.SimplifiedChinese, f"Noto Sans CJK SC ({_CJK})"),
    "ARABIC": Script("Arabic", WS.Arabic, f"Noto Sans Arabic ({_CORE})"),
    "HEBREW": Script("Hebrew", WS.Hebrew, f"Noto Sans Hebrew ({_CORE})"),
    "DEVANAGARI": Script("Devanagari (Hindi, Marathi…)", WS.Devanagari, f"Noto Sans Devanagari ({_CORE})"),
    "BENGALI": Script("Bengali", WS.Bengali, f"Noto Sans Bengali ({_CORE})"),
    "GURMUKHI": Script("Gurmukhi (Punjabi)", WS.Gurmukhi, f"Noto Sans Gurmukhi ({_CORE})"),
    "GUJARATI": Script("Gujarati", WS.Gujarati, f"Noto Sans Gujarati ({_CORE})"),
    "TAMIL": Script("Tamil", WS.Tamil, f"Noto Sans Tamil ({_CORE})"),
    "TELUGU": Script("Telugu", WS.Telugu, f"Noto Sans Telugu ({_CORE})"),
    "KANNADA": Script("Kannada", WS.Kannada, f"Noto Sans Kannada ({_CORE})"),
    "MALAYALAM": Script("Malayalam", WS.Malayalam, f"Noto Sans Malayalam ({_CORE})"),
    "SINHALA": Script("Sinhala", WS.Sinhala, f"Noto Sans Sinhala ({_CORE})"),
    "THAI": Script("Thai", WS.Thai, f"Noto Sans Thai ({_CORE})"),
    "LAO": Script("Lao", WS.Lao, f"Noto Sans Lao ({_CORE})"),
    "KHMER": Script("Khmer", WS.Khmer, f"Noto Sans Khmer ({_CORE})"),
    "MYANMAR": Script("Burmese", WS.Myanmar, f"Noto Sans Myanmar ({_CORE})"),
    "TIBETAN": Script("Tibetan", WS.Tibetan, f"Noto Serif Tibetan ({_CORE})"),
    "GEORGIAN": Script("Georgian", WS.Georgian, f"Noto Sans Georgian ({_CORE})"),
    "ARMENIAN": Script("Armenian", WS.Armenian, f"Noto Sans Armenian ({_CORE})"),
    "GREEK": Script("Greek", WS.Greek, f"Noto Sans ({_CORE})"),
    "CYRILLIC": Script("Cyrillic", WS.Cyrillic, f"Noto Sans ({_CORE})"),
}


def _families(system: QFontDatabase.WritingSystem) -> list[str]:
    return QFontDatabase.families(system)


def missing_scripts(text: str, font: QFont,
                    families: Callable[[QFontDatabase.WritingSystem], Iterable[str]] = _families
                    ) -> list[Script]:
    """The scripts of ``text`` that neither ``font`` nor any installed font (``families``: the
    fonts Qt falls back on for a writing system) can draw, in the order they first appear."""
    metrics = QFontMetrics(font)
    found: dict[str, Script] = {}
    checked: set[str] = set()  # scripts looked at
    seen: set[str] = set()  # characters looked at
    for ch in text:
        if ch < "\u0370" or ch in seen:  # Latin and punctuation: every font has them
            continue
        seen.add(ch)
        script = SCRIPTS.get(unicodedata.name(ch, "").split(" ", 1)[0])
        if script is None or script.name in checked or metrics.inFontUcs4(ord(ch)):
            continue
        checked.add(script.name)
        if not any(True for _ in families(script.system)):
            found[script.name] = script
    return list(found.values())


def font_advice(text: str, font: QFont,
                families: Callable[[QFontDatabase.WritingSystem], Iterable[str]] = _families) -> str | None:
    """One line saying which font to install for the scripts of ``text`` no font here can draw
    (their words show as empty boxes); None when every one can be drawn."""
    missing = missing_scripts(text, font, families)
    names = [s.name for s in missing]
    if "Chinese" in names and ("Japanese" in names or "Korean" in names):
        missing = [s for s in missing if s.name != "Chinese"]  # its Han characters: kanji, hanja
    if not missing:
        return None
    packages: dict[str, list[str]] = {}  # "fonts-noto-cjk": ["Noto Sans CJK KR", ...]
    for s in missing:
        family, package = s.font.rstrip(")").split(" (")
        packages.setdefault(package, [])
        if family not in packages[package]:
            packages[package].append(family)
    fonts = "; ".join(f"{' or '.join(families)} ({package})" for package, families in packages.items())
    said = " and ".join(dict.fromkeys(s.name for s in missing))
    return (f"Install a font for {said}, such as {fonts}: without one its words show as empty "
            "boxes (the text itself is intact)")
