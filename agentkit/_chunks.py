"""Chunks: 1000-character windows with 150 overlap, and the three chunk tools' logic.

``search`` and ``search_chunks`` read the search index (so they lag behind
uploads until the index refreshes, like Search); ``get_chunk`` reads the
stored file directly.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._errors import CollectionNotFound, PathError
from ._index import clamp_limit
from ._paths import canonical_path, is_within

if TYPE_CHECKING:  # pragma: no cover
    from ._mesh import Mesh

CHUNK_SIZE = 1000
CHUNK_OVERLAP = 150
SNIPPET_LENGTH = 160
_WORD = re.compile(r"[0-9A-Za-z\u00c0-\uffff]+")


@dataclass(frozen=True)
class Chunk:
    """One window of a file's text. ``page`` is 1-based and set for PDF chunks (the page the chunk starts on)."""

    collection_path: str
    file_path: str
    document_path: str
    index: int
    start: int
    end: int
    text: str
    page: int | None = None


def chunk_spans(length: int, size: int = CHUNK_SIZE, overlap: int = CHUNK_OVERLAP) -> list[tuple[int, int]]:
    """The (start, end) offsets of every window over a text of ``length`` characters."""
    if size <= overlap:
        raise ValueError(f"chunk size {size} must exceed the overlap {overlap}")
    spans = []
    start = 0
    while start < length:
        end = min(start + size, length)
        spans.append((start, end))
        if end == length:
            break
        start += size - overlap
    return spans


def split_chunks(
    text: str,
    *,
    collection_path: str,
    file_path: str,
    document_path: str,
    page_starts: tuple[int, ...] | None = None,
) -> tuple[Chunk, ...]:
    """Cut ``text`` into chunks; ``page_starts`` (offsets where each page begins) adds page numbers."""
    chunks = []
    for index, (start, end) in enumerate(chunk_spans(len(text))):
        page = bisect.bisect_right(page_starts, start) if page_starts else None
        chunks.append(Chunk(collection_path, file_path, document_path, index, start, end, text[start:end], page))
    return tuple(chunks)


def _terms(query: str) -> list[str]:
    terms = [term.lower() for term in _WORD.findall(query)]
    if not terms:
        raise PathError(f"query {query!r} has no words to search for")
    return terms


def _score(text: str, terms: list[str]) -> int:
    lowered = text.lower()
    return sum(lowered.count(term) for term in terms)


def _in_scope(chunk: Chunk, scope: str | None) -> bool:
    if not scope:
        return True
    if not isinstance(scope, str):
        raise PathError(f"scope must be a path string, got {scope!r}")
    return is_within(f"{chunk.collection_path}/{chunk.file_path}", _canonical_scope(scope))


# A search tests every visible chunk against one scope: canonicalize it once, not once per chunk.
_canonical_scope = functools.lru_cache(maxsize=64)(canonical_path)


def _snippet(text: str, terms: list[str]) -> str:
    lowered = text.lower()
    positions = [lowered.find(term) for term in terms if term in lowered]
    first = min(positions) if positions else 0
    start = max(0, first - 60)
    piece = " ".join(text[start:start + SNIPPET_LENGTH].split())
    return ("…" if start > 0 else "") + piece + ("…" if start + SNIPPET_LENGTH < len(text) else "")


def search_chunks(mesh: "Mesh", query: str, scope: str | None = None, limit: Any = 20) -> list[dict[str, Any]]:
    """Hits ``{documentPath, collectionPath, filePath, chunkIndex, rank, snippet, page?}``, best first.

    Hits are not de-duplicated: several chunks of one file may all appear.
    """
    terms = _terms(query)
    clamped = clamp_limit(limit, 20)
    scored = [
        (score, chunk) for chunk in mesh.index.visible_chunks()
        if _in_scope(chunk, scope) and (score := _score(chunk.text, terms)) > 0
    ]
    scored.sort(key=lambda pair: (-pair[0], pair[1].document_path, pair[1].index))
    hits = []
    for rank, (_, chunk) in enumerate(scored[:clamped]):
        hit: dict[str, Any] = {
            "documentPath": chunk.document_path,
            "collectionPath": chunk.collection_path,
            "filePath": chunk.file_path,
            "chunkIndex": chunk.index,
            "rank": rank,
            "snippet": _snippet(chunk.text, terms),
        }
        if chunk.page is not None:
            hit["page"] = chunk.page
        hits.append(hit)
    return hits


def search_documents(mesh: "Mesh", query: str, scope: str | None = None, limit: Any = 20) -> list[dict[str, Any]]:
    """``search``: one result per file, pointing at its Document node (that is what the index holds)."""
    terms = _terms(query)
    clamped = clamp_limit(limit, 20)
    # The index may still list a Document node that was deleted since it last refreshed; skip those.
    documents = {
        entry.path: entry for entry in mesh.index.visible_nodes()
        if entry.node_type == "Document" and mesh.exists(entry.path)
    }
    totals: dict[str, int] = {}
    for chunk in mesh.index.visible_chunks():
        if chunk.document_path in documents and _in_scope(chunk, scope):
            totals[chunk.document_path] = totals.get(chunk.document_path, 0) + _score(chunk.text, terms)
    ranked = sorted((path for path, total in totals.items() if total > 0), key=lambda p: (-totals[p], p))
    results = []
    for rank, path in enumerate(ranked[:clamped]):
        content = mesh.get(path).content or {}
        results.append({
            "documentPath": path,
            "name": content.get("name"),
            "collectionPath": content.get("collectionPath"),
            "filePath": content.get("filePath"),
            "summary": content.get("summary"),
            "rank": rank,
        })
    return results


def get_chunk(mesh: "Mesh", collection_path: str, file_path: str, chunk_index: Any) -> dict[str, Any]:
    """One chunk with its neighbours' indexes; an index out of range is an answer, not an error."""
    if isinstance(chunk_index, bool) or not isinstance(chunk_index, (int, str)) \
            or not re.fullmatch(r"-?[0-9]+", str(chunk_index).strip()):
        raise PathError(f"chunkIndex must be a whole number, got {chunk_index!r}")
    index = int(chunk_index)
    collection = mesh.collections.get(canonical_path(collection_path))
    if collection is None:
        raise CollectionNotFound(f"Content collection '{collection_path}' not found")
    stored = collection.stored(file_path)
    total = len(stored.chunks)
    if not 0 <= index < total:
        return {
            "found": False,
            "totalChunks": total,
            "message": f"No chunk at index {index}; valid range is 0..{total - 1}.",
        }
    chunk = stored.chunks[index]
    result: dict[str, Any] = {
        "found": True,
        "collectionPath": chunk.collection_path,
        "filePath": chunk.file_path,
        "chunkIndex": index,
        "text": chunk.text,
        "prevIndex": index - 1 if index > 0 else None,
        "nextIndex": index + 1 if index < total - 1 else None,
        "totalChunks": total,
    }
    if chunk.page is not None:
        result["page"] = chunk.page
    return result
