"""Mesh tool claims (page: Mesh plugin), observed through create, get, patch, update, delete, move, copy and search."""

from __future__ import annotations

import json

from conformance.suite import Fixtures, check, short

WRITE_TOOLS = {"create", "get", "delete"}


async def create(fx: Fixtures, **node) -> str:
    return await fx.call("create", {"node": json.dumps(node)})


async def made(fx: Fixtures, node_id: str, **extra) -> str:
    """Create `{root}/{node_id}` (a Markdown node) and return its path; skip when the target refuses."""
    root = await fx.root_node()
    path = f"{root}/{node_id}"
    answer = await create(fx, id=node_id, namespace=root, name=node_id.title(), nodeType="Markdown", **extra)
    if answer != f"Created: {path}":
        from conformance.suite import Skip
        raise Skip(f"cannot create the fixture node {path}: create answered {short(answer)}")
    return path


@check("mesh.create-collides", needs=WRITE_TOOLS)
async def create_answers(fx: Fixtures) -> None:
    root = await fx.root_node()
    first = await create(fx, id="twice", namespace=root, name="Twice", nodeType="Markdown")
    second = await create(fx, id="twice", namespace=root, name="Twice", nodeType="Markdown")
    # verifies: mesh.create-collides
    assert first == f"Created: {root}/twice", f"create answered {first!r}"
    # verifies: mesh.create-collides
    assert second == f"Error creating node: Node already exists: {root}/twice", f"a second create answered {second!r}"


@check("mesh.create-required-fields", needs=WRITE_TOOLS)
async def create_required_fields(fx: Fixtures) -> None:
    root = await fx.root_node()
    no_id = await create(fx, namespace=root, name="Nameless", nodeType="Markdown")
    no_type = await create(fx, id="typeless", namespace=root, name="Typeless")
    no_name = await create(fx, id="nameless", namespace=root, nodeType="Markdown")
    # verifies: mesh.create-required-fields
    assert no_id.startswith("Error: cannot create: 'id' is not set."), f"create without id answered {no_id[:100]!r}"
    # verifies: mesh.create-required-fields
    assert no_type.startswith(f"Error: cannot create '{root}/typeless': 'nodeType' is not set."), \
        f"create without nodeType answered {no_type[:100]!r}"
    # verifies: mesh.create-required-fields
    assert no_name.startswith(f"Error: cannot create '{root}/nameless': 'name' is not set."), \
        f"create without name answered {no_name[:100]!r}"


@check("mesh.create-malformed-namespace", needs=WRITE_TOOLS)
async def create_malformed_namespace(fx: Fixtures) -> None:
    root = await fx.root_node()
    for namespace in (f"{root}/", f"{root}//x"):
        answer = await create(fx, id="malformed", namespace=namespace, name="Malformed", nodeType="Markdown")
        # verifies: mesh.create-malformed-namespace
        assert answer.startswith(f"Error: cannot create 'malformed': namespace '{namespace}' is malformed."), \
            f"create in namespace {namespace!r} answered {answer[:100]!r}"


@check("mesh.patch-merge-patch", needs=WRITE_TOOLS | {"patch"})
async def patch_merges_content(fx: Fixtures) -> None:
    path = await made(fx, "patched", content={"keep": 1, "drop": 2})
    answer = await fx.call("patch", {"path": path, "fields": json.dumps({"content": {"drop": None, "add": 3}})})
    node = await fx.call_json("get", {"path": path})
    refused = await fx.call("patch", {"path": path, "fields": json.dumps({"nodeType": "Code"})})
    # verifies: mesh.patch-merge-patch
    assert answer.startswith(f"Patched: {path}"), f"patch answered {answer[:100]!r}"
    content = {k: v for k, v in (node.get("content") or {}).items() if not k.startswith("$")}
    # verifies: mesh.patch-merge-patch
    assert content == {"keep": 1, "add": 3}, f"after a merge patch the content is {node.get('content')}"
    # verifies: mesh.patch-merge-patch
    assert refused.startswith(f"Error: cannot patch {path}: 'nodeType' is not patchable."), \
        f"patching nodeType answered {refused[:100]!r}"


