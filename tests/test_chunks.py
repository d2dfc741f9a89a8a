"""agentkit/_chunks.py beyond snippets/content_chunk_navigation_03_chunk_tools.py (K1-K6): misses, the scope and
query rules, the '@' each chunk tool drops."""

from __future__ import annotations

import json

import pytest

from agentkit import (
    Mesh, PathError, content_collection_plugin, get_chunk, mcp_tools, search_chunks, snippet, tools_by_name,
)
from agentkit._chunk_navigation import (
    NO_ANCHORED_QUERY, NO_NAMESPACE, NO_TARGETED_TEXT, ContentQuery, parse_content_query,
)
from tests.mesh_state import NODE_TYPES


@pytest.fixture(scope="module")
def mesh() -> Mesh:
    mesh = Mesh(node_types=set(NODE_TYPES))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.create({"id": "Acme/Sales", "name": "Sales", "nodeType": "Unit"})
    collection = mesh.add_collection("Acme")
    collection.upload("annual.md", b"Revenue of the report.", index=True)
    collection.upload("notes.md", ("Revenue notes. " * 100).encode(), index=True)
    mesh.add_collection("Acme", "reports").upload("r.md", b"Revenue report of the reports collection.", index=True)
    mesh.add_collection("Acme/Sales", "content").upload("s.md", b"Revenue of the sales unit.", index=True)
    mesh.refresh_index()
    return mesh


@pytest.fixture(scope="module")
def files(mesh):
    return lambda query, scope=None: sorted(
        {hit["filePath"] for hit in search_chunks(mesh, query, scope=scope, limit=200)["results"]})


def test_misses_are_answers(mesh):
    """K6 (the other misses: snippets/content_chunk_navigation_03_chunk_tools.py, conformance/checks/chunks.py)."""
    assert get_chunk(mesh, "", "x.md", 0) == {"count": 0, "results": [], "message": "'collectionPath' is required."}
    for bad in (True, 1.5, "one", None):
        with pytest.raises(PathError, match="chunkIndex must be a whole number"):
            get_chunk(mesh, "Acme/content", "notes.md", bad)


def test_snippet_is_one_line_of_160_characters():
    assert snippet("a\r\nb   c") == "a b c"
    assert snippet("x" * 161) == "x" * 160 + "…" and snippet("x" * 160) == "x" * 160
    assert snippet("y" * 159 + " " + "z" * 10) == "y" * 159 + "…"  # end-trimmed before the ellipsis


def test_anchored_scope_is_exact_collection_paths_and_their_ancestors(mesh, files):
    """K4: the scope or an ancestor prefix equals a chunk's collectionPath (more: the snippet)."""
    assert files("revenue", "Acme/content") == ["annual.md", "notes.md"]
    assert files("revenue", "Acme/content/notes.md") == ["annual.md", "notes.md"]  # an ancestor: the collection
    assert files("revenue", "Acme/Sales/content") == ["s.md"]  # 'Acme/Sales' and 'Acme' hold no collection
    assert search_chunks(mesh, "  ", scope="Acme/content")["message"] == NO_ANCHORED_QUERY


