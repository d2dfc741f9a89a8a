"""Unified path shapes as Get reads them: the split at a reserved word, collections, tool paths, Markdown."""

import json

from agentkit import (
    RESERVED_PREFIXES, Mesh, content_collection_plugin, mcp_tools, mesh_plugin, parse_path, reference_kind,
    resolve_context_path, resolve_relative, resolve_tool_path, tools_by_name,
)
from agentkit._config import BUILT_IN_PLUGINS, SOURCE_TREE_MESH_METHODS
from agentkit._plugins import MCP_METHODS_NOT_MODELLED
from agentkit.guide import upload_report
from agentkit._paths import markdown_blocks, markdown_reference
from claimcheck import capture
from claimcheck.agentview import AgentView
from snippets.support.facts import evidence

mesh = Mesh(node_types={"Company"})
upload_report(mesh)  # Meridian/content/Annual Report 2024.pdf
mesh.add_collection("Meridian", "filings").upload("annual-report-2024.md", b"# Annual report\n")
mesh.collections["Meridian/content"].upload("2024/notes.md", b"Nested notes.\n")
# Every tool call below is recorded for the page's "Tool call" listings (claimcheck/agentview.py).
VIEW = AgentView(__file__)
get = VIEW.wrap(tools_by_name(mesh_plugin(mesh)))["Get"]

# --8<-- [start:parse]
path = parse_path("Meridian/content/2024/notes.md")
print(path.kind, path.address, path.remainder, sep=" | ")
#> content | Meridian | content/2024/notes.md
print(parse_path("Meridian/filings/annual-report-2024.md").kind)
#> node
# --8<-- [end:parse]

# verifies: unified-path.reserved-prefixes
assert RESERVED_PREFIXES == ("content", "data", "schema", "model", "menu", "layoutAreas")
# verifies: unified-path.reserved-prefixes
assert [parse_path(p).address for p in ("Meridian/Content/x.md", "Meridian/schema/Company", "A/B/data")] == [
    "Meridian", "Meridian", "A/B"]
# Taken before the split: children, the area route (its last 'area' segment), the old 'word:' form.
forms = {p: parse_path(p) for p in ("Meridian/content/*", "A/area/B/area/Overview", "Meridian/content/x:y.md",
                                    "Meridian/Content:2024/notes.md", "Meridian/content:x/area/y")}
# verifies: unified-path.forms-before-the-split
assert [(f.kind, f.address, f.prefix) for f in forms.values()] == [
    ("children", "Meridian/content", None), ("area", "A/area/B", "area"), ("unified", "Meridian/content", "x"),
    ("content", "Meridian", "content"), ("content", "Meridian", "content")]
# verifies: unified-path.forms-before-the-split
assert json.loads(get.call({"path": "Meridian/Content:2024/notes.md"})) == "Nested notes.\n"  # the old form reads
# verifies: unified-path.other-words-are-node-paths
assert get.call({"path": "Meridian/filings/annual-report-2024.md"}) == "Not found: Meridian/filings/annual-report-2024.md"

