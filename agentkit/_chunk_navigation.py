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
import unicodedata
from dataclasses import dataclass
from typing import Any

from ._chunks import Chunk, snippet
from ._errors import PathError
from ._index import clamp_limit
from ._mesh import Mesh

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


_NET_BLANKS = frozenset("\t\n\v\f\r \x85")


def _net_blank(char: str) -> bool:
    """.NET's char.IsWhiteSpace: the space separators, line and paragraph separators, U+0009..U+000D, U+0085
    (Python's ``isspace`` also counts U+001C..U+001F, which .NET does not)."""
    return char in _NET_BLANKS or unicodedata.category(char) in ("Zs", "Zl", "Zp")


def _net_trim(text: str) -> str:
    """.NET's string.Trim(): blanks off both ends, as :func:`_net_blank` counts them."""
    start, end = 0, len(text)
    while start < end and _net_blank(text[start]):
        start += 1
    while end > start and _net_blank(text[end - 1]):
        end -= 1
    return text[start:end]


def _normalize(path: str | None) -> str | None:
    """ContentChunkSearch.NormalizePath: ``Trim().TrimStart('@').Trim().Trim('/')``, so blanks, EVERY leading
    ``@`` and every ``/`` at both ends go; ``None`` when nothing is left. The tools first pass a ``scope`` through
    ResolvePath, which drops one ``@`` (N7); this drops the rest, so ``@@A/content`` searches ``A/content``."""
    if path is None or all(_net_blank(char) for char in str(path)):
        return None
    cleaned = _net_trim(_net_trim(str(path)).lstrip("@")).strip("/")
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


# -- the query grammar (QueryParser), as far as the chunk search reads it: free text, the namespace, the scope --
_FIELD_EXTRA = "_.-/$"  # besides letters and digits, what a field name may hold (IsValidFieldChar)
_SCOPE_WORDS = {  # QueryParser's scope words (an unknown word is Exact) ...
    "exact": "exact", "children": "children", "descendants": "descendants", "ancestors": "ancestors",
    "hierarchy": "hierarchy", "subtree": "subtree", "ancestorsandself": "ancestorsandself",
    "selfandancestors": "ancestorsandself", "myselfandancestors": "ancestorsandself",
    "selfanddescendants": "subtree", "nextlevel": "nextlevel", "populated": "nextlevel",
}
_CONTENT_SCOPE = {"exact": "exact", "ancestors": "ancestorsandself", "ancestorsandself": "ancestorsandself"}  # ... and
# ContentChunkSearch.ResolveScope's reading of them: every other parsed scope searches the subtree


def _letter_or_digit(char: str) -> bool:
    """.NET's char.IsLetterOrDigit on one UTF-16 unit: an astral character is two surrogates, neither."""
    if ord(char) > 0xFFFF:
        return False
    category = unicodedata.category(char)
    return category[0] == "L" or category == "Nd"


def _field_char(char: str) -> bool:
    return _letter_or_digit(char) or char in _FIELD_EXTRA


@dataclass(frozen=True)
class _Term:
    """One token of QueryParser.Tokenize: free text, or ``field:value`` (``values``, ``op`` as the parser sets them)."""
    text: str | None = None
    field: str = ""
    values: tuple[str, ...] = ()
    op: str = "eq"  # eq | ne | in | notin | like | cmp

    @property
    def value(self) -> str:
        return self.values[0] if self.values else ""


def _single_value(query: str, i: int, stop_at_parens: bool) -> tuple[str, int]:
    """QueryParser.ParseSingleValue: a quoted value up to its closing quote, else up to a blank (or a paren)."""
    n = len(query)
    while i < n and _net_blank(query[i]):
        i += 1
    if i >= n:
        return "", i
    if query[i] in "\"'":
        quote, i = query[i], i + 1
        start = i
        while i < n and query[i] != quote:
            i += 1
        return query[start:i], min(i + 1, n)
    start, depth = i, 0
    while i < n:
        char = query[i]
        if _net_blank(char) or (stop_at_parens and char in "()"):
            break
        if not stop_at_parens and char == "(":
            depth += 1
        elif not stop_at_parens and char == ")":
            if depth == 0:
                break
            depth -= 1
        i += 1
    return query[start:i], i


