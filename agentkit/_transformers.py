"""From stored bytes to text, twice: what Get returns (C3-C5) and what indexing reads (D5).

Get: the first transformer whose extension set holds the lower-cased extension makes the text
(``.docx`` → Markdown, ``.pdf`` → PdfPig's ``page.Text`` of each page joined by ``\\n``: the letters in
content-stream order with nothing inserted (C9), ``.xlsx``/``.xls`` → one table per sheet); an image without a transformer answers a fixed placeholder; every other file is read as
UTF-8, so a binary comes back garbled (C4). Nothing is refused at upload: a file that cannot be read
fails when Get reads it (``Error accessing file …``).

Indexing has its own extractor (D5): ``.pdf`` as PdfPig's words joined by spaces (pages by ``\\n``, D8), ``.docx``,
and the text formats of :data:`INDEXED_TEXT_EXTENSIONS`; any other extension (``.xlsx`` too) gives no
text, and a file without text gets no chunks and no Document node.
"""

from __future__ import annotations

import contextlib
import io
import logging
import posixpath
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence
from xml.etree import ElementTree

from ._errors import UnreadableDocument
from ._pdf_letters import Letter, document_letters, document_texts, page_text, words

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


class _Repairs(logging.Handler):
    """Collects what pypdf logs while it reads: each message is damage it read past (a repaired xref, a
    broken object, a corrupt stream). Nothing is printed; the error agentkit raises says what matters."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextlib.contextmanager
def _pypdf_repairs():
    logger = logging.getLogger("pypdf")
    repairs, previous = _Repairs(), (logger.level, logger.propagate)
    logger.addHandler(repairs)
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    try:
        yield repairs.messages
    finally:
        logger.removeHandler(repairs)
        logger.setLevel(previous[0])
        logger.propagate = previous[1]


def _pdf_reader(name: str, data: bytes):
    from pypdf import PdfReader

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise UnreadableDocument(f"PDF '{name}' is encrypted")
        _refuse_damaged_pages(name, reader)  # parses the page tree now, inside the guard
        return reader
    except UnreadableDocument:
        raise
    except Exception as error:  # pypdf raises many types on damaged input; all mean "cannot read"
        raise UnreadableDocument(f"PDF '{name}' cannot be read: {error}") from None


def _refuse_repaired_empty_pages(name: str, page_texts: Sequence[str], repairs: list[str]) -> None:
    """A page that comes out empty, or as undecodable glyphs, after pypdf had to repair the file is a page
    whose text was lost to the damage (an intact blank page needs no repair): refuse the file."""
    for number, text in enumerate(page_texts, start=1):
        visible = [ch for ch in text if not ch.isspace()]
        undecodable = sum(ch == "\ufffd" for ch in visible)
        if (repairs and not visible) or (visible and undecodable * 2 > len(visible)):
            reason = repairs[0] if repairs else "its characters cannot be decoded"
            raise UnreadableDocument(f"PDF '{name}' cannot be read: page {number} lost its text to damage ({reason})")


def _refuse_damaged_pages(name: str, reader) -> None:
    """Refuse a PDF whose damage pypdf would read past, returning fewer or emptier pages than it holds.

    pypdf is lenient: a page tree whose count disagrees with the pages found, a content stream whose
    ``stream`` keyword is broken (it parses as a dictionary), and a Flate stream whose data is corrupt
    (pypdf recovers a prefix of it, or nothing) all read as missing or empty pages. Each is refused here.
    """
    from pypdf.generic import ArrayObject, StreamObject

    pages = reader.pages
    if len(pages) == 0:
        raise UnreadableDocument(f"PDF '{name}' cannot be read: it has no pages")
    declared = reader.trailer["/Root"]["/Pages"].get("/Count")
    if declared != len(pages):
        raise UnreadableDocument(f"PDF '{name}' cannot be read: its page tree declares {declared} page(s) "
                                 f"but {len(pages)} can be read")
    for number, page in enumerate(pages, start=1):
        if "/Contents" not in page:
            continue  # a page without content is a blank page, not a damaged one
        contents = page["/Contents"].get_object()
        parts = [part.get_object() for part in contents] if isinstance(contents, ArrayObject) else [contents]
        if not all(isinstance(part, StreamObject) and _stream_decodes(part) for part in parts):
            raise UnreadableDocument(f"PDF '{name}' cannot be read: the content stream of page {number} is damaged")


def _stream_decodes(stream) -> bool:
    """True when every filter of the stream decodes its data exactly (zlib checks its checksum)."""
    from pypdf.filters import ASCII85Decode, ASCIIHexDecode

    filters = stream.get("/Filter", ())
    filters = [filters] if isinstance(filters, str) else list(filters)
    data = _encoded_data(stream) if filters else b""
    try:
        for name in filters:
            if name == "/FlateDecode":
                data = zlib.decompress(data)  # checks the stream's checksum, where pypdf recovers what it can
            elif name == "/ASCII85Decode":
                data = ASCII85Decode.decode(data)
            elif name == "/ASCIIHexDecode":
                data = ASCIIHexDecode.decode(data)
            else:
                return True  # a filter agentkit does not check: left to pypdf
    except (zlib.error, ValueError):
        return False
    return True


def _encoded_data(stream) -> bytes:
    """The stream's bytes as the file stores them, before its filters: what pypdf writes between ``stream`` and
    ``endstream`` (the dictionary before them escapes every newline in a string or name, so the first
    ``\\nstream\\n`` ends it)."""
    written = io.BytesIO()
    stream.write_to_stream(written)
    written = written.getvalue()
    return written[written.index(b"\nstream\n") + len(b"\nstream\n"):-len(b"\nendstream")]


def _read_pdf(name: str, data: bytes) -> str:
    """PdfPig's ``page.Text`` for each page, joined by ``\\n``: each page's letters in the order its content stream
    draws them, with nothing inserted (no line breaks, no space between separately drawn strings). As the
    framework's transformer, a ``\\n`` goes before a page only once some text stands before it, so leading pages
    without text add none (PdfPigContentTransformer.cs:39-40)."""
    joined = ""
    for _, _, text in _read_pdf_pages(name, data, document_texts, str):
        joined += ("\n" if joined else "") + text
    return joined


def _read_workbook(name: str, data: bytes) -> str:
    """One ``## Sheet: {name}`` section per sheet: a table ``Row | A | B …`` with ``---:`` separators over
    the used rows, or ``(No data)``; as ClosedXML, agentkit's openpyxl reads ``.xlsx`` only, so ``.xls`` fails.

    A damaged workbook is refused as a whole, never read in part: a sheet whose part is missing, sheet XML
    that does not parse, a shared-string index out of range, Strict Open XML (which ClosedXML cannot open
    either). Rows are read from the sheet data itself, not from ``<dimension>``, which may understate them.
    """
    from openpyxl import load_workbook

    try:
        _refuse_unlisted_parts(data)
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            out = [line for sheet in workbook.worksheets for line in _sheet_lines(sheet)]
        finally:
            workbook.close()
    except Exception as error:  # zip, XML, key and index errors on damaged or non-xlsx files, and the refusals above
        raise UnreadableDocument(f"Workbook '{name}' cannot be read: {error}") from None
    return "\n".join(out) + "\n"


def _sheet_lines(sheet) -> list[str]:
    """One sheet's section: its heading, then its table over the used rows or ``(No data)``."""
    from openpyxl.utils import get_column_letter

    sheet.reset_dimensions()  # read every row the sheet holds, whatever its <dimension> claims
    lines = [f"## Sheet: {sheet.title}", ""]
    used = {number: row for number, row in enumerate(sheet.iter_rows(values_only=True), start=1)
            if any(_cell(value) for value in row)}
    if not used:
        return lines + ["(No data)", ""]
    width = max(max((i + 1 for i, value in enumerate(row) if _cell(value)), default=0) for row in used.values())
    header = ["Row"] + [get_column_letter(i + 1) for i in range(width)]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---:|" * len(header))
    for number in range(min(used), max(used) + 1):
        row = used.get(number, ())
        cells = [_cell(row[i]) if i < len(row) else "" for i in range(width)]
        lines.append("| " + " | ".join([str(number), *cells]) + " |")
    return lines + [""]


