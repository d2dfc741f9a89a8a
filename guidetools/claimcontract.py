"""The static contract of a checked claim's words: what it states is tied to code.

- Every number inside a checked claim (framework, model, extension) is produced or compared by code:
  the claim's check compares it (the number is a literal of the check's source, of the output the
  check compares: its pycon block, or the `#>` lines of its snippet), or the check reads the numbers
  its claim states from the page (`claimcheck.stated.numbers("claim.id")`), so a changed number fails.
- Every code span in a claim that names a tool, plugin, parameter, field or message names something
  agentkit knows: its tool registry (Tool.name, Tool.plugin, Parameter.name), the identifiers and
  strings of its source (field names of its JSON outputs), or the code the pages show (snippets);
  a framework claim may also name what a fact it cites names (framework/citations.toml).

Each finding reads `page:line claim-id: ...` and says what to do.
"""

from __future__ import annotations

import ast
import difflib
import functools
import re
from pathlib import Path
from types import MappingProxyType

from claimcheck import numbers
from guidetools import facts
from guidetools.claimlock import check_source
from guidetools.claims import Claims
from claimcheck.inline import read_inline
from claimcheck.outputs import SHOWN_LINE
from claimcheck.page import Marker
from claimcheck.problems import Problem
from guidetools.project import Project

# A check that reads its claim's numbers from the page compares all of them.
READS_STATED = re.compile(r"\bstated\.numbers\(|\bstated_numbers\(")
IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
# `name(a, b?, limit=50)`: a tool or function and its parameters.
CALL = re.compile(r"^(?P<name>[A-Za-z_][\w.]*)\((?P<args>[^()]*)\)$")
# `{a, b, c?}`: the fields of a JSON object.
FIELDS = re.compile(r"^\{(?P<fields>[^{}]*,[^{}]*)\}$")
FIELD_NAME = re.compile(r"\$?[A-Za-z_][A-Za-z0-9_]*")
# `{path}`, `…` and an optional plural such as `replacement[s]` stand for text the message varies.
PLACEHOLDER = re.compile(r"\{[^{}]*\}|…|\.\.\.|\[s\]")
# "no", "not", "never" or "nor" right before a code span: the claim says that name does not exist.
NEGATION = re.compile(r"\b(?:no|not|never|nor)\s+$", re.I)
# Words a code span may hold that are Markdown or JSON, not names: literals and language names.
NOT_NAMES = {"null", "true", "false", "None", "True", "False", "python", "pycon", "json"}


def number_problems(project: Project, claims: Claims) -> list[Problem]:
    problems = []
    cache: dict = {}
    for marker in _checked(claims):
        sources = [_check_text(project, site, cache) for site in claims.checks.get(marker.id, [])]
        if any(READS_STATED.search(source) for source in sources):
            continue
        compared = set().union(*(numbers.values_in_code(source) for source in sources)) if sources else set()
        for number in numbers.stated(marker.text):
            if number.value not in compared:
                problems.append(Problem(marker.page, marker.line, f"{marker.id}: '{number.text}' is not produced or compared by any check; compare it in the claim's check (or read it with claimcheck.stated.numbers({marker.id!r})), or render it from code", marker.id))
    return problems


def _checked(claims: Claims) -> list[Marker]:
    seen: set[str] = set()
    markers = []
    for marker in claims.markers:
        if marker.checked and marker.id not in seen:
            seen.add(marker.id)
            markers.append(marker)
    return markers


def _check_text(project: Project, site, cache: dict) -> str:
    """The check's source, plus the output it compares: the `#>` lines of a snippet that holds it."""
    text = check_source(project, site, cache)
    if site.file.parts[0] == "snippets":
        key = ("shown", site.file)
        if key not in cache:
            lines = (project.root / site.file).read_text(encoding="utf-8").splitlines()
            cache[key] = "\n".join(line for line in lines if SHOWN_LINE.match(line))
        text += "\n" + cache[key]
    return text


# --- names -------------------------------------------------------------------------------------------------


