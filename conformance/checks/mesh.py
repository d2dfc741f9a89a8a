"""Mesh tool claims (page: AI/Tools/MeshPlugin.md), observed through the MCP tools.

Every node a check writes lives under the run's root node `{namespace}/conformance-{run}`, which the
run deletes at the end.
"""

from __future__ import annotations

import json
import re

import pytest

from conformance.checks.chunks import document, long_file
from conformance.suite import Fixtures, check, encode, short

WRITE = {"create", "get", "delete"}


def markdown(namespace: str, node_id: str, name: str, **fields) -> dict:
    """A node of the built-in type Markdown, as create takes it."""
    return {"id": node_id, "namespace": namespace, "name": name, "nodeType": "Markdown", **fields}


async def create(fx: Fixtures, node: dict | str) -> str:
    return await fx.call("create", {"node": node if isinstance(node, str) else json.dumps(node)})


async def made(fx: Fixtures, node_id: str, parent: str | None = None, **fields) -> str:
    """Create the Markdown node `{parent or root}/{node_id}` and return its path; skip when the target refuses."""
    namespace = parent or await fx.root_node()
    path = f"{namespace}/{node_id}"
    answer = await create(fx, markdown(namespace, node_id, fields.pop("name", node_id.title()), **fields))
    if answer != f"Created: {path}":
        pytest.skip(f"cannot create the fixture node {path}: create answered {short(answer)}")
    return path


def found_paths(found: dict) -> list[str]:
    """The paths of a search's rows, in order."""
    return [row["path"] for row in found["results"]]


def plain(content) -> dict:
    """Content without the type discriminator, which a target may add."""
    return {k: v for k, v in (content or {}).items() if not k.startswith("$")} if isinstance(content, dict) else content


# -- what the server publishes -------------------------------------------------------------------------

# The framework's MCP tools (McpMeshPlugin.cs) as the table states them: parameters in order (required
# ones without a default) and the annotations: True = destructive, False = not, None = read-only.
TOOL_TABLE = {
    "get": ({"path": None}, None),
    "upload": ({"path": None, "base64Content": None}, False),
    "search": ({"query": None, "basePath": ("default", None), "limit": ("default", 50)}, None),
    "search_chunks": ({"query": None, "scope": ("default", None), "limit": ("default", 20)}, None),
    "get_chunk": ({"collectionPath": None, "filePath": None, "chunkIndex": None}, None),
    "create": ({"node": None}, False),
    "update": ({"nodes": None}, True),
    "patch": ({"path": None, "fields": None}, True),
    "edit_content": ({"path": None, "oldText": None, "newText": None, "replaceAll": ("default", False)}, True),
    "delete": ({"paths": None}, True),
    "move": ({"sourcePath": None, "targetPath": None}, True),
    "copy": ({"sourcePath": None, "targetNamespace": None, "force": ("default", False)}, False),
}


@check("mesh.tool-table", needs=set(TOOL_TABLE))
async def tool_table(fx: Fixtures) -> None:
    for name, (parameters, destructive) in TOOL_TABLE.items():
        tool = fx.mcp.tools[name]
        properties = tool.input_schema.get("properties", {})
        # verifies: mesh.tool-table
        assert list(properties) == list(parameters), f"{name} takes {list(properties)}, the table says {list(parameters)}"
        for parameter, default in parameters.items():
            required = parameter in tool.input_schema.get("required", [])
            # verifies: mesh.tool-table
            assert required is (default is None), f"{name}.{parameter} is {'required' if required else 'optional'}"
            if default is not None:
                # verifies: mesh.tool-table
                assert properties[parameter].get("default", "no default") == default[1], \
                    f"{name}.{parameter} defaults to {properties[parameter].get('default', 'nothing')!r}, not {default[1]!r}"
        hints = tool.annotations
        read_only = bool(hints and hints.read_only_hint)
        # verifies: mesh.tool-table
        assert read_only is (destructive is None), f"{name} is {'' if read_only else 'not '}annotated read-only"
        if destructive is not None:
            # verifies: mesh.tool-table
            assert hints is not None and hints.destructive_hint is destructive, \
                f"{name} is annotated destructive={hints and hints.destructive_hint}, the table says {destructive}"


@check("mesh.descriptions-verbatim", needs={"search_chunks"})
async def search_chunks_description(fx: Fixtures) -> None:
    description = fx.mcp.tools["search_chunks"].description or ""
    # verifies: mesh.descriptions-verbatim
    assert "for whole-document reads (e.g. table extraction) use `Get` on the Document" in description, \
        f"search_chunks' description does not send whole-document reads to Get: {short(description, 200)}"


@check("mesh.mcp-arguments", needs={"get", "search", "patch"})
async def arguments_checked(fx: Fixtures) -> None:
    cases = [
        ("get", {"path": fx.namespace, "nodes": "x"},
         "Error: unknown argument 'nodes' for tool 'get' — expected one of: path."),
        ("search", {"basePath": fx.namespace},
         "Error: missing required argument 'query' for tool 'search' — required: query."),
        ("search", {"query": "", "limit": "many"},
         "Error: argument 'limit' for tool 'search' expects integer, got string (\"many\")."),
    ]
    for tool, arguments, expected in cases:
        text, is_error = await fx.mcp.call_flagged(tool, arguments)
        # verifies: mesh.mcp-arguments
        assert is_error and text.startswith(expected), f"{tool}({arguments}) answered is_error={is_error}: {text[:120]!r}"


