"""`dev.py export --meshweaver OUT` writes the pages in the framework's documentation format (issue 13).

The output is read back with a CommonMark parser (markdown-it): what the framework's Markdig would see is checked.
"""

from __future__ import annotations

import re
from pathlib import Path

import markdown
import pytest
import yaml
from markdown_it import MarkdownIt

from claimcheck.page import fenced_lines, read_page
from guidetools import export, siteconfig
from guidetools.framework_only import GUIDE_SECTION, framework_only
from guidetools.project import REPO_ROOT
from guidetools.upstream import open_repository
from tests.test_upstream import MESHWEAVER_SOURCE, PIN, needs_source

FRONT_MATTER = re.compile(r"\A---\n(?P<yaml>.*?)\n---\n", re.S)
HTML_LINK = re.compile(r"""\b(?:href|src)\s*=\s*["'](?P<target>[^"']*)["']""")
# Syntax of the site's Markdown extensions that Markdig would print as text.
SITE_ONLY_SYNTAX = re.compile(r"^\s*(?:!!!|\?\?\?|===)\s|<!--\s*verifies:|\{\s*[#.:]|--8<--")
# Markdig's math ($...$), emphasis extras (~x~, ^x^) and generic attributes ({N}); code, targets and HTML aside.
UNESCAPED_EXTRA = re.compile(r"(?<!\\)[$~^{]")
CODE_OR_TARGET = re.compile(r"(`+).+?\1|\]\([^)]*\)|<[^>]+>")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The exported pages by their path under Data/, written by the command a maintainer runs."""
    out = tmp_path_factory.mktemp("meshweaver")
    assert export.main(["--meshweaver", str(out)]) == 0
    return {path.relative_to(out).as_posix(): path.read_text(encoding="utf-8") for path in sorted(out.rglob("*.md"))}


@pytest.fixture(params=export.EXPORTED_PAGES)
def page(request) -> str:
    return request.param


def split(text: str) -> tuple[dict, str]:
    match = FRONT_MATTER.match(text)
    assert match, "the page does not start with YAML front matter between --- lines"
    return yaml.safe_load(match["yaml"]), text[match.end():]


def tokens(body: str) -> list:
    """The page's block tokens, each followed by its inline tokens (markdown-it nests them one level down)."""
    blocks = MarkdownIt("commonmark").enable("table").parse(body)
    return [token for block in blocks for token in [block, *(block.children or [])]]


def links(body: str) -> list[str]:
    """Every link and image target of the page's Markdown and inline HTML."""
    targets = []
    for token in tokens(body):
        if token.type in {"link_open", "image"}:
            targets.append(token.attrGet("href" if token.type == "link_open" else "src"))
        elif token.type in {"html_block", "html_inline"}:
            targets += [match["target"] for match in HTML_LINK.finditer(token.content)]
    return targets


def test_front_matter_parses_with_the_framework_fields(exported, page):
    """NodeType Markdown, a Name, a one-sentence Abstract, an SVG Icon, Authors and Tags."""
    meta, body = split(exported[page])
    assert list(meta) == ["NodeType", "Name", "Abstract", "Icon", "Authors", "Tags"]
    assert meta["NodeType"] == "Markdown" and meta["Name"].strip()
    assert meta["Abstract"].endswith((".", "!", "?")) and len(export.SENTENCE_END.split(meta["Abstract"])) == 1, meta["Abstract"]
    assert meta["Icon"].startswith("<svg") and meta["Icon"].endswith("</svg>")
    assert meta["Authors"] and all(isinstance(author, str) and author for author in meta["Authors"])
    assert meta["Tags"] and all(isinstance(tag, str) and tag for tag in meta["Tags"])
    # The Name is the title; the body does not repeat it as a heading.
    assert not [token for token in tokens(body) if token.type == "heading_open" and token.tag == "h1"]


def test_no_site_syntax_or_markdig_extra_survives_and_every_link_is_a_doc_path_or_a_url(exported, page):
    """No include, attribute list, admonition, tab, verifies comment, nor a bare $, ~, ^ or { in prose (Markdig would
    show or parse them); links to the exported pages are /Doc/ paths, the rest full URLs (the guide's own site)."""
    _, body = split(exported[page])
    leftovers = [f"line {number}: {line}" for number, line in enumerate(body.splitlines(), start=1) if SITE_ONLY_SYNTAX.search(line)]
    assert not leftovers, "\n".join(leftovers)
    bare = [token.content[:80] for token in tokens(body)
            if token.type == "inline" and UNESCAPED_EXTRA.search(CODE_OR_TARGET.sub("", token.content))]
    assert not bare, "\n".join(bare)
    found = links(body)
    assert found, "the page has no link at all, so the check would check nothing"
    bad = [target for target in found if not (target.startswith(export.DOC_ROOT) or re.match(r"https?://", target))]
    assert not bad, bad


