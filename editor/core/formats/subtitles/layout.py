"""How the subtitles Stet writes are laid out: one frozen record, made once where the person says
how (`stet convert/restore/transcribe --max-line-length N --max-cps N`, a batch, the Export
dialog) and handed to every subtitle writer and to write-back. It is the one place a width, a
cue's length or a reading speed is decided; nothing else in Stet names a number of characters.

Its defaults are the rules Stet always wrote by:

- a cue Stet cuts afresh has at most 2 lines of 42 characters and lasts at most 7 s, and at least
  1 s where the cues around leave room (the BBC's and Netflix's 42 and two lines);
- a changed cue of a file read in keeps its own line breaks while each line is no longer than the
  longer of 42 and the cue's own longest line, and no more lines than it had (or 2);
- written back into its own file (SubRip, WebVTT, SubViewer), a changed cue's lines may be as long
  as the file's widest line, and at least 32 (a CEA-608 caption row, the narrowest in common use);
- no reading speed is enforced, and no gap is kept between cues.

``max_line_length`` set replaces all three widths, for the lines Stet lays out: a cue cut afresh,
or a changed cue whose words were typed in; a cue whose words are as read, or where only marks and
capitals changed, keeps the author's lines. ``max_cps`` set keeps each cue Stet cuts afresh up
long enough to be read at that many characters a second, where the cue after it leaves room (a
cue of a file read in keeps its times); ``min_gap`` set ends each such cue that many
milliseconds before the next where they do not overlap. `problems` says which cues are over, the
way Subtitle Edit and Aegisub flag them. Characters are counted as they show, a line break as one
space (Subtitle Edit's default count).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

#: Speaker styles of SubRip and SubViewer: "name" ("ANN: Hello"), "dash" ("- Hello" at a change)
SPEAKER_STYLES = ("name", "dash")
#: The widest line a cue cut afresh gets unless a width is set
NEW_LINE_CHARS = 42
#: The widest line a file written back is taken to allow at least, however short its lines
NARROWEST_LINE = 32
#: Bounds a person may set, so that a typo (a width of 4, a speed of 900) is refused in one line
LINE_LENGTH_RANGE = (16, 200)
CPS_RANGE = (5.0, 60.0)
GAP_RANGE = (1, 1000)
#: The reading speed the window's check of cues holds cues to when none is set: one common for
#: adult viewers (docs/formats.md, "Line length and reading speed")
CHECK_CPS = 17.0


@dataclass(frozen=True, slots=True)
class LayoutOption:
    """A number of the layout a person may set, declared once on its `SubtitleLayout` field:
    the command line's flag (`editor.commandline.arguments.add_layout_arguments`), the setting
    that remembers it (``export.layout``, `layout_from_settings`) and the Export dialog's box
    (`editor.gui.dialogs.export`) are all made from it. Unset (None) is the layout's default
    rule, which ``unset`` says in words."""

    flag: str  # the command line's flag, "--max-line-length"
    label: str  # the Export dialog's row, "Subtitle lines:"
    title: str  # the box's accessible name, "Widest subtitle line, in characters"
    what: str  # the value named in a refusal, "a line length"
    unit: str  # "characters"
    bounds: tuple[float, float]  # the least and most a person may set
    whole: bool  # a whole number (the field is an int), else any number in the bounds
    unset: str  # the Export box's lowest value: the default, in words
    help: str  # the flag's help and the box's tooltip

    def check(self, value: float | None) -> None:
        """ValueError, in one line, for a value out of `bounds` (None, unset, is fine)."""
        low, high = self.bounds
        if value is not None and not low <= value <= high:
            raise ValueError(f"{self.what} must be {low:g} to {high:g} {self.unit}, not {value:g}")


def option(default: None = None, **declared: Any) -> Any:
    """A field of `SubtitleLayout` a person may set (see `LayoutOption`), None by default."""
    return field(default=default, metadata={"option": LayoutOption(**declared)})


@dataclass(frozen=True, slots=True)
class SubtitleLayout:
    """How subtitles are laid out (see the module's docstring for what each default means). The
    fields declared with `option` are what a person sets, on the command line and in Export."""

    #: the widest line, in characters; None: 42 for new cues, a file's or cue's own width kept
    max_line_length: int | None = option(
        flag="--max-line-length", label="Subtitle lines:", title="Widest subtitle line, in characters",
        what="a line length", unit="characters", bounds=LINE_LENGTH_RANGE, whole=True,
        unset=f"as written ({NEW_LINE_CHARS} for new cues)",
        help=f"the widest a subtitle line may be, in characters (default: {NEW_LINE_CHARS} for cues Stet "
             "cuts; a file's own wider lines are kept where it is written back)")
    #: lines a cue Stet cuts may have
    max_lines: int = 2
    #: the longest a cue Stet cuts may last, in seconds
    max_cue_seconds: float = 7.0
    #: the least a cue Stet makes or re-times lasts where there is room, in seconds
    min_cue_seconds: float = 1.0
    #: the most characters a second a cue Stet cuts or re-times is to be read at; None: any
    max_cps: float | None = option(
        flag="--max-cps", label="Reading speed:", title="Fastest reading speed of a subtitle, in characters a second",
        what="a reading speed", unit="characters a second", bounds=CPS_RANGE, whole=False, unset="any",
        help="the fastest reading speed a cue Stet cuts may ask, in characters a second (for example "
             "17 or 20; 17 is common for adults, 13 for children); cues are kept up longer where the "
             "next one leaves room (default: no limit)")
    #: the least time between a cue Stet cuts or re-times and the next, in milliseconds; None: none
    min_gap: int | None = option(
        flag="--min-gap", label="Gap between cues:", title="Least gap between subtitles, in milliseconds",
        what="a gap", unit="milliseconds", bounds=GAP_RANGE, whole=True, unset="none",
        help="the least time between a cue Stet cuts or re-times and the next, in milliseconds, as "
             "Subtitle Edit's minimum gap (for example 24, or 83 for two frames at 24 fps): the cue "
             "ends that much earlier (default: none; a cue of a file read in keeps its times)")
    #: how SubRip and SubViewer show speakers (`SPEAKER_STYLES`)
    speaker_style: str = "name"

    def __post_init__(self) -> None:
        for name, declared in layout_options().items():
            declared.check(getattr(self, name))
        if self.max_lines < 1:
            raise ValueError(f"a cue needs at least one line, not {self.max_lines}")
        if not 0 < self.min_cue_seconds <= self.max_cue_seconds:
            raise ValueError("a cue's shortest time must be above 0 and no longer than its longest")
        if self.speaker_style not in SPEAKER_STYLES:
            raise ValueError(f"speaker_style must be one of {SPEAKER_STYLES}, not {self.speaker_style!r}")

    # -- widths -----------------------------------------------------------------------------------
    @property
    def line_length(self) -> int:
        """The widest line of a cue cut or wrapped afresh."""
        return self.max_line_length if self.max_line_length is not None else NEW_LINE_CHARS

    def kept_width(self, lines: Iterable[str]) -> int:
        """The widest line a changed cue keeps its own line breaks up to (``lines``: its lines as
        read): the set width, else the longer of 42 and the cue's own longest line."""
        if self.max_line_length is not None:
            return self.max_line_length
        return max([NEW_LINE_CHARS, *(len(line) for line in lines)])

    def file_width(self, lines: Iterable[str]) -> int:
        """The widest line of a cue written back into its file (``lines``: every cue's lines as
        read): the set width, else the file's widest line, at least 32."""
        if self.max_line_length is not None:
            return self.max_line_length
        return max([NARROWEST_LINE, *(len(line) for line in lines)])

    # -- times ------------------------------------------------------------------------------------
    @property
    def gap_seconds(self) -> float:
        """The least gap after a cue Stet cuts or re-times, in seconds (0: none)."""
        return (self.min_gap or 0) / 1000

    def shortest(self, lines: Sequence[str]) -> float:
        """The least time a cue Stet makes of ``lines`` is to stay up: 1 s, or as long as reading
        it at ``max_cps`` takes."""
        if self.max_cps is None:
            return self.min_cue_seconds
        return max(self.min_cue_seconds, characters(lines) / self.max_cps)

    # -- checking ---------------------------------------------------------------------------------
    def for_checking(self) -> SubtitleLayout:
        """This layout as the window's check of cues holds cues to: its reading speed, or
        `CHECK_CPS` where none is set (a check that let any speed pass would miss half of what
        subtitlers look for); its widths as they are (42 where none is set)."""
        return self if self.max_cps is not None else replace(self, max_cps=CHECK_CPS)

    def problems(self, lines: Sequence[str], start: float, end: float) -> list[str]:
        """What in a cue breaks this layout, each a short phrase ("line 2 is 47 characters",
        "23.4 characters a second"); [] when nothing does: each line against `line_length`, the
        lines against `max_lines`, the reading speed against ``max_cps`` where one is set."""
        out = [f"line {n} is {len(line)} characters" for n, line in enumerate(lines, 1)
               if len(line) > self.line_length]
        if len(lines) > self.max_lines:
            out.append(f"{len(lines)} lines")
        speed = reading_speed(lines, start, end)
        if self.max_cps is not None and speed > self.max_cps + 1e-9:
            out.append(f"{speed:.1f} characters a second")
        return out


def characters(lines: Sequence[str]) -> int:
    """The characters a viewer reads in a cue: its lines joined by one space each."""
    return len(" ".join(line.strip() for line in lines))


def reading_speed(lines: Sequence[str], start: float, end: float) -> float:
    """Characters a second a cue asks of its viewer (infinite for a cue of no time)."""
    seconds = end - start
    count = characters(lines)
    if seconds <= 0:
        return float("inf") if count else 0.0
    return count / seconds


def layout_options() -> dict[str, LayoutOption]:
    """The fields of `SubtitleLayout` a person may set, by field name, in the order declared."""
    return {f.name: f.metadata["option"] for f in fields(SubtitleLayout) if "option" in f.metadata}


def layout_from_options(values: Mapping[str, float | None], speaker_style: str = "name") -> SubtitleLayout:
    """The layout with the options ``values`` sets (by field name; None or absent: unset), each
    checked against its bounds (ValueError, in one line)."""
    declared = layout_options()
    chosen: dict[str, Any] = {name: None if value is None else int(value) if declared[name].whole else float(value)
                              for name, value in values.items() if name in declared}
    return SubtitleLayout(speaker_style=speaker_style, **chosen)


def layout_from_settings(values: Mapping[str, Any], speaker_style: str = "name") -> SubtitleLayout:
    """The layout a setting remembers (``export.layout``: option name -> value): a name Stet
    does not know, a value that is no number or out of bounds, a fraction where a whole number
    is asked (a settings file edited by hand, or from another version) is left at its default
    rather than refused."""
    declared = layout_options()
    kept: dict[str, float | None] = {}
    for name, value in values.items():
        known = declared.get(name)
        if known is None or not isinstance(value, int | float) or isinstance(value, bool) \
                or (known.whole and not float(value).is_integer()):
            continue
        try:
            known.check(value)
        except ValueError:
            continue
        kept[name] = value
    return layout_from_options(kept, speaker_style if speaker_style in SPEAKER_STYLES else "name")


#: The layout Stet writes by when nobody said otherwise
DEFAULT_LAYOUT = SubtitleLayout()

__all__ = ["CHECK_CPS", "CPS_RANGE", "DEFAULT_LAYOUT", "GAP_RANGE", "LINE_LENGTH_RANGE", "NARROWEST_LINE", "NEW_LINE_CHARS",
           "SPEAKER_STYLES", "LayoutOption", "SubtitleLayout", "characters", "layout_from_options",
           "layout_from_settings", "layout_options", "reading_speed"]
