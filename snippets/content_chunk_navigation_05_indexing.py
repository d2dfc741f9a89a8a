"""Storing is not indexing (C7); what indexing reads (D5) and when it writes a Document node (D6)."""

import hashlib
import io
import json

from openpyxl import Workbook

from agentkit import (
    Mesh, SearchIndex, content_collection_plugin, document_slug, extractive_summary, get_text, index_text, mcp_tools,
    mesh_plugin, tools_by_name,
)
from agentkit import IMAGE_MEDIA_TYPES
from agentkit.guide import REPORT, report_index_text, report_pdf_bytes
from agentkit._errors import UnreadableDocument
from claimcheck import capture
from claimcheck import stated
from claimcheck.agentview import AgentView

mesh = Mesh(node_types={"Company", "Space"}, index=SearchIndex(summarizer=extractive_summary))  # a host wired like memex
mesh.create({"id": "Meridian", "name": "Meridian Components Group", "nodeType": "Company"})
mesh.add_collection("Meridian")
# Every tool call below is recorded for the page's "Tool call" listings (claimcheck/agentview.py).
VIEW = AgentView(__file__)
agent = VIEW.wrap(tools_by_name(mesh_plugin(mesh, context="Meridian") + content_collection_plugin(mesh, context="Meridian")))
mcp = VIEW.wrap(tools_by_name(mcp_tools(mesh)))

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
old_outlook = "# Outlook\n\nOperating profit will grow."
new_outlook = "# Outlook\n\nOperating profit will fall."
agent["UploadContent"].call({"nodePath": "@/Meridian", "filePath": "outlook.md", "content": new_outlook})  # over an indexed file
mesh.refresh_index()
# verifies: chunks.upload-content-does-not-index, chunks.upload-over-indexed-keeps-old-chunks
assert json.loads(agent["Get"].call({"path": "content/outlook.md"})) == new_outlook
# verifies: chunks.upload-over-indexed-keeps-old-chunks
assert json.loads(agent["GetChunk"].call({"collectionPath": "Meridian/content", "filePath": "outlook.md", "chunkIndex": 0}))[
    "text"] == old_outlook  # the chunk tools answer the old text
# verifies: chunks.upload-over-indexed-keeps-old-chunks
assert mesh.get("Meridian/content/_Documents/outlook.md").content["contentHash"] == hashlib.sha256(old_outlook.encode()).hexdigest()
mesh.collections["Meridian/content"].index("outlook.md")  # until the file is indexed again
mesh.refresh_index()
# verifies: chunks.upload-over-indexed-keeps-old-chunks
assert json.loads(agent["GetChunk"].call({"collectionPath": "Meridian/content", "filePath": "outlook.md", "chunkIndex": 0}))[
    "text"] == new_outlook
# In a Space's `content`, the Content Indexing tab's Rebuild indexes what UploadContent stored.
mesh.create({"id": "Harbor", "name": "Harbor", "nodeType": "Space"})
mesh.add_collection("Harbor")
harbor = tools_by_name(content_collection_plugin(mesh, context="Harbor"))
harbor["UploadContent"].call({"nodePath": "@/Harbor", "filePath": "memo.md", "content": "Operating profit memo."})
mesh.refresh_index()
unindexed = json.loads(harbor["SearchChunks"].call({"query": "namespace:Harbor/content operating profit memo"}))["count"]
rebuilt = mesh.rebuild_content_index("Harbor")
mesh.refresh_index()
# verifies: chunks.routes-that-index
assert (unindexed, rebuilt, json.loads(harbor["SearchChunks"].call({"query": "namespace:Harbor/content operating profit memo"}))["count"]) == (0, 1, 1)

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


def chunks_ready(file_path: str) -> bool:  # what an agent polls after an upload, with a time limit
    hit = {"collectionPath": "Meridian/content", "filePath": file_path, "chunkIndex": 0}
    return json.loads(mcp["get_chunk"].call(hit))["found"]


def indexed(file_path: str, data: bytes) -> bool:  # after an upload over an indexed file: its Document node has these bytes
    answer = mcp["get"].call({"path": f"Meridian/content/_Documents/{document_slug(file_path)}"})
    return answer.startswith("{") and json.loads(answer)["content"]["contentHash"] == hashlib.sha256(data).hexdigest()


