"""The Mesh plugin's tools: the registry's table, paths, Get and Search."""

import json
import re
import textwrap

from claimcheck import capture, stated
from claimcheck.agentview import AgentView
from snippets.support.facts import cites
from snippets.support.node_rule import node_answers, rule_breaks
from agentkit import (
    CONTENT_COLLECTION_PLUGIN, MCP_SERVER, MESH_PLUGIN, ContentType, Mesh, Node, content_collection_plugin, mcp_tools,
    mesh_plugin, snake_case, tools_by_name,
)
from agentkit._query import search_query
from agentkit._paths import resolve_context_path
from agentkit._config import BUILT_IN_PLUGINS
from agentkit._plugins import CONTEXT_PATHS_NOT_MODELLED, MCP_METHODS, MCP_METHODS_NOT_MODELLED, PATH_HANDLING

mesh = Mesh(node_types={"Company", "Fact", "Folder", "Markdown", "Note"})
mesh.register_type(ContentType("Fact", {"lineItem": "string", "period": "string", "value": "number", "unit": "string"}))
mesh.create({"id": "Meridian", "name": "Meridian Components Group", "nodeType": "Company"})
mesh.add_collection("Meridian")


def _cell(tool) -> str:
    if not tool.parameters:
        return "(none)"
    return ", ".join(f"`{p.name}`" if p.required else f"`{p.name}` = `{json.dumps(p.default)}`" for p in tool.parameters)


def _mcp_name(agent_tool) -> str:
    return "upload" if agent_tool.name == "UploadContent" else snake_case(agent_tool.name)


def tool_table() -> str:
    """Every agent tool with its MCP twin, parameters and defaults, and the MCP annotations, from the registry."""
    mcp = tools_by_name(mcp_tools(Mesh()))
    lines = ["| Plugin | Agent tool | MCP tool | Parameters (agent) | Read-only | Destructive |",
             "|---|---|---|---|---|---|"]
    for tool in mesh_plugin(Mesh()) + content_collection_plugin(Mesh()):
        twin = mcp.get(_mcp_name(tool))
        twin_cell = f"`{twin.name}`" if twin else "(none)"
        if twin and [(p.name, p.required, p.default) for p in twin.parameters] != \
                [(p.name, p.required, p.default) for p in tool.parameters]:
            twin_cell += f": {_cell(twin)}"
        lines.append(f"| `{tool.plugin}` | `{tool.name}` | {twin_cell} | {_cell(tool)} | "
                     f"{'yes' if tool.read_only else 'no'} | {'yes' if tool.destructive else 'no'} |")
    return "\n".join(lines)


def description_list() -> str:
    """What the model is told: each agent tool's description, the framework's own text, as plain text."""
    blocks = []
    for tool in mesh_plugin(Mesh()) + content_collection_plugin(Mesh()):
        wrapped = textwrap.wrap(tool.description.replace("\n", " "), 100)
        blocks.append("\n".join([f"{tool.plugin}.{tool.signature}"] + ["    " + line for line in wrapped]))
    return "\n\n".join(blocks)


def other_mcp_tools() -> str:
    """The framework's MCP tools with no agent twin, by the MCP SDK's names."""
    return ", ".join(f"`{snake_case(method)}`" for method in MCP_METHODS_NOT_MODELLED) + "\n"


def path_table() -> str:
    """Which path arguments get the chat context and the cleaning, from agentkit's PATH_HANDLING."""
    label = {MESH_PLUGIN: "agent", CONTENT_COLLECTION_PLUGIN: "agent", MCP_SERVER: "MCP"}
    lines = ["| Tool | Parameter | Chat context | Blanks, `@`, quotes dropped | Note |", "|---|---|---|---|---|"]
    for row in PATH_HANDLING:
        lines.append(f"| `{row.tool}` ({label[row.plugin]}) | `{row.parameter}` | {'yes' if row.context else 'no'} | "
                     f"{'yes' if row.clean else 'no'} | {row.note} |")
    return "\n".join(lines)


# Every tool call below is recorded for the page's "Tool call" listings (claimcheck/agentview.py).
VIEW = AgentView(__file__)
tools = VIEW.wrap(tools_by_name(mesh_plugin(mesh)))
# verifies: mesh.tools-listed
assert [(t.name, t.plugin) for t in mesh_plugin(mesh)] == [(name, MESH_PLUGIN) for name in (
    "Get", "Search", "NavigateTo", "Create", "Update", "Patch", "EditContent", "Delete", "Move", "Copy",
    "GetDiagnostics", "Recycle")]
# verifies: mesh.tools-listed
assert [t.name for t in mesh_plugin(mesh) if t.read_only] == ["Get", "Search", "NavigateTo", "GetDiagnostics"]
# verifies: mesh.run-tests-tool
assert "RunTests" not in tools
mesh_tools = tool_table()  # the table the page shows: the asserts below check this text
# verifies: mesh.tool-table
assert all(f"| `{t.name}` |" in mesh_tools for t in mesh_plugin(mesh) + content_collection_plugin(mesh))
# verifies: mesh.tool-table
assert "| `Mesh` | `Copy` | `copy` | `sourcePath`, `targetNamespace`, `force` = `false` | no | no |" in mesh_tools
# verifies: mesh.tool-table
assert {t.plugin for t in content_collection_plugin(mesh)} == {CONTENT_COLLECTION_PLUGIN}
capture("mesh_tools.md", mesh_tools)

# --8<-- [start:description]
print(tools["Patch"].description.split(". ")[0])
#> Partial update of a single node
# --8<-- [end:description]

