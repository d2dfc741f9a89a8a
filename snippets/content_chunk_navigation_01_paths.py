"""Where the full text is: the Document node versus the file's Get path, on the generated report."""

import json

from claimcheck import capture
from claimcheck.agentview import AgentView
from snippets.support.node_rule import is_node, node_answers, rule_breaks
from agentkit import (
    SUMMARY_LIMIT, DocumentSlugCollision, Mesh, SearchIndex, document_slug, extractive_summary,
    file_path_by_string_rule, file_path_from_document, get_path_of_file, mesh_plugin, tools_by_name,
)
from agentkit._host import UNIFIED_READ_TIMEOUT_SECONDS
from agentkit.guide import REPORT, copy_mesh, report_index_text, upload_report

# --8<-- [start:upload]
mesh = Mesh(node_types={"Company", "Markdown"})
document = upload_report(mesh)  # stored and indexed into Meridian/content
mesh.refresh_index()            # let the search index catch up
tools = tools_by_name(mesh_plugin(mesh))
print(document.path)
#> Meridian/content/_Documents/Annual-Report-2024.pdf
# --8<-- [end:upload]
# Every tool call below is recorded for the page's "Tool call" listings (claimcheck/agentview.py).
VIEW = AgentView(__file__)
tools = VIEW.wrap(tools)

# verifies: chunks.document-node-path
assert document.path == "Meridian/content/_Documents/" + document_slug(REPORT.file_name)

# --8<-- [start:get-document-node]
node = json.loads(tools["Get"].call({"path": document.path}))
print(*sorted(node["content"]))
#> $type chunkCount collectionPath contentHash filePath indexedAt name sizeBytes summary
print(node["content"]["collectionPath"], "|", node["content"]["filePath"])
#> Meridian/content | Annual Report 2024.pdf
# --8<-- [end:get-document-node]
capture("chunks_view_document_node.md", VIEW.markdown("get-document-node"))

full_text = mesh.fetch("Meridian/content/Annual Report 2024.pdf").value
# verifies: chunks.document-node-has-no-text
assert "text" not in node["content"] and "mime" not in node["content"] and full_text[5000:5100] not in json.dumps(node)
# verifies: chunks.document-node-has-no-text
assert node["nodeType"] == "Document" and node["content"]["name"] == node["name"] == REPORT.file_name
summary = node["content"]["summary"]
# verifies: chunks.summary-is-extractive
assert summary == extractive_summary(report_index_text().text)
# verifies: chunks.summary-is-extractive
assert len(summary) <= 281 and summary.endswith("…") and extractive_summary("# Title\n\n- a point\n> quoted") == "Title a point quoted"
# verifies: chunks.summary-is-extractive
assert SUMMARY_LIMIT == 280 and extractive_summary("word " * 100) == ("word " * 56).strip() + "…"
first_page = report_index_text().text.split("\n")[0]
# verifies: chunks.summary-of-pdf-and-image
assert summary.startswith(first_page + " ") and "\n" not in summary  # a PDF: its first pages' words, page after page
# verifies: chunks.summary-is-extractive
assert extractive_summary("| a | b |\n-5 apples\n**bold** [link](x)") == "| a | b | 5 apples bold** [link](x)"

# --8<-- [start:get-file-path]
answer = tools["Get"].call({"path": "Meridian/content/Annual Report 2024.pdf"})
print(answer[:45])
#> "Meridian Components GroupAnnual Report 2024F
text = json.loads(answer)  # the answer is one JSON string literal
print(len(text), len(answer))
#> 143548 143611
# --8<-- [end:get-file-path]
capture("chunks_view_file.md", VIEW.markdown("get-file-path"))

# --8<-- [start:statement-page]
# The same answer where the income statement begins: pages are joined by "\n", so a page is one line of text.
start = answer.index("Consolidated income statement")
end = answer.index("Consolidated balance sheet", start)
page = answer.count("\\n", 0, start) + 1
print(page, answer[start:start + 90])
#> 54 Consolidated income statementLine itemUnitFY2024FY2023RevenueEUR m4,812.34,523.1Cost of sa
# --8<-- [end:statement-page]

