"""The one ``QSyntaxHighlighter`` the text's document may have, and who holds it.

Qt lets any number of highlighters be set on one document, but each sets a block's additional
formats whole (``QTextLayout.setFormats``): a second one silently replaces what the first drew,
block by block as they rehighlight. So the view owns one ``HighlighterSlot`` for its document and a
highlighter is put on the document only through it; a second one asking while the first holds it
is refused at once (docs/architecture.md, "How to draw on the text")."""

from __future__ import annotations

from PySide6.QtGui import QSyntaxHighlighter, QTextDocument


class HighlighterSlot:
    """The document's one highlighter: ``take`` sets it on the document, ``release`` takes it off
    (costing nothing while none holds it)."""

    def __init__(self, document: QTextDocument) -> None:
        self.document = document
        self.holder: QSyntaxHighlighter | None = None

    def take(self, highlighter: QSyntaxHighlighter) -> None:
        """Put ``highlighter`` on the document (marking every block); RuntimeError while another
        holds it: the two would draw over each other's marks."""
        if self.holder is not None and self.holder is not highlighter:
            raise RuntimeError(f"the text already has a highlighter ({type(self.holder).__name__}); "
                               f"{type(highlighter).__name__} would silently replace its marks: draw "
                               "both in one highlighter (docs/architecture.md, How to draw on the text)")
        if self.holder is None:
            self.holder = highlighter
            highlighter.setDocument(self.document)

    def release(self, highlighter: QSyntaxHighlighter) -> None:
        """Take ``highlighter`` off the document, if it holds it."""
        if self.holder is highlighter:
            self.holder = None
            highlighter.setDocument(None)