@check("mesh.mcp-null-number", needs={"search"})
async def null_number_fails(fx: Fixtures) -> None:
    answer, _ = await fx.mcp.call_flagged("search", {"query": "", "limit": None})
    # verifies: mesh.mcp-null-number
    assert answer == "An error occurred invoking 'search'.", f"search with limit null answered {answer[:120]!r}"


@check("mesh.mcp-null-text", needs={"get", "search", "patch"})
async def null_text_reaches_the_tool(fx: Fixtures) -> None:
    # patch's null fields raises before the node is looked at; search's null query with a basePath before the query runs
    nulls = [(await fx.mcp.call_flagged(tool, arguments))[0] for tool, arguments in (
        ("get", {"path": None}), ("patch", {"path": f"{fx.namespace}/conformance-absent", "fields": None}),
        ("search", {"query": None, "basePath": fx.namespace}))]
    # verifies: mesh.mcp-null-text
    assert nulls == ["Error: path is required.", "An error occurred invoking 'patch'.", "An error occurred invoking 'search'."], \
        f"get with path null, patch with fields null and search with query null answered {nulls}"


# -- refusals are text --------------------------------------------------------------------------------


@check("mesh.errors-are-text", needs=WRITE)
async def refusals_are_text(fx: Fixtures) -> None:
    missing = f"{await fx.root_node()}/missing"
    path = await made(fx, "texts")
    answers = [
        (await fx.mcp.call_flagged("get", {"path": missing}), f"Not found: {missing}"),
        (await fx.mcp.call_flagged("create", {"node": json.dumps(markdown(path.rsplit("/", 1)[0], "texts", "Texts"))}),
         f"Error creating node: Node already exists: {path}"),
    ]
    for (text, is_error), expected in answers:
        # verifies: mesh.errors-are-text
        assert text == expected and not is_error, f"expected the answer {expected!r}, got is_error={is_error}: {text[:100]!r}"


# -- Get and Search -------------------------------------------------------------------------------------


@check("mesh.get-children", needs=WRITE)
async def get_children(fx: Fixtures) -> None:
    parent = await made(fx, "family")
    # With an icon: the framework's JSON leaves a null icon out (M7), and the row shows all four keys.
    child = await made(fx, "child", parent, icon="folder")
    await made(fx, "grandchild", child)

    async def listed():
        rows = await fx.get_json(f"{parent}/*")
        return rows if isinstance(rows, list) and rows else None

    rows = await fx.eventually(listed, f"the children of {parent} in Get {parent}/*")
    # verifies: mesh.get-children
    assert [row.get("path") for row in rows] == [child], f"Get {parent}/* listed {[row.get('path') for row in rows]}"
    # verifies: mesh.get-children
    assert set(rows[0]) == {"path", "name", "nodeType", "icon"}, f"a listed child has {sorted(rows[0])}"


# MeshNode's serialized properties in declaration order (fact M15).
MESH_NODE_KEYS = ("$type", "id", "namespace", "path", "mainNode", "name", "description", "nodeType", "category", "icon",
                  "order", "createdDate", "createdBy", "lastModified", "lastModifiedBy", "version", "state", "content",
                  "preRenderedHtml", "desiredId", "isSatelliteType", "excludeFromContext", "syncBehavior")


@check("mesh.get-node-json", needs=WRITE)
async def get_node_json(fx: Fixtures) -> None:
    path = await made(fx, "shape", name="Gr\u00fc\u00dfe <&>", order=0)
    answer = await fx.get(path)
    node = json.loads(answer) if answer.startswith("{") else {}
    # verifies: mesh.get-node-json
    assert list(node)[:1] == ["$type"] and node["$type"] == "MeshNode" and \
        [key for key in MESH_NODE_KEYS if key in node] == list(node), f"Get {path} answered the keys {list(node)}"
    # verifies: mesh.get-node-json
    assert "\n" not in answer and None not in node.values() and node.get("order") == 0 and \
        (node.get("mainNode"), node.get("state")) == (path, "Active"), f"Get {path} answered {answer[:300]!r}"
    # verifies: mesh.get-node-json
    assert '"name":"Gr\\u00FC\\u00DFe \\u003C\\u0026\\u003E"' in answer, f"the name is written {answer[:300]!r}"


async def searched(fx: Fixtures, base: str, expect: int, **arguments) -> dict:
    """Search under `base` until it counts `expect` results (the index lags behind writes)."""

    async def probe():
        found = await fx.call_json("search", {"query": "", "basePath": base, **arguments})
        return found if isinstance(found, dict) and found.get("count") == expect else None

    return await fx.eventually(probe, f"{expect} result(s) of search under {base}")


@check("mesh.search-envelope", needs=WRITE | {"search"})
async def search_envelope(fx: Fixtures) -> None:
    parent = await made(fx, "searched")
    for node_id in ("first", "second"):
        await made(fx, node_id, parent)
    full = await searched(fx, parent, 2)
    cut = await fx.call_json("search", {"query": "", "basePath": parent, "limit": 1})
    # verifies: mesh.search-envelope
    assert set(full) == {"count", "limit", "truncated", "results"} and (full["limit"], full["truncated"]) == (50, False), \
        f"search with room to spare answered {short(full)}"
    # verifies: mesh.search-envelope
    assert set(full["results"][0]) == {"path", "name", "nodeType", "version", "lastModified"}, \
        f"a search row has {sorted(full['results'][0])}"
    # verifies: mesh.search-envelope
    assert (cut["count"], cut["limit"], cut["truncated"], "hint" in cut) == (1, 1, True, True), \
        f"search with limit 1 over 2 nodes answered {short(cut)}"


