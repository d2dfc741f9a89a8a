"""Export pages of the guide in the framework's documentation format (MeshWeaver's `Doc` namespace).

    python3 dev.py export --meshweaver OUT

writes OUT/Architecture/ContentChunkNavigation.md and the other exported pages, laid out as the
framework's `src/MeshWeaver.Documentation/Data/` folder is, each in the form the framework's pages
have at the pinned commit:

- framework only (guidetools/framework_only.py): no Python and no mention of agentkit, no extension
  sections or claims, no model claims about the guide's own runs; the listings in the agent's view
  (the tool calls and answers), the framework's behaviour, the field's observations and the rules;
- YAML front matter: NodeType, Name, Abstract (one sentence), Icon, Authors, Tags;
- every `--8<--` include inlined as the reader sees it on the site: captured output as its Markdown
  (a snippet section that is not Python would come as its block, with `tools["Get"].call({...})`
  shown in its tool-call form, `Get(path=...)`);
- claim markers replaced by a trailing "Checked by" line linking the claim's row on the guide's
  claims page; `<!-- verifies: -->` comments dropped;
- links to exported pages as `/Doc/...` paths, in-page anchors as the framework's Markdig names
  them; every other link points at the guide's published site (site_url);
- nothing the framework's Markdig pipeline (src/MeshWeaver.Markdown/MarkdownExtensions.cs) would
  show as text: no attribute lists, admonitions become block quotes, content tabs become bold labels;
  and nothing it would render as something else: `$`, `~`, `^` and `{` in prose are escaped
  (UseMathematics, EmphasisExtras and GenericAttributes would read `$3 … $15` as math, `~x~` as
  subscript and the placeholder `{N}` as an attribute).

The exporter reads whatever the pages contain; it knows the page syntax (claimcheck/page.py), not the pages.
"""

from __future__ import annotations

import argparse
import ast
import functools
import itertools
import math
import posixpath
import re
import subprocess
import sys
import textwrap
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

import yaml

from guidetools import siteconfig
from guidetools.framework_only import GUIDE_ONLY, SENTENCE_END, framework_only, indentation, scrub_prose
from claimcheck.page import ATTR_LIST, INCLUDE, MARKER, Container, fenced_lines, is_closed, read_lines
from guidetools.project import REPO_ROOT

# The guide's pages that the framework's documentation has a page for, at the same path under Data/.
EXPORTED_PAGES = (
    "Architecture/ContentChunkNavigation.md",
    "AI/Tools/MeshPlugin.md",
    "AI/AgentDesign.md",
    "DataMesh/UnifiedPath.md",
)
DOC_ROOT = "/Doc/"
# The framework's page icons are 24x24 outline SVGs drawn in currentColor; this one is a checked page.
ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" '
    'stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">'
    '<path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z"/><path d="M14 2v6h6"/>'
    '<path d="m9 15 2 2 4-4"/></svg>'
)
GUIDE_TAG = "Executable guide"
ABSTRACT_LIMIT = 300
# What stands behind a claim, in the words of the site's claim labels (claimcheck/_marks.py).
CHECKED_BY = {
    "framework": "\u2713 Checked by code (framework behaviour, cited from its source)",
    "model": "\u2713 Checked by code (the guide's model)",
    "extension": "\u2713 Checked by code (an agentkit extension, off by default)",
    "observation": "\u25cb Observation from production runs, not checked by code",
}

INLINE_LINK = re.compile(r"(?P<open>!?\[(?:[^\[\]]|\[[^\]]*\])*\]\()(?P<target><[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?P<title>\s+\"[^\"]*\")?\)")
REFERENCE_DEFINITION = re.compile(r"^(?P<lead>\s{0,3}\[[^\]]+\]:\s*)(?P<target>\S+)(?P<rest>.*)$")
MARKDOWN_IN_HTML = re.compile(r"\s+markdown(?:=\"[^\"]*\")?(?=[\s>])")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


@dataclass
class ExportedPage:
    source: PurePosixPath  # relative to docs/
    doc_path: str  # /Doc/AI/AgentDesign
    anchors: dict[str, str]  # the site's heading id -> Markdig's


