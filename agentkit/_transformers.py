"""From stored bytes to text, twice: what Get returns (C3-C5) and what indexing reads (D5).

Get: the first transformer whose extension set holds the lower-cased extension makes the text
(``.docx`` → Markdown, ``.pdf`` → page texts joined by ``\\n``, ``.xlsx``/``.xls`` → one table per
sheet); an image without a transformer answers a fixed placeholder; every other file is read as
UTF-8, so a binary comes back garbled (C4). Nothing is refused at upload: a file that cannot be read
fails when Get reads it (``Error accessing file …``).

Indexing has its own extractor (D5): ``.pdf`` as words joined by spaces (pages by ``\\n``), ``.docx``,
and the text formats of :data:`INDEXED_TEXT_EXTENSIONS`; any other extension (``.xlsx`` too) gives no
text, and a file without text gets no chunks and no Document node.
"""

from __future__ import annotations

import io
import logging
import math
import posixpath
import zipfile
from dataclasses import dataclass, field
from typing import Callable
from xml.etree import ElementTree

from ._errors import UnreadableDocument

IMAGE_MEDIA_TYPES = {
    ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
    ".webp": "image/webp", ".bmp": "image/bmp", ".tiff": "image/tiff", ".tif": "image/tiff",
}
INDEXED_TEXT_EXTENSIONS = (".md", ".markdown", ".txt", ".csv", ".json", ".html", ".htm", ".xml")


@dataclass(frozen=True)
class Transformer:
    """A content transformer: the extensions it claims and the reader that makes Get's text."""

    name: str
    extensions: tuple[str, ...]  # with dot, lower case
    read: Callable[[str, bytes], str]  # (file name, bytes) -> text
    returns: str  # one line for the docs: what Get on such a file returns


def extension_of(file_path: str) -> str:
    """The lower-case extension of a file path, with its dot ('' when there is none)."""
    return posixpath.splitext(file_path)[1].lower()


def _quiet_pypdf():
    """pypdf warns on every damaged file; the error raised says it once."""
    logger = logging.getLogger("pypdf")
    previous = logger.level
    logger.setLevel(logging.ERROR)
    return logger, previous


def _pdf_reader(name: str, data: bytes):
    from pypdf import PdfReader

    logger, previous = _quiet_pypdf()
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise UnreadableDocument(f"PDF '{name}' is encrypted")
        reader.pages[0] if len(reader.pages) else None  # parse the page tree now, inside the guard
        return reader
    except UnreadableDocument:
        raise
    except Exception as error:  # pypdf raises many types on damaged input; all mean "cannot read"
        raise UnreadableDocument(f"PDF '{name}' cannot be read: {error}") from None
    finally:
        logger.setLevel(previous)


def _read_pdf(name: str, data: bytes) -> str:
    """The page texts joined by newlines (agentkit reads them with pypdf where the framework uses PdfPig)."""
    reader = _pdf_reader(name, data)
    logger, previous = _quiet_pypdf()
    try:
        return "\n".join(page.extract_text() or "" for page in reader.pages)
    except Exception as error:
        raise UnreadableDocument(f"PDF '{name}' cannot be read: {error}") from None
    finally:
        logger.setLevel(previous)


def _read_workbook(name: str, data: bytes) -> str:
    """One ``## Sheet: {name}`` section per sheet: a table ``Row | A | B …`` with ``---:`` separators over
    the used rows, or ``(No data)``; as ClosedXML, agentkit's openpyxl reads ``.xlsx`` only, so ``.xls`` fails."""
    from openpyxl import load_workbook
    from openpyxl.utils import get_column_letter

    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:  # zip, xml and key errors on damaged or non-xlsx files
        raise UnreadableDocument(f"Workbook '{name}' cannot be read: {error}") from None
    out: list[str] = []
    for sheet in workbook.worksheets:
        out += [f"## Sheet: {sheet.title}", ""]
        used = [(number, row) for number, row in enumerate(sheet.iter_rows(values_only=True), start=1)
                if any(_cell(value) for value in row)]
        if not used:
            out += ["(No data)", ""]
            continue
        width = max(max((i + 1 for i, value in enumerate(row) if _cell(value)), default=0) for _, row in used)
        header = ["Row"] + [get_column_letter(i + 1) for i in range(width)]
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---:|" * len(header))
        for number in range(used[0][0], used[-1][0] + 1):
            row = dict(used).get(number, ())
            cells = [_cell(row[i]) if i < len(row) else "" for i in range(width)]
            out.append("| " + " | ".join([str(number), *cells]) + " |")
        out.append("")
    workbook.close()
    return "\n".join(out) + "\n"


def _cell(value: object) -> str:
    if value is None:
        return ""
    return str(value).replace("\n", " ").replace("\r", " ").replace("|", "\\|").strip()


_WORD_NS = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _read_docx(name: str, data: bytes) -> str:
    """Markdown: paragraphs, Heading styles as ``#`` headings (agentkit's reading; the framework uses DocSharp)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            root = ElementTree.fromstring(archive.read("word/document.xml"))
    except Exception as error:  # zip or XML damage, or no document part
        raise UnreadableDocument(f"Document '{name}' cannot be read: {error}") from None
    lines = []
    for paragraph in root.iter(f"{_WORD_NS}p"):
        text = "".join(node.text or "" for node in paragraph.iter(f"{_WORD_NS}t"))
        style = paragraph.find(f"{_WORD_NS}pPr/{_WORD_NS}pStyle")
        level = (style.get(f"{_WORD_NS}val") or "") if style is not None else ""
        if level.startswith("Heading") and level[7:].isdigit() and text:
            text = "#" * int(level[7:]) + " " + text
        lines.append(text)
    return "\n\n".join(line for line in lines if line)


def decode_utf8(data: bytes) -> str:
    """UTF-8 as .NET's StreamReader reads it: a BOM is honoured, invalid bytes become U+FFFD."""
    return data.decode("utf-8-sig", errors="replace")