@check("mesh.search-description-truncated", needs=WRITE | {"search"})
async def search_truncated_at_exact_limit(fx: Fixtures) -> None:
    parent = await made(fx, "exact")
    for node_id in ("first", "second"):
        await made(fx, node_id, parent)
    await searched(fx, parent, 2)
    exact = await fx.call_json("search", {"query": "", "basePath": parent, "limit": 2})
    # verifies: mesh.search-description-truncated
    assert (exact["count"], exact["truncated"]) == (2, True), \
        f"search with limit 2 over exactly 2 nodes answered {short(exact)}"


@check("mesh.search-limit-clamped", needs=WRITE | {"search"})
async def search_limit(fx: Fixtures) -> None:
    parent = await made(fx, "clamped")
    await made(fx, "only", parent)
    await searched(fx, parent, 1)
    limits = [(await fx.call_json("search", {"query": "", "basePath": parent, **given}))["limit"]
              for given in ({"limit": 0}, {"limit": 500}, {})]
    # verifies: mesh.search-limit-clamped
    assert limits == [1, 200, 50], f"limits 0, 500 and none came back as {limits}"


@check("mesh.search-base-path", needs=WRITE | {"search"})
async def search_base_path(fx: Fixtures) -> None:
    parent = await made(fx, "listed")
    child = await made(fx, "child", parent)
    grandchild = await made(fx, "grandchild", child)
    await fx.searchable(grandchild)
    direct = await fx.call_json("search", {"query": "", "basePath": parent})
    slashed = await fx.call_json("search", {"query": "", "basePath": f"/{parent}"})
    deep = await fx.call_json("search", {"query": "scope:subtree", "basePath": parent})
    moved = await fx.call_json("search", {"query": f"path:{child}", "basePath": parent})
    # verifies: mesh.search-base-path
    assert found_paths(direct) == [child] and direct["limit"] == 50 and direct["truncated"] is False, \
        f"search under {parent} answered {short(direct)}"
    # verifies: mesh.search-base-path
    assert found_paths(slashed) == [child], \
        f"search under /{parent} found {found_paths(slashed)}, not only {parent}'s direct child"
    # verifies: mesh.search-base-path
    assert {row["path"] for row in deep["results"]} >= {child, grandchild}, \
        f"search 'scope:subtree' under {parent} found {found_paths(deep)}"
    # verifies: mesh.search-base-path
    assert found_paths(moved) == [grandchild], \
        f"search 'path:{child}' under {parent} found {found_paths(moved)}, not {child}'s child"


# -- writing ---------------------------------------------------------------------------------------------


@check("mesh.create-id-splits-namespace", needs=WRITE)
async def create_splits_id(fx: Fixtures) -> None:
    root = await fx.root_node()
    answer = await create(fx, markdown(root, "split/leaf", "Leaf"))
    again = await create(fx, markdown(root, "split/leaf", "Leaf"))
    node = await fx.get_json(f"{root}/split/leaf")
    # verifies: mesh.create-id-splits-namespace
    assert answer == f"Created: {root}/split/leaf" and (node.get("id"), node.get("namespace")) == ("leaf", f"{root}/split"), \
        f"create with id 'split/leaf' answered {answer!r}; the node has id {node.get('id')!r}, namespace {node.get('namespace')!r}"
    # verifies: mesh.create-id-splits-namespace
    assert again == f"Error creating node: Node already exists: {root}/split/leaf", f"a second create answered {again!r}"


@check("mesh.create-collides", needs=WRITE)
async def create_keeps_existing(fx: Fixtures) -> None:
    path = await made(fx, "twice", content={"kept": True})
    answer = await create(fx, markdown(path.rsplit("/", 1)[0], "twice", "Other", content={"kept": False}))
    node = await fx.get_json(path)
    # verifies: mesh.create-collides
    assert answer.startswith("Error creating node: Node already exists") and \
        (node.get("name"), plain(node.get("content"))) == ("Twice", {"kept": True}), \
        f"after a refused second create the node is {node.get('name')!r} with {node.get('content')}"


@check("mesh.create-required-fields", needs=WRITE)
async def create_required_fields(fx: Fixtures) -> None:
    root = await fx.root_node()
    no_id = await create(fx, {"namespace": root, "nodeType": "Markdown"})
    no_type = await create(fx, {"id": "typeless", "namespace": root})
    no_name = await create(fx, {"id": "nameless", "namespace": root, "nodeType": "Markdown"})
    unknown = await create(fx, {"id": "untyped-kind", "namespace": root, "name": "Unknown kind", "nodeType": "NoSuchNodeType"})
    unknown_read = await fx.get(f"{root}/untyped-kind")
    # verifies: mesh.create-required-fields
    assert no_id.startswith("Error: cannot create: 'id' is not set."), f"create without id answered {no_id[:100]!r}"
    # verifies: mesh.create-required-fields
    assert no_type.startswith(f"Error: cannot create '{root}/typeless': 'nodeType' is not set."), \
        f"create without nodeType (and name) answered {no_type[:100]!r}"
    # verifies: mesh.create-required-fields
    assert no_name.startswith(f"Error: cannot create '{root}/nameless': 'name' is not set."), \
        f"create without name answered {no_name[:100]!r}"
    # verifies: mesh.create-required-fields
    assert unknown == "Error creating node: NodeType 'NoSuchNodeType' is not registered" and \
        unknown_read == f"Not found: {root}/untyped-kind", \
        f"create with an unknown nodeType answered {unknown[:100]!r}; get then answered {unknown_read[:60]!r}"


