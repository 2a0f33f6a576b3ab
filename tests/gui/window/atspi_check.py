"""A screen reader's view of the window, through AT-SPI (Linux's accessibility bus), once by hand:

    xvfb-run -a dbus-run-session -- /usr/bin/python3 tests/gui/window/atspi_check.py [VENV_PYTHON]

Run with the system Python that has pyatspi (Debian: python3-pyatspi, at-spi2-core); Stet itself
runs in VENV_PYTHON (default .venv/bin/python). Opens a project with three pending suggestions,
finds the transcript view on the bus as an assistive technology does, reads its name, text,
caret and description, presses Tab and Enter (XTest), and prints what the bus said: the
description changes and the announcements. Exits 1 when something a screen reader needs is
missing. Not a pytest test: it needs a session bus, an X server and the AT-SPI registry."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyatspi  # type: ignore[import-not-found]
from gi.repository import GLib  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parents[3]
MAKE_PROJECT = """
import sys
from editor.core.document.transcript import Kind, Suggestion, Token, Transcript
from editor.core.formats import write_any
doc = Transcript([Token(w) for w in "so the station was paris then".split()])
doc.set_suggestions([Suggestion(doc[2].id, Kind.PUNCT, ",", {",": 0.82, "": 0.18}),
                     Suggestion(doc[4].id, Kind.CASE, "Paris", {"Paris": 0.99, "paris": 0.01}),
                     Suggestion(doc[5].id, Kind.PUNCT, ".", {".": 0.7, "": 0.3})])
write_any(doc, sys.argv[1])
"""


def find(node, test, depth=0):
    if node is None or depth > 40:
        return None
    try:
        if test(node):
            return node
        children = list(node)
    except (GLib.Error, LookupError, RuntimeError):  # an object gone meanwhile
        return None
    for child in children:
        found = find(child, test, depth + 1)
        if found is not None:
            return found
    return None


def main() -> int:
    python = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".venv" / "bin" / "python")
    work = Path(tempfile.mkdtemp(prefix="stet-atspi-"))
    env = dict(os.environ, XDG_CONFIG_HOME=str(work / "config"), XDG_DATA_HOME=str(work / "data"),
               XDG_CACHE_HOME=str(work / "cache"), QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
               QT_ACCESSIBILITY="1", QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT))
    (work / "config" / "stet").mkdir(parents=True)
    (work / "config" / "stet" / "settings.json").write_text(json.dumps({"help": {"tour_seen": True}}))
    project = work / "talk.stet"
    subprocess.run([python, "-c", MAKE_PROJECT, str(project)], env=env, check=True, cwd=ROOT)
    app = subprocess.Popen([python, "-m", "editor", "gui", str(project)], env=env, cwd=ROOT)
    heard: list[str] = []
    problems: list[str] = []
    try:
        view = None
        end = time.monotonic() + 60
        while view is None and time.monotonic() < end:
            time.sleep(1)
            desktop = pyatspi.Registry.getDesktop(0)
            view = find(desktop, lambda n: n.name == "Transcript" and n.getRole() in (
                pyatspi.ROLE_TEXT, pyatspi.ROLE_ENTRY, pyatspi.ROLE_DOCUMENT_TEXT))
        if view is None:
            print("no object named 'Transcript' on the bus")
            return 1
        text = view.queryText()
        content = text.getText(0, -1)
        print(f"found: role {view.getRoleName()!r}, name {view.name!r}")
        print(f"text: {content!r}")
        print(f"caret: {text.caretOffset}")
        print(f"description: {view.description!r}")
        if "station" not in content:
            problems.append("the text is not on the bus")
        if "Tab" not in view.description:
            problems.append("the description does not say how to start reviewing")

        def listen(event) -> None:
            if event.type.startswith("object:announcement"):
                heard.append(f"announcement: {event.any_data}")
            elif event.type.startswith("object:property-change:accessible-description"):
                heard.append(f"description: {event.source.description}")
            elif event.type.startswith("object:text-caret-moved"):
                heard.append(f"caret: {event.detail1}")

        for kind in ("object:announcement", "object:property-change:accessible-description",
                     "object:text-caret-moved"):
            pyatspi.Registry.registerEventListener(listen, kind)
        def click_in_view() -> None:  # no window manager under Xvfb: the pointer gives the focus
            box = view.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            pyatspi.Registry.generateMouseEvent(box.x + box.width // 2, box.y + box.height - 10, "b1c")

        steps = [click_in_view, lambda: view.queryComponent().grabFocus(),
                 lambda: pyatspi.Registry.generateKeyboardEvent(0xFF09, None, pyatspi.KEY_SYM),  # Tab
                 lambda: pyatspi.Registry.generateKeyboardEvent(0xFF0D, None, pyatspi.KEY_SYM)]  # Enter

        def step() -> bool:
            if steps:
                try:
                    steps.pop(0)()
                except (GLib.Error, LookupError, RuntimeError) as err:  # said; what was heard tells
                    print(f"step failed: {err!r}")
                print(f"step; caret {text.caretOffset}; description {view.description[:40]!r}")
                return True
            pyatspi.Registry.stop()
            return False

        GLib.timeout_add(1500, step)
        pyatspi.Registry.start()
        print(f"description after Tab and Enter: {view.description!r}")
        for line in heard:
            print(f"heard: {line}")
        if not any("Proposed comma after" in line for line in heard):
            problems.append("Tab: the suggestion was not said")
        if not any(line.startswith("announcement: Accepted") for line in heard):
            problems.append("Enter: the decision was not announced")
    finally:
        app.terminate()
        app.wait(10)
    for problem in problems:
        print(f"missing: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