# verifies: chunks.get-pdf-loses-table-structure, chunks.get-pdf-inserts-nothing
assert "\n" not in text.split("\n")[page - 1] and "Revenue EUR m" not in text and "Line itemUnitFY2024FY2023Revenue" in text


def statement_page_view() -> str:
    """The Get answer at the income statement, as the model receives it: part of one JSON string literal."""
    (call,) = VIEW.calls_in("get-file-path")
    return "\n".join([
        f"**`{call.tool}`** called with `{json.dumps(call.arguments, ensure_ascii=False)}`",
        "",
        f"answers, where page {page} reaches the income statement (characters {start:,} to {end:,} of "
        f"{len(call.answer):,}):",
        "",
        "```text",
        call.answer[start:end],
        "```",
    ]) + "\n"


capture("chunks_view_statement_page.md", statement_page_view())

# verifies: chunks.file-path-returns-text
assert text == full_text and all(value.display in text for value in REPORT.values)
captioned = Mesh(node_types={"Company"}, index=SearchIndex(image_describer=lambda data, name: f"A chart in {name}."))
captioned.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
captioned.add_collection("Meridian").upload("chart.png", b"\x89PNG\r\n\x1a\n" + bytes(24), index=True)
# verifies: chunks.file-path-returns-text
assert json.loads(tools_by_name(mesh_plugin(captioned))["Get"].call({"path": "Meridian/content/chart.png"}))[
    "content"]["$type"] == "Document"  # an indexed image in `content`: its Document node, not text
caption = "A bar chart of revenue by segment, " * 12  # a describer's caption is the summary, as written
captioned.index.image_describer = lambda data, name: caption
captioned.collections["Meridian/content"].upload("bars.png", b"\x89PNG\r\n\x1a\n" + bytes(32), index=True)
# verifies: chunks.summary-of-pdf-and-image
assert captioned.get("Meridian/content/_Documents/bars.png").content["summary"] == caption and len(caption) > SUMMARY_LIMIT
slow = copy_mesh(mesh)
slow.read_seconds = lambda path: UNIFIED_READ_TIMEOUT_SECONDS + 0.5  # a busy host
# verifies: chunks.file-path-returns-text
assert tools_by_name(mesh_plugin(slow))["Get"].call({"path": "Meridian/content/Annual Report 2024.pdf"}) == \
    "Error: Timeout resolving 'content/Annual Report 2024.pdf' at Meridian"
slow.read_seconds = lambda path: UNIFIED_READ_TIMEOUT_SECONDS
# verifies: chunks.file-path-returns-text
assert json.loads(tools_by_name(mesh_plugin(slow))["Get"].call({"path": "Meridian/content/Annual Report 2024.pdf"})) == full_text
# verifies: chunks.get-answers-a-json-string
assert answer.startswith('"') and answer.endswith('"') and "\n" not in answer and "\\n" in answer
# verifies: chunks.get-answers-a-json-string
assert '"' not in answer[1:-1] and all(" " <= char <= "~" for char in answer)  # quotes and non-ASCII as \uXXXX

# --8<-- [start:derive-file-path]
by_string_rule = file_path_by_string_rule(document.path)
by_fields = file_path_from_document(node["content"])
print(by_string_rule)
#> Meridian/content/Annual-Report-2024.pdf
print(by_fields)
#> Meridian/content/Annual Report 2024.pdf
print(tools["Get"].call({"path": by_string_rule}))
#> Error: File 'Annual-Report-2024.pdf' not found in collection 'content'
# --8<-- [end:derive-file-path]

