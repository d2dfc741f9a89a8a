"""The chunk tools (K2-K7): the ContentCollection plugin, the MCP tools, their answers and their descriptions."""

import json

from claimcheck import capture
from claimcheck.agentview import AgentView
from agentkit import (
    CHUNK_OVERLAP, CHUNK_SIZE, CONTENT_COLLECTION_PLUGIN, Mesh, chunk_spans, content_collection_plugin, mcp_tools,
    snippet, tools_by_name,
)
from agentkit import SearchIndex
from agentkit._chunk_navigation import NO_STORE
from agentkit._plugins import FUNCTION_FAILED, MCP_INVOCATION_FAILED
from agentkit.guide import REPORT, copy_mesh, report_index_text, upload_report

mesh = Mesh(node_types={"Company"})
document = upload_report(mesh)
mesh.refresh_index()

# Every tool call below is recorded for the page's "Tool call" listings (claimcheck/agentview.py).
VIEW = AgentView(__file__)
content_collection_plugin = VIEW.plugin(content_collection_plugin)

# --8<-- [start:chunk-tools]
tools = tools_by_name(content_collection_plugin(mesh, context="Meridian"))  # UploadContent, SearchChunks, GetChunk
found = json.loads(tools["SearchChunks"].call({"query": "namespace:Meridian/content operating profit", "limit": 5}))
hit = found["results"][0]
chunk = json.loads(tools["GetChunk"].call({
    "collectionPath": hit["collectionPath"], "filePath": hit["filePath"], "chunkIndex": hit["chunkIndex"],
}))
beyond = json.loads(tools["GetChunk"].call({
    "collectionPath": "Meridian/content", "filePath": "Annual Report 2024.pdf", "chunkIndex": 500,
}))
# --8<-- [end:chunk-tools]
capture("chunks_view_chunk_tools.md", VIEW.markdown("chunk-tools"))

indexed = report_index_text().text
total = document.content["chunkCount"]
FILE = {"collectionPath": "Meridian/content", "filePath": REPORT.file_name}
first = json.loads(tools["GetChunk"].call({**FILE, "chunkIndex": 0}))
last = json.loads(tools["GetChunk"].call({**FILE, "chunkIndex": total - 1}))
mcp = tools_by_name(mcp_tools(mesh))

# verifies: chunks.plugin-and-tools
assert CONTENT_COLLECTION_PLUGIN == "ContentCollection" and list(tools) == ["UploadContent", "SearchChunks", "GetChunk"]
# verifies: chunks.plugin-and-tools
assert {"search_chunks", "get_chunk"} <= set(mcp) and {t.plugin for t in tools.values()} == {"ContentCollection"}
# verifies: chunks.window-and-overlap
assert (CHUNK_SIZE, CHUNK_OVERLAP) == (1000, 150) and chunk_spans(len(indexed))[1] == (850, 1850)
# verifies: chunks.window-and-overlap
assert total == len(chunk_spans(len(indexed))) and chunk_spans(1000) == [(0, 1000)] and first["text"] == indexed[:1000]
# verifies: chunks.pdf-chunks-have-pages
assert (first["page"], last["page"]) == (1, 62) and set(first["bbox"]) == {"x", "y", "w", "h"}
# verifies: chunks.pdf-chunks-have-pages
assert all(0 <= value <= 1 for value in first["bbox"].values()) and all("page" in h and "bbox" in h for h in found["results"])
# verifies: chunks.search-chunks-shape
assert set(found) == {"count", "results"} and found["count"] == len(found["results"]) == 5
# verifies: chunks.search-chunks-shape
assert all(set(h) == {"documentPath", "collectionPath", "filePath", "chunkIndex", "rank", "snippet", "page", "bbox"}
           for h in found["results"])