@check("mesh.create-malformed-namespace", needs=WRITE)
async def create_malformed_namespace(fx: Fixtures) -> None:
    root = await fx.root_node()
    for namespace in (f"{root}/", f"{root}//x"):
        answer = await create(fx, markdown(namespace, "malformed", "Malformed"))
        # verifies: mesh.create-malformed-namespace
        assert answer.startswith(f"Error: cannot create 'malformed': namespace '{namespace}' is malformed."), \
            f"create in namespace {namespace!r} answered {answer[:100]!r}"


@check("mesh.create-nothing-written-on-error", needs=WRITE)
async def create_refused_writes_nothing(fx: Fixtures) -> None:
    root = await fx.root_node()
    refused = await create(fx, {"id": "unnamed", "namespace": root, "nodeType": "Markdown"})
    after = await fx.get(f"{root}/unnamed")
    # verifies: mesh.create-nothing-written-on-error
    assert refused.startswith("Error: ") and after == f"Not found: {root}/unnamed", \
        f"after {refused[:60]!r}, get answered {after[:80]!r}"


@check("mesh.create-invalid-json", needs=WRITE)
async def create_invalid_json(fx: Fixtures) -> None:
    answer = await create(fx, "{this is not JSON")
    # verifies: mesh.create-invalid-json
    assert answer.startswith("Invalid JSON: ") and answer.endswith(
        ". Tip: ensure all quotes and special characters in markdown content are properly escaped for JSON strings."), \
        f"create with broken JSON answered {answer[:140]!r}"
    root = await fx.root_node()
    array = await create(fx, json.dumps([markdown(root, f"in-array-{n}", "In array") for n in (1, 2)]))
    null = await create(fx, "null")
    lenient = await create(fx, '{"id": "lenient", "namespace": "%s", /* a comment */ "name": "Lenient", "nodeType": "Markdown",}' % root)
    # verifies: mesh.create-invalid-json
    assert array.startswith("Invalid JSON: ") and null == "Invalid node: deserialized to null.", \
        f"create of an array of nodes answered {array[:100]!r}; of null {null[:60]!r}"
    # verifies: mesh.create-invalid-json
    assert lenient == f"Created: {root}/lenient", f"create with a comment and a trailing comma answered {lenient[:100]!r}"


@check("mesh.create-json-not-one-node", needs=WRITE)
async def create_json_not_one_node(fx: Fixtures) -> None:
    root = await fx.root_node()
    mistyped = await create(fx, markdown(root, "mistyped-order", "Order", order="x"))
    # verifies: mesh.create-json-not-one-node
    assert mistyped.startswith("Invalid JSON: "), f"create with \"order\": \"x\" answered {mistyped[:100]!r}"


@check("mesh.create-checks-nothing-else", needs=WRITE)
async def create_checks_nothing_else(fx: Fixtures) -> None:
    root = await fx.root_node()
    spaced = await create(fx, markdown(root, "blank inside", "Spaced"))
    blank = await create(fx, markdown(root, "  ", "Blank"))
    # verifies: mesh.create-checks-nothing-else
    assert spaced == f"Created: {root}/blank inside" and blank.startswith("Error: cannot create: 'id' is not set."), \
        f"create with the id 'blank inside' answered {spaced[:100]!r}; with an id of blanks {blank[:100]!r}"


@check("mesh.create-extension-data-kept", needs=WRITE)
async def create_extension_data_kept(fx: Fixtures) -> None:
    path = await made(fx, "typo", content={"$type": "MarkdownContent", "content": "# Notes", "titel": "Typo"})
    read = await fx.get_json(path)
    content = read.get("content") if isinstance(read, dict) else None
    # verifies: mesh.create-extension-data-kept
    assert isinstance(content, dict) and content.get("titel") == "Typo", f"get of a Markdown node with 'titel' answered {short(read)}"


@check("mesh.create-repairs-json", needs=WRITE)
async def create_repairs_json(fx: Fixtures) -> None:
    root = await fx.root_node()
    first = markdown(root, "kept", "Kept")
    second = markdown(root, "lost", "Lost")
    answer = await create(fx, json.dumps(first) + json.dumps(second))
    lost = await fx.get(f"{root}/lost")
    # verifies: mesh.create-repairs-json
    assert answer == f"Created: {root}/kept" and lost == f"Not found: {root}/lost", \
        f"create of two concatenated nodes answered {answer!r}; get on the second answered {lost[:60]!r}"


# Ids Create writes as sent and Get cannot name. Not made: a leading '@' in the root namespace, which would
# put a node outside the suite's namespace that Delete (its path loses the '@' too) could not remove.
ODD_IDS = ("'Q3 plan'", " padded ", 'say "hi"', "*")


