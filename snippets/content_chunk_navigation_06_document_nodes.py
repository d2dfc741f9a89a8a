"""Document nodes are nodes like any other: indexing overwrites a node at their path, and deleting one leaves its file."""

import json

from claimcheck import capture
from claimcheck.agentview import AgentView
from snippets.support.node_rule import is_node, node_answers, rule_breaks
from agentkit import Mesh, PathError, content_collection_plugin, extractive_summary, file_path_from_document, mesh_plugin, tools_by_name

mesh = Mesh(node_types={"Company", "Markdown", "Space"})
mesh.index.summarizer = extractive_summary  # a host wired like memex writes Document nodes (D6)
mesh.create({"id": "Meridian", "name": "Meridian Components Group", "nodeType": "Company"})
content = mesh.add_collection("Meridian")
content.upload("q2-notes.md", b"Q2 notes: the order book grew to 2,140 units.", index=True)
mesh.refresh_index()
# Every tool call below is recorded for the page's "Tool call" listings (claimcheck/agentview.py).
VIEW = AgentView(__file__)
tools = VIEW.wrap(tools_by_name(mesh_plugin(mesh, context="Meridian") + content_collection_plugin(mesh, context="Meridian")))

# --8<-- [start:document-path-taken]
print(tools["Create"].call({"node": json.dumps({"id": "Meridian/content/_Documents/q3-notes.md", "name": "My Q3 notes",
                                     "nodeType": "Markdown", "content": "Draft: ask about the order book."})}))
#> Created: Meridian/content/_Documents/q3-notes.md
content.upload("q3-notes.md", b"Q3 notes: the order book grew to 2,310 units.", index=True)  # the host indexes a file
node = json.loads(tools["Get"].call({"path": "Meridian/content/_Documents/q3-notes.md"}))
print(node["nodeType"], "|", node["name"], "|", node["content"]["summary"])
#> Document | q3-notes.md | Q3 notes: the order book grew to 2,310 units.
# --8<-- [end:document-path-taken]
capture("chunks_view_document_path_taken.md", VIEW.markdown("document-path-taken"))

stored = mesh.get("Meridian/content/_Documents/q3-notes.md")
# verifies: chunks.indexing-replaces-node-at-document-path
assert (stored.node_type, stored.name, stored.content["filePath"]) == ("Document", "q3-notes.md", "q3-notes.md")
# verifies: chunks.indexing-replaces-node-at-document-path
assert "Draft" not in json.dumps(stored.content) and stored.version == 2  # written over, one version later

# --8<-- [start:deleted-document-node]
print(tools["Delete"].call({"paths": json.dumps(["Meridian/content/_Documents/q2-notes.md"])}))
#> Deleted: Meridian/content/_Documents/q2-notes.md
mesh.refresh_index()
hit = json.loads(tools["SearchChunks"].call({"query": "namespace:Meridian/content order book 2,140"}))["results"][0]
print(hit["documentPath"])
#> Meridian/content/_Documents/q2-notes.md
print(tools["Get"].call({"path": hit["documentPath"]}))
#> Error: File '_Documents/q2-notes.md' not found in collection 'content'
print(tools["Get"].call({"path": file_path_from_document(hit)}))
#> "Q2 notes: the order book grew to 2,140 units."
# --8<-- [end:deleted-document-node]
capture("chunks_view_deleted_document_node.md", VIEW.markdown("deleted-document-node"))

# verifies: chunks.deleted-document-node-dangles
assert not mesh.exists("Meridian/content/_Documents/q2-notes.md") and [f["filePath"] for f in content.listing()] == \
    ["q2-notes.md", "q3-notes.md"]
chunk = json.loads(tools["GetChunk"].call({"collectionPath": "Meridian/content", "filePath": "q2-notes.md", "chunkIndex": 0}))
# verifies: chunks.deleted-document-node-dangles
assert chunk["found"] is True and "2,140" in chunk["text"] and (hit["collectionPath"], hit["filePath"]) == \
    ("Meridian/content", "q2-notes.md")
content.upload("q2-notes.md", b"Q2 notes: the order book grew to 2,140 units.", index=True)  # the same bytes again
# verifies: chunks.same-bytes-keep-node-deleted
assert not mesh.exists("Meridian/content/_Documents/q2-notes.md")  # the hash gate skips the file, the sink remembers
content.upload("q2-notes.md", b"Q2 notes: the order book grew to 2,140 units (revised).", index=True)
# verifies: chunks.deleted-document-node-dangles
assert mesh.get("Meridian/content/_Documents/q2-notes.md").content["filePath"] == "q2-notes.md"  # changed bytes: written
mesh.delete(["Meridian/content/_Documents/q2-notes.md"])
content.upload("q2-notes.md", b"Q2 notes: the order book grew to 2,140 units (revised).", index=True)
# verifies: chunks.same-bytes-keep-node-deleted
assert not mesh.exists("Meridian/content/_Documents/q2-notes.md")  # the same bytes: still remembered
try:  # Meridian is a Company: no Content Indexing tab, so no forced re-index (MR1)
    mesh.rebuild_content_index("Meridian")
except PathError:
    refused = True
else:
    refused = False
# verifies: chunks.forced-reindex-space-content-only
assert refused and not mesh.exists("Meridian/content/_Documents/q2-notes.md")
mesh.index.restart_indexer()  # a restart: the same bytes write the node again
content.upload("q2-notes.md", b"Q2 notes: the order book grew to 2,140 units (revised).", index=True)
# verifies: chunks.same-bytes-keep-node-deleted
assert mesh.exists("Meridian/content/_Documents/q2-notes.md")
mesh.create({"id": "Harbor", "name": "Harbor", "nodeType": "Space"})  # a Space: its `content` has the Rebuild
harbor = mesh.add_collection("Harbor")
harbor.upload("memo.md", b"Harbor memo: berth 4 reopened.", index=True)
mesh.add_collection("Harbor", "filings").upload("q3.md", b"Q3 revenue 1,210.", index=True)
mesh.delete(["Harbor/content/_Documents/memo.md", "Harbor/filings/_Documents/q3.md"])
harbor.upload("memo.md", b"Harbor memo: berth 4 reopened.", index=True)
# verifies: chunks.forced-reindex-space-content-only
assert not mesh.exists("Harbor/content/_Documents/memo.md")  # the same bytes: skipped
# verifies: chunks.forced-reindex-space-content-only
assert mesh.rebuild_content_index("Harbor") == 1 and mesh.exists("Harbor/content/_Documents/memo.md")
# verifies: chunks.forced-reindex-space-content-only
assert not mesh.exists("Harbor/filings/_Documents/q3.md")  # a named collection: not rebuilt
mesh.delete(["Meridian/content/_Documents/q2-notes.md"])
mesh.content_store = "AzureBlob"  # the same mesh behind an AzureBlob store: the dangling path lists as empty
# verifies: chunks.document-node-on-azureblob
assert tools["Get"].call({"path": hit["documentPath"]}) == "[]"

# Every node Get answers on this page's meshes, and every node its listings show, as the framework writes it.
agent_get = tools_by_name(mesh_plugin(mesh))["Get"]
for answer in [agent_get.call({"path": shown.path}) for shown in mesh.nodes()]:
    # verifies: mesh.get-node-json
    assert not is_node(answer) or rule_breaks(answer) == [], (answer[:80], rule_breaks(answer))
for answer in node_answers(VIEW):
    # verifies: mesh.get-node-json
    assert rule_breaks(answer) == [], (answer[:80], rule_breaks(answer))
