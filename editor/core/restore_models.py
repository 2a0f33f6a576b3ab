"""The restoration models Stet ships, as a person chooses among them: each one's name, the licence
its config.json states for its weights and the quality recorded for it; and which one is used
where none is chosen (the install's default, which $STET_RESTORE_MODEL sets for every user).

Read from the model directories' config.json alone (no torch), so that Settings and About can list
them; loading a model is editor.restore.model.package's.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from editor.core.paths import resource_path

DEFAULT_MODEL = "stet-en-minilm-bilstm-crf"
"""The model used where no one chose one and the install names none."""
OPEN_MODEL = "stet-en-open-minilm-bilstm-crf"
"""Trained on public-domain text only, under the published (Apache-2.0) encoder: usable for paid work."""
WORD_MODEL = "stet-en-bilstm-crf"
"""The fast word model (15 MB)."""
MODEL_ENV = "STET_RESTORE_MODEL"
"""Names the model used where none is chosen, for every user of an install (a shipped model's name
or a model directory): a company whose work is paid sets it to OPEN_MODEL."""


@dataclass
class ModelSummary:
    """A model directory as Settings and About describe it."""

    name: str
    folder: Path
    licence: str = ""  # config.json "weights_licence" (SPDX identifiers joined by AND)
    figures: dict[str, float] = field(default_factory=dict)  # config.json "metrics"

    @property
    def use(self) -> str:
        return commercial_use(self.licence)


def commercial_use(licence: str) -> str:
    """What a weights licence (SPDX identifiers joined by AND) allows: "paid work too" where no
    part of it is non-commercial, "non-commercial only" where one is, "not stated" where it is empty."""
    if not licence.strip():
        return "not stated"
    parts = [t.strip("() ").upper() for t in re.split(r"\s+AND\s+", licence.strip())]
    return "non-commercial only" if any("-NC" in t for t in parts) else "paid work too"


def summary(folder: Path) -> ModelSummary | None:
    """The model in `folder` by its config.json; None where that cannot be read."""
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(config, dict):
        return None
    metrics = config.get("metrics")
    figures = ({k: float(v) for k, v in metrics.items() if isinstance(v, int | float) and not isinstance(v, bool)}
               if isinstance(metrics, dict) else {})
    licence = config.get("weights_licence")
    name = config.get("name")
    return ModelSummary(name if isinstance(name, str) and name else folder.name, folder,
                        licence if isinstance(licence, str) else "", figures)


def models_root() -> Path:
    return resource_path("models", DEFAULT_MODEL).parent


def shipped_restore_models() -> list[ModelSummary]:
    """The models that come with Stet, by name."""
    root = models_root()
    found = [summary(p) for p in sorted(root.iterdir()) if (p / "config.json").is_file()] if root.is_dir() else []
    return [s for s in found if s is not None]


def default_model_name() -> str:
    """The model used where none is chosen: $STET_RESTORE_MODEL where set, else DEFAULT_MODEL."""
    return os.environ.get(MODEL_ENV, "").strip() or DEFAULT_MODEL


def default_model_path() -> Path:
    """The directory of `default_model_name()`: a shipped model's, or the directory it names."""
    name = default_model_name()
    if "/" not in name and os.sep not in name and (name == DEFAULT_MODEL or (models_root() / name).is_dir()):
        return models_root() / name
    return Path(name).expanduser()


def why_this_model(chosen: str | None) -> str:
    """Why the model in use is the one it is: the person's choice, the install's ($STET_RESTORE_MODEL)
    or Stet's own default."""
    if chosen:
        return "chosen in Settings ▸ Restoration model (or with --model)"
    if os.environ.get(MODEL_ENV, "").strip():
        return f"this installation's default (${MODEL_ENV})"
    return "Stet's default; Settings ▸ Restoration model offers the others"


def model_folder(chosen: str | None) -> Path:
    """The directory of a chosen model (a shipped model's name or a directory), or of the default."""
    if not chosen:
        return default_model_path()
    if "/" not in chosen and os.sep not in chosen and (models_root() / chosen).is_dir():
        return models_root() / chosen
    return Path(chosen).expanduser()


def in_use_note(chosen: str | None, *, done: bool = False) -> str:
    """One line saying which restoration model is in use, what its weights may be used for, and why
    it is the one: "Restoring with stet-en-… (weights: non-commercial only), Stet's default; …";
    ``done``: the pass is over, "Restored with …"."""
    folder = model_folder(chosen)
    found = summary(folder)
    doing = "Restored" if done else "Restoring"
    if found is None:
        return f"{doing} with the model in {folder}, {why_this_model(chosen)}"
    # what the weights allow, not their licences' identifiers (About and Settings list those): the
    # whole note then fits the status bar of a window at its default width
    licence = f"weights: {found.use}" if found.licence else "its weights' licence not stated"
    return f"{doing} with {found.name} ({licence}), {why_this_model(chosen)}"
