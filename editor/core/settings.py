"""All user settings behind one typed object with namespaced keys ("review.high", "engine.device"),
stored as JSON in the user's config folder. A damaged or foreign file never stops Stet: what cannot
be read falls back to the default and is reported."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from editor.core.commas import DEFAULT_COMMAS
from editor.core.formats import atomic_write
from editor.core.formats.subtitles import SubtitleLayout, layout_from_settings
from editor.core.paths import config_dir

SETTINGS_VERSION = 1


@dataclass
class ReviewSettings:
    high: float = 0.9  # confidence at or above this is "high" (and accept-all's default)
    low: float = 0.6  # below this is "low"; between is "medium"
    order: str = "position"  # how Tab walks pending suggestions: "position" or "confidence"
    repeat_choices: bool = True  # a decision is proposed for the same word / word pair elsewhere
    learn_from_reviews: bool = True  # on save, forms and mark choices are kept (user lexicon, adaptation)
    use_learned: bool = True  # restorations use what was learned for the same language and speakers
    commas: str = DEFAULT_COMMAS  # the comma style (editor.core.commas): how sure a comma must be to be proposed
    short_speech: bool = False  # a screen reader hears a suggestion's change and confidence only (keys on demand)


@dataclass
class AppearanceSettings:
    font_size: int = 13
    palette: str = "okabe-ito"  # colour-blind-safe confidence colours
    high_colour: str = "#009E73"
    medium_colour: str = "#E69F00"
    low_colour: str = "#D55E00"
    underline_unsure: bool = False  # underline words the speech recogniser was unsure of
    unsure_below: float = 0.5  # ASR confidence under which a word counts as unsure


@dataclass
class EngineSettings:
    device: str = "auto"  # "auto", "cpu" or "cuda"
    restore_model: str = ""  # empty: the shipped model
    vosk_model_dir: str = ""  # empty: look in the data folder and VOSK_MODEL_PATH
    speakers: str = ""  # who speaks when is found for a recording: "" (not), "auto" or a number ("2")


@dataclass
class ExportSettings:
    srt_speakers: str = "name"  # SubRip shows speakers as "Ann: " ("name") or "- " lines ("dash")
    turn_times: bool = False  # .txt, .md and .docx get "[00:12:34] " at each speaker turn
    author: str = ""  # the author a Word document's properties name; empty: the system's name for the user
    last_format: str = ""  # the extension of the last export (".srt"): the next Export proposes it
    last_folder: str = ""  # where the last export went: proposed where the source's folder is not one's own
    # subtitles: the layout's options set in Export, by `SubtitleLayout` field ("max_line_length":
    # 37); one not here is at its default (`layout_options` declares them)
    layout: dict[str, float] = field(default_factory=dict)

    def subtitle_layout(self) -> SubtitleLayout:
        """The layout these settings ask of subtitles; a value out of range (a settings file edited
        by hand) is left at its default rather than refused."""
        return layout_from_settings(self.layout, self.srt_speakers)


@dataclass
class HelpSettings:
    tour_seen: bool = False  # the review tour was shown once (on the first start); Help menu shows it again


@dataclass
class ListenSettings:
    """Reviewing by ear: what arriving at a suggestion plays when the transcript has a recording."""

    on_arrival: bool = True  # arriving at a suggestion plays the words around it
    before: float = 1.5  # seconds played before the suggestion's word
    after: float = 0.5  # seconds played after the mark (the start of the next word)
    slower_when_unsure: bool = False  # low-confidence suggestions are played slower
    slower_speed: float = 0.75  # ... at this share of the player's speed


@dataclass
class Settings:
    review: ReviewSettings = field(default_factory=ReviewSettings)
    appearance: AppearanceSettings = field(default_factory=AppearanceSettings)
    engine: EngineSettings = field(default_factory=EngineSettings)
    export: ExportSettings = field(default_factory=ExportSettings)
    help: HelpSettings = field(default_factory=HelpSettings)
    listen: ListenSettings = field(default_factory=ListenSettings)
    recent_files: list[str] = field(default_factory=list)

    # -- namespaced access -----------------------------------------------------------------------
    def get(self, key: str) -> Any:
        owner, name = self._resolve(key)
        return getattr(owner, name)

    def set(self, key: str, value: Any) -> None:
        owner, name = self._resolve(key)
        expected = _field_type(type(owner), name)
        if not _matches(value, expected):
            raise TypeError(f"setting {key} must be {expected}, not {value!r}")
        if isinstance(value, dict):  # kept as its own: the caller's mapping may change after
            value = dict(value)
        setattr(owner, name, float(value) if expected is float else value)

    def keys(self) -> list[str]:
        out = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if dataclasses.is_dataclass(value):
                out += [f"{f.name}.{g.name}" for g in dataclasses.fields(value)]
            else:
                out.append(f.name)
        return out

    def _resolve(self, key: str) -> tuple[Any, str]:
        section, _, name = key.partition(".")
        owner: Any = self
        if name:
            owner = getattr(self, section, None)
            if not dataclasses.is_dataclass(owner):
                raise KeyError(key)
        else:
            name = section
        if name not in {f.name for f in dataclasses.fields(owner)}:
            raise KeyError(key)
        return owner, name

    # -- files -----------------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Path | None = None) -> tuple[Settings, list[str]]:
        """Settings from ``path`` (default: the config folder) and the problems met reading it."""
        path = path or default_path()
        settings, problems = cls(), []
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return settings, []
        except (OSError, ValueError, RecursionError) as err:
            return settings, [f"{path}: cannot be read ({err}); using defaults"]
        if not isinstance(data, dict):
            return settings, [f"{path}: not a settings file; using defaults"]
        for key in settings.keys():
            section, _, name = key.partition(".")
            raw = data.get(section, {}) if name else data
            if not isinstance(raw, dict) or (name or section) not in raw:
                continue
            try:
                settings.set(key, raw[name or section])
            except TypeError as err:
                problems.append(f"{path}: {err}; using the default")
        return settings, problems

    def save(self, path: Path | None = None) -> None:
        data = {"settings_version": SETTINGS_VERSION, **dataclasses.asdict(self)}
        atomic_write(path or default_path(),
                     (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


def default_path() -> Path:
    return config_dir() / "settings.json"


def _field_type(owner: type, name: str) -> Any:
    return typing.get_type_hints(owner)[name]


def _matches(value: Any, expected: Any) -> bool:
    if expected is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    origin = typing.get_origin(expected)
    if origin is list:
        (item,) = typing.get_args(expected)
        return isinstance(value, list) and all(_matches(v, item) for v in value)
    if origin is dict:
        key, item = typing.get_args(expected)
        return isinstance(value, dict) and all(_matches(k, key) and _matches(v, item) for k, v in value.items())
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, option) for option in typing.get_args(expected))
    if expected is type(None):
        return value is None
    return isinstance(value, expected) and not (expected is int and isinstance(value, bool))
