"""Hostile input never crashes agentkit, never half-writes, and never takes super-linear time: Hypothesis over every
tool with hostile arguments, random call sequences against a model of the nodes, and input size n against 10n. One
call's invariant: the answer is text, a read-only tool or a refusal leaves the mesh as it was, and every node and file
stays reachable by Get."""

from __future__ import annotations

import base64
import functools
import io
import json
import math
import re
import time
import timeit
import unicodedata
from typing import Any, Callable

import pytest
from hypothesis import example, given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, consumes, invariant, rule

import agentkit
from agentkit import get_text
from agentkit._chunks import split_chunks
from agentkit._json import repair_json
from agentkit._paths import UnifiedPath, resolve_tool_path
from agentkit._plugins import NULL_RAISES
from agentkit._transformers import Box, IndexText, Span
from tests import hypothesis_profiles  # noqa: F401  (registers and loads the profiles when conftest did not)
from tests.mesh_state import COMPANY, KNOWN_PATHS, NAMED_COLLECTION, NOTE, file_text, mcp, snapshot, workspace

# -- the registry -----------------------------------------------------------------------------------

# What a write tool's answer opens with (on some line) when it wrote something; anything else is a refusal.
SUCCESS_OPENINGS = {  # by the tool's snake-case name, the agent's and the MCP tool's alike
    "create": ("Created: ",), "bulk_create": ("Created: ",), "update": ("Updated: ",), "patch": ("Patched: ",),
    "edit_content": ("Edited: ",), "delete": ("Deleted: ",), "move": ("Moved: ",), "copy": ("Copied ",),
    "recycle": ('{"status":"Recycled"',), "upload_content": ("Uploaded `",), "upload": ('{"status":"Uploaded"',),
}


def registry(mesh: agentkit.Mesh) -> list[agentkit.Tool]:  # the agent plugins (BulkCreate on) and the MCP tools
    return [*agentkit.mesh_plugin(mesh, context=COMPANY, bulk_create=True),
            *agentkit.content_collection_plugin(mesh, context=COMPANY), *agentkit.mcp_tools(mesh)]


def tool_label(tool: agentkit.Tool) -> str:
    return f"{tool.plugin}.{tool.name}"


def is_refusal(tool: agentkit.Tool, answer: str) -> bool:
    openings = SUCCESS_OPENINGS.get(agentkit.snake_case(tool.name))
    return openings is not None and not any(line.startswith(openings) for line in answer.splitlines())


UNEXPECTED_FAILURE_TEXTS = {"Error: Function failed.", *(f"An error occurred invoking '{tool.name}'."
                                                          for tool in agentkit.mcp_tools(agentkit.Mesh()))}


def null_raises(tool: agentkit.Tool, arguments: Any) -> bool:
    """A JSON null the framework's call raises on: Create/Update/Delete's text, and on MCP a number or a flag (MP3, MP4)."""
    if not isinstance(arguments, dict):
        return False
    mcp = tool.plugin == agentkit.MCP_SERVER
    if agentkit.snake_case(tool.name) == "search" and "query" in arguments and arguments["query"] is None \
            and isinstance(arguments.get("basePath"), str) and resolve_tool_path(arguments["basePath"]):
        return True  # MeshOperations.Search calls query.Replace under a basePath
    return any(arguments.get(p.name, "") is None and (p.name in NULL_RAISES or (mcp and p.type in ("integer", "boolean")))
               for p in tool.parameters)


def does_not_bind(tool: agentkit.Tool, arguments: Any) -> bool:
    """The agent binder (AIFunctionFactory) throws before an agent tool runs (FI1): a required argument missing,
    or a value of another JSON type than its parameter's (a JSON number may come as a numeric string)."""
    if tool.plugin == agentkit.MCP_SERVER or not isinstance(arguments, dict):
        return False
    return any(arguments[p.name] is not None and not binds(p.type, arguments[p.name]) if p.name in arguments
               else p.required for p in tool.parameters)


def binds(kind: str, value: Any) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, float) and value.is_integer()) \
        or (isinstance(value, str) and re.fullmatch(r"\s*[+-]?[0-9]+\s*", value) is not None)


TOOL_LABELS = [tool_label(tool) for tool in registry(workspace())]


# -- hostile values ---------------------------------------------------------------------------------

