"""Content transformers: what Get on a file path returns, per extension."""

import io
import zipfile

import pytest
from openpyxl import Workbook

from agentkit import REPORT, TRANSFORMERS, Mesh, NoTransformer, find_transformer, mesh_plugin, tools_by_name, upload_report

mesh = Mesh()
upload_report(mesh)
collection = mesh.collections["Meridian/content"]
get = tools_by_name(mesh_plugin(mesh))["Get"]


def transformer_table() -> str:
    """The registry in order: the first transformer whose extension matches wins."""
    lines = ["| Order | Transformer | Extensions | Get on the file path returns |", "|---:|---|---|---|"]
    for order, transformer in enumerate(TRANSFORMERS, start=1):
        extensions = " ".join(f"`{ext}`" for ext in transformer.media_types)
        lines.append(f"| {order} | {transformer.name} | {extensions} | {transformer.returns} |")
    lines.append("| | (none) | anything else | no text: the error `No content transformer for extension …` |")
    return "\n".join(lines)


CAPTURES = {"content_transformers.md": transformer_table}

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
print(get.call({"path": "Meridian/content/figures.xlsx"}))
#> ## Sheet: Key figures
#>
#> | Row | A | B | C |
#> |---|---|---|---|
#> | 1 | Line item | FY2024 | FY2023 |
#> | 2 | Revenue | 4812.3 | 4523.1 |
#>
#> ## Sheet: Notes
#>
#> (No data)
# --8<-- [end:spreadsheet]

# verifies: unified-path.xlsx-sheets
assert get.call({"path": "Meridian/content/figures.xlsx"}) == (
    "## Sheet: Key figures\n\n| Row | A | B | C |\n|---|---|---|---|\n| 1 | Line item | FY2024 | FY2023 |\n"
    "| 2 | Revenue | 4812.3 | 4523.1 |\n\n## Sheet: Notes\n\n(No data)")

# --8<-- [start:other-formats]
collection.upload("logo.png", b"\x89PNG\r\n\x1a\n" + bytes(2040))
collection.upload("readme.md", "# Readme\n\n  Kept *verbatim*.\n".encode())
print(get.call({"path": "Meridian/content/logo.png"}))
#> [Image: logo.png, image/png, 2048 bytes]
print(get.call({"path": "Meridian/content/readme.md"}))
#> # Readme
#>
#>   Kept *verbatim*.
#>
try:
    collection.upload("backup.zip", b"PK\x05\x06" + bytes(18))
except Exception as error:
    print(error)
#> No content transformer for extension '.zip' (file 'backup.zip'): it cannot be read ...
# --8<-- [end:other-formats]

# verifies: unified-path.images-never-bytes
assert get.call({"path": "Meridian/content/logo.png"}) == "[Image: logo.png, image/png, 2048 bytes]"
# verifies: unified-path.text-verbatim
assert get.call({"path": "Meridian/content/readme.md"}) == "# Readme\n\n  Kept *verbatim*.\n"
# verifies: unified-path.no-transformer
assert get.call({"path": "Meridian/content/backup.zip"}) == "File 'backup.zip' not found in collection 'content'"
# verifies: unified-path.no-transformer
with pytest.raises(NoTransformer, match=r"^No content transformer for extension '\.zip' \(file 'backup\.zip'\)"):
    find_transformer("backup.zip")

text = get.call({"path": "Meridian/content/Annual Report 2024.pdf"})
from pypdf import PdfReader  # noqa: E402  (only for the check: the same pages, joined)

from agentkit import report_pdf_bytes  # noqa: E402

pages = [page.extract_text() for page in PdfReader(io.BytesIO(report_pdf_bytes())).pages]
# verifies: unified-path.pdf-pages-joined
assert text == "\n".join(pages) and len(pages) == 62 and REPORT.value("rev", "FY2024").display in pages[1]

ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
docx = io.BytesIO()
with zipfile.ZipFile(docx, "w") as archive:
    archive.writestr("word/document.xml", f'<w:document {ns}><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>'
                     '<w:r><w:t>Outlook</w:t></w:r></w:p><w:p><w:r><w:t>Growth continues.</w:t></w:r></w:p></w:body></w:document>')
collection.upload("memo.docx", docx.getvalue())
# verifies: unified-path.docx-markdown
assert get.call({"path": "Meridian/content/memo.docx"}) == "# Outlook\n\nGrowth continues."
# verifies: unified-path.first-match-wins
assert [find_transformer(name)[0].name for name in ("A.PDF", "b.Xlsx", "c.csv", "d.JPG")] == ["pdf", "xlsx", "text", "image"]
# verifies: unified-path.first-match-wins
assert [t.name for t in TRANSFORMERS] == ["pdf", "xlsx", "docx", "text", "image"]
