"""The Mesh plugin's tools: parameters and the texts they answer with."""

import json

from agentkit import MESH_PLUGIN, ContentType, Mesh, mesh_plugin, tools_by_name, upload_report

mesh = Mesh()
mesh.register_type(ContentType("Fact", {"lineItem": "string", "period": "string", "value": "number", "unit": "string"}))
upload_report(mesh)
tools = tools_by_name(mesh_plugin(mesh))


def tool_table() -> str:
    """Every tool of the plugin with the description the model is given."""
    lines = ["| Tool | What the model is told |", "|---|---|"]
    lines += [f"| `{tool.name}` | {tool.description} |" for tool in mesh_plugin(mesh)]
    return "\n".join(lines)


CAPTURES = {"mesh_tools.md": tool_table}

# verifies: mesh.tools-listed
assert [(t.name, t.plugin) for t in mesh_plugin(mesh)] == [(name, MESH_PLUGIN) for name in (
    "Get", "Search", "Create", "Update", "Patch", "Delete", "Move", "Copy", "NavigateTo")]

tools["Create"].call({"node": {"id": "Meridian/Facts", "name": "Facts", "nodeType": "Folder"}})
for number in range(3):
    tools["Create"].call({"node": {"id": f"Meridian/Facts/f-{number}", "name": f"Fact {number}", "nodeType": "Fact",
                                   "content": {"$type": "Fact", "value": number}}})

# --8<-- [start:get]
node = json.loads(tools["Get"].call({"path": "Meridian"}))
print(node["path"], node["nodeType"], node["version"])
#> Meridian Company 1
print(tools["Get"].call({"path": "Meridian/Facts/*"}))
#> [
#>   {
#>     "path": "Meridian/Facts/f-0",
#>     "name": "Fact 0",
#>     "nodeType": "Fact",
#>     "icon": null
#>   },
#> ...
# --8<-- [end:get]

# verifies: mesh.get-children
assert json.loads(tools["Get"].call({"path": "Meridian/Facts/*"})) == [
    {"path": f"Meridian/Facts/f-{n}", "name": f"Fact {n}", "nodeType": "Fact", "icon": None} for n in range(3)]
# verifies: mesh.get-node-json
assert set(node) >= {"id", "namespace", "path", "name", "nodeType", "category", "icon", "order", "content"}

# --8<-- [start:search]
mesh.refresh_index()  # the index has caught up with the writes above
envelope = json.loads(tools["Search"].call({"query": "nodeType:Fact", "limit": 2}))
print(envelope["count"], envelope["limit"], envelope["truncated"])
#> 2 2 True
print(envelope["hint"])
#> Showing 2 of 3 matches. Narrow the query (nodeType:X, a basePath) or raise limit (at most 200).
# --8<-- [end:search]

# verifies: mesh.search-envelope
assert set(envelope) == {"count", "limit", "truncated", "results", "hint"} and (envelope["count"], envelope["truncated"]) == (2, True)
# verifies: mesh.search-envelope
assert set(envelope["results"][0]) == {"path", "name", "nodeType", "version", "lastModified"}
# verifies: mesh.search-envelope
assert "hint" not in json.loads(tools["Search"].call({"query": "nodeType:Fact"}))
# verifies: mesh.search-limit-clamped
assert [json.loads(tools["Search"].call({"query": "*", "limit": asked}))["limit"] for asked in (0, 50, 999)] == [1, 50, 200]
# verifies: mesh.search-limit-clamped
assert json.loads(tools["Search"].call({"query": "*"}))["limit"] == 50

# --8<-- [start:update-patch-delete]
fact = json.loads(tools["Get"].call({"path": "Meridian/Facts/f-0"}))
fact["content"] = {"$type": "Fact", "lineItem": "rev", "period": "FY2024", "value": 4812.3}
print(tools["Update"].call({"nodes": json.dumps([fact])}))
#> Updated: Meridian/Facts/f-0
print(tools["Patch"].call({"path": "Meridian/Facts/f-0", "fields": {"unit": "EUR m", "period": None}}))
#> Patched: Meridian/Facts/f-0
# Delete removes the node and every node below it:
print(tools["Delete"].call({"paths": '["Meridian/Facts"]'}))
#> Deleted: Meridian/Facts
#> Deleted: Meridian/Facts/f-0
#> Deleted: Meridian/Facts/f-1
#> Deleted: Meridian/Facts/f-2
# --8<-- [end:update-patch-delete]

# verifies: mesh.update-full-replacement
assert tools["Update"].call({"nodes": json.dumps([{"id": "Meridian/x", "name": "x", "nodeType": "Fact"}])}).startswith(
    "Error: cannot update: item 0 has no 'content'")
mesh_after = Mesh()
mesh_after.register_type(ContentType("Fact", {"lineItem": "string", "period": "string", "value": "number", "unit": "string"}))
mesh_after.create({"id": "f", "name": "f", "nodeType": "Fact", "content": {"$type": "Fact", "lineItem": "rev", "value": 1}})
mesh_after.update([{"id": "f", "name": "f", "nodeType": "Fact", "content": {"$type": "Fact", "value": 2}}])
# verifies: mesh.update-full-replacement
assert mesh_after.get("f").content == {"$type": "Fact", "value": 2}
mesh_after.patch("f", {"unit": "EUR m", "value": None, "lineItem": "rev"})
# verifies: mesh.patch-merge-patch
assert mesh_after.get("f").content == {"$type": "Fact", "unit": "EUR m", "lineItem": "rev"}
# verifies: mesh.delete-recursive
assert not any(mesh.exists(f"Meridian/Facts/f-{n}") for n in range(3)) and mesh.exists("Meridian")
# verifies: mesh.errors-are-text
assert tools["Get"].call({"path": "Meridian/Facts"}) == "Node 'Meridian/Facts' not found"

tools["Create"].call({"node": {"id": "Meridian/Drafts", "name": "Drafts", "nodeType": "Folder"}})
tools["Create"].call({"node": {"id": "Meridian/Drafts/d-1", "name": "Draft 1", "nodeType": "Fact"}})
# verifies: mesh.move-copy-navigate
assert tools["Copy"].call({"source": "Meridian/Drafts", "target": "Meridian/Archive"}).splitlines() == [
    "Copied: Meridian/Drafts -> Meridian/Archive", "Copied: Meridian/Drafts/d-1 -> Meridian/Archive/d-1"]
# verifies: mesh.move-copy-navigate
assert tools["Move"].call({"source": "Meridian/Drafts", "target": "Meridian/Archive"}).startswith(
    "Error: cannot move: a node already exists at 'Meridian/Archive'")
# verifies: mesh.move-copy-navigate
assert tools["Move"].call({"source": "Meridian/Drafts", "target": "Meridian/Old"}).splitlines()[1] == "Moved: Meridian/Drafts/d-1 -> Meridian/Old/d-1"
# verifies: mesh.move-copy-navigate
assert tools["NavigateTo"].call({"path": "Meridian/Old/d-1"}) == "Navigated to Meridian/Old/d-1"
# verifies: mesh.move-copy-refuse-collections
assert tools["Move"].call({"source": "Meridian", "target": "Acme"}).startswith(
    "Error: cannot move: 'Meridian' owns content collection 'Meridian/content'") and mesh.exists("Meridian")
