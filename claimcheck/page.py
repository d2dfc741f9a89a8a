"""Read a Markdown page the way the checks need it: fences, includes, claim markers, verifies comments.

The reading is line-based on purpose. Test tools never see snippet-included
code, so the page source is the only truth about what a page includes and claims.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

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
VERIFIES_COMMENT = re.compile(r"^\s*<!--\s*verifies:\s*(?P<ids>[^>]*?)\s*-->\s*$")
FENCE_OPEN = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")
INCLUDE = re.compile(r'^\s*-{1,}8<-{1,}\s+"(?P<target>[^"]+)"\s*$')


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


@dataclass
class Page:
    path: Path
    fences: list[Fence]
    markers: list[Marker]
    checks: list[PageCheck]
    problems: list[Problem]
    # Includes outside fences: captured Markdown output such as generated tables.
    body_includes: list[Include]

    @property
    def includes(self) -> list[Include]:
        return self.body_includes + [include for fence in self.fences for include in fence.includes]


def closes_fence(fence: str, text: str) -> bool:
    """True when `text` closes a block opened with `fence`: its character alone, at least as many times."""
    return text.strip().startswith(fence) and text.strip().strip(fence[0]) == ""


def fenced_lines(lines: Iterable[str]) -> Iterable[tuple[str, bool]]:
    """Each line, and whether it belongs to a fenced block (its opening and closing lines included)."""
    fence: str | None = None
    for line in lines:
        opening = FENCE_OPEN.match(line)
        if fence is None and opening:
            fence = opening["fence"]
            yield line, True
        elif fence is not None:
            if closes_fence(fence, line):
                fence = None
            yield line, True
        else:
            yield line, False


def parse_ids(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def parse_include(page: Path, line: int, text: str) -> Include | None:
    match = INCLUDE.match(text)
    if not match:
        return None
    path, _, section = match["target"].partition(":")
    return Include(page, line, path, section or None)


def _block(lines: list[str], marker_line: int) -> tuple[int, str]:
    """The block a marker closes, the lines above it up to a blank line or a list bullet: the number
    of its first line (the marker's own when nothing stands above it) and its text as one line."""
    block: list[str] = []
    first = marker_line
    for number in range(marker_line - 1, 0, -1):
        text = lines[number - 1]
        if not text.strip():
            break
        first = number
        block.insert(0, text.strip())
        if LIST_ITEM.match(text):
            block[0] = LIST_ITEM.sub("", text).strip()
            break
    return first, " ".join(block)


def read_page(path: Path, shown_as: Path | None = None) -> Page:
    """Scan one page; `shown_as` is the path used in messages (relative to the repo)."""
    name = shown_as or path
    lines = path.read_text(encoding="utf-8").splitlines()
    fences: list[Fence] = []
    markers: list[Marker] = []
    checks: list[PageCheck] = []
    problems: list[Problem] = []
    body_includes: list[Include] = []
    open_fence: tuple[str, Fence] | None = None
    pending_check: tuple[int, tuple[str, ...]] | None = None

    for number, text in enumerate(lines, start=1):
        if open_fence:
            marker, fence = open_fence
            if closes_fence(marker, text):
                open_fence = None
            else:
                fence.body.append(text)
            continue

        opening = FENCE_OPEN.match(text)
        if opening:
            fence = Fence(name, number, opening["info"].lower())
            fences.append(fence)
            open_fence = (opening["fence"], fence)
            if pending_check:
                check_line, ids = pending_check
                if fence.language != "pycon":
                    problems.append(Problem(name, check_line, "a verifies comment must stand directly above a ```pycon block; move it or make the block pycon"))
                else:
                    checks.append(PageCheck(name, check_line, ids, fence))
                pending_check = None
            continue

        if pending_check:
            problems.append(Problem(name, pending_check[0], "a verifies comment must stand directly above a ```pycon block; nothing may stand between them"))
            pending_check = None

        include = parse_include(name, number, text)
        if include:
            body_includes.append(include)
            continue

        comment = VERIFIES_COMMENT.match(text)
        if comment:
            ids = parse_ids(comment["ids"])
            if not ids:
                problems.append(Problem(name, number, "verifies comment names no claim id; write <!-- verifies: some.claim-id -->"))
            else:
                pending_check = (number, ids)
            continue

        marker = MARKER.match(text)
        if marker:
            if not CLAIM_ID.match(marker["id"]):
                problems.append(Problem(name, number, f"claim id {marker['id']!r} is malformed; use lowercase words joined by '.' and '-'", marker["id"]))
            cites = tuple((marker["cite"] or "").replace(",", " ").split())
            first, text = _block(lines, number)
            markers.append(Marker(name, number, marker["id"], marker["kind"], text, cites, first))
        elif MARKER_LIKE.search(text):
            problems.append(Problem(name, number, "claim marker not in the form '{ #page.claim-id .KIND }' alone on its line, KIND one of framework (with cite=\"FACT\"), model, extension, observation"))

    if open_fence:
        problems.append(Problem(name, open_fence[1].line, "code fence is never closed"))
    if pending_check:
        problems.append(Problem(name, pending_check[0], "a verifies comment must stand directly above a ```pycon block"))
    return Page(name, fences, markers, checks, problems, body_includes)
