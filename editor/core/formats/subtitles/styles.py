"""Styles of cue text: colours, bold, italic, underline, strike-through, WebVTT classes and
position, word by word, as they carry from one subtitle format to another."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from editor.core.document.text import unescape
from editor.core.document.transcript import SourceCue, Transcript
from editor.core.formats.subtitles.cues import BREAK_TAG, CUE_TAG, RUBY_TEXT, words_of_line
from editor.core.formats.whisper import CUE_FORMAT as WHISPER_CUES

#: Styles a word can carry from one subtitle format to another, in the order tags are opened:
#: WebVTT classes ("class:name", written back to WebVTT only), a colour ("color:#rrggbb"), bold,
#: italic, underline, strike-through.
STYLE_ORDER = ("class", "color", "b", "i", "u", "s")
_ON_OFF = frozenset({"i", "b", "u", "s"})
_HTML_STYLE = re.compile(r"<\s*(/?)\s*([ibus])(?:\.[^\s>]*)?\s*>", re.IGNORECASE)
_FONT = re.compile(r"<\s*(/?)\s*font\b([^<>]*)>", re.IGNORECASE)
_FONT_COLOR = re.compile(r"""color\s*=\s*["']?\s*#?([0-9a-fA-F]{6})\b""", re.IGNORECASE)
_OVERRIDE = re.compile(r"\\(\d?[a-z]+)([^\\}]*)", re.IGNORECASE)
_VTT_LINE = re.compile(r"(?:^|\s)line:(-?\d+(?:\.\d+)?)(%?)")
_VTT_ALIGN = re.compile(r"(?:^|\s)align:(start|left|end|right)\b")
_VTT_CLASS = re.compile(r"<\s*c((?:\.[^\s.<>]+)*)[^<>]*>", re.IGNORECASE)
#: CSS colour names subtitle files use (the WebVTT default classes and CSS's basic colours)
CSS_COLORS = {"white": "ffffff", "lime": "00ff00", "cyan": "00ffff", "aqua": "00ffff",
              "red": "ff0000", "yellow": "ffff00", "magenta": "ff00ff", "fuchsia": "ff00ff",
              "blue": "0000ff", "black": "000000", "green": "008000", "gray": "808080",
              "grey": "808080", "silver": "c0c0c0", "maroon": "800000", "olive": "808000",
              "navy": "000080", "purple": "800080", "teal": "008080", "orange": "ffa500"}
#: WebVTT's default text colour classes (<c.yellow>), coloured with no style sheet
VTT_DEFAULT_CLASSES = {name: CSS_COLORS[name] for name in
                       ("white", "lime", "cyan", "red", "yellow", "magenta", "blue", "black")}


def css_color(value: str) -> str | None:
    """A CSS or TTML colour ("#ff0", "#ffff00", "#ffff00ff", "rgb(255,255,0)", "rgba(...)",
    "yellow") as "rrggbb"; None when it is not one."""
    value = value.strip().lower()
    found = re.fullmatch(r"#([0-9a-f]{3,8})", value)
    if found:
        digits = found.group(1)
        if len(digits) in (3, 4):
            return "".join(ch * 2 for ch in digits[:3])
        return digits[:6] if len(digits) in (6, 8) else None
    found = re.fullmatch(r"rgba?\(\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*(?:[,/][^)]*)?\)",
                         value)
    if found:
        return "".join(f"{min(int(n), 255):02x}" for n in found.groups())
    return CSS_COLORS.get(value)


#: What a WebVTT class sets, as a style sheet gives it: "color" ("rrggbb"), and "b", "i", "u",
#: "s" on (True) or off (False)
ClassStyle = dict[str, "str | bool"]
#: Said when a class that sets nothing Stet carries is written outside WebVTT
VTT_CLASS_LOST = "WebVTT classes (<c.…>)"