# verifies: chunks.string-rule-is-lossy
assert tools["Get"].call({"path": by_string_rule}) == "Error: File 'Annual-Report-2024.pdf' not found in collection 'content'"
# verifies: chunks.fields-give-the-get-path
assert json.loads(tools["Get"].call({"path": by_fields})) == full_text
odd = copy_mesh(mesh)
odd_tools = tools_by_name(mesh_plugin(odd))
for odd_name, old_form_reads in (("Director's report.md", False), ('The "final" notes.md', False),
                                  ("Q3: notes.md", True), ("2024/Q3: notes.md", True)):
    odd.collections["Meridian/content"].upload(odd_name, b"notes", index=True)
    odd_answer = odd_tools["Get"].call({"path": get_path_of_file("Meridian/content", odd_name)})
    # verifies: unified-path.tool-paths-lose-quotes, chunks.colon-in-path-old-form
    assert odd_answer.startswith("Error: ") and odd_answer != '"notes"', odd_answer  # a quote or a ':'
    old_form = odd_tools["Get"].call({"path": f"Meridian/content:{odd_name}"})
    # verifies: unified-path.tool-paths-lose-quotes, chunks.colon-in-path-old-form
    assert (old_form == '"notes"') is old_form_reads, (odd_name, old_form)  # `{node}/content:{filePath}`: ':' only
odd.create({"id": "Data", "namespace": "Meridian", "name": "Data room", "nodeType": "Markdown"})
odd.add_collection("Meridian/Data").upload("notes.md", b"notes", index=True)
# verifies: unified-path.reserved-prefixes
assert odd_tools["Get"].call({"path": "Meridian/Data/content/notes.md"}).startswith("Error: ")  # split at 'Data'
# verifies: unified-path.forms-before-the-split
assert odd_tools["Get"].call({"path": "Meridian/Data/content:notes.md"}) == '"notes"'  # the old form reads it
odd.collections["Meridian/content"].upload("area/map.md", b"map", index=True)  # a folder named 'area'
# verifies: unified-path.forms-before-the-split
assert odd_tools["Get"].call({"path": "Meridian/content/area/map.md"}) == "Not found: Meridian/content"  # the area route
# verifies: unified-path.forms-before-the-split
assert odd_tools["Get"].call({"path": "Meridian/content:area/map.md"}) == '"map"'  # the old form is never that route
odd.create({"id": "area", "namespace": "Meridian", "name": "Area", "nodeType": "Markdown"})  # a node named 'area'
odd.add_collection("Meridian/area").upload("notes.md", b"notes", index=True)
# verifies: unified-path.forms-before-the-split
assert odd_tools["Get"].call({"path": "Meridian/area/content/notes.md"}).startswith("Error: ")  # area 'content' of Meridian
# verifies: unified-path.forms-before-the-split
assert odd_tools["Get"].call({"path": "Meridian/area/content:notes.md"}) == '"notes"'
odd.create({"id": "layoutAreas", "namespace": "Meridian", "name": "Layouts", "nodeType": "Markdown"})
odd.add_collection("Meridian/layoutAreas").upload("notes.md", b"notes", index=True)
# verifies: unified-path.reserved-prefixes
assert odd_tools["Get"].call({"path": "Meridian/layoutAreas/content/notes.md"}).startswith("Error: ")  # split at 'layoutAreas'
# verifies: unified-path.forms-before-the-split
assert odd_tools["Get"].call({"path": "Meridian/layoutAreas/content:notes.md"}) == '"notes"'
for exact_word in ("Area", "LayoutAreas"):  # `area` and `layoutAreas` match in that case only
    odd.create({"id": exact_word, "namespace": "Meridian", "name": exact_word, "nodeType": "Markdown"})
    odd.add_collection(f"Meridian/{exact_word}").upload("notes.md", b"notes", index=True)
    # verifies: unified-path.forms-before-the-split, unified-path.reserved-prefixes
    assert odd_tools["Get"].call({"path": f"Meridian/{exact_word}/content/notes.md"}) == '"notes"', exact_word

