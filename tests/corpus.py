"""A damaged-file corpus, generated when a test asks (nothing is committed): small valid files whose text is known,
and seeded damaged copies of their bytes (the oracle: tests/test_damaged_files.py)."""

from __future__ import annotations

import functools
import io
import random
import re
import struct
import zipfile
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Iterator
from xml.sax.saxutils import escape, quoteattr

SEED = 20261130

# What the small specimens say; every phrase must survive a correct reading.
PDF_PAGES = ("Revenue grew to 4812 million in FY2024.", "Operating margin was 11 percent.")
SHEET_ROWS = (("Item", "FY2024", "FY2023"), ("Revenue", 4812.3, 4410.9), ("EBIT", 530.2, 498.7))
DOCX_PARAGRAPHS = (("Heading1", "Annual review"), (None, "Revenue grew to 4812 million."), ("Heading2", "Outlook"),
                   (None, "We expect margins to hold."))


@dataclass(frozen=True)
class Specimen:
    """A file, intact or damaged (``label`` says how; ``must_refuse``: no correct reading survives the damage), and the
    phrases a correct reading returns."""

    name: str
    data: bytes
    known: tuple[str, ...]
    label: str = "intact"
    must_refuse: bool = False

    @property
    def case(self) -> str:
        return f"{self.name} [{self.label}]"

    def variant(self, label: str, data: bytes, must_refuse: bool = False) -> "Specimen":
        return replace(self, label=label, data=data, must_refuse=must_refuse)


# -- producers ------------------------------------------------------------------------------------

@functools.cache
def fpdf2_pdf() -> Specimen:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_creation_date(datetime(2025, 1, 1, tzinfo=timezone.utc))  # deterministic bytes
    pdf.set_font("Helvetica", size=11)
    for text in PDF_PAGES:
        pdf.add_page()
        pdf.multi_cell(0, 6, text)
    return Specimen("fpdf2.pdf", bytes(pdf.output()), PDF_PAGES)


@functools.cache
def reportlab_pdf() -> Specimen:
    # reportlab writes its own object layout, fonts and xref
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    sheet = canvas.Canvas(out, invariant=1)  # invariant: no timestamps or random ids
    for text in PDF_PAGES:
        sheet.setFont("Helvetica", 11)
        sheet.drawString(72, 720, text)
        sheet.showPage()
    sheet.save()
    return Specimen("reportlab.pdf", out.getvalue(), PDF_PAGES)


@functools.cache
def report_pdf() -> Specimen:
    # agentkit's own generated annual report: large, many pages, tables
    from agentkit.guide import REPORT, report_pdf_bytes

    known = (REPORT.company, *(value.display for value in REPORT.values[:6]))
    return Specimen("report.pdf", report_pdf_bytes(), known)


@functools.cache
def openpyxl_xlsx() -> Specimen:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Figures"
    for row in SHEET_ROWS:
        sheet.append(list(row))
    notes = workbook.create_sheet("Notes")
    notes.append(["Restated comparatives"])
    out = io.BytesIO()
    workbook.save(out)
    return Specimen("figures.xlsx", _normalised_zip(out.getvalue()), ("Figures", "Revenue", "4812.3", "530.2", "Notes", "Restated comparatives"))


_WORD_MAIN = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
    '</Types>'
)
_PACKAGE_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="word/document.xml"/></Relationships>'
)


def docx_bytes(paragraphs=DOCX_PARAGRAPHS) -> bytes:
    """A minimal WordprocessingML package (what Word needs to open it)."""
    body = []
    for style, text in paragraphs:
        props = f'<w:pPr><w:pStyle w:val={quoteattr(style)}/></w:pPr>' if style else ""
        body.append(f"<w:p>{props}<w:r><w:t>{escape(text)}</w:t></w:r></w:p>")
    document = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<w:document xmlns:w="{_WORD_MAIN}"><w:body>{"".join(body)}</w:body></w:document>'
    )
    return _zip({"[Content_Types].xml": _CONTENT_TYPES, "_rels/.rels": _PACKAGE_RELS, "word/document.xml": document})


@functools.cache
def minimal_docx() -> Specimen:
    return Specimen("review.docx", docx_bytes(), tuple(text for _, text in DOCX_PARAGRAPHS))