def test_the_pages_are_exported_at_their_paths_and_doc_links_land_on_one_of_their_headings(exported):
    """Each page at its path in the framework docs, no other; a /Doc/ link's anchor is an id Markdig gives one of that
    page's headings."""
    assert sorted(exported) == sorted(export.EXPORTED_PAGES)
    headings = {}
    for name, text in exported.items():
        found = tokens(split(text)[1])
        titles = [found[index + 1].content for index, token in enumerate(found) if token.type == "heading_open"]
        seen: dict[str, int] = {}
        headings[export.DOC_ROOT + name.removesuffix(".md")] = {
            export._unique(export.markdig_slug(export.heading_text(title)), seen) for title in titles}
    broken = []
    for name, text in exported.items():
        for target in links(split(text)[1]):
            path, _, anchor = target.partition("#")
            if target.startswith(export.DOC_ROOT) and (path not in headings or (anchor and anchor not in headings[path])):
                broken.append(f"{name}: {target}")
    assert not broken, "\n".join(broken)


def test_the_export_is_framework_only_and_keeps_the_agents_view(exported, page):
    """No Python fence, no mention of agentkit, no extension claim, no empty fence; every framework and observation
    claim keeps a link to its claims-page row; each "Tool call" listing of a framework claim is exported."""
    source = read_page(REPO_ROOT / "docs" / page, Path("docs") / page)
    _, body = split(exported[page])
    blocks = [token for token in tokens(body) if token.type == "fence"]
    assert not [block.info for block in blocks if block.info.lower() in {"python", "py", "pycon"}]
    assert "agentkit" not in exported[page].lower()
    assert not [token for token in tokens(body) if token.type == "inline" and GUIDE_SECTION.search(token.content)
                and token.map and body.splitlines()[token.map[0]].startswith("#")]
    assert all(block.content.strip() for block in blocks)
    for marker in source.markers:
        linked = f"reference/claims/#claim-{marker.id})" in body
        if marker.kind == "extension":
            assert not linked, f"{marker.id}: an extension claim is exported"
        elif marker.kind in {"framework", "observation"} and not _under_guide_heading(source, marker.line):
            assert linked, f"{marker.id}: no link to its claims-page row"
    text = (REPO_ROOT / "docs" / page).read_text(encoding="utf-8")
    checked = []
    for view in re.finditer(r'^=== "Tool call"\n\n    --8<-- "(?P<path>[^"]+)"', text, flags=re.MULTILINE):
        line = text[: view.start()].count("\n") + 1
        claim = max((m for m in source.markers if m.line < line), key=lambda m: m.line, default=None)
        if claim is None or claim.kind != "framework" or _under_guide_heading(source, line):
            continue  # a listing of the guide's model or of an extension is not exported
        checked.append(view["path"])
        listing = (REPO_ROOT / view["path"]).read_text(encoding="utf-8").splitlines()
        first = next(line for line in listing if line.strip() and not line.startswith("```"))
        assert first.strip() in body, f"{view['path']}: its listing is not in the export"
    assert checked or '=== "Tool call"' not in text, "no listing of a framework claim was checked"


def _under_guide_heading(source, line: int) -> bool:
    """Whether the page line stands in a section the export leaves out (a heading naming agentkit or extensions)."""
    levels: list[tuple[int, bool]] = []
    for section in source.sections:
        if section.line < line:
            levels = [entry for entry in levels if entry[0] < section.level] + [(section.level, bool(GUIDE_SECTION.search(section.source)))]
    return any(guide for _, guide in levels)


def test_each_page_renders_with_the_sites_markdown_settings_without_a_broken_table_or_list(exported, page):
    """With mkdocs.yml's extensions every table becomes a <table>, and no paragraph holds a line that starts with a
    table row or a list marker."""
    names, configs = siteconfig.markdown_extensions()
    _, body = split(exported[page])
    html = markdown.Markdown(extensions=names, extension_configs=configs).convert(body)
    # A table inside a callout (a Details block, exported as a block quote) is one too.
    rows = [re.sub(r"^(> ?)+", "", line) for line, fenced in fenced_lines(body.splitlines()) if not fenced]
    tables = sum(1 for line, previous in zip(rows, ["", *rows]) if line.startswith("|") and not previous.startswith("|"))
    assert tables and html.count("<table>") == tables
    paragraphs = re.findall(r"<p>(.*?)</p>", html, flags=re.S)
    broken = [line for text in paragraphs for line in text.split("\n") if re.match(r"(\|\s|- |\* |\d+\. )", line)]
    assert not broken, broken
    if page == "AI/AgentDesign.md":
        assert html.count("<ol>") >= 1 and html.count("<ul>") >= 1