def test_targeted_scope_words(mesh, files):
    """K4: subtree by default, exact, ancestorsandself."""
    assert files("namespace:Acme revenue") == ["annual.md", "notes.md", "r.md", "s.md"]  # subtree
    assert files("namespace:Acme scope:exact revenue") == []
    assert files("namespace:Acme/Sales/content/x scope:ancestorsandself revenue") == ["s.md"]
    assert search_chunks(mesh, "namespace:Acme/content")["message"] == NO_TARGETED_TEXT
    assert search_chunks(mesh, "namespace: revenue")["message"] == NO_NAMESPACE
    # `namespace:` with nothing after it names the empty path, which NormalizePath makes null: no anchor stands in
    assert search_chunks(mesh, "namespace: revenue", scope="Acme/reports")["message"] == NO_NAMESPACE
    assert search_chunks(mesh, "namespace:@ revenue", scope="Acme/reports")["message"] == NO_NAMESPACE
    assert files("namespace:@@Acme/reports revenue") == ["r.md"]  # every leading '@' goes (NormalizePath)
    assert files("namespace:*/reports revenue", scope="Acme/reports") == ["r.md"]  # a wildcard names no path: the anchor
    assert files("namespace:Acme|Other revenue", scope="Acme/reports") == ["r.md"]  # nor does an alternation
    assert files("namespace:Acme scope:selfandancestors revenue") == []  # an alias of ancestorsandself: Acme only
    assert files("namespace:Acme/reports scope:nonsense revenue") == ["r.md"]  # an unknown scope word is exact
    assert files("namespace:Acme scope:nonsense revenue") == []
    assert files('namespace:"Acme/reports" revenue') == ["r.md"]  # a quoted value loses its quotes
    assert files("namespace:Acme/content path:Acme/reports revenue") == ["r.md"]  # the later of path: and namespace:
    assert search_chunks(mesh, "namespace:Acme/content nodeType:Report")["message"] == NO_TARGETED_TEXT  # no free text
    assert search_chunks(mesh, "namespace:Acme/content OR and")["message"] == NO_TARGETED_TEXT  # OR and AND are no text
    assert search_chunks(mesh, "[namespace:Acme/content, revenue]")["message"] == NO_TARGETED_TEXT  # a path list


def test_content_query_grammar():
    """QueryParser as ContentChunkSearch reads it: the text, the path as written, the scope."""
    assert parse_content_query("namespace:@@A/content  x  y") == ContentQuery("x y", "@@A/content", "subtree")
    assert parse_content_query("namespace: x") == ContentQuery("x", "", "subtree")
    assert parse_content_query("namespace:A x:((") == ContentQuery("", "A", "subtree")  # the framework loops here
    assert parse_content_query("-namespace:A @revenue, 'Q3 figures'") == ContentQuery("revenue Q3 figures", "A", "subtree")
    assert parse_content_query("namespace:A scope:ANCESTORS x").scope == "ancestorsandself"
    assert parse_content_query("namespace:A microscope:x y") == ContentQuery("y", "A", "subtree")
    assert parse_content_query("namespace:A|B scope:subtree x") == ContentQuery("x", None, "exact")
    assert parse_content_query("namespace:(A) x").path == "A"
    assert parse_content_query("namespace:A\x1cx y").path == "A\x1cx"  # U+001C is no blank to .NET


def test_chunk_paths_lose_at_signs_per_entry_point(mesh):
    """N7 and NormalizePath: which leading '@'s each chunk tool drops before the store compares (MCP search_chunks
    every one, the agent's GetChunk none: snippets/content_chunk_navigation_03_chunk_tools.py and
    mesh_plugin_01_tools.py)."""
    def found(tool, arguments):
        answer = json.loads(tool.call(arguments))
        return answer.get("found", answer.get("count"))

    search = tools_by_name(content_collection_plugin(mesh, context="Acme"))["SearchChunks"]
    get_chunk = tools_by_name(mcp_tools(mesh))["get_chunk"]
    at = [f"{prefix}Acme/content" for prefix in ("", "@", "@@")]
    # verifies: chunks.scope-clean-up
    assert [found(search, {"query": "revenue", "scope": scope}) for scope in at] == [3, 3, 3]
    # MCP get_chunk: ResolvePath drops one '@', and the store compares the rest
    chunk = {"filePath": "annual.md", "chunkIndex": 0}
    assert [found(get_chunk, {**chunk, "collectionPath": path}) for path in at] == [True, True, False]
    # the agent's SearchChunks puts a single segment under its context first: '@@content' is 'Acme/@content'
    assert found(search, {"query": "revenue", "scope": "@@content"}) == 0
