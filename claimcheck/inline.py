"""Read one run of inline Markdown (a claim's text, or a few lines of a page): its code spans, its
links, and its prose, with CommonMark's rules (markdown-it-py's inline parser).

Every reader of a claim's words goes through here: the name contract reads its code spans, the number
readers its prose, the claims page its text without link targets. Offsets are into the text as given,
so a reader can point at (or change) a name or a number where it stands.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from markdown_it import MarkdownIt, rules_inline
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token


@dataclass(frozen=True)
class CodeSpan:
    """`` `text` ``, or ``` `` text `` ``` when the text holds a backtick."""

    text: str  # as CommonMark reads it: one space stripped from each end, a line break read as a space
    start: int  # the opening backticks
    end: int  # after the closing backticks
    text_start: int  # where `text` starts
    ticks: str  # the run of backticks it opens and closes with


@dataclass(frozen=True)
class Link:
    """`[text](target)`."""

    text: str  # the link text as written, Markdown and all
    target: str  # the address it links to
    start: int  # the opening `[`
    end: int  # after the closing `)`
    text_end: int  # the closing `]`: the target follows it


@dataclass(frozen=True)
class Inline:
    source: str
    code: tuple[CodeSpan, ...]
    links: tuple[Link, ...]

    @property
    def prose(self) -> str:
        """The text with its code spans and link targets blanked out, its link texts kept; the same length,
        so an offset into it is an offset into the text."""
        chars = list(self.source)
        hidden = [(span.start, span.end) for span in self.code] + [(link.text_end, link.end) for link in self.links]
        for start, end in hidden:
            chars[start:end] = " " * (end - start)
        return "".join(chars)

    def link_texts(self) -> str:
        """The text with each link written as its text alone: what a table cell shows of it."""
        pieces, position = [], 0
        for link in self.links:
            pieces += [self.source[position:link.start], link.text]
            position = link.end
        return "".join(pieces) + self.source[position:]


def read_inline(text: str) -> Inline:
    """The code spans and links of `text`, read as the inline content of one paragraph."""
    parser = _parser()
    # The inline parser alone: parseInline's block and normalising steps cost a third more and tell nothing here.
    tokens = parser.inline.parse(text, parser, {}, [])
    code = tuple(_code_span(token) for token in tokens if token.type == "code_inline")
    links = tuple(_link(text, token) for token in tokens if token.type == "link_open")
    return Inline(text, code, links)


def _code_span(token: Token) -> CodeSpan:
    start, end = token.meta["where"]
    inner = end - start - 2 * len(token.markup)
    # CommonMark strips one space from both ends of a span's text when it has one at each.
    stripped = (inner - len(token.content)) // 2
    return CodeSpan(token.content, start, end, start + len(token.markup) + stripped, token.markup)


def _link(text: str, token: Token) -> Link:
    start, end = token.meta["where"]
    text_end = token.meta["text_end"]
    return Link(text[start + 1:text_end], token.attrs["href"], start, end, text_end)


@functools.cache
def _parser() -> MarkdownIt:
    """CommonMark's inline parser, its code span and link rules noting where each span or link stands."""
    parser = MarkdownIt("commonmark")
    parser.inline.ruler.at("backticks", _noting_where(rules_inline.backtick, "code_inline"))
    parser.inline.ruler.at("link", _noting_where(rules_inline.link, "link_open"))
    return parser


def _noting_where(rule, token_type: str):
    """`rule`, noting in the token it opens the offsets it read (the parser's inline tokens carry none)."""

    def noted(state: StateInline, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        # Where a link's text ends, found as the link rule finds it: its target follows.
        text_end = state.md.helpers.parseLinkLabel(state, start, True) if token_type == "link_open" and state.src[start] == "[" else -1
        if not rule(state, silent):
            return False
        # A run of backticks that nothing closes is text: it opens no token.
        opened = next((token for token in state.tokens[count:] if token.type == token_type), None)
        if not silent and opened is not None:
            opened.meta.update(where=(start, state.pos), text_end=text_end)
        return True

    return noted
