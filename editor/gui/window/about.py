"""Help > About Stet: the version, the restoration model in use with the quality measured for it (read
from its config.json, never written here), and the licences of Stet, its libraries and the model's
training text."""

from __future__ import annotations

import html
import importlib.metadata as metadata
import json
import platform
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QScrollArea, QVBoxLayout, QWidget

import editor
from editor.asr import ENCODER_CREDIT, AsrError, check_speakers_installed
from editor.core.restore_models import ModelSummary, commercial_use, models_root, shipped_restore_models
from editor.gui.base.screen_fit import resize_within_screen

DISTRIBUTION = "stet-editor"
#: Where a figure was measured, as config.json names it (a prefix or suffix of the metric's key).
_DATA_SETS = {"dev2012": "IWSLT 2012 dev", "dev_talks": "dev talks", "odd_talks": "odd-numbered dev talks"}
#: What a figure is, by the rest of its key; a key not here is shown as it is written.
_MEASURES = {
    "overall_f1": "punctuation F1, all marks",
    "comma_f1": "comma F1",
    "period_f1": "full stop F1",
    "question_f1": "question mark F1",
    "ser": "slot error rate (lower is better)",
    "noisy_f1": "punctuation F1, simulated recognition errors",
    "case_f1": "capitals F1",
    "sentence_accuracy": "sentences restored exactly, %",
    "punct_ece": "calibration error, punctuation (lower is better)",
    "case_ece": "calibration error, capitals (lower is better)",
}


@dataclass
class ModelFacts:
    """What About says of a restoration model directory."""

    folder: Path
    name: str = ""
    language: str = ""
    metrics: list[tuple[str, str, str]] = field(default_factory=list)  # (what, measured on, value)
    training_licences: list[str] = field(default_factory=list)  # "source: licence"
    weights_licence: str = ""  # the card's "Licence" section: what the weights may be used for
    licence_id: str = ""  # config.json "weights_licence": SPDX identifiers ("public-domain AND Apache-2.0")
    figures: dict[str, float] = field(default_factory=dict)  # config.json "metrics", as recorded
    problem: str = ""  # why config.json could not be read


def describe_metric(key: str, value: float) -> tuple[str, str, str]:
    """("punctuation F1, all marks", "IWSLT 2012 dev", "65.8") for ("dev2012_overall_f1", 65.758)."""
    measured_on, rest = "", key
    for prefix, name in _DATA_SETS.items():
        if key.startswith(prefix + "_"):
            measured_on, rest = name, key[len(prefix) + 1:]
            break
        if key.endswith("_" + prefix):
            measured_on, rest = name, key[:-len(prefix) - 1]
            break
    what = _MEASURES.get(rest, rest.replace("_", " "))
    text = f"{value:.3f}" if abs(value) < 1 else f"{value:.1f}"
    return what, measured_on, text


def training_licences(card: Path) -> list[str]:
    """The licence of each source in the model card's training-data table ("source: licence"),
    none where the card has no such table."""
    try:
        lines = card.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    out: list[str] = []
    columns: list[str] | None = None
    for line in lines:
        if not line.startswith("|"):
            if columns is not None and out:
                break  # the table ended
            columns = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if columns is None:
            columns = [c.lower() for c in cells]
        elif "licence" in columns and not set("".join(cells)) <= set("-: "):
            row = dict(zip(columns, cells))
            what = row.get("register") or row.get("source", "")
            out.append(f"{what}: {row['licence']}")
    return out


def card_licence(card: Path) -> str:
    """The paragraph under the card's "## Licence" heading, "" where it has none."""
    try:
        lines = card.read_text(encoding="utf-8").splitlines()
    except OSError:
        return ""
    out: list[str] = []
    inside = False
    for line in lines:
        if line.startswith("#"):
            if inside:
                break
            inside = line.strip().lower() in ("## licence", "## license")
        elif inside and line.strip():
            out.append(line.strip())
        elif inside and out:
            break
    return " ".join(out)


def non_commercial(licences: list[str]) -> list[str]:
    """The "source: licence" entries whose licence is non-commercial (a Creative Commons NC one)."""
    return [t for t in licences if "NC" in t.partition(": ")[2].replace("-", " ").split()]


