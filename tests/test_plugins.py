"""Tests for agentkit/_plugins.py: the tool registry against the facts, the serialized node, argument checks and
refusals. The write tools' answers, paths in the chat context and uploads (M2-M14, N4, C7) are checked by
snippets/mesh_plugin_01_tools.py and content_chunk_navigation_05_indexing.py."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from agentkit import (
    CONTENT_COLLECTION_PLUGIN, MCP_SERVER, MESH_PLUGIN, ContentType, Mesh, content_collection_plugin, mcp_tools,
    mesh_plugin, snake_case, tools_by_name,
)
from agentkit import _plugins as plugins
from agentkit._plugins import BULK_CREATE, Parameter
from agentkit._runtime import REQUESTED_FUNCTION_NOT_FOUND
from tests.mesh_state import NODE_TYPES
from guidetools import stated

CITATIONS = tomllib.loads((Path(__file__).resolve().parents[1] / "framework" / "citations.toml").read_text())
FACTS = CITATIONS["facts"]


def fact_text(fact_id: str) -> str:
    return FACTS[fact_id]["text"]


def ticked(text: str) -> list[str]:
    """The `backticked` words of a fact's text, in order."""
    return re.findall(r"`([^`]+)`", text)


@pytest.fixture
def mesh() -> Mesh:
    mesh = Mesh(node_types=set(NODE_TYPES))
    mesh.register_type(ContentType("Fact", {"item": "string", "value": "number"}))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.add_collection("Acme").upload("Annual Report 2024.md", b"Revenue was 4,812.3.", index=True)
    return mesh


# -- the registry against framework/citations.toml -------------------------------------------------
def test_mesh_plugin_offers_the_twelve_tools_of_m1(mesh):
    """M1: the Mesh plugin's tools and its read-only set, as the fact names them (RunTests needs a source repo)."""
    granted, read_only = fact_text("M1").split(";")[:2]
    names = [name for name in ticked(granted) if name != "Mesh"]
    tools = mesh_plugin(mesh)
    assert [t.name for t in tools] == names and len(names) == 12
    assert [t.name for t in tools if t.read_only] == ticked(read_only)
    assert {t.plugin for t in tools} == {MESH_PLUGIN}


def test_content_collection_plugin_and_mcp_chunk_tools_follow_k2(mesh):
    """K2: plugin ContentCollection with UploadContent, SearchChunks, GetChunk; MCP search_chunks, get_chunk."""
    plugin, *methods = ticked(fact_text("K2").split("(method names)")[0])
    tools = content_collection_plugin(mesh)
    assert (tools[0].plugin, [t.name for t in tools]) == (plugin, methods) == (CONTENT_COLLECTION_PLUGIN, methods)
    mcp_names = [t.name for t in mcp_tools(mesh)]
    assert all(name in mcp_names for name in ticked(fact_text("K2").split("MCP")[1])[:2])
    assert "search" not in [t.name for t in tools] and "ContentChunks" not in {t.plugin for t in tools}


def test_mcp_tool_names_are_the_snake_case_names_of_p1(mesh):
    """P1: every MCP name the fact lists is in the registry (autocomplete is not modelled), snake_case of a method."""
    registry = [t.name for t in mcp_tools(mesh)]
    listed = [name for name in ticked(fact_text("P1")) if name != "autocomplete"]
    assert listed == [name for name in registry if name in listed] and set(listed) <= set(registry)
    assert [snake_case(m) for m in ("GetChunk", "SearchChunks", "NavigateTo", "EditContent", "Get")] == [
        "get_chunk", "search_chunks", "navigate_to", "edit_content", "get"]
    assert {t.plugin for t in mcp_tools(mesh)} == {MCP_SERVER}


def _signatures_in(text: str) -> list[str]:
    return [s for s in ticked(text) if re.fullmatch(r"[A-Za-z_]+\([^)]*\)", s)]


def _normal(signature: str) -> str:
    """`x?` in a fact means an optional argument whose default is null."""
    return re.sub(r"(\w+)\?", r"\1=null", signature)


