"""Unified path shapes: address, prefix, collection, file; links, embeds and relative forms."""

import pytest

from agentkit import (
    RESERVED_PREFIXES, CollectionNotFound, Mesh, PathTraversal, parse_path, resolve_relative, upload_report,
)

mesh = Mesh()
upload_report(mesh)  # Meridian/content/Annual Report 2024.pdf
mesh.add_collection("Meridian", "filings").upload("annual-report-2024.md", b"# Annual report\n")
mesh.collections["Meridian/content"].upload("2024/notes.md", b"Nested notes.\n")

# --8<-- [start:parse]
path = parse_path("@Meridian/content/Annual Report 2024.pdf", is_node=mesh.exists)
print(path.reference, path.address, path.prefix, path.collection_path, path.file_path, sep=" | ")
#> link | Meridian | content | Meridian/content | Annual Report 2024.pdf
# --8<-- [end:parse]

# verifies: unified-path.links-and-embeds
assert (path.reference, parse_path("@@Meridian/content/logo.png").reference, parse_path("Meridian").reference) == ("link", "embed", None)

EXAMPLES = [
    "Meridian",
    "Meridian/*",
    "Meridian/schema/Company",
    "@Meridian/content/",
    "@Meridian/content/Annual Report 2024.pdf",
    "@@Meridian/content/content/2024/notes.md",
    "Meridian/content/2024/notes.md",
    "Meridian/filings/annual-report-2024.md",
    "Meridian/content/_Documents/Annual-Report-2024.pdf",
]
KIND_TEXT = {
    "node": "a node", "children": "the node's children", "area": "a reserved area",
    "collection": "the collection's file list", "file": "a file", "document": "a Document node",
}


def shapes_table() -> str:
    """How each example path parses, and what Get on it finds in the mesh above."""
    lines = ["| Path | Reads as | Address | Prefix | Collection path | Path in the collection | Get |",
             "|---|---|---|---|---|---|---|"]
    for text in EXAMPLES:
        parsed = parse_path(text, is_node=mesh.exists)
        try:
            kind = mesh.fetch(text).kind
            found = {"node": "the node", "children": "a child list", "collection": "a file list", "file": "the text"}[kind]
        except Exception as error:  # the table shows the answer the model would read
            found = str(error)
        cells = [f"`{text}`", KIND_TEXT[parsed.kind], parsed.address, parsed.prefix or "",
                 parsed.collection_path or "", parsed.file_path or "", found]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines)


CAPTURES = {"unified_path_shapes.md": shapes_table}

# verifies: unified-path.reserved-prefixes
assert RESERVED_PREFIXES == ("data", "schema", "model", "area", "content", "menu")
# verifies: unified-path.reserved-prefixes
assert parse_path("Meridian/schema/Company", is_node=mesh.exists).kind == "area" and parse_path(
    "Meridian/filings/annual-report-2024.md", is_node=mesh.exists).collection_path == "Meridian/filings"
# verifies: unified-path.content-listing
assert [f["filePath"] for f in mesh.fetch("Meridian/content/").value] == ["2024/notes.md", "Annual Report 2024.pdf"]
# verifies: unified-path.content-root-file
assert mesh.fetch("Meridian/content/Annual Report 2024.pdf").kind == "file"
# verifies: unified-path.nested-needs-doubled-form
assert mesh.fetch("Meridian/content/content/2024/notes.md").value == "Nested notes.\n"
# verifies: unified-path.nested-needs-doubled-form
with pytest.raises(CollectionNotFound, match="^Content collection '2024' not found$"):
    mesh.fetch("Meridian/content/2024/notes.md")

# --8<-- [start:relative]
print(resolve_relative("Meridian/Facts", "rev-FY2024-1"))
#> Meridian/Facts/rev-FY2024-1
print(resolve_relative("Meridian/Facts", "../Dimensions"))
#> Meridian/Dimensions
print(resolve_relative("Meridian/Facts", "/Other/Company"))
#> Other/Company
# --8<-- [end:relative]

# verifies: unified-path.relative-forms
assert [resolve_relative("Meridian/Facts", ref) for ref in ("rev-FY2024-1", "../Dimensions", "/Other/Company")] == [
    "Meridian/Facts/rev-FY2024-1", "Meridian/Dimensions", "Other/Company"]
# verifies: unified-path.relative-forms
with pytest.raises(PathTraversal, match="climbs above the mesh root"):
    resolve_relative("Meridian", "../../x")
