"""agentkit/_collections.py beyond snippets/content_chunk_navigation_*.py and unified_path_*.py (C1-C8, D3-D7, S1-S5,
R14): hostile uploads, failed indexing, the search rules of Activity nodes."""

from __future__ import annotations

import pytest

from agentkit import Mesh, PathError, SearchIndex, extractive_summary
from agentkit._collections import index_file_activity
from agentkit._errors import FileNotFound
from agentkit.guide import report_pdf_bytes
from tests import corpus
from tests.mesh_state import NODE_TYPES


def company() -> Mesh:
    mesh = Mesh(node_types=set(NODE_TYPES), index=SearchIndex(summarizer=extractive_summary))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.add_collection("Acme")
    return mesh


def test_delete_file_removes_node_chunks_and_text():
    mesh = company()
    content = mesh.collections["Acme/content"]
    content.upload("a.md", b"alpha", index=True)
    content.delete("a.md")
    mesh.refresh_index()
    assert not mesh.exists("Acme/content/_Documents/a.md") and mesh.index.chunks_of("Acme/content", "a.md") == ()
    with pytest.raises(FileNotFound):
        content.read_text("a.md")


@pytest.mark.parametrize("path", ["../x.md", "a//b.md", "_Documents/x.md", "."])
def test_unmodelled_upload_paths_are_refused(path):
    mesh = company()
    with pytest.raises(PathError):
        mesh.collections["Acme/content"].upload(path, b"x")
    assert mesh.collections["Acme/content"].listing() == []


def test_an_unknown_content_store_is_refused():
    with pytest.raises(ValueError, match="content_store must be one of"):
        Mesh(content_store="S3")


UNREADABLE = ("encrypted.pdf", "truncated.pdf", "empty.pdf", "not-a-pdf.pdf", "damaged.docx")


def _unreadable(name: str) -> bytes:
    # Built by the test, not at collection: every gate worker collects this module, one runs it.
    from tests.test_transformers import encrypted_pdf

    docx = corpus.minimal_docx().data
    return {"encrypted.pdf": encrypted_pdf, "truncated.pdf": lambda: report_pdf_bytes()[:4096], "empty.pdf": bytes,
            "not-a-pdf.pdf": lambda: b"PK\x03\x04 a zip archive, not a PDF",
            "damaged.docx": lambda: docx[: len(docx) // 2]}[name]()


@pytest.mark.parametrize("name", UNREADABLE)
def test_an_upload_indexing_cannot_read_is_stored_and_answers_the_failure(name):
    """As in the framework (C8), the file stays stored and the failure is returned, never raised."""
    data = _unreadable(name)
    mesh = company()
    content = mesh.collections["Acme/content"]
    result = content.upload(name, data, index=True)
    mesh.refresh_index()
    # verifies: chunks.upload-index-error-returned
    assert result.index_error and name in result.index_error and result.document is None
    # verifies: chunks.upload-index-error-returned
    assert content.stored(name).data == data == result.stored.data and name in [entry["filePath"] for entry in content.listing()]
    # verifies: chunks.unreadable-upload-stored
    assert mesh.index.chunks_of("Acme/content", name) == () and not mesh.exists(f"Acme/content/_Documents/{name}")


def test_an_unreadable_upload_over_a_readable_file_keeps_the_old_chunks_and_document():
    """IndexFile fails before ReplaceFileChunks (over MCP: snippets/content_chunk_navigation_05_indexing.py)."""
    mesh = company()
    content = mesh.collections["Acme/content"]
    first = content.upload("r.pdf", corpus.fpdf2_pdf().data, index=True)
    mesh.refresh_index()
    chunks = mesh.index.chunks_of("Acme/content", "r.pdf")
    second = content.upload("r.pdf", b"%PDF-1.7\n", index=True)
    mesh.refresh_index()
    assert first.index_error is None and first.document is not None and second.index_error
    assert content.stored("r.pdf").data == b"%PDF-1.7\n" and mesh.index.chunks_of("Acme/content", "r.pdf") == chunks
    assert mesh.get("Acme/content/_Documents/r.pdf").version == first.document.version


def test_search_reads_activity_nodes_only_when_asked_for_them():
    """C8: the activities table is read for a location with `_Activity`, or nodeType:Activity."""
    mesh = company()
    collection = mesh.collections["Acme/content"]
    collection.upload("a.md", b"alpha beta")
    path = index_file_activity(collection, "a.md").path
    mesh.refresh_index()
    paths = lambda query, base=None: [row["path"] for row in mesh.search(query, base)["results"]]  # noqa: E731
    assert paths("namespace:Acme/_Activity") == [path] == paths("nodeType:Activity")
    assert path not in paths("scope:subtree", "Acme") and path not in paths("index")
