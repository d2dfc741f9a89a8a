"""Inline code breaks only after a `/` or at a space, never inside a word.

Paths and identifiers (`Meridian/content/_Documents/Annual-Report-2024.pdf`,
`{collectionPath}`, claim ids such as `agent.document-dies-with-round`) used to
wrap wherever the browser liked: mid-word (Material sets `word-break:
break-word` on code) and after every hyphen. Each whitespace-free run of an
inline code span becomes pieces that end at a `/`, each kept whole
(`white-space: nowrap`, docs/stylesheets/layout.css), with a `<wbr>` between
them, so a long path still fits a phone's column by breaking at its slashes.
The text, and so what a reader copies or searches, is unchanged.
"""

from __future__ import annotations

import re

from claimcheck._html import elements

_WORD_OR_SPACE = re.compile(r"(\s+)")
_AFTER_SLASH = re.compile(r"(?<=/)(?=[^/])")
# Letters, digits and underscores never offer a break once word-break is normal; anything else
# (a hyphen, a dot, a brace, an entity) might, so such a piece is kept whole explicitly.
_PLAIN = re.compile(r"\w+")
WORD_CLASS = "code-word"


def break_code(html: str) -> str:
    """The page's HTML with every inline code span breakable only after a `/` or at a space."""
    if "<code>" not in html:
        return html
    pieces: list[str] = []
    position = 0
    for code in elements(html, _is_plain_code):
        # Inline code only: a block's <code> sits in its <pre>, and highlighted inline code carries a class
        # and tags inside.
        if code.parent == "pre" or code.has_markup or code.inner_end == code.end:  # the last: never closed
            continue
        pieces += [html[position:code.inner_start], breakable_code(html[code.inner_start:code.inner_end]),
                   html[code.inner_end:code.end]]
        position = code.end
    pieces.append(html[position:])
    return "".join(pieces)


def _is_plain_code(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    return tag == "code" and not attrs


def breakable_code(text: str) -> str:
    """The escaped text of a code span with each word kept whole and a break opportunity after each `/`."""
    pieces = []
    for part in _WORD_OR_SPACE.split(text):
        if not part or part.isspace():
            pieces.append(part)
            continue
        pieces.append("<wbr>".join(
            piece if _PLAIN.fullmatch(piece) else f'<span class="{WORD_CLASS}">{piece}</span>'
            for piece in _AFTER_SLASH.split(part)
        ))
    return "".join(pieces)
