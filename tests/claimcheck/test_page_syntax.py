"""Each form of page syntax planted once, and every reader of it seeing the same thing.

The page readers (claimcheck/page.py), the snippet reader (claimcheck/pysource.py), the shown-output reader
(claimcheck/outputs.py), mutate's claim regions, the export and the site's rendering (Python-Markdown with
the site's extensions, then claimcheck's claim labels) each read part of the syntax; they must agree.
"""

from __future__ import annotations

import html as html_lib
import re
import textwrap
from pathlib import Path

import markdown
import pytest

from claimcheck._marks import mark_claims
from tools import export, mutate
from claimcheck.outputs import shown_output
from claimcheck.page import fenced_lines, read_page
from claimcheck.pysource import read_sections

SNIPPET = '''
from math import prod

# --8<-- [start:reading]
# A marker-like line with a name no section may have: pymdownx.snippets shows it, so every reader must.
# --8<-- [start:not.a.section]
items = [1, 2]
print(len(items))
#> 2
# --8<-- [end:reading]

# verifies: demo.reads
assert prod(items) == 2
'''

PAGE = '''
# A page

## Reading files

The reader returns two items, as `lib/reader.py` says.
{ #demo.reads .model }

- A listed claim that spans
  two lines.
  { #demo.listed .framework cite="K1 K2" }

Seen in the field.
{ #demo.seen .observation }

```python
--8<-- "snippets/demo.py:reading"
```

## Checking { #checking }

<!-- verifies: demo.reads -->
```pycon
>>> 1 + 1
2
```
'''

CLAIMS = [("demo.reads", "model", ()), ("demo.listed", "framework", ("K1", "K2")), ("demo.seen", "observation", ())]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for path, text in {"snippets/demo.py": SNIPPET, "docs/page.md": PAGE}.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return tmp_path


def rendered(tree: Path) -> str:
    """The page's HTML as the site renders it: its Markdown extensions, then the claims plugin's labels."""
    html = markdown.markdown(
        (tree / "docs/page.md").read_text(encoding="utf-8"),
        extensions=["attr_list", "md_in_html", "toc", "pymdownx.superfences", "pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": {"base_path": [str(tree)], "check_paths": True, "dedent_subsections": True}},
    )
    return mark_claims(html, "claims/")


def test_claims_read_from_the_page_are_the_claims_the_site_labels(tree: Path):
    page = read_page(tree / "docs/page.md", Path("docs/page.md"))
    assert [(marker.id, marker.kind, marker.cites) for marker in page.markers] == CLAIMS
    html = rendered(tree)
    labelled = re.findall(r'class="claim-mark claim-mark--(\w+)" href="claims/#claim-([^"]+)"', html)
    assert [(claim_id, kind) for kind, claim_id in labelled] == [(claim_id, kind) for claim_id, kind, _ in CLAIMS]
    assert 'data-cite="K1 K2"' in html


def test_a_claims_text_is_the_same_for_the_page_reader_and_mutate(tree: Path):
    text = (tree / "docs/page.md").read_text(encoding="utf-8")
    page = read_page(tree / "docs/page.md", Path("docs/page.md"))
    assert [marker.text for marker in page.markers] == [
        "The reader returns two items, as `lib/reader.py` says.", "A listed claim that spans two lines.", "Seen in the field.",
    ]
    for marker in page.markers:
        start, end = mutate.claim_region(text, marker)
        region = " ".join(line.strip() for line in text[start:end].splitlines())
        assert region.removeprefix("- ") == marker.text


def test_an_include_names_a_section_the_snippet_reader_the_export_and_the_site_agree_on(tree: Path):
    page = read_page(tree / "docs/page.md", Path("docs/page.md"))
    [include] = page.includes
    assert (include.path, include.section) == ("snippets/demo.py", "reading")
    sections, problems = read_sections(tree / include.path)
    assert problems == [] and list(sections) == ["reading"]
    lines = (tree / include.path).read_text(encoding="utf-8").splitlines()
    between = "\n".join(lines[sections["reading"].start:sections["reading"].end - 1])
    assert export.included_text(tree, f"{include.path}:{include.section}") == between
    shown = html_lib.unescape(re.sub(r"<[^>]+>", "", rendered(tree)))
    assert between in shown and "start:reading" not in shown and "[start:not.a.section]" in shown


def test_shown_output_verifies_links_and_fences_are_read_alike(tree: Path):
    page = read_page(tree / "docs/page.md", Path("docs/page.md"))
    assert shown_output(tree / "snippets/demo.py") == "2\n"
    assert [(check.ids, check.fence.language) for check in page.checks] == [(("demo.reads",), "pycon")]
    lines = (tree / "docs/page.md").read_text(encoding="utf-8").splitlines()
    fenced = [line for line, inside in fenced_lines(lines) if inside]
    # Each fence as read_page sees it: its opening line, its body and its closing line.
    assert fenced == [line for fence in page.fences for line in [lines[fence.line - 1], *fence.body, lines[fence.line + len(fence.body)]]]
    assert [fence.language for fence in page.fences] == ["python", "pycon"]


def test_heading_anchors_of_the_export_are_the_ids_the_site_gives(tree: Path):
    html = rendered(tree)
    site_ids = re.findall(r'<h[1-6] id="([^"]+)"', html)
    assert list(export.heading_anchors((tree / "docs/page.md").read_text(encoding="utf-8").splitlines())) == site_ids
