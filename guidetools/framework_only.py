"""The framework-only cut of a page, for the export to MeshWeaver's own documentation (guidetools/export.py).

A framework maintainer publishes what the framework does, not how this guide checks it. Before the
export renders a page, this pass removes from its Markdown source:

- sections about the guide's own machinery: a heading that names agentkit, extensions or the
  guide's scenarios, with everything under it;
- the Python: ```python and ```pycon fences, `=== "Python"` tabs (the agent's view stays: a
  `=== "Tool call"` tab is kept, unwrapped), and admonitions holding code or titled "Not framework
  behaviour";
- claims that are not the framework's or the field's: an `.extension` claim, and a `.model` claim
  that speaks of agentkit or the scenarios, each with the listings that follow it up to the next
  prose; `.framework`, `.observation` and the other `.model` claims (the rules) stay, each still
  labelled with what stands behind it;
- every sentence (or parenthesis) that mentions agentkit, and a table row that does.

It knows the page syntax (claimcheck/page.py), not the pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from claimcheck.page import INCLUDE, MARKER, fence_language, list_marker, read_lines

GUIDE_ONLY = re.compile(r"agentkit", re.IGNORECASE)
# A heading whose section is the guide's own: its model runs, its extensions.
GUIDE_SECTION = re.compile(r"agentkit|\bextensions?\b|\bscenarios?\b", re.IGNORECASE)
# A model claim that reports the guide's runs rather than stating a rule.
MODEL_RUN = re.compile(r"agentkit|\bscenarios?\b|\bthe guide\b", re.IGNORECASE)
CODE_LANGUAGES = {"python", "py", "pycon"}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\[(\"'])")
PARENTHESIS = re.compile(r"\s*\([^()]*\)")
# A clause that points at one of the guide's scenarios (", as scenario 2 models"): it goes, the sentence stays.
SCENARIO_CLAUSE = re.compile(r",[^,.;:]*\bscenarios?\b[^,.;:]*(?=[.;:])", re.IGNORECASE)
SCENARIO = re.compile(r"\bscenarios?\b", re.IGNORECASE)


@dataclass
class Block:
    kind: str  # heading, fence, container, include, paragraph, blank, comment
    lines: list[str]
    level: int = 0  # a heading's level
    title: str = ""  # a container's title, a fence's language
    container: str = ""  # "!!!", "???", "===" for containers
    text: str = ""  # a heading's Markdown
    languages: tuple[str, ...] = ()  # a container's fences' languages
    items: tuple[int, ...] = ()  # a list's items: where each starts, as an index into `lines`


def blocks(lines: list[str]) -> list[Block]:
    """The top-level blocks of a page's Markdown source (claimcheck's page model), and its blank lines."""
    out: list[Block] = []
    page = read_lines(lines, Path())
    sections = {section.line - 1: section for section in page.sections}
    containers = {container.line - 1: container for container in page.containers}
    items = {block.start for block in page.blocks if block.kind == "list_item" and block.depth == 1}
    number = 0
    for block in page.blocks:
        if block.depth or block.container_depth or block.end <= number:
            continue
        out += [Block("blank", [line]) for line in lines[number:block.start]]
        number = block.end
        if block.start in sections:
            section = sections[block.start]
            out.append(Block("heading", lines[block.start:block.end], level=section.level, text=section.source))
        elif block.kind == "fence" and not lines[block.start][:1].isspace():
            out.append(Block("fence", lines[block.start:block.end], title=fence_language(block.info).lstrip("{").lstrip(".")))
        elif block.start in containers:
            container = containers[block.start]
            title = container.title if container.title is not None else container.type
            out.append(Block("container", lines[block.start:block.end], title=title, container=container.marker[:3], languages=container.languages))
        else:
            _prose(out, lines, block.start, block.end, items, page.comments)
    out += [Block("blank", [line]) for line in lines[number:]]
    return out


def _prose(out: list[Block], lines: list[str], start: int, end: int, items: set[int], comments: dict[int, str]) -> None:
    """Lines of prose (paragraphs, lists, HTML, tables): an include line and a verifies comment each stand
    alone; blank lines split the rest, and prose that follows prose without a blank line joins it."""
    for number in range(start, end):
        line = lines[number]
        kind = "blank" if not line.strip() else "include" if INCLUDE.match(line) else "comment" if number in comments else "paragraph"
        if kind == "paragraph" and out and out[-1].kind == "paragraph":
            out[-1].lines.append(line)
        else:
            out.append(Block(kind, [line]))
        if kind == "paragraph" and number in items:
            out[-1].items += (len(out[-1].lines) - 1,)


def indentation(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _guide_only_paragraph(block: Block, after_dropped: bool = False) -> bool:
    """An extension claim; a model claim about the guide's runs, or one that follows a dropped claim
    (it speaks of the same run); prose without a claim that introduces one of the guide's scenarios."""
    kinds = [match["kind"] for line in block.lines if (match := MARKER.match(line))]
    text = " ".join(block.lines)
    if "extension" in kinds:
        return True
    if "model" in kinds:
        return after_dropped or bool(MODEL_RUN.search(text))
    return not kinds and bool(SCENARIO.search(SCENARIO_CLAUSE.sub("", text)))