def activity_of(tools, node: str, file_name: str) -> dict:  # the upload's Activity node: search lists it, get reads it
    listed = json.loads(tools["search"].call({"query": f"namespace:{node}/_Activity", "limit": 200}))["results"]
    return json.loads(tools["get"].call({"path": next(row["path"] for row in listed if row["name"] == f"Index {file_name}")}))


# --8<-- [start:wait-for-chunks]
print(mcp["upload"].call({"path": "Meridian/content/plan.md", "base64Content": base64.b64encode(b"Capex plan.").decode()}))
#> {"status":"Uploaded","path":"Meridian/content/plan.md","bytes":11}
print(chunks_ready("plan.md"))  # the answer came before indexing
#> False
mesh.refresh_index()  # the background indexer has run
print(chunks_ready("plan.md"))
#> True
print(mcp["upload"].call({"path": "Meridian/content/cut.pdf", "base64Content": base64.b64encode(b"%PDF-1.7 cut").decode()}))
#> {"status":"Uploaded","path":"Meridian/content/cut.pdf","bytes":12}
mesh.refresh_index()
print(chunks_ready("cut.pdf"))  # indexing could not read it: its Activity node says so
#> False
activities = json.loads(mcp["search"].call({"query": "namespace:Meridian/_Activity"}))["results"]
cut = next(row["path"] for row in activities if row["name"] == "Index cut.pdf")
print(json.loads(mcp["get"].call({"path": cut}))["content"]["status"])
#> Failed
revised = b"Operating profit guidance, revised."
print(mcp["upload"].call({"path": "Meridian/content/guidance.md", "base64Content": base64.b64encode(revised).decode()}))
#> {"status":"Uploaded","path":"Meridian/content/guidance.md","bytes":35}
print(chunks_ready("guidance.md"), indexed("guidance.md", revised))  # chunk 0 still holds the old text
#> True False
mesh.refresh_index()
print(indexed("guidance.md", revised))
#> True
# --8<-- [end:wait-for-chunks]

# verifies: chunks.chunk-paths-case-sensitive
assert json.loads(mcp["get"].call({"path": "Meridian/Content/plan.md"})) == "Capex plan."
# verifies: chunks.chunk-paths-case-sensitive
assert [json.loads(mcp["get_chunk"].call({"collectionPath": collection, "filePath": file_path, "chunkIndex": 0}))["found"]
        for collection, file_path in (("Meridian/Content", "plan.md"), ("Meridian/content", "Plan.md"),
                                      ("Meridian/content", "plan.md"))] == [False, False, True]
# verifies: chunks.upload-answers-before-indexing
assert mesh.collections["Meridian/content"].has_file("cut.pdf") and mesh.index.chunks_of("Meridian/content", "cut.pdf") == ()
# verifies: chunks.upload-answers-before-indexing
assert not mesh.exists("Meridian/content/_Documents/cut.pdf")
# verifies: chunks.upload-answers-before-indexing
assert activity_of(mcp, "Meridian", "cut.pdf")["content"]["status"] == "Failed" and \
    activity_of(mcp, "Meridian", "plan.md")["content"]["status"] == "Succeeded"
mcp["upload"].call({"path": "Meridian/content/later.md", "base64Content": base64.b64encode(b"Later.").decode()})
# verifies: chunks.upload-answers-before-indexing
assert "Index later.md" not in [row["name"] for row in json.loads(mcp["search"].call(
    {"query": "namespace:Meridian/_Activity", "limit": 200}))["results"]]  # right after the answer: no Activity yet
mesh.refresh_index()
# verifies: chunks.upload-answers-before-indexing
assert activity_of(mcp, "Meridian", "later.md")["content"]["status"] == "Succeeded" and chunks_ready("later.md")
guidance = {"collectionPath": "Meridian/content", "filePath": "guidance.md", "chunkIndex": 0}
POLLED = {"collectionPath": "Meridian/content", "filePath": "plan.md", "chunkIndex": 0}  # what chunks_ready asks for
# verifies: chunks.upload-answers-before-indexing
assert stated.numbers("chunks.upload-answers-before-indexing") == [POLLED["chunkIndex"]] and \
    json.loads(mcp["get_chunk"].call(POLLED))["chunkIndex"] == 0 and chunks_ready("plan.md")
