"""The text Get returns for a PDF is PdfPig's page.Text (C9), letters in content-stream order, nothing inserted;
indexing's is PdfPig's words (D8) joined by spaces: on two producers."""

from __future__ import annotations

import io

from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from agentkit import get_text, index_text
from agentkit._pdf_letters import document_letters, words
from agentkit.guide import REPORT, report_index_text


def reportlab_table() -> bytes:
    """One string per cell, a row as one string with its spaces, touching cells, a TJ kern and a wide TJ gap."""
    out = io.BytesIO()
    page = canvas.Canvas(out)
    page.setFont("Helvetica", 10)
    for y, cells in ((700, ("Line item", "Unit", "FY2024", "FY2023")), (685, ("Net profit", "EUR m", "411.3", "329.7"))):
        for x, cell in zip((50, 200, 300, 380), cells):
            page.drawString(x, y, cell)
    page.drawString(50, 660, "Net profit EUR m 411.3 329.7")  # one string that carries its own spaces
    touching = 50 + stringWidth("Total", "Helvetica", 10)
    page.drawString(50, 640, "Total")
    page.drawString(touching, 640, "EUR")  # drawn separately, but no gap between the two strings
    page._code.append("BT /F1 10 Tf 50 620 Td [(Kern) -30 (ed) -1000 (pair)] TJ ET")
    page.showPage()
    page.setFont("Helvetica", 10)
    page.drawString(50, 700, "Second page")
    page.save()
    return out.getvalue()


def test_get_of_a_pdf_concatenates_each_pages_letters_and_inserts_nothing():
    text = get_text("table.pdf", reportlab_table())
    first, second = text.split("\n")
    # verifies: chunks.get-pdf-loses-table-structure
    assert first == ("Line itemUnitFY2024FY2023" "Net profitEUR m411.3329.7" "Net profit EUR m 411.3 329.7"
                     "TotalEUR" "Kernedpair") and second == "Second page"


def test_the_reports_lines_run_together_in_get_and_keep_their_words_in_the_index(report_get_text):
    """(The report's fused table rows and page breaks: snippets/content_chunk_navigation_0[15]*.py.)"""
    text, indexed = report_get_text, report_index_text().text
    # fpdf2 draws each line of a paragraph as one string: the strings keep their spaces, the lines run together.
    # verifies: chunks.get-pdf-loses-table-structure, chunks.get-pdf-inserts-nothing
    assert "investment decisionsin every major market" in text and "decisions in every" in indexed
    # verifies: chunks.pdf-index-text-differs
    assert f"Revenue EUR m {REPORT.value('rev', 'FY2024').display} {REPORT.value('rev', 'FY2023').display}" in indexed


def test_indexing_words_follow_pdfpigs_default_word_extractor():
    data = reportlab_table()
    first, second = index_text("table.pdf", data).text.split("\n")
    # Cells apart are words apart; a space glyph ends a word; strings that touch make one word; a TJ number is a gap, not a letter.
    # verifies: chunks.pdf-index-text-differs, chunks.pdf-words-default-extractor
    assert first == ("Line item Unit FY2024 FY2023 Net profit EUR m 411.3 329.7 Net profit EUR m 411.3 329.7 "
                     "TotalEUR Kerned pair") and second == "Second page"
    letters = next(document_letters(PdfReader(io.BytesIO(data)), "table.pdf"))
    # The words come top to bottom: a string drawn last but placed higher comes first.
    shuffled = letters[-3:] + letters[:-3]
    assert ["".join(letter.value for letter in word) for word in words(shuffled)][:2] == ["Line", "item"]


def test_a_form_xobjects_letters_come_where_do_draws_it():
    """PdfPig runs a form XObject's content stream at its Do."""
    out = io.BytesIO()
    page = canvas.Canvas(out)
    page.setFont("Helvetica", 10)
    page.drawString(50, 700, "Before")
    page.beginForm("F")
    page.setFont("Helvetica", 10)
    page.drawString(0, 0, "In form")
    page.endForm()
    page.saveState()
    page.translate(50, 680)
    page.doForm("F")
    page.restoreState()
    page.drawString(50, 660, "After")
    page.save()
    # verifies: chunks.get-pdf-loses-table-structure
    assert get_text("form.pdf", out.getvalue()) == "BeforeIn formAfter"
    assert index_text("form.pdf", out.getvalue()).text == "Before In form After"