# verifies: chunks.search-chunks-shape
assert [h["rank"] for h in found["results"]] == [0, 1, 2, 3, 4] and len({h["documentPath"] for h in found["results"]}) == 1
# verifies: chunks.search-chunks-shape
assert all(len(h["snippet"]) <= 161 and "\n" not in h["snippet"] for h in found["results"]) and hit["snippet"].endswith("…")
# verifies: chunks.search-chunks-shape
assert snippet("a\nb  " + "c" * 200) == "a b " + "c" * 156 + "…" and snippet("short\ntext") == "short text"
# verifies: chunks.search-chunks-shape
assert [json.loads(tools["SearchChunks"].call({"query": "namespace:Meridian/content profit", "limit": n}))["count"]
        for n in (0, 500)] == [1, total] and total < 200
mesh.add_collection("Meridian", "long").upload("long.md", ("figure " * 30_000).encode(), index=True)
mesh.refresh_index()
# verifies: chunks.search-chunks-shape
assert json.loads(tools["SearchChunks"].call({"query": "namespace:Meridian/long figure", "limit": 500}))["count"] == 200
layered = Mesh(node_types={"Company", "Markdown"}, index=SearchIndex(auto_refresh=True))  # collection Meridian/sub, and the content of node Meridian/sub
layered.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
layered.create({"id": "sub", "namespace": "Meridian", "name": "Sub", "nodeType": "Company"})
layered.add_collection("Meridian/sub").upload("weak.md", b"margin", index=True)
layered.add_collection("Meridian", "sub").upload("strong.md", b"margin margin margin margin", index=True)
walk = json.loads(tools_by_name(mcp_tools(layered))["search_chunks"].call({"query": "margin", "scope": "Meridian/sub/content"}))
# verifies: chunks.several-collections-not-ranked
assert [(h["filePath"], h["rank"]) for h in walk["results"]] == [("weak.md", 0), ("strong.md", 1)]  # joined, not re-ranked
failing = copy_mesh(mesh)
failing.index.chunk_store_failure = "connection refused"  # the chunk store's database is down
# verifies: chunks.chunk-store-failure-raised
assert tools_by_name(content_collection_plugin(failing))["SearchChunks"].call({"query": "namespace:Meridian/content profit"}) \
    == FUNCTION_FAILED and tools_by_name(mcp_tools(failing))["search_chunks"].call(
        {"query": "namespace:Meridian/content profit"}) == MCP_INVOCATION_FAILED.format(tool="search_chunks")
# verifies: chunks.get-chunk-shape
assert list(chunk) == ["found", "collectionPath", "filePath", "chunkIndex", "text", "prevIndex", "nextIndex",
                       "totalChunks", "page", "bbox"]
# verifies: chunks.get-chunk-shape
assert (first["prevIndex"], first["nextIndex"], last["prevIndex"], last["nextIndex"]) == (None, 1, total - 2, None)
# verifies: chunks.out-of-range-is-an-answer
assert beyond == {"found": False, **FILE, "chunkIndex": 500, "totalChunks": total,
                  "message": f"No chunk at index 500; valid range is 0..{total - 1}."}


def shapes() -> str:
    """One SearchChunks hit and GetChunk answers, as the model reads them (text shortened)."""
    shown = dict(chunk, text=chunk["text"][:60] + f" … ({len(chunk['text'])} characters)")
    return "\n".join([
        "```json title=\"SearchChunks: the first hit\"",
        json.dumps(hit, ensure_ascii=False, indent=2),
        "```",
        "",
        "```json title=\"GetChunk: that hit's chunk\"",
        json.dumps(shown, ensure_ascii=False, indent=2),
        "```",
        "",
        "```json title=\"GetChunk: index 500, out of range\"",
        json.dumps(beyond, ensure_ascii=False, indent=2),
        "```",
    ])


# The listing shows hit, chunk and beyond as the asserts above checked them.
capture("chunk_tool_shapes.md", shapes())

# verifies: chunks.out-of-range-is-an-answer
assert json.loads(tools["GetChunk"].call({**FILE, "filePath": "missing.pdf", "chunkIndex": 0}))["message"] == \
    "No chunks indexed for 'missing.pdf' in 'Meridian/content'."
# verifies: chunks.out-of-range-is-an-answer
assert json.loads(tools["GetChunk"].call({**FILE, "filePath": " ", "chunkIndex": 0})) == \
    {"count": 0, "results": [], "message": "'filePath' is required."}
