"""The fixture files the checks upload, and the framework's figures they are compared with.

The figures are the framework's (facts K1, K3 of the guide's framework-facts file); a
target that behaves otherwise fails the claim that states them.
"""

from __future__ import annotations

import io
import zipfile

CHUNK_SIZE = 1000  # K1: 1,000-character windows ...
CHUNK_OVERLAP = 150  # ... that overlap by 150
CHUNK_STRIDE = CHUNK_SIZE - CHUNK_OVERLAP
SNIPPET_LIMIT = 160  # K3: a snippet longer than 160 characters is cut to 160 + '…'
SEARCH_WORD = "zephyrquill"  # a word no real document holds, so a search finds the fixture

WORDS = ("amber", "falcon", "quartz", "river", "cobalt", "meadow", "lantern", "harbor", "thistle", "copper")


def long_text() -> str:
    """About 2,700 characters of numbered lines: three windows, with the search word in the second."""
    lines = []
    for number in range(1, 61):
        word = SEARCH_WORD if number == 25 else WORDS[number % len(WORDS)]
        lines.append(f"Line {number:03d}: {word} {WORDS[(number * 3) % len(WORDS)]} {WORDS[(number * 7) % len(WORDS)]}.")
    return "\n".join(lines) + "\n"


def short_text() -> str:
    """Well under one window: indexed as a single chunk."""
    return "# Conformance note\n\nA short Markdown file that fits one chunk.\n"


def expected_windows(text: str) -> list[str]:
    """The chunk texts the framework's TextChunker cuts from `text` (K1): the last window stops at the end."""
    if len(text) <= CHUNK_SIZE:
        return [text]
    windows, start = [], 0
    while True:
        window = text[start:start + CHUNK_SIZE]
        windows.append(window)
        if start + len(window) >= len(text):
            return windows
        start += CHUNK_STRIDE


def slug(file_path: str) -> str:
    """The Document node's last segment for a file (D2, DocumentPaths.Slug): the suite needs it to find the node."""
    out, last_was_dash = [], False
    for ch in file_path.strip():
        if (ch.isascii() and ch.isalnum()) or ch in "-_.":
            out.append(ch)
            last_was_dash = False
        elif not last_was_dash:
            out.append("-")
            last_was_dash = True
    return "".join(out).strip("-") or "document"


RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
DOCUMENT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _relationship(kind: str, target: str) -> str:
    return f'<Relationships xmlns="{RELATIONSHIPS}"><Relationship Id="rId1" Type="{DOCUMENT}/{kind}" Target="{target}"/></Relationships>'


def _package(main: str, main_type: str, second: str, second_type: str, parts: dict[str, str]) -> bytes:
    """An Open XML package: its content types (the main part and one other), the package's relationship to the main
    part, and each part's XML, zipped under its name."""
    office = "application/vnd.openxmlformats-officedocument."
    types = ('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
             '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
             '<Default Extension="xml" ContentType="application/xml"/>'
             f'<Override PartName="/{main}" ContentType="{office}{main_type}+xml"/>'
             f'<Override PartName="/{second}" ContentType="{office}{second_type}+xml"/></Types>')
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        everything = {"[Content_Types].xml": types, "_rels/.rels": _relationship("officeDocument", main), **parts}
        for name, xml in everything.items():
            archive.writestr(name, '<?xml version="1.0" encoding="UTF-8"?>' + xml)
    return out.getvalue()


WORKBOOK_ROWS = (("name", "value"), ("revenue", 12))