@pytest.mark.parametrize("fact_id", ["M3", "M4", "M10", "M11", "M12", "M13", "M14", "K3", "K5", "P2", "C7"])
def test_signatures_stated_in_the_facts_are_the_registry_s(mesh, fact_id):
    """Every `Tool(params)` a fact states (M, K, P2, C7) is the signature of the registry's tool of that name."""
    registry = {t.name: t.signature for t in mesh_plugin(mesh) + content_collection_plugin(mesh) + mcp_tools(mesh)}
    stated = _signatures_in(fact_text(fact_id))
    assert stated, f"{fact_id} states no signature"
    for signature in stated:
        name = signature.split("(")[0]
        if fact_id == "C7" and name == "upload":  # C7 names the MCP upload's two required arguments
            assert registry[name] == signature
            continue
        assert registry[name] == _normal(signature), (fact_id, signature)


def test_every_tool_carries_parameters_annotations_and_a_frozen_shape(mesh):
    """A Tool is frozen; parameters have the declared JSON types; read-only tools are never destructive. (Each agent
    tool's parameters, defaults and annotations: the table snippets/mesh_plugin_01_tools.py captures; the MCP tools'
    annotations: conformance/checks/mesh.py, tool_table.)"""
    tools = mesh_plugin(mesh) + content_collection_plugin(mesh) + mcp_tools(mesh)
    for tool in tools:
        assert all(isinstance(p, Parameter) and p.type in ("string", "integer", "boolean", "object", "array")
                   for p in tool.parameters), tool.name
        assert not (tool.read_only and tool.destructive), tool.name
        assert tool.description, tool.name
    with pytest.raises(dataclasses.FrozenInstanceError):
        tools[0].name = "Other"  # type: ignore[misc]


def test_unoffered_tool_answer_is_the_a5_text():
    """A5: the text a model reads after calling a tool it was not offered, as the fact states it (the text the runtime
    answers: snippets/agent_design_03_enforcement.py, agent_design_07_tool_errors.py)."""
    assert ticked(fact_text("A5"))[0] == REQUESTED_FUNCTION_NOT_FOUND == 'Error: Requested function "{name}" not found.'


# -- extensions ------------------------------------------------------------------------------------------
def test_bulk_create_names_an_invalid_item_by_its_index_and_answers_an_empty_array(mesh):
    """Opt-in, marked, one answer line per item: snippets/mesh_plugin_03_patterns.py, mesh.bulk-create-extension."""
    bulk = tools_by_name(mesh_plugin(mesh, bulk_create=True))[BULK_CREATE]
    nodes = [{"id": "Acme/v-0", "name": "V0", "nodeType": "Fact"}, {"id": "Acme/v-x", "nodeType": "Fact"}]
    lines = bulk.call({"nodes": json.dumps(nodes)}).splitlines()
    assert lines[0] == "Created: Acme/v-0" and lines[1].startswith("[1] Error: cannot create 'Acme/v-x': 'name' is not set.")
    assert bulk.call({"nodes": "[]"}) == "Nothing to create: the array is empty."


# -- agent tools: context, answers -------------------------------------------------------------------
def test_typed_content_keeps_an_empty_string_and_drops_a_zero(mesh):
    """M7 (the hub's options: WhenWritingDefault): typed content leaves out a value at its default and keeps an empty
    string, a string's default being null. The node's keys, escaping and dates, the same answer from the agent's Get
    and MCP's get, and a children listing: snippets/mesh_plugin_01_tools.py (mesh.get-node-json, mesh.get-children)
    and conformance/checks/mesh.py (get_node_json, on agentkit's server in tests/test_conformance.py)."""
    create = tools_by_name(mcp_tools(mesh))["create"]
    assert create.call({"node": json.dumps({"id": "rev", "namespace": "Acme", "name": "Revenue", "nodeType": "Fact",
                                            "content": {"$type": "Fact", "item": "", "value": 0}})}) == "Created: Acme/rev"
    node = json.loads(tools_by_name(mcp_tools(mesh))["get"].call({"path": "Acme/rev"}))
    assert node["content"] == {"$type": "Fact", "item": ""}  # 0 omitted, an empty string kept