@check("mesh.create-ids-get-cannot-name", needs=WRITE)
async def create_ids_get_cannot_name(fx: Fixtures) -> None:
    root = await fx.root_node()
    for node_id in ODD_IDS:
        path = f"{root}/{node_id}"
        node = markdown(root, node_id, "Odd")
        created, again = await create(fx, node), await create(fx, node)
        answer = await fx.get(path)
        # verifies: mesh.create-ids-get-cannot-name
        assert created == f"Created: {path}" and again == f"Error creating node: Node already exists: {path}", \
            f"create with id {node_id!r} answered {created[:100]!r}, then {again[:100]!r}"
        try:
            read = json.loads(answer)
        except ValueError:
            read = None
        # verifies: mesh.create-ids-get-cannot-name
        assert not (isinstance(read, dict) and read.get("path") == path), f"get {path!r} reached the node: {answer[:100]!r}"


@check("mesh.create-at-ids", needs=WRITE)
async def create_at_ids(fx: Fixtures) -> None:
    """An id with a leading '@' in the root namespace: a host with row-level security refuses it at the top level;
    elsewhere it is created, Get drops only one '@', so only '@@{id}' reaches it, and it is deleted at once."""
    at_id = f"@conformance-{fx.run_id}"
    made_at = await create(fx, markdown("", at_id, "Odd"))
    if made_at == f"Created: {at_id}":
        fx.created_nodes.append(f"@{at_id}")  # clean-up deletes by path, and Delete drops one '@'
        once, twice = await fx.get(at_id), await fx.get(f"@{at_id}")
        gone = await fx.call("delete", {"paths": json.dumps([f"@{at_id}"])})
        if gone == f"Deleted: {at_id}":
            fx.release(f"@{at_id}")
        # verifies: mesh.create-at-ids
        assert once == f"Not found: {at_id[1:]}" and json.loads(twice).get("path") == at_id, \
            f"get {at_id!r} answered {once[:80]!r}; get '@{at_id}' answered {twice[:100]!r}"
    else:
        # verifies: mesh.create-at-ids
        assert made_at.startswith(f"Error creating node: Cannot create '{at_id}' at the top level"), \
            f"create of {at_id!r} in the root namespace answered {made_at[:120]!r}"


@check("mesh.create-refuses-unregistered-type", needs=WRITE)
async def create_refuses_unregistered_type(fx: Fixtures) -> None:
    root = await fx.root_node()
    # Markdown is a built-in node type on every framework host; no registry knows this $type.
    refused = await create(fx, markdown(root, "mistyped", "Mistyped", content={"$type": "MarkdownText", "content": "x"}))
    after = await fx.get(f"{root}/mistyped")
    accepted = await create(fx, markdown(root, "untyped", "Untyped", content={"content": "x"}))
    # verifies: mesh.create-refuses-unregistered-type
    assert refused.startswith(f"Error creating node: Content of '{root}/mistyped' carries the polymorphic discriminator "
                              "'$type': 'MarkdownText', which is not a registered content type") and after == f"Not found: {root}/mistyped", \
        f"create with an unregistered $type on Markdown answered {refused[:160]!r}; get then answered {after[:60]!r}"
    # verifies: mesh.create-refuses-unregistered-type
    assert accepted == f"Created: {root}/untyped", f"create on Markdown without $type answered {accepted[:120]!r}"


# -- paths Create does not check ---------------------------------------------------------------------
# The nodes sit where only the suite's own files or nodes are: a fixture file's Get path, and `content`
# under the run's root node. A node at the namespace's own `{namespace}/content` is never made: deleting
# it (Delete is recursive) would take every Document node of the namespace's collection with it.


async def node_at(fx: Fixtures, path: str) -> str:
    """Create a Markdown node at `path`; clean-up deletes it unless the check does. Skip when one is already there."""
    namespace, node_id = path.rsplit("/", 1)
    answer = await create(fx, markdown(namespace, node_id, "Shadow"))
    if answer == f"Error creating node: Node already exists: {path}":
        pytest.skip(f"a node is already at {path} (left by an earlier run?); delete it and run again")
    # Create checks no path against the content (both claims state it): a refusal fails the check.
    assert answer == f"Created: {path}", f"create at {path}, a path inside a content collection, answered {answer[:120]!r}"
    fx.created_nodes.append(path)
    return path


async def delete_node(fx: Fixtures, path: str) -> str:
    answer = await fx.call("delete", {"paths": json.dumps([path])})
    if answer == f"Deleted: {path}":
        fx.release(path)
    return answer


SHADOWED_TEXT = "A fixture file with a node at its Get path.\n"


@check("mesh.create-under-content-is-shadowed", needs=WRITE | {"upload"})
async def create_under_content_is_shadowed(fx: Fixtures) -> None:
    file_path = await fx.upload("shadowed.md", SHADOWED_TEXT.encode("utf-8"))
    path = await node_at(fx, f"{fx.collection}/{file_path}")
    read = await fx.read(path)
    again = await create(fx, markdown(path.rsplit("/", 1)[0], path.rsplit("/", 1)[1], "Shadow"))
    # verifies: mesh.create-under-content-is-shadowed
    assert read == SHADOWED_TEXT and again == f"Error creating node: Node already exists: {path}", \
        f"with a node at the file's Get path, get answered {read[:80]!r} and a second create {again[:100]!r}"
    deleted = await delete_node(fx, path)
    after = await fx.read(path)
    # verifies: mesh.create-under-content-is-shadowed
    assert deleted == f"Deleted: {path}" and after == SHADOWED_TEXT, \
        f"delete of the node at the file's path answered {deleted[:100]!r}; get then answered {after[:80]!r}"