def name_problems(project: Project, claims: Claims, known: "KnownNames | None" = None) -> list[Problem]:
    known = known or known_names(project.root)
    cited = facts.load(project.root).facts
    problems = []
    for marker in _checked(claims):
        # A framework claim may name what the framework has and agentkit does not model, when a fact it cites names it.
        fact_texts = [
            text for fact_id in marker.cites if fact_id in cited
            for text in (cited[fact_id].text, *(citation.evidence for citation in cited[fact_id].citations))
        ]
        in_facts = {name for text in fact_texts for name in IDENTIFIER.findall(text)}
        code = read_inline(marker.text).code
        spans = [span.text for span in code]
        # A path the claim shows names its own example folders (`Sub` in `Node/content/Sub/file.ext`).
        # Its `{placeholders}` are names all the same: they are checked like any other.
        example = {name for span in spans if "/" in span for name in IDENTIFIER.findall(re.sub(r"\{[^{}]*\}", " ", span))}
        # "There is no `ContentChunks` plugin": a name the claim says does not exist.
        absent = {span.text for span in code if NEGATION.search(marker.text, 0, span.start)}
        for span in spans:
            # ... unless it is another casing of a name agentkit knows: "not `Order`" for `order` is a typo.
            if span in absent and _folded(span) not in known.folded:
                continue
            # A path template's `{placeholder}` follows the framework's casing (`{threadPath}` for thread_path).
            template = "/" in span and not CALL.match(span.strip())
            for name in names_in_span(span):
                # A cited fact vouches for a name agentkit does not model at all, not for another casing of
                # one it does: `DocumentPath` in C# evidence is `documentPath` in the JSON an agent reads.
                vouched = name in in_facts and _folded(name) not in known.folded
                if not known.has(name) and name not in example and not vouched and not (template and _folded(name) in known.folded):
                    hint = known.closest(name)
                    problems.append(Problem(marker.page, marker.line, f"{marker.id}: `{span}` names '{name}', which is no tool, plugin, parameter or field agentkit knows" + (f" (did you mean '{hint}'?)" if hint else ""), marker.id))
            for fragment in message_fragments(span):
                bare = fragment.strip(" .,:;'\"")
                if not (known.has_text(fragment) or known.has_text(bare) or any(bare in text for text in fact_texts)):
                    problems.append(Problem(marker.page, marker.line, f"{marker.id}: `{span}` quotes a message, but agentkit writes no text '{fragment}'", marker.id))
    return problems


def names_in_span(span: str) -> list[str]:
    """The names a code span states: a bare identifier, a call's name and parameters, an object's fields."""
    text = span.strip().strip('"').strip("'")
    call = CALL.match(text)
    if call:
        names = [call["name"].split(".")[-1]]
        for argument in call["args"].split(","):
            argument = argument.strip().split("=")[0].rstrip("?").strip()
            if IDENTIFIER.fullmatch(argument):
                names.append(argument)
        return [name for name in names if name not in NOT_NAMES]
    shape = FIELDS.match(text)
    if shape:
        return [field.strip().rstrip("?") for field in shape["fields"].split(",") if IDENTIFIER.fullmatch(field.strip().rstrip("?"))]
    # One letter is an example (`U`, column `A`), not a name anyone looks up.
    if IDENTIFIER.fullmatch(text) and text not in NOT_NAMES and len(text) > 1:
        return [text]
    # `"Mesh:Get,Search"`: a plugin entry, each part a name.
    if re.fullmatch(r"[A-Za-z_]\w*:[A-Za-z_]\w*(,[A-Za-z_]\w*)*", text):
        return re.split(r"[:,]", text)
    # A path template names its placeholders: `{collectionPath}/{filePath}`.
    if "/" in text:
        return [name for name in re.findall(r"\{([A-Za-z_]\w*)\}", text)]
    return []


def message_fragments(span: str) -> list[str]:
    """The fixed text of a quoted message (`Node '{path}' not found`): what must stand in agentkit's strings."""
    text = span.strip()
    # A JSON value is a shape, not a message: its names are read by names_in_span.
    if text.startswith(("{", "[")) or " " not in text or CALL.match(text) or FIELDS.match(text) or "/" in text.split(" ")[0]:
        return []
    if not (PLACEHOLDER.search(text) or re.match(r"^[A-Z][a-z]+( \w+)*[:!.]", text)):
        return []
    return [fragment.strip() for fragment in PLACEHOLDER.split(text) if len(fragment.strip()) >= 4]