# -- never raise ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("tool, arguments, opening", [
    ("Update", {"nodes": "[{"}, "Invalid JSON: "),
    ("Delete", {"paths": "Acme"}, "Invalid JSON: Expecting value"),
    ("Patch", {"path": "Acme", "fields": "[1]"}, "Error: fields must be a JSON object"),
    ("Get", {"path": ""}, "Error: path is required."),
    ("Move", {"sourcePath": "Acme", "targetPath": " "}, "Error: targetPath is required."),
    ("Copy", {"sourcePath": "Nope", "targetNamespace": "X"}, "Error: Source node not found: Nope"),
    ("Search", {"query": "x", "limit": "lots"}, "Error: Function failed."),
    ("Search", {"query": -10 ** 5000}, "Error: Function failed."),
    ("GetChunk", {"collectionPath": "Acme/content", "filePath": "a.md", "chunkIndex": 1.5}, "Error: Function failed."),
])
def test_malformed_arguments_are_answered_and_change_nothing(mesh, tool, arguments, opening):
    """Arguments of the wrong shape get an answer, never an exception, and the mesh stays as it was; one that does
    not bind to its parameter's type (FI1) gets the function layer's fixed text (the JSON-text parameters given an
    object, array, number or flag: snippets/mesh_plugin_02_create.py, mesh.arguments-bind-by-type)."""
    mesh.refresh_index()
    before = [node.to_json() for node in mesh.nodes()]
    answer = tools_by_name(mesh_plugin(mesh) + content_collection_plugin(mesh))[tool].call(arguments)
    assert answer.startswith(opening), answer
    assert [node.to_json() for node in mesh.nodes()] == before


def test_agent_runtime_answers_a_slow_call_and_a_null_text(mesh, monkeypatch):
    """AccessContextAIFunction's 30 s bound and the binder's null: answers the framework's runtime gives the model."""
    ticks = iter([0.0, 30.0, 100.0, 131.0])  # the first call takes 30 s, the second 31 s
    monkeypatch.setattr(plugins, "_clock", lambda: next(ticks))
    create = tools_by_name(mesh_plugin(mesh))["Create"]
    node = {"id": "Acme/slow", "name": "Slow", "nodeType": "Fact"}
    # verifies: mesh.errors-are-text
    assert create.call({"node": json.dumps(node)}) == "Created: Acme/slow"
    # verifies: mesh.tool-timeout
    assert create.call({"node": json.dumps({**node, "id": "Acme/slower"})}) == \
        "Tool 'Create' timed out after 30s. Add [ToolTimeout(N)] to allow longer." and mesh.exists("Acme/slower")
    # verifies: mesh.tool-timeout
    assert stated.numbers("mesh.tool-timeout") == [plugins.AGENT_TOOL_TIMEOUT_SECONDS]
    monkeypatch.undo()
    tools = tools_by_name(mesh_plugin(mesh))
    # verifies: mesh.null-text-raises
    assert [tools[name].call({argument: None}) for name, argument in (("Create", "node"), ("Update", "nodes"),
                                                                     ("Delete", "paths"))] == ["Error: Function failed."] * 3
    before = mesh.get("Acme/slow")
    # verifies: mesh.null-text-raises
    assert [tools["Patch"].call({"path": "Acme/slow", "fields": None}),
            tools["Search"].call({"query": None, "basePath": "Acme"})] == ["Error: Function failed."] * 2
    # verifies: mesh.errors-are-text
    assert mesh.get("Acme/slow") == before and tools["Patch"].call({"path": " ", "fields": None}) == "Error: path is required."
    # verifies: mesh.null-text-raises
    assert set(json.loads(tools["Search"].call({"query": None, "basePath": ""}))) >= {"count", "results"}  # empty: no raise
    # verifies: mesh.errors-are-text
    assert tools["Create"].call({"node": "null"}) == "Invalid node: deserialized to null."


def test_non_object_arguments_are_answered(mesh):
    """A non-object argument list is answered, not raised."""
    assert tools_by_name(mesh_plugin(mesh))["Create"].call(["x"]) == \
        "Error: tool arguments must be a JSON object, got list"  # type: ignore[arg-type]


