"""SAMI subtitles (.smi, .sami: Windows Media captions), read with pysubs2 (as SubStation Alpha
is, `ass.read_with_pysubs2`). A SAMI cue's italics, bold, underline and colours (<i>, <b>, <u>,
<s>, <font color>) are kept as SubRip's tags in its text: pysubs2 reads the times and <i>, <b>,
<u> but not <font color>, so the text is read again here. Stet does not write SAMI."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from editor.core.document.transcript import Transcript
from editor.core.formats._common import PathLike
from editor.core.formats.subtitles.ass import read_with_pysubs2
from editor.core.formats.subtitles.cues import Cue, checked_times, visible
from editor.core.formats.subtitles.reading import transcript_from_cues
from editor.core.formats.subtitles.styles import css_color


def read_sami(path: PathLike, encoding: str | None = None) -> Transcript:
    subs, _text, warnings, _ = read_with_pysubs2(path, encoding, "sami", "SAMI", "<sync", "no <SYNC> element")
    if subs is None:
        return transcript_from_cues([], path, warnings, "sami")
    styled = _SamiText.texts_of(_text, warnings)
    if len(styled) != len(subs.events):  # the two readers disagree on the <SYNC>s: no styles
        styled = ["\n".join(_escape(line) for line in event.plaintext.split("\n"))
                  for event in subs.events]
    cues: list[Cue] = []
    for event, text in zip(subs.events, styled):
        lines = tuple(visible(line) for line in text.split("\n") if visible(line).strip())
        if lines:
            cues.append(Cue(event.start / 1000, event.end / 1000, lines,
                            text="\n".join(line for line in text.split("\n") if visible(line).strip()),
                            ident=str(len(cues) + 1)))
    return transcript_from_cues(checked_times(cues, path, warnings), path, warnings, "sami")


#: A class's rule in the style sheet, its body up to the brace that closes it: matched in time
#: linear in the text (the rule was sought with a look-ahead to the next "}" from every "." before:
#: quadratic in a text of ".a{" without one: 20,000 of them, 80 s)
_CLASS_RULE = re.compile(r"\.([\w-]+)\s*\{([^{}]*)\}")
_LANG = re.compile(r"\blang\s*:", re.IGNORECASE)
_NAME = re.compile(r"[^}]*\bname\s*:\s*([^;}]+)", re.IGNORECASE)  # the last Name: in the rule


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class _SamiText(HTMLParser):
    """The text of each <SYNC> of a SAMI file as SubRip text: <br> a line break, a line break
    in the source a space (as HTML reads it), <i> <b> <u> <s> and <font color> kept as tags.
    Windows Media captions may hold a <P> per language in each <SYNC> (Class=ENUSCC,
    Class=FRFRCC): each language's text is kept apart, by its class."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[dict[str | None, str]] = []  # by <SYNC>: the text of each <P> class
        self.classes: list[str | None] = []  # the classes of <P>s, in the order first seen
        self._class: str | None = None
        self._fonts: list[bool] = []  # open <font>s: whether each wrote a tag

    @classmethod
    def texts_of(cls, text: str, warnings: list[str] | None = None) -> list[str]:
        """The text of each <SYNC>; of one language where there are more (the style sheet's
        first, said in ``warnings``)."""
        parser = cls()
        # fed, not closed, as pysubs2 reads the times: the same <SYNC>s, and html.parser's close()
        # takes time quadratic in tags left open at the end (8,000 "<a b='x": 14 s)
        parser.feed(text)
        chosen = parser._language(text, warnings)
        return ["\n".join(" ".join(line.split()) for line in
                          ("\n".join(t.values()) if chosen is None else t.get(chosen, "")).split("\n"))
                for t in parser.texts]

    def _language(self, text: str, warnings: list[str] | None) -> str | None:
        """The <P> class to read, None for all: a file whose <P>s are of two classes or more
        that the style sheet names as languages (``.FRFRCC { Name: French; lang: fr-FR }``)."""
        declared = {}
        for rule in _CLASS_RULE.finditer(text):  # ".FRFRCC { Name: French; lang: fr-FR; }"
            if _LANG.search(rule.group(2)):
                name = _NAME.match(rule.group(2))
                declared[rule.group(1).lower()] = (name.group(1) if name else rule.group(1)).strip()
        used = [c for c in self.classes if c in declared]
        if len(used) < 2:
            return None
        chosen = next(c for c in declared if c in used)
        if warnings is not None:
            warnings.append(f"the SAMI file holds {len(used)} languages ({', '.join(declared[c] for c in used)}); "
                            f"{declared[chosen]} was read")
        return chosen

    def _add(self, text: str) -> None:
        self.texts[-1][self._class] = self.texts[-1].get(self._class, "") + text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "sync":
            self.texts.append({})
            self._fonts = []
            self._class = None
        elif not self.texts:
            return
        elif tag == "p":
            self._class = (dict(attrs).get("class") or "").lower() or None
            if self._class not in self.classes:
                self.classes.append(self._class)
            if self.texts[-1].get(self._class, "").strip():
                self._add("\n")  # a paragraph begins a line
        elif tag == "br":
            self._add("\n")
        elif tag in ("b", "i", "u", "s"):
            self._add(f"<{tag}>")
        elif tag == "font":
            color = css_color(dict(attrs).get("color") or "")
            self._fonts.append(color is not None)
            if color is not None:
                self._add(f'<font color="#{color}">')

    def handle_endtag(self, tag: str) -> None:
        if not self.texts:
            return
        if tag in ("b", "i", "u", "s"):
            self._add(f"</{tag}>")
        elif tag == "font" and self._fonts and self._fonts.pop():
            self._add("</font>")

    def handle_data(self, data: str) -> None:
        if self.texts:
            self._add(_escape(" ".join(data.split("\n"))))
