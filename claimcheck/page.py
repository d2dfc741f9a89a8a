"""The page model: a Markdown page read once into what the guide cares about.

Fences and their `--8<--` includes, includes in the page body, claim markers (kind, id, text, citations),
`<!-- verifies: -->` links to the ```pycon block below them, sections (headings and the anchors the
site gives them) and containers (admonitions, content tabs). The blocks come from markdown-it-py
(claimcheck/_blocks.py); the lines inside them (a marker, an include) are the guide's own syntax,
read here, and a verifies comment is a directive in an HTML comment, which Sybil's lexer finds. Test tools never see snippet-included code, so the page source is
the only truth about what a page includes and claims.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from claimcheck._blocks import ADMONITION_PARAMS, Block, inline_text, parse
from claimcheck.problems import Problem

# A claim or observation marker: an attribute list alone on the last line of a paragraph or list item.
# The four kinds of statement: framework behaviour (cited and checked), the guide's own model (checked),
# an agentkit extension (checked, off by default), and an observation that no code can confirm.
KINDS = ("framework", "model", "extension", "observation")
CHECKED_KINDS = ("framework", "model", "extension")
MARKER = re.compile(
    r"^\s*\{\s*#(?P<id>[^\s}]+)\s+\.(?P<kind>" + "|".join(KINDS) + r")"
    r"(?:\s+cite=\"(?P<cite>[^\"]*)\")?\s*\}\s*$"
)
# Anything that looks like a marker but is not in the one accepted form.
MARKER_LIKE = re.compile(r"\{[^}]*\.(claim|" + "|".join(KINDS) + r")\b[^}]*\}")
CLAIM_ID = re.compile(r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$")
# `<!-- verifies: ids -->`, found by Sybil's lexer for directives in HTML comments: the colon is required,
# and the ids run to the `-->` that ends the line.
VERIFIES_DIRECTIVE, VERIFIES_ARGUMENTS = r"verifies(?=:)", r"[^>\n]*?(?=[ \t]*-->[ \t]*$)"
INCLUDE = re.compile(r'^\s*-{1,}8<-{1,}\s+"(?P<target>[^"]+)"\s*$')
# attr_list: `{ #id .class key="value" }` or `{: ...}`, after a heading, a link or alone on a line.
ATTR_LIST = re.compile(r"\s*\{:?\s*(?:[#.][^\s{}]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[^\s{}]+))(?:\s+(?:[#.][^\s{}]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[^\s{}]+)))*\s*\}")
EXPLICIT_ID = re.compile(r"#(?P<id>[^\s{}.]+(?:\.[^\s{}.]+)*)")


@dataclass(frozen=True)
class Include:
    """One `--8<-- "path:section"` line: inside a fence (code) or in the page body (captured Markdown)."""

    page: Path
    line: int
    path: str
    section: str | None


@dataclass
class Fence:
    """A fenced code block: its language, where it starts, and its body lines."""

    page: Path
    line: int
    language: str
    body: list[str] = field(default_factory=list)

    @property
    def includes(self) -> list[Include]:
        found = (parse_include(self.page, self.line + offset, text) for offset, text in enumerate(self.body, start=1))
        return [include for include in found if include]

    def non_include_lines(self) -> list[tuple[int, str]]:
        return [
            (self.line + offset, text)
            for offset, text in enumerate(self.body, start=1)
            if text.strip() and not INCLUDE.match(text)
        ]


@dataclass(frozen=True)
class Marker:
    """A claim or observation id where it stands on a page."""

    page: Path
    line: int
    id: str
    kind: str  # one of KINDS
    text: str = ""  # the paragraph or list item the marker closes, as one line
    cites: tuple[str, ...] = ()  # fact ids of framework/citations.toml
    # The line the closed block starts on (its text runs from there to the line above the marker).
    first_line: int = field(default=0, compare=False)

    @property
    def checked(self) -> bool:
        return self.kind in CHECKED_KINDS


@dataclass
class PageCheck:
    """A `<!-- verifies: ... -->` comment and the pycon block it stands above."""

    page: Path
    line: int
    ids: tuple[str, ...]
    fence: Fence

    def can_fail(self) -> bool:
        """True when the block compares printed output or asserts: a bare call checks nothing."""
        return any(
            (text.strip() and not text.lstrip().startswith((">>>", "..."))) or text.lstrip().startswith(">>> assert ")
            for text in self.fence.body
        )


@dataclass(frozen=True)
class Section:
    """A heading: its level, its text as rendered, and the id the site gives it (toc's slug, or `{ #id }`)."""

    line: int
    level: int
    source: str  # the heading's Markdown, attribute list included
    text: str
    anchor: str


@dataclass(frozen=True)
class Container:
    """An admonition (`!!! note "Title"`, `???`, `???+`) or a content tab (`=== "Title"`), and the lines it holds."""

    kind: str  # "admonition" or "tab"
    line: int  # its header
    end: int  # the last line of its body
    indent: str  # the header's indentation
    marker: str  # "!!!", "???", "???+", "===", "===+"
    type: str  # an admonition's type ("note", "example"); "" for a tab
    title: str | None  # the quoted title; None when the header gives none
    languages: tuple[str, ...] = ()  # the languages of the fences it holds, at any depth


@dataclass
class Page:
    path: Path
    fences: list[Fence]
    markers: list[Marker]
    checks: list[PageCheck]
    problems: list[Problem]
    # Includes outside fences: captured Markdown output such as generated tables.
    body_includes: list[Include]
    containers: list[Container] = field(default_factory=list)
    # Every block markdown-it found, in document order: for readers that rewrite the page's lines.
    blocks: list[Block] = field(default_factory=list, repr=False)
    # Every `<!-- verifies: -->` comment, well formed or not: its ids as written, by the index of its line.
    comments: dict[int, str] = field(default_factory=dict, repr=False)

    @cached_property
    def sections(self) -> list[Section]:
        """The headings, read when asked: the claim checks never need them, and their anchors need
        Python-Markdown's slugify, an import the checks would otherwise pay for in every process."""
        from markdown.extensions.toc import slugify

        slugs: dict[str, int] = {}  # toc's slugs so far, to make each anchor unique
        return [_section(block, slugs, slugify) for block in self.blocks if block.kind == "heading"]

    @property
    def includes(self) -> list[Include]:
        return self.body_includes + [include for fence in self.fences for include in fence.includes]


def closes_fence(fence: str, text: str) -> bool:
    """True when `text` closes a block opened with `fence`: its character alone, at least as many times."""
    return text.strip().startswith(fence) and text.strip().strip(fence[0]) == ""


def fenced_lines(lines: Iterable[str]) -> Iterable[tuple[str, bool]]:
    """Each line, and whether it belongs to a fenced block (its opening and closing lines included)."""
    lines = list(lines)
    fenced = [False] * len(lines)
    for block in parse(lines):
        if block.kind == "fence":
            fenced[block.start:block.end] = [True] * (block.end - block.start)
    return zip(lines, fenced)


def parse_ids(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def parse_include(page: Path, line: int, text: str) -> Include | None:
    match = INCLUDE.match(text)
    if not match:
        return None
    path, _, section = match["target"].partition(":")
    return Include(page, line, path, section or None)


def fence_language(info: str) -> str:
    """A fence's language, the first word of its info string: `python`, or `{` of `{ .python title="x" }`."""
    return info.split()[0].lower() if info.strip() else ""


def is_closed(lines: list[str], fence: Block) -> bool:
    return fence.end - fence.start >= 2 and closes_fence(fence.markup, lines[fence.end - 1])


def list_marker(line: str) -> str:
    """The bullet or number that opens a list item on the line, and the space after it; "" for any other line."""
    text = line.lstrip()
    found = parse([text])
    if len(found) < 2 or found[1].kind != "list_item" or len(text) <= len(found[1].info + found[1].markup):
        return ""
    marker = found[1].info + found[1].markup
    return marker + text[len(marker)]


def blank_list_marker(line: str) -> str:
    """The line with the bullet or number that opens a list item, and the blank after it, turned into spaces,
    so that what follows keeps its position."""
    width = len(line) - len(line.lstrip()) + len(list_marker(line))
    return " " * width + line[width:]


class PageNotText(ValueError):
    """A page whose bytes are not UTF-8 text; the message names it."""


def read_page(path: Path, shown_as: Path | None = None) -> Page:
    """Read one page; `shown_as` is the path used in messages (relative to the repo). A page that is not
    UTF-8 text raises PageNotText naming it."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise PageNotText(f"{shown_as or path}: not UTF-8 text ({error})") from None
    return read_lines(text.splitlines(), shown_as or path)


def read_lines(lines: list[str], name: Path) -> Page:
    """The page model of a page's lines; `name` is the path used in messages."""
    blocks = parse(lines)
    page = Page(name, [], [], [], [], [], blocks=blocks)
    late: list[Problem] = []  # reported after the others: an unclosed fence, a comment on the last line
    fences: dict[int, Fence] = {}
    for block in blocks:
        if block.kind == "fence":
            closed = is_closed(lines, block)
            body = lines[block.start + 1:block.end - 1] if closed else lines[block.start + 1:]
            fences[block.start] = Fence(name, block.start + 1, fence_language(block.info), body)
            if not closed:
                late.append(Problem(name, block.start + 1, "code fence is never closed"))
    page.fences.extend(fences.values())
    page.comments = comments = _verifies_comments(lines, blocks)
    for block in blocks:
        if block.kind == "paragraph":
            _read_paragraph(lines, block, page)
        elif block.kind == "html_block":
            late += _read_html(lines, block, fences, comments, page)
        elif block.kind == "heading":
            _malformed_markers(lines, block, page)
        elif block.kind in ("admonition", "tab"):
            page.containers.append(_container(lines, block, blocks))
    page.problems.extend(late)
    return page


def _read_paragraph(lines: list[str], block: Block, page: Page) -> None:
    """Body includes and claim markers: lines of a paragraph. A marker closes the text above it."""
    content = block.content.splitlines()
    for offset, number in enumerate(range(block.start, block.end)):
        text = lines[number]
        include = parse_include(page.path, number + 1, text)
        if include:
            page.body_includes.append(include)
            continue
        marker = MARKER.match(text)
        if marker:
            above = " ".join(line.strip() for line in content[:offset])
            page.markers.append(_marker(page, number + 1, marker, above, block.start + 1))
        elif MARKER_LIKE.search(text):
            page.problems.append(_malformed(page.path, number + 1))


def _marker(page: Page, line: int, marker: re.Match, text: str, first: int) -> Marker:
    if not CLAIM_ID.match(marker["id"]):
        page.problems.append(Problem(page.path, line, f"claim id {marker['id']!r} is malformed; use lowercase words joined by '.' and '-'", marker["id"]))
    cites = tuple((marker["cite"] or "").replace(",", " ").split())
    return Marker(page.path, line, marker["id"], marker["kind"], text, cites, first)


def _malformed(name: Path, line: int) -> Problem:
    return Problem(name, line, "claim marker not in the form '{ #page.claim-id .KIND }' alone on its line, KIND one of framework (with cite=\"FACT\"), model, extension, observation")


def _malformed_markers(lines: list[str], block: Block, page: Page) -> None:
    page.problems.extend(_malformed(page.path, number + 1) for number in range(block.start, block.end) if MARKER_LIKE.search(lines[number]))


def _verifies_comments(lines: list[str], blocks: list[Block]) -> dict[int, str]:
    """The ids of each `<!-- verifies: ids -->` comment in an HTML block, by the index of the line it ends on.
    Sybil's lexer is imported only for a page that has an HTML block."""
    html = {number for block in blocks if block.kind == "html_block" for number in range(block.start, block.end)}
    if not html:
        return {}
    from sybil import Document
    from sybil.parsers.markdown.lexers import DirectiveInHTMLCommentLexer

    text = "\n".join(lines) + "\n"
    lexer = DirectiveInHTMLCommentLexer(VERIFIES_DIRECTIVE, VERIFIES_ARGUMENTS)
    found = ((text.count("\n", 0, region.end), region.lexemes["arguments"]) for region in lexer(Document(text, "")))
    return {number: ids for number, ids in found if number in html}


def _read_html(lines: list[str], block: Block, fences: dict[int, Fence], comments: dict[int, str], page: Page) -> list[Problem]:
    """`<!-- verifies: ids -->` comments: each links the ```pycon block on the very next line."""
    late = []
    for number in range(block.start, block.end):
        if number not in comments:
            if MARKER_LIKE.search(lines[number]):
                page.problems.append(_malformed(page.path, number + 1))
            continue
        ids = parse_ids(comments[number])
        fence = fences.get(number + 1)
        if not ids:
            page.problems.append(Problem(page.path, number + 1, "verifies comment names no claim id; write <!-- verifies: some.claim-id -->"))
        elif fence is not None and fence.language == "pycon":
            page.checks.append(PageCheck(page.path, number + 1, ids, fence))
        elif fence is not None:
            page.problems.append(Problem(page.path, number + 1, "a verifies comment must stand directly above a ```pycon block; move it or make the block pycon"))
        elif number + 1 < len(lines):
            page.problems.append(Problem(page.path, number + 1, "a verifies comment must stand directly above a ```pycon block; nothing may stand between them"))
        else:
            late.append(Problem(page.path, number + 1, "a verifies comment must stand directly above a ```pycon block"))
    return late


def _section(block: Block, seen: dict[str, int], slugify) -> Section:
    """A heading and its id on the site: `{ #id }` when it has one, else toc's slug of its text, made
    unique as toc makes it (`_1`, `_2` after the first)."""
    attrs = ATTR_LIST.search(block.content)
    trailing = attrs is not None and block.content.endswith(attrs.group(0).rstrip())
    explicit = EXPLICIT_ID.search(attrs.group(0)) if trailing else None
    rendered = inline_text(block.content)
    text = ATTR_LIST.sub("", rendered).strip() if attrs else rendered.strip()
    level = len(block.markup) if block.markup.startswith("#") else {"=": 1, "-": 2}[block.markup[:1]]
    if explicit:
        anchor = explicit["id"]
    else:
        slug = slugify(text, "-")
        count = seen[slug] = seen.get(slug, 0) + 1
        anchor = slug if count == 1 else f"{slug}_{count - 1}"
    return Section(block.start + 1, level, block.content, text, anchor)


def _container(lines: list[str], block: Block, blocks: list[Block]) -> Container:
    header = lines[block.start]
    indent = header[: len(header) - len(header.lstrip())]
    languages = tuple(fence_language(inner.info) for inner in blocks
                      if inner.kind == "fence" and block.start < inner.start < block.end)
    if block.kind == "tab":
        return Container("tab", block.start + 1, block.end, indent, block.markup, "", block.info, languages)
    params = ADMONITION_PARAMS.match(block.info)
    kind = params["type"] if params else block.info.split()[0] if block.info.split() else ""
    return Container("admonition", block.start + 1, block.end, indent, block.markup, kind, params["title"] if params else None, languages)