def nested(depth: int, shape: str) -> Any:  # as Python data or as JSON text
    if shape == "json-array":
        return "[" * depth + "]" * depth
    if shape == "json-object":
        return '{"a":' * depth + "1" + "}" * depth
    value: Any = 1
    for _ in range(depth):
        value = [value] if shape == "list" else {"a": value}
    return value


RESERVED_WORDS = ("data", "schema", "model", "area", "menu", "content", "layoutAreas", "_Documents", "*")
DOT_SEGMENTS = (".", "..", "%2e%2e", "%2E%2e", "%2e", ".%2e", "%252e%252e", "...", "..%2f..", "%2f", "%5c")
UNICODE_NAMES = ("café", unicodedata.normalize("NFD", "café"), "Ångström", unicodedata.normalize("NFD", "Ångström"),
                 "Ǆ", "ﬁle", "\u200bzero", "emoji\U0001F600", "\ufeffbom", "rtl\u202e")
ODD_SEGMENTS = ("%", "%25", "%zz", "%c3", "100%", "a'b", 'a"b', "@x", "@@x", " ", "\t", "\x00", "a\nb", "x" * 300)
ODD_NAMES = RESERVED_WORDS + DOT_SEGMENTS + UNICODE_NAMES + ODD_SEGMENTS
KNOWN_SEGMENTS = (COMPANY, "rev", "content", NAMED_COLLECTION, "Sub", "ledger.csv", NOTE, "Annual-Note-2024.md", "new")

# Numbers past the int-string limit (4,300 digits) are built by map: their repr() itself would fail.
huge_numbers = st.sampled_from([10**20, -10**20, 2**63, -(2**63) - 1, 2**31, -1, 0]) | st.sampled_from([400, 5000]).map(lambda digits: -(10**digits))
odd_floats = st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e308, 5e-324, 1.5, -2.5])
digit_strings = st.integers(1, 6000).map(lambda n: "9" * n) | st.sampled_from(["-1", "1e3", "0x10", " 3 ", "٣", "³"])
deep = st.builds(nested, st.sampled_from([10, 200, 1200, 5000, 50_000]),
                 st.sampled_from(["list", "dict", "json-array", "json-object"]))
long_strings = st.sampled_from([1_000, 100_000]).map(lambda n: "a" * n) | st.text(min_size=100, max_size=400)
short_text = st.text(max_size=30)
base64_text = st.binary(max_size=200).map(lambda b: base64.b64encode(b).decode())

scalars = st.none() | st.booleans() | st.integers() | huge_numbers | odd_floats | short_text | digit_strings
hostile = st.one_of(
    scalars, deep, long_strings,
    st.lists(scalars, max_size=4), st.dictionaries(short_text, scalars, max_size=4),
    st.sampled_from(ODD_NAMES),
)

segment = st.sampled_from(KNOWN_SEGMENTS) | st.sampled_from(ODD_NAMES) | st.text(min_size=1, max_size=12)
path_text = st.one_of(
    st.sampled_from(KNOWN_PATHS),
    st.tuples(st.sampled_from(["", "/", "@", "@@", " ", "'", '"']),
              st.lists(segment, min_size=1, max_size=7),
              st.sampled_from(["", "/", "/*", " ", "'"])).map(lambda t: t[0] + "/".join(t[1]) + t[2]),
    st.sampled_from(KNOWN_PATHS).flatmap(lambda p: st.sampled_from(DOT_SEGMENTS + RESERVED_WORDS).map(lambda s: f"{p}/{s}")),
    st.integers(10, 3000).map(lambda n: "/".join([COMPANY] + ["x"] * n)),
)
path_value = path_text | hostile

content_value = st.one_of(
    st.fixed_dictionaries({"$type": st.sampled_from(["Fact", "Document", "Unknown", "fact"]) | hostile},
                          optional={"item": short_text | hostile, "value": st.floats() | huge_numbers | hostile,
                                    "period": hostile, "extra": hostile, "summary": hostile}),
    st.dictionaries(short_text, hostile, max_size=3), hostile,
)
node_ids = st.one_of(
    st.sampled_from(["n1", "n2", f"{COMPANY}/n3", f"{COMPANY}/rev", COMPANY, "./n", "../n", "a/./b", "a/../b",
                     "%2e%2e/n", "n/%2e", "data", "content", f"{COMPANY}/content", f"{COMPANY}/{NAMED_COLLECTION}",
                     f"{COMPANY}/content/{NOTE}", f"{COMPANY}/content/_Documents/Annual-Note-2024.md",
                     f"{COMPANY}/content/_Documents/new", "café", unicodedata.normalize("NFD", "café")]),
    path_text,
)
namespaces = st.sampled_from(["", COMPANY, f"{COMPANY}/content", f"{COMPANY}/content/_Documents", f"{COMPANY}/.",
                              f"{COMPANY}/..", f"{COMPANY}/%2e%2e", "/", f"{COMPANY}//x", f"{COMPANY}/data"]) | path_text