def vtt_palette(header: object) -> dict[str, ClassStyle]:
    """What each WebVTT class sets: the default colour classes (<c.yellow>), then what a STYLE
    block gives it (``::cue(.loud) { color: #f80; font-weight: bold }``: colour, bold, italics,
    underline, strike-through; a later rule over an earlier), in the order a rule wins (the
    class with the last rule written last)."""
    palette: dict[str, ClassStyle] = {name: {"color": color} for name, color in VTT_DEFAULT_CLASSES.items()}
    if not isinstance(header, str):
        return palette
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", header,
                                                                     flags=re.DOTALL)):
        sets = _declarations(body)
        if not sets:
            continue
        selectors = selectors[selectors.find("::cue"):]  # after "STYLE" and blank lines
        for selector in selectors.split(","):
            found = re.fullmatch(r"\s*::cue\(\s*c?\.([\w-]+)\s*\)\s*", selector)
            if found:
                merged = palette.pop(found.group(1), {})
                merged.update(sets)
                palette[found.group(1)] = merged
    return palette


def _declarations(body: str) -> ClassStyle:
    """The properties of a CSS rule's body that Stet carries (see `vtt_palette`)."""
    out: ClassStyle = {}
    for name, value in re.findall(r"(?:^|;)\s*([a-z-]+)\s*:\s*([^;!]+)", body.strip(), re.IGNORECASE):
        name, value = name.lower(), value.strip().lower()
        if name == "color" and css_color(value) is not None:
            out["color"] = css_color(value) or ""
        elif name == "font-weight":
            out["b"] = value in ("bold", "bolder") or (value.isdigit() and int(value) >= 600)
        elif name == "font-style":
            out["i"] = value in ("italic", "oblique")
        elif name in ("text-decoration", "text-decoration-line"):
            words = value.split()
            out["u"], out["s"] = "underline" in words, "line-through" in words
    return out


@dataclass(frozen=True, slots=True)
class CueStyle:
    """The styling of a cue as read: each word's styles (aligned with ``SourceCue.words``), the
    cue's position as a numpad alignment ({\\an8}: 8 is top centre; None for the default, bottom
    centre), and what it held that no format Stet writes carries (said when written)."""

    words: tuple[frozenset[str], ...]
    align: int | None = None
    lost: frozenset[str] = frozenset()
    #: the styles of the mark after each word ("night?" in italics, "ever" underlined but not
    #: its "."); None where the word had no mark
    marks: tuple[frozenset[str] | None, ...] = ()


def cue_style(text: str, words: Sequence[str], timing: str | None = None,
              fmt: str = "", palette: Mapping[str, ClassStyle] | None = None) -> CueStyle | None:
    """The styling of a cue's text (SubRip or WebVTT tags, SubStation override blocks), word by
    word; None when its words cannot be matched to ``words`` (the cue's words as read). A
    WebVTT class (<c.name>) is kept, and gives what it sets in ``palette`` (see `vtt_palette`)."""
    lines, align, lost = _styled_lines(text, palette)
    styled: list[frozenset[str]] = []
    marks: list[frozenset[str] | None] = []
    for line, chars in lines:
        cursor = 0
        for p in words_of_line(line):
            found = line.find(p.surface, cursor)
            if found < 0:
                return None
            end = found + len(p.surface)
            spans = chars[found:end]
            styled.append(frozenset.intersection(*spans) if spans else frozenset())
            mark = chars[end:end + len(p.punct)] if p.punct and line.startswith(p.punct, end) else []
            marks.append(frozenset.intersection(*mark) if mark else None)
            cursor = end + len(mark)
    if len(styled) != len(words):
        return None
    if fmt == "vtt" and timing and align is None:
        align = _vtt_align(timing)
    return CueStyle(tuple(styled), align, lost, tuple(marks))


def _tagged(cue: SourceCue) -> bool:
    """A cue whose text has tags (a Whisper segment's is text); read leniently, as the view
    reads cues (a test's stand-in may lack fields)."""
    text = getattr(cue, "text", "")
    return getattr(cue, "format", "") != WHISPER_CUES and isinstance(text, str) and ("<" in text or "{" in text)


