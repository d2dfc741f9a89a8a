"""Tests for agentkit/_mesh.py: the node operations as MeshOperations behaves at the pinned commit (M2-M14)."""

from __future__ import annotations

import pytest

from agentkit import ContentType, CreateError, Mesh, NodeNotFound, PathError
from agentkit._errors import (
    FileNotFound, UnreadableDocument, InvalidJson, MalformedNamespace, MissingField, NodeExists, NotPatchable, SchemaMismatch, StrictContentError,
    UnregisteredDiscriminator,
)
from agentkit._collections import CONTENT_STORES
from agentkit._json import merge_patch, repair_json
from agentkit._mesh_reads import Fetched
from tests.mesh_state import NODE_TYPES

FACT = ContentType("Fact", {"item": "string", "period": "string", "value": "number", "tags": "array"})


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


def test_create_answers_created_and_splits_the_id_at_its_last_slash():
    """M9, M5: 'Created: {path}'; an id with '/' splits at the last '/', joined to a given namespace."""
    mesh = make_mesh()
    assert mesh.create(fact()).message == "Created: Acme/rev-FY2024-1"
    node = mesh.get("Acme/rev-FY2024-1")
    assert (node.namespace, node.id, node.typed) == ("Acme", "rev-FY2024-1", True)
    created = mesh.create({"id": "Sub/leaf", "namespace": "@/Acme", "name": "Leaf", "nodeType": "Folder"})
    assert created.path == "Acme/Sub/leaf"  # the namespace loses '@' and a leading '/'


def test_identity_checks_run_in_the_framework_order_with_its_texts():
    """M5: id, then nodeType, then name, then namespace; the later messages name the path (the namespace one the id)."""
    mesh = make_mesh()
    with pytest.raises(MissingField) as no_id:
        mesh.create({"nodeType": "", "name": ""})
    assert str(no_id.value).startswith("Error: cannot create: 'id' is not set. The id is the node's own slug")
    with pytest.raises(MissingField) as no_type:
        mesh.create({"id": "Acme/x", "name": ""})
    assert str(no_type.value).startswith("Error: cannot create 'Acme/x': 'nodeType' is not set. Every node must declare")
    with pytest.raises(MissingField) as no_name:
        mesh.create({"id": "Acme/x", "nodeType": "Fact", "name": "  "})
    assert str(no_name.value).startswith("Error: cannot create 'Acme/x': 'name' is not set. Provide a non-empty")
    with pytest.raises(MalformedNamespace) as bad_namespace:
        mesh.create({"id": "x", "namespace": "Acme//Sub", "name": "X", "nodeType": "Fact"})
    assert str(bad_namespace.value).startswith("Error: cannot create 'x': namespace 'Acme//Sub' is malformed.")
    with pytest.raises(MalformedNamespace):
        mesh.create({"id": "x", "namespace": "Acme/", "name": "X", "nodeType": "Fact"})
    assert paths(mesh) == ["Acme"]


def test_only_a_trailing_or_double_slash_makes_a_namespace_malformed():
    """M5: blanks or other characters in a namespace or id are not refused."""
    mesh = make_mesh()
    assert mesh.create({"id": "rev 2024", "namespace": "Acme/Key figures", "name": "R", "nodeType": "Fact"}).path == \
        "Acme/Key figures/rev 2024"


def test_create_repairs_json_by_cutting_to_the_longest_parseable_prefix():
    """M4: text after the last parseable '}' or ']' is lost without a word; only unrepairable text is refused."""
    mesh = make_mesh()
    answer = mesh.create('{"id": "Acme/a", "name": "A", "nodeType": "Fact"}, {"id": "Acme/b", "name": "B", "nodeType": "Fact"}')
    assert answer.message == "Created: Acme/a" and not mesh.exists("Acme/b")
    assert repair_json('{"a": 1} trailing') == '{"a": 1}' and repair_json('{"a": [1]') == '{"a": [1]'
    with pytest.raises(InvalidJson) as error:
        mesh.create("{'id': 'x', 'name': 'y'}")
    assert str(error.value).startswith("Invalid JSON: ")
    assert str(error.value).endswith(
        ". Tip: ensure all quotes and special characters in markdown content are properly escaped for JSON strings.")