valid_content = st.fixed_dictionaries({"$type": st.just("Fact")}, optional={"item": short_text, "value": st.floats(allow_nan=False, allow_infinity=False)})


@st.composite
def node_value(draw: st.DrawFn) -> dict[str, Any]:
    node: dict[str, Any] = {"id": draw(node_ids), "name": draw(st.sampled_from(["A name", "Revenue", "Ωmega"])),
                            "nodeType": draw(st.sampled_from(["Fact", "Company", "Markdown", "Document"])),
                            "content": draw(valid_content)}
    if draw(st.booleans()):
        node["namespace"] = draw(namespaces)
    for key in draw(st.lists(st.sampled_from(["id", "namespace", "name", "nodeType", "content", "order", "icon",
                                                "category", "description", "$type"]), max_size=3, unique=True)):
        choice = draw(st.sampled_from(["hostile", "remove", "content"]))
        if choice == "remove":
            node.pop(key, None)
        else:
            node[key] = draw(content_value if choice == "content" else hostile)
    return node


def as_json_text(value: Any) -> Any:  # the value itself when JSON cannot carry it (too deep, too many digits)
    try:
        return json.dumps(value)
    except (ValueError, TypeError, RecursionError):
        return value


def as_json_text_sometimes(strategy: st.SearchStrategy) -> st.SearchStrategy:
    return strategy | strategy.map(as_json_text) | st.text(max_size=40).map(lambda t: "{" + t) | st.sampled_from(["", "null", "[]", "{}", "[", "}{"])


fields_value = st.dictionaries(
    st.sampled_from(["name", "description", "icon", "category", "order", "content", "preRenderedHtml", "mainNode",
                     "id", "nodeType", "$type", "value"]) | short_text,
    content_value | hostile, max_size=4,
)

VALUES_BY_PARAMETER: dict[str, st.SearchStrategy] = {
    "node": as_json_text_sometimes(node_value()),
    "nodes": as_json_text_sometimes(st.lists(node_value() | hostile, max_size=3)),
    "fields": as_json_text_sometimes(fields_value),
    "paths": as_json_text_sometimes(st.lists(path_value, max_size=3)) | path_value,
    "query": st.one_of(short_text, st.sampled_from(["revenue", "Revenue 4,812.3", "*", "nodeType:Fact", "name:Rev",
                                                    f"namespace:{COMPANY}/content revenue", "scope:exact revenue"]),
                       long_strings, st.integers(1, 20_000).map(lambda n: "revenue " * n), hostile),
    "limit": st.integers(-5, 300) | huge_numbers | odd_floats | digit_strings | hostile,
    "chunkindex": st.integers(-3, 10) | huge_numbers | odd_floats | digit_strings | hostile,
    "base64content": base64_text | hostile, "content": base64_text | short_text | hostile,
    "oldtext": short_text | long_strings | hostile, "newtext": short_text | long_strings | hostile,
    "replaceall": st.booleans() | hostile, "force": st.booleans() | hostile,
    "collectionname": st.sampled_from(["content", NAMED_COLLECTION, "missing"]) | segment | hostile,
}


def value_for(parameter: str) -> st.SearchStrategy:
    key = parameter.lower()
    if key in VALUES_BY_PARAMETER:
        return VALUES_BY_PARAMETER[key]
    if "path" in key or "namespace" in key or key in ("scope", "source", "target"):
        return path_value
    return hostile


@st.composite
def tool_arguments(draw: st.DrawFn, tool: agentkit.Tool) -> Any:
    shape = draw(st.sampled_from(["named"] * 8 + ["extra", "not-a-dict"]))
    if shape == "not-a-dict":
        return draw(hostile)
    arguments = {}
    for name in (parameter.name for parameter in tool.parameters):
        if draw(st.integers(0, 9)) > 0:
            arguments[name] = draw(value_for(name))
    if shape == "extra":
        arguments[draw(short_text | st.sampled_from(["path", "Path", "node", "limit"]))] = draw(hostile)
    return arguments


