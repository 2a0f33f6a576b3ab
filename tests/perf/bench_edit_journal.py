"""What journaling each edit costs the typing: the time a keystroke spends in the edit journal
(``editor.core.recovery.edits``: encoding the change and the ``os.write`` of its line), median
and worst, beside the whole keystroke, on a restored transcript in the real window.

    QT_QPA_PLATFORM=offscreen PYTHONPATH=. python tests/perf/bench_edit_journal.py [--words 12000] [--keys 600]

The transcript has a punctuation suggestion on every word and a capital on one in five (as a
restored one has); keys are typed at a steady pace into words spread through it, with
Backspace, Enter and Space among them, the autosaves running as they do in use.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from editor.core.document.transcript import Kind, Suggestion, Transcript
from editor.core.recovery.edits import EditJournal

SPENT = [0.0, 0.0]  # wall, and the UI thread's CPU (under load the wall time has waits for a core)


def timed(name: str) -> None:
    """Count the time in one of the journal's handlers (each change of the document calls one)."""
    handler = getattr(EditJournal, name)

    def wrapper(self: EditJournal, *args: object) -> None:
        began, cpu = time.perf_counter(), time.thread_time()
        handler(self, *args)
        SPENT[0] += time.perf_counter() - began
        SPENT[1] += time.thread_time() - cpu

    setattr(EditJournal, name, wrapper)


def document(n: int) -> Transcript:
    rng = random.Random(0)
    vocab = ["the", "a", "station", "library", "okay", "we", "table", "seed", "garden", "said"]
    doc = Transcript.from_words(rng.choice(vocab) for _ in range(n))
    suggestions = []
    for t in doc.tokens:
        suggestions.append(Suggestion(t.id, Kind.PUNCT, ",", {",": 0.6, "": 0.3, ".": 0.1}))
        if rng.random() < 0.2:
            suggestions.append(Suggestion(t.id, Kind.CASE, t.word.title(), {t.word.title(): 0.7, t.word: 0.3}))
    doc.set_suggestions(suggestions)
    return doc


def pump(ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=12_000)
    parser.add_argument("--keys", type=int, default=600)
    args = parser.parse_args()
    for name in ("_tokens_changed", "_suggestions_changed", "_paragraphs_changed", "_metadata_changed"):
        timed(name)
    from editor.core import process

    process.configure_process(gui=True)  # as `stet` starts the window (PySide6 6.12 on 3.11)
    app = QApplication.instance() or QApplication([])
    from editor.core.settings import Settings
    from editor.gui import MainWindow

    window = MainWindow(Settings(), interactive=False)
    window.resize(1000, 700)
    window.show()
    window.set_transcript(document(args.words), restore=False)
    pump(2000)  # laid out
    view = window.view
    view.setFocus(Qt.FocusReason.OtherFocusReason)
    rng = random.Random(1)
    journal_ms: list[float] = []
    key_ms: list[float] = []
    cpu_ms: list[float] = []
    worst: list[tuple[float, str, int]] = []
    lines = 0
    for k in range(args.keys):
        if k % 40 == 0:  # somewhere else in the text, as a person moves on
            cursor = view.textCursor()
            cursor.setPosition(rng.randrange(view.document().characterCount() - 1))
            cursor.movePosition(QTextCursor.MoveOperation.EndOfWord)
            view.setTextCursor(cursor)
        key = rng.choice("abcdefghijklmnopqrstuvwxyz" * 4 + "  \b\r")
        SPENT[0] = SPENT[1] = 0.0
        before = window.autosaver.edits.seq
        began = time.perf_counter()
        if key == "\b":
            QTest.keyClick(view, Qt.Key.Key_Backspace)
        elif key == "\r":
            QTest.keyClick(view, Qt.Key.Key_Return)
        else:
            QTest.keyClicks(view, key)
        key_ms.append((time.perf_counter() - began) * 1000)
        journal_ms.append(SPENT[0] * 1000)
        cpu_ms.append(SPENT[1] * 1000)
        worst.append((SPENT[0] * 1000, repr(key), k))
        lines += window.autosaver.edits.seq - before
        app.processEvents()
        pump(rng.choice([30, 60, 120]))  # typing pace: the autosaves run in between
    journal_ms.sort()
    cpu_ms.sort()
    key_ms.sort()
    print(f"{args.words:,} words, {args.keys} keys, {lines} changes numbered "
          f"({window.autosaver.edits.path.stat().st_size / 1e3:.0f} kB file now)")
    print(f"journal per key: median {statistics.median(journal_ms):.3f} ms, "
          f"p99 {journal_ms[int(len(journal_ms) * 0.99)]:.3f} ms, worst {journal_ms[-1]:.3f} ms")
    print(f"  its CPU: median {statistics.median(cpu_ms):.3f} ms, "
          f"p99 {cpu_ms[int(len(cpu_ms) * 0.99)]:.3f} ms, worst {cpu_ms[-1]:.3f} ms")
    print("slowest: " + ", ".join(f"{ms:.2f} ms (key {key} #{k})" for ms, key, k in sorted(worst)[-4:]))
    print(f"whole keystroke: median {statistics.median(key_ms):.2f} ms, worst {key_ms[-1]:.2f} ms")
    window.session.mark_saved()
    window.close()


if __name__ == "__main__":
    main()