seen = Mesh(node_types={"Company", "Markdown"}, index=SearchIndex(image_describer=lambda data, name: f"A chart in {name}."))
seen.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
seen.create({"id": "Data", "namespace": "Meridian", "name": "Data room", "nodeType": "Markdown"})
for image_node, image in (("Meridian", "Q3: chart.png"), ("Meridian/Data", "chart.png")):
    seen.add_collection(image_node).upload(image, b"\x89PNG\r\n\x1a\n" + bytes(24), index=True)
seen.refresh_index()
seen_get = tools_by_name(mesh_plugin(seen))["Get"]
# verifies: chunks.image-looked-up-before-split
assert [json.loads(seen_get.call({"path": path}))["content"]["summary"] for path in (
    "Meridian/content/Q3: chart.png", "Meridian/Data/content/chart.png")] == [
    "A chart in Q3: chart.png.", "A chart in chart.png."]  # an image's Document node: looked up before any split

# --8<-- [start:named-collection]
filings = mesh.add_collection("Meridian", "filings")
filings.upload("annual-report-2024.md", b"# Annual report\n", index=True)
filed = filings.document_node("annual-report-2024.md").content
print(filed["collectionPath"] + "/" + filed["filePath"])
#> Meridian/filings/annual-report-2024.md
print(tools["Get"].call({"path": filed["collectionPath"] + "/" + filed["filePath"]}))
#> Not found: Meridian/filings/annual-report-2024.md
print(file_path_from_document(filed))
#> Meridian/content/filings/annual-report-2024.md
# --8<-- [end:named-collection]

# verifies: unified-path.other-words-are-node-paths
assert tools["Get"].call({"path": "Meridian/filings/annual-report-2024.md"}) == "Not found: Meridian/filings/annual-report-2024.md"
# verifies: unified-path.named-collection-shape
assert json.loads(tools["Get"].call({"path": file_path_from_document(filed)})) == "# Annual report\n"
# verifies: chunks.fields-give-the-get-path
assert get_path_of_file("Meridian/content", "2024/notes.md") == "Meridian/content/2024/notes.md"
for store, expected in (("AzureBlob", "[]"), ("FileSystem", '"# Annual report\\n"')):
    other = Mesh(node_types={"Company"}, content_store=store)
    other.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
    other.add_collection("Meridian")  # a `content` collection that has stored nothing yet
    other.add_collection("Meridian", "filings").upload("annual-report-2024.md", b"# Annual report\n")
    # verifies: unified-path.named-collection-shape, unified-path.named-collection-on-azure-blob
    assert tools_by_name(mesh_plugin(other))["Get"].call({"path": file_path_from_document(filed)}) == expected, store


def path_shapes(on_filesystem: dict[str, str], on_azure: dict[str, str]) -> str:
    """The two paths of one uploaded file, and what Get answered on each on either store (answers by path)."""
    def azure_column(path: str) -> str:
        return "the same" if on_azure[path] == on_filesystem[path] else f"`{on_azure[path]}`"

    rows = [
        ("Document node", "`{collectionPath}/_Documents/{slug}`", document.path,
         f"the node: {len(set(node['content']) - {'$type', 'summary'})} metadata fields and a {len(summary)}-character "
         "summary, never the text"),
        ("The file", "`{node}/content/{filePath}`", by_fields,
         f"the full extracted text: {len(text):,} characters"),
        ("A file of a named collection", "`{node}/content/{collection}/{filePath}`",
         file_path_from_document(filed), "the file's text"),
    ]
    lines = ["| Path | Shape | Example | Get returns (FileSystem store) | AzureBlob store |", "|---|---|---|---|---|"]
    lines += [f"| {name} | {shape} | `{example}` | {returns} | {azure_column(example)} |"
              for name, shape, example, returns in rows]
    return "\n".join(lines)


