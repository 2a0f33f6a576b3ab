"""HTML read as a tree by libxml2's parser (lxml, which python-docx already brings), for the formats
that hold HTML: noScribe's transcripts, oTranscribe's text. Parsing is linear in the text whatever
its markup; the standard library's ``html.parser`` takes time quadratic in runs of unclosed tags
(before Python 3.11.13: an oTranscribe file of 20,000 ``<a b='x``, 133 s on a loaded machine).
Character references are decoded; comments and processing instructions are dropped; no DTD,
entity or network is read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from editor.core.errors import FormatError
from editor.core.formats._common import PathLike


class Handler(Protocol):
    """What `walk` tells of each element, in document order."""

    def start(self, tag: str, attrs: Mapping[str, str]) -> None: ...

    def end(self, tag: str) -> None: ...

    def data(self, text: str) -> None: ...


#: How deep libxml2 nests elements with ``huge_tree`` (256 without): markup nested deeper is
#: refused, not read in part (the parser drops everything inside and after it).
MAX_DEPTH = 2048


def parse_html(text: str, path: PathLike) -> Any | None:
    """The root element of ``text`` read as HTML (tag soup too), None where nothing is read; a
    FormatError where elements are nested deeper than `MAX_DEPTH`, whose words would be lost."""
    from lxml import etree

    parser = etree.HTMLParser(encoding="utf-8", no_network=True, remove_comments=True,
                              remove_pis=True, huge_tree=True)
    try:
        root = etree.fromstring(text.encode("utf-8", "surrogatepass"), parser)
    except (etree.LxmlError, ValueError):
        root = None
    if any(error.type_name == "ERR_RESOURCE_LIMIT" for error in parser.error_log):
        raise FormatError(path, f"its elements are nested more than {MAX_DEPTH:,} levels deep; such "
                          "a file is refused rather than read in part")
    return root


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
