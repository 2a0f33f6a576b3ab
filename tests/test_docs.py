"""The README and docs/: every relative link points at a file that exists (and an anchor at a
heading of it), the README stays a front door, and CI runs the test command the README gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# [text](target) and ![alt](target); a target ends at the first space or closing bracket
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)[^)]*\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))  # code blocks hold no links
    return LINK.findall(text)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to -."""
    found = set()
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    for heading in re.findall(r"^#+\s+(.*?)\s*$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        found.add(slug)
    return found


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
            continue
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            broken.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{target}: no heading #{anchor}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    assert broken_links(page) == []


def test_a_broken_link_is_found(tmp_path):
    (tmp_path / "there.md").write_text("# A heading\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[ok](there.md#a-heading) ![gone](gone.png) [bad](there.md#nowhere)\n"
                    "```\n[in code](not-a-link.md)\n```\n[web](https://example.org/x)\n",
                    encoding="utf-8")
    assert broken_links(page) == ["gone.png: no such file", "there.md#nowhere: no heading #nowhere"]


def rows_run_on(page: Path) -> list[str]:
    """Lines right after a table's last row that are not rows and not blank: Markdown (GitHub's,
    and Qt's in Help ▸ User guide) reads them as more rows, one cell each."""
    lines = FENCE.sub("", page.read_text(encoding="utf-8")).split("\n")
    return [after[:60] for row, after in zip(lines, lines[1:])
            if row.lstrip().startswith("|") and after.strip() and not after.lstrip().startswith("|")]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_table_ends_before_the_text_after_it(page):
    """The user guide's paragraph on Word documents followed a table with no blank line, and the
    help window drew it as seven narrow rows of that table (a line each, beside an empty cell)."""
    assert rows_run_on(page) == []


def test_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    for page in ("user-guide", "formats", "guarantees", "performance", "architecture", "development"):
        assert f"(docs/{page}.md)" in readme


def test_ci_runs_the_test_command_the_readme_gives():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", readme, re.S)
    assert block is not None
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines()]
    assert "make test" in commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert "make test" in [line.strip() for line in ci]
    assert re.search(r"^test:", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