# -- the invariant --------------------------------------------------------------------------------

def call_checked(mesh: agentkit.Mesh, tool: agentkit.Tool, arguments: Any, before: str | None = None) -> tuple[str, str]:
    """The one-call invariant; returns the answer and the mesh's snapshot after it."""
    before = snapshot(mesh) if before is None else before
    answer = tool.call(arguments)
    note(f"{tool_label(tool)} answered {answer[:300]!r}")
    assert isinstance(answer, str), f"{tool_label(tool)} answered {type(answer).__name__}, not text"
    # The invocation layers' fixed texts stand for an exception agentkit did not expect, unless the framework raises too.
    assert answer not in UNEXPECTED_FAILURE_TEXTS or null_raises(tool, arguments) or does_not_bind(tool, arguments), \
        f"{tool_label(tool)} failed unexpectedly: {answer!r}"
    after = snapshot(mesh)
    if tool.read_only:
        assert after == before, f"read-only {tool_label(tool)} changed the mesh"
    elif is_refusal(tool, answer):
        assert after == before, f"{tool_label(tool)} refused ({answer[:200]!r}) but changed the mesh"
    if after != before:  # only a write can leave something unreachable
        get = mcp(mesh)["get"]
        assert_every_node_reachable(mesh, get)
        assert_every_file_reachable(mesh, get)
    return answer, after


def unreachable_by_design(path: str) -> bool:
    """Create and upload keep a name as sent, but Get strips blanks, quotes and a leading '@' (N4) and reads
    'X/*' as X's children (N6)."""
    return agentkit.resolve_tool_path(path) != path or path.endswith("/*")


def assert_every_node_reachable(mesh: agentkit.Mesh, get: agentkit.Tool) -> None:
    """Get on each node's path returns that node, or what the unified read finds there first: a file or listing
    below ``content/``, or (UP1) another reserved word's, area route's or ``word:`` form's read, not modelled."""
    for node in mesh.nodes():
        if unreachable_by_design(node.path):
            continue
        answer = get.call({"path": node.path})
        try:
            shown = json.loads(answer)
        except ValueError:
            shown = answer
        if isinstance(shown, dict) and shown.get("path") == node.path:
            assert shown.get("name") == node.name
            continue
        unified = agentkit.parse_path(node.path)
        if unified.kind in ("unified", "area"):
            continue  # read at its reserved word or area route first (UP1), which agentkit does not model
        assert unified.kind == "content" and not answer.startswith(("Error", "Not found")), \
            f"node {node.path!r} is stored but Get on its path answers {answer[:200]!r}"


def read_in_colon_form_elsewhere(parsed: UnifiedPath, address: str, collection: str, file_path: str) -> bool:
    """A Get path with a ':' (in the file's name, a folder's or the collection's) is read in the old colon form
    (UP1: unified-path.colon-name-unreadable), which here names another address, collection or file."""
    return ":" in parsed.text and (parsed.kind, parsed.address, parsed.prefix, parsed.rest) != (
        "content", address, collection, file_path)


def assert_every_file_reachable(mesh: agentkit.Mesh, get: agentkit.Tool) -> None:
    """Get on a stored file's Get path (C1) answers what the collection reads from it, or an error when it cannot
    read it. 'content's file or folder 'coll/f' shadows collection 'coll's 'f' (C1 reads 'content' first); an
    'area' segment is the layout-area route, tried before the content read (MeshOperations.TryParseAreaRoute)."""
    for collection_path, collection in mesh.collections.items():
        address, _, name = collection_path.rpartition("/")
        for entry in collection.listing():
            path = agentkit.get_path_of_file(collection_path, entry["filePath"])
            if unreachable_by_design(path):
                continue
            parsed = agentkit.parse_path(path)
            if parsed.kind == "area" or read_in_colon_form_elsewhere(parsed, address, name, entry["filePath"]):
                continue
            default = mesh.collections.get(f"{address}/content")
            shadow = f"{name}/{entry['filePath']}"
            if name != "content" and default is not None and (default.has_file(shadow) or default.has_folder(shadow)):
                continue  # C1 reads `content` first: the path names that collection's file or folder
            answer = file_text(get.call({"path": path}))
            try:
                expected = collection.read_text(entry["filePath"])
            except agentkit.AgentkitError:
                assert answer.startswith("Error: "), f"{path!r} cannot be read, yet Get answers {answer[:200]!r}"
                continue
            assert answer == expected, \
                f"file {entry['filePath']!r} of {collection_path!r} is stored but Get {path!r} answers {answer[:200]!r}"