mcp["upload"].call({"path": "Meridian/content/guidance.md", "base64Content": base64.b64encode(b"Guidance, third take.").decode()})
# verifies: chunks.reupload-poll-content-hash
assert json.loads(mcp["get_chunk"].call(guidance))["text"] == revised.decode() and indexed("guidance.md", revised) and \
    not indexed("guidance.md", b"Guidance, third take.")  # found at once, with the old text; the node has the old hash
mesh.refresh_index()
# verifies: chunks.reupload-poll-content-hash
assert stated.numbers("chunks.reupload-poll-content-hash") == [guidance["chunkIndex"]]
# verifies: chunks.reupload-poll-content-hash
assert indexed("guidance.md", b"Guidance, third take.") and json.loads(mcp["get_chunk"].call(guidance))["text"] == "Guidance, third take."
mcp["upload"].call({"path": "Meridian/content/report.pdf", "base64Content": base64.b64encode(report_pdf_bytes()).decode()})
mesh.refresh_index()
report_chunk = {"collectionPath": "Meridian/content", "filePath": "report.pdf", "chunkIndex": 0}
first_text = json.loads(mcp["get_chunk"].call(report_chunk))["text"]
mcp["upload"].call({"path": "Meridian/content/report.pdf", "base64Content": base64.b64encode(b"%PDF-1.7 cut").decode()})
mesh.refresh_index()  # indexing failed: nothing replaced, so the wait for the new hash needs its time limit
# verifies: chunks.reupload-poll-content-hash
assert indexed("report.pdf", report_pdf_bytes()) and not indexed("report.pdf", b"%PDF-1.7 cut") and \
    json.loads(mcp["get_chunk"].call(report_chunk))["text"] == first_text

pdf_bytes = report_pdf_bytes()
stored_as_text = agent["UploadContent"].call({"nodePath": "@/Meridian", "filePath": "copy.pdf",
                                              "content": pdf_bytes.decode("latin-1")})
stored = mesh.collections["Meridian/content"].stored("copy.pdf").data
# verifies: chunks.upload-content-text-only
assert stored_as_text.startswith("Uploaded") and stored == pdf_bytes.decode("latin-1").encode("utf-8") != pdf_bytes
locked = Mesh(node_types={"Company"})
locked.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
locked.add_collection("Meridian", editable=False)
# verifies: chunks.upload-content-ignores-read-only
assert tools_by_name(mcp_tools(locked))["upload"].call({"path": "Meridian/content/a.md", "base64Content": "YQ=="}) == \
    "Error: collection 'content' on 'Meridian' is read-only."
# verifies: chunks.upload-content-ignores-read-only
assert tools_by_name(content_collection_plugin(locked))["UploadContent"].call(
    {"nodePath": "Meridian", "filePath": "a.md", "content": "a"}) == "Uploaded `a.md` to @Meridian/content/a.md"
# verifies: chunks.upload-content-ignores-read-only
assert locked.collections["Meridian/content"].read_text("a.md") == "a"
embedded = Mesh(node_types={"Company"})
embedded.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
embedded.add_collection("Meridian", embedded_resource=True)  # AddEmbeddedResourceContentCollection: a store that cannot write
# verifies: chunks.upload-content-ignores-read-only
assert tools_by_name(content_collection_plugin(embedded))["UploadContent"].call(
    {"nodePath": "Meridian", "filePath": "a.md", "content": "a"}) == \
    "Error: Error saving file 'a.md' to collection 'content': Embedded resource collections are read-only"
# verifies: chunks.upload-content-ignores-read-only
assert not embedded.collections["Meridian/content"].has_file("a.md") and tools_by_name(mcp_tools(embedded))["upload"].call(
    {"path": "Meridian/content/a.md", "base64Content": "YQ=="}) == "Error: collection 'content' on 'Meridian' is read-only."

