"""Tests for agentkit/_collections.py: storing, indexing, Document nodes, and Get's content route."""

from __future__ import annotations

import contextlib
import hashlib
import unicodedata

import pytest

from agentkit import DocumentSlugCollision, Mesh, NodeNotFound, PathError, SearchIndex, extractive_summary
from agentkit._errors import CollectionNotFound, FileNotFound
from agentkit.guide import REPORT, report_pdf_bytes
from tests.mesh_state import NODE_TYPES


_no_error = contextlib.nullcontext


def company(index: SearchIndex | None = None) -> Mesh:
    mesh = Mesh(node_types=set(NODE_TYPES), index=index or SearchIndex(summarizer=extractive_summary))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.add_collection("Acme")
    return mesh


def test_upload_stores_without_indexing():
    """C7: storing makes the file readable; no chunks, no Document node until it is indexed."""
    mesh = company()
    mesh.collections["Acme/content"].upload("a.md", b"alpha beta")
    mesh.refresh_index()
    assert mesh.fetch("Acme/content/a.md").value == "alpha beta"
    assert mesh.index.chunks_of("Acme/content", "a.md") == () and not mesh.exists("Acme/content/_Documents/a.md")


def test_indexing_writes_the_document_node_with_the_framework_fields():
    """D4: name = file name, mime absent, sha-256 hash, chunk count; Get on its path returns it."""
    mesh = company()
    data = ("Line one.\n" * 300).encode()
    mesh.collections["Acme/content"].upload("Sub/notes.md", data, index=True)
    node = mesh.fetch("Acme/content/_Documents/Sub-notes.md").value
    assert (node.node_type, node.name, node.path) == ("Document", "notes.md", "Acme/content/_Documents/Sub-notes.md")
    assert sorted(node.content) == ["$type", "chunkCount", "collectionPath", "contentHash", "filePath", "indexedAt",
                                    "name", "sizeBytes", "summary"]
    assert node.content["contentHash"] == hashlib.sha256(data).hexdigest() and node.content["sizeBytes"] == len(data)
    assert node.content["chunkCount"] == 4 and (node.content["collectionPath"], node.content["filePath"]) == (
        "Acme/content", "Sub/notes.md")


def test_no_summarizer_no_document_but_chunks():
    """D6: the framework registers no summarizer; indexing still stores chunks."""
    mesh = company(SearchIndex())
    mesh.collections["Acme/content"].upload("a.md", b"alpha", index=True)
    mesh.refresh_index()
    assert not mesh.exists("Acme/content/_Documents/a.md") and len(mesh.index.chunks_of("Acme/content", "a.md")) == 1


@pytest.mark.parametrize("name, data", [("f.xlsx", b"PK\x03\x04"), ("logo.png", b"\x89PNG"), ("empty.md", b"")])
def test_no_indexing_text_no_chunks_no_document(name, data):
    """D5: no extractor (or empty text) gives no chunks and no Document node; the file is kept."""
    mesh = company()
    mesh.collections["Acme/content"].upload(name, data, index=True)
    mesh.refresh_index()
    assert mesh.index.chunks_of("Acme/content", name) == () and mesh.collections["Acme/content"].has_file(name)
    assert not any(node.node_type == "Document" for node in mesh.nodes())


def test_image_caption_is_text_and_summary():
    """D5/D6: an image describer's caption is indexed and used verbatim as the summary."""
    mesh = company(SearchIndex(image_describer=lambda data, name: f"A chart in {name}."))
    mesh.collections["Acme/content"].upload("chart.png", b"\x89PNG", index=True)
    node = mesh.get("Acme/content/_Documents/chart.png")
    assert node.content["summary"] == "A chart in chart.png." and node.content["chunkCount"] == 1


def test_extractive_summary_rule():
    """D7: markers stripped, empty lines skipped, joined until 280, collapsed, cut at 280 + '…'."""
    assert extractive_summary("# Title\n\n> quote\n- item\n*  star") == "Title quote item star"
    assert extractive_summary("") == "" and extractive_summary("a  b\tc") == "a b c"
    long = extractive_summary("x" * 500)
    assert long == "x" * 280 + "…"


def test_same_slug_upserts_last_indexed_wins():
    """D3: two files with one slug share one Document node; the one indexed last owns it."""
    mesh = company()
    content = mesh.collections["Acme/content"]
    content.upload("a b.md", b"first", index=True)
    content.upload("a-b.md", b"second", index=True)
    assert mesh.get("Acme/content/_Documents/a-b.md").content["filePath"] == "a-b.md"
    assert mesh.get("Acme/content/_Documents/a-b.md").version == 2
    content.index("a b.md")  # unchanged bytes: the hash gate skips it (R14)
    assert mesh.get("Acme/content/_Documents/a-b.md").content["filePath"] == "a-b.md"
    content.upload("a b.md", b"first, revised", index=True)
    assert mesh.get("Acme/content/_Documents/a-b.md").content["filePath"] == "a b.md"