_STRICT_NAMESPACE = b"http://purl.oclc.org/ooxml/"
_RELATIONSHIP_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_SHEET_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_OFFICE_REL_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def _refuse_unlisted_parts(data: bytes) -> None:
    """Refuse a Strict Open XML workbook, and one that lists a sheet whose part is not in the package
    (openpyxl skips such a sheet without a word)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = set(archive.namelist())
        workbook = archive.read("xl/workbook.xml")
        if _STRICT_NAMESPACE in workbook[:2000]:
            raise UnreadableDocument("it is Strict Open XML, which is not read; save it as an Excel Workbook (.xlsx)")
        relations = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
        targets = {rel.get("Id"): rel.get("Target", "") for rel in relations.iter(f"{_RELATIONSHIP_NS}Relationship")}
        for sheet in ElementTree.fromstring(workbook).iter(f"{_SHEET_NS}sheet"):
            target = targets.get(sheet.get(f"{_OFFICE_REL_NS}id"), "")
            part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(f"xl/{target}")
            if part not in names:
                raise UnreadableDocument(f"sheet '{sheet.get('name')}' is listed but its part '{part}' is missing")


def _cell(value: object) -> str:
    if value is None:
        return ""
    return str(value).replace("\n", " ").replace("\r", " ").replace("|", "\\|").strip()


_WORD_NS = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


_HEADING_STYLE = re.compile(r"Heading([1-9])")  # Word's built-in heading styles; any other style is a paragraph


def _read_docx(name: str, data: bytes) -> str:
    """Markdown: paragraphs, Heading1-9 styles as ``#`` headings (agentkit's reading; the framework uses DocSharp).

    A Strict Open XML document is refused (its elements are in another namespace, so nothing would be read).
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            document = archive.read("word/document.xml")
        root = ElementTree.fromstring(document)
    except Exception as error:  # zip or XML damage, or no document part
        raise UnreadableDocument(f"Document '{name}' cannot be read: {error}") from None
    if _STRICT_NAMESPACE in document[:2000]:
        raise UnreadableDocument(f"Document '{name}' cannot be read: it is Strict Open XML, which is not read; "
                                 "save it as a Word Document (.docx)")
    lines = []
    for paragraph in root.iter(f"{_WORD_NS}p"):
        text = "".join(node.text or "" for node in paragraph.iter(f"{_WORD_NS}t"))
        style = paragraph.find(f"{_WORD_NS}pPr/{_WORD_NS}pStyle")
        heading = _HEADING_STYLE.fullmatch((style.get(f"{_WORD_NS}val") or "") if style is not None else "")
        if heading and text:
            text = "#" * int(heading.group(1)) + " " + text
        lines.append(text)
    return "\n\n".join(line for line in lines if line)


