"""The prose report: how long and how dense each guide page reads, measured on the built site.

What counts is what a reader reads as running text: the paragraphs and list items of a page's article,
outside tables, code blocks and collapsed Details blocks, and without the claim marks. An inline code
span counts as one word. A sentence ends at `.`, `!` or `?` before a space and a capital, a digit, a
quote or a code span, or at the end of its paragraph.

    python3 dev.py prose [SITE]   the report for a built site (default: a plain build into a temporary folder)
"""

from __future__ import annotations

import os
from copy import copy as copy_of
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from bs4 import BeautifulSoup, Tag

from claimcheck.inline import read_inline
from claimcheck.page import KINDS
from guidetools.export import EXPORTED_PAGES

# The four pages the guide publishes (the ones it exports to the framework), as the build writes them.
PAGES = {PurePosixPath(page).stem: page.removesuffix(".md") + "/index.html" for page in EXPORTED_PAGES}

# The targets of issue 28, on every page; the word budget is for the four pages together.
MEAN_SENTENCE_WORDS = 18
LONG_SENTENCE_WORDS = 40
LONG_SENTENCE_SHARE = 0.05
PARAGRAPH_WORDS = 100
TOTAL_WORDS = 9_500
CLAIM_WORDS = 60

CODE = "\N{OBJECT REPLACEMENT CHARACTER}"  # stands for one inline code span
SENTENCE_END = re.compile(r"(?<=[.!?])[)\"”’]*\s+(?=[A-Z0-9\"“‘(" + CODE + "])")


def words(text: str) -> int:
    """Words of plain text in which each inline code span already stands as CODE."""
    return sum(1 for token in text.split() if token == CODE or any(c.isalnum() for c in token))


def sentences(text: str) -> list[str]:
    return [part for part in SENTENCE_END.split(" ".join(text.split())) if words(part)]


def markdown_words(text: str) -> int:
    """Words of one line of Markdown (a claim's text): a code span is one word, a link its text."""
    inline = read_inline(text)  # its prose has the code spans and link targets blanked out
    return words(inline.prose) + len(inline.code)


@dataclass(frozen=True)
class Block:
    """A paragraph or list item as the reader reads it."""

    text: str
    claim: str | None  # the claim id it states, if it is a claim
    collapsed: bool  # inside a collapsed Details block

    @property
    def words(self) -> int:
        return words(self.text)


def blocks(html: str) -> list[Block]:
    """The paragraphs and list items of a built page's article, outside tables and code blocks."""
    article = BeautifulSoup(html, "html.parser").select_one("article")
    if article is None:
        raise ValueError("no <article> in the page: is this a page MkDocs Material built?")
    found = []
    for element in article.find_all(["p", "li"]):
        if element.find_parent(["table", "pre", "nav"]) or "admonition-title" in element.get("class", []):
            continue
        found.append(Block(_own_text(element), _claim_id(element), _collapsed(element)))
    return [block for block in found if block.words]


def _own_text(element: Tag) -> str:
    """The element's text without its claim mark, nested blocks (counted on their own) or code blocks."""
    copy = copy_of(element)  # bs4 copies a tag with its whole subtree, unattached
    for nested in copy.find_all(["ul", "ol", "p", "pre", "table", "div", "details"]):
        nested.decompose()
    for mark in copy.select("a.claim-mark"):
        mark.decompose()
    for code in copy.find_all("code"):
        code.replace_with(f" {CODE} ")
    return " ".join(copy.get_text(" ").split())


def _claim_id(element: Tag) -> str | None:
    kinds = set(element.get("class", [])) & set(KINDS)
    return element.get("id") if kinds and element.get("id") else None


def _collapsed(element: Tag) -> bool:
    return any(details.get("open") is None for details in element.find_parents("details"))