def test_unknown_fields_are_dropped_silently_but_reported():
    """M7: a misspelled field vanishes without error; agentkit's result names it; typed views miss the value."""
    mesh = make_mesh()
    node = fact()
    node["content"] = {"$type": "Fact", "item": "rev", "period": "FY2024", "amount": 4812.3}
    result = mesh.create(node)
    assert result.message == "Created: Acme/rev-FY2024-1"
    assert result.dropped_fields == ("amount",)
    assert mesh.typed_view(result.path) == {"item": "rev", "period": "FY2024"}


def test_strict_mode_extension_refuses_dropped_fields_and_writes_nothing():
    """Extension: strict mode names each field the framework would drop, and creates nothing."""
    mesh = make_mesh(strict=True)
    with pytest.raises(StrictContentError, match="'amount', 'unit' are not part of \\$type 'Fact'"):
        mesh.create(fact(amount=1.0, unit="EUR m"))
    with pytest.raises(StrictContentError, match="content \\$type is missing"):
        mesh.create(fact("x") | {"content": {"value": 1}})
    assert paths(mesh) == ["Acme"]
    assert Mesh(node_types=set(NODE_TYPES)).strict is False


def test_unregistered_type_is_refused_on_a_built_in_node_type_and_stored_untyped_otherwise():
    """M8: a string $type no registry resolves is refused on a built-in node type; elsewhere it is stored untyped."""
    mesh = make_mesh(builtin_node_types={"Fact"})
    with pytest.raises(UnregisteredDiscriminator) as refused:
        mesh.create(fact() | {"content": {"$type": "fact", "value": 1}})
    assert str(refused.value).startswith(
        "Error creating node: Content of 'Acme/rev-FY2024-1' carries the polymorphic discriminator '$type': 'fact', "
        "which is not a registered content type for the built-in NodeType 'Fact'")
    assert not mesh.exists("Acme/rev-FY2024-1")
    assert mesh.create(fact() | {"content": {"$type": "Acme.Types.Fact", "value": 1}}).node.typed  # 'A.B.T' as 'T'
    assert mesh.create(fact("untyped") | {"content": {"value": 1}}).node.typed is False  # no $type: accepted
    other = make_mesh()  # 'Fact' not built in: a DB-defined or compiled type
    stored = other.create(fact() | {"content": {"$type": "fact", "value": 1}}).node
    assert stored.typed is False and other.typed_view(stored.path) == {} and stored.content["value"] == 1


def test_update_keeping_the_stored_unregistered_type_is_accepted():
    """M8: an Update that keeps the $type the stored node has is not a new write of untypeable content."""
    mesh = make_mesh()
    mesh.create(fact() | {"content": {"$type": "Legacy", "value": 1}})
    mesh.builtin_node_types.add("Fact")
    [kept] = mesh.update([fact() | {"content": {"$type": "Legacy", "value": 2}}])
    assert kept.node.content == {"$type": "Legacy", "value": 2}
    [changed] = mesh.update([fact() | {"content": {"$type": "Other", "value": 3}}])
    assert str(changed).startswith("Error updating Acme/rev-FY2024-1: Content of 'Acme/rev-FY2024-1' carries")
    assert mesh.get("Acme/rev-FY2024-1").content["value"] == 2


def test_wrong_shape_for_a_known_field_fails_with_the_schema():
    """M6: where the node type registers a type of its own name, a wrong JSON kind is refused with the schema."""
    mesh = make_mesh()
    with pytest.raises(SchemaMismatch) as error:
        mesh.create(fact(value="4,812.3"))
    assert str(error.value).startswith("Error: Content does not match the schema for NodeType 'Fact'. ")
    assert "Expected content schema for NodeType 'Fact': {" in str(error.value)
    assert not mesh.exists("Acme/rev-FY2024-1")
    with pytest.raises(SchemaMismatch, match="expects number, got boolean"):
        mesh.create(fact(value=True))