@pytest.mark.parametrize("label", TOOL_LABELS)
def test_every_tool_answers_text_and_a_refusal_changes_nothing(label):
    # A workspace that a call left exactly as it was serves the test's next example too (its snapshot proves it).
    unchanged: list[tuple[agentkit.Mesh, str]] = []

    @given(data=st.data())
    def property_of_tool(data):
        mesh, clean = unchanged.pop() if unchanged else (workspace(), None)
        clean = clean or snapshot(mesh)
        tool = next(tool for tool in registry(mesh) if tool_label(tool) == label)
        _, after = call_checked(mesh, tool, data.draw(tool_arguments(tool), label="arguments"), clean)
        if after == clean:
            unchanged.append((mesh, clean))

    property_of_tool()


FILE_NAMES = st.one_of(
    st.text(min_size=1, max_size=30),
    st.sampled_from(ODD_NAMES),
    st.lists(st.sampled_from(DOT_SEGMENTS + RESERVED_WORDS + UNICODE_NAMES + ("Sub", "a", "%25", "100%")),
             min_size=2, max_size=4).map("/".join),
)
EXTENSIONS = st.sampled_from([".md", ".pdf", ".docx", ".xlsx", ".xls", ".png", ".csv", "", ".MD"])
COLLECTION_NAMES = st.one_of(st.sampled_from(ODD_NAMES),
                             st.sampled_from(["content", NAMED_COLLECTION, "Data", "CONTENT", "a b", "x.y"]),
                             st.text(min_size=1, max_size=12))


@settings(settings.default, max_examples=2 * settings.default.max_examples)  # the budget of the two tests it joins
@given(collection=COLLECTION_NAMES, name=FILE_NAMES, extension=EXTENSIONS, body=st.binary(max_size=300),
       canonical=st.booleans())
@example(collection="content", name="a:b", extension=".md", body=b"x", canonical=False)  # ':'s the seed did not draw
@example(collection="content", name="Content:x", extension=".md", body=b"x", canonical=False)
@example(collection="content", name="d:x/f", extension=".md", body=b"x", canonical=False)
def test_an_uploaded_file_is_readable_at_its_get_path_or_refused_cleanly(collection, name, extension, body, canonical):
    """add_collection refuses the collection's name with an agentkit error, or MCP upload (canonical paths on or off)
    refuses the file leaving the mesh unchanged, or stores it where Get reads it back (C1; '%' is decoded once)."""
    mesh = workspace()
    mesh.canonical_paths = canonical  # the agentkit extension that decodes and NFC-composes content keys
    if f"{COMPANY}/{collection}" not in mesh.collections:
        try:
            mesh.add_collection(COMPANY, collection)
        except agentkit.AgentkitError:
            return
    upload = mcp(mesh)["upload"]
    answer, _ = call_checked(mesh, upload, {"path": f"{COMPANY}/{collection}/{name}{extension}",
                                            "base64Content": base64.b64encode(body).decode()})
    if not is_refusal(upload, answer):
        stored = json.loads(answer)["path"][len(f"{COMPANY}/{collection}/"):]
        assert mesh.collections[f"{COMPANY}/{collection}"].has_file(stored), answer


# -- random sequences against a model --------------------------------------------------------------

SLUGS = ("n1", "n2", "Fact-1", "a.b", "..", "data")


