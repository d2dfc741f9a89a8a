"""Tests for agentkit/_index.py beyond the pages: the limit's hostile values and the chunk keys. The index's lag is
checked by snippets/agent_design_04_write_patterns.py and mesh_plugin_01_tools.py."""

from __future__ import annotations

import pytest

from agentkit import Mesh, PathError, SearchIndex
from agentkit._index import clamp_limit
from tests.mesh_state import NODE_TYPES


@pytest.mark.parametrize("asked, clamped", [(0, 1), (-5, 1), (1, 1), (200, 200), (1000, 200), ("30", 30), (None, 50),
                                            (float("inf"), 200), (float("-inf"), 1), (2.9, 2)])
def test_limit_is_clamped_to_1_200(asked, clamped):
    """The limit is clamped to 1..200, a JSON 1e400 (infinity) like any large or small number; None means the default."""
    assert clamp_limit(asked, 50) == clamped


@pytest.mark.parametrize("asked", ["many", float("nan")])
def test_a_limit_that_is_no_number_is_refused(asked):
    with pytest.raises(PathError, match="limit must be a whole number"):
        clamp_limit(asked, 50)


def test_chunks_are_staged_and_keyed_exactly():
    """Chunks become visible on refresh; a file's chunks are found by its exact (collectionPath, filePath)."""
    mesh = Mesh(node_types=set(NODE_TYPES))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.add_collection("Acme").upload("a.md", b"alpha " * 400, index=True)
    assert mesh.index.chunks_of("Acme/content", "a.md") == () and mesh.index.pending > 0
    mesh.refresh_index()
    assert len(mesh.index.chunks_of("Acme/content", "a.md")) == 3
    assert mesh.index.chunks_of("Acme/content/", "a.md") == () and mesh.index.chunks_of("acme/content", "a.md") == ()


def test_synthetic_document_rows_need_the_postgres_like_host():
    """K8: one row per file whose chunk text holds the free text, in any case (the row's fields, and no row without
    free text: snippets/content_chunk_navigation_02_reading.py, chunks.postgres-synthetic-document-rows)."""
    for content_rows, expected in ((False, []), (True, ["Acme/content/_Documents/Sub-a-b.md"])):
        mesh = Mesh(node_types=set(NODE_TYPES), index=SearchIndex(content_rows=content_rows))
        mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
        collection = mesh.add_collection("Acme")
        collection.upload("Sub/a b.md", b"Quarterly revenue grew. " * 100, index=True)
        collection.upload("c.md", b"nothing here", index=True)
        mesh.refresh_index()
        rows = mesh.search("nodeType:Document REVENUE grew")["results"]
        assert [row["path"] for row in rows] == expected
