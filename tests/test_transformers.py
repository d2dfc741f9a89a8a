"""Tests for agentkit/_transformers.py: the text Get returns (C3-C5) and the text indexing reads (D5)."""

from __future__ import annotations

import io
import zipfile
import zlib

import pytest
from fpdf import FPDF
from openpyxl import Workbook
from pypdf import PdfWriter
from pypdf.generic import NameObject, StreamObject, TextStringObject

from agentkit import get_text, index_text
from agentkit._errors import UnreadableDocument
from agentkit._transformers import _encoded_data, _stream_decodes


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


def test_pdf_leading_pages_without_text_add_no_newline():
    """C3: a newline goes before a page only once text stands before it."""
    # verifies: chunks.get-pdf-loses-table-structure
    assert get_text("a.pdf", small_pdf(pages=("", "", "Third.", "", "Fifth."))) == "Third.\n\nFifth."


@pytest.mark.parametrize("name, make, message", [
    ("Report.pdf", lambda: b"plain text pretending", "Report.pdf"), ("Report.pdf", encrypted_pdf, "Report.pdf"),
    ("b.xls", lambda: b"\xd0\xcf\x11\xe0 not an xlsx", "Workbook 'b.xls' cannot be read"),  # a legacy .xls
], ids=["not a pdf", "encrypted", "xls"])
def test_unreadable_pdfs_raise_naming_the_file(name, make, message):
    """(Damaged files, read through Get: tests/test_damaged_files.py.)"""
    with pytest.raises(UnreadableDocument, match=message):
        get_text(name, make())


def test_workbook_cells_escape_pipes():
    """A cell's '|' and blank leading rows (the layout: snippets/unified_path_03_transformers.py)."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Figures"
    sheet.append([None, None])
    sheet.append(["Item", "FY2024"])
    sheet.append(["Pipe | name", " 4812.3 "])
    workbook.create_sheet("Empty")
    buffer = io.BytesIO()
    workbook.save(buffer)
    assert get_text("book.xlsx", buffer.getvalue()) == (
        "## Sheet: Figures\n\n| Row | A | B |\n|---:|---:|---:|\n| 2 | Item | FY2024 |\n"
        "| 3 | Pipe \\| name | 4812.3 |\n\n## Sheet: Empty\n\n(No data)\n\n"
    )


def test_docx_becomes_markdown():
    ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    body = (f'<w:document {ns}><w:body>'
            '<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>Outlook</w:t></w:r></w:p>'
            '<w:p><w:r><w:t>Growth </w:t></w:r><w:r><w:t>continues.</w:t></w:r></w:p>'
            '</w:body></w:document>')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("word/document.xml", body)
    assert get_text("memo.docx", buffer.getvalue()) == index_text("memo.docx", buffer.getvalue()).text == \
        "## Outlook\n\nGrowth continues."


def test_indexing_text_by_extension():
    """D5: PDF words and their spans; text formats as UTF-8; others none."""
    indexed = index_text("a.pdf", small_pdf(("First page  text.", "Second\npage")))
    assert indexed.text == "First page text.\nSecond page"
    assert [(s.start, s.length, s.page) for s in indexed.spans] == [(0, 5, 1), (6, 4, 1), (11, 5, 1), (17, 6, 2), (24, 4, 2)]
    assert all(0 <= v <= 1 for s in indexed.spans for v in (s.box.x, s.box.y, s.box.w, s.box.h))
    # verifies: chunks.pdf-chunks-have-pages
    assert indexed.spans[3].box.y < indexed.spans[4].box.y  # origin top left: the second line lies below the first
    for name in ("a.md", "a.markdown", "a.txt", "a.csv", "a.json", "a.html", "a.htm", "a.xml"):
        assert index_text(name, b"words").text == "words"
    for name in ("a.xlsx", "a.png", "a.bin", "a.yaml", "a.py"):
        assert index_text(name, b"words").text == ""


def test_a_streams_encoded_bytes_are_read_through_pypdfs_public_writer():
    """The bytes zlib checks are the file's own, even when the dictionary holds a string with `stream` lines in it."""
    def stream(data: bytes) -> StreamObject:
        return StreamObject.initialize_from_dictionary({
            NameObject("/Filter"): NameObject("/FlateDecode"), NameObject("/Note"): TextStringObject("a\nstream\nb"),
            "__streamdata__": data})

    raw = zlib.compress(b"BT (x) Tj ET\nendstream\n")
    assert _encoded_data(stream(raw)) == raw
    assert _stream_decodes(stream(raw))
    assert not _stream_decodes(stream(raw[:-1]))  # the checksum cut short: pypdf itself would recover the text