oddities = Mesh(node_types={"Company", "Markdown"})
oddities.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
odd = oddities.add_collection("Meridian", "content")
odd.upload("area/f.md", b"in a folder named area")
odd.upload("Q1: notes.md", b"a colon in the name")
odd_get = tools_by_name(mesh_plugin(oddities))["Get"]
# verifies: unified-path.area-folder-unreadable
assert odd_get.call({"path": "Meridian/content/area/f.md"}) == "Not found: Meridian/content"
# verifies: unified-path.area-folder-unreadable
assert parse_path("Meridian/content/area/f.md").address == "Meridian/content" and odd.read_text("area/f.md")  # stored
colon = parse_path("Meridian/content/Q1: notes.md")
# verifies: unified-path.colon-name-unreadable
assert (colon.kind, colon.address, colon.prefix) == ("unified", "Meridian/content", "q1")
# verifies: unified-path.colon-name-unreadable
assert odd_get.call({"path": "Meridian/content/Q1: notes.md"}) != '"a colon in the name"' and odd.read_text("Q1: notes.md")
# The old colon form skips the area route and splits at its first ':': both files read there (S4).
# verifies: unified-path.area-folder-unreadable
assert json.loads(odd_get.call({"path": "Meridian/content:area/f.md"})) == "in a folder named area"
# verifies: unified-path.colon-name-unreadable
assert json.loads(odd_get.call({"path": "Meridian/content:Q1: notes.md"})) == "a colon in the name"
shadowing = parse_path("Acme/Model")
# verifies: unified-path.reserved-segment-shadows-node
assert (shadowing.kind, shadowing.address) == ("unified", "Acme")
# The same rule where agentkit models the read: content answers first; the node only when the read fails.
odd.upload("memo.md", b"the file")
oddities.create({"id": "memo.md", "namespace": "Meridian/content", "name": "A node", "nodeType": "Markdown"})
oddities.create({"id": "gone.md", "namespace": "Meridian/content", "name": "Another", "nodeType": "Markdown"})
# verifies: unified-path.reserved-segment-shadows-node
assert json.loads(odd_get.call({"path": "Meridian/content/memo.md"})) == "the file"
# verifies: unified-path.reserved-segment-shadows-node
assert json.loads(odd_get.call({"path": "Meridian/content/gone.md"}))["path"] == "Meridian/content/gone.md"

EXAMPLES = [
    "Meridian",
    "Meridian/content/",
    "Meridian/content/Annual Report 2024.pdf",
    "Meridian/content/2024/notes.md",
    "Meridian/content/content/2024/notes.md",
    "Meridian/content/filings",
    "Meridian/content/filings/annual-report-2024.md",
    "Meridian/filings/annual-report-2024.md",
    "Meridian/content/_Documents/Annual-Report-2024.pdf",
    "Meridian/content/no-such-file.pdf",
]


def shown(answer: str) -> str:
    """Get's answer in a few words (its first line, shortened)."""
    try:
        value = json.loads(answer)
    except json.JSONDecodeError:
        first = answer.splitlines()[0]
        return f"`{first}`" if first.startswith(("Error", "Not found")) else "the file's text"
    if isinstance(value, str):
        return "the file's text, as a JSON string"
    if isinstance(value, dict):
        return "a node, `nodeType` " + value["nodeType"]
    if not value:
        return "`[]`"
    return "a listing: " + ", ".join(f"folder `{f['name']}`" if f.get("isFolder") else f"`{f['name']}`" for f in value)


def shapes_table(answers: dict[str, str]) -> str:
    """What Get answered for each example path (`answers`, by path), and where parse_path splits it."""
    lines = ["| Path | Split at | Get answers |", "|---|---|---|"]
    for text in EXAMPLES:
        parsed = parse_path(text)
        split = f"`{parsed.prefix}`" if parsed.prefix else "(none: a node path)"
        lines.append(f"| `{text}` | {split} | {shown(answers[text])} |")
    return "\n".join(lines)


def get_on(store: str, *, content_files: bool = True):
    """Get on a mesh like the one above whose collections are kept by `store` (the host's wiring, S1)."""
    wired = Mesh(node_types={"Company"}, content_store=store)
    wired.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
    content = wired.add_collection("Meridian", "content")
    if content_files:
        content.upload("2024/notes.md", b"Nested notes.\n")
    wired.add_collection("Meridian", "filings").upload("annual-report-2024.md", b"# Annual report\n")
    return tools_by_name(mesh_plugin(wired))["Get"]


STORES = ("FileSystem", "AzureBlob")
STORE_EXAMPLES = ["Meridian/content/content/2024", "Meridian/content/content/2024/notes.md",
                  "Meridian/content/filings/annual-report-2024.md", "Meridian/content/2024/notes.md"]
ON_STORE = {store: {text: get_on(store).call({"path": text}) for text in STORE_EXAMPLES} for store in STORES}


def stores_table() -> str:
    """What Get answers for the same paths on the two content stores."""
    lines = ["| Path | File-system storage | Azure Blob storage |", "|---|---|---|"]
    lines += [f"| `{text}` | {shown(ON_STORE['FileSystem'][text])} | {shown(ON_STORE['AzureBlob'][text])} |"
              for text in STORE_EXAMPLES]
    return "\n".join(lines)