def test_create_on_an_existing_path_answers_the_framework_text():
    """M9: re-creating a path is refused with 'Error creating node: Node already exists: {path}'."""
    mesh = make_mesh()
    mesh.create(fact())
    with pytest.raises(NodeExists) as error:
        mesh.create(fact(value=1.0))
    assert str(error.value) == "Error creating node: Node already exists: Acme/rev-FY2024-1"
    assert mesh.get("Acme/rev-FY2024-1").content["value"] == 4812.3


def test_update_replaces_whole_nodes_one_by_one():
    """M10: each node stands alone; null content and a missing node are that node's error line."""
    mesh = make_mesh()
    mesh.create(fact() | {"icon": "Chart"})
    replacement = fact()
    replacement["content"] = {"$type": "Fact", "item": "rev", "tags": ["audited"]}
    outcomes = mesh.update([{"id": "Acme/rev-FY2024-1", "name": "x", "nodeType": "Fact"}, replacement, fact("missing")])
    assert str(outcomes[0]).startswith("Error: cannot write Acme/rev-FY2024-1: 'content' is null. Fetch the node first")
    assert outcomes[1].node.version == 2 and outcomes[1].node.icon is None  # a field left out is gone
    assert str(outcomes[2]) == "Error updating Acme/missing: Node not found: Acme/missing"
    assert mesh.get("Acme/rev-FY2024-1").content == {"$type": "Fact", "item": "rev", "tags": ["audited"]}
    with pytest.raises(CreateError, match="^No nodes provided.$"):
        mesh.update("[]")


def test_patch_changes_node_level_keys_and_merges_only_content():
    """M11: 'name', 'icon', … replace; 'content' is an RFC 7396 merge; the answer's node is one version later."""
    mesh = make_mesh()
    mesh.create(fact(tags=["draft"]))
    patched = mesh.patch("Acme/rev-FY2024-1", '{"name": "Sales", "icon": "Chart", '
                                              '"content": {"value": 4900.0, "tags": ["final"], "period": null}}')
    assert (patched.node.name, patched.node.icon, patched.node.version) == ("Sales", "Chart", 2)
    assert patched.node.content == {"$type": "Fact", "item": "rev", "value": 4900.0, "tags": ["final"]}
    assert merge_patch({"a": {"b": 1, "c": 2}}, {"a": {"c": None, "d": 3}}) == {"a": {"b": 1, "d": 3}}
    assert merge_patch({"a": 1}, ["x"]) == ["x"]


def test_patch_refuses_what_it_cannot_apply_and_writes_nothing():
    """M11: other keys, content null, an empty name and a missing node are refused with the framework's texts."""
    mesh = make_mesh()
    mesh.create(fact())
    before = mesh.get("Acme/rev-FY2024-1")
    with pytest.raises(NotPatchable) as fields_key:
        mesh.patch("Acme/rev-FY2024-1", {"fields": {"value": 1}, "nodeType": "X"})
    assert str(fields_key.value).startswith(
        "Error: cannot patch Acme/rev-FY2024-1: 'fields', 'nodeType' are not patchable. Patchable fields: category, "
        "content, description, icon, mainNode, name, order, preRenderedHtml.")
    with pytest.raises(MissingField, match="^Error: cannot write Acme/rev-FY2024-1: 'content' is null. "):
        mesh.patch("Acme/rev-FY2024-1", {"content": None})
    with pytest.raises(MissingField, match="^Error: cannot patch Acme/rev-FY2024-1: 'name' is empty. "):
        mesh.patch("Acme/rev-FY2024-1", {"name": " "})
    with pytest.raises(NodeNotFound, match="^Error: node not found at Acme/nope. The path must be"):
        mesh.patch("Acme/nope", {"name": "x"})
    with pytest.raises(InvalidJson, match="^Error: fields must be a JSON object$"):
        mesh.patch("Acme/rev-FY2024-1", "[1]")
    assert mesh.get("Acme/rev-FY2024-1") == before


