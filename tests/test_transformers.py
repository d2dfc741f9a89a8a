"""Tests for agentkit/_transformers.py: from stored bytes to the text Get returns."""

from __future__ import annotations

import io
import zipfile

import pytest
from fpdf import FPDF
from openpyxl import Workbook
from pypdf import PdfWriter

from agentkit import NoTransformer, UnreadableDocument, extract_text, find_transformer


def small_pdf(pages=("First page text.", "Second page text.")) -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 6, text)
    return bytes(pdf.output())


def encrypted_pdf() -> bytes:
    writer = PdfWriter(clone_from=io.BytesIO(small_pdf()))
    writer.encrypt("secret")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_pdf_pages_joined_with_newlines_and_page_offsets():
    """A PDF's page texts are joined with newlines, and each page's start offset is kept."""
    extracted, mime = extract_text("a.pdf", small_pdf())
    assert extracted.text == "First page text.\nSecond page text."
    assert extracted.page_starts == (0, len("First page text.") + 1)
    assert mime == "application/pdf"


@pytest.mark.parametrize("label, make, fragment", [
    ("empty", lambda: b"", "is empty (0 bytes)"),
    ("truncated", lambda: small_pdf()[:600], "cannot be read (corrupt or truncated)"),
    ("corrupt", lambda: b"%PDF-1.4\n" + bytes(range(256)) * 4, "cannot be read (corrupt or truncated)"),
    ("not a pdf", lambda: b"plain text pretending", "cannot be read (corrupt or truncated)"),
    ("encrypted", encrypted_pdf, "is encrypted; upload a copy without a password"),
])
def test_bad_pdfs_get_precise_errors(label, make, fragment):
    """Empty, truncated, corrupt, fake and encrypted PDFs each fail with a message naming the file."""
    with pytest.raises(UnreadableDocument) as error:
        extract_text("Report.pdf", make())
    assert fragment in str(error.value)
    assert "Report.pdf" in str(error.value)


def test_pdf_without_text_is_refused():
    """A PDF whose pages hold no extractable text cannot be read as text."""
    pdf = FPDF()
    pdf.add_page()
    with pytest.raises(UnreadableDocument, match="no extractable text"):
        extract_text("scan.pdf", bytes(pdf.output()))


def test_xlsx_sections_and_row_tables():
    """Each sheet is a '## Sheet:' section with a Row | A | B table; an empty sheet says (No data)."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Figures"
    sheet.append(["Item", "FY2024"])
    sheet.append(["Revenue", 4812.3])
    sheet.append(["Pipe | name", None])
    workbook.create_sheet("Empty")
    buffer = io.BytesIO()
    workbook.save(buffer)
    extracted, _ = extract_text("book.xlsx", buffer.getvalue())
    assert extracted.text == (
        "## Sheet: Figures\n\n| Row | A | B |\n|---|---|---|\n| 1 | Item | FY2024 |\n"
        "| 2 | Revenue | 4812.3 |\n| 3 | Pipe \\| name |  |\n\n## Sheet: Empty\n\n(No data)"
    )


def test_corrupt_xlsx_is_refused():
    """Bytes that are not a workbook fail with the file named."""
    with pytest.raises(UnreadableDocument, match="Workbook 'b.xlsx' cannot be read"):
        extract_text("b.xlsx", b"PK\x03\x04 not really a zip")


def test_docx_becomes_markdown():
    """Paragraphs become Markdown paragraphs and Heading styles become '#' headings."""
    ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    body = (f'<w:document {ns}><w:body>'
            '<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>Outlook</w:t></w:r></w:p>'
            '<w:p><w:r><w:t>Growth </w:t></w:r><w:r><w:t>continues.</w:t></w:r></w:p>'
            '</w:body></w:document>')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("word/document.xml", body)
    extracted, _ = extract_text("memo.docx", buffer.getvalue())
    assert extracted.text == "## Outlook\n\nGrowth continues."


def test_text_is_verbatim_and_must_be_utf8():
    """Text formats come back byte for byte (minus a BOM); invalid UTF-8 is refused."""
    assert extract_text("notes.md", "# Title\n\n  keep  spacing\n".encode())[0].text == "# Title\n\n  keep  spacing\n"
    assert extract_text("data.csv", b"\xef\xbb\xbfa,b\n1,2\n")[0].text == "a,b\n1,2\n"
    with pytest.raises(UnreadableDocument, match="not valid UTF-8 \\(byte 1\\)"):
        extract_text("x.txt", b"a\xff")


def test_images_never_return_bytes():
    """An image reads as a placeholder line (or its stored description), never its bytes."""
    extracted, mime = extract_text("charts/logo.png", b"\x89PNG" + b"\x00" * 96)
    assert extracted.text == "[Image: logo.png, image/png, 100 bytes]"
    assert extract_text("logo.png", b"\x89PNG", description="The company logo.")[0].text == "The company logo."


def test_unknown_extension_has_no_transformer():
    """A binary with an unclaimed extension fails, listing what can be read."""
    with pytest.raises(NoTransformer) as error:
        extract_text("archive.bin", b"\x00\x01")
    assert str(error.value).startswith("No content transformer for extension '.bin' (file 'archive.bin')")
    assert ".pdf" in str(error.value) and ".xlsx" in str(error.value)
    with pytest.raises(NoTransformer, match="extension '\\(none\\)'"):
        find_transformer("Makefile")


def test_extension_match_is_case_insensitive():
    """'.PDF' is claimed by the PDF transformer like '.pdf'."""
    assert find_transformer("SCAN.PDF")[0].name == "pdf"
