"""Content transformers: what Get on a file returns, per extension (C3-C5)."""

import io
import json
import zipfile

from openpyxl import Workbook

from agentkit import IMAGE_MEDIA_TYPES, TRANSFORMERS, Mesh, SearchIndex, find_transformer, mesh_plugin, tools_by_name
from agentkit.guide import REPORT, upload_report
from claimcheck import capture

mesh = Mesh(node_types={"Company"})
upload_report(mesh)
collection = mesh.collections["Meridian/content"]
get = tools_by_name(mesh_plugin(mesh))["Get"]


# --8<-- [start:read-decoded]
def read(path, tool=get):
    """Get on a file, decoded: the answer is the text as one JSON string (R7); an error is plain text."""
    answer = tool.call({"path": path})
    return json.loads(answer) if answer.startswith('"') else answer
# --8<-- [end:read-decoded]


def transformer_table() -> str:
    """The registry in order: the first transformer whose extensions hold the file's extension wins."""
    lines = ["| Order | Transformer | Extensions | Get on the file returns |", "|---:|---|---|---|"]
    for order, transformer in enumerate(TRANSFORMERS, start=1):
        extensions = " ".join(f"`{ext}`" for ext in transformer.extensions)
        lines.append(f"| {order} | {transformer.name} | {extensions} | {transformer.returns} |")
    rasters = " ".join(f"`{ext}`" for ext in IMAGE_MEDIA_TYPES)
    lines.append(f"| | (none) | {rasters} (raster images) | a placeholder line `[image: {{name}} ({{type}}, {{n}} bytes)] …`, "
                 "or the image's Document node in collection `content` |")
    lines.append("| | (none) | everything else, other images too | the bytes read as UTF-8 text "
                 "(an `.svg` as its markup, a binary garbled) |")
    return "\n".join(lines)


# --8<-- [start:spreadsheet]
workbook = Workbook()
sheet = workbook.active
sheet.title = "Key figures"
sheet.append(["Line item", "FY2024", "FY2023"])
sheet.append(["Revenue", 4812.3, 4523.1])
workbook.create_sheet("Notes")  # left empty
buffer = io.BytesIO()
workbook.save(buffer)
collection.upload("figures.xlsx", buffer.getvalue())
print(read("Meridian/content/figures.xlsx"))
#> ## Sheet: Key figures
#>
#> | Row | A | B | C |
#> |---:|---:|---:|---:|
#> | 1 | Line item | FY2024 | FY2023 |
#> | 2 | Revenue | 4812.3 | 4523.1 |
#>
#> ## Sheet: Notes
#>
#> (No data)
#>
#>
# --8<-- [end:spreadsheet]

# verifies: unified-path.xlsx-sheets
assert read("Meridian/content/figures.xlsx") == (
    "## Sheet: Key figures\n\n| Row | A | B | C |\n|---:|---:|---:|---:|\n| 1 | Line item | FY2024 | FY2023 |\n"
    "| 2 | Revenue | 4812.3 | 4523.1 |\n\n## Sheet: Notes\n\n(No data)\n\n")