# verifies: mesh.descriptions-verbatim
assert tools["Patch"].description.startswith("Partial update of a single node. Only the keys present in 'fields' are changed")
# verifies: mesh.descriptions-verbatim
assert "use Get on the Document for whole-document reads" in tools_by_name(content_collection_plugin(mesh))["SearchChunks"].description
capture("mesh_tool_descriptions.md", description_list())
# What the descriptions claim, against what the tools do in a chat about Meridian (mesh.get-description-*).
described = tools_by_name(mesh_plugin(mesh))
# verifies: mesh.get-description-relative, mesh.get-description-prefixes
assert "Paths are relative to current context" in described["Get"].description and \
    "content/, data/, schema/, model/, collection/, area/." in described["Get"].description
# verifies: mesh.get-description-relative
assert "Relative: @content/file.docx, @MyChild/*." in described["Get"].parameters[0].description and \
    resolve_context_path("Meridian", "@MyChild/*") == "@MyChild/*"  # absolute: a root node MyChild's children
# verifies: mesh.search-description-truncated
assert "when 'truncated' is true there are more matches than returned" in described["Search"].description  # the registry's descriptions, checked verbatim above

tools["Create"].call({"node": json.dumps({"id": "Meridian/Facts", "name": "Facts", "nodeType": "Folder"})})
for number in range(3):
    tools["Create"].call({"node": json.dumps({"id": f"Meridian/Facts/f-{number}", "name": f"Fact {number}", "nodeType": "Fact",
                                   "content": {"$type": "Fact", "value": number}})})

library = Mesh(node_types={"Company"})  # a second mesh, with one indexed file, for the chunk tools
library.create({"id": "Meridian", "name": "Meridian Components Group", "nodeType": "Company"})
library.add_collection("Meridian").upload("notes.md", b"Board notes.", index=True)
library.refresh_index()

# --8<-- [start:paths]
in_chat = tools_by_name(mesh_plugin(mesh, context="Meridian"))  # the chat's context is the node Meridian
print(json.loads(in_chat["Get"].call({"path": "@Facts"}))["path"])  # one segment: under the context
#> Meridian/Facts
print(in_chat["Get"].call({"path": "Facts/f-0"}))  # a '/' inside: taken as absolute
#> Not found: Facts/f-0
print(in_chat["Get"].call({"path": "'@/Meridian/Facts'"}))  # quotes go after the context check
#> Not found: /Meridian/Facts
print(in_chat["Delete"].call({"paths": '["Facts"]'}))  # Delete takes no chat context: a root-level Facts
#> Error deleting Facts: Node not found: Facts

hit = {"collectionPath": "@Meridian/content", "filePath": "notes.md", "chunkIndex": 0}
agent_chunk = tools_by_name(content_collection_plugin(library, context="Meridian"))["GetChunk"]
print(json.loads(agent_chunk.call(hit))["found"])  # the agent tool compares the path as sent
#> False
print(json.loads(tools_by_name(mcp_tools(library))["get_chunk"].call(hit))["found"])  # MCP drops the '@'
#> True
# --8<-- [end:paths]

# verifies: mesh.quotes-after-context, mesh.context-leading-at
assert json.loads(in_chat["Get"].call({"path": '"@/Meridian/Facts/f-0"'}))["path"] == "Meridian/Facts/f-0"
# verifies: mesh.quotes-after-context
assert in_chat["Get"].call({"path": "'@/Meridian/Facts'"}) == "Not found: /Meridian/Facts"
# verifies: mesh.context-leading-at
assert resolve_context_path("Meridian", "@/Meridian/Facts") == "@Meridian/Facts"  # '@/…' is absolute
# verifies: mesh.delete-takes-no-context
assert in_chat["Delete"].call({"paths": '["Facts"]'}) == "Error deleting Facts: Node not found: Facts" and \
    mesh.exists("Meridian/Facts")
# verifies: mesh.get-chunk-path-as-sent
assert json.loads(agent_chunk.call(hit))["found"] is False and \
    json.loads(agent_chunk.call({**hit, "collectionPath": "Meridian/content"}))["found"] is True
# verifies: mesh.get-chunk-path-as-sent
assert json.loads(tools_by_name(mcp_tools(library))["get_chunk"].call(hit))["found"] is True
# verifies: mesh.get-description-relative
assert in_chat["Get"].call({"path": "Facts/f-0"}) == "Not found: Facts/f-0"  # "relative to current context": not so
library_chat = tools_by_name(mesh_plugin(library, context="Meridian"))
# verifies: mesh.get-description-prefixes
assert [library_chat["Get"].call({"path": p}) for p in ("collection/notes.md", "area/Overview", "content/notes.md")] == \
    ["Not found: collection/notes.md", "Not found: area/Overview", '"Board notes."']
# verifies: mesh.agent-paths-context
assert json.loads(tools_by_name(mcp_tools(mesh))["get"].call({"path": "@Meridian/Facts"}))["path"] == "Meridian/Facts"
# verifies: mesh.agent-paths-context
assert tools_by_name(mcp_tools(mesh))["get"].call({"path": "Facts"}) == "Not found: Facts"  # MCP: no context
# verifies: mesh.agent-paths-context
assert json.loads(tools_by_name(mcp_tools(library))["get_chunk"].call({**hit, "collectionPath": "@/Meridian/content"}))[
    "found"] is False  # ResolvePath keeps the '/' after the '@', and the chunk store compares it
# verifies: mesh.agent-paths-context
assert [json.loads(tools_by_name(mcp_tools(library))["search_chunks"].call({"query": "Board", "scope": scope}))["count"]
        for scope in ("/@Meridian/content", "@/Meridian/content")] == [0, 1]  # the '@' behind a '/' stays on MCP
