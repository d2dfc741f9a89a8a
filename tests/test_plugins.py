"""agentkit/_plugins.py: the registry against the facts, argument checks and refusals (the tools' answers: the
snippets)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from agentkit import MCP_SERVER, content_collection_plugin, mcp_tools, mesh_plugin, snake_case, tools_by_name
from agentkit import _plugins as plugins
from agentkit._plugins import BULK_CREATE, Parameter
from agentkit._runtime import REQUESTED_FUNCTION_NOT_FOUND
from tests.mesh_state import workspace
from guidetools import stated

CITATIONS = tomllib.loads((Path(__file__).resolve().parents[1] / "framework" / "citations.toml").read_text())
FACTS = {fact_id: fact["text"] for fact_id, fact in CITATIONS["facts"].items()}


def ticked(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


mesh = pytest.fixture(name="mesh")(workspace)  # Acme, its Fact type and indexed files


# -- the registry against framework/citations.toml -------------------------------------------------
def test_mesh_plugin_offers_the_twelve_tools_of_m1(mesh):
    """M1 (RunTests needs a source repo)."""
    granted, read_only = FACTS["M1"].split(";")[:2]
    names = [name for name in ticked(granted) if name != "Mesh"]
    tools = mesh_plugin(mesh)
    assert [t.name for t in tools] == names and len(names) == 12
    assert [t.name for t in tools if t.read_only] == ticked(read_only)


def test_content_collection_plugin_and_mcp_chunk_tools_follow_k2(mesh):
    plugin, *methods = ticked(FACTS["K2"].split("(method names)")[0])
    tools = content_collection_plugin(mesh)
    assert (tools[0].plugin, [t.name for t in tools]) == (plugin, methods)
    assert set(ticked(FACTS["K2"].split("MCP")[1])[:2]) <= {t.name for t in mcp_tools(mesh)}


def test_mcp_tool_names_are_the_snake_case_names_of_p1(mesh):
    """P1 (autocomplete is not modelled)."""
    registry = [t.name for t in mcp_tools(mesh)]
    listed = [name for name in ticked(FACTS["P1"]) if name != "autocomplete"]
    assert listed == [name for name in registry if name in listed]
    assert [snake_case(m) for m in ("GetChunk", "SearchChunks", "NavigateTo", "EditContent", "Get")] == [
        "get_chunk", "search_chunks", "navigate_to", "edit_content", "get"]
    assert {t.plugin for t in mcp_tools(mesh)} == {MCP_SERVER}


def _signatures_in(text: str) -> list[str]:
    return [s for s in ticked(text) if re.fullmatch(r"[A-Za-z_]+\([^)]*\)", s)]


def _normal(signature: str) -> str:  # `x?` in a fact: an optional argument whose default is null
    return re.sub(r"(\w+)\?", r"\1=null", signature)


@pytest.mark.parametrize("fact_id", ["M3", "M4", "M10", "M11", "M12", "M13", "M14", "K3", "K5", "P2", "C7"])
def test_signatures_stated_in_the_facts_are_the_registry_s(mesh, fact_id):
    registry = {t.name: t.signature for t in mesh_plugin(mesh) + content_collection_plugin(mesh) + mcp_tools(mesh)}
    stated = _signatures_in(FACTS[fact_id])
    assert stated, f"{fact_id} states no signature"
    for signature in stated:
        name = signature.split("(")[0]
        if fact_id == "C7" and name == "upload":  # C7 names the MCP upload's two required arguments
            assert registry[name] == signature
            continue
        assert registry[name] == _normal(signature), (fact_id, signature)


def test_every_tool_carries_parameters_annotations_and_a_frozen_shape(mesh):
    """(Each tool's parameters and annotations: snippets/mesh_plugin_01_tools.py, conformance/checks/mesh.py.)"""
    tools = mesh_plugin(mesh) + content_collection_plugin(mesh) + mcp_tools(mesh)
    for tool in tools:
        assert all(isinstance(p, Parameter) and p.type in ("string", "integer", "boolean", "object", "array")
                   for p in tool.parameters), tool.name
        assert not (tool.read_only and tool.destructive), tool.name
        assert tool.description, tool.name
    with pytest.raises(dataclasses.FrozenInstanceError):
        tools[0].name = "Other"  # type: ignore[misc]


def test_unoffered_tool_answer_is_the_a5_text():
    """(The runtime answering it: snippets/agent_design_03_enforcement.py, agent.unoffered-call-error.)"""
    assert ticked(FACTS["A5"])[0] == REQUESTED_FUNCTION_NOT_FOUND == 'Error: Requested function "{name}" not found.'


def test_bulk_create_names_an_invalid_item_by_its_index_and_answers_an_empty_array(mesh):
    """(Opt-in, marked, a collision: snippets/mesh_plugin_03_patterns.py, mesh.bulk-create-extension.)"""
    bulk = tools_by_name(mesh_plugin(mesh, bulk_create=True))[BULK_CREATE]
    nodes = [{"id": "Acme/v-0", "name": "V0", "nodeType": "Fact"}, {"id": "Acme/v-x", "nodeType": "Fact"}]
    lines = bulk.call({"nodes": json.dumps(nodes)}).splitlines()
    assert lines[0] == "Created: Acme/v-0" and lines[1].startswith("[1] Error: cannot create 'Acme/v-x': 'name' is not set.")
    assert bulk.call({"nodes": "[]"}) == "Nothing to create: the array is empty."


def test_typed_content_keeps_an_empty_string_and_drops_a_zero(mesh):
    """M7, WhenWritingDefault: a string's default is null (the rest: snippets/mesh_plugin_01_tools.py)."""
    create = tools_by_name(mcp_tools(mesh))["create"]
    assert create.call({"node": json.dumps({"id": "zero", "namespace": "Acme", "name": "Zero", "nodeType": "Fact",
                                            "content": {"$type": "Fact", "item": "", "value": 0}})}) == "Created: Acme/zero"
    node = json.loads(tools_by_name(mcp_tools(mesh))["get"].call({"path": "Acme/zero"}))
    assert node["content"] == {"$type": "Fact", "item": ""}  # 0 omitted, an empty string kept


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
    ("Create", ["x"], "Error: tool arguments must be a JSON object, got list"),
])
def test_malformed_arguments_are_answered_and_change_nothing(mesh, tool, arguments, opening):
    """An answer, never an exception, nothing changed; FI1's fixed text (the JSON-text parameters given an object,
    array, number or flag: snippets/mesh_plugin_02_create.py, mesh.arguments-bind-by-type)."""
    mesh.refresh_index()
    before = [node.to_json() for node in mesh.nodes()]
    answer = tools_by_name(mesh_plugin(mesh) + content_collection_plugin(mesh))[tool].call(arguments)
    assert answer.startswith(opening), answer
    assert [node.to_json() for node in mesh.nodes()] == before


