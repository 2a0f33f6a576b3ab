"""Learning from the person reviewing, in the editor: what is kept after a save and what a
restoration uses.

The rules live in ``editor.core.review.repeat_choices`` (propagation in the document) and
``editor.restore.learning.learned_store`` (what a review teaches, what is kept and what a restoration
applies); this module only runs them off the UI thread. The dialog is ``editor.gui.dialogs.learned``."""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QWidget

from editor.core import process
from editor.core.document.transcript import Suggestion, Token, Transcript
from editor.core.errors import UserError
from editor.core.review.repeat_choices import user_forms
from editor.core.settings import Settings
from editor.gui.base.background import BackgroundOp
# with the window, not at the first file shown: it brings numpy, whose import there held the
# window's thread ~100 ms (tests/perf/bench_gui_stalls.py, a fresh window)
from editor.restore import LEARNING, suggestions_snapshot

if TYPE_CHECKING:
    import numpy as np

    from editor.restore import MarginalRead
    from editor.restore import Taught

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Learned:
    """What a save's learning found (on the worker): the review's fingerprint, and what keeping it
    gave ((forms added, reviewed words of the profile, seconds); None: nothing new to learn)."""

    digest: str
    kept: tuple[int, int, float] | None
    taught: Taught | None = None  # what the save taught, to say and to take back