def test_strict_patch_judges_content_only_when_it_patches_content():
    """Extension: strict mode refuses untyped content a Patch writes, not a Patch of the name of such a node."""
    mesh = make_mesh()
    mesh.create({"id": "Acme/loose", "name": "Loose", "nodeType": "Note", "content": {"text": "x"}})
    assert mesh.patch("Acme/loose", {"name": "Tight"}, strict=True).node.name == "Tight"
    with pytest.raises(StrictContentError, match="content \\$type is missing"):
        mesh.patch("Acme/loose", {"content": {"text": "y"}}, strict=True)
    assert mesh.get("Acme/loose").content == {"text": "x"}


def test_patch_key_in_another_case_passes_the_check_and_changes_nothing():
    """The patchable set ignores case, the merge reads exact keys: 'Name' is accepted and not applied."""
    mesh = make_mesh()
    mesh.create(fact())
    assert mesh.patch("Acme/rev-FY2024-1", {"Name": "Sales"}).node.name == "Revenue FY2024"


def test_edit_content_replaces_an_exact_snippet_of_markdown():
    """EditContent: unique match required unless replaceAll; structured content is refused."""
    mesh = make_mesh()
    mesh.create({"id": "Acme/notes", "name": "Notes", "nodeType": "Markdown",
                 "content": {"$type": "MarkdownContent", "content": "a b a"}})
    with pytest.raises(CreateError, match="occurs 2 times in Acme/notes"):
        mesh.edit_content("Acme/notes", "a", "c")
    result, count = mesh.edit_content("Acme/notes", "a", "c", replace_all=True)
    assert count == 2 and result.node.content["content"] == "c b c"
    mesh.create(fact())
    with pytest.raises(CreateError, match="its content is Fact, not editable text"):
        mesh.edit_content("Acme/rev-FY2024-1", "rev", "x")


def test_delete_is_recursive():
    """M12: Delete removes a node with its subtree; the Python API refuses an unknown path before deleting."""
    mesh = make_mesh()
    mesh.create(fact())
    with pytest.raises(NodeNotFound, match="^Error deleting Acme/nope: Node not found: Acme/nope$"):
        mesh.delete(["Acme/rev-FY2024-1", "Acme/nope"])
    assert mesh.exists("Acme/rev-FY2024-1")
    assert mesh.delete('["Acme"]') == ["Acme", "Acme/rev-FY2024-1"]
    assert mesh.nodes() == []


def test_children_come_from_the_index_and_lag():
    """N6, M2: 'X/*' is a query: new children show only once indexed; the shape is {path, name, nodeType, icon}."""
    mesh = make_mesh()
    mesh.create(fact("b"))
    mesh.create(fact("a") | {"icon": "Chart"})
    assert mesh.children("Acme/*") == []
    mesh.refresh_index()
    assert mesh.children("Acme/*") == [
        {"path": "Acme/a", "name": "Revenue FY2024", "nodeType": "Fact", "icon": "Chart"},
        {"path": "Acme/b", "name": "Revenue FY2024", "nodeType": "Fact", "icon": None},
    ]
    assert mesh.children("Nowhere/*") == []


def test_search_envelope_follows_the_framework():
    """M3: basePath lists direct children unless a scope is given; truncated is count >= limit; hint only then."""
    mesh = make_mesh()
    mesh.create({"id": "Acme/Sub", "name": "Sub", "nodeType": "Folder"})
    mesh.create(fact("Sub/deep"))
    mesh.refresh_index()
    direct = mesh.search("", "Acme")
    assert [r["path"] for r in direct["results"]] == ["Acme/Sub"] and direct["truncated"] is False
    assert "hint" not in direct
    scoped = mesh.search("scope:descendants", "Acme")
    assert [r["path"] for r in scoped["results"]] == ["Acme/Sub", "Acme/Sub/deep"]
    full = mesh.search("", "Acme", limit=1)
    assert (full["count"], full["truncated"]) == (1, True) and full["hint"].startswith("Result set hit the limit")
    assert mesh.search("", None, limit=999)["limit"] == 200
    assert [r["path"] for r in mesh.search("namespace:Acme")["results"]] == ["Acme/Sub"]
    assert mesh.search("namespace:Zeta", "Acme")["count"] == 0  # with a basePath, 'namespace:Zeta' is the word 'Zeta'