def read_model(folder: Path) -> ModelFacts:
    """The name, language and measured quality of the model in ``folder``, from its config.json."""
    facts = ModelFacts(folder)
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        if not isinstance(config, dict):
            raise ValueError("not a JSON object")
    except (OSError, ValueError) as err:
        facts.problem = f"{folder / 'config.json'}: cannot be read ({err})"
        return facts
    facts.name = str(config.get("name") or folder.name)
    facts.language = str(config.get("language") or "")
    metrics = config.get("metrics")
    if isinstance(metrics, dict):
        facts.figures = {k: float(v) for k, v in metrics.items() if isinstance(v, int | float) and not isinstance(v, bool)}
        facts.metrics = [describe_metric(k, v) for k, v in facts.figures.items()]
    licence = config.get("weights_licence")
    facts.licence_id = licence if isinstance(licence, str) else ""
    facts.training_licences = training_licences(folder / "MODEL_CARD.md")
    facts.weights_licence = card_licence(folder / "MODEL_CARD.md")
    return facts


#: The figures About compares the shipped models by (config.json "metrics" keys).
COMPARED = (("dev2012_overall_f1", "punctuation F1"), ("dev_talks_case_f1", "capitals F1"))


def models_table(models: list[ModelSummary], in_use: Path) -> str:
    """The shipped models side by side: weights' licence, what it allows, measured quality; the
    one in use marked."""
    e = html.escape
    head = "".join(f"<th>{e(label)}</th>" for _key, label in COMPARED)
    rows = []
    for m in models:
        used = m.folder.resolve() == in_use.resolve()
        figures = "".join(f"<td align='right'>{m.figures[k]:.1f}</td>" if k in m.figures else "<td>-</td>"
                          for k, _label in COMPARED)
        rows.append(f"<tr><td>{e(m.name)}{' <b>(in use)</b>' if used else ''}</td>"
                    f"<td>{e(m.licence or 'not stated')}</td><td>{e(m.use)}</td>{figures}</tr>")
    return ("<p>The restoration models Stet ships (punctuation F1 on IWSLT 2012 dev, capitals F1 on the dev "
            "talks; Settings ▸ Restoration model chooses one):</p>"
            "<table cellspacing='0' cellpadding='2'><tr><th>model</th><th>weights' licence</th><th>use</th>"
            f"{head}</tr>{''.join(rows)}</table>")


def field_of(dist: metadata.PackageMetadata, name: str) -> str:
    """One field of a package's metadata, "" where it has none."""
    values = dist.get_all(name) or []
    return str(values[0]) if values else ""


def _licence(dist: metadata.PackageMetadata) -> str:
    expression = field_of(dist, "License-Expression")
    if expression:
        return expression
    stated = field_of(dist, "License").strip()
    if stated and stated.upper() != "UNKNOWN" and len(stated) <= 60 and "\n" not in stated:
        return stated
    classifiers = [c.split("::")[-1].strip() for c in dist.get_all("Classifier") or []
                   if c.startswith("License ::")]
    return ", ".join(classifiers) or "not stated"


def library_licences(extra: str | None = None) -> list[tuple[str, str, str]]:
    """(name, version, licence) of each library Stet needs (``extra``: those of that extra that
    are installed), from the installed packages' metadata."""
    try:
        requires = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:  # a frozen build keeps no metadata of its own
        return []
    if extra is None:
        wanted = [r for r in requires if "extra ==" not in r]
    else:
        wanted = [r for r in requires if re.search(rf"extra\s*==\s*['\"]{re.escape(extra)}['\"]", r)]
    out = []
    for requirement in wanted:
        name = re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0]
        try:
            dist = metadata.metadata(name)
        except metadata.PackageNotFoundError:
            continue
        out.append((field_of(dist, "Name") or name, field_of(dist, "Version"), _licence(dist)))
    return out


def speakers_installed() -> bool:
    """Whether the `speakers` extra (the voice encoder's weights and its libraries) is installed."""
    try:
        check_speakers_installed()
    except AsrError:
        return False
    return True


#: The licence's text, for the link About gives (the .deb also has it in /usr/share/doc/stet).
LICENCE_URL = "https://www.apache.org/licenses/LICENSE-2.0"


def stet_licence() -> str:
    """The code's licence: editor.__license__, which pyproject.toml states too (an editable install's
    metadata can be older than the checkout, and a frozen build has none)."""
    return editor.__license__