def _field_value(field: str, query: str, i: int, negated: bool) -> tuple[_Term, int]:
    """QueryParser.ParseFieldValue: the value after ``field:`` (an operator, a ``(A OR B)`` list, ``|`` alternation)."""
    n = len(query)
    equal = "ne" if negated else "eq"
    if i >= n or _net_blank(query[i]):
        return _Term(field=field, values=("",), op=equal), i
    op = equal
    if query.startswith((">=", "<="), i):
        op, i = "cmp", i + 2
    elif query[i] in "<>":
        op, i = "cmp", i + 1
    elif query[i] == "(":
        i, values = i + 1, []
        while i < n and query[i] != ")":
            while i < n and _net_blank(query[i]):
                i += 1
            if i >= n or query[i] == ")":
                break
            if query[i:i + 2].lower() == "or":
                i += 2
                continue
            value, after = _single_value(query, i, True)
            if after == i:
                # The framework's ParseListValues loops here for ever (a '(' inside a list, as in `x:((`): the
                # call never answers. agentkit cannot hang a tool call, so it ends the list instead.
                break
            i = after
            if value:
                values.append(value)
        if i < n and query[i] == ")":
            i += 1
        return _Term(field=field, values=tuple(values), op="notin" if negated else "in"), i
    value, i = _single_value(query, i, False)
    if op in ("eq", "ne") and i < n and query[i] == "|":
        parts = [value] if value else []
        while i < n and query[i] == "|":
            following, i = _single_value(query, i + 1, False)
            if following:
                parts.append(following)
        if len(parts) > 1:
            return _Term(field=field, values=tuple(parts), op="notin" if negated else "in"), i
    if op in ("eq", "ne") and "*" not in value and "|" in value:
        parts = [part for part in value.split("|") if part]
        if len(parts) > 1:
            return _Term(field=field, values=tuple(parts), op="notin" if negated else "in"), i
    if not negated and op in ("eq", "ne") and "*" in value:
        op = "like"
    return _Term(field=field, values=(value,), op=op), i


def _terms(query: str) -> list[_Term]:
    """QueryParser.Tokenize: blanks, parentheses and the words OR and AND are skipped, a quoted string is free
    text, ``field:value`` a term, a bare word free text; any other character is skipped (so ``@`` before a word)."""
    terms: list[_Term] = []
    i, n = 0, len(query)
    while i < n:
        char = query[i]
        if _net_blank(char) or char in "()":
            i += 1
            continue
        if query[i:i + 2].lower() == "or" and (i + 2 >= n or not _letter_or_digit(query[i + 2])):
            i += 2
            continue
        if query[i:i + 3].lower() == "and" and (i + 3 >= n or not _letter_or_digit(query[i + 3])):
            i += 3
            continue
        start, negated = i, char == "-"
        if negated:
            i += 1
            if i >= n:
                i = start + 1
                continue
        if query[i] in "\"'":
            quote, i = query[i], i + 1
            text_start = i
            while i < n and query[i] != quote:
                i += 1
            terms.append(_Term(text=query[text_start:i]))
            i = min(i + 1, n)
            continue
        field_start = i
        while i < n and _field_char(query[i]):
            i += 1
        if i == field_start or (negated and not (i < n and query[i] == ":")):
            i = start + 1  # no term here: the character is skipped
            continue
        field = query[field_start:i]
        if i < n and query[i] == ":":
            term, i = _field_value(field, query, i + 1, negated)
            terms.append(term)
        else:
            terms.append(_Term(text=field))
    return terms


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
    stripped = _net_trim(query)
    if len(stripped) >= 2 and stripped[0] == "[" and stripped[-1] == "]":  # the whole-query path list `[a, b]`
        entries = [_net_trim(entry) for entry in stripped[1:-1].split(",")]
        entries = [entry for entry in entries if entry]
        if entries:
            return ContentQuery("", entries[0], _content_scope("exact", query))
    path: str | None = None
    scope, scoped, namespace_used, alternation = "exact", False, False, False
    words: list[str] = []
    for term in _terms(query):
        if term.text is not None:
            words.append(term.text)
            continue
        field = term.field.lower()
        many = term.op in ("in", "notin") and len(term.values) > 1
        if field == "path":
            path = term.values[0] if many else term.value
        elif field == "namespace":
            if many:
                alternation = namespace_used = True
            elif "*" not in term.value:
                path, namespace_used = term.value, True
        elif field == "scope":
            scoped, scope = True, _SCOPE_WORDS.get(term.value.lower(), "exact")
    if namespace_used and not scoped:
        scope = "children"
    if namespace_used and scope == "subtree":
        scope = "descendants"
    if alternation:
        path, scope = None, "exact"
    return ContentQuery(_net_trim(" ".join(words)), path, _content_scope(scope, query))


def _content_scope(parsed: str, query: str) -> str:
    """ResolveScope: without the text ``scope:`` anywhere in the query, the subtree."""
    return _CONTENT_SCOPE.get(parsed, "subtree") if "scope:" in query.lower() else "subtree"


def _ranked(chunks: list[Chunk], text: str, limit: int) -> list[Chunk]:
    """Best first: more occurrences of the query's words first, then file and chunk order."""
    terms = [term.lower() for term in _WORD.findall(text)]
    order = sorted(range(len(chunks)),
                   key=lambda i: -sum(chunks[i].text.lower().count(term) for term in terms))
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
    text = _net_trim(query)
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

