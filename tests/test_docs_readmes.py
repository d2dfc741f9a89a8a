"""The project's own docs (README.md, CONTRIBUTING.md and the folders' README.md): the README stays a page a
newcomer finishes, keeps the test command CI runs, and every relative link between the docs works."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from claimcheck.page import fenced_lines, read_page
from guidetools.project import REPO_ROOT

README_LIMIT = 150  # lines: what this is, the two commands, the fast loop, the layout, links
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def project_docs() -> list[Path]:
    folders = sorted(path for path in REPO_ROOT.glob("*/README.md") if not path.parts[-2].startswith("."))
    return [REPO_ROOT / "README.md", REPO_ROOT / "CONTRIBUTING.md", *folders]


def anchors(path: Path) -> set[str]:
    """The heading ids a code host gives a Markdown file: its headings' text lowercase, punctuation dropped, spaces as hyphens."""
    return {re.sub(r"[^\w\- ]", "", section.text.lower()).replace(" ", "-") for section in read_page(path).sections}


def test_the_readme_is_short_and_keeps_the_command_ci_runs():
    """Its two commands are the ones .ci/run and a newcomer use."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= README_LIMIT
    ci_command = re.search(r"^exec (python3 dev\.py test)$", (REPO_ROOT / ".ci" / "run").read_text(), re.M).group(1)
    assert f"\n{ci_command}    #" in readme and "\npython3 dev.py serve   #" in readme


def broken_links(doc: Path) -> list[str]:
    """The relative links of ``doc`` that name no file, or a #fragment no heading of that file has."""
    broken = []
    # Outside fenced blocks: a fence's `[x](y)` is code, not a link.
    for line in [line for line, fenced in fenced_lines(doc.read_text(encoding="utf-8").splitlines()) if not fenced]:
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target):
                continue  # an absolute URL
            file, _, fragment = target.partition("#")
            linked = (doc.parent / file).resolve() if file else doc
            if not linked.exists() or (fragment and linked.suffix == ".md" and fragment not in anchors(linked)):
                broken.append(target)
    return broken


@pytest.mark.parametrize("doc", project_docs(), ids=lambda path: path.relative_to(REPO_ROOT).as_posix())
def test_relative_links_reach_a_file_and_a_heading(doc):
    assert broken_links(doc) == [], f"{doc.relative_to(REPO_ROOT)}: broken links"


def test_the_link_check_finds_a_missing_file_and_a_missing_heading(tmp_path):
    """The check above can fail."""
    (tmp_path / "b.md").write_text("# B, the other file\n\n## Two words\n")
    (tmp_path / "a.md").write_text(
        "See [b](b.md), [its part](b.md#two-words), [top](#a) and [site](https://example.com/x.md).\n"
        "Broken: [gone](gone.md) and [no part](b.md#three-words).\n\n```sh\n[not](a link.md)\n```\n\n# A\n")
    assert anchors(tmp_path / "b.md") == {"b-the-other-file", "two-words"}
    assert broken_links(tmp_path / "a.md") == ["gone.md", "b.md#three-words"]
