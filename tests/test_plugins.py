"""Tests for agentkit/_plugins.py: the tools a model sees and the strings they return."""

from __future__ import annotations

import dataclasses
import json

import pytest

from agentkit import BULK_CREATE, CHUNK_PLUGIN, MESH_PLUGIN, ContentType, Mesh, Tool, chunk_plugin, mesh_plugin, tools_by_name


@pytest.fixture
def mesh() -> Mesh:
    mesh = Mesh()
    mesh.register_type(ContentType("Fact", {"item": "string", "value": "number"}))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.add_collection("Acme").upload("Annual Report 2024.md", b"Revenue was 4,812.3.")
    return mesh


def test_tool_names_and_plugins(mesh):
    """The Mesh plugin offers the framework's tools; the chunk tools come as plugin ContentChunks."""
    assert [(t.name, t.plugin) for t in mesh_plugin(mesh)] == [
        (name, MESH_PLUGIN) for name in ("Get", "Search", "Create", "Update", "Patch", "Delete", "Move", "Copy", "NavigateTo")]
    assert [(t.name, t.plugin) for t in chunk_plugin(mesh)] == [
        ("search", CHUNK_PLUGIN), ("search_chunks", CHUNK_PLUGIN), ("get_chunk", CHUNK_PLUGIN)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        mesh_plugin(mesh)[0].name = "Other"  # type: ignore[misc]
    assert isinstance(mesh_plugin(mesh)[0], Tool)


def test_bulk_create_is_an_opt_in_marked_extension(mesh):
    """BulkCreate appears only on request and its description says it is not the framework's."""
    assert BULK_CREATE not in tools_by_name(mesh_plugin(mesh))
    bulk = tools_by_name(mesh_plugin(mesh, bulk_create=True))[BULK_CREATE]
    assert "[agentkit extension, not in the framework]" in bulk.description
    nodes = [{"id": f"Acme/v-{n}", "name": f"V{n}", "nodeType": "Fact", "content": {"$type": "Fact", "value": n}} for n in range(2)]
    nodes.append({"id": "Acme/v-x", "nodeType": "Fact"})
    assert bulk.call({"nodes": json.dumps(nodes)}).splitlines() == [
        "Created: Acme/v-0", "Created: Acme/v-1",
        "[2] Error: cannot create: 'name' is not set. Every node needs a non-empty string 'name', e.g. \"name\": \"Revenue FY2024\"."]
    assert bulk.call({"nodes": "[]"}) == "Nothing to create: the array is empty."


def test_get_returns_node_json_file_text_or_an_error_text(mesh):
    """Get answers with JSON for a node, the text for a file, and an error as text."""
    tools = tools_by_name(mesh_plugin(mesh))
    node = json.loads(tools["Get"].call({"path": "Acme/content/_Documents/Annual-Report-2024.md"}))
    assert node["content"]["summary"] == "Revenue was 4,812.3."
    assert tools["Get"].call({"path": "Acme/content/Annual%20Report%202024.md"}) == "Revenue was 4,812.3."
    assert tools["Get"].call({"path": "Acme/content/Annual-Report-2024.md"}) == \
        "File 'Annual-Report-2024.md' not found in collection 'content'"
    assert tools["Get"].call({"path": "Acme/data/x"}).startswith("Path 'Acme/data/x': the 'data/' prefix is not modelled")


def test_create_update_patch_delete_texts(mesh):
    """Each write tool answers with the framework's one-line results."""
    tools = tools_by_name(mesh_plugin(mesh))
    node = {"id": "Acme/rev", "name": "Revenue", "nodeType": "Fact", "content": {"$type": "Fact", "value": 1}}
    assert tools["Create"].call({"node": json.dumps(node)}) == "Created: Acme/rev"
    assert tools["Create"].call({"node": "{not json"}).startswith("Invalid JSON: ")
    node["content"]["value"] = 2
    assert tools["Update"].call({"nodes": [node]}) == "Updated: Acme/rev"
    assert tools["Patch"].call({"path": "Acme/rev", "fields": '{"value": 3}'}) == "Patched: Acme/rev"
    assert tools["Copy"].call({"source": "Acme/rev", "target": "Acme/rev2"}) == "Copied: Acme/rev -> Acme/rev2"
    assert tools["Move"].call({"source": "Acme/rev2", "target": "Acme/rev3"}) == "Moved: Acme/rev2 -> Acme/rev3"
    assert tools["Delete"].call({"paths": '["Acme/rev", "Acme/rev3"]'}) == "Deleted: Acme/rev\nDeleted: Acme/rev3"
    assert tools["NavigateTo"].call({"path": "Acme"}) == "Navigated to Acme"


def test_search_tool_envelope(mesh):
    """Search answers with the JSON envelope, lagging until the index refreshes."""
    search = tools_by_name(mesh_plugin(mesh))["Search"]
    assert json.loads(search.call({"query": "nodeType:Company"}))["count"] == 0
    mesh.refresh_index()
    assert json.loads(search.call({"query": "nodeType:Company", "limit": 500}))["limit"] == 200


def test_strict_plugin_refuses_what_the_framework_drops(mesh):
    """A strict plugin answers with the dropped field names instead of 'Created:'."""
    create = tools_by_name(mesh_plugin(mesh, strict=True))["Create"]
    answer = create.call({"node": {"id": "Acme/x", "name": "X", "nodeType": "Fact", "content": {"$type": "Fact", "amount": 1}}})
    assert answer.startswith("Strict mode: field(s) 'amount' are not part of $type 'Fact'")
    assert not mesh.exists("Acme/x")


def test_missing_and_malformed_arguments(mesh):
    """A missing argument or a non-object argument list is answered, not raised."""
    tools = tools_by_name(mesh_plugin(mesh) + chunk_plugin(mesh))
    assert tools["Get"].call({}) == "Error: missing required argument 'path'"
    assert tools["get_chunk"].call({"collectionPath": "Acme/content", "filePath": "a"}) == \
        "Error: missing required argument 'chunkIndex'"
    assert tools["Create"].call(["x"]) == "Error: tool arguments must be a JSON object, got list"  # type: ignore[arg-type]


def test_chunk_tools_answer_json(mesh):
    """The chunk tools return JSON texts with the framework's shapes."""
    mesh.refresh_index()
    tools = tools_by_name(chunk_plugin(mesh))
    [hit] = json.loads(tools["search_chunks"].call({"query": "revenue"}))
    assert hit["filePath"] == "Annual Report 2024.md" and hit["rank"] == 0
    chunk = json.loads(tools["get_chunk"].call({"collectionPath": hit["collectionPath"], "filePath": hit["filePath"], "chunkIndex": 0}))
    assert chunk["text"] == "Revenue was 4,812.3." and chunk["nextIndex"] is None
    [document] = json.loads(tools["search"].call({"query": "revenue"}))
    assert document["documentPath"] == "Acme/content/_Documents/Annual-Report-2024.md"


@pytest.mark.parametrize("tool, arguments, opening", [
    ("Update", {"nodes": "[{"}, "Invalid JSON: "),
    ("Update", {"nodes": {"id": "x"}}, "Invalid JSON: 'nodes' must be a JSON array"),
    ("Delete", {"paths": 42}, "Invalid JSON: 'paths' must be a JSON array"),
    ("Delete", {"paths": "Acme"}, "Invalid JSON: Expecting value"),
    ("Patch", {"path": "Acme", "fields": "[1]"}, "Invalid JSON: 'fields' must be one JSON object"),
    ("Search", {"query": "x", "basePath": 7}, "basePath must be a path string"),
    ("Search", {"query": "x", "limit": "lots"}, "limit must be a whole number"),
    ("search_chunks", {"query": "x", "scope": ["Acme"]}, "scope must be a path string"),
    ("get_chunk", {"collectionPath": "Acme/content", "filePath": "a.md", "chunkIndex": 1.5}, "chunkIndex must be a whole number"),
])
def test_malformed_arguments_are_answered_precisely(mesh, tool, arguments, opening):
    """Arguments of the wrong JSON shape get a precise answer and change nothing."""
    mesh.refresh_index()
    before = [node.to_json() for node in mesh.nodes()]
    answer = tools_by_name(mesh_plugin(mesh) + chunk_plugin(mesh))[tool].call(arguments)
    assert answer.startswith(opening), answer
    assert [node.to_json() for node in mesh.nodes()] == before
