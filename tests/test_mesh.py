"""agentkit/_mesh.py beyond snippets/mesh_plugin_0[1-4]*.py (M2-M14, N6, H1): strict mode, merge patch, the stores'
dot-dot reads."""

from __future__ import annotations

import re

import pytest

from agentkit import ContentType, CreateError, Mesh, PathError
from agentkit._errors import (
    FileNotFound, UnreadableDocument, StrictContentError,
)
from agentkit._collections import CONTENT_STORES
from agentkit._json import merge_patch
from agentkit._mesh_reads import Fetched
from tests.mesh_state import NODE_TYPES

FACT = ContentType("Fact", {"item": "string", "period": "string", "value": "number"})


def make_mesh(**options) -> Mesh:
    mesh = Mesh(node_types=set(NODE_TYPES), **options)
    mesh.register_type(FACT)
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    return mesh


def fact(node_id="rev-FY2024-1") -> dict:
    return {"id": f"Acme/{node_id}", "name": "Revenue FY2024", "nodeType": "Fact",
            "content": {"$type": "Fact", "item": "rev", "period": "FY2024", "value": 4812.3}}


def test_patch_merges_content_as_rfc_7396():
    """M11's content merge at every depth (node-level keys: snippets/mesh_plugin_01_tools.py, mesh.patch-node-level)."""
    assert merge_patch({"a": {"b": 1, "c": 2}, "tags": ["draft"]}, {"a": {"c": None, "d": 3}, "tags": ["final"]}) == \
        {"a": {"b": 1, "d": 3}, "tags": ["final"]}
    assert merge_patch({"a": 1}, ["x"]) == ["x"]


def test_strict_mode_extension_refuses_content_without_its_type():
    """On Create, and on a Patch that writes content (dropped and unregistered fields, off by default:
    snippets/mesh_plugin_02_create.py, mesh.create-strict-extension)."""
    mesh = make_mesh(strict=True)
    with pytest.raises(StrictContentError, match="content \\$type is missing"):
        mesh.create(fact("x") | {"content": {"value": 1}})
    assert [node.path for node in mesh.nodes()] == ["Acme"]
    mesh = make_mesh()
    mesh.create({"id": "Acme/loose", "name": "Loose", "nodeType": "Note", "content": {"text": "x"}})
    assert mesh.patch("Acme/loose", {"name": "Tight"}, strict=True).node.name == "Tight"
    with pytest.raises(StrictContentError, match="content \\$type is missing"):
        mesh.patch("Acme/loose", {"content": {"text": "y"}}, strict=True)
    assert mesh.get("Acme/loose").content == {"text": "x"}


@pytest.mark.parametrize("refused, error, message", [
    # EditContent edits text only (editing it: snippets/mesh_plugin_01_tools.py, mesh.minimal-tools)
    (lambda mesh: mesh.edit_content("Acme/rev-FY2024-1", "rev", "x"), CreateError,
     "its content is Fact, not editable text"),
    # agentkit does not model carrying a collection (a move: snippets/mesh_plugin_01_tools.py)
    (lambda mesh: mesh.copy("Acme", "Beta"), PathError, "cannot copy: 'Acme' owns content collection 'Acme/content'"),
], ids=["edit structured content", "copy a collection owner"])
def test_a_refused_edit_or_copy_changes_nothing(refused, error, message):
    mesh = make_mesh()
    mesh.create(fact())
    mesh.add_collection("Acme").upload("a.md", b"revenue", index=True)
    mesh.refresh_index()
    before = [node.to_json() for node in mesh.nodes()]
    with pytest.raises(error, match=message):
        refused(mesh)
    assert [node.to_json() for node in mesh.nodes()] == before and mesh.index.pending == 0


def test_content_type_refuses_unknown_kinds():
    with pytest.raises(ValueError, match="unknown field kind"):
        ContentType("Bad", {"x": "decimal"})


def filed(**options) -> Mesh:
    """Two nodes with a collection each, kept as folders of one tree (`{node}/{collection}`)."""
    mesh = make_mesh(**options)
    mesh.create({"id": "Other", "name": "Other", "nodeType": "Company"})
    mesh.add_collection("Acme").upload("sub/notes.md", b"notes")
    mesh.add_collection("Other").upload("secret.md", b"secret")
    mesh.collections["Other/content"].upload("broken.pdf", b"%PDF-1.7 cut")
    return mesh


@pytest.mark.parametrize("store", CONTENT_STORES)
def test_both_stores_resolve_dot_dot_when_they_read_a_file(store):
    """N8, N9: '.' too ('..' on both stores: snippets/unified_path_01_shapes.py, unified-path.dot-dot-azure-blob,
    unified-path.dot-dot-file-system)."""
    assert filed(content_store=store).fetch("Acme/content/./sub/notes.md").value == "notes"


@pytest.mark.parametrize("key, error, text", [
    ("../../Nowhere/content/x.md", FileNotFound,
     "Error: File '../../Nowhere/content/x.md' not found in collection 'content'"),
    ("..", FileNotFound, "Error: File '..' not found in collection 'content'"),  # the collection's own folder
    # N8, C3: the opening of the error (on AzureBlob the listing that follows a failed read answers [], S1)
    ("../../Other/content/broken.pdf", UnreadableDocument,
     "Error: Error accessing file '../../Other/content/broken.pdf' from collection 'content': "),
])
def test_file_system_names_the_key_as_sent_when_dot_dot_reaches_no_file(key, error, text):
    """N8, S1: the file's error under the key as sent, never where it led."""
    with pytest.raises(error, match="^" + re.escape(text) + ("" if error is UnreadableDocument else "$")):
        filed().fetch(f"Acme/content/{key}")


def test_azure_blob_lists_the_prefix_as_sent_so_a_key_with_dot_dot_lists_as_empty():
    """N9, S1: the listing's prefix is a query parameter: no blob name starts with '..'."""
    mesh = filed(content_store="AzureBlob")
    for path in ("Acme/content/../content/sub", "Acme/content/../../../x.md", "Acme/content/../../Nowhere/content/x.md",
                 "Acme/content/../../Other/content/broken.pdf"):
        assert mesh.fetch(path) == Fetched("collection", []), path
    with pytest.raises(FileNotFound):  # one segment is read as a file only (S1)
        mesh.fetch("Acme/content/..")


def test_a_stamped_node_is_the_node_replaced_with_its_stamps():
    """Node.stamped, which every write calls, builds what dataclasses.replace builds."""
    from dataclasses import fields, replace

    from agentkit._node import Node

    node = Node("rev", "Acme/Facts", "Revenue", "Fact", {"value": 1}, "c", "i", 3, 4, "old", True, "d", "<p>", "m", "then")
    assert all(getattr(node, f.name) != f.default for f in fields(Node))  # every field away from its default
    stamped = node.stamped("2025-01-01T00:00:05Z", "2025-01-01T00:00:01Z")
    assert stamped == replace(node, last_modified="2025-01-01T00:00:05Z", created_date="2025-01-01T00:00:01Z")
    assert type(stamped) is Node and vars(stamped).keys() == vars(node).keys() and node.last_modified == "old"