# verifies: mesh.agent-paths-context
assert json.loads(tools_by_name(content_collection_plugin(library, context="Meridian"))["SearchChunks"].call(
    {"query": "Board", "scope": "/@Meridian/content"}))["count"] == 1  # the agent's context step makes it '@@…'
# verifies: mesh.context-colon-paths
assert (resolve_context_path("Meridian", "Doc:x/y"), resolve_context_path("Meridian", "A/Doc:x"),
        resolve_context_path("Meridian", "A/Doc")) == ("@Meridian/Doc:x/y", "A/Doc:x", "A/Doc")  # the colon form
# verifies: mesh.context-colon-paths
assert resolve_context_path("Meridian", "content/a:b.md") == "content/a:b.md"  # a ':' after a '/': absolute first
# verifies: mesh.agent-paths-context, mesh.context-not-layout-areas
assert [resolve_context_path("Meridian", f"{word}/x") for word in ("content", "DATA", "Schema", "model", "menu", "layoutAreas")] == [
    "@Meridian/content/x", "@Meridian/DATA/x", "@Meridian/Schema/x", "@Meridian/model/x", "@Meridian/menu/x",
    "layoutAreas/x"]  # five words in any letter case; `layoutAreas/…` stays absolute
# verifies: mesh.context-leading-at
assert resolve_context_path("Meridian", "@content/x.md") == "@Meridian/content/x.md"  # one leading '@' set aside first


def path_world() -> Mesh:
    """A fresh mesh for one probe of a path argument: the same nodes, files and clock every time."""
    world = Mesh(node_types={"Company", "Note"})
    world.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
    world.create({"id": "Facts", "namespace": "Meridian", "name": "Facts", "nodeType": "Note", "content": "Q3 revenue"})
    world.create({"id": "f-0", "namespace": "Meridian/Facts", "name": "F0", "nodeType": "Note"})
    world.add_collection("Meridian").upload("notes.md", b"Board notes.", index=True)
    world.create({"id": "Docs", "namespace": "Meridian", "name": "Docs", "nodeType": "Note"})
    world.add_collection("Meridian/Docs")
    world.refresh_index()
    return world


# Each path argument of the table: its value as a full path, the same path relative to the chat context
# `Meridian` (None where the argument is no node path), and the arguments that carry it.
PROBES = {
    "path": ("Meridian/Facts", "Facts", lambda v: {"path": v}),
    "basePath": ("Meridian/Facts", "Facts", lambda v: {"query": "", "basePath": v}),
    "sourcePath": ("Meridian/Facts", "Facts", lambda v: {"sourcePath": v}),
    "targetPath": ("Meridian/Moved", "Moved", lambda v: {"sourcePath": "Meridian/Facts", "targetPath": v}),
    "targetNamespace": ("Meridian/Copies", "Copies", lambda v: {"sourcePath": "Meridian/Facts", "targetNamespace": v}),
    "node": ("Meridian/Facts", "Facts", lambda v: {"node": json.dumps(
        {"id": "n", "namespace": v, "name": "N", "nodeType": "Note"})}),
    "nodes": ("Meridian/Facts", "Facts", lambda v: {"nodes": json.dumps(
        [{"id": "f-0", "namespace": v, "name": "F", "nodeType": "Note", "content": "x"}])}),
    "paths": ("Meridian/Facts", "Facts", lambda v: {"paths": json.dumps([v])}),
    "nodePath": ("Meridian/Docs", "Docs", lambda v: {"nodePath": v, "filePath": "x.md", "content": "x"}),
    "scope": ("Meridian/content", "content", lambda v: {"query": "Board", "scope": v}),
    "collectionPath": ("Meridian/content", "content", lambda v: {"collectionPath": v, "filePath": "notes.md",
                                                                 "chunkIndex": 0}),
}
EXTRA = {"Patch": {"fields": json.dumps({"name": "Renamed"})}, "EditContent": {"oldText": "Q3", "newText": "Q4"},
         "Move": {"targetPath": "Meridian/Moved"}, "Copy": {"targetNamespace": "Meridian/Copies"}}
EXTRA.update({snake_case(tool): arguments for tool, arguments in EXTRA.items()})  # the MCP twins take the same
FILE_PROBES = {  # arguments that are no node path: only the cleaning is probed
    ("UploadContent", "filePath"): ("x.md", lambda v: {"nodePath": "Meridian/Docs", "filePath": v, "content": "x"}),
    ("GetChunk", "filePath"): ("notes.md", lambda v: {"collectionPath": "Meridian/content", "filePath": v, "chunkIndex": 0}),
    ("get_chunk", "filePath"): ("notes.md", lambda v: {"collectionPath": "Meridian/content", "filePath": v, "chunkIndex": 0}),
    ("upload", "path"): ("Meridian/content/x.md", lambda v: {"path": v, "base64Content": "eA=="}),
}


def outcome(row, arguments) -> tuple:
    """What one call did: its answer and the whole state of a fresh mesh after it."""
    world = path_world()
    make = {MESH_PLUGIN: lambda: mesh_plugin(world, context="Meridian"),
            CONTENT_COLLECTION_PLUGIN: lambda: content_collection_plugin(world, context="Meridian"),
            MCP_SERVER: lambda: mcp_tools(world)}[row.plugin]
    answer = tools_by_name(make())[row.tool].call({**EXTRA.get(row.tool, {}), **arguments})
    # A probe must reach the operation: an argument refusal, or agentkit's own limit, would answer the same either way.
    assert not answer.startswith(("Error: unknown argument", "Error: missing required")), (row, answer)
    assert "agentkit does not model carrying" not in answer, (row, answer)
    state = ([(n.path, n.name, n.version, json.dumps(n.content)) for n in world.nodes()],
             {c: [f["filePath"] for f in collection.listing()] for c, collection in world.collections.items()})
    return answer, state