PIXEL = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==")
for describer in (lambda data, name: f"A one-pixel image, {name}.", None, lambda data, name: ""):  # "": no model answered
    seen = Mesh(node_types={"Company"}, index=SearchIndex(summarizer=extractive_summary, image_describer=describer))
    seen.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
    seen.add_collection("Meridian")
    tools_by_name(mcp_tools(seen))["upload"].call({"path": "Meridian/content/pixel.png",
                                                   "base64Content": base64.b64encode(PIXEL).decode()})
    seen.refresh_index()
    chunk = json.loads(tools_by_name(mcp_tools(seen))["get_chunk"].call(
        {"collectionPath": "Meridian/content", "filePath": "pixel.png", "chunkIndex": 0}))
    if describer is None or not describer(PIXEL, "pixel.png"):
        # verifies: chunks.images-indexed-with-describer, chunks.describer-fails-silently
        assert chunk["found"] is False and not seen.exists("Meridian/content/_Documents/pixel.png")
        log = activity_of(tools_by_name(mcp_tools(seen)), "Meridian", "pixel.png")["content"]
        # verifies: chunks.describer-fails-silently
        assert log["status"] == "Succeeded" and log["messages"][-1] == {
            "$type": "LogMessage", "message": "'pixel.png': NoText (0 chunk(s)).", "logLevel": "Information",
            "timestamp": log["end"], "scopes": []}
    else:
        # verifies: chunks.images-indexed-with-describer
        assert chunk["text"] == "A one-pixel image, pixel.png." and \
            seen.get("Meridian/content/_Documents/pixel.png").content["summary"] == chunk["text"]
        seen.collections["Meridian/content"].upload("logo.svg", b'<svg xmlns="http://www.w3.org/2000/svg"/>', index=True)
        seen.refresh_index()
        # verifies: chunks.describer-raster-extensions-only
        assert json.loads(tools_by_name(mcp_tools(seen))["get_chunk"].call(
            {"collectionPath": "Meridian/content", "filePath": "logo.svg", "chunkIndex": 0}))["found"] is False and \
            not seen.exists("Meridian/content/_Documents/logo.svg")  # not among the describer's extensions
        for extension in IMAGE_MEDIA_TYPES:
            seen.collections["Meridian/content"].upload(f"raster{extension}", PIXEL, index=True)
        for extension in (".svg", ".ico", ".avif", ".heic"):
            seen.collections["Meridian/content"].upload(f"other{extension}", PIXEL, index=True)
        seen.refresh_index()
        described = {name[name.rindex("."):] for name in (f["filePath"] for f in seen.collections["Meridian/content"].listing())
                     if seen.exists(f"Meridian/content/_Documents/{name}") and seen.index.chunks_of("Meridian/content", name)}
        # verifies: chunks.describer-raster-extensions-only
        assert described == set(IMAGE_MEDIA_TYPES) == {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tiff", ".tif"}
        # verifies: chunks.describer-raster-extensions-only
        assert stated.numbers("chunks.describer-raster-extensions-only") == [len(described)]

storeless = Mesh(node_types={"Company"}, index=SearchIndex(chunk_store=False, summarizer=extractive_summary))  # no indexing pipeline
storeless.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
storeless.add_collection("Meridian")
on_storeless = tools_by_name(mcp_tools(storeless) + content_collection_plugin(storeless, context="Meridian"))
on_storeless["upload"].call({"path": "Meridian/content/plan.md", "base64Content": base64.b64encode(b"Capex plan.").decode()})
storeless.refresh_index()
not_enabled = {"count": 0, "results": [],
               "message": "Content chunk indexing is not enabled in this host — no chunk store is configured."}
# verifies: chunks.no-chunk-store
assert json.loads(on_storeless["get_chunk"].call({"collectionPath": "Meridian/content", "filePath": "plan.md",
                                                  "chunkIndex": 0})) == not_enabled
# verifies: chunks.no-chunk-store
assert [json.loads(on_storeless[tool].call({"query": query})) for tool, query in (
    ("search_chunks", "namespace:Meridian/content Capex"), ("SearchChunks", ""))] == [not_enabled, not_enabled]
# verifies: chunks.no-chunk-store
assert storeless.index.chunks_of("Meridian/content", "plan.md") == () and not storeless.exists("Meridian/content/_Documents/plan.md")

wide = Mesh(node_types={"Company"}, index=SearchIndex(chunk_size=400, chunk_overlap=50))  # a host that sets ContentIndexingOptions
wide.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
wide.add_collection("Meridian").upload("long.md", ("word " * 300).encode(), index=True)
wide.refresh_index()
spans = [(chunk.start, chunk.end) for chunk in wide.index.chunks_of("Meridian/content", "long.md")]
# verifies: chunks.chunk-size-host-option
assert spans[:2] == [(0, 400), (350, 750)] and spans[-1][1] == 1500
# verifies: chunks.chunk-size-host-option
assert "1000-char windows with 150-char overlap" in tools_by_name(mcp_tools(wide))["search_chunks"].description and \
    "1000-char windows, 150-char overlap" in tools_by_name(content_collection_plugin(wide))["SearchChunks"].parameters[0].description
# verifies: chunks.chunk-size-host-option
assert (SearchIndex().chunk_size, SearchIndex().chunk_overlap) == (1000, 150)

bare = Mesh(node_types={"Company"})  # the framework registers no summarizer
bare.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
bare.add_collection("Meridian").upload(REPORT.file_name, report_pdf_bytes(), index=True)
bare.refresh_index()
# verifies: chunks.document-needs-summarizer
assert bare.index.summarizer is None and not bare.exists("Meridian/content/_Documents/Annual-Report-2024.pdf")
# verifies: chunks.document-needs-summarizer
assert len(bare.index.chunks_of("Meridian/content", REPORT.file_name)) > 0

get_text_of_pdf = get_text(REPORT.file_name, report_pdf_bytes())
indexing_text = report_index_text().text
# verifies: chunks.pdf-index-text-differs
assert indexing_text != get_text_of_pdf and indexing_text.count("\n") == 61 == get_text_of_pdf.count("\n")
# Both hold the same characters but for blanks: Get runs the drawn strings together, indexing puts a space
# between words (the report draws its text top to bottom, so the two orders agree).
# verifies: chunks.pdf-index-text-differs
assert "".join(indexing_text.split()) == "".join(get_text_of_pdf.split()) and len(indexing_text.split()) > len(get_text_of_pdf.split())
# Indexing orders each page's letters top to bottom, left to right: that Get's letters come in the same order
# shows the report's drawing order is its reading order.
# verifies: chunks.get-pdf-keeps-drawing-order
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
capture("chunks_view_unreadable_upload.md", VIEW.markdown("unreadable-upload"))

contents = mesh.collections["Meridian/content"]
# verifies: chunks.unreadable-upload-stored
assert contents.stored("scan.pdf").data == damaged and not mesh.exists("Meridian/content/_Documents/scan.pdf")
# verifies: chunks.unreadable-upload-stored
assert not mesh.index.chunks_of("Meridian/content", "scan.pdf") and json.loads(agent["GetChunk"].call(
    {"collectionPath": "Meridian/content", "filePath": "scan.pdf", "chunkIndex": 0}))["message"] == \
    "No chunks indexed for 'scan.pdf' in 'Meridian/content'."
errors = {}
for name in ("scan.pdf", "scan-2.pdf"):
    try:
        index_text(name, contents.stored(name).data)
    except UnreadableDocument as error:
        errors[name] = str(error)
    else:
        raise AssertionError(f"{name}: indexing read the damaged PDF")
scan = activity_of(mcp, "Meridian", "scan.pdf")
# verifies: chunks.unreadable-upload-stored
assert (scan["path"], scan["name"], scan["nodeType"], scan["mainNode"]) == (
    f"Meridian/_Activity/{scan['id']}", "Index scan.pdf", "Activity", "Meridian") and len(scan["id"]) == 8 and \
    int(scan["id"], 16) >= 0
# verifies: chunks.unreadable-upload-stored
assert scan["content"]["status"] == "Failed" and scan["content"]["messages"][-1]["message"] == errors["scan.pdf"] and \
    scan["content"]["messages"][-1]["logLevel"] == "Error"
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