def where_model_is(folder: Path) -> str:
    """Where the model is, as About says it: a model Stet ships is "Shipped with Stet" (the folder
    of this installation's files says nothing a person needs, and a screenshot showed a developer's
    checkout); any other by its folder, the home folder as ~."""
    try:
        if folder.resolve().parent == models_root().resolve():
            return "Shipped with Stet"
    except OSError:
        pass
    try:
        shown = str(Path("~") / folder.relative_to(Path.home()))
    except (ValueError, RuntimeError):  # outside the home folder, or no home folder known
        shown = str(folder)
    return f"In <code>{html.escape(shown)}</code>"


def about_html(model: ModelFacts, shipped: list[ModelSummary] | None = None) -> str:
    """The About text: version, model and its measured quality, licences; `shipped`: the models
    Stet ships, compared side by side."""
    e = html.escape
    parts = [f"<h2>Stet {e(editor.__version__)}</h2>",
             "<p>A transcript editor that restores punctuation and capitals as proposals you review.</p>",
             f"<p>Python {e(platform.python_version())} · Qt {e(qVersion())} · PySide6 {e(pyside_version)}</p>"]
    card = model.folder / "MODEL_CARD.md"
    if model.problem:
        parts.append(f"<h3>Restoration model</h3><p>{e(model.problem)}</p>")
    else:
        language = f" ({e(model.language)})" if model.language else ""
        parts.append(f"<h3>Restoration model: {e(model.name)}{language}</h3>")
        parts.append(f"<p>{where_model_is(model.folder)}"
                     + (f" · <a href='{QUrl.fromLocalFile(str(card)).toString()}'>model card</a>"
                        if card.is_file() else "") + "</p>")
        if model.metrics:
            rows = "".join(f"<tr><td>{e(what)}</td><td>{e(where)}</td><td align='right'>{e(value)}</td></tr>"
                           for what, where, value in model.metrics)
            parts.append("<p>Quality as measured (from its config.json; a dev set is text it was tuned on, "
                         "not held-out text):</p>"
                         f"<table cellspacing='0' cellpadding='2'>{rows}</table>")
        else:
            parts.append("<p>Its config.json records no measured quality.</p>")
    if shipped:
        parts.append(models_table(shipped, model.folder))
    parts.append(f"<h3>Licences</h3><p>Stet's code: <a href='{LICENCE_URL}'>{e(stet_licence())}</a>.</p>")
    if not model.problem:
        stated = (f" Its config.json states: {model.licence_id} ({commercial_use(model.licence_id)})."
                  if model.licence_id else "")
        if model.weights_licence:
            weights = model.weights_licence + stated
        else:
            restricted = non_commercial(model.training_licences)
            weights = ("Its weights were trained on text under non-commercial terms ("
                       + "; ".join(restricted) + ") and inherit them: non-commercial use only."
                       if restricted else "Its model card states no licence for its weights.") + stated
        parts.append(f"<p><b>The restoration model's weights</b> ({e(model.name)}): {e(weights)}</p>")
    libraries = library_licences()
    if libraries:
        parts.append("<p>Libraries: " + "; ".join(f"{e(n)} {e(v)} ({e(lic)})" for n, v, lic in libraries)
                     + "</p>")
    if speakers_installed():
        speakers = library_licences("speakers")
        parts.append(f"<p>Automatic speakers: {e(ENCODER_CREDIT)}."
                     + (" Libraries: " + "; ".join(f"{e(n)} {e(v)} ({e(lic)})" for n, v, lic in speakers)
                        if speakers else "") + "</p>")
    if model.training_licences:
        parts.append("<p>The model was trained on: " + "; ".join(e(t) for t in model.training_licences)
                     + "</p>")
    return "".join(parts)


class AboutDialog(QDialog):
    """About Stet, for the model in ``model_folder``."""

    def __init__(self, model_folder: Path, parent: QWidget | None = None,
                 open_link: Callable[[QUrl], object] | None = None) -> None:
        """``open_link(url)`` follows a link (the model card in the help window, the licence in the
        browser); without it, links open with the desktop's handler."""
        super().__init__(parent)
        self.setWindowTitle("About Stet")
        self.model = read_model(model_folder)
        self.shipped = shipped_restore_models()
        self.text = QLabel(about_html(self.model, self.shipped))
        self.text.setObjectName("about-text")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setOpenExternalLinks(open_link is None)
        if open_link is not None:
            self.text.linkActivated.connect(lambda href: open_link(QUrl(href)))
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)
        resize_within_screen(self, 620, 600)
