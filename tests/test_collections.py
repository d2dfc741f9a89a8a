"""Tests for agentkit/_collections.py: upload, Document nodes and reading files back."""

from __future__ import annotations

import hashlib
import unicodedata

import pytest

from agentkit import (
    SUMMARY_LIMIT, CollectionNotFound, DocumentSlugCollision, FileNotFound, Mesh, NoTransformer, NodeNotFound, PathError,
    PathTraversal, UnreadableDocument, extractive_summary,
)

TEXT = ("Meridian grew revenue in every segment. " * 40).strip()


def make_collection():
    mesh = Mesh()
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    return mesh, mesh.add_collection("Acme")


def test_upload_writes_the_document_node_with_the_framework_fields():
    """The Document node sits at {collectionPath}/_Documents/{slug} with every documented field."""
    mesh, collection = make_collection()
    node = collection.upload("Annual Report 2024.md", TEXT.encode())
    assert node.path == "Acme/content/_Documents/Annual-Report-2024.md"
    content = node.content
    assert content["$type"] == "Document" and node.node_type == "Document"
    assert content["collectionPath"] == "Acme/content"
    assert content["filePath"] == "Annual Report 2024.md"
    assert content["mime"] == "text/markdown"
    assert content["sizeBytes"] == len(TEXT.encode())
    assert content["contentHash"] == hashlib.sha256(TEXT.encode()).hexdigest()
    assert content["chunkCount"] == 2
    assert content["indexedAt"] == "2025-01-01T00:00:01Z"


def test_document_node_never_carries_the_text_but_the_file_path_does():
    """Get on the Document node gives metadata and summary; Get on the file path gives the full text."""
    mesh, collection = make_collection()
    node = collection.upload("Annual Report 2024.md", TEXT.encode())
    fetched = mesh.fetch(node.path)
    assert fetched.kind == "node" and "text" not in fetched.value.content
    assert TEXT not in str(fetched.value.to_json())
    file = mesh.fetch("Acme/content/Annual Report 2024.md")
    assert (file.kind, file.value) == ("file", TEXT)


def test_summary_is_at_most_280_characters_then_ellipsis():
    """The extractive summary keeps at most 280 characters of text and then adds '…'."""
    summary = extractive_summary(TEXT)
    assert summary.endswith("…") and len(summary) - 1 <= SUMMARY_LIMIT
    assert TEXT.startswith(summary[:-1])
    assert extractive_summary("Short  text\n here.") == "Short text here."


def test_encoded_and_decomposed_names_find_the_file():
    """A percent-encoded request and a decomposed (NFD) upload both reach the same file."""
    mesh, collection = make_collection()
    collection.upload(unicodedata.normalize("NFD", "Résumé 2024.md"), b"cv")
    assert mesh.fetch("Acme/content/R%C3%A9sum%C3%A9%202024.md").value == "cv"
    assert mesh.fetch("Acme/content/Résumé 2024.md").value == "cv"


def test_string_rule_path_is_not_found_for_a_name_with_spaces():
    """Replacing /_Documents/ with / points at a file that does not exist when the name had spaces."""
    mesh, collection = make_collection()
    collection.upload("Annual Report 2024.md", TEXT.encode())
    with pytest.raises(FileNotFound, match="^File 'Annual-Report-2024.md' not found in collection 'content'$"):
        mesh.fetch("Acme/content/Annual-Report-2024.md")


def test_collection_not_found_and_listing():
    """An unknown collection uses the framework's message; the collection root lists its files."""
    mesh, collection = make_collection()
    collection.upload("b.md", b"b")
    collection.upload("a.md", b"a")
    with pytest.raises(CollectionNotFound, match="^Content collection 'reports' not found$"):
        mesh.fetch("Acme/content/reports/a.md")
    assert [f["filePath"] for f in mesh.fetch("Acme/content/").value] == ["a.md", "b.md"]


def test_nested_file_needs_the_doubled_form():
    """A file in a sub-folder of 'content' is reached only through Node/content/content/Sub/file."""
    mesh, collection = make_collection()
    collection.upload("2024/notes.md", b"nested")
    assert mesh.fetch("Acme/content/content/2024/notes.md").value == "nested"
    with pytest.raises(CollectionNotFound, match="'2024'"):
        mesh.fetch("Acme/content/2024/notes.md")


@pytest.mark.parametrize("file_path, data, error, fragment", [
    ("broken.pdf", b"%PDF-1.7 truncated", UnreadableDocument, "cannot be read"),
    ("empty.pdf", b"", UnreadableDocument, "is empty"),
    ("tool.exe", b"MZ\x00", NoTransformer, "No content transformer for extension '.exe'"),
    ("../escape.md", b"x", PathTraversal, "would leave collection 'Acme/content'"),
    ("a/%2e%2e/%2E%2E/escape.md", b"x", PathTraversal, "would leave collection 'Acme/content'"),
])
def test_bad_uploads_leave_nothing_behind(file_path, data, error, fragment):
    """A file that cannot be read, or a path that escapes, writes no file, no node and no chunks."""
    mesh, collection = make_collection()
    with pytest.raises(error, match=fragment.replace("(", "\\(").replace(")", "\\)")):
        collection.upload(file_path, data)
    assert [n.path for n in mesh.nodes()] == ["Acme"]
    assert collection.listing() == []
    assert mesh.index.pending == 1  # only the Acme node's own write


def test_slug_collision_is_refused():
    """Two names that slug alike cannot share one Document node; the first file stays intact."""
    mesh, collection = make_collection()
    collection.upload("Annual Report 2024.md", b"one")
    with pytest.raises(DocumentSlugCollision, match="rename one of them"):
        collection.upload("Annual-Report 2024.md", b"two")
    assert mesh.fetch("Acme/content/Annual Report 2024.md").value == "one"
    assert len(collection.listing()) == 1


def test_reupload_replaces_and_versions():
    """Uploading the same path again replaces the text and bumps the Document node's version."""
    mesh, collection = make_collection()
    collection.upload("a.md", b"old")
    node = collection.upload("a.md", b"new")
    assert node.version == 2 and mesh.fetch("Acme/content/a.md").value == "new"


def test_delete_file_removes_node_and_text():
    """Deleting a file removes its Document node as well."""
    mesh, collection = make_collection()
    node = collection.upload("a.md", b"x")
    collection.delete("a.md")
    assert not mesh.exists(node.path)
    with pytest.raises(FileNotFound):
        collection.read_text("a.md")


def test_deleting_the_owner_drops_its_collections():
    """Deleting the node that owns a collection removes the collection too."""
    mesh, collection = make_collection()
    collection.upload("a.md", b"x")
    mesh.delete(["Acme"])
    assert mesh.collections == {}


def test_missing_document_node_is_not_found():
    """Get on a Document path that was never written says the node is not found."""
    mesh, _ = make_collection()
    with pytest.raises(NodeNotFound, match="Node 'Acme/content/_Documents/x.md' not found"):
        mesh.fetch("Acme/content/_Documents/x.md")


@pytest.mark.parametrize("name", ["..", "%2e%2e", "_Documents", "%5fDocuments", "a/b"])
def test_collection_name_is_judged_after_decoding(name):
    """A collection name that decodes to '..', '_Documents' or two segments is refused, and no collection is added."""
    mesh = Mesh()
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    with pytest.raises(PathError, match="must be one path segment"):
        mesh.add_collection("Acme", name)
    assert mesh.collections == {}