def test_copy_keeps_ids_skips_existing_targets_and_reads_the_index():
    """M13: ids kept under the target namespace; existing targets skipped unless force; only indexed nodes copied."""
    mesh = make_mesh()
    mesh.create(fact() | {"order": 3})
    mesh.refresh_index()
    mesh.create(fact("late"))  # not indexed yet
    assert mesh.copy("Acme", "Archive") == 2
    assert paths(mesh) == ["Acme", "Acme/late", "Acme/rev-FY2024-1", "Archive/Acme", "Archive/Acme/rev-FY2024-1"]
    assert mesh.get("Archive/Acme/rev-FY2024-1").order is None  # Copy does not carry 'order'
    mesh.patch("Acme/rev-FY2024-1", {"content": {"value": 1.0}})
    assert mesh.copy("Acme", "Archive") == 0
    assert mesh.copy("Acme", "Archive", force=True) == 2
    assert mesh.get("Archive/Acme/rev-FY2024-1").content["value"] == 1.0
    with pytest.raises(NodeNotFound, match="^Error: Source node not found: Acme/late$"):
        mesh.copy("Acme/late", "Archive")


def test_move_reads_the_index_and_deletes_the_live_subtree():
    """M12, M2: Move carries what the index shows and deletes the whole source: an unindexed child is lost."""
    mesh = make_mesh()
    mesh.create(fact())
    mesh.refresh_index()
    mesh.create(fact("late"))
    assert mesh.move("Acme", "Beta") == 2
    assert paths(mesh) == ["Beta", "Beta/rev-FY2024-1"]
    mesh.refresh_index()
    with pytest.raises(PathError, match=r"^Error: target path is the same as source \(Beta\).$"):
        mesh.move("Beta", "@Beta")
    mesh.create({"id": "Gamma", "name": "Gamma", "nodeType": "Company"})
    with pytest.raises(NodeExists, match=r"^Error moving Beta -> Gamma: Node already exists: Gamma \(TargetAlreadyExists\)$"):
        mesh.move("Beta", "Gamma")
    with pytest.raises(NodeNotFound, match=r"^Error moving Nope -> X: No node found at 'Nope'\.$"):
        mesh.move("Nope", "X")  # R8: routing refuses an address with no node
    with pytest.raises(NodeNotFound, match=r"^Error moving Beta/gone -> X: No node found at 'Beta/gone'\. "
                                           r"Closest ancestor is 'Beta' \(remainder='gone'\)\. This usually means"):
        mesh.move("Beta/gone", "X")
    mesh.create({"id": "fresh", "namespace": "Gamma", "name": "F", "nodeType": "Markdown"})
    with pytest.raises(NodeNotFound, match=r"^Error moving Gamma/fresh -> X: No node found at 'Gamma/fresh'\.$"):
        mesh.move("Gamma/fresh", "X")  # R8: the node exists, but routing's path query has not caught up
    assert paths(mesh) == ["Beta", "Beta/rev-FY2024-1", "Gamma", "Gamma/fresh"]


def test_move_or_copy_of_a_collection_owner_is_refused_and_changes_nothing():
    """agentkit does not model carrying a collection: moving or copying its owner is refused, all intact."""
    mesh = make_mesh()
    mesh.add_collection("Acme").upload("a.md", b"revenue", index=True)
    mesh.refresh_index()
    before = [node.to_json() for node in mesh.nodes()]
    with pytest.raises(PathError, match="^Error: cannot move: 'Acme' owns content collection 'Acme/content'"):
        mesh.move("Acme", "Beta")
    with pytest.raises(PathError, match="cannot copy: 'Acme' owns content collection 'Acme/content'"):
        mesh.copy("Acme", "Beta")
    assert [node.to_json() for node in mesh.nodes()] == before and mesh.index.pending == 0


def test_bulk_create_extension_is_per_item():
    """Extension: create_many creates each valid item and reports each bad one, as separate Creates would."""
    mesh = make_mesh()
    outcomes = mesh.create_many([fact("a"), {"id": "Acme/b", "nodeType": "Fact"}, fact("c")])
    assert [getattr(o, "message", str(o))[:31] for o in outcomes] == [
        "Created: Acme/a", "Error: cannot create 'Acme/b': ", "Created: Acme/c"]
    assert not mesh.exists("Acme/b")


