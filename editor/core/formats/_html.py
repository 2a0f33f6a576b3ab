"""HTML read as a tree by libxml2's parser (lxml, which python-docx already brings), for the formats
that hold HTML: noScribe's transcripts, oTranscribe's text. Parsing is linear in the text whatever
its markup; the standard library's ``html.parser`` takes time quadratic in runs of unclosed tags
(before Python 3.11.13: an oTranscribe file of 20,000 ``<a b='x``, 133 s on a loaded machine).
Character references are decoded; comments and processing instructions are dropped; no DTD,
entity or network is read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Handler(Protocol):
    """What `walk` tells of each element, in document order."""

    def start(self, tag: str, attrs: Mapping[str, str]) -> None: ...

    def end(self, tag: str) -> None: ...

    def data(self, text: str) -> None: ...


def parse_html(text: str) -> Any | None:
    """The root element of ``text`` read as HTML (tag soup too), None where nothing is read."""
    from lxml import etree

    parser = etree.HTMLParser(encoding="utf-8", no_network=True, remove_comments=True,
                              remove_pis=True, huge_tree=False)
    try:
        return etree.fromstring(text.encode("utf-8", "surrogatepass"), parser)
    except (etree.LxmlError, ValueError):
        return None


def walk(root: Any, handler: Handler) -> None:
    """Each element's start (its tag in lower case), text, end and the text after it, in document
    order, without recursion (a file may nest deep)."""
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        element, closing = stack.pop()
        if closing:
            handler.end(element.tag.lower())
        elif isinstance(element.tag, str):  # not a comment or a processing instruction
            handler.start(element.tag.lower(), {str(k): str(v) for k, v in element.attrib.items()})
            if element.text:
                handler.data(element.text)
            stack.append((element, True))
            stack.extend((child, False) for child in reversed(element))
            continue
        if element.tail:
            handler.data(element.tail)
