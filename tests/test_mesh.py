"""Tests for agentkit/_mesh.py: typed content, the Create rules and node operations."""

from __future__ import annotations

import pytest

from agentkit import (
    CollectionNotFound, ContentType, CreateError, InvalidJson, MalformedNamespace, Mesh, MissingField, NodeExists,
    NodeNotFound, PathError, SchemaMismatch, StrictContentError, merge_patch,
)

FACT = ContentType("Fact", {"item": "string", "period": "string", "value": "number", "tags": "array"})


def make_mesh(**options) -> Mesh:
    mesh = Mesh(**options)
    mesh.register_type(FACT)
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    return mesh


def fact(node_id="rev-FY2024-1", **content) -> dict:
    return {"id": f"Acme/{node_id}", "name": "Revenue FY2024", "nodeType": "Fact",
            "content": {"$type": "Fact", "item": "rev", "period": "FY2024", "value": 4812.3, **content}}


def test_create_returns_the_framework_text_and_splits_the_id():
    """An id with slashes becomes namespace + id; the result reads 'Created: {path}'."""
    mesh = make_mesh()
    result = mesh.create(fact())
    assert result.message == "Created: Acme/rev-FY2024-1"
    node = mesh.get("Acme/rev-FY2024-1")
    assert (node.namespace, node.id, node.typed) == ("Acme", "rev-FY2024-1", True)


@pytest.mark.parametrize("missing, opening", [
    ("id", "Error: cannot create: 'id' is not set"),
    ("nodeType", "Error: cannot create: 'nodeType' is not set"),
    ("name", "Error: cannot create: 'name' is not set"),
])
def test_missing_required_fields_use_the_framework_openings(missing, opening):
    """A node without id, nodeType or name is refused with the framework's wording and not written."""
    mesh = make_mesh()
    node = fact()
    del node[missing]
    with pytest.raises(MissingField) as error:
        mesh.create(node)
    assert str(error.value).startswith(opening)
    assert [n.path for n in mesh.nodes()] == ["Acme"]


def test_invalid_json_opening_and_tip():
    """Malformed JSON is refused with 'Invalid JSON:' and a tip about quoting."""
    mesh = make_mesh()
    with pytest.raises(InvalidJson) as error:
        mesh.create("{'id': 'x', 'name': 'y'}")
    assert str(error.value).startswith("Invalid JSON: Expecting property name enclosed in double quotes")
    assert "double-quoted keys" in str(error.value)
    with pytest.raises(InvalidJson, match="must be one JSON object"):
        mesh.create("[1, 2]")


def test_malformed_namespace_is_named():
    """A namespace with a bad segment is refused with the framework's opening."""
    mesh = make_mesh()
    with pytest.raises(MalformedNamespace) as error:
        mesh.create({"id": "x", "namespace": "Acme/bad seg", "name": "X", "nodeType": "Fact"})
    assert str(error.value).startswith("Error: cannot create: namespace 'Acme/bad seg' is malformed")


def test_bad_id_is_refused():
    """An id that is not a slug is refused, naming it."""
    with pytest.raises(CreateError, match="id 'rev 2024' is not a slug"):
        make_mesh().create({"id": "rev 2024", "name": "X", "nodeType": "Fact"})


def test_unknown_fields_are_dropped_silently_but_reported():
    """A misspelled field vanishes without error; the result names it; typed views miss the value."""
    mesh = make_mesh()
    node = fact()
    node["content"] = {"$type": "Fact", "item": "rev", "period": "FY2024", "amount": 4812.3}
    result = mesh.create(node)
    assert result.message == "Created: Acme/rev-FY2024-1"
    assert result.dropped_fields == ("amount",)
    assert mesh.typed_view(result.path) == {"item": "rev", "period": "FY2024"}


def test_strict_mode_refuses_dropped_fields_and_writes_nothing():
    """Strict mode names each field the framework would drop, and creates nothing."""
    mesh = make_mesh(strict=True)
    node = fact(amount=1.0, unit="EUR m")
    with pytest.raises(StrictContentError, match="'amount', 'unit' are not part of \\$type 'Fact'"):
        mesh.create(node)
    assert not mesh.exists("Acme/rev-FY2024-1")