class ToolSequences(RuleBasedStateMachine):
    """Random Create/Update/Patch/Delete/Move/Copy/Get calls through the MCP tools against a model, the node paths
    with their names (M9: a valid Create at a taken path is refused); every step checks the one-call invariant."""

    created = Bundle("created")

    def __init__(self) -> None:
        super().__init__()
        self.mesh = workspace()
        self.tools = mcp(self.mesh)
        self.model: dict[str, str] = {node.path: node.name for node in self.mesh.nodes()}

    def call(self, method: str, arguments: Any) -> str:
        return call_checked(self.mesh, self.tools[method], arguments)[0]

    @rule(target=created, parent=st.sampled_from([COMPANY, f"{COMPANY}/rev", ""]), slug=st.sampled_from(SLUGS),
          name=st.sampled_from(["Revenue", "EBIT", "Ωmega"]))
    def create(self, parent, slug, name):
        path = f"{parent}/{slug}" if parent else slug
        answer = self.call("create", {"node": json.dumps({"id": path, "name": name, "nodeType": "Fact",
                                                          "content": {"$type": "Fact", "item": slug, "value": 1}})})
        if path in self.model:
            assert not answer.startswith("Created"), f"Create overwrote {path}: {answer}"  # M9
        else:
            assert answer == f"Created: {path}", f"a valid Create of {path} was refused: {answer}"
            self.model[path] = name
        return path

    @rule(path=created, name=st.sampled_from(["Renamed", "Again"]))
    def update(self, path, name):
        answer = self.call("update", {"nodes": json.dumps([{"id": path, "name": name, "nodeType": "Fact",
                                                            "content": {"$type": "Fact", "value": 2}}])})
        if path in self.model:
            assert answer.startswith("Updated: "), answer
            self.model[path] = name

    @rule(path=created, fields=fields_value)
    def patch(self, path, fields):
        answer = self.call("patch", {"path": path, "fields": as_json_text(fields)})
        if answer.startswith("Patched: "):
            assert path in self.model, answer
            self.model[path] = self.mesh.get(path).name  # the store: Get refuses a reserved word such as `data` by design

    @rule(path=consumes(created))
    def delete(self, path):
        answer = self.call("delete", {"paths": json.dumps([path])})
        if path in self.model:
            assert answer.startswith("Deleted: "), answer
            self.model = {p: name for p, name in self.model.items() if p != path and not p.startswith(path + "/")}

    @rule(source=created, destination=st.sampled_from([f"{COMPANY}/moved", "moved", f"{COMPANY}/rev/moved", "n1"]),
          keep=st.booleans())
    def relocate(self, source, destination, keep):
        method, arguments = ("copy", {"sourcePath": source, "targetNamespace": destination}) if keep \
            else ("move", {"sourcePath": source, "targetPath": destination})
        if not is_refusal(self.tools[method], self.call(method, arguments)):
            self.model = {node.path: node.name for node in self.mesh.nodes()}

    @rule(path=st.sampled_from(KNOWN_PATHS) | created)
    def get(self, path):
        self.call("get", {"path": path})

    @rule()
    def refresh_index(self):
        self.mesh.refresh_index()

    @invariant()
    def mesh_holds_exactly_the_model(self):
        assert {node.path: node.name for node in self.mesh.nodes()} == self.model