TRANSFORMERS: tuple[Transformer, ...] = (
    Transformer("docx", (".docx",), _read_docx,
                "Markdown, converted by DocSharp (`agentkit` models paragraphs and headings as `#` only)"),
    Transformer("pdf", (".pdf",), _read_pdf, "the page texts joined by newlines"),
    Transformer(
        "xlsx", (".xlsx", ".xls"), _read_workbook,
        "per sheet `## Sheet: {name}` and a table `Row | A | B …` (separators `---:`), or `(No data)`; "
        "`.xls` is not an .xlsx file and fails to open",
    ),
)


def find_transformer(file_path: str) -> Transformer | None:
    """The first transformer claiming the file's extension, or ``None`` (the file is read as UTF-8 text)."""
    extension = extension_of(file_path)
    return next((t for t in TRANSFORMERS if extension in t.extensions), None)


def image_placeholder(file_path: str, size: int) -> str:
    """What Get answers for an image outside a transformer: never its bytes (C5)."""
    media_type = IMAGE_MEDIA_TYPES[extension_of(file_path)]
    return (
        f"[image: {posixpath.basename(file_path)} ({media_type}, {size} bytes)] "
        "Binary image content is not returned as text. When content indexing is enabled, an "
        "AI-generated description is available on the file's Document node."
    )


def get_text(file_path: str, data: bytes) -> str:
    """The text Get returns for a stored file (C3-C5); raises UnreadableDocument when a transformer fails."""
    transformer = find_transformer(file_path)
    if transformer is not None:
        return transformer.read(file_path, data)
    if extension_of(file_path) in IMAGE_MEDIA_TYPES:
        return image_placeholder(file_path, len(data))
    return decode_utf8(data)


# -- indexing's extractor (D5) ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Box:
    """A region of a page as fractions of its size, origin top-left (the framework's ChunkPosition)."""

    x: float
    y: float
    w: float
    h: float

    def union(self, other: "Box") -> "Box":
        left, top = min(self.x, other.x), min(self.y, other.y)
        right, bottom = max(self.x + self.w, other.x + other.w), max(self.y + self.h, other.y + other.h)
        return Box(left, top, right - left, bottom - top)

    def to_json(self) -> dict[str, float]:
        return {"x": round(self.x, 4), "y": round(self.y, 4), "w": round(self.w, 4), "h": round(self.h, 4)}


@dataclass(frozen=True)
class Span:
    """One PDF word in the indexing text: where it starts, its length, its 1-based page and its box."""

    start: int
    length: int
    page: int
    box: Box

    @property
    def end(self) -> int:
        return self.start + self.length


@dataclass(frozen=True)
class IndexText:
    """The text indexing chunks, with word positions for a PDF (empty otherwise)."""

    text: str
    spans: tuple[Span, ...] = field(default=())


def _pdf_words(name: str, data: bytes) -> IndexText:
    """Words joined by spaces within a page, pages joined by ``\\n``, one span per word.

    The framework lays out words with PdfPig; agentkit takes pypdf's text runs and estimates each
    word's box from the run's position and font size (half an em per character), which is enough to
    say on which page and roughly where a chunk starts.
    """
    reader = _pdf_reader(name, data)
    logger, previous = _quiet_pypdf()
    text, spans = [], []
    length = 0
    try:
        for number, page in enumerate(reader.pages, start=1):
            width, height = float(page.mediabox.width), float(page.mediabox.height)
            if length > 0:
                text.append("\n")
                length += 1
            runs: list[tuple[str, float, float, float]] = []

            def visit(run, cm, tm, font, size, runs=runs):
                scale = math.hypot(tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3]) or 1.0
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                runs.append((run, x, y, (size or 10) * scale))

            page.extract_text(visitor_text=visit)
            first = True
            for run, x, y, size in runs:
                offset = 0
                for word in run.split(" "):
                    if word.strip():
                        for piece in word.split():
                            if not first:
                                text.append(" ")
                                length += 1
                            first = False
                            box = Box(
                                _clamp01((x + offset * size * 0.5) / width) if width else 0.0,
                                _clamp01(1 - (y + size) / height) if height else 0.0,
                                _clamp01(len(piece) * size * 0.5 / width) if width else 0.0,
                                _clamp01(size / height) if height else 0.0,
                            )
                            spans.append(Span(length, len(piece), number, box))
                            text.append(piece)
                            length += len(piece)
                    offset += len(word) + 1
    except UnreadableDocument:
        raise
    except Exception as error:
        raise UnreadableDocument(f"PDF '{name}' cannot be read: {error}") from None
    finally:
        logger.setLevel(previous)
    return IndexText("".join(text), tuple(spans))


def _clamp01(value: float) -> float:
    return min(1.0, max(0.0, value))


def index_text(file_path: str, data: bytes) -> IndexText:
    """The text indexing extracts (D5); empty for every extension it has no extractor for (``.xlsx`` too)."""
    extension = extension_of(file_path)
    if extension == ".pdf":
        return _pdf_words(file_path, data)
    if extension == ".docx":
        return IndexText(_read_docx(file_path, data))
    if extension in INDEXED_TEXT_EXTENSIONS:
        return IndexText(decode_utf8(data))
    return IndexText("")