def test_missing_or_unregistered_type_leaves_untyped_content():
    """Without a registered $type the content is stored untyped and renders empty in typed views."""
    mesh = make_mesh()
    unregistered = fact()
    unregistered["content"]["$type"] = "Facts"
    path = mesh.create(unregistered).path
    assert mesh.get(path).content["value"] == 4812.3
    assert mesh.typed_view(path) == {}
    with pytest.raises(StrictContentError, match="'Facts' is not registered.*Registered types: Document, Fact"):
        mesh.create(fact("rev-FY2023-1") | {"content": {"$type": "Facts"}}, strict=True)
    with pytest.raises(StrictContentError, match="content \\$type is missing"):
        mesh.create(fact("rev-FY2023-1") | {"content": {"value": 1}}, strict=True)
    assert not mesh.exists("Acme/rev-FY2023-1")


def test_wrong_shape_for_a_known_field_fails():
    """Only a known field with the wrong JSON shape is an error, and nothing is written."""
    mesh = make_mesh()
    with pytest.raises(SchemaMismatch) as error:
        mesh.create(fact(value="4,812.3"))
    assert str(error.value).startswith("Content does not match the schema for NodeType 'Fact'")
    assert "field 'value'" in str(error.value)
    assert not mesh.exists("Acme/rev-FY2024-1")
    with pytest.raises(SchemaMismatch, match="expects number, got boolean"):
        mesh.create(fact(value=True))


def test_create_on_an_existing_path_collides():
    """Re-creating a deterministic id collides instead of duplicating."""
    mesh = make_mesh()
    mesh.create(fact())
    with pytest.raises(NodeExists, match="already exists at 'Acme/rev-FY2024-1'"):
        mesh.create(fact())


def test_update_replaces_whole_nodes_and_checks_all_first():
    """Update needs content, replaces it entirely, and writes nothing if any item is bad."""
    mesh = make_mesh()
    mesh.create(fact())
    replacement = fact(tags=["audited"])
    replacement["content"] = {"$type": "Fact", "item": "rev", "tags": ["audited"]}
    with pytest.raises(MissingField, match="has no 'content'"):
        mesh.update([replacement, {"id": "Acme/rev-FY2024-1", "name": "x", "nodeType": "Fact"}])
    assert mesh.get("Acme/rev-FY2024-1").content["value"] == 4812.3
    [updated] = mesh.update([replacement])
    assert updated.node.version == 2
    assert mesh.get("Acme/rev-FY2024-1").content == {"$type": "Fact", "item": "rev", "tags": ["audited"]}
    with pytest.raises(NodeNotFound, match="no node at 'Acme/missing'"):
        mesh.update([fact("missing")])


def test_patch_is_an_rfc7396_merge():
    """Patch merges nested objects, replaces arrays and removes fields set to null."""
    mesh = make_mesh()
    mesh.create(fact(tags=["draft"]))
    mesh.patch("Acme/rev-FY2024-1", '{"value": 4900.0, "tags": ["final"], "period": null}')
    assert mesh.get("Acme/rev-FY2024-1").content == {"$type": "Fact", "item": "rev", "value": 4900.0, "tags": ["final"]}
    assert merge_patch({"a": {"b": 1, "c": 2}}, {"a": {"c": None, "d": 3}}) == {"a": {"b": 1, "d": 3}}
    assert merge_patch({"a": 1}, ["x"]) == ["x"]


def test_delete_is_recursive_and_all_or_nothing():
    """Delete removes a node with its subtree; an unknown path refuses the whole call."""
    mesh = make_mesh()
    mesh.create(fact())
    with pytest.raises(NodeNotFound):
        mesh.delete(["Acme/rev-FY2024-1", "Acme/nope"])
    assert mesh.exists("Acme/rev-FY2024-1")
    assert mesh.delete('["Acme"]') == ["Acme", "Acme/rev-FY2024-1"]
    assert mesh.nodes() == []


def test_children_listing_shape_and_order():
    """`path/*` lists direct children as {path, name, nodeType, icon}, by order then path."""
    mesh = make_mesh()
    mesh.create(fact("b") | {"order": 2})
    mesh.create(fact("a") | {"order": 1, "icon": "Chart"})
    assert mesh.fetch("Acme/*").value == [
        {"path": "Acme/a", "name": "Revenue FY2024", "nodeType": "Fact", "icon": "Chart"},
        {"path": "Acme/b", "name": "Revenue FY2024", "nodeType": "Fact", "icon": None},
    ]