@check("mesh.create-takes-over-upload", needs=WRITE | {"upload"})
async def create_takes_over_upload(fx: Fixtures) -> None:
    first, second = b"Taken over: first version.\n", b"Taken over: second version.\n"
    file_path = await fx.upload("taken.md", first)
    path = await node_at(fx, f"{fx.collection}/{file_path}")
    refused = await fx.call("upload", {"path": path, "base64Content": encode(second)})
    kept = await fx.read(path)
    # verifies: mesh.create-takes-over-upload
    assert refused.startswith("Error: path must include '{collection}/{filePath}' after the node path") and kept == first.decode(), \
        f"upload to a file's path with a node there answered {refused[:120]!r}; the file then read {kept[:60]!r}"
    deleted = await delete_node(fx, path)
    stored = await fx.call("upload", {"path": path, "base64Content": encode(second)})
    now = await fx.read(path)
    # verifies: mesh.create-takes-over-upload
    assert deleted == f"Deleted: {path}" and '"status":"Uploaded"' in stored and now == second.decode(), \
        f"after deleting the node ({deleted[:60]!r}) upload answered {stored[:100]!r} and the file read {now[:60]!r}"
    # A node at a collection's own path: `content` of the run's root node, which holds nothing of anyone else's.
    collection_node = await node_at(fx, f"{await fx.root_node()}/content")
    remainder = await fx.call("upload", {"path": f"{collection_node}/q3.md", "base64Content": encode(first)})
    # verifies: mesh.create-takes-over-upload
    assert remainder == "Error: expected '{collection}/{filePath}' in remainder 'q3.md'.", \
        f"upload with a node at {collection_node} answered {remainder[:120]!r}"


# A node of the registered content type Document (D4), written by hand: `pageCount` is no field of it, and
# `sizeBytes` holds its default, 0. The Document type is registered wherever content indexing is wired.
TYPED_FIELDS = {"name": "typed.md", "summary": "A hand-written Document node.", "collectionPath": "x/content",
                "filePath": "typed.md", "chunkCount": 7}


async def typed_node(fx: Fixtures) -> tuple[str, str, str]:
    """Create the typed node once: its path, create's answer, and the Get issued right after it."""

    async def make() -> tuple[str, str, str]:
        root = await fx.root_node()
        await document_type_registered(fx)
        path = f"{root}/typed"
        answer = await create(fx, {"id": "typed", "namespace": root, "name": "Typed", "nodeType": "Document",
                                   "content": {"$type": "Document", **TYPED_FIELDS, "sizeBytes": 0, "pageCount": 3}})
        if not answer.startswith("Created") and not answer.startswith("Error: Content does not match"):
            pytest.skip(f"cannot create a node of type Document at {path}: create answered {short(answer)}")
        return path, answer, await fx.get(path)

    return await fx.once("typed-node", make)


async def document_type_registered(fx: Fixtures) -> None:
    """Skip unless the target's indexing writes Document nodes typed `Document` (then the type is registered)."""
    file_path, _ = await long_file(fx)
    node = await document(fx, file_path)
    if (node.get("content") or {}).get("$type") != "Document":
        pytest.skip(f"the target's Document nodes carry no $type 'Document' ({short(node.get('content'))}): no registered type to check")


@check("mesh.create-silent-drop", needs=WRITE | {"upload", "get_chunk"})
async def create_silent_drop(fx: Fixtures) -> None:
    path, answer, read = await typed_node(fx)
    content = plain(json.loads(read).get("content")) if read.startswith("{") else read
    # verifies: mesh.create-silent-drop
    assert answer == f"Created: {path}", f"create with the unknown field 'pageCount' answered {answer[:120]!r}"
    # verifies: mesh.create-silent-drop
    assert isinstance(content, dict) and "pageCount" not in content and content.get("summary") == TYPED_FIELDS["summary"], \
        f"after the create the content is {short(content)}"


@check("mesh.read-back-defaults-omitted", needs=WRITE | {"upload", "get_chunk"})
async def read_back_defaults(fx: Fixtures) -> None:
    path, _, read = await typed_node(fx)  # the Get was issued right after the create, without waiting
    node = json.loads(read) if read.startswith("{") else {}
    content = plain(node.get("content"))
    # verifies: mesh.read-back-defaults-omitted
    assert node.get("path") == path and isinstance(content, dict) and content.get("chunkCount") == 7 and "sizeBytes" not in content, \
        f"a direct Get after the create answered {read[:200]!r}: expected chunkCount 7 and no sizeBytes (stored 0)"


