"""Chunks, as the framework's indexing cuts them.

Indexing cuts its own text (D5) into 1,000-character windows that overlap by 150 (K1); a PDF chunk
carries the 1-based page its first word is on and the box of its words there. The chunk tools that
read them back out of the index are in ``_chunk_navigation.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._paths import document_node_path
from ._transformers import Box, IndexText

CHUNK_SIZE = 1000
CHUNK_OVERLAP = 150
SNIPPET_LENGTH = 160
_SPACE_RUN = re.compile(" {2,}")


@dataclass(frozen=True)
class Chunk:
    """One window of a file's indexing text; ``page`` (1-based) and ``box`` only for PDF chunks."""

    collection_path: str
    file_path: str
    index: int
    start: int
    end: int
    text: str
    page: int | None = None
    box: Box | None = None

    @property
    def document_path(self) -> str:
        """``{collectionPath}/_Documents/{slug}``, whether or not a Document node was written."""
        return document_node_path(self.collection_path, self.file_path)


def chunk_spans(length: int, size: int = CHUNK_SIZE, overlap: int = CHUNK_OVERLAP) -> list[tuple[int, int]]:
    """The (start, end) offsets of every window over a text of ``length`` characters (K1).

    A text of at most ``size`` characters is one chunk; otherwise windows start every
    ``size - overlap`` characters until one reaches the end.
    """
    if size < 1:
        raise ValueError(f"chunk size {size} must be positive")
    overlap = min(max(overlap, 0), size - 1)  # the framework clamps, so the stride is at least 1
    if length <= 0:
        return []
    if length <= size:
        return [(0, length)]
    spans = []
    for start in range(0, length, size - overlap):
        end = min(start + size, length)
        spans.append((start, end))
        if end >= length:
            break
    return spans


def split_chunks(indexed: IndexText, *, collection_path: str, file_path: str,
                 size: int = CHUNK_SIZE, overlap: int = CHUNK_OVERLAP) -> tuple[Chunk, ...]:
    """Cut the indexing text into chunks; a chunk's page and box come from the first word it overlaps.

    ``size`` and ``overlap`` are the host's ContentIndexingOptions (K9); 1,000 and 150 unless it sets them.
    A chunk's box is ``Box.covering`` of the boxes of its words on that page, in order.
    """
    chunks = []
    spans = indexed.spans
    count = len(spans)
    text = indexed.text
    cursor = 0
    for number, (start, end) in enumerate(chunk_spans(len(text), size, overlap)):
        while cursor < count:
            span = spans[cursor]
            if span.start + span.length > start:  # Span.end
                break
            cursor += 1
        page, boxes = None, []
        position = cursor  # walk by index: slicing spans[cursor:] copied every later word for each chunk
        while position < count:
            span = spans[position]
            if span.start >= end:
                break
            position += 1
            if page is None:  # the first word (a word without a page starts the box anew)
                page, boxes = span.page, [span.box]
            elif span.page == page:
                boxes.append(span.box)
        chunks.append(Chunk(collection_path, file_path, number, start, end, text[start:end], page,
                            Box.covering(boxes) if boxes else None))
    return tuple(chunks)


def snippet(text: str) -> str:
    """The hit's one-line preview: newlines to spaces, runs of spaces to one; over 160 → 160 + ``…``."""
    one_line = _SPACE_RUN.sub(" ", text.replace("\r", " ").replace("\n", " ").strip())
    return one_line if len(one_line) <= SNIPPET_LENGTH else one_line[:SNIPPET_LENGTH].rstrip() + "…"