@check("mesh.update-full-replacement", needs=WRITE_TOOLS | {"update"})
async def update_answers(fx: Fixtures) -> None:
    path = await made(fx, "updated", content={"a": 1})
    node = await fx.call_json("get", {"path": path})
    replaced = await fx.call("update", {"nodes": json.dumps([{**node, "content": {"b": 2}}])})
    after = await fx.call_json("get", {"path": path})
    null = await fx.call("update", {"nodes": json.dumps([{**node, "content": None}])})
    # verifies: mesh.update-full-replacement
    assert replaced == f"Updated: {path}", f"update answered {replaced[:100]!r}"
    content = {k: v for k, v in (after.get("content") or {}).items() if not k.startswith("$")}
    # verifies: mesh.update-full-replacement
    assert content == {"b": 2}, f"after a full update the content is {after.get('content')}"
    # verifies: mesh.update-full-replacement
    assert null.startswith(f"Error: cannot write {path}: 'content' is null."), f"update with null content answered {null[:100]!r}"


@check("mesh.delete-recursive", needs=WRITE_TOOLS)
async def delete_recursive(fx: Fixtures) -> None:
    parent = await made(fx, "doomed")
    child_answer = await create(fx, id="child", namespace=parent, name="Child", nodeType="Markdown")
    answer = await fx.call("delete", {"paths": json.dumps([parent])})
    child = await fx.call("get", {"path": f"{parent}/child"})
    # verifies: mesh.delete-recursive
    assert child_answer == f"Created: {parent}/child" and f"Deleted: {parent}" in answer.splitlines(), \
        f"delete answered {answer[:100]!r}"
    # verifies: mesh.delete-recursive
    assert child == f"Not found: {parent}/child", f"after deleting its parent, get on the child answered {child[:80]!r}"


@check("mesh.move-copy-navigate", needs=WRITE_TOOLS | {"move", "copy", "search"})
async def move_and_copy(fx: Fixtures) -> None:
    root = await fx.root_node()
    source = await made(fx, "mover")
    await fx.searchable(source)
    moved = await fx.call("move", {"sourcePath": source, "targetPath": f"{root}/moved"})
    target_space = await made(fx, "space")
    await fx.searchable(f"{root}/moved")
    copied = await fx.call("copy", {"sourcePath": f"{root}/moved", "targetNamespace": target_space})
    # verifies: mesh.move-copy-navigate
    assert moved == f"Moved: {source} -> {root}/moved", f"move answered {moved[:100]!r}"
    # verifies: mesh.move-copy-navigate
    assert copied.startswith("Copied 1 node(s): ") and copied.endswith(f"{root}/moved -> {target_space}"), \
        f"copy answered {copied[:100]!r}"


@check("mesh.search-envelope", needs=WRITE_TOOLS | {"search"})
async def search_envelope(fx: Fixtures) -> None:
    root = await fx.root_node()
    for node_id in ("first", "second"):
        await made(fx, node_id)

    async def both_listed():
        found = await fx.call_json("search", {"query": "", "basePath": root, "limit": 1})
        return found if isinstance(found, dict) and found.get("count", 0) >= 1 else None

    found = await fx.eventually(both_listed, f"the nodes under {root} in search")
    # verifies: mesh.search-envelope
    assert {"count", "limit", "truncated", "results"} <= set(found), f"search answered {sorted(found)}"
    # verifies: mesh.search-envelope
    assert found["limit"] == 1 and found["truncated"] is (found["count"] >= found["limit"]), \
        f"count {found['count']}, limit {found['limit']}, truncated {found['truncated']}"
    row = found["results"][0]
    # verifies: mesh.search-envelope
    assert {"path", "name", "nodeType"} <= set(row), f"a search row has {sorted(row)}"