# Get's answer to each example path, read once, before the lines below add files: the asserts below check
# these answers, and the table shows them.
answers = {text: get.call({"path": text}) for text in EXAMPLES}
root = json.loads(answers["Meridian/content/"])
# verifies: unified-path.content-listing
assert [(f["path"], f.get("isFolder", False)) for f in root] == [("/2024", True), ("/Annual Report 2024.pdf", False)]
# verifies: unified-path.content-listing
assert set(root[0]) == {"path", "name", "isFolder"} and set(root[1]) == {"path", "name", "lastModified"}
mesh.collections["Meridian/content"].upload("2024/q1/deep.md", b"Deep.\n")
# verifies: unified-path.folder-listing
assert [f["path"] for f in json.loads(get.call({"path": "Meridian/content/content/2024"}))] == ["/2024/q1", "/2024/notes.md"]
# verifies: unified-path.folder-listing
assert [f["name"] for f in json.loads(get.call({"path": "Meridian/content/2024/q1"}))] == ["deep.md"]
# verifies: unified-path.folder-listing
assert get.call({"path": "Meridian/content/2024"}) == "Error: File '2024' not found in collection 'content'"
# verifies: unified-path.content-listing
assert parse_path("Meridian/content").prefix == "data" and not get.call({"path": "Meridian/content"}).startswith("[")
# verifies: unified-path.content-root-file
assert json.loads(answers["Meridian/content/Annual Report 2024.pdf"]).startswith("Meridian Components Group")
# verifies: unified-path.nested-both-forms
assert answers["Meridian/content/2024/notes.md"] == answers["Meridian/content/content/2024/notes.md"] == '"Nested notes.\\n"'
# verifies: unified-path.named-collection-shape
assert json.loads(answers["Meridian/content/filings/annual-report-2024.md"]) == "# Annual report\n"
# verifies: unified-path.named-collection-shape
assert [f["name"] for f in json.loads(answers["Meridian/content/filings"])] == ["annual-report-2024.md"]
# content comes first: a folder 'filings' in content, or a root file 'filings', shadows the collection.
shadowed = Mesh(node_types={"Company"})
shadowed.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
shadowed.add_collection("Acme", "content").upload("filings/annual-report-2024.md", b"content's copy")
shadowed.add_collection("Acme", "filings").upload("annual-report-2024.md", b"the collection's copy")
shadow_get = tools_by_name(mesh_plugin(shadowed))["Get"]
# verifies: unified-path.content-shadows-named-collection
assert json.loads(shadow_get.call({"path": "Acme/content/filings/annual-report-2024.md"})) == "content's copy"
shadowed.collections["Acme/content"].upload("filings", b"a root file")
# verifies: unified-path.content-shadows-named-collection
assert json.loads(shadow_get.call({"path": "Acme/content/filings"})) == "a root file"
# The folder step is the store's (S1): Azure Blob storage lists a missing folder as empty, a success.
fs, blob = ON_STORE["FileSystem"], ON_STORE["AzureBlob"]
# verifies: unified-path.folder-listing
assert [f["name"] for f in json.loads(fs["Meridian/content/content/2024"])] == ["notes.md"] \
    and blob["Meridian/content/content/2024"] == "[]"
# verifies: unified-path.nested-both-forms
assert json.loads(fs["Meridian/content/content/2024/notes.md"]) == "Nested notes.\n" \
    and blob["Meridian/content/content/2024/notes.md"] == "[]"
# verifies: unified-path.nested-both-forms
assert json.loads(blob["Meridian/content/2024/notes.md"]) == "Nested notes.\n"  # the single form reads on both
# verifies: unified-path.named-collection-shape
assert json.loads(fs["Meridian/content/filings/annual-report-2024.md"]) == "# Annual report\n"
# verifies: unified-path.named-collection-on-azure-blob
assert blob["Meridian/content/filings/annual-report-2024.md"] == "[]"
blob_shadowed = Mesh(node_types={"Company"}, content_store="AzureBlob")
blob_shadowed.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
blob_shadowed.add_collection("Acme", "content").upload("filings/annual-report-2024.md", b"content's copy")
blob_shadowed.add_collection("Acme", "filings").upload("annual-report-2024.md", b"the collection's copy")
# verifies: unified-path.named-collection-on-azure-blob
assert json.loads(tools_by_name(mesh_plugin(blob_shadowed))["Get"].call(
    {"path": "Acme/content/filings/annual-report-2024.md"})) == "content's copy"  # unless content holds that path
