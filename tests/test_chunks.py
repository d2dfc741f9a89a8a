"""Tests for agentkit/_chunks.py: windows, pages and boxes, and the SearchChunks / GetChunk logic (K1-K6)."""

from __future__ import annotations

import json

import pytest

from agentkit import (
    CHUNK_OVERLAP, CHUNK_SIZE, Mesh, PathError, chunk_spans, get_chunk, search_chunks, snippet,
)
from agentkit.guide import REPORT, report_index_text, report_pdf_bytes
from agentkit._chunk_navigation import NO_ANCHORED_QUERY, NO_NAMESPACE, NO_SCOPE, NO_TARGETED_TEXT, ContentQuery
from tests.mesh_state import NODE_TYPES


@pytest.fixture(scope="module")
def mesh() -> Mesh:
    mesh = Mesh(node_types=set(NODE_TYPES))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.create({"id": "Acme/Sales", "name": "Sales", "nodeType": "Unit"})
    collection = mesh.add_collection("Acme")
    collection.upload(REPORT.file_name, report_pdf_bytes(), index=True)
    collection.upload("notes.md", ("Revenue notes. " * 100).encode(), index=True)
    mesh.add_collection("Acme", "reports").upload("r.md", b"Revenue report of the reports collection.", index=True)
    mesh.add_collection("Acme/Sales", "content").upload("s.md", b"Revenue of the sales unit.", index=True)
    mesh.refresh_index()
    return mesh


def test_windows_are_1000_with_150_overlap():
    """K1: windows start every 850 characters; at most 1,000 characters is one chunk."""
    assert (CHUNK_SIZE, CHUNK_OVERLAP) == (1000, 150)
    assert chunk_spans(2000) == [(0, 1000), (850, 1850), (1700, 2000)]
    assert chunk_spans(1000) == [(0, 1000)] and chunk_spans(1001) == [(0, 1000), (850, 1001)]
    assert chunk_spans(0) == []
    assert chunk_spans(10, size=4, overlap=9) == [(0, 4), (1, 5), (2, 6), (3, 7), (4, 8), (5, 9), (6, 10)]  # overlap clamped


def test_chunks_cut_the_indexing_text(mesh):
    """K1, D5: a PDF's chunks are windows of the indexing text, not of Get's text."""
    text = report_index_text().text
    first = get_chunk(mesh, "Acme/content", REPORT.file_name, 0)
    second = get_chunk(mesh, "Acme/content", REPORT.file_name, 1)
    assert (first["text"], second["text"]) == (text[:1000], text[850:1850])
    assert first["totalChunks"] == len(chunk_spans(len(text)))


def test_get_chunk_shape_pages_and_boxes(mesh):
    """K5: the framework's keys in order; page 1-based; bbox fractions; no page or bbox for text files."""
    first = get_chunk(mesh, "Acme/content", REPORT.file_name, 0)
    assert list(first) == ["found", "collectionPath", "filePath", "chunkIndex", "text", "prevIndex", "nextIndex",
                           "totalChunks", "page", "bbox"]
    assert (first["found"], first["prevIndex"], first["nextIndex"], first["page"]) == (True, None, 1, 1)
    last = get_chunk(mesh, "Acme/content", REPORT.file_name, first["totalChunks"] - 1)
    assert (last["prevIndex"], last["nextIndex"], last["page"]) == (first["totalChunks"] - 2, None, 62)
    assert all(0 <= value <= 1 for value in first["bbox"].values())
    notes = get_chunk(mesh, "Acme/content", "notes.md", 0)
    assert "page" not in notes and "bbox" not in notes


def test_misses_are_answers(mesh):
    """K6: out of range, negative and unindexed give found=false with the framework's messages."""
    total = get_chunk(mesh, "Acme/content", REPORT.file_name, 0)["totalChunks"]
    assert get_chunk(mesh, "Acme/content", REPORT.file_name, total) == {
        "found": False, "collectionPath": "Acme/content", "filePath": REPORT.file_name, "chunkIndex": total,
        "totalChunks": total, "message": f"No chunk at index {total}; valid range is 0..{total - 1}.",
    }
    assert get_chunk(mesh, "Acme/content", REPORT.file_name, -1)["message"].startswith("No chunk at index -1;")
    assert get_chunk(mesh, "Acme/nowhere", "x.md", 0)["message"] == "No chunks indexed for 'x.md' in 'Acme/nowhere'."
    assert get_chunk(mesh, "", "x.md", 0) == {"count": 0, "results": [], "message": "'collectionPath' is required."}
    assert get_chunk(mesh, "Acme/content", " ", 0)["message"] == "'filePath' is required."
    for bad in (True, 1.5, "one", None):
        with pytest.raises(PathError, match="chunkIndex must be a whole number"):
            get_chunk(mesh, "Acme/content", "notes.md", bad)


def test_search_chunks_envelope_rank_and_no_dedup(mesh):
    """K3: {count, results}; hits best first, rank from 0, several chunks of one file allowed."""
    answer = search_chunks(mesh, "namespace:Acme/content revenue", limit=5)
    assert set(answer) == {"count", "results"} and answer["count"] == 5
    assert [hit["rank"] for hit in answer["results"]] == [0, 1, 2, 3, 4]
    assert len({hit["filePath"] for hit in answer["results"]}) < 5  # not de-duplicated
    assert answer["results"][0]["documentPath"] == "Acme/content/_Documents/" + answer["results"][0]["filePath"].replace(" ", "-")