def _folded(name: str) -> str:
    return name.lower().replace("_", "")


class KnownNames:
    """`names`: every identifier and one-word string agentkit and the snippets use, the registry's
    tool, plugin and parameter names among them; `strict`: the registry's names and agentkit's field
    names (the string keys of its dicts), what `dev.py mutate` misspells. Frozen: `known_names` hands the
    same one to every caller."""

    def __init__(self, names: set[str], texts: list[str], strict: set[str] = frozenset()) -> None:
        self.strict = frozenset(strict)
        self.names = frozenset(names) | self.strict
        folded: dict[str, set[str]] = {}
        for name in self.names:
            folded.setdefault(_folded(name), set()).add(name)
        self.folded = MappingProxyType({key: frozenset(same) for key, same in folded.items()})
        self.text = "\n".join(texts)

    def has(self, name: str) -> bool:
        return name in self.names

    def has_text(self, fragment: str) -> bool:
        return fragment in self.text

    def closest(self, name: str) -> str | None:
        """The known names spelt like `name` but for case and underscores, else the nearest one."""
        same = sorted(self.folded.get(_folded(name), ()))
        if same:
            return "' or '".join(same)
        close = difflib.get_close_matches(name, self.names, n=1, cutoff=0.8)
        return close[0] if close else None


@functools.cache
def known_names(root: Path) -> KnownNames:
    """The names agentkit knows: its registry, its source's identifiers and strings, and the pages' snippets."""
    strict: set[str] = set(_registry_names())
    names: set[str] = set()
    texts: list[str] = []
    project = Project(root)
    library = [root / path for path in project.library_paths]
    for path in library + [root / path for path in project.snippet_paths]:
        source = path.read_text(encoding="utf-8")
        tree = _parsed(source)
        if path in library:
            tree = tree or ast.parse(source)  # a library file that does not parse raises, as ever
        found, strings, fields = _source_names(tree)
        names |= found
        texts += strings
        if path in library:
            strict |= fields
        # Shown output is what the code printed: a message quoted from it is agentkit's own.
        texts += [match["text"] or "" for match in map(SHOWN_LINE.match, source.splitlines()) if match]
    for path in (root / path for path in project.captured_output_paths):
        texts.append(path.read_text(encoding="utf-8"))
    for text in texts:
        names |= set(IDENTIFIER.findall(text)) if len(text) < 60 else set()
    return KnownNames(names, texts, strict)


def _registry_names() -> set[str]:
    """Tool names, plugin names and parameter names of every tool list agentkit builds."""
    try:
        import agentkit
        from agentkit import _plugins
    except Exception:  # a broken library is reported by its own tests
        return set()
    names: set[str] = set()
    builders = [getattr(_plugins, name) for name in dir(_plugins) if name.endswith(("_plugin", "_tools")) and not name.startswith("_")]
    for build in builders:
        for options in ({}, {"bulk_create": True}):
            try:
                tools = build(agentkit.Mesh(), **options)
            except Exception:
                continue
            for tool in tools:
                names |= {tool.name, tool.plugin} | {parameter.name for parameter in getattr(tool, "parameters", ())}
    return names


def _parsed(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


def _source_names(tree: ast.Module | None) -> tuple[set[str], list[str], set[str]]:
    """A source's identifiers, its string constants, and the keys it writes and reads in its JSON (string keys
    of dict literals and of subscripts), in one walk: the walk is most of the contract's time."""
    if tree is None:  # a source that does not parse names nothing
        return set(), [], set()
    names: set[str] = set()
    strings: list[str] = []
    keys: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.keyword) and node.arg:
            names.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.append(node.value)
            continue
        if isinstance(node, (ast.Dict, ast.Subscript)):
            candidates = node.keys if isinstance(node, ast.Dict) else [node.slice]
            keys |= {key.value for key in candidates
                     if isinstance(key, ast.Constant) and isinstance(key.value, str) and FIELD_NAME.fullmatch(key.value)}
    return names, strings, keys