@check("mesh.json-omits-defaults", needs=WRITE | {"upload", "get_chunk"})
async def json_omits_defaults(fx: Fixtures) -> None:
    _, _, read = await typed_node(fx)
    node = json.loads(read) if read.startswith("{") else {}
    # verifies: mesh.json-omits-defaults
    assert node and "\n" not in read and not {"category", "icon", "order"} & set(node) and None not in node.values(), \
        f"Get on a node without category, icon or order answered {read[:200]!r}"
    content = node.get("content") or {}
    # verifies: mesh.json-omits-defaults
    assert not {"sizeBytes", "mime", "indexedAt"} & set(content) and None not in content.values(), \
        f"typed content holding 0, null and an unset date reads back as {short(content)}"


@check("mesh.create-schema-mismatch", needs=WRITE | {"upload", "get_chunk"})
async def create_schema_mismatch(fx: Fixtures) -> None:
    root = await fx.root_node()
    await document_type_registered(fx)  # the node type Document registers the content type of its own name
    answer = await create(fx, {"id": "misshapen", "namespace": root, "name": "Misshapen", "nodeType": "Document",
                               "content": {"$type": "Document", "chunkCount": "many"}})
    after = await fx.get(f"{root}/misshapen")
    # verifies: mesh.create-schema-mismatch
    assert answer.startswith("Error: Content does not match the schema for NodeType 'Document'.") and \
        after == f"Not found: {root}/misshapen", f"create with chunkCount 'many' answered {answer[:120]!r}; get then {after[:60]!r}"
    for content in ([], "x"):  # content that is not an object cannot become the type either
        answer = await create(fx, {"id": "misshapen", "namespace": root, "name": "Misshapen", "nodeType": "Document",
                                   "content": content})
        after = await fx.get(f"{root}/misshapen")
        # verifies: mesh.create-schema-mismatch
        assert answer.startswith("Error: Content does not match the schema for NodeType 'Document'.") and \
            after == f"Not found: {root}/misshapen", f"create with content {content!r} answered {answer[:120]!r}; get then {after[:60]!r}"


@check("mesh.update-full-replacement", needs=WRITE | {"update"})
async def update_replaces(fx: Fixtures) -> None:
    path = await made(fx, "replaced", content={"a": 1})
    node = await fx.get_json(path)
    replaced = await fx.call("update", {"nodes": json.dumps([{**node, "content": {"b": 2}}])})
    after = await fx.get_json(path)
    null = await fx.call("update", {"nodes": json.dumps([{**node, "content": None}])})
    # verifies: mesh.update-full-replacement
    assert replaced == f"Updated: {path}" and plain(after.get("content")) == {"b": 2}, \
        f"update answered {replaced[:80]!r}; the content is now {after.get('content')}"
    # verifies: mesh.update-full-replacement
    assert null.startswith(f"Error: cannot write {path}: 'content' is null."), f"update with null content answered {null[:100]!r}"


@check("mesh.update-per-node", needs=WRITE | {"update"})
async def update_per_node(fx: Fixtures) -> None:
    path = await made(fx, "present", content={"a": 1})
    node = await fx.get_json(path)
    ghost = f"{path.rsplit('/', 1)[0]}/ghost"
    answer = await fx.call("update", {"nodes": json.dumps([
        {**node, "content": {"a": 2}}, {**node, "id": "ghost", "path": ghost, "content": {"a": 3}}])})
    # verifies: mesh.update-per-node
    assert answer.splitlines() == [f"Updated: {path}", f"Error updating {ghost}: Node not found: {ghost}"], \
        f"update of an existing and a missing node answered {answer!r}"


@check("mesh.patch-node-level", needs=WRITE | {"patch"})
async def patch_node_level(fx: Fixtures) -> None:
    path = await made(fx, "patched", content={"keep": 1, "drop": 2, "inner": {"x": 1, "y": 2}})
    answer = await fx.call("patch", {"path": path, "fields": json.dumps(
        {"name": "Renamed", "content": {"drop": None, "add": 3, "inner": {"y": None}}})})
    node = await fx.get_json(path)
    refused = await fx.call("patch", {"path": path, "fields": json.dumps({"nodeType": "Code"})})
    # verifies: mesh.patch-node-level
    assert re.fullmatch(rf"Patched: {re.escape(path)}( \(v\d+ → v\d+\))?", answer), f"patch answered {answer[:100]!r}"
    # verifies: mesh.patch-node-level
    assert (node.get("name"), plain(node.get("content"))) == ("Renamed", {"keep": 1, "inner": {"x": 1}, "add": 3}), \
        f"after the patch the node is {node.get('name')!r} with {node.get('content')}"
    # verifies: mesh.patch-node-level
    assert refused.startswith(f"Error: cannot patch {path}: 'nodeType' is not patchable."), \
        f"patching nodeType answered {refused[:100]!r}"


@check("mesh.patch-key-case", needs=WRITE | {"patch"})
async def patch_key_case(fx: Fixtures) -> None:
    path = await made(fx, "cased")
    answer = await fx.call("patch", {"path": path, "fields": json.dumps({"Name": "Renamed"})})
    node = await fx.get_json(path)
    # verifies: mesh.patch-key-case
    assert answer == f"Patched: {path}" and isinstance(node, dict) and node.get("name") == "Cased", \
        f"patch with the key 'Name' answered {answer[:100]!r}; the node is then {short(node)}"