collection.upload("old-figures.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504))  # a BIFF (.xls) header
# verifies: unified-path.xls-goes-to-the-xlsx-reader
assert find_transformer("old-figures.xls").name == "xlsx"
assert read("Meridian/content/old-figures.xls").startswith(  # agentkit's model of X4
    "Error: Error accessing file 'old-figures.xls' from collection 'content': ")

# --8<-- [start:other-formats]
collection.upload("logo.png", b"\x89PNG\r\n\x1a\n" + bytes(2040))
collection.upload("readme.md", "# Readme\n\n  Kept *verbatim*.\n".encode())
collection.upload("backup.zip", b"PK\x05\x06" + bytes(18))
print(read("Meridian/content/logo.png"))
#> [image: logo.png (image/png, 2048 bytes)] Binary image content is not returned as text. ...
print(read("Meridian/content/readme.md"))
#> # Readme
#>
#>   Kept *verbatim*.
#>
print(repr(read("Meridian/content/backup.zip")))
#> 'PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
# --8<-- [end:other-formats]

# verifies: unified-path.images-never-bytes
assert read("Meridian/content/logo.png") == (
    "[image: logo.png (image/png, 2048 bytes)] Binary image content is not returned as text. When content "
    "indexing is enabled, an AI-generated description is available on the file's Document node.")
# verifies: unified-path.text-verbatim
assert read("Meridian/content/readme.md") == "# Readme\n\n  Kept *verbatim*.\n"
# A leading byte-order mark is dropped; a UTF-16 or UTF-32 one also selects that encoding.
TABLE = "Jahr;Umsatz\n2024;1.284,5\n"
for name, data in (("excel.csv", b"\xef\xbb\xbf" + TABLE.encode("utf-8")), ("utf16.csv", TABLE.encode("utf-16")),
                   ("utf16be.csv", b"\xfe\xff" + TABLE.encode("utf-16-be")), ("utf32.csv", TABLE.encode("utf-32"))):
    collection.upload(name, data)
    # verifies: unified-path.text-verbatim
    assert read(f"Meridian/content/{name}") == TABLE, name
collection.upload("bom-later.md", b"x\xef\xbb\xbf")
# verifies: unified-path.text-verbatim
assert read("Meridian/content/bom-later.md") == "x\ufeff"  # only a leading mark is a byte-order mark
collection.upload("scan.bin", bytes([0x41, 0xFF, 0xFE, 0x00, 0xC3]))
# verifies: unified-path.binaries-garbled
assert read("Meridian/content/scan.bin") == "A\ufffd\ufffd\x00\ufffd"
# Images outside the eight raster extensions are such files: an .svg answers its markup, an .ico its bytes garbled.
SVG = '<svg xmlns="http://www.w3.org/2000/svg"><text>4,812.3</text></svg>'
collection.upload("chart.svg", SVG.encode())
collection.upload("favicon.ico", bytes([0x00, 0x00, 0x01, 0x00, 0xFF]))
# verifies: unified-path.binaries-garbled
assert read("Meridian/content/chart.svg") == SVG and read("Meridian/content/favicon.ico") == "\x00\x00\x01\x00\ufffd"
for other in (".svg", ".ico", ".avif", ".heic", ".heif", ".jfif", ".psd", ".raw"):
    collection.upload(f"other{other}", bytes([0x41, 0xFF]))
    # verifies: unified-path.binaries-garbled
    assert other not in IMAGE_MEDIA_TYPES and read(f"Meridian/content/other{other}") == "A\ufffd", other
# Every raster extension, in any letter case, answers the placeholder, never its bytes.
for extension, media_type in IMAGE_MEDIA_TYPES.items():
    for name in (f"pixel{extension}", f"PIXEL{extension.upper()}"):
        collection.upload(name, b"\x89PNG\r\n\x1a\n" + bytes(2))
        # verifies: unified-path.images-never-bytes
        assert read(f"Meridian/content/{name}") == (
            f"[image: {name} ({media_type}, 10 bytes)] Binary image content is not returned as text. When content "
            "indexing is enabled, an AI-generated description is available on the file's Document node."), name
# verifies: unified-path.images-never-bytes
assert sorted(IMAGE_MEDIA_TYPES) == [".bmp", ".gif", ".jpeg", ".jpg", ".png", ".tif", ".tiff", ".webp"]

# An image described at indexing has a Document node, and Get on the image in `content` answers with it.
captioned = Mesh(node_types={"Company"}, index=SearchIndex(image_describer=lambda data, name: f"A logo, {len(data)} bytes."))
captioned.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
captioned.add_collection("Meridian").upload("logo.png", b"\x89PNG\r\n\x1a\n" + bytes(2040), index=True)
captioned_get = tools_by_name(mesh_plugin(captioned))["Get"]
# verifies: unified-path.images-never-bytes
assert json.loads(captioned_get.call({"path": "Meridian/content/logo.png"}))["content"]["summary"] == "A logo, 2048 bytes."
captioned.add_collection("Meridian", "media").upload("logo.png", b"\x89PNG\r\n\x1a\n" + bytes(2040), index=True)
# verifies: unified-path.images-never-bytes
assert read("Meridian/content/media/logo.png", captioned_get).startswith("[image: logo.png (image/png, 2048 bytes)]")

text = read("Meridian/content/Annual Report 2024.pdf")
from pypdf import PdfReader  # noqa: E402  (only for the check: the page count)

from agentkit.guide import report_pdf_bytes  # noqa: E402

pages = text.split("\n")  # one line per page: PdfPig's page.Text has no line break of its own
revenue = REPORT.value("rev", "FY2024").display + REPORT.value("rev", "FY2023").display
# verifies: chunks.get-pdf-loses-table-structure
assert len(pages) == len(PdfReader(io.BytesIO(report_pdf_bytes())).pages) == 62 and f"RevenueEUR m{revenue}" in pages[1]

ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
docx = io.BytesIO()
with zipfile.ZipFile(docx, "w") as archive:
    archive.writestr("word/document.xml", f'<w:document {ns}><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>'
                     '<w:r><w:t>Outlook</w:t></w:r></w:p><w:p><w:r><w:t>Growth continues.</w:t></w:r></w:p></w:body></w:document>')
collection.upload("memo.docx", docx.getvalue())
# verifies: unified-path.docx-markdown
assert read("Meridian/content/memo.docx") == "# Outlook\n\nGrowth continues."
# verifies: unified-path.first-match-wins
assert [getattr(find_transformer(name), "name", None) for name in ("A.PDF", "b.Xlsx", "c.XLS", "d.docx", "e.csv", "f.JPG")] == [
    "pdf", "xlsx", "xlsx", "docx", None, None]
# verifies: unified-path.first-match-wins
assert [t.name for t in TRANSFORMERS] == ["docx", "pdf", "xlsx"]
collection.upload("raw.gif", b"GIF89a-not-text")
# verifies: unified-path.first-match-wins
assert find_transformer("raw.gif") is None and read("Meridian/content/raw.gif").startswith("[image: raw.gif (image/gif, 15 bytes)]")
capture("content_transformers.md", transformer_table())  # TRANSFORMERS in order and the fallback rows, checked above
