"""The framework-only cut of a page, for the export to MeshWeaver's own documentation (tools/export.py).

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

from claimcheck.page import FENCE_OPEN, INCLUDE, MARKER, VERIFIES_COMMENT

GUIDE_ONLY = re.compile(r"agentkit", re.IGNORECASE)
# A heading whose section is the guide's own: its model runs, its extensions.
GUIDE_SECTION = re.compile(r"agentkit|\bextensions?\b|\bscenarios?\b", re.IGNORECASE)
# A model claim that reports the guide's runs rather than stating a rule.
MODEL_RUN = re.compile(r"agentkit|\bscenarios?\b|\bthe guide\b", re.IGNORECASE)
CODE_LANGUAGES = {"python", "py", "pycon"}
HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<text>.*?)\s*$")
BLOCK_HEADER = re.compile(r'^(?P<indent>\s*)(?P<kind>!!!|\?\?\?\+?|===\+?)\s*(?P<rest>.*)$')
TITLE = re.compile(r'"(?P<title>[^"]*)"')
LIST_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s")
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
    title: str = ""  # a container's title
    container: str = ""  # "!!!", "???", "===" for containers


def blocks(lines: list[str]) -> list[Block]:
    """The top-level blocks of a page's Markdown source."""
    out: list[Block] = []
    number = 0
    while number < len(lines):
        line = lines[number]
        if not line.strip():
            out.append(Block("blank", [line]))
            number += 1
            continue
        heading = HEADING.match(line)
        if heading:
            out.append(Block("heading", [line], level=len(heading["hashes"])))
            number += 1
            continue
        opening = FENCE_OPEN.match(line)
        if opening and not opening["indent"]:
            end = number + 1
            while end < len(lines) and not (lines[end].strip().startswith(opening["fence"]) and not lines[end].strip().strip(opening["fence"][0])):
                end += 1
            out.append(Block("fence", lines[number:end + 1], title=opening["info"].lstrip("{").lstrip(".")))
            number = end + 1
            continue
        header = BLOCK_HEADER.match(line)
        if header and not header["indent"]:
            end = number + 1
            while end < len(lines) and (not lines[end].strip() or lines[end].startswith("    ")):
                end += 1
            while end > number + 1 and not lines[end - 1].strip():
                end -= 1
            title = TITLE.search(header["rest"])
            out.append(Block("container", lines[number:end], title=title["title"] if title else header["rest"].strip(),
                             container=header["kind"][:3]))
            number = end
            continue
        if INCLUDE.match(line):
            out.append(Block("include", [line]))
            number += 1
            continue
        if VERIFIES_COMMENT.match(line):
            out.append(Block("comment", [line]))
            number += 1
            continue
        end = number + 1
        while end < len(lines) and lines[end].strip() and not HEADING.match(lines[end]) \
                and not FENCE_OPEN.match(lines[end]) and not BLOCK_HEADER.match(lines[end]) and not INCLUDE.match(lines[end]):
            end += 1
        out.append(Block("paragraph", lines[number:end]))
        number = end
    return out


def _marker_kinds(lines: list[str]) -> list[str]:
    return [match["kind"] for line in lines if (match := MARKER.match(line))]


def _is_listing(block: Block) -> bool:
    return block.kind in {"fence", "container", "include", "comment"}


def _guide_only_paragraph(block: Block, after_dropped: bool = False) -> bool:
    """An extension claim; a model claim about the guide's runs, or one that follows a dropped claim
    (it speaks of the same run); prose without a claim that introduces one of the guide's scenarios."""
    kinds = _marker_kinds(block.lines)
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
    if block.container == "===" and block.title.lower() == "python":
        return True
    if block.container != "===" and (block.title.lower() == "the code" or "not framework" in block.title.lower()):
        return True
    inner = [line.strip() for line in block.lines[1:]]
    return any(FENCE_OPEN.match(line) and FENCE_OPEN.match(line)["info"].lstrip("{").lstrip(".").lower() in CODE_LANGUAGES
               for line in inner)


def _unwrap(block: Block) -> list[str]:
    """A single remaining tab: its body, dedented, without the tab header."""
    return [line[4:] if line.startswith("    ") else line for line in block.lines[1:]]


def _scrub_items(block: Block) -> list[str]:
    """A paragraph or list with the guide-only items (an item whose claim is the guide's) and sentences left out."""
    items: list[list[str]] = []
    for line in block.lines:
        if LIST_ITEM.match(line) or not items:
            items.append([line])
        else:
            items[-1].append(line)
    kept: list[str] = []
    for item in items:
        if _guide_only_paragraph(Block("paragraph", item)):
            continue
        kept += scrub_prose(item)
    return kept


def scrub_prose(lines: list[str]) -> list[str]:
    """Lines of prose without the sentences and parentheses that mention agentkit; marker lines are kept."""
    if not any(GUIDE_ONLY.search(line) or SCENARIO.search(line) for line in lines):
        return lines
    if lines[0].lstrip().startswith(("|", "<")):
        return [line for line in lines if not GUIDE_ONLY.search(line)]
    prose = [line for line in lines if not MARKER.match(line)]
    markers = [line for line in lines if MARKER.match(line)]
    first = prose[0] if prose else ""
    indent = first[: len(first) - len(first.lstrip())]
    lead = LIST_ITEM.match(first.lstrip())
    text = " ".join(line.strip() for line in prose)
    prefix = ""
    if lead:
        prefix, text = lead.group(0), text[len(lead.group(0)):]
    text = SCENARIO_CLAUSE.sub("", text)
    text = PARENTHESIS.sub(lambda m: "" if GUIDE_ONLY.search(m.group(0)) else m.group(0), text)
    sentences = [kept for sentence in SENTENCE_END.split(text) if (kept := _scrub_sentence(sentence))]
    if not sentences:
        return []
    return [indent + prefix + " ".join(sentences).strip(), *markers]


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
    parsed = blocks(lines)
    out: list[str] = []
    skip_level: int | None = None  # inside a dropped section, until a heading of this level or higher
    dropping_listings = False  # after a dropped claim, its listings up to the next prose go too
    tab_group: list[Block] = []

    def flush_tabs() -> None:
        kept = [tab for tab in tab_group if not _code_only(tab)]
        if len(kept) == 1:
            out.extend(["", *_unwrap(kept[0]), ""])
        else:
            for tab in kept:
                out.extend(["", *tab.lines, ""])
        tab_group.clear()

    for block in parsed:
        if block.kind == "heading":
            if skip_level is not None and block.level > skip_level:
                continue
            skip_level = None
            dropping_listings = False
            if GUIDE_SECTION.search(HEADING.match(block.lines[0])["text"]):
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
            if not dropping_listings:
                flush_tabs()
            tab_group.clear()
        if block.kind == "paragraph":
            if _guide_only_paragraph(block, dropping_listings):
                dropping_listings = True
                continue
            dropping_listings = False
            out.extend(_scrub_items(block))
            continue
        if _is_listing(block) and (dropping_listings or _code_only(block)):
            continue
        out.extend(block.lines)
    if tab_group and not dropping_listings:
        flush_tabs()
    return out
