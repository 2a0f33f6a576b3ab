"""What Orca says of a review with Stet, from Orca's own speech log: run on purpose, not by pytest.

    .venv/bin/python tests/accessibility/orca_run.py [--markdown docs/accessibility-run.md]

Needs Debian's orca, at-spi2-core, dbus-x11, xvfb and xdotool (no sound card: Orca's debug log
holds every line it speaks, "SPEECH OUTPUT: '...'", whether or not a speech server is there).
Starts an X server (Xvfb), a D-Bus session, the AT-SPI bus, Orca with ``--debug-file``, then Stet
with no file; drives the keys a person would press (xdotool, through XTest, as a keyboard
does) and prints, step by step, what Orca spoke. The steps: open a transcript from the file
dialog, hear the current suggestion, accept, reject, undo, accept all at or above a threshold,
export, and read the text as it stands. Exits 1 when a step was not spoken as expected.

The transcript is made here (a project with six pending suggestions, in the words a listener
heard in the issue that asked for this), so the run needs no model and says the same each time.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAKE_PROJECT = """
import sys
from editor.core.document.transcript import Kind, Suggestion, Token, Transcript
from editor.core.formats import write_any
words = "imagine a plane full of smoke imagine an engine going clock clock clock clock sounds scary well i had a unique seat".split()
doc = Transcript([Token(w) for w in words])
at = {w: i for i, w in reversed(list(enumerate(words)))}
doc.set_suggestions([
    Suggestion(doc[0].id, Kind.CASE, "Imagine", {"Imagine": 0.97, "imagine": 0.03}),
    Suggestion(doc[5].id, Kind.PUNCT, ".", {".": 0.93, ",": 0.05, "": 0.02}),
    Suggestion(doc[6].id, Kind.CASE, "Imagine", {"Imagine": 0.92, "imagine": 0.08}),
    Suggestion(doc[9].id, Kind.PUNCT, ",", {",": 0.60, "": 0.31, ".": 0.09}),
    Suggestion(doc[15].id, Kind.PUNCT, ".", {".": 0.71, ",": 0.2, "": 0.09}),
    Suggestion(doc[17].id, Kind.CASE, "I", {"I": 0.99, "i": 0.01}),
])
write_any(doc, sys.argv[1])
"""

#: Orca as /usr/bin/orca starts it, its debug file written a line at a time (Orca opens it with
#: Python's default 8 KB buffer, so the last lines of a step would come only steps later)
ORCA = """
import builtins, runpy, sys
_open = builtins.open
log = sys.argv[1]
def line_buffered(file, mode="r", *args, **kwargs):
    if file == log and "w" in mode:
        kwargs["buffering"] = 1
    return _open(file, mode, *args, **kwargs)