@pytest.mark.parametrize("limit, count", [(0, 1), (-3, 1), (2, 2), (1000, 200)])
def test_limit_is_clamped(limit, count):
    mesh = Mesh(node_types=set(NODE_TYPES))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.add_collection("Acme").upload("long.md", ("figure " * 30_000).encode(), index=True)  # 248 chunks
    mesh.refresh_index()
    assert search_chunks(mesh, "namespace:Acme/content figure", limit=limit)["count"] == count


def test_snippet_is_one_line_of_160_characters():
    assert snippet("a\r\nb   c") == "a b c"
    assert snippet("x" * 161) == "x" * 160 + "…" and snippet("x" * 160) == "x" * 160
    assert snippet("y" * 159 + " " + "z" * 10) == "y" * 159 + "…"  # end-trimmed before the ellipsis


def test_anchored_scope_is_exact_collection_paths_and_their_ancestors(mesh):
    """K4: scope and each ancestor prefix must equal a chunk's collectionPath."""
    def files(**arguments):
        return sorted({hit["filePath"] for hit in search_chunks(mesh, "revenue", **arguments)["results"]})

    assert files(scope="Acme") == []  # a bare node path
    assert files(scope="Acme/content") == [REPORT.file_name, "notes.md"]
    assert files(scope="@/Acme/content/") == [REPORT.file_name, "notes.md"]
    assert files(scope="Acme/content/notes.md") == [REPORT.file_name, "notes.md"]  # its ancestor is the collection
    assert files(scope="Acme/Sales/content") == ["s.md"]  # 'Acme/Sales' and 'Acme' hold no collection
    assert search_chunks(mesh, "revenue") == {"count": 0, "results": [], "message": NO_SCOPE}
    assert search_chunks(mesh, "  ", scope="Acme/content")["message"] == NO_ANCHORED_QUERY


def test_targeted_scope_words(mesh):
    """K4: namespace: wins over scope; subtree by default, exact, ancestorsandself."""
    def files(query, scope=None):
        return sorted({hit["filePath"] for hit in search_chunks(mesh, query, scope=scope, limit=200)["results"]})

    assert files("namespace:Acme/content revenue", scope="Elsewhere") == [REPORT.file_name, "notes.md"]
    assert files("namespace:Acme revenue") == [REPORT.file_name, "notes.md", "r.md", "s.md"]  # subtree
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
    from agentkit._chunk_navigation import parse_content_query

    assert parse_content_query("namespace:@@A/content  x  y") == ContentQuery("x y", "@@A/content", "subtree")
    assert parse_content_query("namespace: x") == ContentQuery("x", "", "subtree")
    assert parse_content_query("namespace:A x:((") == ContentQuery("", "A", "subtree")  # the framework loops here
    assert parse_content_query("-namespace:A @revenue, 'Q3 figures'") == ContentQuery("revenue Q3 figures", "A", "subtree")
    assert parse_content_query("namespace:A scope:ANCESTORS x").scope == "ancestorsandself"
    assert parse_content_query("namespace:A microscope:x y") == ContentQuery("y", "A", "subtree")
    assert parse_content_query("namespace:A|B scope:subtree x") == ContentQuery("x", None, "exact")
    assert parse_content_query("namespace:(A) x").path == "A"
    assert parse_content_query("namespace:A\x1cx y").path == "A\x1cx"  # U+001C is no blank to .NET


def test_chunk_paths_lose_at_signs_per_entry_point():
    """N7 and NormalizePath, tool by tool: which leading '@'s a chunk tool drops before the store compares."""
    from agentkit import content_collection_plugin, mcp_tools, tools_by_name

    def found(tools, tool, arguments):
        answer = json.loads(tools[tool].call(arguments))
        return answer.get("found", answer.get("count"))

    mesh = Mesh(node_types=set(NODE_TYPES))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.add_collection("Acme").upload("a.md", b"quarterly figures", index=True)
    mesh.refresh_index()
    mcp = tools_by_name(mcp_tools(mesh))
    agent = tools_by_name(content_collection_plugin(mesh, context="Acme"))
    chunk = {"filePath": "a.md", "chunkIndex": 0}
    at = {prefix: f"{prefix}Acme/content" for prefix in ("", "@", "@@")}
    # verifies: chunks.scope-clean-up
    assert [found(mcp, "search_chunks", {"query": "quarterly", "scope": at[p]}) for p in at] == [1, 1, 1]
    # verifies: chunks.scope-clean-up
    assert [found(agent, "SearchChunks", {"query": "quarterly", "scope": at[p]}) for p in at] == [1, 1, 1]
    # verifies: chunks.scope-clean-up
    assert found(mcp, "search_chunks", {"query": "quarterly", "scope": " /Acme/content/ "}) == 1  # '/' at both ends
    # MCP get_chunk: ResolvePath drops one '@', and the store compares the rest
    assert [found(mcp, "get_chunk", {**chunk, "collectionPath": at[p]}) for p in at] == [True, True, False]
    # the agent's GetChunk drops none
    assert [found(agent, "GetChunk", {**chunk, "collectionPath": at[p]}) for p in at] == [True, False, False]
    # the agent's SearchChunks puts a single segment under its context first: '@@content' is 'Acme/@content'
    assert found(agent, "SearchChunks", {"query": "quarterly", "scope": "@@content"}) == 0


def test_chunk_search_lags_until_refresh():
    """Chunks come from the index: a freshly indexed file is found only after a refresh."""
    mesh = Mesh(node_types=set(NODE_TYPES))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.add_collection("Acme").upload("a.md", b"quarterly figures", index=True)
    assert search_chunks(mesh, "quarterly", scope="Acme/content")["count"] == 0
    assert get_chunk(mesh, "Acme/content", "a.md", 0)["found"] is False
    mesh.refresh_index()
    assert search_chunks(mesh, "quarterly", scope="Acme/content")["count"] == 1