def decode_utf8(data: bytes) -> str:
    """UTF-8 with a leading UTF-8 byte-order mark dropped; invalid bytes become U+FFFD."""
    return data.decode("utf-8-sig", errors="replace")


# StreamReader(Stream)'s byte-order-mark detection, in the order .NET checks the first bytes (UP6).
_BYTE_ORDER_MARKS = (
    (b"\xfe\xff", "utf-16-be"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
)


def read_as_text(data: bytes) -> str:
    """A file as the framework's text fallback reads it (``new StreamReader(stream).ReadToEnd()``, C4, UP6).

    UTF-8 by default; a leading byte-order mark is dropped, and a UTF-16 or UTF-32 one selects that
    encoding. Bytes that do not decode become U+FFFD.
    """
    for mark, encoding in _BYTE_ORDER_MARKS:
        if data.startswith(mark):
            return data[len(mark):].decode(encoding, errors="replace")
    return data.decode("utf-8", errors="replace")


TRANSFORMERS: tuple[Transformer, ...] = (
    Transformer("docx", (".docx",), _read_docx,
                "Markdown, converted by DocSharp (`agentkit` models paragraphs and headings as `#` only)"),
    Transformer("pdf", (".pdf",), _read_pdf,
                "each page's letters in drawing order, nothing inserted (PdfPig's `page.Text`), pages joined by newlines"),
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
    return read_as_text(data)


# -- indexing's extractor (D5) ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Box:
    """A region of a page as fractions of its size, origin top-left (the framework's ChunkPosition)."""

    x: float
    y: float
    w: float
    h: float

    @staticmethod
    def covering(boxes: Iterable["Box"]) -> "Box":
        """The union of the first box with each next one in turn, without a Box for every step between.

        Each step is ``min``/``max`` of the edges written out as those two choose (the first unless the other is
        smaller, or larger): every chunk of every upload is the union of its words' boxes, and the calls were most
        of its cost."""
        found = iter(boxes)
        first = next(found)
        x, y, w, h = first.x, first.y, first.w, first.h
        for other in found:
            other_x, other_y = other.x, other.y
            left = other_x if other_x < x else x
            top = other_y if other_y < y else y
            reach, other_reach = x + w, other_x + other.w
            right = other_reach if other_reach > reach else reach
            reach, other_reach = y + h, other_y + other.h
            bottom = other_reach if other_reach > reach else reach
            x, y, w, h = left, top, right - left, bottom - top
        return Box(x, y, w, h)

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
    """PdfPig's words (its default word extractor) joined by spaces within a page, pages joined by ``\\n``, one
    span per word with the word's box on its page."""
    return _index_words(_pdf_pages(name, data))


def _pdf_pages(name: str, data: bytes) -> list[tuple[float, float, list[Letter]]]:
    """Each page's size and letters (PdfPig's page.Letters), which Get and indexing both read; a file that
    cannot be read, or that lost a page's text to damage pypdf read past, is refused."""
    return _read_pdf_pages(name, data, document_letters, page_text)


def _read_pdf_pages(name: str, data: bytes, read: Callable, text_of: Callable) -> list[tuple[float, float, Any]]:
    """Each page's size and what ``read`` makes of its content stream (letters, or only the text, which Get
    needs: its ``text_of``); the refusals are the same either way."""
    with _pypdf_repairs() as repairs:
        pages = _pdf_read_pages(name, _pdf_reader(name, data), read)
    _refuse_repaired_empty_pages(name, [text_of(content) for _, _, content in pages], repairs)
    return pages


def _pdf_read_pages(name: str, reader, read: Callable) -> list[tuple[float, float, Any]]:
    """Each page's size (its media box) and what ``read`` makes of it; any failure reading them refuses the file."""
    try:
        return [(float(page.mediabox.width), float(page.mediabox.height), content)
                for page, content in zip(reader.pages, read(reader, name))]
    except UnreadableDocument:
        raise
    except Exception as error:  # pypdf raises many types on damaged content; all mean "cannot read"
        raise UnreadableDocument(f"PDF '{name}' cannot be read: {error}") from None


def _index_words(pages: list[tuple[float, float, list[Letter]]]) -> IndexText:
    """Indexing's text (TextExtractor.ExtractPdf): each page's words joined by spaces, pages by ``\\n``."""
    text: list[str] = []
    spans: list[Span] = []
    length = 0
    for number, (width, height, letters) in enumerate(pages, start=1):
        if length > 0:
            text.append("\n")
            length += 1
        first = True
        for word in words(letters):
            value = "".join([letter.value for letter in word])
            if not value:
                continue
            if not first:
                text.append(" ")
                length += 1
            first = False
            if width > 0 and height > 0:
                spans.append(Span(length, len(value), number, _word_box(word, width, height)))
            text.append(value)
            length += len(value)
    return IndexText("".join(text), tuple(spans))


def _word_box(word: list[Letter], width: float, height: float) -> Box:
    """The word's box as fractions of the page, origin top-left (NormalizeBox): from its first letter's start
    to its last letter's end, from the baseline to the letters' height (agentkit's estimate of the glyph box)."""
    first = word[0]
    left, right, bottom, top = first.x, first.x + first.width, first.y, first.y + first.height
    for _, x, y, advance, height_above, _, _, _ in word:  # min and max by hand: this runs for every letter indexed
        if x < left:
            left = x
        if y < bottom:
            bottom = y
        if x + advance > right:
            right = x + advance
        if y + height_above > top:
            top = y + height_above
    return Box(_clamp01(left / width), _clamp01(1 - top / height),
               _clamp01((right - left) / width), _clamp01((top - bottom) / height))


def _clamp01(value: float) -> float:
    """``min(1.0, max(0.0, value))``, as those two choose (NaN gives 0.0), without their calls: four per word indexed."""
    value = value if value > 0.0 else 0.0
    return value if value < 1.0 else 1.0


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