def _zip(parts: dict[str, str | bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(2025, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def zip_parts(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _normalised_zip(data: bytes) -> bytes:
    # openpyxl stamps the current time into the zip and docProps; rewrite with fixed dates for stable bytes.
    return _zip({name: re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", b"2025-01-01T00:00:00Z", body)
                 for name, body in zip_parts(data).items()})


# -- generic mutators -------------------------------------------------------------------------------

def truncations(specimen: Specimen, count: int, *, ends: bool = True) -> Iterator[Specimen]:
    """Cut the file at ``count`` offsets spread over the whole file, and (``ends``) just after its start and before its end."""
    size = len(specimen.data)
    edges = {1, 2, size - 1, size - 2} if ends else set()
    offsets = sorted({*edges, *(size * k // count for k in range(1, count))} - {0, size})
    for offset in offsets:
        yield specimen.variant(f"truncated at {offset} of {size}", specimen.data[:offset])


def flipped(data: bytes, position: int) -> bytes:
    return data[:position] + bytes([data[position] ^ 0xFF]) + data[position + 1:]


def byte_flips(specimen: Specimen, count: int) -> Iterator[Specimen]:
    rng = random.Random(f"{SEED}:{specimen.name}")
    for position in sorted(rng.sample(range(len(specimen.data)), min(count, len(specimen.data)))):
        yield specimen.variant(f"byte {position} flipped", flipped(specimen.data, position))


# -- zip / OOXML mutators ---------------------------------------------------------------------------

def entries_damaged(specimen: Specimen) -> Iterator[Specimen]:
    """Each zip entry in turn: left out, renamed (``.bak`` appended), and an XML part cut in half (an unclosed
    element) and given a stray '<'."""
    parts = zip_parts(specimen.data)
    for name, body in parts.items():
        yield specimen.variant(f"entry {name} removed", _zip({k: v for k, v in parts.items() if k != name}))
        renamed = {(k + ".bak" if k == name else k): v for k, v in parts.items()}
        yield specimen.variant(f"entry {name} renamed", _zip(renamed))
        if name.endswith((".xml", ".rels")):
            yield specimen.variant(f"{name} cut in half", _zip({**parts, name: body[: len(body) // 2]}))
            yield specimen.variant(f"{name} with a stray '<'", _zip({**parts, name: body.replace(b">", b"><<", 1)}))


def sizes_lied_about(specimen: Specimen) -> Iterator[Specimen]:
    """Each zip entry's uncompressed size in the central directory set too small, then too large."""
    data = specimen.data
    for match in re.finditer(rb"PK\x01\x02", data):
        header = match.start()
        name_length = struct.unpack_from("<H", data, header + 28)[0]
        name = data[header + 46: header + 46 + name_length].decode()
        size = struct.unpack_from("<I", data, header + 24)[0]
        for label, lie in (("understated", max(size // 2, 1)), ("overstated", size * 4 + 100)):
            changed = bytearray(data)
            struct.pack_into("<I", changed, header + 24, lie)
            yield specimen.variant(f"{name} size {label} in the central directory", bytes(changed))


STRICT_NAMESPACES = {
    b"http://schemas.openxmlformats.org/spreadsheetml/2006/main": b"http://purl.oclc.org/ooxml/spreadsheetml/main",
    b"http://schemas.openxmlformats.org/wordprocessingml/2006/main": b"http://purl.oclc.org/ooxml/wordprocessingml/main",
    b"http://schemas.openxmlformats.org/officeDocument/2006/relationships": b"http://purl.oclc.org/ooxml/officeDocument/relationships",
}


def strict_ooxml(specimen: Specimen) -> Specimen:  # every transitional namespace replaced by its Strict one
    parts = zip_parts(specimen.data)
    for transitional, strict in STRICT_NAMESPACES.items():
        parts = {name: body.replace(transitional, strict) for name, body in parts.items()}
    return specimen.variant("Strict OOXML namespaces", _zip(parts))


# -- PDF size and offset lies -------------------------------------------------------------------------

def pdf_stream_lengths_lied_about(specimen: Specimen) -> Iterator[Specimen]:
    """Each stream's ``/Length`` in turn set too short (half) and too long (past ``endstream``, and past the file)."""
    data = specimen.data
    for number, match in enumerate(re.finditer(rb"/Length (\d+)", data), start=1):
        length = int(match.group(1))
        lies = (("understated", length // 2), ("overstated", length + 40), ("past the end of the file", len(data) * 2))
        for label, lie in lies:
            changed = data[: match.start(1)] + str(lie).encode() + data[match.end(1):]
            yield specimen.variant(f"stream {number} /Length {label} ({lie} for {length})", changed)


def pdf_xref_offsets_lied_about(specimen: Specimen) -> Iterator[Specimen]:
    """``startxref`` pointing before, past or far past the table; the table's object offsets all shifted, two swapped,
    one pointing into a stream. Widths are kept, so only the numbers lie."""
    data = specimen.data
    tail = re.search(rb"startxref\s+(\d+)", data[-64:])
    at, start = len(data) - 64 + tail.start(1), int(tail.group(1))
    for label, value in (("before the table", start - 7), ("past the table", start + 9), ("past the end", len(data) * 3)):
        yield specimen.variant(f"startxref {label}", data[:at] + str(value).encode() + data[at + len(tail.group(1)):])

    entries = start + re.match(rb"xref\s+\d+ \d+\s+", data[start:]).end()  # entry 0 is the free head
    offsets = [int(data[p: p + 10]) for p in range(entries, len(data), 20)  # offsets[i]: object i + 1
               if re.fullmatch(rb"\d{10} \d{5} n", data[p: p + 18])]

    def with_offsets(new: list[int]) -> bytes:
        changed = bytearray(data)
        for number, offset in enumerate(new, start=1):
            changed[entries + 20 * number: entries + 20 * number + 10] = b"%010d" % offset
        return bytes(changed)

    def swapped(first: int, second: int) -> bytes:  # the two objects' offsets exchanged
        new = list(offsets)
        new[first - 1], new[second - 1] = offsets[second - 1], offsets[first - 1]
        return with_offsets(new)

    yield specimen.variant("xref offsets all shifted by 5", with_offsets([offset + 5 for offset in offsets]))
    yield specimen.variant("xref offsets of objects 2 and 3 swapped", swapped(2, 3))
    into_stream = [*offsets[:2], data.index(b"stream\n") + len(b"stream\n") + 3, *offsets[3:]]
    yield specimen.variant("xref offset of object 3 inside a stream", with_offsets(into_stream))
    # The two page-content streams swapped: a reader that trusts the table reads page 1's text twice.
    first, second = [int(match.group(1)) for match in re.finditer(rb"(\d+) 0 obj\s*<<[^>]*?/Length", data)][:2]
    yield specimen.variant(f"xref offsets of stream objects {first} and {second} swapped", swapped(first, second))


# -- XLSX-specific damage ---------------------------------------------------------------------------

SHEET = "xl/worksheets/sheet1.xml"


def sheet_damaged(specimen: Specimen) -> list[Specimen]:
    parts = zip_parts(specimen.data)
    sheet = parts[SHEET]
    cases = [  # label, the damaged parts, must_refuse
        # read-only readers that trust it drop every row but one
        ("dimension understates the used range",
         {**parts, SHEET: re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1"', sheet)}, False),
        # A2 points at shared string 999 (there are none)
        ("shared string index out of range",
         {**parts, SHEET: re.sub(rb'<c r="A2"[^>]*>.*?</c>', b'<c r="A2" t="s"><v>999</v></c>', sheet, count=1)}, True),
        # the workbook lists a sheet whose part is not in the package
        ("listed sheet part missing", {k: v for k, v in parts.items() if k != "xl/worksheets/sheet2.xml"}, True),
        ("sheet XML truncated", {**parts, SHEET: sheet[: sheet.index(b"</sheetData>") - 10]}, True),
    ]
    return [specimen.variant(label, _zip(damaged), must_refuse) for label, damaged, must_refuse in cases]


# -- the corpus -----------------------------------------------------------------------------------

SPECIMENS = {"fpdf2.pdf": fpdf2_pdf, "reportlab.pdf": reportlab_pdf, "figures.xlsx": openpyxl_xlsx,
             "review.docx": minimal_docx}


def damaged(name: str) -> list[Specimen]:
    """Every damaged copy of one specimen of SPECIMENS, or of ``report.pdf``: that one is large, so it is only cut at a
    few offsets inside it (a cut near its end leaves a file that reads whole, slowly)."""
    if name == "report.pdf":
        return list(truncations(report_pdf(), 4, ends=False))
    specimen = SPECIMENS[name]()
    cases = [*truncations(specimen, 24), *byte_flips(specimen, 12)]
    if name.endswith(".pdf"):
        return cases + [*pdf_stream_lengths_lied_about(specimen), *pdf_xref_offsets_lied_about(specimen)]
    cases += [*entries_damaged(specimen), *sizes_lied_about(specimen), strict_ooxml(specimen)]
    return cases + sheet_damaged(specimen) if name.endswith(".xlsx") else cases