unindexed = copy_mesh(mesh)
unindexed.index.chunk_store = False  # a host that wires no indexing pipeline
not_enabled = {"count": 0, "results": [], "message": NO_STORE}
# verifies: chunks.no-chunk-store
assert [json.loads(tool.call(arguments)) for tool, arguments in (
    (tools_by_name(content_collection_plugin(unindexed))["GetChunk"], {**FILE, "chunkIndex": 0}),
    (tools_by_name(mcp_tools(unindexed))["get_chunk"], {**FILE, "chunkIndex": 0}),
    (tools_by_name(mcp_tools(unindexed))["search_chunks"], {"query": "namespace:Meridian/content profit"}),
)] == [not_enabled] * 3 and NO_STORE == ("Content chunk indexing is not enabled in this host — no chunk store is "
                                         "configured.")

# --8<-- [start:anchored]
for arguments in ({"query": "operating profit"},                                 # anchored at the context
                  {"query": "operating profit", "scope": "/Meridian/content"},   # anchored at the collection
                  {"query": "namespace:Meridian/content operating profit"}):     # targeted
    print(json.loads(tools["SearchChunks"].call(arguments))["count"], arguments)
#> 0 {'query': 'operating profit'}
#> 20 {'query': 'operating profit', 'scope': '/Meridian/content'}
#> 20 {'query': 'namespace:Meridian/content operating profit'}
# --8<-- [end:anchored]

# verifies: chunks.search-chunks-scope
assert json.loads(tools["SearchChunks"].call({"query": "operating profit"})) == {"count": 0, "results": []}
# verifies: chunks.search-chunks-scope
assert json.loads(tools["SearchChunks"].call({"query": "operating profit", "scope": "/Meridian"}))["count"] == 0
# verifies: chunks.namespace-wins-over-scope
assert json.loads(tools["SearchChunks"].call({"query": "namespace:Meridian/content operating profit", "scope": "/Elsewhere"}))["count"] == 20
# verifies: chunks.search-chunks-scope
assert json.loads(mcp["search_chunks"].call({"query": "operating profit"}))["message"].startswith("No scope to search.")
# verifies: chunks.scope-clean-up
assert {json.loads(mcp["search_chunks"].call({"query": "operating profit", "scope": scope}))["count"] for scope in (
    "@@Meridian/content", " /Meridian/content/ ", "Meridian/content")} == {20}  # blanks, every '@', '/' at the ends
# verifies: chunks.scope-clean-up
assert [json.loads(search.call({"query": "operating profit", "scope": "/@Meridian/content"}))["count"]
        for search in (mcp["search_chunks"], tools["SearchChunks"])] == [0, 20]  # MCP keeps the '@' behind the '/'
two_files = copy_mesh(mesh)
two_files.collections["Meridian/content"].upload("notes.md", b"Operating profit rose in the second half.", index=True)
two_files.refresh_index()
on_document = json.loads(tools_by_name(content_collection_plugin(two_files, context=document.path))["SearchChunks"].call(
    {"query": "operating profit"}))
# verifies: chunks.context-under-a-collection
assert document.path == f"Meridian/content/_Documents/{document.id}" and {h["filePath"] for h in on_document["results"]} == {
    REPORT.file_name, "notes.md"}  # a Document node's context reaches its collection: every file of it
# verifies: chunks.context-under-a-collection
assert json.loads(tools_by_name(content_collection_plugin(two_files, context="Meridian/content"))["SearchChunks"].call(
    {"query": "operating profit"}))["count"] == 20
# verifies: chunks.namespace-value-gets-no-context
assert json.loads(tools["SearchChunks"].call({"query": "namespace:content operating profit"})) == {
    "count": 0, "results": []}  # the namespace: value gets no chat context

AGENT_DESCRIPTION = tools["SearchChunks"].description
MCP_DESCRIPTION = mcp["search_chunks"].description
# verifies: chunks.descriptions-say-get-the-document
assert "use Get on the Document for whole-document reads (e.g. table extraction)" in AGENT_DESCRIPTION
# verifies: chunks.descriptions-say-get-the-document
assert "for whole-document reads (e.g. table extraction) use `Get` on the Document" in MCP_DESCRIPTION