def decorated(value: str) -> str:
    return f' @"{value}" '  # blanks, a leading '@' and quotes, all of which the cleaning drops


# Every row of the table, probed: a relative path under the context, and a decorated one, against the full path.
for row in PATH_HANDLING:
    if (row.tool, row.parameter) in FILE_PROBES:
        value, build = FILE_PROBES[row.tool, row.parameter]
        relative = None
    else:
        value, relative, build = PROBES[row.parameter]
    plain = outcome(row, build(value))
    if relative is not None:
        # verifies: mesh.agent-paths-context
        assert (outcome(row, build(relative)) == plain) == row.context, (row, "context")
    # verifies: mesh.agent-paths-context
    assert (outcome(row, build(decorated(value))) == plain) == row.clean, (row, "cleaning")
# verifies: mesh.agent-paths-context
assert {(row.tool, row.parameter) for row in PATH_HANDLING if row.plugin != MCP_SERVER} == {
    (tool.name, parameter.name) for tool in mesh_plugin(mesh) + content_collection_plugin(mesh)
    for parameter in tool.parameters if parameter.name in PROBES or (tool.name, parameter.name) in FILE_PROBES
} - {("NavigateTo", "path")}
# RunTests is not modelled (no source checkout): the table has no row for it, and the page states its path
# handling from fact N12 alone.
# verifies: mesh.run-tests-path
assert "RunTests" not in {row.tool for row in PATH_HANDLING} and "RunTests" not in tools_by_name(mesh_plugin(mesh))
# Collaboration and Lsp are not modelled (N14): agentkit records their path arguments apart, and the Details item
# names exactly their plugins and tools, in that order.
other_plugins: dict[str, list[str]] = {}
for row in CONTEXT_PATHS_NOT_MODELLED:
    tools_of_plugin = other_plugins.setdefault(row.plugin, [])
    if row.tool not in tools_of_plugin:
        tools_of_plugin.append(row.tool)
# The rows are read off the framework's source: each is one `ResolveContextPath(chat, …)` call of fact N14, and the
# same tool passes what that returns to `ResolvePath`.
N14 = cites("N14")
resolved = {(cite["symbol"], argument) for cite in N14
            for argument in re.findall(r"ResolveContextPath\(chat, (\w+)\)", cite["evidence"])}
cleaned = {cite["symbol"] for cite in N14 if "MeshOperations.ResolvePath(" in cite["evidence"]}
built = set(re.findall(r'"(\w+)" => new (\w+)Plugin\(Hub, chat\)', "\n".join(cite["evidence"] for cite in N14)))
# verifies: mesh.context-other-plugins
assert {(row.tool, row.parameter) for row in CONTEXT_PATHS_NOT_MODELLED} == resolved and all(
    row.context and row.clean and row.tool in cleaned for row in CONTEXT_PATHS_NOT_MODELLED)
# verifies: mesh.context-other-plugins
assert set(other_plugins) == {name for name, plugin in built if name == plugin} and set(other_plugins) <= set(BUILT_IN_PLUGINS)
# verifies: mesh.context-other-plugins
assert not set(other_plugins) & ({row.plugin for row in PATH_HANDLING}
                                 | {tool.plugin for tool in mesh_plugin(mesh) + content_collection_plugin(mesh)})
# verifies: mesh.context-other-plugins
assert re.findall(r"`([^`]+)`", stated.text("mesh.context-other-plugins")) == [
    name for plugin, tools in other_plugins.items() for name in (plugin, *tools)] + ["agentkit"]
capture("tool_path_handling.md", path_table())  # PATH_HANDLING, every row probed above

# The listing says where the index catches up, which the model does not see.
mesh.refresh_index = VIEW.step(mesh.refresh_index, "Between these two calls the index catches up (the host indexes in "
                               "the background; `refresh_index()` in the Python tab). The model sees only the answers.")
# --8<-- [start:get]
node = json.loads(tools["Get"].call({"path": "Meridian/Facts/f-0"}))
print(node["path"], node["nodeType"], node["version"])  # a single path reads the live node
#> Meridian/Facts/f-0 Fact 1
print(tools["Get"].call({"path": "Meridian/Facts/*"}))  # a query over the index: nothing yet
#> []
mesh.refresh_index()  # the index catches up
print(json.loads(tools["Get"].call({"path": "Meridian/Facts/*"}))[0])
#> {'path': 'Meridian/Facts/f-0', 'name': 'Fact 0', 'nodeType': 'Fact'}
# --8<-- [end:get]
capture("mesh_view_get.md", VIEW.markdown("get"))
del mesh.refresh_index  # Mesh's own again: later listings say nothing of their index refreshes

# verifies: mesh.get-children
assert json.loads(tools["Get"].call({"path": "Meridian/Facts/*"})) == [
    {"path": f"Meridian/Facts/f-{n}", "name": f"Fact {n}", "nodeType": "Fact"} for n in range(3)]  # a null icon left out
# verifies: mesh.get-node-json
assert list(node) == ["$type", "id", "namespace", "path", "mainNode", "name", "nodeType", "createdDate", "lastModified",
                      "version", "state", "content"] and (node["mainNode"], node["state"]) == (node["path"], "Active")
scratch_typed = Mesh(node_types={"Fact", "Note"})
scratch_typed.register_type(ContentType("Fact", {"value": "number", "final": "boolean", "unit": "string"}))
scratch_typed.create({"id": "z", "name": "Z", "nodeType": "Fact",
                      "content": {"$type": "Fact", "value": 0, "final": False, "unit": None}})
