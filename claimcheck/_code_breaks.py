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

# Inline code only: a block's <code> follows its <pre> (or Pygments' empty <span></span>),
# and highlighted inline code carries a class and tags inside.
_INLINE_CODE = re.compile(r"(?<!<pre>)(?<!<span></span>)<code>(?P<text>[^<]*)</code>")
_WORD_OR_SPACE = re.compile(r"(\s+)")
_AFTER_SLASH = re.compile(r"(?<=/)(?=[^/])")
# Letters, digits and underscores never offer a break once word-break is normal; anything else
# (a hyphen, a dot, a brace, an entity) might, so such a piece is kept whole explicitly.
_PLAIN = re.compile(r"\w+")
WORD_CLASS = "code-word"


def break_code(html: str) -> str:
    """The page's HTML with every inline code span breakable only after a `/` or at a space."""
    return _INLINE_CODE.sub(_breakable, html)


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


def _breakable(match: re.Match) -> str:
    return f"<code>{breakable_code(match['text'])}</code>"