capture("unified_path_stores.md", stores_table())  # ON_STORE, read once and checked above
# verifies: unified-path.named-collection-shape
# opening a file-system collection creates its folder, so an empty `content` refuses the folder too (S1)
assert json.loads(get_on("FileSystem", content_files=False).call(
    {"path": "Meridian/content/filings/annual-report-2024.md"})) == "# Annual report\n"
# verifies: unified-path.not-found-messages
assert answers["Meridian/content/no-such-file.pdf"] == "Error: File 'no-such-file.pdf' not found in collection 'content'"
capture("unified_path_shapes.md", shapes_table(answers))  # the last of its answers is checked just above
# verifies: unified-path.not-found-messages
assert get.call({"path": "Meridian/content/2024/gone.md"}) == "Error: File '2024/gone.md' not found in collection 'content'"
bare = Mesh(node_types={"Company"})
bare.create({"id": "Empty", "name": "Empty", "nodeType": "Company"})
# verifies: unified-path.not-found-messages
assert tools_by_name(mesh_plugin(bare))["Get"].call({"path": "Empty/content/x.md"}) == "Error: Content collection 'content' not found"
# verifies: unified-path.not-found-messages
assert get.call({"path": "Meridian/Nowhere"}) == "Not found: Meridian/Nowhere"

letter = mesh.collections["Meridian/content"]
letter.upload("CEO's letter.md", b"Dear shareholders")
in_context = VIEW.wrap(tools_by_name(mesh_plugin(mesh, context="Meridian")))["Get"]  # a chat whose context is Meridian

# --8<-- [start:tool-paths]
print(get.call({"path": '  @"Meridian/content/2024/notes.md" '}))  # blanks, '@' and quotes removed
#> "Nested notes.\n"
print(get.call({"path": "Meridian/content/CEO's letter.md"}))  # the apostrophe is removed too
#> Error: File 'CEOs letter.md' not found in collection 'content'
print(in_context.call({"path": "content/2024/notes.md"}))  # starts with a reserved word: under the context
#> "Nested notes.\n"
print(in_context.call({"path": "Facts/rev-FY2024-1"}))  # a '/' elsewhere: absolute
#> Not found: Facts/rev-FY2024-1
# --8<-- [end:tool-paths]
capture("unified_path_view_tool_paths.md", VIEW.markdown("tool-paths"))

# verifies: unified-path.tool-paths-lose-quotes
assert resolve_tool_path("Meridian/content/CEO's letter.md") == "Meridian/content/CEOs letter.md"
# verifies: unified-path.tool-paths-lose-quotes
assert get.call({"path": "Meridian/content/CEO's letter.md"}) == "Error: File 'CEOs letter.md' not found in collection 'content'"
# verifies: unified-path.tool-paths-lose-quotes
assert get.call({"path": 'Meridian/content/"CEO\'s letter.md"'}).startswith("Error: File 'CEOs letter.md'")
# verifies: unified-path.tool-paths-lose-quotes
assert "CEO's letter.md" in [f["name"] for f in json.loads(get.call({"path": "Meridian/content/"}))]
# The agent's UploadContent and the chunk tools take filePath as sent (UQ1, N7): stored and chunked, not readable by Get.
agent_tools = tools_by_name(mesh_plugin(mesh, context="Meridian") + content_collection_plugin(mesh, context="Meridian"))
stored = agent_tools["UploadContent"].call({"nodePath": "/Meridian", "filePath": "CFO's memo.md", "content": "Margins held."})
# verifies: unified-path.quoted-names-stored
assert stored == "Uploaded `CFO's memo.md` to @Meridian/content/CFO's memo.md" and letter.has_file("CFO's memo.md")
letter.index("CFO's memo.md")
mesh.refresh_index()
chunk = json.loads(agent_tools["GetChunk"].call({"collectionPath": "Meridian/content", "filePath": "CFO's memo.md",
                                                 "chunkIndex": 0}))
