"""The transcript document and everything that needs no torch, Qt or audio: undo, formats, paths."""

from editor.core.document.transcript import (Kind, Metadata, SourceCue, Spread, State, Suggestion, Token,
                                             Transcript, WordsSnapshot)
from editor.core.errors import FormatError, UserError
from editor.core.document.history import History
from editor.core.render import RenderPolicy, render

__all__ = ["FormatError", "History", "Kind", "Metadata", "RenderPolicy", "SourceCue", "Spread", "State", "Suggestion",
           "Token", "Transcript", "UserError", "WordsSnapshot", "render"]