def workbook() -> bytes:
    """The smallest .xlsx a spreadsheet reader opens: one sheet `Data` holding WORKBOOK_ROWS (built without a library)."""

    def cell(reference: str, value) -> str:
        if isinstance(value, str):
            return f'<c r="{reference}" t="inlineStr"><is><t>{value}</t></is></c>'
        return f'<c r="{reference}"><v>{value}</v></c>'

    rows = "".join(
        f'<row r="{r}">' + "".join(cell(f"{chr(65 + c)}{r}", value) for c, value in enumerate(row)) + "</row>"
        for r, row in enumerate(WORKBOOK_ROWS, start=1)
    )
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    return _package("xl/workbook.xml", "spreadsheetml.sheet.main", "xl/worksheets/sheet1.xml", "spreadsheetml.worksheet", {
        "xl/workbook.xml": f'<workbook xmlns="{main}" xmlns:r="{DOCUMENT}"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/>'
                           '</sheets></workbook>',
        "xl/_rels/workbook.xml.rels": _relationship("worksheet", "worksheets/sheet1.xml"),
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{main}"><sheetData>{rows}</sheetData></worksheet>',
    })


def workbook_text() -> str:
    """What Get returns for workbook() (C3, ClosedXmlContentTransformer): a section per sheet, a `Row | A | B` table."""
    lines = ["## Sheet: Data", "", "| Row | A | B |", "|---:|---:|---:|"]
    lines += [f"| {r} | " + " | ".join(str(value) for value in row) + " |" for r, row in enumerate(WORKBOOK_ROWS, start=1)]
    return "\n".join(lines) + "\n\n"


PDF_PAGES = tuple(
    tuple(f"Page {page} line {line:02d}: {' '.join(WORDS[(page + line + k) % len(WORDS)] for k in range(7))}." for line in range(1, 31))
    for page in (1, 2)
)


def pdf(pages: tuple[tuple[str, ...], ...] = PDF_PAGES) -> bytes:
    """A PDF of `pages` (PDF_PAGES by default) in Helvetica, written by hand: one text line per row."""
    objects: list[bytes] = [b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    contents = []
    for lines in pages:
        # T* (next line) only between lines: a page's text then ends with its last word in every reader.
        stream = "\n".join(["BT /F1 11 Tf 14 TL 56 780 Td", " T*\n".join(f"({line}) Tj" for line in lines), "ET"]).encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        contents.append(len(objects))
    pages_object = len(objects) + len(contents) + 1
    kids = []
    for content in contents:
        objects.append(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Contents %d 0 R "
                       b"/Resources << /Font << /F1 1 0 R >> >> >>" % (pages_object, content))
        kids.append(len(objects))
    objects.append(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % kid for kid in kids), len(kids)))
    objects.append(b"<< /Type /Catalog /Pages %d 0 R >>" % pages_object)
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, len(objects), xref)
    return bytes(out)


def pdf_index_text() -> str:
    """What indexing reads from pdf() (D5): each page's words joined by single spaces, pages joined by newlines."""
    return "\n".join(" ".join(" ".join(lines).split()) for lines in PDF_PAGES)


def pdf_chunk_pages() -> list[int]:
    """The page each chunk of pdf() starts on (K1): the page of the first word the chunk's window overlaps."""
    spans, start = [], 0
    for page, text in enumerate(pdf_index_text().split("\n"), start=1):
        for word in text.split(" "):
            spans.append((start + len(word), page))
            start += len(word) + 1
    starts = [CHUNK_STRIDE * index for index in range(len(expected_windows(pdf_index_text())))]
    return [next(page for end, page in spans if end > offset) for offset in starts]


DOCX_HEADING = "Conformance memo"
DOCX_PARAGRAPH = "Revenue rose in the quarter."


def docx() -> bytes:
    """The smallest .docx a Word reader opens: a Heading 1 paragraph and a body paragraph, with the style part."""
    word = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    body = (f'<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>{DOCX_HEADING}</w:t></w:r></w:p>'
            f'<w:p><w:r><w:t>{DOCX_PARAGRAPH}</w:t></w:r></w:p>')
    return _package("word/document.xml", "wordprocessingml.document.main", "word/styles.xml", "wordprocessingml.styles", {
        "word/_rels/document.xml.rels": _relationship("styles", "styles.xml"),
        "word/styles.xml":
            f'<w:styles xmlns:w="{word}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal">'
            '<w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1">'
            '<w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr>'
            '</w:style></w:styles>',
        "word/document.xml": f'<w:document xmlns:w="{word}"><w:body>{body}</w:body></w:document>',
    })