azure = copy_mesh(mesh)
azure.content_store = "AzureBlob"  # the same files and nodes behind an AzureBlob content store
azure_get = tools_by_name(mesh_plugin(azure))["Get"]
# Get on each example path of the path-shapes table, once per store: the asserts check these answers, the table shows them.
shape_paths = (document.path, by_fields, file_path_from_document(filed))
on_filesystem = {path: tools["Get"].call({"path": path}) for path in shape_paths}
on_azure = {path: azure_get.call({"path": path}) for path in shape_paths}
# verifies: chunks.content-store-is-host-wiring
assert Mesh().content_store == "FileSystem" and on_azure[by_fields] == on_filesystem[by_fields]
# verifies: chunks.content-store-is-host-wiring
assert [on_azure[path] for path in (document.path, file_path_from_document(filed))] == ["[]", "[]"]
capture("chunk_path_shapes.md", path_shapes(on_filesystem, on_azure))
# verifies: chunks.document-node-on-azureblob
assert azure_get.call({"path": document.path}) == "[]"  # a `content` Document path: an empty folder listing
# verifies: chunks.document-node-on-azureblob
assert json.loads(azure_get.call({"path": filings.document_node("annual-report-2024.md").path}))["nodeType"] == "Document"
mesh.collections["Meridian/content"].upload("notes.md", b"notes", index=True)
# verifies: chunks.string-rule-works-for-slug-safe-names
assert json.loads(tools["Get"].call({"path": file_path_by_string_rule("Meridian/content/_Documents/notes.md")})) == "notes"
# verifies: chunks.string-rule-works-for-slug-safe-names
assert tools["Get"].call({"path": file_path_by_string_rule(filings.document_node("annual-report-2024.md").path)}).startswith("Not found")

# --8<-- [start:slug-collision]
content = mesh.collections["Meridian/content"]
content.upload("Q3 report.md", b"First file: Q3 revenue 100.", index=True)
content.upload("Q3-report.md", b"Second file: Q3 revenue 200.", index=True)
both = json.loads(tools["Get"].call({"path": "Meridian/content/_Documents/Q3-report.md"}))["content"]
print(both["filePath"], "|", both["summary"])
#> Q3-report.md | Second file: Q3 revenue 200.
# --8<-- [end:slug-collision]

# verifies: chunks.slug-collision-last-wins
assert document_slug("Q3 report.md") == document_slug("Q3-report.md") and both["filePath"] == "Q3-report.md"
# verifies: chunks.slug-collision-last-wins
assert json.loads(tools["Get"].call({"path": "Meridian/content/Q3 report.md"})) == "First file: Q3 revenue 100."

strict = Mesh(node_types={"Company"}, index=SearchIndex(summarizer=extractive_summary, refuse_slug_collisions=True))
strict.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
guarded = strict.add_collection("Meridian")
guarded.upload("Q3 report.md", b"First file.", index=True)
try:
    guarded.upload("Q3-report.md", b"Second file.", index=True)
    refusal = ""
except DocumentSlugCollision as refused:
    refusal = str(refused)
# verifies: chunks.slug-collision-refused
assert refusal == ("File 'Q3-report.md' would share the Document node 'Meridian/content/_Documents/Q3-report.md' "
                   "with 'Q3 report.md' (both slug to 'Q3-report.md'); rename one of them")
# verifies: chunks.slug-collision-refused
assert [f["filePath"] for f in guarded.listing()] == ["Q3 report.md"] and SearchIndex().refuse_slug_collisions is False

# Every node Get answers on this page's meshes, and every node its listings show, as the framework writes it.
for every in (mesh, captioned, seen, strict):  # a node a file or reserved word hides from Get answers no node
    agent_get = tools_by_name(mesh_plugin(every))["Get"]
    for answer in [agent_get.call({"path": shown.path}) for shown in every.nodes()]:
        # verifies: mesh.get-node-json
        assert not is_node(answer) or rule_breaks(answer) == [], (answer[:80], rule_breaks(answer))
for answer in node_answers(VIEW):
    # verifies: mesh.get-node-json
    assert rule_breaks(answer) == [], (answer[:80], rule_breaks(answer))
