"""The model card's failure modes that carry figures are written from the tuning report."""

import copy
import json

from editor.restore.lab.card_sections import measured_failure_modes
from editor.restore.model.package import default_model_dir


def _report() -> dict:
    return json.loads((default_model_dir() / "TUNING_REPORT.json").read_text())


def test_failure_mode_figures_follow_the_report():
    rep = copy.deepcopy(_report())
    rep["dev2012_tsv"]["COMMA"].update(f1=12.34, precision=56.78, recall=9.87)
    rep["dev2012_noisy"] = {"overall": {"f1": 43.21}}
    rep["dev_talks"]["case_errors"] = {"errors": 1000, "at_sentence_start": 640,
                                       "capitals_after_mid_mark": 300, "wrong_capitals_after_mid_mark": 120,
                                       "capitals_after_comma": 250, "wrong_capitals_after_comma": 7}
    text = "\n".join(measured_failure_modes(rep))
    assert "COMMA F1 12.3, P 56.8 / R 9.9" in text
    assert f"falls from {rep['dev2012_tsv']['overall']['f1']:.1f} to 43.2" in text
    assert "640 of its 1,000 case errors (64 %)" in text
    assert "250 capitals follow a suggested comma, 7 of them" in text and "after any of , : ; 300 capitals, 120" in text


def test_lines_without_their_figures_are_left_out():
    rep = copy.deepcopy(_report())
    rep.pop("dev2012_noisy", None)
    rep["dev_talks"].pop("case_errors", None)
    text = "\n".join(measured_failure_modes(rep))
    assert "simulated recognition errors" not in text and "case errors" not in text
    assert "Commas are the weakest class" in text