class WordStyles:
    """The styles each word read from a styled cue still has, by token id (``get``): (the
    word's, the mark's after it; None where no mark was read), each a set of italics "i", bold
    "b", underline "u", strike-through "s", a colour "color:#rrggbb", WebVTT classes. Words
    typed since, words of cues without tags and a Whisper transcript's segments (text, not
    tags) have none. A cue's tags are read when one of its words is first asked for: all of
    5,000 cues at once took 140 ms, and the editor asks as it puts the text on screen."""

    def __init__(self, transcript: Transcript) -> None:
        self._cues = [c for c in transcript.metadata.cues if _tagged(c)]
        # token id -> (cue, the word's place in it)
        self._at = {token_id: (n, k) for n, c in enumerate(self._cues) for k, token_id in enumerate(c.token_ids)}
        self._read: dict[int, CueStyle | None] = {}
        self._header = transcript.metadata.extra.get("vtt_header")
        self._palette: dict[str, ClassStyle] | None = None

    def __bool__(self) -> bool:
        return bool(self._at)

    def get(self, token_id: int) -> tuple[frozenset[str], frozenset[str] | None] | None:
        """(the word's styles, its mark's) of token ``token_id``, None when it has none."""
        at = self._at.get(token_id)
        if at is None:
            return None
        n, k = at
        if n in self._read:
            style = self._read[n]
        else:
            if self._palette is None:
                self._palette = vtt_palette(self._header)
            cue = self._cues[n]
            style = self._read[n] = cue_style(cue.text, cue.words, cue.timing, cue.format, self._palette)
        if style is None or k >= len(style.words):
            return None
        mark = style.marks[k] if k < len(style.marks) else None
        return (style.words[k], mark) if style.words[k] or mark else None


def piece_styles(text: str, palette: Mapping[str, ClassStyle] | None = None
                 ) -> tuple[list[list[tuple[str, frozenset[str]]]], int | None, frozenset[str]]:
    """The styling of a cue without words ("---" in a colour, "♪ ♪" in italics): its lines as
    pieces split at spaces, each with the styles all its characters share, the cue's position
    and what no format carries; read by the same tags as `cue_style`."""
    lines, align, lost = _styled_lines(text, palette)
    return [[(m.group(), frozenset.intersection(*chars[m.start():m.end()]))
             for m in re.finditer(r"\S+", line)] for line, chars in lines], align, lost


def _styled_lines(text: str, palette: Mapping[str, ClassStyle] | None
                  ) -> tuple[list[tuple[str, list[frozenset[str]]]], int | None, frozenset[str]]:
    """A cue's text read by its tags (SubRip/WebVTT tags, SubStation override blocks, WebVTT
    classes): its lines that are not blank, each with the styles of every character, the cue's
    position and what no format carries. Shared by `cue_style` and `piece_styles`."""
    stack: dict[str, int] = {}
    colors: list[str] = []
    classes: list[tuple[str, bool, tuple[str, ...]]] = []  # open <c>s: classes, coloured, styles
    palette = vtt_palette(None) if palette is None else palette
    align: int | None = None
    lost: set[str] = set()
    lines: list[tuple[str, list[frozenset[str]]]] = []
    for raw in BREAK_TAG.sub("\n", RUBY_TEXT.sub("", text)).split("\n"):
        chars: list[frozenset[str]] = []
        line = ""
        at = 0
        for tag in CUE_TAG.finditer(raw):
            piece = unescape(raw[at:tag.start()])
            line += piece
            chars.extend([_current(stack, colors, classes)] * len(piece))
            at = tag.end()
            if _VTT_CLASS.fullmatch(tag.group(0)) or re.fullmatch(r"<\s*/\s*c\s*>", tag.group(0)):
                _apply_class(tag.group(0), stack, colors, classes, palette, lost)
            else:
                align = _apply_tag(tag.group(0), stack, colors, lost, align)
        piece = unescape(raw[at:])
        line += piece
        chars.extend([_current(stack, colors, classes)] * len(piece))
        if line.strip():
            lines.append((line, chars))
    return lines, align, frozenset(lost)


def _current(stack: dict[str, int], colors: list[str],
             classes: Sequence[tuple[str, bool, tuple[str, ...]]] = ()) -> frozenset[str]:
    on = {name for name, depth in stack.items() if depth > 0}
    if colors and colors[-1]:
        on.add(f"color:#{colors[-1]}")
    on.update(f"class:{names}" for names, _, _ in classes if names)
    return frozenset(on)


def class_sets(names: Sequence[str], palette: Mapping[str, ClassStyle]) -> ClassStyle:
    """What classes set together: each property from the class whose rule wins (the later in
    ``palette``)."""
    rank = {name: k for k, name in enumerate(palette)}
    out: ClassStyle = {}
    for name in sorted((n for n in names if n in palette), key=rank.__getitem__):
        out.update(palette[name])
    return out