def test_unchanged_bytes_are_skipped_and_a_deleted_document_stays_deleted():
    """R14: the hash gate skips a file whose bytes are indexed; the sink remembers the Document it wrote,
    so deleting it and uploading the same bytes again writes nothing; changed bytes are indexed anew."""
    mesh = company()
    content = mesh.collections["Acme/content"]
    content.upload("notes.md", b"Notes.", index=True)
    first = mesh.get("Acme/content/_Documents/notes.md")
    content.upload("notes.md", b"Notes.", index=True)
    assert mesh.get("Acme/content/_Documents/notes.md").version == first.version
    mesh.delete(["Acme/content/_Documents/notes.md"])
    content.upload("notes.md", b"Notes.", index=True)
    assert not mesh.exists("Acme/content/_Documents/notes.md")
    content.upload("notes.md", b"Notes, revised.", index=True)
    assert mesh.get("Acme/content/_Documents/notes.md").content["contentHash"] != first.content["contentHash"]


def test_an_unchanged_file_whose_document_was_never_written_is_healed():
    """R14's heal: chunks indexed without a summarizer, then with one: the unchanged file gets its Document."""
    mesh = company()
    content = mesh.collections["Acme/content"]
    summarizer, mesh.index.summarizer = mesh.index.summarizer, None
    content.upload("notes.md", b"Notes.", index=True)
    assert not mesh.exists("Acme/content/_Documents/notes.md")
    mesh.index.summarizer = summarizer
    content.index("notes.md")
    assert mesh.get("Acme/content/_Documents/notes.md").content["filePath"] == "notes.md"


def test_slug_collision_refusal_is_an_opt_in_extension():
    """With refuse_slug_collisions=True the second file is refused and nothing is written."""
    mesh = company(SearchIndex(summarizer=extractive_summary, refuse_slug_collisions=True))
    content = mesh.collections["Acme/content"]
    content.upload("a b.md", b"first", index=True)
    with pytest.raises(DocumentSlugCollision, match="with 'a b.md'"):
        content.upload("a-b.md", b"second", index=True)
    assert [f["filePath"] for f in content.listing()] == ["a b.md"]


def test_names_are_compared_exactly_unless_the_extension_is_on():
    """C6: no decoding, no NFC; Mesh(node_types=set(NODE_TYPES), canonical_paths=True) does both."""
    decomposed = unicodedata.normalize("NFD", "Übersicht.md")
    plain = company()
    plain.collections["Acme/content"].upload(decomposed, b"x")
    with pytest.raises(FileNotFound):
        plain.fetch("Acme/content/" + unicodedata.normalize("NFC", decomposed))
    with pytest.raises(FileNotFound):
        plain.fetch("Acme/content/%C3%9Cbersicht.md")
    canonical = Mesh(node_types=set(NODE_TYPES), canonical_paths=True)
    canonical.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    canonical.add_collection("Acme").upload(decomposed, b"x")
    assert canonical.fetch("Acme/content/%C3%9Cbersicht.md").value == "x"


def test_content_route_shapes_and_errors():
    """C1, C2: listings, root and nested files, named collections, and the Error:-prefixed texts."""
    mesh = company()
    mesh.collections["Acme/content"].upload("Sub/a.md", b"nested")
    mesh.add_collection("Acme", "reports").upload("r.md", b"report")
    assert mesh.fetch("Acme/content/").kind == "collection"
    assert mesh.fetch("Acme/content/Sub/a.md").value == mesh.fetch("Acme/content/content/Sub/a.md").value == "nested"
    with pytest.raises(FileNotFound, match="^Error: File 'Sub' not found in collection 'content'$"):
        mesh.fetch("Acme/content/Sub")  # one segment: a file, else a collection; a folder is not tried
    assert [f["path"] for f in mesh.fetch("Acme/content/content/Sub").value] == ["/Sub/a.md"]
    assert mesh.fetch("Acme/content/reports/r.md").value == "report"
    assert [f["path"] for f in mesh.fetch("Acme/content/reports").value] == ["/r.md"]
    with pytest.raises(FileNotFound, match="^Error: File 'reports/x.md' not found in collection 'content'$"):
        mesh.fetch("Acme/content/reports/x.md")
    with pytest.raises(NodeNotFound, match="^Not found: Acme/reports/r.md$"):
        mesh.fetch("Acme/reports/r.md")
    bare = Mesh(node_types=set(NODE_TYPES))
    bare.create({"id": "B", "name": "B", "nodeType": "Company"})
    with pytest.raises(CollectionNotFound, match="^Error: Content collection 'content' not found$"):
        bare.fetch("B/content/x.md")