# verifies: unified-path.quoted-names-stored
assert (chunk["found"], chunk["text"]) == (True, "Margins held.") and \
    get.call({"path": "Meridian/content/CFO's memo.md"}) == "Error: File 'CFOs memo.md' not found in collection 'content'"
# verifies: mesh.agent-paths-context
assert json.loads(in_context.call({"path": "content/2024/notes.md"})) == "Nested notes.\n"
# verifies: mesh.agent-paths-context
assert in_context.call({"path": "Facts/rev-FY2024-1"}) == "Not found: Facts/rev-FY2024-1"
# verifies: mesh.agent-paths-context
assert json.loads(in_context.call({"path": "content:2024/notes.md"})) == "Nested notes.\n"  # a colon path is relative
# verifies: mesh.agent-paths-context
assert [resolve_context_path("Meridian", text) for text in ("DATA/x", "layoutAreas/", "layoutAreas")] == [
    "@Meridian/DATA/x", "layoutAreas/", "@Meridian/layoutAreas"]  # `layoutAreas/…` is not prefixed
# verifies: mesh.agent-paths-context
assert resolve_context_path("Meridian", "@content/x.md") == "@Meridian/content/x.md"  # one leading '@' set aside first
# verifies: mesh.agent-paths-context
assert json.loads(in_context.call({"path": '"content/2024/notes.md"'})) == "Nested notes.\n"  # double quotes go first
# verifies: mesh.agent-paths-context
assert not in_context.call({"path": "'content/2024/notes.md'"}).startswith('"Nested')  # single quotes go only after
# verifies: mesh.agent-paths-context
assert json.loads(in_context.call({"path": '"@content/2024/notes.md"'})) == "Nested notes.\n"  # quotes, then '@'
# verifies: mesh.agent-paths-context
assert in_context.call({"path": "layoutAreas/"}).endswith("('layoutAreas/')")  # Get receives it unprefixed
# verifies: mesh.agent-paths-context
assert resolve_context_path("Meridian", "content/Q1: notes.md") == "content/Q1: notes.md"  # a ':' after a '/': absolute
# NavigateTo reads a single segment as written first, then under the context; Get reads it under the context.
mesh.create({"id": "Ledger", "name": "A ledger at the root", "nodeType": "Company"})
mesh.create({"id": "Ledger", "namespace": "Meridian", "name": "Meridian's ledger", "nodeType": "Company"})
# verifies: mesh.navigate-to
assert agent_tools["NavigateTo"].call({"path": "Ledger"}) == "Navigating to: Ledger."
# verifies: mesh.agent-paths-context
assert json.loads(agent_tools["Get"].call({"path": "Ledger"}))["path"] == "Meridian/Ledger"
before = agent_tools["NavigateTo"].call({"path": "Dimensions"})
mesh.create({"id": "Dimensions", "namespace": "Meridian", "name": "Dimensions", "nodeType": "Company"})
# verifies: mesh.navigate-to
assert (before, agent_tools["NavigateTo"].call({"path": "Dimensions"})) == (
    "Nothing in the mesh matches \u201cDimensions\u201d.", "Navigating to: Meridian/Dimensions.")
# verifies: mesh.agent-paths-context
assert agent_tools["Delete"].call({"paths": '["Facts"]'}) == "Error deleting Facts: Node not found: Facts"  # no context
# verifies: mesh.agent-paths-context
assert json.loads(agent_tools["GetChunk"].call({"collectionPath": "content", "filePath": "x.md", "chunkIndex": 0}))[
    "collectionPath"] == "content"  # compared as sent
# verifies: unified-path.dot-dot-in-tool-paths, unified-path.dot-dot-file-system
assert get.call({"path": "Meridian/content/2024/../Annual Report 2024.pdf"}) == \
    get.call({"path": "Meridian/content/Annual Report 2024.pdf"})  # the default store, FileSystem, resolves '..'