def test_move_and_copy_carry_the_subtree():
    """Move relocates a subtree, Copy duplicates it; neither overwrites an existing node."""
    mesh = make_mesh()
    mesh.create(fact())
    mesh.create({"id": "Beta", "name": "Beta", "nodeType": "Company"})
    assert mesh.copy("Acme", "Gamma") == [("Acme", "Gamma"), ("Acme/rev-FY2024-1", "Gamma/rev-FY2024-1")]
    assert mesh.get("Gamma/rev-FY2024-1").content["value"] == 4812.3
    with pytest.raises(NodeExists):
        mesh.move("Acme", "Beta")
    mesh.move("Gamma", "Beta/Gamma")
    assert not mesh.exists("Gamma") and mesh.exists("Beta/Gamma/rev-FY2024-1")


def test_move_or_copy_of_a_collection_owner_is_refused_and_changes_nothing():
    """Moving a collection's owner (or one of its Document nodes) or copying the owner is refused, all intact."""
    mesh = make_mesh()
    mesh.add_collection("Acme").upload("a.md", b"revenue")
    mesh.refresh_index()
    before = [node.to_json() for node in mesh.nodes()]
    with pytest.raises(PathError, match="^Error: cannot move: 'Acme' owns content collection 'Acme/content'"):
        mesh.move("Acme", "Beta")
    with pytest.raises(PathError, match="cannot copy: 'Acme' owns content collection 'Acme/content'"):
        mesh.copy("Acme", "Beta")
    with pytest.raises(PathError, match="cannot move: 'Acme/content/_Documents/a.md' belongs to content collection"):
        mesh.move("Acme/content/_Documents/a.md", "Acme/b")
    assert [node.to_json() for node in mesh.nodes()] == before and mesh.index.pending == 0
    assert mesh.fetch("Acme/content/a.md").value == "revenue"


def test_bulk_create_is_per_item():
    """create_many (an agentkit extension) creates each valid item and reports each bad one."""
    mesh = make_mesh()
    outcomes = mesh.create_many([fact("a"), {"id": "Acme/b", "nodeType": "Fact"}, fact("c")])
    assert [getattr(o, "message", str(o))[:29] for o in outcomes] == [
        "Created: Acme/a", "Error: cannot create: 'name' ", "Created: Acme/c"]
    assert not mesh.exists("Acme/b")


def test_clock_is_deterministic():
    """lastModified comes from a step clock, so two identical runs stamp identical times."""
    first, second = make_mesh(), make_mesh()
    created = first.create(fact()).node
    assert created.last_modified == second.create(fact()).node.last_modified == "2025-01-01T00:00:02Z"
    assert first.get("Acme/rev-FY2024-1") == created


def test_update_and_patch_return_the_node_as_stored():
    """The node an Update or Patch returns carries the stored version and timestamp, not a pre-write draft."""
    mesh = make_mesh()
    mesh.create(fact())
    updated = mesh.update([fact(value=1.0)])[0].node
    assert updated == mesh.get("Acme/rev-FY2024-1") and updated.version == 2 and updated.last_modified
    patched = mesh.patch("Acme/rev-FY2024-1", {"value": 2.0}).node
    assert patched == mesh.get("Acme/rev-FY2024-1") and patched.version == 3


def test_content_type_refuses_unknown_kinds():
    """Declaring a field with an unknown JSON kind fails at registration."""
    with pytest.raises(ValueError, match="unknown field kind"):
        ContentType("Bad", {"x": "decimal"})


def test_missing_child_or_collection_messages():
    """'Node/Word' that is neither a node nor a collection is a missing node; 'Node/Word/' a missing collection."""
    mesh = make_mesh()
    with pytest.raises(NodeNotFound, match="^Node 'Acme/Facts' not found$"):
        mesh.fetch("Acme/Facts")
    with pytest.raises(CollectionNotFound, match="^Content collection 'Facts' not found$"):
        mesh.fetch("Acme/Facts/")
