"""A whole transcript through the model: what `stet restore` does to one file, single or in a batch.

Both paths call :func:`restore_transcript`, so a file restored in a batch is byte for byte the file
restored on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from editor.core.document import Transcript

if TYPE_CHECKING:
    from editor.restore.inference import Restorer
    from editor.restore.prediction import WordPrediction

#: Inputs shorter than this are restored in one go, without progress reports.
PROGRESS_MIN_WORDS = 2000


def restore_transcript(restorer: Restorer, doc: Transcript, on_words: Callable[[int, int], None] | None = None,
                       *, lexicon: bool = True, learned: bool = False, any_language: bool = False,
                       name: str = "the text", profile: str | None = None,
                       keep_author: bool | None = None) -> Transcript:
    """Put the model's suggestions on ``doc`` (pending, one undo step) and name the model in it.

    What was learned from reviews is applied first (the user lexicon unless ``lexicon`` is False,
    the project's forms, and with ``learned`` the adaptation kept for its language and speakers;
    see editor.restore.learned.adaptation_for; ``profile``: a kept profile chosen on purpose, whatever
    the document's language and speakers). ``on_words(done, total)`` is called as regions of a
    long text are finished. A text that does not look like the model's language is refused
    (UserError naming ``name``) unless ``any_language``. Text with written marks or capitals keeps
    them unless the model's evidence outweighs the author's (the model's author prior).
    ``keep_author``: propose only missing marks and capitals, never a removal or replacement of
    what is written (None: so where the text has marks or capitals; see make_suggestions)."""
    from editor.restore.learned import adaptation_for
    from editor.restore.suggest import make_suggestions, rare_word

    tokens = doc.tokens
    words = [t.word for t in tokens]
    check = restorer.language_check(words)
    if not check.matches and not any_language:
        from editor.core.errors import UserError

        raise UserError(f"{name}: not restored: {check.message}; --any-language restores it anyway")
    try:
        restorer.adapt(adaptation_for(doc, lexicon=lexicon, learned=learned, profile=profile))
    except ValueError as err:  # a damaged learned file, or a chosen profile that is not kept
        from editor.core.errors import UserError

        raise UserError(str(err)) from None
    done = 0

    def on_chunk(start: int, end: int, _preds: list[WordPrediction]) -> None:
        nonlocal done
        done += end - start
        if on_words is not None:  # always, when it is passed
            on_words(done, len(words))

    preds = restorer.restore(words, on_chunk=on_chunk if on_words and len(words) > PROGRESS_MIN_WORDS else None,
                             paragraph_starts=doc.paragraph_starts)
    doc.set_suggestions(make_suggestions(tokens, preds, restorer.lexicon, author_prior=restorer.author_prior,
                                         comma_capital=getattr(restorer, "may_capitalize_after_comma", None),
                                         keep_author=keep_author, rare=rare_word(restorer)),
                        text="Restore")
    doc.set_metadata(restore_model=restorer.name)
    return doc
