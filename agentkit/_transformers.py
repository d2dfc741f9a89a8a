"""Content transformers: how a stored file becomes the text that Get returns.

The registry is an ordered list; the first transformer whose extension
matches wins. A file whose extension no transformer claims cannot be read
(``NoTransformer``). A transformer that cannot read the bytes raises
``UnreadableDocument`` naming the file and the reason.
"""

from __future__ import annotations

import io
import logging
import posixpath
import zipfile
from dataclasses import dataclass
from typing import Callable
from xml.etree import ElementTree

from ._errors import NoTransformer, UnreadableDocument


@dataclass(frozen=True)
class Extracted:
    """Text from a file; ``page_starts`` holds each page's offset in ``text`` (PDF only)."""

    text: str
    page_starts: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Transformer:
    """A content transformer: the extensions it claims, their media types, and the reader."""

    name: str
    media_types: dict[str, str]  # extension (with dot, lower case) -> media type
    read: Callable[[str, bytes, str], Extracted]  # (file name, bytes, media type) -> text
    returns: str  # one line for the docs: what Get on such a file returns


def _read_pdf(name: str, data: bytes, media_type: str) -> Extracted:
    from pypdf import PdfReader

    pypdf_logger = logging.getLogger("pypdf")
    previous = pypdf_logger.level
    pypdf_logger.setLevel(logging.ERROR)  # pypdf warns on every damaged file; the error below says it once
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise UnreadableDocument(f"PDF '{name}' is encrypted; upload a copy without a password")
        pages = [page.extract_text() or "" for page in reader.pages]
    except UnreadableDocument:
        raise
    except Exception as error:  # pypdf raises many types on damaged input; all mean "cannot read"
        raise UnreadableDocument(f"PDF '{name}' cannot be read (corrupt or truncated): {error}") from None
    finally:
        pypdf_logger.setLevel(previous)
    if not any(page.strip() for page in pages):
        raise UnreadableDocument(f"PDF '{name}' has {len(pages)} page(s) but no extractable text (damaged or scanned)")
    starts, offset = [], 0
    for page in pages:
        starts.append(offset)
        offset += len(page) + 1  # the newline that joins pages
    return Extracted("\n".join(pages), tuple(starts))


def _read_xlsx(name: str, data: bytes, media_type: str) -> Extracted:
    from openpyxl import load_workbook
    from openpyxl.utils import get_column_letter

    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises zip, xml and key errors on damaged files
        raise UnreadableDocument(f"Workbook '{name}' cannot be read (corrupt or not .xlsx): {error}") from None
    sections = []
    for sheet in workbook.worksheets:
        rows = [row for row in sheet.iter_rows(values_only=True)]
        width = max((len(row) for row in rows), default=0)
        sections.append(f"## Sheet: {sheet.title}")
        if not rows or width == 0 or all(all(v is None for v in row) for row in rows):
            sections.append("(No data)")
            continue
        header = ["Row"] + [get_column_letter(i + 1) for i in range(width)]
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for number, row in enumerate(rows, start=1):
            cells = [_cell(value) for value in row] + [""] * (width - len(row))
            lines.append("| " + " | ".join([str(number), *cells]) + " |")
        sections.append("\n".join(lines))
    workbook.close()
    return Extracted("\n\n".join(sections))


def _cell(value: object) -> str:
    return "" if value is None else str(value).replace("|", "\\|").replace("\n", " ")


_WORD_NS = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _read_docx(name: str, data: bytes, media_type: str) -> Extracted:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            root = ElementTree.fromstring(archive.read("word/document.xml"))
    except Exception as error:  # zip or XML damage, or no document part
        raise UnreadableDocument(f"Document '{name}' cannot be read (corrupt or not .docx): {error}") from None
    lines = []
    for paragraph in root.iter(f"{_WORD_NS}p"):
        text = "".join(node.text or "" for node in paragraph.iter(f"{_WORD_NS}t"))
        style = paragraph.find(f"{_WORD_NS}pPr/{_WORD_NS}pStyle")
        level = (style.get(f"{_WORD_NS}val") or "") if style is not None else ""
        if level.startswith("Heading") and level[7:].isdigit() and text:
            text = "#" * int(level[7:]) + " " + text
        lines.append(text)
    return Extracted("\n\n".join(line for line in lines if line))


def _read_text(name: str, data: bytes, media_type: str) -> Extracted:
    try:
        return Extracted(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise UnreadableDocument(f"Text file '{name}' is not valid UTF-8 (byte {error.start})") from None


def _image_placeholder(name: str, data: bytes, media_type: str) -> Extracted:
    return Extracted(f"[Image: {posixpath.basename(name)}, {media_type}, {len(data)} bytes]")


_TEXT_TYPES = {
    ".md": "text/markdown", ".txt": "text/plain", ".csv": "text/csv", ".json": "application/json",
    ".yaml": "application/yaml", ".yml": "application/yaml", ".xml": "application/xml", ".html": "text/html",
    ".py": "text/x-python", ".cs": "text/x-csharp", ".js": "text/javascript", ".ts": "text/typescript",
}

TRANSFORMERS: tuple[Transformer, ...] = (
    Transformer("pdf", {".pdf": "application/pdf"}, _read_pdf, "the page texts joined with newlines"),
    Transformer(
        "xlsx",
        {".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
        _read_xlsx,
        "one `## Sheet: {name}` section per sheet with a Markdown table whose columns are Row, A, B …; `(No data)` for an empty sheet",
    ),
    Transformer(
        "docx",
        {".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
        _read_docx,
        "Markdown: paragraphs, headings as `#`",
    ),
    Transformer("text", _TEXT_TYPES, _read_text, "the text verbatim"),
    Transformer(
        "image",
        {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp"},
        _image_placeholder,
        "never the bytes: a placeholder line naming the file, media type and size (or the stored description)",
    ),
)


def extension_of(file_path: str) -> str:
    """The lower-case extension of a file path, with its dot ('' when there is none)."""
    return posixpath.splitext(file_path)[1].lower()


def find_transformer(file_path: str) -> tuple[Transformer, str]:
    """The first transformer claiming the file's extension, and the media type it assigns."""
    extension = extension_of(file_path)
    for transformer in TRANSFORMERS:
        if extension in transformer.media_types:
            return transformer, transformer.media_types[extension]
    known = ", ".join(ext for transformer in TRANSFORMERS for ext in transformer.media_types)
    shown = extension or "(none)"
    raise NoTransformer(
        f"No content transformer for extension '{shown}' (file '{file_path}'): it cannot be read as text. "
        f"Readable extensions: {known}."
    )


def extract_text(file_path: str, data: bytes, description: str | None = None) -> tuple[Extracted, str]:
    """Run the matching transformer on ``data``; returns the text and the media type."""
    transformer, media_type = find_transformer(file_path)
    if not data:
        raise UnreadableDocument(f"File '{file_path}' is empty (0 bytes); there is nothing to read")
    if transformer.name == "image" and description:
        return Extracted(description), media_type
    return transformer.read(file_path, data, media_type), media_type