def _code_only(block: Block) -> bool:
    """A fence of Python, or a container (admonition, tab) that shows the guide's code or says it is not the framework's."""
    if block.kind == "fence":
        return block.title.lower() in CODE_LANGUAGES
    if block.kind != "container":
        return False
    title = block.title.lower()
    if title == "python" if block.container == "===" else title == "the code" or "not framework" in title:
        return True
    return any(language.lstrip("{").lstrip(".") in CODE_LANGUAGES for language in block.languages)


def _unwrap(block: Block) -> list[str]:
    """A single remaining tab: its body, dedented, without the tab header."""
    return [line[4:] if line.startswith("    ") else line for line in block.lines[1:]]


def _scrub_items(block: Block) -> list[str]:
    """A paragraph or list with the guide-only items (an item whose claim is the guide's) and sentences left out."""
    starts = sorted({0, *block.items})
    items = [block.lines[start:end] for start, end in zip(starts, [*starts[1:], len(block.lines)])]
    return [line for item in items if not _guide_only_paragraph(Block("paragraph", item)) for line in scrub_prose(item)]


def scrub_prose(lines: list[str]) -> list[str]:
    """Lines of prose without the sentences and parentheses that mention agentkit; marker lines are kept."""
    if not any(GUIDE_ONLY.search(line) or SCENARIO.search(line) for line in lines):
        return lines
    if lines[0].lstrip().startswith(("|", "<")):
        return [line for line in lines if not GUIDE_ONLY.search(line)]
    prose = [line for line in lines if not MARKER.match(line)]
    markers = [line for line in lines if MARKER.match(line)]
    first = prose[0] if prose else ""
    prefix = list_marker(first)
    text = " ".join(line.strip() for line in prose)[len(prefix):]
    text = SCENARIO_CLAUSE.sub("", text)
    text = PARENTHESIS.sub(lambda m: "" if GUIDE_ONLY.search(m.group(0)) else m.group(0), text)
    sentences = [kept for sentence in SENTENCE_END.split(text) if (kept := _scrub_sentence(sentence))]
    if not sentences:
        return []
    return [indentation(first) + prefix + " ".join(sentences).strip(), *markers]


def _scrub_sentence(sentence: str) -> str:
    """A sentence without its clauses (parts between semicolons) that mention agentkit; "" when none is left."""
    if not GUIDE_ONLY.search(sentence):
        return sentence
    clauses = [clause for clause in re.split(r";\s+", sentence) if not GUIDE_ONLY.search(clause)]
    if not clauses:
        return ""
    kept = "; ".join(clauses).rstrip()
    return kept if kept.endswith((".", "!", "?", ":")) else kept.rstrip(",;") + "."


def framework_only(lines: list[str]) -> list[str]:
    """The page's Markdown source without what is the guide's own (see the module's docstring)."""
    out: list[str] = []
    skip_level: int | None = None  # inside a dropped section, until a heading of this level or higher
    dropping_listings = False  # after a dropped claim, its listings up to the next prose go too
    tab_group: list[Block] = []

    def flush_tabs(dropped: bool) -> None:
        kept = [] if dropped else [tab for tab in tab_group if not _code_only(tab)]
        for tab in kept:
            out.extend(["", *(_unwrap(tab) if len(kept) == 1 else tab.lines), ""])
        tab_group.clear()

    for block in blocks(lines):
        if block.kind == "heading":
            if skip_level is not None and block.level > skip_level:
                continue
            skip_level = None
            dropping_listings = False
            if GUIDE_SECTION.search(block.text):
                skip_level = block.level
                continue
        if skip_level is not None:
            continue
        if block.kind == "container" and block.container == "===":
            tab_group.append(block)
            continue
        if tab_group and block.kind == "blank":
            continue  # the blank lines around the tabs are written with them
        if tab_group:
            flush_tabs(dropping_listings)
        if block.kind == "paragraph":
            # A list is judged item by item (_scrub_items): one guide-only item does not take the others.
            if (not block.items or dropping_listings) and _guide_only_paragraph(block, dropping_listings):
                dropping_listings = True
                continue
            dropping_listings = False
            out.extend(_scrub_items(block))
            continue
        if block.kind == "container" and block.container == "???" and block.title.startswith("Details"):
            # A collapsed `??? note "Details…"` block is fine print, not a listing: its claims are exported as the
            # page's are, its code is not.
            body = framework_only(_unwrap(block))
            if any(line.strip() for line in body):
                out.extend([block.lines[0], *("    " + line if line.strip() else line for line in body)])
            dropping_listings = False
            continue
        if block.kind in {"fence", "container", "include", "comment"} and (dropping_listings or _code_only(block)):
            continue
        out.extend(block.lines)
    flush_tabs(dropping_listings)
    return out
