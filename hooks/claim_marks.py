"""MkDocs hook: give every claim on a page a small label that links to its row on the claims page.

A claim is a paragraph or list item with the class of its kind (attr_list writes
`{ #id .framework cite="K1" }` as `class="framework" id="..."`). The label names the
kind and the id, so a reader sees at a glance what stands behind a sentence, and
one click shows its checks and, for framework behaviour, its source lines.

Read aloud, the label's text would be a run of symbols ("check mark framework middle dot
chunks dot window..."): its accessible name says the kind, the id and the status instead,
e.g. "framework claim chunks.window-and-overlap, checked: see its row on the claims page".
The name starts with the words the label shows, in their order (WCAG 2.5.3, label in name).
"""

from __future__ import annotations

import re
from html import escape

from mkdocs.utils import get_relative_url

CLAIMS_PAGE_URL = "reference/claims/"
LABELS = {
    "framework": "\u2713 framework",
    "model": "\u2713 guide's model",
    "extension": "\u2713 agentkit extension",
    "observation": "\u25cb observation",
}
# What a screen reader says for each kind: the label's words, then the claim's status.
SPOKEN = {
    "framework": ("framework claim", "checked"),
    "model": ("guide's model claim", "checked"),
    "extension": ("agentkit extension claim", "checked, off by default"),
    "observation": ("observation", "a field figure, not checked"),
}
_OPENING = re.compile(r"<(?P<tag>p|li)\b(?P<attrs>[^>]*\bclass=\"(?P<kind>framework|model|extension|observation)\"[^>]*)>")
_ID = re.compile(r'\bid="(?P<id>[^"]+)"')
_CITE = re.compile(r'\bcite="')


def on_page_content(html: str, page, config, files) -> str:
    claims_url = get_relative_url(CLAIMS_PAGE_URL, page.url)
    pieces: list[str] = []
    position = 0
    for opening in _OPENING.finditer(html):
        claim_id = _ID.search(opening["attrs"])
        if not claim_id or opening.start() < position:
            continue
        end = _element_end(html, opening.end(), opening["tag"])
        label = (
            f' <a class="claim-mark claim-mark--{opening["kind"]}" href="{claims_url}#claim-{claim_id["id"]}" '
            f'aria-label="{escape(spoken_name(opening["kind"], claim_id["id"]))}" '
            f'title="What checks this, and its source">{LABELS[opening["kind"]]} \u00b7 <code>{claim_id["id"]}</code></a>'
        )
        # `cite` is not an attribute of <p> or <li>; keep the fact ids as data for scripts and tests.
        attrs = _CITE.sub('data-cite="', opening["attrs"])
        pieces += [html[position:opening.start()], f"<{opening['tag']}{attrs}>", html[opening.end():end], label]
        position = end
    pieces.append(html[position:])
    return "".join(pieces)


def spoken_name(kind: str, claim_id: str) -> str:
    """The label's accessible name: its kind, its id and its status, and where the link leads."""
    words, status = SPOKEN[kind]
    return f"{words} {claim_id}, {status}: see its row on the claims page"


def _element_end(html: str, start: int, tag: str) -> int:
    """Where the label goes: before the paragraph's end, or before a list item's nested list or end."""
    candidates = [html.find(f"</{tag}>", start)]
    if tag == "li":
        candidates += [html.find("<ul", start), html.find("<ol", start)]
    found = [index for index in candidates if index >= 0]
    return min(found) if found else len(html)
