"""Where the full text is: the Document node versus the file path, on the generated report."""

import json

from agentkit import (
    REPORT, DocumentSlugCollision, Mesh, chunk_plugin, document_slug, file_path_by_string_rule, file_path_from_document,
    mesh_plugin, tools_by_name, upload_report,
)

# --8<-- [start:upload]
mesh = Mesh()
document = upload_report(mesh)  # "Annual Report 2024.pdf" into Meridian/content
mesh.refresh_index()            # let the search index catch up
tools = tools_by_name(mesh_plugin(mesh) + chunk_plugin(mesh))
print(document.path)
#> Meridian/content/_Documents/Annual-Report-2024.pdf
# --8<-- [end:upload]

# verifies: chunks.document-node-path
assert document.path == "Meridian/content/_Documents/" + document_slug(REPORT.file_name)

# --8<-- [start:search-finds-the-document-node]
hit = json.loads(tools["search"].call({"query": "net profit"}))[0]
print(hit["documentPath"])
#> Meridian/content/_Documents/Annual-Report-2024.pdf
print(hit["collectionPath"], "|", hit["filePath"])
#> Meridian/content | Annual Report 2024.pdf
# --8<-- [end:search-finds-the-document-node]

# verifies: chunks.search-returns-document-node
assert hit["documentPath"] == document.path

# --8<-- [start:get-document-node]
node = json.loads(tools["Get"].call({"path": hit["documentPath"]}))
print(*sorted(node["content"]))
#> $type chunkCount collectionPath contentHash filePath indexedAt mime name sizeBytes summary
print(len(node["content"]["summary"]))
#> 280
# --8<-- [end:get-document-node]

full_text = mesh.fetch("Meridian/content/Annual Report 2024.pdf").value
# verifies: chunks.document-node-has-no-text
assert "text" not in node["content"] and full_text[5000:5100] not in json.dumps(node)
# verifies: chunks.summary-is-short
assert len(node["content"]["summary"]) <= 281 and node["content"]["summary"].endswith("…")

# --8<-- [start:get-file-path]
text = tools["Get"].call({"path": "Meridian/content/Annual Report 2024.pdf"})
print(len(text))
#> 145624
# --8<-- [end:get-file-path]

# verifies: chunks.file-path-returns-text
assert text == full_text and all(value.display in text for value in REPORT.values)

# --8<-- [start:derive-file-path]
by_string_rule = file_path_by_string_rule(hit["documentPath"])
by_fields = file_path_from_document(node["content"])
print(by_string_rule)
#> Meridian/content/Annual-Report-2024.pdf
print(by_fields)
#> Meridian/content/Annual Report 2024.pdf
print(tools["Get"].call({"path": by_string_rule}))
#> File 'Annual-Report-2024.pdf' not found in collection 'content'
# --8<-- [end:derive-file-path]

# verifies: chunks.string-rule-is-lossy
assert tools["Get"].call({"path": by_string_rule}) == "File 'Annual-Report-2024.pdf' not found in collection 'content'"
# verifies: chunks.fields-are-robust
assert tools["Get"].call({"path": by_fields}) == full_text

# --8<-- [start:slug-safe-names]
safe = mesh.add_collection("Meridian", "filings")
safe.upload("annual-report-2024.md", b"# Annual report\n")
safe_document = safe.document_node("annual-report-2024.md")
print(file_path_by_string_rule(safe_document.path))
#> Meridian/filings/annual-report-2024.md
# --8<-- [end:slug-safe-names]

# verifies: chunks.string-rule-works-for-slug-safe-names
assert tools["Get"].call({"path": file_path_by_string_rule(safe_document.path)}) == "# Annual report\n"

try:
    safe.upload("annual report 2024.md", b"another file")
    collision = ""
except DocumentSlugCollision as refused:
    collision = str(refused)
# verifies: chunks.slug-collision-refused
assert "share the Document node 'Meridian/filings/_Documents/annual-report-2024.md' with 'annual-report-2024.md'" \
    in collision and [f["filePath"] for f in safe.listing()] == ["annual-report-2024.md"]


def path_shapes() -> str:
    """The two path shapes of one uploaded file, and what Get on each returns, measured."""
    rows = [
        ("Document node", "`{collectionPath}/_Documents/{slug}`", f"`{document.path}`",
         f"the node: {len(node['content']) - 1} metadata fields and a {len(node['content']['summary'])}-character "
         "summary, never the text"),
        ("File path", "`{collectionPath}/{filePath}`", f"`{by_fields}`",
         f"the full extracted text: {len(text):,} characters"),
    ]
    lines = ["| Path | Shape | For the generated report | Get returns |", "|---|---|---|---|"]
    lines += [f"| {name} | {shape} | {example} | {returns} |" for name, shape, example, returns in rows]
    return "\n".join(lines)


CAPTURES = {"chunk_path_shapes.md": path_shapes}