@needs_source("check the /Doc/ links against the framework's pages at the pin")
def test_every_doc_link_names_an_exported_page_or_a_page_at_the_pin(exported):
    repository = open_repository(Path(MESHWEAVER_SOURCE))
    targets = {target.partition("#")[0] for text in exported.values() for target in links(split(text)[1])
               if target.startswith(export.DOC_ROOT)}
    ours = {export.DOC_ROOT + page.removesuffix(".md") for page in exported}
    theirs = repository.read([(PIN.commit, f"src/MeshWeaver.Documentation/Data/{target[len(export.DOC_ROOT):]}.md")
                              for target in sorted(targets - ours)])
    missing = [path for (_, path), lines in theirs.items() if lines is None]
    assert targets and not missing, missing


def test_a_tool_call_is_shown_in_the_form_the_model_issues_it():
    """`tools["Get"].call({...})` and an alias of a tool become `Get(path=...)`; other code is left as it is."""
    code = 'node = json.loads(tools["Get"].call({"path": "Meridian"}))\nprint(get.call(arguments))\nx = other.call({"a": 1})'
    assert export.tool_call_form(code, {"get": "Get"}) == 'node = json.loads(Get(path="Meridian"))\nprint(Get(**arguments))\nx = other.call({"a": 1})'


@pytest.mark.parametrize(("heading", "markdig_id"), [
    ("1. The cost model: turns × context", "the-cost-model-turns-context"),
    ("Source provenance (page + position)", "source-provenance-page-position"),
    ("`Get` on a file path", "get-on-a-file-path"),
    ("`read_tables` and _emphasis_", "read_tables-and-emphasis"),
    ("Über café: naïve", "uber-cafe-naive"),
])
def test_heading_ids_follow_markdig_default_auto_identifiers(heading, markdig_id):
    """Markdig (UseAdvancedExtensions) drops what precedes the first letter and joins words with one '-'."""
    assert export.markdig_slug(export.heading_text(heading)) == markdig_id


@pytest.mark.parametrize(("line", "escaped"), [
    # Markdig would make the line above a definition-list term (`: definition`) or open a container (`:::`).
    ("  : the definition", "  \\: the definition"),
    # `$` in a code span, a link target or an HTML attribute is not text Markdig would parse as math.
    ('costs $3 to $15, about ~60, {N} calls; `a$b{c}` [x](https://example.org/~u) <span title="$">',
     'costs \\$3 to \\$15, about \\~60, \\{N} calls; `a$b{c}` [x](https://example.org/~u) <span title="$">'),
], ids=["colon", "code, link target and html"])
def test_prose_escaping_leaves_code_link_targets_and_html_alone(line, escaped):
    assert export._escape_markdig_extras(line) == escaped


def test_framework_only_drops_code_extensions_and_agentkit_and_unwraps_the_agent_view():
    page = [
        "Get answers the node.",
        "{ #a.get .framework cite=\"N1\" }",
        "",
        '=== "Tool call"',
        "",
        "    Get(path) answers.",
        "",
        '=== "Python"',
        "",
        "    ```python",
        "    tools['Get'].call({})",
        "    ```",
        "",
        "A `.docx` returns Markdown; `agentkit` models headings only. Tables too (as agentkit shows).",
        "{ #a.docx .framework cite=\"C3\" }",
        "",
        "`agentkit` can refuse it.",
        "{ #a.ext .extension }",
        "",
        "```text",
        "refused",
        "```",
        "",
        "## Extensions (agentkit only)",
        "",
        "Gone.",
        "",
        "## Next",
        "",
        "Kept, as scenario 2 models.",
    ]
    kept = framework_only(page)
    view = kept.index("Get(path) answers.")
    assert kept[view - 1] == kept[view + 1] == "", "the unwrapped listing stands in blocks of its own"
    assert [line for line in kept if line.strip()] == [
        "Get answers the node.", '{ #a.get .framework cite="N1" }',
        "Get(path) answers.",
        "A `.docx` returns Markdown. Tables too.", '{ #a.docx .framework cite="C3" }',
        "## Next",
        "Kept.",
    ]
