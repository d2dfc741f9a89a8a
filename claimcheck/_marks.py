"""Give every claim on a page a small label that links to its row on the claims page.

A claim is a paragraph or list item with the class of its kind (attr_list writes
`{ #id .framework cite="K1" }` as `class="framework" id="..."`). The label is added to the page's
element tree once attr_list has run, so nothing reads the page's syntax or its HTML again for it.
It names the kind and the id, so a reader sees at a glance what stands behind a sentence, and
one click shows its checks and, for framework behaviour, its source lines.

Read aloud, the label's text would be a run of symbols ("check mark framework middle dot
chunks dot window..."): its accessible name says the kind, the id and the status instead,
e.g. "framework claim chunks.window-and-overlap, checked: see its row on the claims page".
The name starts with the words the label shows, in their order (WCAG 2.5.3, label in name).
"""

from __future__ import annotations

from xml.etree.ElementTree import Element, SubElement

from markdown import Extension
from markdown.treeprocessors import Treeprocessor

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


class ClaimLabels(Extension):
    """Python-Markdown extension: a label after each claim, linking to `claims_url`#claim-ID.

    The plugin adds it to the site's extensions and sets `claims_url` before each page is rendered:
    the claims page's address relative to that page."""

    def __init__(self, claims_url: str = "") -> None:
        super().__init__()
        self.claims_url = claims_url

    def extendMarkdown(self, md) -> None:
        # After attr_list (8), which writes a claim's mark as its id and class, and after MkDocs' link
        # rewriting (0), which would read the label's address as a link the page wrote.
        md.treeprocessors.register(_Labeller(md, self), "claim_labels", -10)


class _Labeller(Treeprocessor):
    def __init__(self, md, labels: ClaimLabels) -> None:
        super().__init__(md)
        self.labels = labels

    def run(self, root: Element) -> None:
        claims = [element for element in root.iter() if element.tag in ("p", "li") and element.get("class") in LABELS and element.get("id")]
        for claim in claims:
            add_label(claim, self.labels.claims_url)


def add_label(claim: Element, claims_url: str) -> None:
    """The label at the end of a paragraph, or of a list item's own text (before its nested list)."""
    kind, claim_id = claim.get("class"), claim.get("id")
    if "cite" in claim.attrib:
        # `cite` is not an attribute of <p> or <li>; keep the fact ids as data for scripts and tests.
        claim.set("data-cite", claim.attrib.pop("cite"))
    label = Element("a", {
        "class": f"claim-mark claim-mark--{kind}",
        "href": f"{claims_url}#claim-{claim_id}",
        "aria-label": spoken_name(kind, claim_id),
        "title": "What checks this, and its source",
    })
    label.text = f"{LABELS[kind]} \u00b7 "
    SubElement(label, "code").text = claim_id
    # A space between the claim's last word and its label, as between two words.
    at = next((index for index, child in enumerate(claim) if child.tag in ("ul", "ol")), len(claim))
    if at:
        claim[at - 1].tail = (claim[at - 1].tail or "") + " "
    else:
        claim.text = (claim.text or "") + " "
    claim.insert(at, label)


def spoken_name(kind: str, claim_id: str) -> str:
    """The label's accessible name: its kind, its id and its status, and where the link leads."""
    words, status = SPOKEN[kind]
    return f"{words} {claim_id}, {status}: see its row on the claims page"