# verifies: mesh.json-omits-defaults
assert json.loads(tools_by_name(mesh_plugin(scratch_typed))["Get"].call({"path": "z"}))["content"] == {"$type": "Fact"}
scratch_typed.register_type(ContentType("Count", {"count": "integer?", "final": "boolean?"}))  # int?, bool?
scratch_typed.create({"id": "n", "name": "N", "nodeType": "Note", "content": {"$type": "Count", "count": 0, "final": False}})
# verifies: mesh.json-omits-defaults, mesh.read-back-defaults-omitted
assert json.loads(tools_by_name(mesh_plugin(scratch_typed))["Get"].call({"path": "n"}))["content"] == \
    {"$type": "Count", "count": 0, "final": False}
scratch_typed.create({"id": "u", "name": "U", "nodeType": "Note", "content": {"value": 0}})  # untyped: kept
# verifies: mesh.json-omits-defaults
assert json.loads(tools_by_name(mesh_plugin(scratch_typed))["Get"].call({"path": "u"}))["content"] == {"value": 0}

# --8<-- [start:search]
envelope = json.loads(tools["Search"].call({"query": "nodeType:Fact", "basePath": "Meridian/Facts", "limit": 3}))
print(envelope["count"], envelope["limit"], envelope["truncated"])
#> 3 3 True
print(envelope["hint"])
#> Result set hit the limit — there may be more matches. Narrow the query (namespace:/nodeType:/name:) or raise 'limit' (max 200).
# --8<-- [end:search]
capture("mesh_view_search.md", VIEW.markdown("search"))

# verifies: mesh.search-envelope
assert set(envelope) == {"count", "limit", "truncated", "results", "hint"} and (envelope["count"], envelope["truncated"]) == (3, True)
# verifies: mesh.search-envelope
assert set(envelope["results"][0]) == {"path", "name", "nodeType", "version", "lastModified"}
# verifies: mesh.search-envelope
assert "hint" not in json.loads(tools["Search"].call({"query": "nodeType:Fact", "basePath": "Meridian/Facts", "limit": 4}))
configured = Mesh()  # a node from the host's configuration: never written, so the version the claim states, no timestamp
(configured_version,) = stated.numbers("mesh.search-envelope")
configured.index.stage_node(Node("Settings", "", None, "Folder", version=configured_version, last_modified=""))  # type: ignore[arg-type]
configured.refresh_index()
# verifies: mesh.search-envelope
assert json.loads(tools_by_name(mesh_plugin(configured))["Search"].call({"query": ""}))["results"] == \
    [{"path": "Settings", "nodeType": "Folder"}]
# verifies: mesh.search-base-path-rewrites-query
assert [[row["path"] for row in json.loads(tools["Search"].call({"query": query, "basePath": "Meridian/Facts"}))["results"]]
        for query in ("namespace:Meridian", "namespace:Elsewhere")] == [[f"Meridian/Facts/f-{n}" for n in range(3)], []]
# verifies: mesh.search-base-path
assert json.loads(tools["Search"].call({"query": "", "basePath": "Meridian"}))["results"][0]["path"] == "Meridian/Facts"
# verifies: mesh.search-base-path
assert json.loads(tools["Search"].call({"query": "", "basePath": "Meridian"}))["count"] == 1
# verifies: mesh.search-base-path
assert json.loads(tools["Search"].call({"query": "scope:descendants", "basePath": "Meridian"}))["count"] == 4
# verifies: mesh.search-base-path
assert [row["path"] for row in json.loads(tools["Search"].call({"query": "path:Meridian/Facts", "basePath": "Meridian"}))[
    "results"]] == [f"Meridian/Facts/f-{n}" for n in range(3)]  # a path: replaces the basePath: its children
# verifies: mesh.search-base-path
assert [[row["path"] for row in json.loads(search.call({"query": "", "basePath": base}))["results"]] for search, base in (
    (tools["Search"], "'@/Meridian/Facts'"), (tools_by_name(mcp_tools(mesh))["search"], "/Meridian/Facts"))] == \
    [[f"Meridian/Facts/f-{n}" for n in range(3)]] * 2  # `namespace:/Meridian/Facts`: the query providers trim the '/'
# verifies: mesh.search-base-path-rewrites-query
assert search_query("namespace:Archive nodeType:Fact", "Meridian") == "namespace:Meridian Archive nodeType:Fact"
# verifies: mesh.search-base-path-rewrites-query
assert (search_query("namespace:Archive", None), search_query("namespace:Archive", "")) == ("namespace:Archive",) * 2
# verifies: mesh.search-limit-clamped
assert [json.loads(tools["Search"].call({"query": "*", "limit": asked}))["limit"] for asked in (0, 50, 999)] == [1, 50, 200]
# verifies: mesh.search-limit-clamped
assert json.loads(tools["Search"].call({"query": "*"}))["limit"] == 50
exact = [json.loads(tools["Search"].call({"query": "", "basePath": "Meridian/Facts", "limit": n})) for n in (3, 4)]
# verifies: mesh.search-description-truncated
assert [(e["count"], e["truncated"]) for e in exact] == [(3, True), (3, False)]  # exactly `limit` matches: truncated

# --8<-- [start:update-patch-delete]
fact = json.loads(tools["Get"].call({"path": "Meridian/Facts/f-0"}))
fact["content"] = {"$type": "Fact", "lineItem": "rev", "period": "FY2024", "value": 4812.3}
print(tools["Update"].call({"nodes": json.dumps([fact, {**fact, "id": "f-9"}])}))  # one line per node
#> Updated: Meridian/Facts/f-0
#> Error updating Meridian/Facts/f-9: Node not found: Meridian/Facts/f-9
print(tools["Patch"].call({"path": "Meridian/Facts/f-0",
                           "fields": json.dumps({"name": "Revenue FY2024", "content": {"unit": "EUR m", "period": None}})}))