def test_agent_runtime_answers_a_slow_call_and_a_null_text(mesh, monkeypatch):
    """AccessContextAIFunction's 30 s bound and the binder's null."""
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


_LITERAL = re.compile(r'\s*(?:@"((?:[^"]|"")*)"|"((?:[^"\\]|\\.)*)")')  # verbatim or regular
_ESCAPES = {"n": "\n", "t": "\t"}


def _cs_literal(source: str, at: int) -> tuple[str, int]:
    """A C# string literal at `at` (regular or @verbatim, several joined by '+'); the text and where it ends."""
    parts = []
    while literal := _LITERAL.match(source, at):
        verbatim, regular = literal.groups()
        parts.append(verbatim.replace('""', '"') if verbatim is not None else re.sub(
            r"\\(u[0-9A-Fa-f]{4}|.)", lambda e: chr(int(e[1][1:], 16)) if len(e[1]) == 5 else _ESCAPES.get(e[1], e[1]),
            regular, flags=re.DOTALL))
        at = literal.end()
        if not (plus := re.compile(r"\s*\+").match(source, at)):
            break
        at = plus.end()
    return "".join(parts), at


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
    from agentkit import _tool_texts

    framework = _descriptions(_framework_file(SOURCES[table]))
    for method, (description, parameters) in getattr(_tool_texts, table).items():
        assert framework[method][0] == description, method
        assert {name: text for name, (_, _, text) in parameters.items()} == framework[method][1], method


def test_get_on_a_file_answers_a_json_string_as_system_text_json_writes_it():
    from agentkit._dotnet_json import dotnet_json_string

    # verifies: chunks.get-answers-a-json-string
    assert dotnet_json_string('a"b\\c\nd\te') == '"a\\u0022b\\\\c\\nd\\te"'
    assert dotnet_json_string("Café — <b> & 'x'+`y`") == '"Caf\\u00E9 \\u2014 \\u003Cb\\u003E \\u0026 \\u0027x\\u0027\\u002B\\u0060y\\u0060"'
    assert dotnet_json_string("😀\x01\x7f") == '"\\uD83D\\uDE00\\u0001\\u007F"'
    for text in ("plain", "line\r\nbreak", "€ 4,812.3", "\x00\x1f"):
        assert json.loads(dotnet_json_string(text)) == text