class LearningController(QObject):
    """Keeps what a review taught after each save: the person's case forms join the user lexicon
    (and the project's own lexicon); the reviewed stretch teaches the adaptation kept for the
    document's language and speakers (a mark bias fitted on the model's marginals there, forms and
    the marks chosen between word pairs: what `stet eval --simulate-review` measures). The work
    runs on the thread pool, from copies of the document's tokens and suggestions; ``reader``
    (called there) gives what the model teaches with (`editor.restore.learning.learned_store.model_lessons`
    of the reviewed words: the window's ``Restorers.model_lessons``, which asks its worker
    process; None: forms and pair marks only).

    It also knows what the open document last taught (``watch``; kept in the project by its
    ``LEARNING`` record, see ``record``): a save whose review teaches nothing new learns nothing
    again, and a project saved before its learning ended (or with learning off) is learned from
    at its next save."""

    message = Signal(str)
    error = Signal(str)
    learned = Signal(int)  # reviewed words the document's profile has learned from, after a save
    taught = Signal(str)  # what a save taught, for the person to read ("learned: Manhattan, 1D")
    forgotten = Signal()  # what the last save taught was taken back

    def __init__(self, settings: Settings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.reader: Callable[[Sequence[MarginalRead]],
                              tuple[list[np.ndarray], frozenset[str], frozenset[str]]] | None = None
        self.last_seconds: float | None = None  # how long the last adaptation took (worker time)
        self.last_added = 0  # forms the last save added to the user lexicon
        self.last_taught: Taught | None = None  # what the last save taught, until forgotten
        self._op: BackgroundOp | None = None
        self._doc: Transcript | None = None
        self._learned_digest: str | None = None  # the fingerprint of the review last learned from
        self._learned_revision: int | None = None  # the document's revision then
        # the words the document was opened with (an immutable tuple): the author's forms, which
        # no review decided, are told from the person's on the worker (`authored_forms`)
        self._opened: tuple[Token, ...] | None = None

    @property
    def running(self) -> bool:
        """A save's learning is still under way on the worker."""
        return self._op is not None and not self._op.done

    def watch(self, transcript: Transcript) -> None:
        """``transcript`` is the window's now: what it taught before is read from its project."""
        stored = transcript.metadata.extra.get(LEARNING)
        learned = stored.get("learned") if isinstance(stored, dict) else None
        self._doc, self._learned_digest = transcript, learned if isinstance(learned, str) else None
        self._learned_revision = None
        self._opened = transcript.tokens

    def _unchanged(self, transcript: Transcript, revision: int | None = None) -> bool:
        """Nothing changed in ``transcript`` (at ``revision``, by default its current one) since
        the review last learned from."""
        revision = transcript.revision if revision is None else revision
        return transcript is self._doc and revision == self._learned_revision

    def recorder(self, transcript: Transcript) -> Callable[[dict[str, str], Sequence[Suggestion]], dict[str, Any]]:
        """What gives the project's ``LEARNING`` record as a save writes it (before the learning
        runs): the fingerprint last learned from, and whether decisions may wait to be learned
        from. Call on the UI thread; what it returns runs where the save is written, with the
        forms and the suggestions written."""
        from editor.core.document.transcript import State

        known = self._learned_digest if transcript is self._doc else None
        unchanged = self._unchanged(transcript)

        def record(forms: dict[str, str], suggestions: Sequence[Suggestion]) -> dict[str, Any]:
            decided = any(s.state in (State.ACCEPTED, State.REJECTED) for s in suggestions)
            return {LEARNING: {"learned": known, "pending": (decided or bool(forms)) and not unchanged}}
        return record

    def remember(self, transcript: Transcript, forms: dict[str, str] | None = None,
                 source: str | None = None, *, tokens: tuple[Token, ...] | None = None,
                 suggestions: Sequence[Suggestion] | None = None,
                 revision: int | None = None) -> BackgroundOp | None:
        """Learn from ``transcript``'s review (call after it was saved); ``forms``: its
        ``user_forms`` when the caller has them already (a pass over every word saved); ``source``:
        the project file, so that saving it again replaces what it taught before. ``tokens``,
        ``suggestions`` and ``revision``: what the save wrote (the document may have changed
        since), when not the document as it stands. Nothing is learned when the review teaches
        nothing new (the worker compares fingerprints)."""
        revision = transcript.revision if revision is None else revision
        if not self.settings.review.learn_from_reviews or self._unchanged(transcript, revision):
            return None

        forms = user_forms(transcript) if forms is None else forms
        if tokens is None or suggestions is None:  # copies for the worker
            tokens, suggestions = transcript.tokens, suggestions_snapshot(transcript)
        language = transcript.metadata.language
        known = self._learned_digest if transcript is self._doc else None
        opened = self._opened if transcript is self._doc else None
        reader = self.reader

        def work(report: Callable[[Any], None]) -> _Learned:
            nonlocal tokens, suggestions, opened
            try:
                # its objects for 100,000 words set off full collections (13-30 ms, the GIL held)
                with process.collections_held("learning"):
                    return learn(report)
            finally:
                # Let the records go now, while the document still holds them. Kept by this op until
                # the next save replaced it, they were the last references to a replaced document's
                # records, freed at once on the UI thread (30-40 ms at 100,000 words).
                tokens = suggestions = opened = None

        def learn(_report: Callable[[Any], None]) -> _Learned:
            import time

            from editor.core.document.transcript import Kind
            from editor.core.review.repeat_choices import forms_of
            from editor.restore import (learn_review, marginal_reads, placed_marginals, profile_key,
                                        profile_label, review_digest,
                                        reviewed_decisions_in)
            from editor.restore import Adaptation
            from editor.restore import LEXICON_MIN_DECISIONS, authored_forms, keep_review

            began = time.perf_counter()
            assert tokens is not None and suggestions is not None
            # only what the person changed or decided teaches, never the author's text, and a form
            # joins the lexicon (written outright in every later file) only where the document
            # writes it alike at least LEXICON_MIN_DECISIONS times mid-sentence
            authored = authored_forms(opened) if opened is not None else None
            cases = {s.token_id: s for s in suggestions if s.kind == Kind.CASE}
            marks = {s.token_id: s for s in suggestions if s.kind == Kind.PUNCT}
            person = forms_of(tokens, cases.get, marks.get, authored, LEXICON_MIN_DECISIONS)
            taught = {w: f for w, f in forms.items() if person.get(w) == f}
            _start, decisions, reviewed = reviewed_decisions_in(tokens, suggestions, authored)
            speakers = frozenset(t.speaker for t in tokens if t.speaker)
            key = profile_key(language, speakers)
            digest = review_digest(decisions, reviewed, taught, key)
            if digest == known or not (any(reviewed) or taught):
                return _Learned(digest, None)
            # what the model gives (the marginals the mark bias is fitted on, its most frequent
            # words), from the window's worker process where restoration runs there
            reads = marginal_reads([d.word for d in decisions], reviewed)
            lessons = None
            if reader is not None:
                try:
                    lessons = reader(reads)
                except (OSError, ValueError, RuntimeError, UserError) as err:  # no model: forms and pair marks only
                    log.warning("learning without the model's marginals: %s", err)
            # the model's most frequent words keep their capitals in the profile's context forms only
            common = lessons[1] if lessons is not None else frozenset()
            # its vocabulary's words that are not names: a capital there is kept with the name around it
            plain = lessons[2] if lessons is not None else frozenset()
            learned = None
            if any(reviewed):
                try:
                    if lessons is not None:
                        joint = placed_marginals(len(decisions), reads, lessons[0])
                        learned = learn_review(None, decisions, reviewed, joint=joint, common=common,
                                               plain=plain)
                except (OSError, ValueError, RuntimeError, UserError) as err:
                    log.warning("learning without the model's marginals: %s", err)
                if learned is None:
                    learned = Adaptation.learn(decisions, None, reviewed=reviewed)
            kept = keep_review(learned, taught, key, profile_label(language, speakers), source, common | plain)
            return _Learned(digest, (kept.added, kept.words, time.perf_counter() - began), kept)

        self._op = BackgroundOp(self, work).success(
            partial(self._remembered, transcript, revision)).failure(self._failed).run()
        return self._op

    def _remembered(self, transcript: Transcript, revision: int, result: _Learned) -> None:
        if transcript is self._doc:
            self._learned_digest, self._learned_revision = result.digest, revision
        if result.kept is None:
            return
        added, words, seconds = result.kept
        self.last_seconds, self.last_added = seconds, added
        self.learned.emit(words)
        names = result.taught.names() if result.taught is not None else []
        if names:
            self.last_taught = result.taught
            shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
            self.taught.emit(f"learned: {shown}")

    def forget_last(self) -> int:
        """Forget what the last save taught (its lexicon entries, its share of the profile), where
        nothing learned since changed them; returns how many entries were forgotten."""
        from editor.restore import forget_taught

        taught, self.last_taught = self.last_taught, None
        if taught is None:
            return 0
        try:
            n = forget_taught(taught)
        except (OSError, ValueError, UserError) as err:
            self.error.emit(f"Could not forget what this review taught: {err}")
            return 0
        self.message.emit(f"Forgot what this save taught ({n} entr{'ies' if n != 1 else 'y'})" if n
                          else "Nothing to forget: what this save taught was changed since")
        self.forgotten.emit()
        return n

    def _failed(self, err: BaseException) -> None:
        self.error.emit(f"Could not keep what this review taught: {err}")


class TaughtNote(QLabel):
    """The status bar's line after a save that taught something: what it learned, and a link
    that forgets it (`LearningController.forget_last`). It stays until the next save's learning
    or the link is used."""

    def __init__(self, learning: LearningController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.learning = learning
        self.setObjectName("taught-note")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                     | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        self.hide()
        learning.taught.connect(self.show_taught)
        learning.forgotten.connect(self.hide)
        self.linkActivated.connect(lambda _link: learning.forget_last())

    def show_taught(self, text: str) -> None:
        self.setText(f"{html.escape(text)} \u00b7 <a href=\"forget\">Forget</a>")
        self.setToolTip("Stet learned this from the review you saved; Forget takes it back "
                        "(Review > What Stet learned lists all it learned)")
        self.setAccessibleName(f"{text}. Forget")
        self.show()