@dataclass
class Site:
    """What the export needs to know about the guide: its address, nav, and the pages it exports."""

    root: Path
    site_url: str
    nav_sections: dict[str, list[str]]  # page source -> the nav sections above it
    pages: dict[str, ExportedPage]

    @property
    def claims_url(self) -> str:
        return self.site_url + "reference/claims/"

    def published_url(self, source: PurePosixPath) -> str:
        """The page's address on the guide's own site (directory URLs, as MkDocs builds them)."""
        stem = source.with_suffix("")
        if stem.name in {"index", "README"}:
            folder = stem.parent.as_posix()
            return self.site_url + ("" if folder == "." else folder + "/")
        return self.site_url + stem.as_posix() + "/"


# --- anchors: the site names headings with Python-Markdown's toc, the framework with Markdig ---------


def markdig_slug(text: str) -> str:
    """Markdig's AutoIdentifiers in their default mode (UseAdvancedExtensions): LinkHelper.Urilize with
    allowOnlyAscii and without keeping opening digits; letters lowercased, '-', '_' and '.' kept once,
    a run of spaces becomes one '-', everything else dropped, nothing before the first letter."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    out: list[str] = []
    has_letter = False
    previous_is_space = False
    for char in ascii_text:
        if char.isalpha():
            out.append(char.lower())
            has_letter, previous_is_space = True, False
        elif not has_letter:
            continue
        elif char in "-_.":
            if previous_is_space:
                out.pop()
            if not out or out[-1] != char:
                out.append(char)
            previous_is_space = False
        elif char.isdigit():
            out.append(char)
            previous_is_space = False
        elif char.isspace() and not previous_is_space:
            if out[-1] not in "-_.":
                out.append("-")
            previous_is_space = True
    return "".join(out).rstrip("-_.")


def heading_text(markdown: str) -> str:
    """Prose as plain text (the abstract): links reduced to their text, code and emphasis marks dropped."""
    text = INLINE_LINK.sub(lambda match: match["open"][match["open"].index("[") + 1:-2], markdown)
    # Emphasis marks go; an underscore inside a word (`read_tables`) is text and stays.
    return re.sub(r"[`*]|(?<!\w)_+|_+(?!\w)", "", text).strip()


def heading_anchors(lines: Iterable[str]) -> dict[str, str]:
    """The id each heading gets on the site (the page model's anchor) -> the id Markdig gives it."""
    markdig_seen: dict[str, int] = {}
    return {section.anchor: _unique(markdig_slug(section.text) or "section", markdig_seen)
            for section in read_lines(list(lines), Path()).sections}


def _unique(slug: str, seen: dict[str, int]) -> str:
    """The slug, or (when `seen` has it) the slug with "-1", "-2"… after it, as Markdig numbers a heading id again."""
    count = seen.get(slug, 0)
    seen[slug] = count + 1
    return f"{slug}-{count}" if count else slug


# --- includes ----------------------------------------------------------------------------------------


def included_text(root: Path, target: str) -> str:
    """What pymdownx.snippets puts in place of `--8<-- "path:section"`, as the site's settings have it (the
    section's lines without section markers, dedented; or the whole file without markers): its own preprocessor
    run on the include line."""
    from pymdownx.snippets import SnippetMissingError

    try:
        lines = _snippets(root).run([f'--8<-- "{target}"'])
    except SnippetMissingError as error:
        raise ExportError(f"the include '{target}' cannot be read: {error}") from error
    return textwrap.dedent("\n".join(lines)).strip("\n")


@functools.cache
def _snippets(root: Path):
    """pymdownx.snippets' preprocessor with the guide's settings (mkdocs.yml), reading paths under `root`."""
    import markdown

    settings = siteconfig.markdown_extensions()[1]["pymdownx.snippets"]
    md = markdown.Markdown(extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": {**settings, "base_path": [str(root)]}})
    return md.preprocessors["snippet"]


def tool_call_form(code: str, aliases: dict[str, str]) -> str:
    """`tools["Get"].call({"path": p})` (or `get.call(...)` with `get = tools["Get"]`) as the model
    issues it: `Get(path=p)`. Code that does not parse, or calls with other arguments, stay as they are."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    lines = code.splitlines(keepends=True)
    starts = [0, *itertools.accumulate(map(len, lines))]

    def offset(line: int, column: int) -> int:  # ast counts a line's columns in UTF-8 bytes
        return starts[line - 1] + len(lines[line - 1].encode("utf-8")[:column].decode("utf-8", errors="ignore"))

    edits = []
    for node in ast.walk(tree):
        tool = _called_tool(node, aliases)
        if tool is None or len(node.args) != 1 or node.keywords:
            continue
        arguments = _tool_arguments(code, node.args[0])
        if arguments is not None:
            start, end = offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset)
            edits.append((start, end, f"{tool}({arguments})"))
    # Tool calls do not nest in practice: an edit inside one already made is left out.
    pieces, position = [], 0
    for start, end, replacement in sorted(edits):
        if start >= position:
            pieces += [code[position:start], replacement]
            position = end
    return "".join(pieces) + code[position:]


def _tool_name(node: ast.AST) -> str | None:
    """"Get" for `tools["Get"]`."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    return None


def _called_tool(node: ast.AST, aliases: dict[str, str]) -> str | None:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "call"):
        return None
    receiver = node.func.value
    return aliases.get(receiver.id) if isinstance(receiver, ast.Name) else _tool_name(receiver)


def _tool_arguments(code: str, argument: ast.expr) -> str | None:
    if isinstance(argument, ast.Dict) and all(isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.isidentifier() for key in argument.keys):
        return ", ".join(f"{key.value}={ast.get_source_segment(code, value)}" for key, value in zip(argument.keys, argument.values))
    if isinstance(argument, ast.Name):
        return f"**{argument.id}"
    return None


# Every fence that includes a snippet asks for its file's aliases: each file is parsed once per process (the
# cached dict is read, never changed).
@functools.lru_cache(maxsize=64)
def tool_aliases(source: str) -> dict[str, str]:
    """Names bound to a tool in a snippet file: `get = tools["Get"]` makes `get` stand for Get."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    return {node.targets[0].id: name for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and (name := _tool_name(node.value)) is not None}


class ExportError(Exception):
    """A page the exporter cannot render: a missing include. Reported as text by main()."""


# --- the page transformation -------------------------------------------------------------------------


def export_page(site: Site, page: ExportedPage) -> str:
    source_lines = (site.root / "docs" / page.source).read_text(encoding="utf-8").splitlines()
    front_matter, body = _split_front_matter(source_lines)
    title, body = _take_title(body, page)
    lines = _scrub_rendered(_render_body(site, page, framework_only(body)))
    lines = _blocks_for_markdig(lines)
    text = "\n".join(_squeeze_blank_lines(lines)).strip("\n") + "\n"
    meta = {
        "NodeType": "Markdown",
        "Name": title,
        "Abstract": _one_sentence(front_matter.get("description") or _abstract(text)),
        "Icon": ICON,
        "Authors": _authors(site.root, page.source),
        "Tags": site.nav_sections.get(page.source.as_posix(), []) + [GUIDE_TAG],
    }
    return _front_matter(meta) + "\n" + text


def _split_front_matter(lines: list[str]) -> tuple[dict, list[str]]:
    first = next(iter(read_lines(lines, Path()).blocks), None)
    if first is not None and first.kind == "front_matter":
        return yaml.safe_load(first.content) or {}, lines[first.end:]
    return {}, lines


def _take_title(lines: list[str], page: ExportedPage) -> tuple[str, list[str]]:
    """The page's H1, when the page opens with one, becomes the front matter's Name; the framework's pages show Name as the title."""
    sections = read_lines(lines, Path(page.source)).sections
    first = next((number for number, line in enumerate(lines) if line.strip()), None)
    if sections and sections[0].level == 1 and sections[0].line - 1 == first:
        return sections[0].text, lines[:first] + lines[first + 1:]
    return page.source.stem, lines


def _render_body(site: Site, page: ExportedPage, lines: list[str]) -> list[str]:
    """Fences with their includes inlined, body includes inlined (rendered in turn), claim markers as
    "Checked by" lines, verifies comments dropped; prose lines with their links and escapes rewritten."""
    fences, guide_lines = {}, set()
    model = read_lines(lines, Path(page.source))
    for block in model.blocks:
        if block.kind == "fence":
            if not is_closed(lines, block):
                raise ExportError(f"docs/{page.source}: a code fence is never closed")
            fences[block.start] = block
        elif block.kind in {"paragraph", "html_block"}:
            guide_lines.update(range(block.start, block.end))  # where includes, markers and comments stand
    out: list[str] = []
    after_fence = 0
    for number, line in enumerate(lines):
        if number < after_fence or number in model.comments and number in guide_lines:
            continue
        if number in fences:
            fence = fences[number]
            after_fence = fence.end
            info = line.strip()[len(fence.markup):].strip()
            body = lines[fence.start + 1:fence.end - 1]
            out += _render_fence(site, indentation(lines[fence.end - 1]), fence.markup, info, body)
            continue
        include = number in guide_lines and INCLUDE.match(line)
        marker = number in guide_lines and MARKER.match(line)
        if include:
            inlined = _render_body(site, page, included_text(site.root, include["target"]).splitlines())
            out += [indentation(line) + text if text.strip() else "" for text in inlined]
        elif marker:
            _append_checked_by(site, out, line, marker)
        else:
            out.append(_escape_markdig_extras(_rewrite_links(site, page, _strip_attr_lists(line))))
    return out


def _scrub_rendered(lines: list[str]) -> list[str]:
    """What the includes brought in, without mentions of agentkit: a table row that names it goes, and
    so does a sentence of prose; a fenced listing that names it goes whole."""
    fences = {block.start: block.end for block in read_lines(lines, Path()).blocks if block.kind == "fence"}
    out: list[str] = []
    after_fence = 0
    for number, line in enumerate(lines):
        if number < after_fence:
            continue
        if number in fences:
            after_fence = fences[number]
            fence = lines[number:after_fence]
            out += [] if any(GUIDE_ONLY.search(text) for text in fence) else fence
        else:
            out += scrub_prose([line]) if GUIDE_ONLY.search(line) else [line]
    return out


def _render_fence(site: Site, indent: str, marker: str, info: str, body: list[str]) -> list[str]:
    # attr_list options on the fence (`{ .python title="x" }`) are the site's; Markdig wants a bare language.
    language = info.split()[0].lstrip("{").lstrip(".") if info else ""
    includes = [INCLUDE.match(line) for line in body if line.strip()]
    if includes and all(includes):
        code = "\n\n".join(_listing(site.root, include["target"]) for include in includes)
        body = [indent + line if line.strip() else "" for line in code.splitlines()]
    return [f"{indent}{marker}{language}", *body, f"{indent}{marker}"]


def _listing(root: Path, target: str) -> str:
    """An included section as a fence shows it: Python's tool calls in the form the model issues them."""
    code = included_text(root, target)
    path = target.partition(":")[0]
    if path.endswith(".py"):
        code = tool_call_form(code, tool_aliases((root / path).read_text(encoding="utf-8")))
    return code


def _append_checked_by(site: Site, out: list[str], line: str, marker: re.Match) -> None:
    """The claim's marker line becomes a line of its own under the paragraph: what stands behind it, and a link to its row."""
    link = f"[`{marker['id']}`]({site.claims_url}#claim-{marker['id']})"
    # A hard line break (CommonMark's trailing backslash) keeps it on its own line inside the paragraph.
    last = next((number for number in range(len(out) - 1, -1, -1) if out[number].strip()), None)
    if last is not None:
        out[last] = out[last].rstrip() + "\\"
    out.append(f"{indentation(line)}*{CHECKED_BY[marker['kind']]}: {link}*")


def _outside(protected: re.Pattern, line: str, change) -> str:
    """`change` applied to the text of `line` between the matches of `protected`, which stay as they are."""
    pieces, position = [], 0
    for match in protected.finditer(line):
        pieces += [change(line[position:match.start()]), match.group(0)]
        position = match.end()
    return "".join(pieces) + change(line[position:])


def _strip_attr_lists(line: str) -> str:
    """Drop attribute lists (`{ #id .class }`), which Markdig would show as text, but not inside code spans."""
    stripped = _outside(CODE_SPAN, line, lambda text: ATTR_LIST.sub("", text))
    return MARKDOWN_IN_HTML.sub("", stripped) if stripped.lstrip().startswith("<") else stripped


# Markdig's UseMathematics reads `$...$` as math, its EmphasisExtras read `~x~` and `^x^` as sub- and
# superscript, and UseGenericAttributes takes `{N}` for an attribute and drops it from the text: in prose
# these characters are prices, approximations and placeholders, so they are escaped there.
MARKDIG_EXTRAS = re.compile(r"(?<!\\)([$~^{])")
PROTECTED = re.compile(r"(`+)(?:(?!\1).)+?\1|\]\([^)]*\)|<[^>]+>")


def _escape_markdig_extras(line: str) -> str:
    """Escape `$`, `~`, `^` and `{` in prose, never inside code spans, link targets or HTML tags."""
    if line.lstrip().startswith(":"):
        # A line that starts with ':' would make the line above a definition list term, or open a ::: container.
        line = indentation(line) + "\\" + line.lstrip()
    if line.lstrip().startswith("<"):
        return line
    return _outside(PROTECTED, line, lambda text: MARKDIG_EXTRAS.sub(r"\\\1", text))


def _rewrite_links(site: Site, page: ExportedPage, line: str) -> str:
    definition = REFERENCE_DEFINITION.match(line)
    if definition:
        return definition["lead"] + _link_target(site, page, definition["target"]) + definition["rest"]
    return _outside(CODE_SPAN, line, lambda text: INLINE_LINK.sub(lambda match: _rewritten(site, page, match), text))


def _rewritten(site: Site, page: ExportedPage, match: re.Match) -> str:
    target = match["target"]
    bracketed = target.startswith("<") and target.endswith(">")
    new = _link_target(site, page, target[1:-1] if bracketed else target)
    return f"{match['open']}{new}{match['title'] or ''})"


def _link_target(site: Site, page: ExportedPage, target: str) -> str:
    """A link on an exported page as the framework's docs need it: /Doc/ for exported pages, else the guide's site."""
    parts = urlsplit(target)
    if parts.scheme or target.startswith("//"):
        return target
    path, anchor = parts.path, parts.fragment
    if not path:
        return _doc_link(page, anchor)
    resolved = PurePosixPath(posixpath.normpath(posixpath.join(page.source.parent.as_posix(), path)))
    exported = site.pages.get(resolved.as_posix())
    if exported is not None:
        return _doc_link(exported, anchor)
    fragment = f"#{anchor}" if anchor else ""
    if resolved.suffix in {".md", ".py", ".ipynb"}:
        return site.published_url(resolved) + fragment
    return site.site_url + resolved.as_posix() + fragment


def _doc_link(page: ExportedPage, anchor: str) -> str:
    """/Doc/Page#markdig-id for a heading; a claim's anchor (no heading) links the page."""
    mapped = page.anchors.get(anchor)
    return page.doc_path + (f"#{mapped}" if mapped else "")


def _blocks_for_markdig(lines: list[str]) -> list[str]:
    """Admonitions (`!!! warning "Title"`, `??? note`) become block quotes with a bold title, as the
    framework's own pages write callouts; content tabs (`=== "Tab"`) become a bold label above their content."""
    containers = read_lines(lines, Path()).containers
    # A container inside another is rewritten with its body.
    inner = {number for container in containers for number in range(container.line, container.end)}
    outermost = {container.line - 1: container for container in containers if container.line - 1 not in inner}
    out: list[str] = []
    number = 0
    while number < len(lines):
        container = outermost.get(number)
        if container is None:
            out.append(lines[number])
            number += 1
            continue
        body = _blocks_for_markdig(_body(lines, container))
        indent = container.indent
        if container.kind == "admonition":
            title = container.title if container.title is not None else container.type.capitalize()
            quoted = [f"**{title}**"] if title else []
            quoted += [""] + body if body else []
            out += [f"{indent}> {text}".rstrip() for text in quoted]
        else:
            out += [f"{indent}**{container.title}**", ""] + [f"{indent}{text}" if text.strip() else "" for text in body]
        out.append("")
        number = container.end
        while number < len(lines) and not lines[number].strip():
            number += 1  # the blank lines after it: the "" above stands for them
    return out


def _body(lines: list[str], container: Container) -> list[str]:
    """A container's body, dedented past its header, without blank lines around it."""
    cut = len(container.indent) + 4
    body = [line[cut:] if line.strip() else "" for line in lines[container.line:container.end]]
    while body and not body[0].strip():
        body.pop(0)
    return body


def _squeeze_blank_lines(lines: list[str]) -> list[str]:
    """Runs of blank lines outside fenced blocks become one; a code block keeps its own."""
    out: list[str] = []
    for line, fenced in fenced_lines(lines):
        if not fenced and not line.strip() and out and not out[-1].strip():
            continue
        out.append(line)
    return out


CHECKED_BY_LINES = tuple(f"*{words}" for words in CHECKED_BY.values())


def _abstract(text: str) -> str:
    """The first paragraph of prose, as plain text, cut at a sentence end near ABSTRACT_LIMIT characters."""
    lines = text.splitlines()
    first = next((block for block in read_lines(lines, Path()).blocks if block.kind == "paragraph" and block.depth == 0), None)
    paragraph = lines[first.start:first.end] if first else []
    prose = itertools.takewhile(lambda line: not line.strip().startswith(CHECKED_BY_LINES), paragraph)
    plain = heading_text(" ".join(line.strip().rstrip("\\") for line in prose))
    if len(plain) <= ABSTRACT_LIMIT:
        return plain
    cut = plain.rfind(". ", 0, ABSTRACT_LIMIT)
    return plain[: cut + 1] if cut > 0 else plain[:ABSTRACT_LIMIT].rsplit(" ", 1)[0] + " …"


def _one_sentence(text: str) -> str:
    """The first sentence, ending in a full stop: a paragraph that leads into a list ends in ':'."""
    first = SENTENCE_END.split(text.strip(), maxsplit=1)[0].strip()
    if first.endswith((":", ";", ",")):
        first = first[:-1]
    return first if first.endswith((".", "!", "?")) else first.rstrip(" …") + "."


def _authors(root: Path, source: PurePosixPath) -> list[str]:
    """Who wrote the page, from git; outside a clone, the guide's name stands in."""
    try:
        log = subprocess.run(
            ["git", "log", "--format=%an", "--", f"docs/{source}"], cwd=root,
            capture_output=True, text=True, timeout=30,
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        log = []
    authors = list(dict.fromkeys(name.strip() for name in log if name.strip()))
    return authors or ["Agent design guide"]


class _Quoted(str):
    """A string the front matter writes double-quoted, as the framework's pages do."""


class _FrontMatter(yaml.SafeDumper):
    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)  # a list's items indented under their key


_FrontMatter.add_representer(_Quoted, lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"'))


def _front_matter(meta: dict) -> str:
    """YAML in the framework's style: NodeType a bare word, every other string double-quoted, lists as items."""
    styled = {key: value if key == "NodeType" else [_Quoted(item) for item in value] if isinstance(value, list)
              else _Quoted(value) for key, value in meta.items()}
    return yaml.dump(styled, Dumper=_FrontMatter, sort_keys=False, allow_unicode=True, width=math.inf,
                     explicit_start=True) + "---\n"


# --- the site and the command ---------------------------------------------------------------------------


def read_site(root: Path = REPO_ROOT, exported: Iterable[str] = EXPORTED_PAGES) -> Site:
    config = siteconfig.load(root / "mkdocs.yml")
    site_url = (config.get("site_url") or "").removesuffix("/") + "/"
    sections: dict[str, list[str]] = {}

    def walk(entries, above: list[str]) -> None:
        for entry in entries or []:
            title, target = next(iter(entry.items())) if isinstance(entry, dict) else (None, entry)
            if isinstance(target, list):
                walk(target, above + [title] if title else above)
            elif isinstance(target, str):
                sections[target] = above

    walk(config.get("nav"), [])
    pages = {source: ExportedPage(PurePosixPath(source), DOC_ROOT + source.removesuffix(".md"),
                                  heading_anchors((root / "docs" / source).read_text(encoding="utf-8").splitlines()))
             for source in exported}
    return Site(root, site_url, sections, pages)


def export(out: Path, root: Path = REPO_ROOT) -> list[Path]:
    """Write every exported page under `out` at its path in the framework's Data/ folder; returns the files."""
    site = read_site(root)
    written = []
    for page in site.pages.values():
        try:
            text = export_page(site, page)
        except ExportError as error:
            raise ExportError(f"docs/{page.source}: {error}") from None
        target = out / page.source
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dev.py export", description="Export the guide's pages for another documentation system.")
    parser.add_argument("--meshweaver", metavar="OUT", type=Path, required=True,
                        help="write the pages in MeshWeaver's documentation format (src/MeshWeaver.Documentation/Data/) under OUT")
    arguments = parser.parse_args(argv)
    try:
        written = export(arguments.meshweaver.resolve())
    except (ExportError, OSError) as error:
        print(f"export: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