def test_delete_file_removes_node_chunks_and_text():
    mesh = company()
    content = mesh.collections["Acme/content"]
    content.upload("a.md", b"alpha", index=True)
    content.delete("a.md")
    mesh.refresh_index()
    assert not mesh.exists("Acme/content/_Documents/a.md") and mesh.index.chunks_of("Acme/content", "a.md") == ()
    with pytest.raises(FileNotFound):
        content.read_text("a.md")


def test_unreadable_file_fails_at_get_naming_it():
    """Storing never reads the bytes; Get answers the framework's 'Error accessing file' text."""
    mesh = company()
    mesh.collections["Acme/content"].upload("broken.pdf", b"%PDF-1.7 truncated")
    with pytest.raises(Exception, match="^Error: Error accessing file 'broken.pdf' from collection 'content': "):
        mesh.fetch("Acme/content/broken.pdf")


@pytest.mark.parametrize("path", ["../x.md", "a//b.md", "_Documents/x.md", "."])
def test_unmodelled_upload_paths_are_refused(path):
    mesh = company()
    with pytest.raises(PathError):
        mesh.collections["Acme/content"].upload(path, b"x")
    assert mesh.collections["Acme/content"].listing() == []


def test_report_document_node():
    mesh = Mesh(node_types=set(NODE_TYPES), index=SearchIndex(summarizer=extractive_summary))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    mesh.add_collection("Acme").upload(REPORT.file_name, report_pdf_bytes(), index=True)
    assert mesh.get("Acme/content/_Documents/Annual-Report-2024.pdf").content["summary"].endswith("…")


# -- the content store behind the collections (S1), the indexing process (S3), no pipeline (S5) ------------

@pytest.mark.parametrize("store, expected", [("FileSystem", FileNotFound), ("AzureBlob", "[]")])
def test_a_missing_nested_key_is_the_file_error_on_filesystem_and_an_empty_listing_on_azureblob(store, expected):
    """S1: after a failed file read Get lists a folder of that name; AzureBlob lists a missing prefix as empty."""
    mesh = company()
    mesh.content_store = store
    mesh.collections["Acme/content"].upload("a.md", b"alpha", index=True)
    if expected is FileNotFound:
        with pytest.raises(FileNotFound, match="^Error: File 'Sub/missing.md' not found in collection 'content'$"):
            mesh.fetch("Acme/content/Sub/missing.md")
    else:
        assert mesh.fetch("Acme/content/Sub/missing.md").value == []
        assert mesh.fetch("Acme/content/_Documents/a.md").value == []  # the Document node is never reached
    assert mesh.fetch("Acme/content/a.md").value == "alpha"  # a stored file reads the same on either store


@pytest.mark.parametrize("store, expected", [("FileSystem", "Q3"), ("AzureBlob", [])])
def test_a_collection_that_has_stored_nothing_lists_a_missing_folder_as_its_store_does(store, expected):
    """S1: opening a FileSystem collection creates its folder (AttachMonitor), so before `content` holds a
    file a missing folder is refused as after it, and the named collection behind it is read; only an
    AzureBlob store lists the missing folder as empty."""
    mesh = company()
    mesh.content_store = store
    mesh.add_collection("Acme", "filings").upload("q3.md", b"Q3")
    assert mesh.collections["Acme/content"].listing() == []
    assert mesh.fetch("Acme/content/filings/q3.md").value == expected
    with pytest.raises(FileNotFound) if store == "FileSystem" else _no_error():
        assert mesh.fetch("Acme/content/Sub/missing.md").value == []


def test_an_unknown_content_store_is_refused():
    with pytest.raises(ValueError, match="content_store must be one of"):
        Mesh(content_store="S3")


def test_a_restart_or_a_forced_rebuild_writes_a_deleted_document_again():
    """S3: the sink's memory lives as long as the indexing process; a forced rebuild skips the hash gate."""
    mesh = company()
    collection = mesh.collections["Acme/content"]
    collection.upload("a.md", b"alpha", index=True)
    document = "Acme/content/_Documents/a.md"
    mesh.delete([document])
    assert collection.index("a.md") is None and not mesh.exists(document)  # remembered: not written again
    assert collection.index("a.md", force=True).path == document
    mesh.delete([document])
    mesh.index.restart_indexer()
    assert collection.index("a.md").path == document  # the hash gate's heal, with the memory gone