@dataclass(frozen=True)
class PageProse:
    name: str
    words: int  # outside collapsed blocks
    collapsed_words: int
    sentences: int
    mean_sentence: float
    long_share: float  # of sentences over LONG_SENTENCE_WORDS words
    longest_paragraph: int
    longest_claim: tuple[int, str]  # words, id (collapsed blocks included)

    def misses(self) -> list[str]:
        """The targets this page misses, each as a sentence."""
        missed = []
        if self.mean_sentence > MEAN_SENTENCE_WORDS:
            missed.append(f"{self.name}: mean sentence {self.mean_sentence:.1f} words (target at most {MEAN_SENTENCE_WORDS})")
        if self.long_share > LONG_SENTENCE_SHARE:
            missed.append(f"{self.name}: {self.long_share:.1%} of sentences over {LONG_SENTENCE_WORDS} words (target at most {LONG_SENTENCE_SHARE:.0%})")
        if self.longest_paragraph > PARAGRAPH_WORDS:
            missed.append(f"{self.name}: a paragraph of {self.longest_paragraph} words (target at most {PARAGRAPH_WORDS})")
        if self.longest_claim[0] > CLAIM_WORDS:
            missed.append(f"{self.name}: claim {self.longest_claim[1]} has {self.longest_claim[0]} words (limit {CLAIM_WORDS})")
        return missed


def measure(name: str, html: str) -> PageProse:
    found = blocks(html)
    read = [block for block in found if not block.collapsed]
    lengths = [words(sentence) for block in found for sentence in sentences(block.text)]
    claims = [(block.words, block.claim) for block in found if block.claim]
    return PageProse(
        name=name,
        words=sum(block.words for block in read),
        collapsed_words=sum(block.words for block in found if block.collapsed),
        sentences=len(lengths),
        mean_sentence=sum(lengths) / len(lengths) if lengths else 0.0,
        long_share=sum(length > LONG_SENTENCE_WORDS for length in lengths) / len(lengths) if lengths else 0.0,
        longest_paragraph=max((block.words for block in found), default=0),
        longest_claim=max(claims, default=(0, "-")),
    )


def measure_site(site: Path) -> list[PageProse]:
    missing = [relative for relative in PAGES.values() if not (site / relative).is_file()]
    if missing:
        raise FileNotFoundError(f"{site} is not a build of the guide: {', '.join(missing)} missing")
    return [measure(name, (site / relative).read_text(encoding="utf-8")) for name, relative in PAGES.items()]


def misses(report: list[PageProse]) -> list[str]:
    missed = [miss for page in report for miss in page.misses()]
    total = sum(page.words for page in report)
    if total > TOTAL_WORDS:
        missed.append(f"all four pages: {total:,} prose words outside collapsed blocks (target at most {TOTAL_WORDS:,})")
    return missed


def markdown(report: list[PageProse]) -> str:
    rows = [
        "| page | prose words | in Details | sentences | mean sentence | over 40 words | longest paragraph | longest claim |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for page in report:
        rows.append(
            f"| {page.name} | {page.words:,} | {page.collapsed_words:,} | {page.sentences} | {page.mean_sentence:.1f} "
            f"| {page.long_share:.1%} | {page.longest_paragraph} | {page.longest_claim[0]} (`{page.longest_claim[1]}`) |"
        )
    total = sum(page.words for page in report)
    rows.append(f"| all four | {total:,} | {sum(page.collapsed_words for page in report):,} | | | | | |")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print("usage: python3 dev.py prose [SITE]   (SITE: a built site; default: a plain build)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="prose-") as scratch:
        site = Path(argv[0]) if argv else Path(scratch)
        if not argv:
            build = [sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir", str(site)]
            subprocess.run(build, check=True, env={"NO_MKDOCS_2_WARNING": "1", **os.environ})
        try:
            report = measure_site(site)
        except FileNotFoundError as error:
            print(f"dev.py prose: {error}", file=sys.stderr)
            return 2
    print(markdown(report))
    missed = misses(report)
    print()
    print("\n".join(f"- missed: {miss}" for miss in missed) if missed else "Every target is met.")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