@check("mesh.patch-refusals", needs=WRITE | {"patch"})
async def patch_refusals(fx: Fixtures) -> None:
    path = await made(fx, "guarded", content={"a": 1})
    before = await fx.get_json(path)
    for fields in ({"content": None}, {"name": ""}):
        answer = await fx.call("patch", {"path": path, "fields": json.dumps(fields)})
        after = await fx.get_json(path)
        # verifies: mesh.patch-refusals
        assert answer.startswith("Error") and after == before, f"patch {fields} answered {answer[:80]!r} and left {short(after)}"


@check("mesh.delete-recursive", needs=WRITE)
async def delete_recursive(fx: Fixtures) -> None:
    parent = await made(fx, "doomed")
    await made(fx, "child", parent)
    missing = f"{parent}-missing"
    answer = await fx.call("delete", {"paths": json.dumps([parent, missing])})
    child = await fx.get(f"{parent}/child")
    lines = answer.splitlines()
    # verifies: mesh.delete-recursive
    assert len(lines) == 2 and lines[0] == f"Deleted: {parent}" and missing in lines[1] and not lines[1].startswith("Deleted"), \
        f"delete of a node and a missing path answered {answer!r}"
    # verifies: mesh.delete-recursive
    assert child == f"Not found: {parent}/child", f"after deleting its parent, get on the child answered {child[:80]!r}"


@check("mesh.move-refusals", needs=WRITE | {"move", "search"})
async def move_answers(fx: Fixtures) -> None:
    root = await fx.root_node()
    source = await made(fx, "mover")
    taken = await made(fx, "taken")
    await fx.searchable(source)
    refused = await fx.call("move", {"sourcePath": source, "targetPath": taken})
    moved = await fx.call("move", {"sourcePath": source, "targetPath": f"{root}/moved"})
    gone = await fx.call("move", {"sourcePath": source, "targetPath": f"{root}/again"})
    # verifies: mesh.move-refusals
    assert refused == f"Error moving {source} -> {taken}: Node already exists: {taken} (TargetAlreadyExists)", \
        f"move onto an existing node answered {refused!r}"
    # verifies: mesh.move-refusals
    assert moved == f"Moved: {source} -> {root}/moved", f"move answered {moved!r}"
    # verifies: mesh.move-refusals
    assert gone.startswith(f"Error moving {source} -> {root}/again: No node found at '{source}'."), \
        f"move of a missing node answered {gone!r}"


@check("mesh.copy-signature-and-answer", needs=WRITE | {"copy", "search"})
async def copy_answers(fx: Fixtures) -> None:
    source = await made(fx, "original", content={"v": 1}, order=2, description="Not copied")
    target = await made(fx, "shelf")
    await fx.searchable(source)
    first = await fx.call("copy", {"sourcePath": source, "targetNamespace": target})
    second = await fx.call("copy", {"sourcePath": source, "targetNamespace": target})
    forced = await fx.call("copy", {"sourcePath": source, "targetNamespace": target, "force": True})
    copy = await fx.get_json(f"{target}/original")
    # verifies: mesh.copy-signature-and-answer
    assert [first, second, forced] == [f"Copied {n} node(s): {source} -> {target}" for n in (1, 0, 1)], \
        f"copy, copy again, copy with force answered {[first, second, forced]}"
    # verifies: mesh.copy-signature-and-answer
    assert (copy.get("id"), copy.get("name"), plain(copy.get("content"))) == ("original", "Original", {"v": 1}), \
        f"the copy is {short(copy)}"
    # verifies: mesh.copy-signature-and-answer
    assert not {"order", "description"} & set(copy), f"the copy of a node with order and description is {short(copy)}"


@check("mesh.navigate-to", needs={"navigate_to"})
async def navigate_to_url(fx: Fixtures) -> None:
    answer = await fx.call("navigate_to", {"path": fx.namespace})
    # verifies: mesh.navigate-to
    assert answer.endswith(f"/{fx.namespace}") and " " not in answer, f"navigate_to answered {answer[:100]!r}, not a URL"


@check("mesh.navigate-to-keeps-dot-dot", needs={"navigate_to"})
async def navigate_to_keeps_dot_dot(fx: Fixtures) -> None:
    answer = await fx.call("navigate_to", {"path": f"{fx.namespace}/../elsewhere"})
    # verifies: mesh.navigate-to-keeps-dot-dot
    assert answer.endswith(f"{fx.namespace}/../elsewhere"), f"navigate_to dropped the `..`: it answered {answer[:100]!r}"


@check("mesh.minimal-tools", needs=WRITE | {"edit_content", "get_diagnostics"})
async def edit_and_diagnostics(fx: Fixtures) -> None:
    # The framework's Markdown content shape (ContentDiscriminatorValidator names it).
    path = await made(fx, "edited", content={"$type": "MarkdownContent", "content": "one two two"})
    ambiguous = await fx.call("edit_content", {"path": path, "oldText": "two", "newText": "three"})
    edited = await fx.call("edit_content", {"path": path, "oldText": "two", "newText": "three", "replaceAll": True})
    missing = f"{path}-missing"
    diagnostics = await fx.call_json("get_diagnostics", {"path": missing})
    # verifies: mesh.minimal-tools
    assert ambiguous.startswith("Error") and edited == f"Edited: {path} (2 replacements)", \
        f"edit_content answered {ambiguous[:60]!r}, then with replaceAll {edited!r}"
    # verifies: mesh.minimal-tools
    assert diagnostics == {"status": "Unknown", "message": f"Not found: {missing}"}, f"get_diagnostics answered {diagnostics}"
