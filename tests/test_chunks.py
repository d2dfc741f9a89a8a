"""Tests for agentkit/_chunks.py: windows, page numbers and the chunk tools' shapes."""

from __future__ import annotations

import pytest

from agentkit import (
    CHUNK_OVERLAP, CHUNK_SIZE, REPORT, CollectionNotFound, FileNotFound, Mesh, PathError,
    chunk_spans, get_chunk, report_pdf_bytes, search_chunks, search_documents,
)


@pytest.fixture(scope="module")
def mesh() -> Mesh:
    mesh = Mesh()
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    collection = mesh.add_collection("Acme")
    collection.upload(REPORT.file_name, report_pdf_bytes())
    collection.upload("notes.md", ("Revenue notes. " * 100).encode())
    mesh.refresh_index()
    return mesh


def test_windows_are_1000_with_150_overlap():
    """Windows start every 850 characters and the last one ends at the text's end."""
    assert (CHUNK_SIZE, CHUNK_OVERLAP) == (1000, 150)
    assert chunk_spans(2000) == [(0, 1000), (850, 1850), (1700, 2000)]
    assert chunk_spans(1000) == [(0, 1000)]
    assert chunk_spans(0) == []
    with pytest.raises(ValueError, match="must exceed the overlap"):
        chunk_spans(10, size=100, overlap=100)


def test_get_chunk_shape_and_neighbours(mesh):
    """get_chunk returns the framework's keys; prevIndex is null at 0 and nextIndex null at the end."""
    first = get_chunk(mesh, "Acme/content", REPORT.file_name, 0)
    assert list(first) == ["found", "collectionPath", "filePath", "chunkIndex", "text", "prevIndex",
                           "nextIndex", "totalChunks", "page"]
    assert (first["found"], first["prevIndex"], first["nextIndex"], first["page"]) == (True, None, 1, 1)
    total = first["totalChunks"]
    last = get_chunk(mesh, "Acme/content", REPORT.file_name, total - 1)
    assert (last["prevIndex"], last["nextIndex"]) == (total - 2, None)
    assert last["page"] == 62
    text = mesh.fetch("Acme/content/Annual Report 2024.pdf").value
    assert first["text"] == text[:1000]
    assert get_chunk(mesh, "Acme/content", REPORT.file_name, 1)["text"] == text[850:1850]


def test_text_files_have_no_page(mesh):
    """Only PDF chunks carry a page number."""
    assert "page" not in get_chunk(mesh, "Acme/content", "notes.md", 0)


def test_out_of_range_is_an_answer_not_an_error(mesh):
    """An index outside the range returns found=false, the total and the framework's message."""
    total = get_chunk(mesh, "Acme/content", REPORT.file_name, 0)["totalChunks"]
    assert get_chunk(mesh, "Acme/content", REPORT.file_name, total) == {
        "found": False, "totalChunks": total, "message": f"No chunk at index {total}; valid range is 0..{total - 1}.",
    }
    assert get_chunk(mesh, "Acme/content", REPORT.file_name, -1)["found"] is False


def test_get_chunk_bad_arguments(mesh):
    """A non-numeric index, an unknown collection and an unknown file each get a precise error."""
    for bad in ("first", "--1", "\u00b2", "1.0"):  # '--1' and a superscript 2 once passed the check and crashed int()
        with pytest.raises(PathError, match="chunkIndex must be a whole number"):
            get_chunk(mesh, "Acme/content", REPORT.file_name, bad)
    assert get_chunk(mesh, "Acme/content", REPORT.file_name, " 1 ")["chunkIndex"] == 1
    with pytest.raises(CollectionNotFound, match="Content collection 'Acme/nope' not found"):
        get_chunk(mesh, "Acme/nope", REPORT.file_name, 0)
    with pytest.raises(FileNotFound, match="File 'x.pdf' not found in collection 'content'"):
        get_chunk(mesh, "Acme/content", "x.pdf", 0)


def test_search_chunks_shape_rank_and_duplicates(mesh):
    """Hits carry the documented keys, rank from 0 best first, and several chunks of one file may appear."""
    hits = search_chunks(mesh, "Net profit", scope="Acme/content/Annual Report 2024.pdf")
    assert list(hits[0]) == ["documentPath", "collectionPath", "filePath", "chunkIndex", "rank", "snippet", "page"]
    assert [hit["rank"] for hit in hits] == list(range(len(hits)))
    assert len({hit["documentPath"] for hit in hits}) == 1 and len(hits) > 1
    assert all(len(hit["snippet"]) <= 162 for hit in hits)
    assert "profit" in hits[0]["snippet"].lower()


def test_search_chunks_limit_is_clamped():
    """limit defaults to 20 and is clamped to 1..200."""
    mesh = Mesh()
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.add_collection("Acme").upload("long.md", ("figure " * 30_000).encode())  # 250 chunks, all matching
    mesh.refresh_index()
    assert len(search_chunks(mesh, "figure")) == 20
    assert len(search_chunks(mesh, "figure", limit=0)) == 1
    assert len(search_chunks(mesh, "figure", limit=10_000)) == 200


def test_search_returns_one_document_per_file(mesh):
    """search ranks files, one result each, pointing at the Document node."""
    results = search_documents(mesh, "revenue")
    assert [r["documentPath"] for r in results] == [
        "Acme/content/_Documents/notes.md", "Acme/content/_Documents/Annual-Report-2024.pdf"]
    assert results[1]["filePath"] == "Annual Report 2024.pdf"


def test_chunk_search_lags_until_refresh():
    """A fresh upload is readable at once but invisible to search until the index refreshes."""
    mesh = Mesh()
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.add_collection("Acme").upload("a.md", b"quarterly figures")
    assert search_chunks(mesh, "quarterly") == [] and search_documents(mesh, "quarterly") == []
    assert get_chunk(mesh, "Acme/content", "a.md", 0)["text"] == "quarterly figures"
    mesh.refresh_index()
    assert len(search_chunks(mesh, "quarterly")) == 1


def test_query_without_words_is_refused(mesh):
    """A query with no searchable words gets a precise error."""
    with pytest.raises(PathError, match="has no words"):
        search_chunks(mesh, "  ?! ")


def test_search_skips_documents_deleted_before_the_index_refreshed():
    """A Document node deleted since the last refresh is not offered as a search result."""
    mesh = Mesh()
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    collection = mesh.add_collection("Acme")
    collection.upload("a.md", b"quarterly figures")
    mesh.refresh_index()
    collection.delete("a.md")
    assert search_documents(mesh, "quarterly") == []