def _apply_class(tag: str, stack: dict[str, int], colors: list[str],
                 classes: list[tuple[str, bool, tuple[str, ...]]], palette: Mapping[str, ClassStyle],
                 lost: set[str]) -> None:
    """Open (<c.loud.yellow>) or close (</c>) a WebVTT class span: its classes are kept, and
    what they set (``palette``: colour, bold...) is the words'. A class that sets nothing
    Stet carries is said lost outside WebVTT."""
    opened = _VTT_CLASS.fullmatch(tag)
    if opened is None:
        if classes:
            _, colored, pushed = classes.pop()
            if colored and colors:
                colors.pop()
            for name in pushed:
                stack[name] = max(0, stack.get(name, 0) - 1)
        return
    names = [n for n in opened.group(1).split(".") if n]
    sets = class_sets(names, palette)
    color = sets.get("color")
    if isinstance(color, str) and color:
        colors.append(color)
    pushed = tuple(k for k in ("b", "i", "u", "s") if sets.get(k) is True)
    for name in pushed:
        stack[name] = stack.get(name, 0) + 1
    if names and not sets:
        lost.add(VTT_CLASS_LOST)
    classes.append((".".join(names), isinstance(color, str) and bool(color), pushed))


def _apply_tag(tag: str, stack: dict[str, int], colors: list[str], lost: set[str],
               align: int | None) -> int | None:
    """Apply one tag to the open styles; the cue's alignment after it."""
    html_style = _HTML_STYLE.fullmatch(tag)
    if html_style:
        name = html_style.group(2).lower()
        stack[name] = max(0, stack.get(name, 0) + (-1 if html_style.group(1) else 1))
        return align
    font = _FONT.fullmatch(tag)
    if font:
        if font.group(1):
            if colors:
                colors.pop()
            return align
        attributes = font.group(2)
        found = _FONT_COLOR.search(attributes)
        color = found.group(1).lower() if found else None
        if re.search(r"\b(?:face|size)\s*=", attributes, re.IGNORECASE):
            lost.add("font faces and sizes")
        named = re.search(r"""\bcolou?r\s*=\s*["']?\s*([a-z]*)""", attributes, re.IGNORECASE)
        if color is None and named:  # <font color="yellow">: a CSS name, else said lost
            color = css_color(named.group(1))
            if color is None:
                lost.add("colours by name")
        colors.append(color if color else (colors[-1] if colors else ""))
        return align
    if tag.startswith("{"):
        for name, value in _OVERRIDE.findall(tag):
            name, value = name.lower(), value.strip()
            if name == "an" and value.isdigit() and 1 <= int(value) <= 9:
                align = None if int(value) == 2 else int(value)
            elif name in _ON_OFF and (value == "" or value.isdigit()):
                # \i1 on, \i0 or \i (the style's default) off; \b700 is bold, \b400 is not
                stack[name] = int(value.isdigit() and (int(value) == 1 or int(value) >= 600))
            elif name in ("c", "1c"):
                found = re.match(r"&?H?([0-9a-fA-F]{1,8})", value)
                colors.clear()
                if found:
                    bgr = found.group(1).rjust(6, "0")[-6:]
                    colors.append(f"{bgr[4:6]}{bgr[2:4]}{bgr[0:2]}".lower())
            elif name == "r":
                stack.clear()
                colors.clear()
            else:
                lost.add("SubStation override tags such as \\" + (name if len(name) <= 5 else name[:2]))
        return align
    return align


def _vtt_align(timing: str) -> int | None:
    """A WebVTT cue's settings as a numpad alignment: a line at the top (line:0, or within the
    top fifth) is 8, 7 or 9 by its align; None otherwise (kept as written in WebVTT only)."""
    line = _VTT_LINE.search(timing)
    if line is None:
        return None
    value = float(line.group(1))
    if not ((line.group(2) == "%" and value <= 20) or (not line.group(2) and 0 <= value <= 1)):
        return None
    side = _VTT_ALIGN.search(timing)
    return {"start": 7, "left": 7, "end": 9, "right": 9}.get(side.group(1), 8) if side else 8