# Each step checks the whole mesh; a third of the profile's examples keeps the gate's budget.
ToolSequences.TestCase.settings = settings(settings.default, max_examples=max(10, settings.default.max_examples // 3))
test_random_tool_sequences_match_the_model = ToolSequences.TestCase


# -- time grows at most linearly --------------------------------------------------------------------

GENEROUS = 4  # a 10x larger input may take up to 40x the time: noise passes, quadratic growth (100x) fails


def best_time(function: Callable[[], Any], repeats: int = 3) -> float:
    """The least thread CPU time over a few runs (wall time would count the build's and browser's turns); timeit
    turns the collector off while it times, and collects nothing first (the session's heap costs more than a run)."""
    return min(timeit.Timer(function, timer=time.thread_time).repeat(repeats, number=1))


@functools.cache
def grown(kind: str = "nodes", n: int = 0) -> agentkit.Mesh:
    """A workspace with n more nodes or indexed files, built once: best_time's later runs time the call alone, and
    grown() is the workspace the read-only runs share."""
    mesh = workspace()
    for number in range(n):
        if kind == "files":
            mesh.collections[f"{COMPANY}/content"].upload(
                f"bulk/file-{number}.md", f"Revenue line {number} of the ledger. ".encode() * 30, index=True)
        else:
            mesh.create({"id": f"{COMPANY}/n{number}", "name": f"Revenue {number}", "nodeType": "Fact"})
    mesh.refresh_index()
    return mesh


SCALING = {
    # label: (run(n), n); n is small enough that even quadratic growth stays well under a second at 10n.
    "path parsing, n segments": (lambda n: agentkit.parse_path("/".join([COMPANY] * n + ["content", "x.md"])), 500),
    "Get, a path of n segments": (lambda n: mcp(grown())["get"].call({"path": "/".join([COMPANY] + ["x"] * n)}), 500),
    "Create, a namespace of n segments": (lambda n: mcp(workspace())["create"].call({"node": json.dumps(
        {"id": "/".join(["x"] * n + ["leaf"]), "name": "Leaf", "nodeType": "Fact"})}), 300),
    "Search, a query of n words": (lambda n: mcp(grown())["search"].call({"query": "revenue " * n}), 200),
    "search_chunks, a query of n words": (lambda n: mcp(grown())["search_chunks"].call(
        {"query": f"namespace:{COMPANY}/content " + "revenue " * n}), 200),
    "upload, n lines": (lambda n: workspace().collections[f"{COMPANY}/content"].upload(
        f"big-{n}.md", b"Revenue grew again this year.\n" * n, index=True), 300),
    "Get on a workbook of n rows": (lambda n: get_text("w.xlsx", workbook_of(n)), 600),
    # No prefix ending in } or ] parses: the framework tries them all, agentkit decodes the first value once.
    "RepairJson, n values and no parseable prefix": (lambda n: repair_json('{"a": [' + "[1], " * n + "x"), 2000),
    "Search, n indexed nodes": (lambda n: mcp(grown("nodes", n))["search"].call({"query": "revenue", "limit": 200}), 10),
    "search_chunks, n indexed files": (lambda n: mcp(grown("files", n))["search_chunks"].call(
        {"query": f"namespace:{COMPANY}/content revenue ledger", "limit": 200}), 10),
}


@functools.cache
def workbook_of(rows: int) -> bytes:
    # one-cell rows: little work per row, so work per row that grows with the rows shows
    from openpyxl import Workbook

    workbook = Workbook()
    for number in range(rows):
        workbook.active.append([number])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


class CountingSpans(tuple):
    """A PDF's word spans that count how many words the chunker reads (a slice counts every word it copies)."""

    read = 0  # this instance's count once it has counted (an attribute of its own, not the class's)

    def __getitem__(self, key):
        item = super().__getitem__(key)
        self.read += len(item) if isinstance(key, slice) else 1
        return item

    def __iter__(self):
        for position in range(len(self)):
            yield self[position]


def test_chunking_reads_each_word_of_a_pdf_a_bounded_number_of_times(words=20_000):
    """Chunking assigns each chunk the page and box of its words: the work must stay proportional to the
    words (it copied every later word for each chunk, quadratic in the words of a long PDF)."""
    box = Box(0.1, 0.1, 0.02, 0.01)
    spans = CountingSpans(Span(5 * i, 4, 1 + i // 400, box) for i in range(words))
    chunks = split_chunks(IndexText(" ".join(["word"] * words), spans), collection_path="A/content", file_path="f.pdf")
    assert [chunk.page for chunk in chunks[:1]] == [1]
    assert 0 < spans.read <= 4 * words + 4 * len(chunks), f"{spans.read} reads for {words} words"


@pytest.mark.parametrize("label", list(SCALING))
def test_time_grows_at_most_linearly_with_input_size(label):
    run, n = SCALING[label]
    small = best_time(lambda: run(n), repeats=5)
    large = best_time(lambda: run(10 * n), repeats=2)
    assert large / max(small, 1e-6) < 10 * GENEROUS, f"{label}: 10x the input: {small:.4f} s -> {large:.4f} s"


@given(segments=st.lists(segment, min_size=1, max_size=7), store=st.sampled_from(["FileSystem", "AzureBlob"]))
def test_dot_dot_in_a_content_key_never_reaches_outside_agentkits_tree(segments, store):
    """N8, N9: on either store a key's '.' and '..' are resolved, but only against agentkit's in-memory tree: the
    file it reaches is in one of the mesh's collections (its key free of dot segments), or there is none."""
    mesh = workspace()
    mesh.content_store = store
    collection = mesh.collections[f"{COMPANY}/content"]
    owner, inner = mesh._in_store(collection, "/".join(segments))
    assert owner is None or (owner in mesh.collections.values() and not {".", ".."} & set(inner.split("/")))
