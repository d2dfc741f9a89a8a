"""The chunk tools' logic, as the framework's ChunkNavigation behaves.

``search_chunks`` answers ``{count, results, message?}`` (K3), scoped as K4 says; ``get_chunk`` reads
one chunk or answers a miss (K5, K6). Both read the chunk store (the index), so they see a file only
after it was indexed and the index refreshed.

Ranking: the framework ranks by the cosine similarity of embeddings and always returns up to
``limit`` chunks; agentkit ranks by how often the query's words occur (ties in file and chunk order)
and, like a vector search, also returns chunks that match no word, after those that do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ._chunks import Chunk, snippet
from ._errors import PathError
from ._index import clamp_limit
from ._mesh import Mesh
from ._query import net_blank, net_trim, reserved

SEARCH_CHUNKS_DEFAULT_LIMIT = 20
_WORD = re.compile(r"[0-9A-Za-z\u00c0-\uffff]+")

NO_STORE = "Content chunk indexing is not enabled in this host — no chunk store is configured."
NO_ANCHORED_QUERY = "Pass a non-empty 'query' to search content chunks."
NO_TARGETED_TEXT = "Pass query text (free-text terms) to search content chunks."
NO_SCOPE = (
    "No scope to search. Pass 'scope' as the node path whose content (and ancestors') chunks to search "
    "— e.g. 'ACME/Reports' — or use 'namespace:<node>/<collection>' in the query."
)
NO_NAMESPACE = (
    "No namespace to search. Add 'namespace:<node>/<collection>' to the query "
    "(e.g. 'namespace:ACME/content laptop pricing')."
)


def _normalize(path: str | None) -> str | None:
    """ContentChunkSearch.NormalizePath: ``Trim().TrimStart('@').Trim().Trim('/')``, so blanks, EVERY leading
    ``@`` and every ``/`` at both ends go; ``None`` when nothing is left. The tools first pass a ``scope`` through
    ResolvePath, which drops one ``@`` (N7); this drops the rest, so ``@@A/content`` searches ``A/content``."""
    if path is None or all(net_blank(char) for char in str(path)):
        return None
    cleaned = net_trim(net_trim(str(path)).lstrip("@")).strip("/")
    return cleaned or None


def _ancestors_and_self(path: str | None) -> list[str]:
    """``A/B/C`` → ``[A/B/C, A/B, A]``: the collection paths an anchored search reads, each exactly."""
    path = _normalize(path)
    scope: list[str] = []
    while path:
        scope.append(path)
        slash = path.rfind("/")
        if slash <= 0:
            break
        path = path[:slash]
    return scope


# ContentChunkSearch.ResolveScope's reading of the parsed scope: every other scope searches the subtree.
_CONTENT_SCOPE = {"exact": "exact", "ancestors": "ancestorsandself", "ancestorsandself": "ancestorsandself"}


@dataclass(frozen=True)
class ContentQuery:
    """What ContentChunkSearch.SearchContent reads of a ``namespace:`` query: the free text, the parsed path
    (``None`` when the query names none, so the anchor stands in; ``""`` when it names an empty one), the scope."""
    text: str
    path: str | None
    scope: str  # subtree | exact | ancestorsandself


def parse_content_query(query: str) -> ContentQuery:
    """A ``namespace:`` query as QueryParser.Parse and ContentChunkSearch read it.

    The last ``namespace:`` or ``path:`` term sets the path, its value as written (``namespace:@@A/content``
    keeps its ``@``s for NormalizePath to drop; ``namespace:`` with nothing after it sets ``""``, which no
    anchor replaces). A ``namespace:`` value with ``*`` or ``A|B`` alternation sets none. The scope is
    ``subtree`` unless the query holds the text ``scope:``; then ``scope:exact`` (and any unknown scope word,
    which the parser reads as Exact) is exact, ``ancestors``/``ancestorsandself``/``selfandancestors`` walk the
    ancestors, the rest is the subtree; a ``namespace:`` alternation makes it exact.
    """
    query = query or ""
    stripped = net_trim(query)
    if len(stripped) >= 2 and stripped[0] == "[" and stripped[-1] == "]":  # the whole-query path list `[a, b]`
        entries = [net_trim(entry) for entry in stripped[1:-1].split(",")]
        entries = [entry for entry in entries if entry]
        if entries:
            return ContentQuery("", entries[0], _content_scope("exact", query))
    parsed = reserved(query)
    return ContentQuery(net_trim(parsed.text), parsed.path, _content_scope(parsed.scope, query))


def _content_scope(parsed: str, query: str) -> str:
    """ResolveScope: without the text ``scope:`` anywhere in the query, the subtree."""
    return _CONTENT_SCOPE.get(parsed, "subtree") if "scope:" in query.lower() else "subtree"


def _ranked(chunks: list[Chunk], text: str, limit: int) -> list[Chunk]:
    """Best first: more occurrences of the query's words first, then file and chunk order."""
    terms = [term.lower() for term in _WORD.findall(text)]
    occurrences = [sum(map(chunk.text.lower().count, terms)) for chunk in chunks]
    order = sorted(range(len(chunks)), key=lambda i: -occurrences[i])  # stable: ties keep file and chunk order
    return [chunks[i] for i in order][:limit]


def _envelope(chunks: list[Chunk], message: str | None = None) -> dict[str, Any]:
    results = []
    for rank, chunk in enumerate(chunks):
        hit: dict[str, Any] = {
            "documentPath": chunk.document_path,
            "collectionPath": chunk.collection_path,
            "filePath": chunk.file_path,
            "chunkIndex": chunk.index,
            "rank": rank,
            "snippet": snippet(chunk.text),
        }
        if chunk.page is not None:
            hit["page"] = chunk.page
        if chunk.box is not None:
            hit["bbox"] = chunk.box.to_json()
        results.append(hit)
    envelope: dict[str, Any] = {"count": len(results), "results": results}
    if message:
        envelope["message"] = message
    return envelope


