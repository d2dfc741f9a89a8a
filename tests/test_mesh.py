"""Tests for agentkit/_mesh.py beyond the pages: extensions (strict mode, bulk create), JSON repair and merge
patch, EditContent, the stores' dot-dot reads. The node operations as the framework answers them (M2-M14, N6,
H1) are checked by snippets/mesh_plugin_0[1-4]*.py."""

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


def fact(node_id="rev-FY2024-1", **content) -> dict:
    return {"id": f"Acme/{node_id}", "name": "Revenue FY2024", "nodeType": "Fact",
            "content": {"$type": "Fact", "item": "rev", "period": "FY2024", "value": 4812.3, **content}}


def paths(mesh: Mesh) -> list[str]:
    return [node.path for node in mesh.nodes()]


def test_strict_mode_extension_refuses_content_without_its_type():
    """Extension: strict mode refuses content with no $type (dropped and unregistered fields, nothing written, off by
    default: snippets/mesh_plugin_02_create.py, mesh.create-strict-extension)."""
    mesh = make_mesh(strict=True)
    with pytest.raises(StrictContentError, match="content \\$type is missing"):
        mesh.create(fact("x") | {"content": {"value": 1}})
    assert paths(mesh) == ["Acme"]


def test_patch_merges_content_as_rfc_7396():
    """M11's content merge: objects merge key by key at every depth, null removes, an array or any other value
    replaces (node-level keys, a null removed, the version: snippets/mesh_plugin_01_tools.py, mesh.patch-node-level)."""
    assert merge_patch({"a": {"b": 1, "c": 2}, "tags": ["draft"]}, {"a": {"c": None, "d": 3}, "tags": ["final"]}) == \
        {"a": {"b": 1, "d": 3}, "tags": ["final"]}
    assert merge_patch({"a": 1}, ["x"]) == ["x"]


def test_strict_patch_judges_content_only_when_it_patches_content():
    """Extension: strict mode refuses untyped content a Patch writes, not a Patch of the name of such a node."""
    mesh = make_mesh()
    mesh.create({"id": "Acme/loose", "name": "Loose", "nodeType": "Note", "content": {"text": "x"}})
    assert mesh.patch("Acme/loose", {"name": "Tight"}, strict=True).node.name == "Tight"
    with pytest.raises(StrictContentError, match="content \\$type is missing"):
        mesh.patch("Acme/loose", {"content": {"text": "y"}}, strict=True)
    assert mesh.get("Acme/loose").content == {"text": "x"}


def test_edit_content_refuses_structured_content():
    """EditContent edits text only (a unique match or replaceAll: snippets/mesh_plugin_01_tools.py, mesh.minimal-tools)."""
    mesh = make_mesh()
    mesh.create(fact())
    with pytest.raises(CreateError, match="its content is Fact, not editable text"):
        mesh.edit_content("Acme/rev-FY2024-1", "rev", "x")


def test_move_or_copy_of_a_collection_owner_is_refused_and_changes_nothing():
    """agentkit does not model carrying a collection: copying its owner is refused, all intact (moving it:
    snippets/mesh_plugin_01_tools.py, mesh.move-copy-refuse-collections)."""
    mesh = make_mesh()
    mesh.add_collection("Acme").upload("a.md", b"revenue", index=True)
    mesh.refresh_index()
    before = [node.to_json() for node in mesh.nodes()]
    with pytest.raises(PathError, match="cannot copy: 'Acme' owns content collection 'Acme/content'"):
        mesh.copy("Acme", "Beta")
    assert [node.to_json() for node in mesh.nodes()] == before and mesh.index.pending == 0


def test_content_type_refuses_unknown_kinds():
    """Declaring a field with an unknown JSON kind fails at registration."""
    with pytest.raises(ValueError, match="unknown field kind"):
        ContentType("Bad", {"x": "decimal"})


# -- host wiring: the content store (N8, N9) and a partition guard (H1) ----------------------------------


def filed(**options) -> Mesh:
    """Two nodes with a collection each; their files kept as folders of one tree (`{node}/{collection}`)."""
    mesh = make_mesh(**options)
    mesh.create({"id": "Other", "name": "Other", "nodeType": "Company"})
    mesh.add_collection("Acme").upload("sub/notes.md", b"notes")
    mesh.add_collection("Other").upload("secret.md", b"secret")
    return mesh


@pytest.mark.parametrize("store", CONTENT_STORES)
def test_both_stores_resolve_dot_dot_when_they_read_a_file(store):
    """N8, N9: '..' and '.' are joined to the collection's folder (FileSystem) or blob prefix (AzureBlob) and resolved
    inside it (into another node's collection on both stores: snippets/unified_path_01_shapes.py,
    unified-path.dot-dot-azure-blob, unified-path.dot-dot-file-system)."""
    mesh = filed(content_store=store)
    assert mesh.fetch("Acme/content/sub/../sub/notes.md").value == "notes"
    assert mesh.fetch("Acme/content/./sub/notes.md").value == "notes"


def test_file_system_names_the_key_as_sent_when_dot_dot_reaches_no_file():
    """N8, S1: a key that climbs out of the collection to no file, or to the collection's own folder, is the file's
    error under the key as sent, never where it led."""
    mesh = filed()
    for key in ("../../Nowhere/content/x.md", ".."):
        with pytest.raises(FileNotFound, match=f"^Error: File '{re.escape(key)}' not found in collection 'content'$"):
            mesh.fetch(f"Acme/content/{key}")


def test_azure_blob_lists_the_prefix_as_sent_so_a_key_with_dot_dot_lists_as_empty():
    """N9, S1: the listing's prefix is a query parameter, not resolved: no blob name starts with '..'."""
    mesh = filed(content_store="AzureBlob")
    mesh.collections["Other/content"].upload("broken.pdf", b"%PDF-1.7 cut")
    for path in ("Acme/content/../content/sub", "Acme/content/../../../x.md", "Acme/content/../../Nowhere/content/x.md",
                 "Acme/content/../../Other/content/broken.pdf"):
        assert mesh.fetch(path) == Fetched("collection", []), path
    with pytest.raises(FileNotFound):  # one segment is read as a file only (S1)
        mesh.fetch("Acme/content/..")


def test_file_system_names_the_key_as_sent_when_the_file_it_reaches_is_unreadable():
    """N8, C3: a damaged PDF reached through '..' is reported under the path the caller gave (on AzureBlob the
    listing that follows any failed read answers [], S1)."""
    mesh = filed()
    mesh.collections["Other/content"].upload("broken.pdf", b"%PDF-1.7 cut")
    with pytest.raises(UnreadableDocument, match=r"^Error: Error accessing file '\.\./\.\./Other/content/broken\.pdf' from "
                                        r"collection 'content': "):
        mesh.fetch("Acme/content/../../Other/content/broken.pdf")


def test_a_stamped_node_is_the_node_replaced_with_its_stamps():
    """Node.stamped, which every write calls, builds what dataclasses.replace builds, every field set."""
    from dataclasses import fields, replace

    from agentkit._node import Node

    node = Node("rev", "Acme/Facts", "Revenue", "Fact", {"value": 1}, "c", "i", 3, 4, "old", True, "d", "<p>", "m", "then")
    assert all(getattr(node, f.name) != f.default for f in fields(Node))  # every field away from its default
    stamped = node.stamped("2025-01-01T00:00:05Z", "2025-01-01T00:00:01Z")
    assert stamped == replace(node, last_modified="2025-01-01T00:00:05Z", created_date="2025-01-01T00:00:01Z")
    assert type(stamped) is Node and vars(stamped).keys() == vars(node).keys() and node.last_modified == "old"