# -- the descriptions against the framework's source (runs when MESHWEAVER_SOURCE names it) -------------
MESHWEAVER_SOURCE = os.environ.get("MESHWEAVER_SOURCE", "")
SOURCES = {"MESH_TEXTS": "src/MeshWeaver.AI/MeshPlugin.cs",
           "CONTENT_COLLECTION_TEXTS": "src/MeshWeaver.AI/Plugins/ContentCollectionPlugin.cs",
           "MCP_TEXTS": "src/MeshWeaver.Mcp/McpMeshPlugin.cs"}


def _framework_file(path: str) -> str:
    source = Path(MESHWEAVER_SOURCE)
    where = ["-C", str(source)] if (source / ".git").exists() else ["--git-dir", str(source)]
    commit = CITATIONS["pin"]["commit"]
    return subprocess.run(["git", *where, "show", f"{commit}:{path}"], capture_output=True, check=True, text=True).stdout


def _cs_literal(source: str, at: int) -> tuple[str, int]:
    """A C# string literal at `at` (regular or @verbatim, several joined by '+'); the text and where it ends."""
    parts = []
    while True:
        while source[at].isspace():
            at += 1
        verbatim = source.startswith('@"', at)
        at += 2 if verbatim else 1
        out = []
        while True:
            char, step = source[at], 1
            if char == '"' and verbatim and source[at + 1] == '"':
                char, step = '"', 2
            elif char == '"':
                at += 1
                break
            elif char == "\\" and not verbatim:
                escape = source[at + 1]
                if escape == "u":
                    char, step = chr(int(source[at + 2:at + 6], 16)), 6
                else:
                    char, step = {"n": "\n", "t": "\t"}.get(escape, escape), 2
            out.append(char)
            at += step
        parts.append("".join(out))
        after = at
        while source[after].isspace():
            after += 1
        if source[after] != "+":
            return "".join(parts), at
        at = after + 1


def _descriptions(source: str) -> dict[str, tuple[str, dict[str, str]]]:
    found: dict[str, tuple[str, dict[str, str]]] = {}
    method = None
    for match in re.finditer(r"\[Description\(", source):
        text, end = _cs_literal(source, match.end())
        tail = source[end:end + 300]
        if declared := re.match(r"\)\]\s*public\s+[\w<>?]+\s+(\w+)\(", tail):
            method = declared.group(1)
            found[method] = (text, {})
        elif (parameter := re.match(r"\)\]\s*[\w?]+\s+(\w+)", tail)) and method:
            found[method][1][parameter.group(1)] = text
    return found


@pytest.mark.skipif(not MESHWEAVER_SOURCE, reason=(
    "set MESHWEAVER_SOURCE to a MeshWeaver checkout or git dir to compare the tool descriptions with the source"))
@pytest.mark.parametrize("table", sorted(SOURCES))
def test_tool_descriptions_are_the_framework_source_s_word_for_word(table):
    """Every description and parameter description in agentkit/_tool_texts.py is the pinned source's text."""
    from agentkit import _tool_texts

    framework = _descriptions(_framework_file(SOURCES[table]))
    for method, (description, parameters) in getattr(_tool_texts, table).items():
        assert framework[method][0] == description, method
        assert {name: text for name, (_, _, text) in parameters.items()} == framework[method][1], method


def test_get_on_a_file_answers_a_json_string_as_system_text_json_writes_it():
    """Short escapes for line breaks and tabs; quotes, HTML-sensitive and non-ASCII characters as upper-case \\uXXXX (UTF-16)."""
    from agentkit._dotnet_json import dotnet_json_string

    # verifies: chunks.get-answers-a-json-string
    assert dotnet_json_string('a"b\\c\nd\te') == '"a\\u0022b\\\\c\\nd\\te"'
    assert dotnet_json_string("Café — <b> & 'x'+`y`") == '"Caf\\u00E9 \\u2014 \\u003Cb\\u003E \\u0026 \\u0027x\\u0027\\u002B\\u0060y\\u0060"'
    assert dotnet_json_string("😀\x01\x7f") == '"\\uD83D\\uDE00\\u0001\\u007F"'
    for text in ("plain", "line\r\nbreak", "€ 4,812.3", "\x00\x1f"):
        assert json.loads(dotnet_json_string(text)) == text