# verifies: unified-path.dot-dot-in-tool-paths
assert (in_context.call({"path": "../Meridian"}), in_context.call({"path": ".."})) == (
    "Not found: ../Meridian", "Not found: Meridian/..")

tree = Mesh(node_types={"Company"})  # the collections kept as folders of one tree, in the FileSystem store
tree.create({"id": "Meridian", "name": "Meridian Components Group", "nodeType": "Company"})
tree.create({"id": "Harbour", "name": "Harbour Logistics", "nodeType": "Company"})
tree.add_collection("Meridian").upload("notes.md", b"Board notes.")
tree.add_collection("Harbour").upload("salaries.csv", b"name;salary\nA;1\n")
on_files = tools_by_name(mcp_tools(tree))

# --8<-- [start:dot-dot]
print(on_files["get"].call({"path": "Meridian/content/../../Harbour/content/salaries.csv"}))  # Harbour's file
#> "name;salary\nA;1\n"
tree.content_store = "AzureBlob"  # as blobs, with an SDK that leaves '..' to the blob's URL, which resolves it
print(on_files["get"].call({"path": "Meridian/content/../../Harbour/content/salaries.csv"}))
#> "name;salary\nA;1\n"
print(on_files["get"].call({"path": "Meridian/content/../../Harbour/content"}))  # a listing's prefix is taken as sent
#> []
# --8<-- [end:dot-dot]
# verifies: unified-path.dot-dot-blob-listing
assert on_files["get"].call({"path": "Meridian/content/../../Harbour/content"}) == "[]"  # AzureBlob: listed as sent
# verifies: unified-path.dot-dot-agentkit-model, unified-path.dot-dot-azure-blob
assert json.loads(on_files["get"].call({"path": "Meridian/content/../../Harbour/content/salaries.csv"})) == "name;salary\nA;1\n"
tree.content_store = "FileSystem"
# verifies: unified-path.dot-dot-other-spaces, unified-path.dot-dot-file-system
assert json.loads(on_files["get"].call({"path": "Meridian/content/../../Harbour/content/salaries.csv"})) == "name;salary\nA;1\n"

# verifies: unified-path.dot-dot-file-system
assert json.loads(on_files["get"].call({"path": "Meridian/content/x/../notes.md"})) == "Board notes."
# verifies: unified-path.dot-dot-agentkit-model
assert on_files["get"].call({"path": "Meridian/content/../../../etc/passwd"}) == \
    "Error: File '../../../etc/passwd' not found in collection 'content'"  # agentkit's tree ends at its root
# verifies: unified-path.dot-dot-file-system
assert [item["path"] for item in json.loads(on_files["get"].call({"path": "Meridian/content/../../Harbour/content"}))] \
    == ["/salaries.csv"]  # the folder is listed too
# verifies: unified-path.dot-dot-uploads
assert on_files["upload"].call({"path": "Meridian/content/../x.md", "base64Content": "eA=="}).endswith(
    "agentkit does not store '.', '..' or empty segments") and not tree.collections["Meridian/content"].has_file("../x.md")
# verifies: unified-path.dot-dot-uploads
assert tools_by_name(content_collection_plugin(tree))["UploadContent"].call(
    {"nodePath": "Meridian", "filePath": "../x.md", "content": "x"}) == (
    "File path '../x.md': agentkit does not store '.', '..' or empty segments") and \
    [f["filePath"] for f in tree.collections["Meridian/content"].listing()] == ["notes.md"]  # refused, nothing saved

# Over the whole registry: every path argument of every agent and MCP tool agentkit models takes '..' as written.
# Each call runs on a fresh mesh twice, with a path holding '..' and with the path it would resolve to: the answers
# differ (nothing resolved it), and none refuses '..'. agentkit refuses an UploadContent file path with '..'
# instead of modelling the write beside the folder (unified-path.dot-dot-uploads), so that argument is left out.
PATH_ARGUMENTS = {"path": "Meridian/Facts", "paths": "Meridian/Facts", "basePath": "/Meridian", "sourcePath": "Meridian/Facts",
                  "targetPath": "Meridian/Moved", "targetNamespace": "Meridian/Copies", "nodePath": "/Meridian",
                  "scope": "Meridian/content", "collectionPath": "Meridian/content", "filePath": "notes.md"}