def search_chunks(mesh: Mesh, query: str, scope: str | None = None, limit: Any = SEARCH_CHUNKS_DEFAULT_LIMIT) -> dict[str, Any]:
    """SearchChunks: ``{count, results, message?}``; each hit ``{documentPath, collectionPath, filePath,
    chunkIndex, rank, snippet}`` + ``page``/``bbox`` for PDFs; ``rank`` 0-based; no de-duplication.

    A query with ``namespace:<node>/<collection>`` is targeted (``scope:subtree`` by default, ``exact``,
    ``ancestorsandself``) and ``scope`` is ignored. Otherwise the search is anchored at ``scope``: that
    path and each ancestor prefix, each compared exactly with a chunk's ``collectionPath``, so a bare
    node path such as ``Meridian`` finds nothing.
    """
    query = query or ""
    if not mesh.index.chunk_store:  # K11: asked before anything else, in both modes
        return _envelope([], NO_STORE)
    clamped = clamp_limit(limit, SEARCH_CHUNKS_DEFAULT_LIMIT)
    store = mesh.index.visible_chunks()
    if "namespace:" in query.lower():
        parsed = parse_content_query(query)
        namespace = _normalize(parsed.path if parsed.path is not None else scope)
        text = parsed.text
        if not text:
            return _envelope([], NO_TARGETED_TEXT)
        if not namespace:
            return _envelope([], NO_NAMESPACE)
        mesh.index.check_chunk_store()  # the embedding and the store's search fail uncaught (K3)
        if parsed.scope == "exact":
            pool = [c for c in store if c.collection_path == namespace]
        elif parsed.scope == "ancestorsandself":  # one search per collection, joined, not re-ranked
            return _envelope([chunk for collection in _ancestors_and_self(namespace) for chunk in
                              _ranked([c for c in store if c.collection_path == collection], text, clamped)][:clamped])
        else:  # subtree
            pool = [c for c in store if c.collection_path == namespace or c.collection_path.startswith(namespace + "/")]
        return _envelope(_ranked(pool, text, clamped))
    text = net_trim(query)
    if not text:
        return _envelope([], NO_ANCHORED_QUERY)
    collections = _ancestors_and_self(scope)
    if not collections:
        return _envelope([], NO_SCOPE)
    mesh.index.check_chunk_store()
    # Each collection is searched on its own and the lists are joined, never re-ranked, then capped; the
    # framework joins them as the store answers (agentkit's store answers in scope order).
    merged = [chunk for collection in collections
              for chunk in _ranked([c for c in store if c.collection_path == collection], text, clamped)]
    return _envelope(merged[:clamped])


def _shown(value: Any) -> str:
    """A value for an error message, short whatever it is (repr of a huge int or a deep list would fail)."""
    if isinstance(value, (list, dict)):
        return f"a JSON {'array' if isinstance(value, list) else 'object'}"
    if isinstance(value, int) and not isinstance(value, bool) and not -(10**40) < value < 10**40:
        return "a number of more than 40 digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def get_chunk(mesh: Mesh, collection_path: str, file_path: str, chunk_index: Any) -> dict[str, Any]:
    """GetChunk: the chunk with ``prevIndex``/``nextIndex`` (null at the ends) and ``totalChunks``, or a miss.

    A miss is an answer, never an error: ``{found: false, collectionPath, filePath, chunkIndex,
    totalChunks, message}``. The paths are compared exactly, as the chunk store keys them.
    """
    if isinstance(chunk_index, str) and re.fullmatch(r"\s*-?[0-9]{1,11}\s*", chunk_index):
        chunk_index = int(chunk_index)
    # The framework binds chunkIndex to a 32-bit int; a number past it (or text of thousands of digits,
    # which Python cannot even turn into an int) is refused here instead of failing mid-answer.
    if isinstance(chunk_index, bool) or not isinstance(chunk_index, int) or not -(2**31) <= chunk_index < 2**31:
        raise PathError(f"chunkIndex must be a whole number from {-(2**31)} to {2**31 - 1}, got {_shown(chunk_index)}")
    index = chunk_index
    if not mesh.index.chunk_store:  # K11: the store is asked for before the arguments, and the answer has no 'found'
        return {"count": 0, "results": [], "message": NO_STORE}
    if not collection_path or not str(collection_path).strip():
        return {"count": 0, "results": [], "message": "'collectionPath' is required."}
    if not file_path or not str(file_path).strip():
        return {"count": 0, "results": [], "message": "'filePath' is required."}
    mesh.index.check_chunk_store()  # a store failure is raised, not answered (K3)
    chunks = mesh.index.chunks_of(collection_path, file_path)
    total = len(chunks)
    if not 0 <= index < total:
        return {
            "found": False,
            "collectionPath": collection_path,
            "filePath": file_path,
            "chunkIndex": index,
            "totalChunks": total,
            "message": (f"No chunks indexed for '{file_path}' in '{collection_path}'." if total == 0
                        else f"No chunk at index {index}; valid range is 0..{total - 1}."),
        }
    chunk = chunks[index]
    result: dict[str, Any] = {
        "found": True,
        "collectionPath": chunk.collection_path,
        "filePath": chunk.file_path,
        "chunkIndex": chunk.index,
        "text": chunk.text,
        "prevIndex": index - 1 if index > 0 else None,
        "nextIndex": index + 1 if index < total - 1 else None,
        "totalChunks": total,
    }
    if chunk.page is not None:
        result["page"] = chunk.page
    if chunk.box is not None:
        result["bbox"] = chunk.box.to_json()
    return result

