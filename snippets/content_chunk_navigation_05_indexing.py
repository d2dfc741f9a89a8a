"""Storing is not indexing (C7); what indexing reads (D5) and when it writes a Document node (D6)."""

import io
import json

from openpyxl import Workbook

from agentkit import (
    Mesh, SearchIndex, content_collection_plugin, extractive_summary, get_text, index_text, mcp_tools, mesh_plugin,
    tools_by_name,
)
from agentkit.guide import REPORT, report_pdf_bytes

mesh = Mesh(node_types={"Company"}, index=SearchIndex(summarizer=extractive_summary))  # a host wired like memex
mesh.create({"id": "Meridian", "name": "Meridian Components Group", "nodeType": "Company"})
mesh.add_collection("Meridian")
agent = tools_by_name(mesh_plugin(mesh, context="Meridian") + content_collection_plugin(mesh, context="Meridian"))
mcp = tools_by_name(mcp_tools(mesh))

# --8<-- [start:upload-content]
print(agent["UploadContent"].call({"nodePath": "@/Meridian", "filePath": "outlook.md",
                                   "content": "# Outlook\n\nOperating profit will grow."}))
#> Uploaded `outlook.md` to @Meridian/content/outlook.md
mesh.refresh_index()
print(agent["Get"].call({"path": "content/outlook.md"}))
#> "# Outlook\n\nOperating profit will grow."
print(agent["SearchChunks"].call({"query": "namespace:Meridian/content operating profit"}))
#> {
#>   "count": 0,
#>   "results": []
#> }
# --8<-- [end:upload-content]

# verifies: chunks.upload-content-does-not-index
assert json.loads(agent["Get"].call({"path": "content/outlook.md"})) == "# Outlook\n\nOperating profit will grow."
# verifies: chunks.upload-content-does-not-index
assert json.loads(agent["SearchChunks"].call({"query": "namespace:Meridian/content operating profit"})) == {"count": 0, "results": []}
# verifies: chunks.upload-content-does-not-index
assert agent["Get"].call({"path": "Meridian/content/_Documents/outlook.md"}) == "Error: File '_Documents/outlook.md' not found in collection 'content'"
mesh.collections["Meridian/content"].index("outlook.md")  # what a re-index does
mesh.refresh_index()
# verifies: chunks.upload-content-does-not-index
assert json.loads(agent["SearchChunks"].call({"query": "namespace:Meridian/content operating profit"}))["count"] == 1

workbook = Workbook()
workbook.active.append(["Operating profit", 601.4])
buffer = io.BytesIO()
workbook.save(buffer)
# --8<-- [start:xlsx]
import base64  # noqa: E402

print(mcp["upload"].call({"path": "Meridian/content/figures.xlsx",
                          "base64Content": base64.b64encode(buffer.getvalue()).decode()}))
#> {"status":"Uploaded","path":"Meridian/content/figures.xlsx","bytes":...}
mesh.refresh_index()
print(json.loads(agent["Get"].call({"path": "content/figures.xlsx"})).splitlines()[4])
#> | 1 | Operating profit | 601.4 |
print(json.loads(agent["GetChunk"].call({"collectionPath": "Meridian/content", "filePath": "figures.xlsx",
                                         "chunkIndex": 0}))["message"])
#> No chunks indexed for 'figures.xlsx' in 'Meridian/content'.
# --8<-- [end:xlsx]

mcp["upload"].call({"path": "Meridian/content/guidance.md", "base64Content": base64.b64encode(b"Operating profit guidance.").decode()})
mesh.refresh_index()
# verifies: chunks.upload-content-does-not-index
assert mesh.exists("Meridian/content/_Documents/guidance.md") and len(mesh.index.chunks_of("Meridian/content", "guidance.md")) == 1
# verifies: chunks.xlsx-not-indexed
assert index_text("figures.xlsx", buffer.getvalue()).text == "" and "601.4" in agent["Get"].call({"path": "content/figures.xlsx"})
# verifies: chunks.xlsx-not-indexed
assert json.loads(agent["GetChunk"].call({"collectionPath": "Meridian/content", "filePath": "figures.xlsx", "chunkIndex": 0}))[
    "message"] == "No chunks indexed for 'figures.xlsx' in 'Meridian/content'."
# verifies: chunks.xlsx-not-indexed
assert not mesh.exists("Meridian/content/_Documents/figures.xlsx")

bare = Mesh(node_types={"Company"})  # the framework registers no summarizer
bare.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
bare.add_collection("Meridian").upload(REPORT.file_name, report_pdf_bytes(), index=True)
bare.refresh_index()
# verifies: chunks.document-needs-summarizer
assert bare.index.summarizer is None and not bare.exists("Meridian/content/_Documents/Annual-Report-2024.pdf")
# verifies: chunks.document-needs-summarizer
assert len(bare.index.chunks_of("Meridian/content", REPORT.file_name)) > 0

get_text_of_pdf = get_text(REPORT.file_name, report_pdf_bytes())
indexing_text = index_text(REPORT.file_name, report_pdf_bytes()).text
# verifies: chunks.pdf-index-text-differs
assert indexing_text != get_text_of_pdf and indexing_text.count("\n") == 61 < get_text_of_pdf.count("\n")
# verifies: chunks.pdf-index-text-differs
assert indexing_text.split() == get_text_of_pdf.split()
