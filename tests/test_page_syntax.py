"""Each form of page syntax planted once, and every reader of it seeing the same thing: the page model, the inline,
snippet and shown-output readers of claimcheck, mutate, the export and its framework-only cut, and the site's
rendering (Python-Markdown with the site's extensions and claimcheck's claim labels)."""

from __future__ import annotations

import html as html_lib
import re
import textwrap
from pathlib import Path

import markdown
import pytest

from claimcheck._marks import ClaimLabels
from claimcheck.doctests import make_sybil
from claimcheck import numbers
from guidetools import claimcontract, claims, export, framework_only, mutate, review, siteconfig
from guidetools.project import Project
from claimcheck.inline import read_inline
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
    - A nested item, no claim.

Seen in the field.
{ #demo.seen .observation }

`Search` takes ``Get(limit=5, path=`x`)`` as its query; see [the 2 rules](rules.md#rule-3)
for the other 4.
{ #demo.inline .model }

```python
--8<-- "snippets/demo.py:reading"
```

!!! note "Read this"
    A note's text.

=== "Tool call"

    --8<-- "snippets/output/demo.md"

=== "Python"

    ```python
    --8<-- "snippets/demo.py:reading"
    ```

??? example
    Collapsed.

Refusing a name is an extension of this model.
{ #demo.refuses .extension }

## Checking { #checking }

<!-- verifies: demo.reads -->
```pycon
>>> 1 + 1
2
```
'''

CLAIMS = [
    ("demo.reads", "model", ()), ("demo.listed", "framework", ("K1", "K2")), ("demo.seen", "observation", ()),
    ("demo.inline", "model", ()), ("demo.refuses", "extension", ()),
]
# demo.inline's words: a code span, a double-backtick span holding backticks, and a link whose target holds a number.
INLINE_CODE = ["Search", "Get(limit=5, path=`x`)"]
INLINE_LINK = ("the 2 rules", "rules.md#rule-3")
INLINE_NAMES = [("Search", "Search"), ("Get(limit=5, path=`x`)", "Get"), ("Get(limit=5, path=`x`)", "limit"), ("Get(limit=5, path=`x`)", "path")]
OUTPUT = """
| read | items |
| --- | --- |
| `lib/reader.py` | 2 |
"""
CONTAINERS = [("admonition", "note", "Read this"), ("tab", "", "Tool call"), ("tab", "", "Python"), ("admonition", "example", None)]
TEXT = PAGE.lstrip()  # docs/page.md as the tree holds it


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp_path = tmp_path_factory.mktemp("tree")
    facts = '[pin]\nrepo = "demo/demo"\ncommit = "0000000"\n\n[facts]\n'
    files = {"snippets/demo.py": SNIPPET, "snippets/output/demo.md": OUTPUT, "docs/page.md": PAGE, "framework/citations.toml": facts}
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return tmp_path


@pytest.fixture(scope="module")
def page(tree: Path):
    return read_page(tree / "docs/page.md", Path("docs/page.md"))


@pytest.fixture(scope="module")
def html(tree: Path) -> str:
    """As the site renders it: mkdocs.yml's Markdown extensions and settings, and the claims plugin's labels."""
    names, settings = siteconfig.markdown_extensions()
    assert settings["pymdownx.snippets"].get("check_paths") is True, "the site's includes must fail when missing"
    settings["pymdownx.snippets"]["base_path"] = [str(tree)]
    return markdown.markdown(TEXT, extensions=[*names, ClaimLabels("claims/")], extension_configs=settings)


def test_claims_read_from_the_page_are_the_claims_the_site_labels_and_mutate_edits(page, html: str):
    assert [(marker.id, marker.kind, marker.cites) for marker in page.markers] == CLAIMS
    labelled = re.findall(r'class="claim-mark claim-mark--(\w+)" href="claims/#claim-([^"]+)"', html)
    assert [(claim_id, kind) for kind, claim_id in labelled] == [(claim_id, kind) for claim_id, kind, _ in CLAIMS]
    assert 'data-cite="K1 K2"' in html
    # A list item's label ends its own text, before its nested list.
    assert re.search(r'id="demo.listed">A listed claim that spans\s+two lines. <a [^>]*>[^<]*<code>demo.listed</code></a><ul>\n<li>A nested item', html)
    # Each claim's text, as the page reader and mutate's region of it read it.
    assert [marker.text for marker in page.markers] == [
        "The reader returns two items, as `lib/reader.py` says.", "A listed claim that spans two lines.", "Seen in the field.",
        "`Search` takes ``Get(limit=5, path=`x`)`` as its query; see [the 2 rules](rules.md#rule-3) for the other 4.",
        "Refusing a name is an extension of this model.",
    ]
    for marker in page.markers:
        start, end = mutate.claim_region(TEXT, marker)
        region = " ".join(line.strip() for line in TEXT[start:end].splitlines())
        assert region.removeprefix("- ") == marker.text


def test_a_claims_code_spans_links_and_numbers_are_read_alike(tree: Path, html: str):
    """As the inline reader, the site, the name and number contracts, mutate, review and the claims page read them:
    the same two code spans (one in double backticks), the same link, and the numbers of its prose only (not the
    5 in code, not the 3 in the link's target)."""
    project = Project(tree)
    [page] = project.pages
    marker = next(marker for marker in page.markers if marker.id == "demo.inline")
    alone = claims.Claims([marker], {}, [])
    inline = read_inline(marker.text)
    assert [span.text for span in inline.code] == INLINE_CODE
    assert [(link.text, link.target) for link in inline.links] == [INLINE_LINK]

    paragraph = re.search(r'<p class="model" id="demo.inline">(.*?) <a [^>]*class="claim-mark', html, re.S)[1]
    assert [html_lib.unescape(code) for code in re.findall(r"<code>(.*?)</code>", paragraph)] == INLINE_CODE
    assert re.findall(r'<a href="([^"]+)">(.*?)</a>', paragraph) == [INLINE_LINK[::-1]]

    unknown = claimcontract.KnownNames(set(), [])
    assert [problem.message for problem in claimcontract.name_problems(project, alone, unknown)] == [
        f"demo.inline: `{span}` names '{name}', which is no tool, plugin, parameter or field agentkit knows" for span, name in INLINE_NAMES
    ]
    assert [number.text for number in numbers.stated(marker.text)] == ["2", "4"]
    assert [problem.message.split("'")[1] for problem in claimcontract.number_problems(project, alone)] == ["2", "4"]
    assert [code for _, code in review.sentences(marker.text)] == [INLINE_CODE]

    found = [mutant for mutant in mutate.mutants(project, alone) if mutant.claim.id == "demo.inline"]
    assert [mutant.original for mutant in found if mutant.kind == "number"] == ["2", "4"]
    assert sorted(mutant.original for mutant in found if mutant.kind == "name") == sorted({name for _, name in INLINE_NAMES})
    start, _ = mutate.claim_region(TEXT, marker)
    spans = [(start + span.start, start + span.end) for span in read_inline(TEXT[start:]).code]
    link = TEXT.index("the 2 rules")
    for mutant in found:
        assert TEXT[mutant.start:mutant.start + len(mutant.original)] == mutant.original
        where = [(left, right) for left, right in spans if left <= mutant.start < right]
        assert where if mutant.kind == "name" else not where and not (link + 11 <= mutant.start < TEXT.index("\nfor")), mutant

    row = next(line for line in claims.render_page(project, claims.Claims(page.markers, {}, [])).splitlines() if "demo.inline" in line)
    assert "see the 2 rules for the other 4" in row and "rules.md" not in row and "``Get(limit=5, path=`x`)``" in row


def test_an_include_names_a_section_the_snippet_reader_the_export_and_the_site_agree_on(tree: Path, page, html: str):
    assert [(include.path, include.section) for include in page.body_includes] == [("snippets/output/demo.md", None)]
    [include, again] = [include for fence in page.fences for include in fence.includes]
    assert (include.path, include.section) == (again.path, again.section) == ("snippets/demo.py", "reading")
    sections, problems = read_sections(tree / include.path)
    assert problems == [] and list(sections) == ["reading"]
    lines = (tree / include.path).read_text(encoding="utf-8").splitlines()
    between = "\n".join(lines[sections["reading"].start:sections["reading"].end - 1])
    assert export.included_text(tree, f"{include.path}:{include.section}") == between
    shown = html_lib.unescape(re.sub(r"<[^>]+>", "", html))
    assert between in shown and "start:reading" not in shown and "[start:not.a.section]" in shown


def test_shown_output_verifies_links_and_fences_are_read_alike(tree: Path, page):
    assert shown_output(tree / "snippets/demo.py") == "2\n"
    assert [(check.ids, check.fence.language) for check in page.checks] == [(("demo.reads",), "pycon")]
    lines = TEXT.splitlines()
    fenced = [line for line, inside in fenced_lines(lines) if inside]
    # Each fence as read_page sees it: its opening line, its body and its closing line.
    assert fenced == [line for fence in page.fences for line in [lines[fence.line - 1], *fence.body, lines[fence.line + len(fence.body)]]]
    assert [fence.language for fence in page.fences] == ["python", "python", "pycon"]
    # The doctests run the examples of that pycon block, at its lines.
    examples = list(make_sybil().parse(tree / "docs/page.md"))
    [check] = page.checks
    assert [(example.line, example.parsed.source, example.parsed.want) for example in examples] == [(check.fence.line + 1, "1 + 1\n", "2\n")]


def test_headings_and_containers_of_the_page_model_are_what_the_site_renders_and_the_export_reads(page, html):
    # Sections and the export's anchors: the headings and ids the site gives.
    headings = re.findall(r'<h([1-6]) id="([^"]+)">(.*?)</h', html)
    # A heading's text, without the permalink the site puts after it (toc: permalink).
    assert [(section.level, section.anchor, section.text) for section in page.sections] == [
        (int(level), anchor, html_lib.unescape(re.sub(r"<[^>]+>", "", re.sub(r'<a class="headerlink".*?</a>', "", text))))
        for level, anchor, text in headings
    ]
    lines = TEXT.splitlines()
    assert list(export.heading_anchors(lines)) == [anchor for _, anchor, _ in headings]
    # The framework-only cut reads the same headings (it drops the sections that are the guide's own).
    cut = [block for block in framework_only.blocks(lines) if block.kind == "heading"]
    assert [(block.level, block.text) for block in cut] == [(section.level, section.source) for section in page.sections]

    # Admonitions and tabs: the containers the site renders and the export rewrites.
    assert [(container.kind, container.type, container.title) for container in page.containers] == CONTAINERS
    # The site: an admonition's title (its type, capitalized, when it gives none), a details summary, a tab's label.
    shown = re.findall(r'<p class="admonition-title">([^<]*)</p>|<summary>([^<]*)</summary>|<label for="__tabbed_[^"]*">([^<]*)</label>', html)
    assert ["".join(title) for title in shown] == [title or kind.capitalize() for _, kind, title in CONTAINERS]
    # Each container holds the lines the site shows in it: the tab's include, the other tab's fence.
    tool_call, python = page.containers[1:3]
    assert [include.line for include in page.body_includes] == [tool_call.end]
    assert python.languages == ("python",) and python.line < page.fences[1].line <= python.end
    # The framework-only cut sees the same containers, and the export rewrites each one it keeps.
    cut = [(block.container, block.title) for block in framework_only.blocks(lines) if block.kind == "container"]
    assert cut == [(container.marker, container.title or container.type) for container in page.containers if not container.indent]
    markdig = export._blocks_for_markdig(lines)
    assert not [line for line in markdig if re.match(r"\s*(!!!|\?\?\?|===)", line)]
    assert [line for line in markdig if line.lstrip("> ").startswith("**")] == [
        "> **Read this**", "**Tool call**", "**Python**", "> **Example**",
    ]


def test_the_export_keeps_the_framework_claims_and_the_agents_view_of_the_page_model(tree: Path, page):
    exported = export.ExportedPage(Path("page.md"), "/Doc/page", export.heading_anchors(TEXT.splitlines()))
    out = export.export_page(export.Site(tree, "https://guide.example/", {}, {"page.md": exported}), exported)
    # Every claim but the extension keeps its "Checked by" line, linking its row on the claims page.
    assert re.findall(r"#claim-([^)]+)\)", out) == [marker.id for marker in page.markers if marker.kind != "extension"]
    # The Python goes: the tab that held it, and its fence; the tool-call tab is left, unwrapped, with the include inlined.
    assert "```python" not in out and "**Python**" not in out and "**Tool call**" not in out
    assert "| `lib/reader.py` | 2 |" in out and "> **Read this**" in out and "> **Example**" in out


FAULTS = '''
# Faults

A claim with a malformed id.
{ #Bad_Id .model }

A marker inside a line { #x.y .model } is not a marker.

<!-- verifies: -->

<!-- verifies: demo.a -->
```python
x = 1
```

<!-- verifies: demo.b -->

```pycon
>>> 1
1
```

```text
never closed
'''


def test_each_planted_fault_of_page_syntax_is_one_problem_at_its_line(tmp_path: Path):
    page = tmp_path / "faults.md"
    page.write_text(FAULTS.lstrip(), encoding="utf-8")
    verifies = "a verifies comment must stand directly above a ```pycon block"
    assert [(problem.line, problem.message) for problem in read_page(page, Path("faults.md")).problems] == [
        (4, "claim id 'Bad_Id' is malformed; use lowercase words joined by '.' and '-'"),
        (6, "claim marker not in the form '{ #page.claim-id .KIND }' alone on its line, KIND one of framework (with cite=\"FACT\"), model, extension, observation"),
        (8, "verifies comment names no claim id; write <!-- verifies: some.claim-id -->"),
        (10, f"{verifies}; move it or make the block pycon"),
        (15, f"{verifies}; nothing may stand between them"),
        (22, "code fence is never closed"),
    ]
    page.write_text("Text.\n\n<!-- verifies: demo.c -->\n", encoding="utf-8")
    assert [(problem.line, problem.message) for problem in read_page(page).problems] == [(3, verifies)]