#> Patched: Meridian/Facts/f-0 (v2 → v3)
print(tools["Patch"].call({"path": "Meridian/Facts/f-0", "fields": json.dumps({"fields": {"unit": "EUR"}})}))
#> Error: cannot patch Meridian/Facts/f-0: 'fields' is not patchable. Patchable fields: category, content, ...
print(tools["Delete"].call({"paths": '["Meridian/Facts", "Meridian/Drafts"]'}))  # recursive: one line a path
#> Deleted: Meridian/Facts
#> Error deleting Meridian/Drafts: Node not found: Meridian/Drafts
# --8<-- [end:update-patch-delete]
capture("mesh_view_update_patch_delete.md", VIEW.markdown("update-patch-delete"))

# verifies: mesh.update-full-replacement
assert tools["Update"].call({"nodes": json.dumps([{"id": "Meridian/x", "name": "x", "nodeType": "Fact"}])}).startswith(
    "Error: cannot write Meridian/x: 'content' is null. Fetch the node first with Get")
scratch = Mesh(node_types={"Fact"})
scratch.register_type(ContentType("Fact", {"lineItem": "string", "period": "string", "value": "number", "unit": "string"}))
scratch.create({"id": "f", "name": "f", "nodeType": "Fact", "icon": "Chart",
                "content": {"$type": "Fact", "lineItem": "rev", "value": 1}})
[replaced] = scratch.update([{"id": "f", "name": "f", "nodeType": "Fact", "content": {"$type": "Fact", "value": 2}}])
# verifies: mesh.update-full-replacement
assert scratch.get("f").content == {"$type": "Fact", "value": 2} and scratch.get("f").icon is None
# verifies: mesh.update-per-node
assert str(scratch.update([{"id": "g", "name": "g", "nodeType": "Fact", "content": {}}])[0]) == \
    "Error updating g: Node not found: g"
patched = scratch.patch("f", {"name": "Revenue", "content": {"unit": "EUR m", "value": None, "lineItem": "rev"}}).node
# verifies: mesh.patch-node-level
assert (patched.name, patched.content) == ("Revenue", {"$type": "Fact", "unit": "EUR m", "lineItem": "rev"})
scratch.create({"id": "bare", "name": "bare", "nodeType": "Fact"})  # no content: nothing to merge onto
# verifies: mesh.patch-node-level
assert scratch.patch("bare", {"content": {"value": 1, "unit": None}}).node.content == {"value": 1, "unit": None}
version_before = scratch.get("f").version
# verifies: mesh.patch-node-level
assert tools_by_name(mesh_plugin(scratch))["Patch"].call({"path": "f", "fields": json.dumps({"icon": "Chart"})}) == \
    f"Patched: f (v{version_before} → v{scratch.get('f').version})" and scratch.get("f").version > version_before
# verifies: mesh.patch-key-case
assert [tools_by_name(mesh_plugin(scratch))["Patch"].call({"path": "f", "fields": json.dumps(fields)})
        for fields in ({"Name": "Sales", "Icon": "Pie"}, {"icon": "Chart"})] == ["Patched: f", "Patched: f"]
# verifies: mesh.patch-key-case
assert (scratch.get("f").name, scratch.get("f").icon, scratch.get("f").version) == ("Revenue", "Chart", version_before + 1)
before_refusal = scratch.get("f")
# verifies: mesh.patch-node-level
assert tools_by_name(mesh_plugin(scratch))["Patch"].call({"path": "f", "fields": json.dumps({"unit": "EUR"})}).startswith(
    "Error: cannot patch f: 'unit' is not patchable.")
# verifies: mesh.patch-refusals
assert tools_by_name(mesh_plugin(scratch))["Patch"].call({"path": "f", "fields": json.dumps({"content": None})}).startswith(
    "Error: cannot write f: 'content' is null.")
# verifies: mesh.patch-refusals
assert tools_by_name(mesh_plugin(scratch))["Patch"].call({"path": "f", "fields": json.dumps({"name": ""})}).startswith(
    "Error: cannot patch f: 'name' is empty.")
# verifies: mesh.patch-refusals
assert scratch.get("f") == before_refusal
# verifies: mesh.delete-recursive
assert not any(mesh.exists(f"Meridian/Facts/f-{n}") for n in range(3)) and mesh.exists("Meridian")
# verifies: mesh.errors-are-text
assert tools["Get"].call({"path": "Meridian/Facts"}) == "Not found: Meridian/Facts"
# verifies: mesh.errors-are-text
assert [tools["Update"].call({"nodes": "[]"}), tools["Delete"].call({"paths": "[]"}),
        json.loads(tools["GetDiagnostics"].call({"path": "Meridian/Facts"}))["status"]] == \
    ["No nodes provided.", "No paths provided.", "Unknown"]

tools["Create"].call({"node": json.dumps({"id": "Meridian/Drafts", "name": "Drafts", "nodeType": "Folder"})})
tools["Create"].call({"node": json.dumps({"id": "Meridian/Drafts/d-1", "name": "Draft 1", "nodeType": "Fact", "order": 3,
                               "description": "First draft"})})
mesh.refresh_index()
tools["Create"].call({"node": json.dumps({"id": "Meridian/Drafts/d-2", "name": "Draft 2", "nodeType": "Fact"})})  # not indexed yet

