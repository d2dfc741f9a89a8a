"""A page's blocks as markdown-it-py parses them, with the site's block extensions.

CommonMark plus what the site's Markdown adds at block level: YAML front matter, MkDocs admonitions
(`!!!`, `???`, `???+`; mdit-py-plugins' admon) and pymdownx content tabs (`=== "Title"`, a rule of
our own modelled on admon: without it a tab's 4-space-indented body would be an indented code block).
Each block keeps its 0-based line range, so callers can read or rewrite the page's own lines.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

# pymdownx.tabbed's header: `=== "Title"`, `===+ "Title"` (selected first).
TAB_HEADER = re.compile(r'(?P<marker>===\+?)[ \t]+"(?P<title>[^"]*)"[ \t]*$')
# An admonition's parameters after its marker: its type and an optional quoted title.
ADMONITION_PARAMS = re.compile(r'\s*(?P<type>[\w-]+)(?:\s+"(?P<title>[^"]*)")?\s*$')
# Python-Markdown's body indent for admonitions and tabs: four columns past the header's.
BODY_INDENT = 4


@dataclass(frozen=True)
class Block:
    """One block: `kind` is the token's name without `_open` (paragraph, heading, fence, html_block,
    admonition, tab, bullet_list, list_item, code_block, ...); lines `start` to `end`, 0-based, end excluded."""

    kind: str
    start: int
    end: int
    depth: int  # markdown-it's nesting level: 0 for a block of the page itself (a list item is 1, its paragraph 2)
    container_depth: int  # how many admonitions and tabs stand around it
    markup: str = ""  # a fence's backticks, a container's `!!!`, `???+`, `===`; a heading's `##`
    info: str = ""  # a fence's info string; an admonition's parameters; a tab's title
    content: str = ""  # a paragraph's or heading's inline source, an HTML block's or fence's text


def _tab(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A content tab: its header, then every line indented past it (blank lines included)."""
    if state.is_code_block(start_line):
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    header = TAB_HEADER.match(state.src[begin:state.eMarks[start_line]])
    if not header:
        return False
    if silent:
        return True
    body_indent = state.sCount[start_line] + BODY_INDENT
    end = line = start_line + 1
    while line < end_line:
        if not state.isEmpty(line):
            if state.sCount[line] < body_indent:
                break
            end = line + 1
        line += 1
    old = state.parentType, state.lineMax, state.blkIndent
    state.parentType, state.lineMax, state.blkIndent = "tab", end, body_indent
    token = state.push("tab_open", "div", 1)
    token.markup, token.info, token.map, token.block = header["marker"], header["title"], [start_line, end], True
    state.md.block.tokenize(state, start_line + 1, end)
    state.push("tab_close", "div", -1).block = True
    state.parentType, state.lineMax, state.blkIndent = old
    state.line = end
    return True


@functools.cache
def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark").enable("table").use(front_matter_plugin).use(admon_plugin)
    parser.block.ruler.before("fence", "tab", _tab, {"alt": ["paragraph", "reference", "blockquote", "list"]})
    # Inline parsing would be most of the time a parse takes; only a heading's text needs it (`inline_text`).
    parser.core.ruler.disable("inline")
    return parser


CONTAINERS = ("admonition", "tab")


def parse(lines: list[str]) -> list[Block]:
    """Every block of the text, in document order (a container before what it holds)."""
    return list(_page_blocks(tuple(lines))) if len(lines) > 1 else _blocks(lines)


# A page is read by the claims plugin, by its pycon collector and by the contracts, in one process: the
# same lines give the same blocks, so each page is parsed once. One-line texts (a list marker) are not kept.
@functools.lru_cache(maxsize=64)
def _page_blocks(lines: tuple[str, ...]) -> tuple[Block, ...]:
    return tuple(_blocks(lines))


def _blocks(lines: list[str] | tuple[str, ...]) -> list[Block]:
    blocks: list[Block] = []
    containers = 0
    for token in _parser().parse("\n".join(lines) + "\n"):
        if token.type == "inline" and blocks:  # a paragraph's or heading's source: the block before it holds it
            blocks[-1] = replace(blocks[-1], content=token.content)
            continue
        if token.nesting == -1:
            containers -= token.type.removesuffix("_close") in CONTAINERS
            continue
        if token.map is None:
            continue
        kind = token.type.removesuffix("_open")
        start, end = token.map
        while end > start + 1 and not lines[min(end, len(lines)) - 1].strip():
            end -= 1  # a container's range runs over the blank lines after it
        content = token.content if kind in {"html_block", "fence", "code_block"} else ""
        blocks.append(Block(kind, start, end, token.level, containers, token.markup, token.info, content))
        containers += kind in CONTAINERS
    return blocks


def inline_text(source: str) -> str:
    """Inline Markdown as the text it renders, without its markup: a link's text, a code span's code."""
    children: list[Token] = _parser().inline.parse(source, _parser(), {}, [])
    return "".join(
        child.content if child.type in {"text", "code_inline"} else " " if child.type in {"softbreak", "hardbreak"} else ""
        for child in children
    )
