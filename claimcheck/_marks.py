"""Give every claim on a page a small label that links to its row on the claims page.

A claim is a paragraph or list item with the class of its kind (attr_list writes
`{ #id .framework cite="K1" }` as `class="framework" id="..."`). The label names the
kind and the id, so a reader sees at a glance what stands behind a sentence, and
one click shows its checks and, for framework behaviour, its source lines.
"""

from __future__ import annotations

import re

LABELS = {
    "framework": "\u2713 framework",
    "model": "\u2713 guide's model",
    "extension": "\u2713 agentkit extension",
    "observation": "\u25cb observation",
}
_OPENING = re.compile(r"<(?P<tag>p|li)\b(?P<attrs>[^>]*\bclass=\"(?P<kind>framework|model|extension|observation)\"[^>]*)>")
_ID = re.compile(r'\bid="(?P<id>[^"]+)"')
_CITE = re.compile(r'\bcite="')


def mark_claims(html: str, claims_url: str) -> str:
    """The page's HTML with a label after each claim, linking to `claims_url`#claim-ID."""
    pieces: list[str] = []
    position = 0
    for opening in _OPENING.finditer(html):
        claim_id = _ID.search(opening["attrs"])
        if not claim_id or opening.start() < position:
            continue
        end = _element_end(html, opening.end(), opening["tag"])
        label = (
            f' <a class="claim-mark claim-mark--{opening["kind"]}" href="{claims_url}#claim-{claim_id["id"]}" '
            f'title="What checks this, and its source">{LABELS[opening["kind"]]} \u00b7 <code>{claim_id["id"]}</code></a>'
        )
        # `cite` is not an attribute of <p> or <li>; keep the fact ids as data for scripts and tests.
        attrs = _CITE.sub('data-cite="', opening["attrs"])
        pieces += [html[position:opening.start()], f"<{opening['tag']}{attrs}>", html[opening.end():end], label]
        position = end
    pieces.append(html[position:])
    return "".join(pieces)


def _element_end(html: str, start: int, tag: str) -> int:
    """Where the label goes: before the paragraph's end, or before a list item's nested list or end."""
    candidates = [html.find(f"</{tag}>", start)]
    if tag == "li":
        candidates += [html.find("<ul", start), html.find("<ol", start)]
    found = [index for index in candidates if index >= 0]
    return min(found) if found else len(html)