# --8<-- [start:move-copy]
print(tools["Copy"].call({"sourcePath": "Meridian/Drafts", "targetNamespace": "Archive"}))  # ids kept
#> Copied 2 node(s): Meridian/Drafts -> Archive
print(tools["Copy"].call({"sourcePath": "Meridian/Drafts", "targetNamespace": "Archive"}))  # existing: skipped
#> Copied 0 node(s): Meridian/Drafts -> Archive
print(tools["Move"].call({"sourcePath": "Meridian/Drafts", "targetPath": "Meridian/Old"}))
#> Moved: Meridian/Drafts -> Meridian/Old
print([node.path for node in mesh.nodes() if "Drafts" in node.path or "Old" in node.path])
#> ['Archive/Drafts', 'Archive/Drafts/d-1', 'Meridian/Old', 'Meridian/Old/d-1']
# --8<-- [end:move-copy]
capture("mesh_view_move_copy.md", VIEW.markdown("move-copy"))

# verifies: mesh.copy-signature-and-answer
assert (mesh.get("Archive/Drafts/d-1").order, mesh.get("Archive/Drafts/d-1").description) == (None, None)
# verifies: mesh.move-lags-and-deletes, mesh.move-query-lag
assert not mesh.exists("Meridian/Drafts/d-2") and not mesh.exists("Meridian/Old/d-2")
mesh.refresh_index()
# verifies: mesh.copy-signature-and-answer
assert tools["Copy"].call({"sourcePath": "Meridian/Old", "targetNamespace": "Archive", "force": True}) == \
    "Copied 2 node(s): Meridian/Old -> Archive"
# verifies: mesh.copy-signature-and-answer
assert mesh.get("Archive/Old/d-1").name == "Draft 1"
# verifies: mesh.move-refusals
assert tools["Move"].call({"sourcePath": "Meridian/Old", "targetPath": "Archive/Drafts"}) == \
    "Error moving Meridian/Old -> Archive/Drafts: Node already exists: Archive/Drafts (TargetAlreadyExists)"
# verifies: mesh.move-routing
assert tools["Move"].call({"sourcePath": "Meridian/Gone", "targetPath": "X"}).startswith(
    "Error moving Meridian/Gone -> X: No node found at 'Meridian/Gone'. Closest ancestor is 'Meridian' "
    "(remainder='Gone').")
# verifies: mesh.move-refusals
assert tools["Move"].call({"sourcePath": "Nowhere/Gone", "targetPath": "X"}) == \
    "Error moving Nowhere/Gone -> X: No node found at 'Nowhere/Gone'."
# verifies: mesh.move-cached-route
assert tools["Move"].call({"sourcePath": "Nowhere", "targetPath": "X"}) == \
    "Error moving Nowhere -> X: No node found at 'Nowhere'."  # no placeholder root: refused like any unshown source
mesh.create({"id": "unindexed", "namespace": "Meridian", "name": "U", "nodeType": "Markdown"})
# verifies: mesh.move-routing, mesh.move-cached-route
assert tools["Move"].call({"sourcePath": "Meridian/unindexed", "targetPath": "X"}).startswith(
    "Error moving Meridian/unindexed -> X: No node found at 'Meridian/unindexed'. Closest ancestor is 'Meridian' ")
# verifies: mesh.move-cached-route
assert "SourceNotFound" not in tools["Move"].call({"sourcePath": "Meridian/unindexed", "targetPath": "X"})  # no route cache
# verifies: mesh.move-copy-refuse-collections
assert tools["Move"].call({"sourcePath": "Meridian", "targetPath": "Acme"}).startswith(
    "Error: cannot move: 'Meridian' owns content collection 'Meridian/content'") and mesh.exists("Meridian")

# --8<-- [start:navigate]
print(tools["NavigateTo"].call({"path": "@/Meridian/Old/d-1"}))
#> Navigating to: Meridian/Old/d-1.
print(tools_by_name(mcp_tools(mesh, base_url="https://portal.example"))["navigate_to"].call({"path": "@Meridian/Old"}))
#> https://portal.example/Meridian/Old
# --8<-- [end:navigate]

# verifies: mesh.navigate-to
assert tools_by_name(mcp_tools(mesh))["navigate_to"].call({"path": "@Meridian/Old"}) == "/Meridian/Old"  # no base URL
# verifies: mesh.agent-paths-context
assert [tools_by_name(mcp_tools(mesh, base_url="https://portal.example"))["navigate_to"].call({"path": p})
        for p in ("/Meridian/Old", "@/Meridian/Old", "//Meridian/Old")] == ["https://portal.example/Meridian/Old"] * 3
# verifies: mesh.navigate-to-keeps-dot-dot
assert tools_by_name(mcp_tools(mesh, base_url="https://portal.example"))["navigate_to"].call(
    {"path": "Meridian/../Acme"}) == "https://portal.example/Meridian/../Acme"  # the `..` stays in the URL

# verifies: mesh.navigate-fallback-not-modelled, mesh.navigate-nothing-matches
assert tools["NavigateTo"].call({"path": " @Nowhere/x "}) == "Nothing in the mesh matches “@Nowhere/x”."
# verifies: mesh.navigate-fallback-not-modelled, mesh.navigate-nothing-matches
assert tools["NavigateTo"].call({"path": "the old drafts"}) == "Couldn't find anything for “the old drafts”."
# verifies: mesh.navigate-fallback-not-modelled
assert tools["NavigateTo"].call({"path": "'Meridian/Old'"}) == "Navigating to: Meridian/Old."  # quoted: one path
# verifies: mesh.navigate-fallback-not-modelled
assert [tools["NavigateTo"].call({"path": p}) for p in ("", " @ ", "''")] == ["Nothing to navigate to."] * 3
# verifies: mesh.navigate-to
assert tools_by_name(mesh_plugin(mesh, context="Meridian"))["NavigateTo"].call({"path": "Old"}) == "Navigating to: Meridian/Old."
same_name = Mesh(node_types={"Folder"})  # a root node and a node under the chat's context, both named Old
for node_id, namespace in (("Meridian", ""), ("Old", "Meridian"), ("Old", "")):
    same_name.create({"id": node_id, "namespace": namespace, "name": node_id, "nodeType": "Folder"})