builtins.open = line_buffered
sys.argv = ["orca", "--replace", f"--debug-file={log}"]
runpy.run_path("/usr/bin/orca", run_name="__main__")
"""

#: (what the step is, the keys, seconds to wait after, words Orca must have said in it)
STEPS: list[tuple[str, list[str], float, list[str]]] = [
    ("Open the file: Ctrl+O, type its path, Enter", ["ctrl+o", "@PATH", "Return"], 6.0, ["Transcript"]),
    ("Hear the first suggestion: Tab", ["Tab"], 2.5, ["Proposed capital", "97 %"]),
    ("Accept it: Enter", ["Return"], 2.5, ["Accepted capital", "Proposed full stop"]),
    ("Reject the next: Delete", ["Delete"], 2.5, ["Rejected full stop"]),
    ("Undo: Ctrl+Z", ["ctrl+z"], 2.5, ["Undid", "Proposed full stop"]),
    ("Accept all at or above: Ctrl+Shift+B, type 90, hear the count", ["ctrl+shift+b", "9", "0"],
     3.0, ["pending suggestions will be accepted"]),
    ("... and Enter accepts them", ["Return"], 3.0, ["Accepted 3 suggestions"]),
    ("Export: Ctrl+E, Enter", ["ctrl+e", "Return"], 5.0, ["Exported"]),
    ("The sentence as it would be exported: Ctrl+Shift+Space", ["ctrl+shift+space"], 2.5, ["As it stands"]),
    ("The text as it stands, by line: Ctrl+Home, then Orca's Say All (KP_Add)",
     ["ctrl+Home", "KP_Add"], 6.0, ["clock clock clock clock sounds scary well I had"]),
]


def _free_display() -> int:
    for n in range(90, 140):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            return n
    raise SystemExit("no free X display number")


def _wait(test, seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return
        time.sleep(0.2)
    raise SystemExit(f"timed out waiting for {what}")


def spoken(log: str) -> list[str]:
    """What Orca spoke, in order: its debug log's "SPEECH OUTPUT: '...'" lines."""
    out = []
    for line in log.splitlines():
        found = re.search(r"SPEECH OUTPUT: '(.*)", line)
        if found is None:
            continue
        # the line ends in what voice it was said in: "'{'established': False}", "' voice=..."
        said = re.split(r"'\s*(?:voice=\S*\s*)?[\[{]", found.group(1))[0].removesuffix("'")
        if said.strip():
            out.append(said)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"), help="runs Stet")
    parser.add_argument("--markdown", type=Path, help="also write the run as Markdown here")
    args = parser.parse_args()
    for tool in ("Xvfb", "dbus-launch", "orca", "xdotool", "openbox"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed "
                             "(apt-get install orca at-spi2-core dbus-x11 xvfb xdotool openbox)")
    launcher = Path("/usr/libexec/at-spi-bus-launcher")
    work = Path(tempfile.mkdtemp(prefix="stet-orca-"))
    home = work / "home"
    (home / ".config" / "stet").mkdir(parents=True)
    (home / ".config" / "stet" / "settings.json").write_text(json.dumps(
        {"help": {"tour_seen": True}, "export": {"last_format": ".txt"}}))
    orca_prefs = home / ".local" / "share" / "orca"
    orca_prefs.mkdir(parents=True)
    # Orca's defaults but for key echo: the keys pressed are listed with each step instead
    (orca_prefs / "user-settings.conf").write_text(json.dumps({
        "general": {"enableKeyEcho": False, "enableEchoByCharacter": False, "enableEchoByWord": False,
                    "profile": ["Default", "default"]},
        "profiles": {"default": {"profile": ["Default", "default"], "pronunciations": {}, "keybindings": {}}},
        "pronunciations": {}, "keybindings": {}}))
    display = _free_display()
    env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_DATA_HOME=str(home / ".local" / "share"), XDG_CACHE_HOME=str(home / ".cache"),
               XDG_RUNTIME_DIR=str(work), DISPLAY=f":{display}", LANG="en_GB.UTF-8", NO_AT_BRIDGE="0",
               GTK_A11Y="atspi")
    env.pop("QT_QPA_PLATFORM", None)
    project = work / "talk.stet"
    subprocess.run([args.python, "-c", MAKE_PROJECT, str(project)], env=dict(env, PYTHONPATH=str(ROOT)),
                   check=True, cwd=ROOT)
    procs: list[subprocess.Popen[bytes]] = []
    orca_log = work / "orca.log"
    problems: list[str] = []
    report: list[tuple[str, list[str]]] = []
    bus_pid = None
    try:
        procs.append(subprocess.Popen(["Xvfb", f":{display}", "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        _wait(lambda: Path(f"/tmp/.X11-unix/X{display}").exists(), 20, "Xvfb")
        # a window manager gives the focus back to the window when a dialog closes, as a
        # desktop's does (without one, Orca heard nothing after the file dialog)
        procs.append(subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
        bus = subprocess.run(["dbus-launch", "--sh-syntax"], env=env, capture_output=True, text=True,
                             check=True).stdout
        for name in ("DBUS_SESSION_BUS_ADDRESS", "DBUS_SESSION_BUS_PID"):
            found = re.search(rf"{name}='?([^';\n]+)'?;", bus)
            if found:
                env[name] = found.group(1)
        bus_pid = int(env["DBUS_SESSION_BUS_PID"])
        procs.append(subprocess.Popen([str(launcher), "--launch-immediately"], env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(2)
        procs.append(subprocess.Popen(["/usr/bin/python3", "-c", ORCA, str(orca_log)], env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        _wait(lambda: orca_log.exists() and "SPEECH OUTPUT" in orca_log.read_text(errors="replace"), 60,
              "Orca to speak (its debug log)")
        stet_env = dict(env, QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1", QT_QPA_PLATFORM="xcb",
                        PYTHONPATH=str(ROOT))
        procs.append(subprocess.Popen([args.python, "-X", "faulthandler", "-m", "editor", "gui"], env=stet_env, cwd=ROOT,
                                      stdout=(work / "stet.out").open("wb"), stderr=subprocess.STDOUT))

        def window_id() -> str:
            found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Stet"], env=env,
                                   capture_output=True, text=True).stdout.split()
            return found[0] if found else ""
        _wait(lambda: bool(window_id()), 90, "Stet's window")
        time.sleep(4)  # the window settles; Orca has its first focus
        if procs[-1].poll() is not None:
            raise SystemExit(f"Stet ended ({procs[-1].returncode}): see {work / 'stet.out'}")
        subprocess.run(["xdotool", "windowfocus", "--sync", window_id()], env=env, check=False)
        time.sleep(1)
        for what, keys, pause, expected in STEPS:
            before = len(orca_log.read_text(errors="replace"))
            for key in keys:
                if key == "@PATH":
                    time.sleep(2)  # the file dialog opens
                    subprocess.run(["xdotool", "type", "--delay", "20", str(project)], env=env, check=True)
                    time.sleep(0.5)
                elif len(key) == 1:
                    subprocess.run(["xdotool", "type", key], env=env, check=True)
                else:
                    subprocess.run(["xdotool", "key", key], env=env, check=True)
                time.sleep(0.6)
            time.sleep(pause)
            said = spoken(orca_log.read_text(errors="replace")[before:])
            report.append((what, said))
            heard = " | ".join(said)
            missing = [e for e in expected if e not in heard]
            if missing:
                problems.append(f"{what}: not heard {missing}")
            print(f"\n## {what}\n" + "\n".join(f"  {line}" for line in said))
        exported = project.with_suffix(".txt")
        if exported.exists():
            print(f"\nExported {exported.name}: {exported.read_text().strip()}")
            report.append((f"The exported {exported.name} says", [exported.read_text().strip()]))
    finally:
        for proc in reversed(procs):
            proc.send_signal(signal.SIGTERM)
        for proc in reversed(procs):
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if bus_pid is not None:
            try:
                os.kill(bus_pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    version = subprocess.run(["orca", "--version"], capture_output=True, text=True).stdout.strip()
    if args.markdown is not None:
        write_markdown(args.markdown, version, report, problems)
    for p in problems:
        print("NOT HEARD:", p)
    print(f"\n{version}; log kept in {orca_log}")
    return 1 if problems else 0


def write_markdown(path: Path, version: str, report: list[tuple[str, list[str]]], problems: list[str]) -> None:
    """The run as docs/accessibility-run.md has it."""
    today = datetime.datetime.now(datetime.UTC).strftime("%d %b %Y")
    debian = Path("/etc/debian_version").read_text().strip() if Path("/etc/debian_version").exists() else "?"
    lines = ["# A review heard through Orca", "",
             "What the screen reader Orca says, word for word, while a person opens a transcript, hears "
             "the current suggestion, accepts, rejects and undoes, accepts all at or above a threshold, "
             "exports and reads the text as it stands (the [user guide](user-guide.md#with-a-keyboard-and-a-screen-reader) "
             "says how to review this way). Made by `tests/accessibility/orca_run.py`, which starts Xvfb, "
             "a D-Bus session, the AT-SPI bus, the openbox window manager, Orca with `--debug-file` and "
             "Stet, presses the keys with xdotool and keeps the lines Orca's debug log marks "
             "`SPEECH OUTPUT` (no sound card is needed: Orca logs each line it speaks). Orca's key echo is "
             "off, so the keys are named in each step instead. Rerun it with "
             "`.venv/bin/python tests/accessibility/orca_run.py --markdown docs/accessibility-run.md` "
             "(Debian: `apt-get install orca at-spi2-core dbus-x11 xvfb xdotool openbox`).", "",
             "The transcript is made by the script: 22 words with six pending suggestions, the words a "
             "listener heard in issue 49. The file is exported as `.txt`, pending suggestions left out.", "",
             f"## The run of {today}", "",
             f"Orca {version} on Debian {debian}, Xvfb, no speech server; Stet from this checkout.", ""]
    lines = [textwrap.fill(line, 100, break_on_hyphens=False, break_long_words=False) for line in lines]
    for what, said in report:
        lines.append(f"**{what}**")
        lines.append("")
        lines += [f"> {line.strip()}  " for line in said] or ["> (nothing)"]
        lines.append("")
    lines.append("Not heard: " + "; ".join(problems) if problems else "Every step was heard as the script expects.")
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