def test_a_host_without_a_chunk_store_indexes_nothing():
    """S5: no indexing pipeline: the upload is stored, nothing is chunked and no Document is written."""
    mesh = company(SearchIndex(summarizer=extractive_summary, chunk_store=False))
    mesh.collections["Acme/content"].upload("a.md", b"alpha", index=True)
    mesh.refresh_index()
    assert mesh.index.chunks_of("Acme/content", "a.md") == () and not mesh.exists("Acme/content/_Documents/a.md")
    assert mesh.fetch("Acme/content/a.md").value == "alpha"


def test_a_colon_in_a_content_path_sends_the_read_to_the_old_form():
    """S4: `address/prefix:path` is tried first; `{node}/content:{file}` reads the file, and a file whose path
    holds a ':' is read at an address inside the collection, where routing finds no node."""
    mesh = company()
    mesh.collections["Acme/content"].upload("Q3: notes.md", b"notes")
    mesh.collections["Acme/content"].upload("plain.md", b"plain")
    assert mesh.fetch("Acme/content:plain.md").value == "plain"
    with pytest.raises(NodeNotFound, match=r"^Error: No node found at 'Acme/content'\. Closest ancestor is 'Acme'"):
        mesh.fetch("Acme/content/Q3: notes.md")


def _encrypted_pdf() -> bytes:
    import io

    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    writer.encrypt(user_password="secret", owner_password="owner")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def _unreadable_uploads() -> list[tuple[str, bytes]]:
    from tests import corpus

    docx = corpus.minimal_docx().data
    return [("encrypted.pdf", _encrypted_pdf()), ("truncated.pdf", report_pdf_bytes()[:4096]), ("empty.pdf", b""),
            ("not-a-pdf.pdf", b"PK\x03\x04 a zip archive, not a PDF"), ("damaged.docx", docx[: len(docx) // 2])]


@pytest.mark.parametrize("name, data", _unreadable_uploads(), ids=[name for name, _ in _unreadable_uploads()])
def test_an_upload_indexing_cannot_read_is_stored_and_answers_the_failure(name, data):
    """upload(..., index=True) stored the file and then raised UnreadableDocument, so a caller that saw the exception
    believed nothing had changed. As in the framework (C8: MCP upload answers once the file is saved, and indexing
    fails in the background), the file stays stored and the failure is the result's index_error, never raised."""
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
    first = content.upload("r.pdf", report_pdf_bytes(), index=True)
    mesh.refresh_index()
    chunks = mesh.index.chunks_of("Acme/content", "r.pdf")
    second = content.upload("r.pdf", b"%PDF-1.7\n", index=True)
    mesh.refresh_index()
    assert first.index_error is None and first.document is not None and second.index_error
    assert content.stored("r.pdf").data == b"%PDF-1.7\n" and mesh.index.chunks_of("Acme/content", "r.pdf") == chunks
    assert mesh.get("Acme/content/_Documents/r.pdf").version == first.document.version


def test_index_file_activity_runs_as_the_framework_s_activity_node():
    """C8: `{node}/_Activity/{id}` named `Index {fileName}`, mainNode the node, created Running and written
    again when it ends: Succeeded with IndexFile's line, or Failed with the error's message at Error level."""
    from agentkit._collections import index_file_activity

    mesh = company()
    collection = mesh.collections["Acme/content"]
    collection.upload("Sub/a.md", b"alpha beta")
    collection.upload("b.pdf", b"%PDF-1.7 cut")
    good, bad = index_file_activity(collection, "Sub/a.md"), index_file_activity(collection, "b.pdf")
    assert (good.namespace, good.name, good.node_type, good.main_node, len(good.id)) == (
        "Acme/_Activity", "Index a.md", "Activity", "Acme", 8)
    assert good.content["status"] == "Succeeded" and [m["message"] for m in good.content["messages"]] == [
        "Index a.md", "Indexing 'Sub/a.md' (10 bytes) in 'Acme/content'.", "'Sub/a.md': Indexed (1 chunk(s))."]
    assert bad.content["status"] == "Failed" and bad.content["messages"][-1]["logLevel"] == "Error" and \
        bad.content["messages"][-1]["message"].startswith("PDF 'b.pdf' cannot be read")
    again = index_file_activity(collection, "Sub/a.md")  # the hash gate
    assert again.path != good.path and again.content["messages"][-1]["message"] == "'Sub/a.md': Skipped (0 chunk(s))."
    assert good.version == 2 and "status" in good.to_json()["content"]  # created Running, then finished
    gone = index_file_activity(collection, "missing.md")
    assert gone.content["status"] == "Succeeded" and gone.content["messages"][-1] == {
        "$type": "LogMessage", "message": "File 'missing.md' not found in collection 'Acme/content'; nothing to index.",
        "logLevel": "Warning", "timestamp": gone.content["end"], "scopes": []}
    assert index_file_activity(company(SearchIndex(chunk_store=False)).collections["Acme/content"], "a.md") is None


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