def test_clock_is_deterministic():
    """lastModified comes from a step clock, so two identical runs stamp identical times."""
    first, second = make_mesh(), make_mesh()
    created = first.create(fact()).node
    assert created.last_modified == second.create(fact()).node.last_modified == "2025-01-01T00:00:02Z"
    assert first.get("Acme/rev-FY2024-1") == created


def test_update_and_patch_read_their_own_write():
    """M2: the node an Update or Patch returns is the stored one, one version later, and a Get sees it at once."""
    mesh = make_mesh()
    mesh.create(fact())
    updated = mesh.update([fact(value=1.0)])[0].node
    assert updated == mesh.get("Acme/rev-FY2024-1") and updated.version == 2 and updated.last_modified
    patched = mesh.patch("Acme/rev-FY2024-1", {"content": {"value": 2.0}}).node
    assert patched == mesh.get("Acme/rev-FY2024-1") and patched.version == 3


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
    """N8, N9: '..' is joined to the collection's folder (FileSystem) or blob prefix (AzureBlob) and resolved:
    inside it, or into another collection."""
    mesh = filed(content_store=store)
    assert mesh.fetch("Acme/content/sub/../sub/notes.md").value == "notes"
    assert mesh.fetch("Acme/content/./sub/notes.md").value == "notes"
    assert mesh.fetch("Acme/content/../../Other/content/secret.md").value == "secret"  # another node's file


def test_file_system_lists_the_folder_dot_dot_reaches_and_names_the_key_as_sent_when_it_reaches_none():
    """N8, S1: a folder reached through '..' is listed; a key that leads nowhere is the file's error, as sent."""
    mesh = filed()
    assert [item["path"] for item in mesh.fetch("Acme/content/../content/sub").value] == ["/sub/notes.md"]
    for beyond in ("Acme/content/../../../x.md", "Acme/content/../../Nowhere/content/x.md", "Acme/content/.."):
        with pytest.raises(FileNotFound, match="^Error: File '.*' not found in collection 'content'$"):
            mesh.fetch(beyond)  # the error names the key as sent, never where it led


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


def test_partition_guard_is_host_wiring_and_off_by_default():
    """H1: without the guard a top-level Markdown node and a node in a missing partition are created as sent."""
    mesh = make_mesh()
    assert mesh.create({"id": "Loose", "name": "Loose", "nodeType": "Markdown"}).path == "Loose"
    assert mesh.create({"id": "x", "namespace": "Nowhere", "name": "X", "nodeType": "Markdown"}).path == "Nowhere/x"


def test_partition_guard_refusals_write_nothing_and_come_after_the_tools_own_checks():
    """H1, M5, M9: the guard runs after identity, schema and existence; a refused create writes nothing."""
    mesh = Mesh(node_types={"Space", "Markdown"}, partition_guard=True)
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Space"})
    before = paths(mesh)
    with pytest.raises(CreateError, match=r"^Error creating node: Cannot create 'Loose' at the top level: .*"
                                          r"A 'Markdown' node does not own a partition"):
        mesh.create({"id": "Loose", "name": "Loose", "nodeType": "Markdown"})
    with pytest.raises(CreateError, match=r"^Error creating node: Space 'Nowhere' does not exist\. .*"
                                          r"Cannot create 'Nowhere/x'\.$"):
        mesh.create({"id": "x", "namespace": "Nowhere", "name": "X", "nodeType": "Markdown"})
    with pytest.raises(MissingField):  # rule 1 of Create answers first
        mesh.create({"id": "Loose", "nodeType": "Markdown"})
    with pytest.raises(NodeExists):  # an existing node is "already exists", as the create handler answers first
        mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Space"})
    assert paths(mesh) == before
    assert mesh.create({"id": "Space2", "name": "S", "nodeType": "Space"}).path == "Space2"
    assert mesh.create({"id": "x", "namespace": "Acme/deep", "name": "X", "nodeType": "Markdown"}).path == "Acme/deep/x"