OTHER_ARGUMENTS = {"query": "Facts", "fields": '{"name": "Renamed"}', "oldText": "a", "newText": "b", "content": "x",
                   "base64Content": "eA=="}


def every_tool(target: Mesh) -> list:
    return mesh_plugin(target, context="Meridian") + content_collection_plugin(target, context="Meridian") + mcp_tools(target)


def answer_on_a_fresh_mesh(tool_key: tuple[str, str], argument: str, value: str) -> str:
    fresh = Mesh(node_types={"Company"})
    fresh.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
    fresh.create({"id": "Facts", "namespace": "Meridian", "name": "Facts", "nodeType": "Company"})
    fresh.add_collection("Meridian").upload("notes.md", b"Board notes on Facts.", index=True)
    fresh.refresh_index()
    tool = next(t for t in every_tool(fresh) if (t.plugin, t.name) == tool_key)
    fillers = {**PATH_ARGUMENTS, **OTHER_ARGUMENTS, **({"basePath": "Meridian"} if tool.plugin == "mcp" else {})}
    arguments = {q.name: fillers.get(q.name, 0) for q in tool.parameters if q.required}
    arguments[argument] = json.dumps([value]) if argument == "paths" else value
    return tool.call(arguments)


path_calls = [((t.plugin, t.name), q.name) for t in every_tool(mesh) for q in t.parameters if q.name in PATH_ARGUMENTS
              and ((t.plugin, t.name), q.name) != (("ContentCollection", "UploadContent"), "filePath")]
for tool_key, argument in path_calls:
    plain = "Meridian" if (tool_key[0], argument) == ("mcp", "basePath") else PATH_ARGUMENTS[argument]
    climbing = plain.replace("/", "/x/../", 1) if "/" in plain else f"x/../{plain}"
    as_written, resolved = (answer_on_a_fresh_mesh(tool_key, argument, value) for value in (climbing, plain))
    # verifies: unified-path.dot-dot-in-tool-paths
    assert as_written != resolved and "'..'" not in as_written, (tool_key, argument, as_written)
# verifies: unified-path.dot-dot-in-tool-paths
assert len(path_calls) == 32 and {plugin for (plugin, _), _ in path_calls} == {"Mesh", "ContentCollection", "mcp"}

mcp = VIEW.wrap(tools_by_name(mcp_tools(mesh)))
# --8<-- [start:mcp-upload]
print(mcp["upload"].call({"path": "Meridian/filings/q1.md", "base64Content": "UTEgbm90ZXMu"}))
#> {"status":"Uploaded","path":"Meridian/filings/q1.md","bytes":9}
print(mcp["get"].call({"path": "Meridian/content/filings/q1.md"}))
#> "Q1 notes."
print(mcp["upload"].call({"path": "Meridian/filings/q2.md", "base64Content": ""}))
#> Error: base64Content is required.
# --8<-- [end:mcp-upload]
capture("unified_path_view_mcp_upload.md", VIEW.markdown("mcp-upload"))

# verifies: unified-path.upload-answer
assert mcp["upload"].call({"path": "Meridian/filings/q1.md", "base64Content": "UTEgbm90ZXMu"}).startswith('{"status":"Uploaded"')
# verifies: unified-path.upload-answer
assert mcp["get"].call({"path": "Meridian/filings/q1.md"}) == "Not found: Meridian/filings/q1.md"
# verifies: unified-path.upload-refuses-empty-content
assert mcp["upload"].call({"path": "Meridian/filings/q2.md", "base64Content": ""}) == "Error: base64Content is required."
# verifies: unified-path.upload-refuses-empty-content
assert not mesh.collections["Meridian/filings"].has_file("q2.md")