# verifies: mesh.navigate-to
assert tools_by_name(mesh_plugin(same_name, context="Meridian"))["NavigateTo"].call({"path": "Old"}) == "Navigating to: Old."

tools["Create"].call({"node": json.dumps({"id": "Meridian/Notes", "name": "Notes", "nodeType": "Markdown",
                               "content": {"$type": "MarkdownContent", "content": "Revenue rose. Revenue fell."}})})
# verifies: mesh.minimal-tools
assert tools["EditContent"].call({"path": "Meridian/Notes", "oldText": "Revenue", "newText": "Sales"}).startswith(
    "Error: the text to replace occurs 2 times in Meridian/Notes.")
# verifies: mesh.minimal-tools
assert tools["EditContent"].call({"path": "Meridian/Notes", "oldText": "Revenue", "newText": "Sales",
                                  "replaceAll": True}) == "Edited: Meridian/Notes (2 replacements)"
tools["Create"].call({"node": json.dumps({"id": "Meridian/Plain", "name": "Plain", "nodeType": "Note", "content": "Revenue rose."})})
# verifies: mesh.minimal-tools
assert tools["EditContent"].call({"path": "Meridian/Plain", "oldText": "rose", "newText": "fell"}) == \
    "Edited: Meridian/Plain (1 replacement)" and mesh.get("Meridian/Plain").content == "Revenue fell."
# verifies: mesh.minimal-tools
assert json.loads(tools["GetDiagnostics"].call({"path": "Meridian/Nope"})) == {"status": "Unknown", "message": "Not found: Meridian/Nope"}
# verifies: mesh.minimal-tools
assert json.loads(tools["Recycle"].call({"path": "Meridian/Notes"}))["status"] == "Recycled"
# verifies: mesh.diagnostics-not-modelled
assert tools["GetDiagnostics"].call({"path": "Meridian/Notes"}).startswith("Error: agentkit does not model NodeType compilation")

# --8<-- [start:mcp]
mcp = tools_by_name(mcp_tools(mesh))
print(mcp["create"].call({"nodes": "[]"}))  # an argument the tool does not declare
#> Error: unknown argument 'nodes' for tool 'create' — expected one of: node. Did you mean 'node'? (Tool schemas ...
print(mcp["copy"].call({"sourcePath": "Meridian/Old"}))
#> Error: missing required argument 'targetNamespace' for tool 'copy' — required: sourcePath, targetNamespace.
print(mcp["create"].call({"node": {"id": "Meridian/x", "name": "x", "nodeType": "Fact"}}))
#> Error: argument 'node' for tool 'create' expects string, got object ({"id":"Meridian/x","name":"x","nodeType":"Fact"}).
# --8<-- [end:mcp]

# verifies: mesh.mcp-arguments
assert mcp["create"].call({"nodes": "[]"}).endswith("(Tool schemas change between releases — call tools/list for the current shape.)")
# verifies: mesh.mcp-arguments
assert not mesh.exists("Meridian/x")
# verifies: mesh.mcp-tools-without-twins
assert (len(MCP_METHODS) + len(MCP_METHODS_NOT_MODELLED), len(MCP_METHODS_NOT_MODELLED)) == (32, 17)
# verifies: mesh.mcp-tools-without-twins
assert not set(map(snake_case, MCP_METHODS_NOT_MODELLED)) & set(mcp) and len(mcp) == len(MCP_METHODS)
capture("mcp_tools_without_twins.md", other_mcp_tools())  # MCP_METHODS_NOT_MODELLED, counted and checked above
# verifies: mesh.mcp-arguments
assert mcp["create"].call({"node": json.dumps({"id": "Meridian/x", "name": "x", "nodeType": "Fact"})}) == "Created: Meridian/x"
# verifies: mesh.mcp-null-number
assert mcp["search"].call({"query": "", "limit": None}) == "An error occurred invoking 'search'."
# verifies: mesh.mcp-null-text
assert [mcp["get"].call({"path": None}), mcp["create"].call({"node": None})] \
    == ["Error: path is required.", "An error occurred invoking 'create'."]
# verifies: mesh.mcp-null-text
assert [mcp["patch"].call({"path": "Meridian/x", "fields": None}), mcp["search"].call({"query": None, "basePath": "Meridian"})] \
    == ["An error occurred invoking 'patch'.", "An error occurred invoking 'search'."]
# verifies: mesh.mcp-null-number
assert json.loads(mcp["search"].call({"query": "", "limit": "2"}))["limit"] == 2

# Every node of this page's meshes, and every node its listings show, as the framework writes it; MCP answers the same.
for every in (mesh, scratch_typed, configured, scratch, same_name):
    agent_get, mcp_get = tools_by_name(mesh_plugin(every))["Get"], tools_by_name(mcp_tools(every))["get"]
    for shown in every.nodes():
        answer = agent_get.call({"path": shown.path})
        # verifies: mesh.get-node-json
        assert rule_breaks(answer) == [] and mcp_get.call({"path": shown.path}) == answer, (shown.path, rule_breaks(answer))
for answer in node_answers(VIEW):
    # verifies: mesh.get-node-json
    assert rule_breaks(answer) == [], (answer[:80], rule_breaks(answer))
