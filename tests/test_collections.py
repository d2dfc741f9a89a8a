"""Tests for agentkit/_collections.py beyond the pages: hostile uploads, failed indexing, and the search rules of
Activity nodes. What a page states of storing, indexing (an unreadable upload over an indexed file keeps its chunks
and Document: chunks.reupload-poll-content-hash), the heal (R14) and the content route (C1-C8, D3-D7, S1-S5) is
checked by snippets/content_chunk_navigation_*.py and unified_path_*.py."""

from __future__ import annotations

import functools

import pytest

from agentkit import Mesh, PathError, SearchIndex, extractive_summary
from agentkit._errors import FileNotFound
from agentkit.guide import report_pdf_bytes
from tests.mesh_state import NODE_TYPES


def company(index: SearchIndex | None = None) -> Mesh:
    mesh = Mesh(node_types=set(NODE_TYPES), index=index or SearchIndex(summarizer=extractive_summary))
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


@functools.cache
def _unreadable_uploads() -> dict[str, bytes]:
    # Built by the test, not at collection: every gate worker collects this module, one runs it.
    from tests import corpus
    from tests.test_transformers import encrypted_pdf

    docx = corpus.minimal_docx().data
    uploads = {"encrypted.pdf": encrypted_pdf(), "truncated.pdf": report_pdf_bytes()[:4096], "empty.pdf": b"",
               "not-a-pdf.pdf": b"PK\x03\x04 a zip archive, not a PDF", "damaged.docx": docx[: len(docx) // 2]}
    assert tuple(uploads) == UNREADABLE, "the files built and the files the test is parametrized with"
    return uploads


@pytest.mark.parametrize("name", UNREADABLE)
def test_an_upload_indexing_cannot_read_is_stored_and_answers_the_failure(name):
    """upload(..., index=True) stored the file and then raised UnreadableDocument, so a caller that saw the exception
    believed nothing had changed. As in the framework (C8: MCP upload answers once the file is saved, and indexing
    fails in the background), the file stays stored and the failure is the result's index_error, never raised."""
    data = _unreadable_uploads()[name]
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
    """The failed indexing changes nothing but the stored bytes: the earlier version's chunks and Document stay, as
    the framework's IndexFile fails before ReplaceFileChunks."""
    mesh = company()
    content = mesh.collections["Acme/content"]
    from tests import corpus

    first = content.upload("r.pdf", corpus.fpdf2_pdf().data, index=True)
    mesh.refresh_index()
    chunks = mesh.index.chunks_of("Acme/content", "r.pdf")
    second = content.upload("r.pdf", b"%PDF-1.7\n", index=True)
    mesh.refresh_index()
    assert first.index_error is None and first.document is not None and second.index_error
    assert content.stored("r.pdf").data == b"%PDF-1.7\n" and mesh.index.chunks_of("Acme/content", "r.pdf") == chunks
    assert mesh.get("Acme/content/_Documents/r.pdf").version == first.document.version


def test_search_reads_activity_nodes_only_when_asked_for_them():
    """C8: Activity nodes live in the activities table: a query whose location has `_Activity`, or
    nodeType:Activity, reads them; any other query leaves them out."""
    from agentkit._collections import index_file_activity

    mesh = company()
    collection = mesh.collections["Acme/content"]
    collection.upload("a.md", b"alpha beta")
    path = index_file_activity(collection, "a.md").path
    mesh.refresh_index()
    paths = lambda query, base=None: [row["path"] for row in mesh.search(query, base)["results"]]  # noqa: E731
    assert paths("namespace:Acme/_Activity") == [path] == paths("nodeType:Activity")
    assert path not in paths("scope:subtree", "Acme") and path not in paths("index")
