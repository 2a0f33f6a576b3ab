"""The one writer of ``.stet`` projects (the format, and reading it: ``editor.core.formats.stet``):
``write_stet`` for `write_any` (``stet convert``, ``restore``, a batch), ``ProjectWriter`` for the
window's saves, on a thread other than the one that owns the document (no Qt).

Saving 100,000 words with their 100,000 suggestions builds ~200,000 JSON records and looks at
every word for the forms the person wrote: ~0.8 s, a frozen window when done where the document
lives. So a save is split as an autosave is (``editor.core.recovery.slots``): ``DocumentTracker.capture``
takes the document on its own thread in milliseconds (the records are immutable; only containers
are copied, and after the first save only the suggestions that changed), and
``ProjectWriter.write`` does the rest on any thread, from that capture alone: the JSON a run of
tokens at a time (the runs unchanged since the last save are reused, and the interpreter is never
held long), the forms for the user lexicon, the project's own lexicon, and the atomic write.
What it returns (``WrittenProject``) is what was written, for the learning that follows a save.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from editor.core.atomic import PathLike, atomic_write
from editor.core.document.transcript import Kind, Suggestion, Token, Transcript
from editor.core.render import NONE, RenderPolicy
from editor.core.review.repeat_choices import forms_of
from editor.core.review.lexicon import with_project_forms
from editor.core.recovery.state import EncodeCache, RecoveryState, SuggestionMirror, head_json

#: Called on the writing thread with the forms and every suggestion written; gives entries of
#: the metadata's ``extra`` to write over the document's own (what Stet learned from it).
ExtraFor = Callable[[dict[str, str], Sequence[Suggestion]], Mapping[str, Any]]


@dataclass(frozen=True)
class WrittenProject:
    """A project as it was written."""

    path: Path
    tokens: tuple[Token, ...]
    suggestions: tuple[Suggestion, ...]  # every one written, in no order
    forms: dict[str, str]  # the case forms the person wrote or chose (``user_forms``)
    #: the document's metadata ``extra`` with its own lexicon brought up to date (as written),
    #: or None when the document holds it already
    lexicon_extra: dict[str, Any] | None
    size: int  # bytes
    seconds: float  # on the writing thread


class ProjectWriter:
    """Writes the projects of one document from its captures (a ``DocumentTracker``'s, in the
    order taken), keeping the suggestions as they say (``SuggestionMirror``) and the JSON of each
    run of tokens (``EncodeCache``): a save re-encodes only what changed since the last one.
    One write at a time; after a failed write use a new writer and a new tracker. ``give_way``:
    waits while a step of the window runs (editor.gui.base.turns): the encoding rests then."""

    def __init__(self, give_way: Callable[[], float] | None = None) -> None:
        self.give_way = give_way
        self._mirror = SuggestionMirror()
        self._cache = EncodeCache()
        self._lock = threading.Lock()

    def write(self, state: RecoveryState, path: PathLike, *, extra: ExtraFor | None = None,
              learn: bool = True) -> WrittenProject:
        """Write ``state`` as the project ``path`` (atomically). Any thread; raises ``UserError``
        or ``OSError`` when it cannot be written (the file is then as it was). ``learn``: gather
        the forms the person wrote and keep them as the project's own lexicon (a save); without
        it the metadata is written as it is (``write_stet``: a file converted or restored)."""
        began = time.perf_counter()
        target = Path(path)
        with self._lock:
            head, entries = state.parts(self._cache, self._mirror, target, give_way=self.give_way)
            mirror = self._mirror
            suggestions = tuple(itertools.chain.from_iterable(t.values() for t in mirror.tables))
            forms = forms_of(state.tokens, mirror.of_kind(Kind.CASE).get,
                             mirror.of_kind(Kind.PUNCT).get) if learn else {}
        del head["recovery"]
        lexicon = with_project_forms(state.metadata.extra, forms) if learn else None
        written = dict(lexicon if lexicon is not None else state.metadata.extra)
        if extra is not None:
            written.update(extra(forms, suggestions))
        head["metadata"]["extra"] = written
        # bytes a run at a time: one encoding of the whole text would hold the interpreter
        data = b"".join((head_json(head)[:-1].encode(), b',"tokens":[',
                         b",".join(e[2].encode() for e in entries if e[2]), b'],"suggestions":[',
                         b",".join(e[3].encode() for e in entries if e[3]), b"]}"))
        atomic_write(target, data)
        return WrittenProject(target, state.tokens, suggestions, forms, lexicon, len(data),
                              time.perf_counter() - began)


def write_stet(transcript: Transcript, path: PathLike, policy: RenderPolicy = NONE) -> None:
    """Write ``transcript`` as the project ``path`` (atomically), its metadata as it is: the
    writer of `write_any` (``policy`` is ignored: a project keeps pending suggestions pending).
    The same writer as a save's, on a fresh capture: about the CPU the whole document as one tree
    of dicts given to ``json.dumps`` took, with a lower peak of memory (tests/perf/
    bench_project_write.py, docs/performance.md)."""
    ProjectWriter().write(RecoveryState.capture(transcript), path, learn=False)


__all__ = ["ExtraFor", "ProjectWriter", "WrittenProject", "write_stet"]
