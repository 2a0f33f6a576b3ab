"""Process-wide state is changed in one place (editor.core.process), when the app starts: importing
the GUI or asking for help changes nothing."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STATE = """
import gc, json, os, sys
def state():
    return {"none_refs_small": sys.getrefcount(None) < 1 << 39, "gc": gc.isenabled(),
            "frozen": gc.get_freeze_count(),
            # PySide6 itself sets PYSIDE6_OPTION_PYTHON_ENUM when it loads
            "env": {k: v for k, v in os.environ.items() if not k.startswith("PYSIDE")},
            "torch": "torch" in sys.modules, "switch": sys.getswitchinterval()}
"""


def state_around(code: str) -> tuple[dict, dict]:
    probe = (f"{STATE}\nbefore = state()\n{code}\n"
             "print('STATE:' + json.dumps([before, state()]))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         cwd=ROOT, timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                                     "QT_QPA_PLATFORM": "offscreen"}).stdout
    import json

    before, after = json.loads(out.rpartition("STATE:")[2])
    return before, after


def test_importing_the_gui_changes_no_process_state():
    before, after = state_around("import editor.gui\nimport editor.gui.app\nimport editor.gui.window.main_window")
    assert after == before


def test_stet_help_changes_no_process_state():
    before, after = state_around(
        "from editor.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert after == before


def test_the_app_configures_the_process_once():
    before, after = state_around(
        "from editor.core.process import configure_process, configured_threads\n"
        "configure_process(gui=True)\nfirst = configured_threads()\n"
        "os.environ['OMP_NUM_THREADS'] = '7'\nconfigure_process(gui=True)\n"
        "assert configured_threads() == first, 'configured twice'")
    assert before["none_refs_small"] and not after["none_refs_small"] == (sys.version_info < (3, 12))
    assert int(after["env"]["OMP_NUM_THREADS"]) >= 1 and "OMP_NUM_THREADS" not in before["env"]
    # a worker running Python hands the GIL back to the UI thread quickly (not after 5 ms)
    assert after["switch"] < before["switch"] and after["switch"] <= 0.001


def test_an_omp_setting_given_by_the_person_wins():
    code = ("import os\nos.environ['OMP_NUM_THREADS'] = '3'\n"
            "from editor.core.process import configure_process, configured_threads\n"
            "configure_process(gui=True)\nassert configured_threads() == 3\n"
            "assert os.environ['OMP_NUM_THREADS'] == '3'")
    clean = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}  # nothing an earlier test set
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=60, env=clean)


def test_holds_on_the_collector_add_up_and_end_with_the_last():
    """The window's hold (opening, restoring, a bulk step) and a worker's (learning after a save)
    overlap in any order; the collector is back on only when both have ended, and a worker's step
    that fails ends its hold all the same."""
    code = """
import threading
from editor.core import process
seen = []
process.hold_collections()
with process.collections_held("learning"):
    process.release_collections()
    seen.append(gc.isenabled())  # the worker still holds it
seen.append(gc.isenabled())
with process.collections_held("learning"):
    process.hold_collections()
seen.append(gc.isenabled())  # the window still holds it
process.release_collections()
seen.append(gc.isenabled())
def fails():
    with process.collections_held("learning"):
        raise ValueError
worker = threading.Thread(target=lambda: seen.append(gc.isenabled()) or fails())
worker.start()
worker.join()
seen.append(gc.isenabled())
process.release_collections()  # nothing held: a closing window calls it all the same
seen.append(gc.isenabled())
assert seen == [False, True, False, True, True, True, True], seen
"""
    _before, after = state_around(code)
    assert after["gc"]
