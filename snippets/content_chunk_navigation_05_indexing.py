"""Storing is not indexing (C7); what indexing reads (D5) and when it writes a Document node (D6)."""

import io
import json

from openpyxl import Workbook

from agentkit import (
    Mesh, SearchIndex, content_collection_plugin, extractive_summary, get_text, index_text, mcp_tools, mesh_plugin,
    tools_by_name,
)
from agentkit.guide import REPORT, report_pdf_bytes
from agentkit._errors import UnreadableDocument
from tools.agentview import AgentView

mesh = Mesh(index=SearchIndex(summarizer=extractive_summary))  # a host wired like memex
mesh.create({"id": "Meridian", "name": "Meridian Components Group", "nodeType": "Company"})
mesh.add_collection("Meridian")
# Every tool call below is recorded for the page's "Tool call" listings (tools/agentview.py).
VIEW = AgentView(__file__)
agent = VIEW.wrap(tools_by_name(mesh_plugin(mesh, context="Meridian") + content_collection_plugin(mesh, context="Meridian")))
mcp = VIEW.wrap(tools_by_name(mcp_tools(mesh)))
CAPTURES = {"chunks_view_unreadable_upload.md": lambda: VIEW.markdown("unreadable-upload")}

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

bare = Mesh()  # the framework registers no summarizer
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
assert indexing_text != get_text_of_pdf and indexing_text.count("\n") == 61 == get_text_of_pdf.count("\n")
# Both hold the same characters but for blanks: Get runs the drawn strings together, indexing puts a space
# between words (the report draws its text top to bottom, so the two orders agree).
# verifies: chunks.pdf-index-text-differs
assert "".join(indexing_text.split()) == "".join(get_text_of_pdf.split()) and len(indexing_text.split()) > len(get_text_of_pdf.split())
# Indexing orders each page's letters top to bottom, left to right: that Get's letters come in the same order
# shows the report's drawing order is its reading order.
# verifies: chunks.get-pdf-loses-table-structure
assert [page.replace(" ", "") for page in indexing_text.split("\n")] == [page.replace(" ", "") for page in get_text_of_pdf.split("\n")]

# --8<-- [start:unreadable-upload]
damaged = b"%PDF-1.7\n% cut off after its header"  # a PDF no reader can open
print(mcp["upload"].call({"path": "Meridian/content/scan.pdf", "base64Content": base64.b64encode(damaged).decode()}))
#> {"status":"Uploaded","path":"Meridian/content/scan.pdf","bytes":35}
mesh.refresh_index()
print(json.loads(agent["GetChunk"].call({"collectionPath": "Meridian/content", "filePath": "scan.pdf",
                                         "chunkIndex": 0}))["message"])
#> No chunks indexed for 'scan.pdf' in 'Meridian/content'.
# In Python, upload(..., index=True) stores, indexes, and returns what indexing could not do:
uploaded = mesh.collections["Meridian/content"].upload("scan-2.pdf", damaged, index=True)
print(uploaded.file_path, uploaded.document, uploaded.index_error)
#> scan-2.pdf None PDF 'scan-2.pdf' cannot be read: ...
# --8<-- [end:unreadable-upload]

contents = mesh.collections["Meridian/content"]
# verifies: chunks.unreadable-upload-stored
assert contents.stored("scan.pdf").data == damaged and not mesh.exists("Meridian/content/_Documents/scan.pdf")
# verifies: chunks.unreadable-upload-stored
assert not mesh.index.chunks_of("Meridian/content", "scan.pdf") and json.loads(agent["GetChunk"].call(
    {"collectionPath": "Meridian/content", "filePath": "scan.pdf", "chunkIndex": 0}))["message"] == \
    "No chunks indexed for 'scan.pdf' in 'Meridian/content'."
for name in ("scan.pdf", "scan-2.pdf"):
    try:
        index_text(name, contents.stored(name).data)
    except UnreadableDocument:
        pass
    else:
        raise AssertionError(f"{name}: indexing read the damaged PDF")
# verifies: chunks.upload-index-error-returned
assert contents.stored(uploaded.file_path).data == damaged and uploaded.document is None
# verifies: chunks.upload-index-error-returned
assert uploaded.index_error.startswith("PDF 'scan-2.pdf' cannot be read") and not mesh.index.chunks_of(
    "Meridian/content", "scan-2.pdf")
readable = contents.upload("guidance-2.md", b"Operating profit guidance, revised.", index=True)
# verifies: chunks.upload-index-error-returned
assert readable.index_error is None and readable.document.path == "Meridian/content/_Documents/guidance-2.md"
# verifies: chunks.upload-index-error-returned
assert contents.upload("plain.md", b"stored only").document is None and not mesh.exists("Meridian/content/_Documents/plain.md")
