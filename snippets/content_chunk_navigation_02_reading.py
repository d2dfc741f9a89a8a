"""Reading a document end to end: from a search hit to one Get of the file, and the recovery clause."""

import json

from claimcheck import capture
from claimcheck.agentview import AgentView
from agentkit import (
    Mesh, SearchIndex, content_collection_plugin, extractive_summary, file_path_from_document, mesh_plugin, tools_by_name,
)
from agentkit.guide import REPORT, upload_report

mesh = Mesh(node_types={"Company"})
upload_report(mesh)
mesh.refresh_index()
tools = tools_by_name(mesh_plugin(mesh, context="Meridian") + content_collection_plugin(mesh, context="Meridian"))
# Every tool call below is recorded for the page's "Tool call" listings (claimcheck/agentview.py).
VIEW = AgentView(__file__)
tools = VIEW.wrap(tools)
calls = []


def call(name, **arguments):
    """Call a tool as the model would, and count the call."""
    calls.append(name)
    return tools[name].call(arguments)


# --8<-- [start:end-to-end]
# 1. Find the passage: a targeted chunk search; its hits carry collectionPath and filePath.
found = json.loads(call("SearchChunks", query="namespace:Meridian/content consolidated income statement"))
hit = found["results"][0]
# 2. The file's Get path from the hit's own fields (a named collection needs Node/content/{collection}/...).
file_path = file_path_from_document(hit)
# 3. Get the file: the whole extracted text in one call, as a JSON string.
text = json.loads(call("Get", path=file_path))
# --8<-- [end:end-to-end]
capture("chunks_view_end_to_end.md", VIEW.markdown("end-to-end"))

# verifies: chunks.read-in-two-calls
assert text == mesh.fetch("Meridian/content/Annual Report 2024.pdf").value and calls == ["SearchChunks", "Get"] and len(calls) == 2
# verifies: chunks.whole-text-has-every-value
assert all(value.display in text for value in REPORT.values) and len(REPORT.values) == 64

# --8<-- [start:search-rows]
row = json.loads(call("Search", query="nodeType:Document annual report"))["results"][0]
print(row["path"], "|", "collectionPath" in row, "filePath" in row)
#> Meridian/content/_Documents/Annual-Report-2024.pdf | False False
# --8<-- [end:search-rows]

# verifies: chunks.search-rows-lack-file-fields
assert set(row) >= {"path", "name", "nodeType"} and not {"collectionPath", "filePath"} & set(row)
postgres_like = Mesh(node_types={"Company"}, index=SearchIndex(summarizer=None, content_rows=True))
postgres_like.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
postgres_like.add_collection("Meridian").upload(REPORT.file_name, mesh.collections["Meridian/content"].stored(REPORT.file_name).data, index=True)
postgres_like.refresh_index()
synthetic = postgres_like.search("Consolidated income statement")["results"]
# verifies: chunks.postgres-synthetic-document-rows
assert synthetic == [{"path": "Meridian/content/_Documents/Annual-Report-2024.pdf", "name": REPORT.file_name,
                      "nodeType": "Document", "version": 0, "lastModified": ""}]
# verifies: chunks.postgres-synthetic-document-rows
assert not postgres_like.exists(synthetic[0]["path"])  # a row, but no Document node: no summarizer
postgres_get = tools_by_name(mesh_plugin(postgres_like))["Get"]
# verifies: chunks.postgres-synthetic-document-rows
assert postgres_get.call({"path": synthetic[0]["path"]}) == \
    "Error: File '_Documents/Annual-Report-2024.pdf' not found in collection 'content'"
postgres_like.add_collection("Meridian", "filings").upload("notes.md", b"# Consolidated income statement", index=True)
postgres_like.refresh_index()
named_row = next(r for r in postgres_like.search("Consolidated income statement")["results"] if "filings" in r["path"])
# verifies: chunks.postgres-synthetic-document-rows
assert named_row["path"] == "Meridian/filings/_Documents/notes.md" and \
    postgres_get.call({"path": named_row["path"]}) == "Not found: Meridian/filings/_Documents/notes.md"
# verifies: chunks.postgres-synthetic-document-rows
assert not [r for r in postgres_like.search("nodeType:Document")["results"] if r["version"] == 0]  # free text only
postgres_like.content_store = "AzureBlob"
postgres_like.index.summarizer = extractive_summary
postgres_like.collections["Meridian/content"].index(REPORT.file_name)  # the heal writes its Document node now
# verifies: chunks.search-row-on-azureblob
assert postgres_like.exists(synthetic[0]["path"]) and postgres_get.call({"path": synthetic[0]["path"]}) == "[]"
# verifies: chunks.postgres-synthetic-document-rows
assert postgres_get.call({"path": named_row["path"]}) == "Not found: Meridian/filings/_Documents/notes.md"


# --8<-- [start:recovery]
def fetched_document_node(result: str) -> bool:
    """The failure signature: a Get that returned the Document node's metadata, not text."""
    try:
        answer = json.loads(result)
    except json.JSONDecodeError:
        return False  # an error text
    return isinstance(answer, dict) and (answer.get("content") or {}).get("$type") == "Document"


result = call("Get", path=row["path"])  # what the chunk-search descriptions and a Search row invite
if fetched_document_node(result):
    # Wrong node: correct the path from its own fields before doing anything else.
    result = call("Get", path=file_path_from_document(json.loads(result)["content"]))
# --8<-- [end:recovery]

# verifies: chunks.recovery-signature
assert fetched_document_node(tools["Get"].call({"path": row["path"]}))
# verifies: chunks.recovery-signature
assert not fetched_document_node(result) and json.loads(result) == text
captioned = Mesh(node_types={"Company"}, index=SearchIndex(image_describer=lambda data, name: f"A chart in {name}."))
captioned.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
captioned.add_collection("Meridian").upload("chart.png", b"\x89PNG\r\n\x1a\n" + bytes(24), index=True)
image_node = json.loads(tools_by_name(mesh_plugin(captioned))["Get"].call({"path": "Meridian/content/chart.png"}))
# verifies: chunks.recovery-signature
assert fetched_document_node(json.dumps(image_node)) and file_path_from_document(image_node["content"]) == (
    "Meridian/content/chart.png")  # the corrected path of an image answers its Document node again
captioned.add_collection("Meridian", "charts").upload("bars.png", b"\x89PNG\r\n\x1a\n" + bytes(24), index=True)
named_image = json.loads(tools_by_name(mesh_plugin(captioned))["Get"].call({"path": "Meridian/charts/_Documents/bars.png"}))
placeholder = json.loads(tools_by_name(mesh_plugin(captioned))["Get"].call({"path": file_path_from_document(named_image["content"])}))
# verifies: chunks.recovery-stops-at-an-image
assert fetched_document_node(json.dumps(named_image)) and placeholder.startswith("[image: bars.png (image/png, 32 bytes)] ") and \
    placeholder.endswith("Binary image content is not returned as text. When content indexing is enabled, an "
                         "AI-generated description is available on the file's Document node.")
captioned.content_store = "AzureBlob"
# verifies: chunks.recovery-stops-at-an-image
assert tools_by_name(mesh_plugin(captioned))["Get"].call({"path": file_path_from_document(named_image["content"])}) == "[]"
