"""SAMI subtitles (.smi, .sami: Windows Media captions), read with pysubs2 (as SubStation Alpha
is, `ass.read_with_pysubs2`). A SAMI cue's italics, bold, underline and colours (<i>, <b>, <u>,
<s>, <font color>) are kept as SubRip's tags in its text: pysubs2 reads the times and <i>, <b>,
<u> but not <font color>, so the text is read again here.

Written back into the file it came from as it came where its cues are still its own (`_patched`:
only the changed characters of a changed <SYNC> rewritten); otherwise written afresh by hand
(pysubs2 does not write SAMI): a <SYNC> a cue, a blank one where a cue ends before the next
begins, as Subtitle Edit writes them."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from editor.core.document.text import CHARACTER_REFERENCE
from editor.core.document.transcript import Transcript
from editor.core.formats._common import PathLike, atomic_write
from editor.core.formats.subtitles.ass import read_with_pysubs2
from editor.core.formats.subtitles.cues import Cue, checked_times, visible
from editor.core.formats.subtitles.layout import DEFAULT_LAYOUT, SubtitleLayout
from editor.core.formats.subtitles.prefixes import reads_as_name, written_prefix
from editor.core.formats.subtitles.reading import transcript_from_cues
from editor.core.formats.subtitles.srt import last_voice
from editor.core.formats.subtitles.styles import css_color
from editor.core.formats.subtitles.writeback import (Source, collapsed_map, encode, encode_as, patch_places, source_of,
                                                    unchanged)
from editor.core.formats.subtitles.writing import (OutCue, cues_to_write, html_lines, source_runs,
                                                   styling_warnings, timed_words)
from editor.core.render import NONE, RenderPolicy


def read_sami(path: PathLike, encoding: str | None = None) -> Transcript:
    subs, _text, warnings, as_read = read_with_pysubs2(path, encoding, "sami", "SAMI", "<sync", "no <SYNC> element")
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
    return transcript_from_cues(checked_times(cues, path, warnings), path, warnings, "sami", source=as_read)


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


# -- writing ----------------------------------------------------------------------------------------
_HEAD = ("<SAMI>\n<HEAD>\n<TITLE></TITLE>\n<STYLE TYPE=\"text/css\">\n<!--\n"
         "P { margin-left: 16pt; margin-right: 16pt; text-align: center; font-family: Arial; }\n"
         ".ENUSCC { Name: English; lang: en-US; SAMIType: CC; }\n-->\n</STYLE>\n</HEAD>\n<BODY>\n")
#: An HTML start or end tag, its attributes quoted or not (<SYNC Start=1000>, <P Class="ENUSCC">)
_HTML_TAG = re.compile(r"<(/?)([A-Za-z][\w:-]*)(?:\s[^<>]*)?/?>")
_SYNC = re.compile(r"<sync\b[^<>]*>", re.IGNORECASE)
_P_CLASS = re.compile(r"<p\s[^<>]*\bclass\s*=\s*[\"']?([\w-]+)", re.IGNORECASE)


def write_sami(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE, *,
               layout: SubtitleLayout = DEFAULT_LAYOUT) -> list[str]:
    """Write SAMI laid out by ``layout``: back into the file it came from where its cues are its
    own, else afresh; the warnings say what styling could not be written."""
    source = source_of(transcript, "sami", path)
    if source is not None and unchanged(transcript, policy, source):  # the file as it came
        atomic_write(path, encode_as("".join(text + end for text, end in source.lines), source)[0])
        return []
    patched = _patched(transcript, policy, path, source) if source is not None else None
    if patched is not None:
        atomic_write(path, patched[0])
        return patched[1]
    cues = cues_to_write(transcript, policy, path, layout)
    body, previous = [], None
    for n, cue in enumerate(cues):
        body.append(f"<SYNC Start={round(cue.start * 1000)}><P Class=ENUSCC>{_sami_text(cue, previous)}</P></SYNC>")
        if n + 1 == len(cues) or round(cues[n + 1].start * 1000) > round(cue.end * 1000):
            body.append(f"<SYNC Start={round(cue.end * 1000)}><P Class=ENUSCC>&nbsp;</P></SYNC>")
        previous = last_voice(cue)
    data, said = encode(_HEAD + "\n".join(body) + ("\n" if body else "") + "</BODY>\n</SAMI>\n", source)
    atomic_write(path, data)
    languages = len(set(m.group(1).lower() for m in _P_CLASS.finditer(
        "".join(text for text, _ in source.lines)))) if source is not None else 0
    return said + (["the SAMI file's other languages were not written: only the one read"] if languages > 1 else []) \
        + styling_warnings(cues, "sami", "SAMI", verbatim=False)


def _sami_text(cue: OutCue, previous: str | None) -> str:
    """A cue's text as SAMI holds it: HTML, its styles as tags (<i>, <b>, <u>, <s>, <font
    color>), its lines parted by <br>, "Ann: " where the speaker changes (as in SubRip)."""
    if cue.styled:
        lines = html_lines(cue.styled, colors=True, escape=True)
    else:
        lines = [f"<i>{html.escape(line, quote=False)}</i>" if cue.italic else html.escape(line, quote=False)
                 for line in cue.lines]
    for k, voice in enumerate(cue.line_voices()):
        if voice and (voice != previous or reads_as_name(cue.lines[k] if k < len(cue.lines) else lines[k])):
            lines[k] = f"{html.escape(written_prefix(voice), quote=False)}{lines[k]}"
        previous = voice
    return "<br>".join(lines)


def _patched(transcript: Transcript, policy: RenderPolicy, path: PathLike, source: Source
             ) -> tuple[bytes, list[str]] | None:
    """The SAMI file as it came, each changed cue's <SYNC> patched where its words changed
    (`writeback.patch_seen`), in its encoding with its byte-order mark. None where the file holds
    more than one language, where the cues are not its <SYNC>s with text one for one, where a
    cue's words were all deleted or moved, or cannot be found in it: then it is written afresh."""
    cues = transcript.metadata.cues
    text = "".join(line + end for line, end in source.lines)
    if not cues or len({m.group(1).lower() for m in _P_CLASS.finditer(text)}) > 1:
        return None
    opens = list(_SYNC.finditer(text))
    body_end = re.search(r"</body\s*>", text, re.IGNORECASE)
    places = []
    for k, found in enumerate(opens):
        end = opens[k + 1].start() if k + 1 < len(opens) else body_end.start() if body_end is not None \
            and body_end.start() > found.end() else len(text)
        seen = _seen_in_sync(text[found.end():end])
        if seen[0]:
            places.append((found.end(), end, seen))
    if len(places) != len(cues) or any(
            seen[0] != "\n".join(visible(line) for line in cue.text.split("\n"))
            for cue, (_, _, seen) in zip(cues, places)):
        return None
    runs = source_runs(transcript, timed_words(transcript, policy, path))
    patched = None if runs is None else patch_places(text, cues, places, transcript, runs, lambda t: html.escape(t, quote=False))
    return None if patched is None else encode_as(patched, source)


def _seen_in_sync(raw: str) -> tuple[str, list[int], list[int]]:
    """A <SYNC>'s content as the reader reads it (`_SamiText`: tags left out, <br> and a <P>
    after text as line breaks, references decoded, white space collapsed to one space and none
    at a line's ends, lines without words left out), and for each character seen where it is
    written in ``raw`` (a collapsed space spans its run)."""
    lines: list[list[tuple[str, int, int]]] = [[]]
    breaks: list[tuple[int, int]] = []
    at, n, worded = 0, len(raw), False  # worded: the line so far holds more than white space
    while at < n:
        ch = raw[at]
        tag = _HTML_TAG.match(raw, at) if ch == "<" else None
        if tag is not None:
            name = tag.group(2).lower()
            if not tag.group(1) and (name == "br" or name == "p" and worded):
                lines.append([])
                breaks.append((at, tag.end()))
                worded = False
            at = tag.end()
            continue
        ref = CHARACTER_REFERENCE.match(raw, at) if ch == "&" else None
        seen, end = (html.unescape(ref.group()), ref.end()) if ref is not None else (ch, at + 1)
        lines[-1].extend((shown, at, end) for shown in seen)
        worded = worded or not seen.isspace()
        at = end
    return collapsed_map(lines, breaks)