# --8<-- [start:markdown]
print(reference_kind("@Meridian/content/Annual Report 2024.pdf"), reference_kind("@@Meridian/content/logo.png"))
#> link embed
print(resolve_relative("Meridian/Facts", "rev-FY2024-1"))
#> Meridian/Facts/rev-FY2024-1
print(resolve_relative("Meridian/Facts", "../Dimensions"))
#> Meridian/Dimensions
print(resolve_relative("Meridian/Facts", "../../../Other"))
#> Other
print(resolve_relative("Meridian/Facts", "/Other/Company"))
#> /Other/Company
# --8<-- [end:markdown]

# verifies: unified-path.links-and-embeds
assert (reference_kind("@x"), reference_kind("@@x"), reference_kind("x")) == ("link", "embed", None)
# verifies: unified-path.links-and-embeds
assert reference_kind("See @Meridian/content/x.md for details.") is None  # inside a sentence: plain text
# verifies: unified-path.links-and-embeds
assert markdown_blocks("@Meridian/Facts holds the facts.\nNext line.") == [("link", "Meridian/Facts"), ("text", "Next line.")]
# verifies: unified-path.links-and-embeds
assert [markdown_reference(f"@Meridian/Facts{end}x") for end in " )]}"] == [("link", "Meridian/Facts")] * 4
# verifies: unified-path.links-and-embeds
assert [markdown_reference(line) for line in ('@"Meridian/content/Annual Report 2024.pdf"',
                                              "@Meridian/content/Annual Report 2024.pdf")] == [
    ("link", "Meridian/content/Annual Report 2024.pdf"), ("link", "Meridian/content/Annual")]
# verifies: unified-path.relative-forms
assert [resolve_relative("Meridian/Facts", ref) for ref in ("rev-FY2024-1", "../Dimensions", "../../../Other", "/Other/Company")] == [
    "Meridian/Facts/rev-FY2024-1", "Meridian/Dimensions", "Other", "/Other/Company"]
# verifies: unified-path.relative-forms
assert resolve_relative("Meridian/Facts", "Other/Company") == "Meridian/Facts/Other/Company"
# verifies: unified-path.self-prefixed-reference
assert [resolve_relative("Meridian/Facts", ref) for ref in ("Meridian/Facts/rev-FY2024-1", "Meridian/Facts")] == [
    "Meridian/Facts/rev-FY2024-1", "Meridian/Facts"]
# verifies: unified-path.self-prefixed-reference
assert resolve_relative("Meridian/Facts", "Meridian/FactsX") == "Meridian/Facts/Meridian/FactsX"  # a prefix of a segment is no path
# verifies: unified-path.thread-reference-base
assert [resolve_relative("Meridian/Facts/_Thread/review/msg-3", ref) for ref in ("rev-FY2024-1", "../Dimensions")] == [
    "Meridian/Facts/rev-FY2024-1", "Meridian/Dimensions"]

# The tools below are framework tools agentkit does not model (its registry names them). What they do with '..' is
# read off the framework's source: these checks hold each claim to the evidence of its fact.
# verifies: unified-path.dot-dot-agent-files
assert "AgentFiles" in BUILT_IN_PLUGINS and not any("agent_file" in name for name in agent_tools) and {
    "Store paths must not escape the root; '{relativePath}' contains '..'.", 'if (segment == "..")',
    "Observable.Return($\"Could not read '{path}': {ex.Message}\")"} <= set(evidence("N11"))
# verifies: unified-path.dot-dot-run-tests
assert SOURCE_TREE_MESH_METHODS == ("RunTests",) and "RunTests" not in agent_tools and {
    "var fullPath = Path.GetFullPath(Path.Combine(repoRoot, projectPath));",
    "if (!fullPath.StartsWith(repoRoot, StringComparison.OrdinalIgnoreCase))"} <= set(evidence("N12"))
# verifies: unified-path.dot-dot-http-routes
assert {'if (dirParts.Any(p => p is "." or ".."', "ops => ops.ContentList(body.Path)",
        "bare Path.Combine, so an un-guarded `..` would read outside the collection's BasePath"} <= set(evidence("N8"))
# verifies: unified-path.dot-dot-autocomplete
assert "Autocomplete" in MCP_METHODS_NOT_MODELLED and "autocomplete" not in on_files and {
    'while (path.StartsWith("../"))', "return GetRelativeSuggestions(path, effectiveContext);"} <= set(evidence("N13"))
