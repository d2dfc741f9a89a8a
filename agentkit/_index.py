"""The search index: eventually consistent, refreshed by an explicit step.

Writes are staged; searches see them only after :meth:`SearchIndex.refresh`.
That models the framework's lag deterministically: right after a batch of
creates a count search says zero while a direct Get on any of the new paths
succeeds. Nothing here sleeps or reads a clock; the caller decides when the
index catches up (``auto_refresh=True`` makes every write visible at once).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable

from ._chunks import CHUNK_OVERLAP, CHUNK_SIZE, Chunk
from ._errors import PathError
from ._node import Node
from ._paths import document_node_path
from ._query import Term

SEARCH_LIMIT_MIN = 1
SEARCH_LIMIT_MAX = 200


def clamp_limit(limit: Any, default: int) -> int:
    """Clamp a requested limit to 1..200; ``None`` means the default; non-numbers are refused."""
    if limit is None:
        return default
    number = limit
    if isinstance(limit, bool) or not isinstance(limit, (int, float)):
        try:
            number = int(str(limit).strip())
        except ValueError:
            number = None
    if number is None or number != number:  # not a number, or NaN (JSON from a model may carry it)
        raise PathError(
            f"limit must be a whole number between {SEARCH_LIMIT_MIN} and {SEARCH_LIMIT_MAX}, got {limit!r}"
        )
    return int(max(SEARCH_LIMIT_MIN, min(SEARCH_LIMIT_MAX, number)))  # clamp first: int(inf) would fail


@dataclass(frozen=True)
class IndexedNode:
    """What the index knows about a node: enough to match a query and build a result row."""

    path: str
    id: str
    namespace: str
    name: str
    node_type: str
    version: int
    last_modified: str
    text: str  # lower-cased searchable text: name, id, path and (for Document nodes) the summary

    def row(self) -> dict[str, Any]:
        """A Search result as the hub's JSON options write it: a key holding its default (M3) is left out."""
        row = {"path": self.path, "name": self.name, "nodeType": self.node_type, "version": self.version,
               "lastModified": self.last_modified}
        unset = {"version": 0, "lastModified": ""}  # agentkit's stand-ins for Version 0 and default(DateTimeOffset)
        return {key: value for key, value in row.items() if value is not None and unset.get(key, None) != value}


@dataclass
class SearchIndex:
    """Staged writes plus the visible state that searches read, and the host's indexing pipeline.

    The pipeline settings are the host's: ``summarizer(text, file_name)`` writes Document summaries
    (the framework registers none, D6, so by default indexing writes chunks but no Document node);
    ``image_describer(data, file_name)`` captions images, whose caption is then their indexing text (K10);
    it is asked only for the extensions memex's ChatClientImageDescriber takes (``IMAGE_MEDIA_TYPES``), so an
    ``.svg`` or any other image gets no text, no chunks and no Document node;
    ``chunk_size`` and ``chunk_overlap`` are the host's ContentIndexingOptions (K9). ``content_rows=True`` models a
    PostgreSQL-backed mesh, whose Search adds one synthetic Document row per file whose chunk text
    holds the query's free text (K8). ``refuse_slug_collisions=True`` is an agentkit extension (the
    framework overwrites, D3): indexing refuses a file whose slug another file of its collection owns.
    ``chunk_store=False`` is a host without an indexing pipeline (the framework's default; memex wires
    one with PostgreSQL and an embedding service): nothing is indexed, and the chunk tools answer
    ``{count: 0, results: [], message}`` saying so (K6). ``chunk_store_failure`` (a message) makes every
    chunk-store read fail, as a database or embedding-service failure does: the framework catches
    nothing there, so the tool call raises (K3).
    """

    auto_refresh: bool = False
    # Host wiring (K11): `chunk_store=False` is a host without a content-indexing pipeline. Nothing is indexed
    # (no chunks, no Document nodes), and both chunk tools answer that chunk indexing is not enabled.
    chunk_store: bool = True
    # ContentIndexingOptions (K9): the host may set the window and the overlap; these are the framework's defaults.
    chunk_size: int = CHUNK_SIZE
    chunk_overlap: int = CHUNK_OVERLAP
    summarizer: Callable[[str, str], str] | None = None
    image_describer: Callable[[bytes, str], str] | None = None
    content_rows: bool = False
    refuse_slug_collisions: bool = False
    # A failing chunk store (K3): every chunk-store read raises this message, as a database or embedding failure does.
    chunk_store_failure: str | None = None
    _nodes: dict[str, IndexedNode] = field(default_factory=dict)
    _chunks: dict[tuple[str, str], tuple[Chunk, ...]] = field(default_factory=dict)
    _pending: list[tuple[str, Any, Any]] = field(default_factory=list)
    # The chunk store's hash of each indexed file: the hash gate skips a file whose bytes it holds (R14).
    _file_hashes: dict[tuple[str, str], str] = field(default_factory=dict)
    # The Document sink's memory of the Document paths it wrote or found, for the indexing process's
    # lifetime and never cleared on delete, so an unchanged file's deleted Document is not written
    # again (R14) until the process restarts (S3, :meth:`restart_indexer`).
    _known_documents: set[str] = field(default_factory=set)
    # Indexing runs the framework starts in the background (MCP upload's Activity, C8): they run, in order,
    # at the next refresh, so until then a file keeps what an earlier indexing wrote (chunks, Document node).
    _background: list[Callable[[], Any]] = field(default_factory=list)

    @property
    def pending(self) -> int:
        """How many staged writes searches cannot see yet."""
        return len(self._pending)

    def index_in_background(self, run: Callable[[], Any]) -> None:
        """Start an indexing run as the framework's upload observer does (C8, CC2): it runs at the next
        :meth:`refresh`, before the staged writes are applied (at once with ``auto_refresh``)."""
        self._background.append(run)
        if self.auto_refresh:
            self.refresh()

    def stage_node(self, node: Node) -> None:
        content = node.content if isinstance(node.content, Mapping) else {}  # Create stores any JSON as content
        summary = content.get("summary", "") if node.node_type == "Document" else ""
        entry = IndexedNode(
            node.path, node.id, node.namespace, node.name, node.node_type, node.version, node.last_modified,
            " ".join((node.name or "", node.id, node.path, str(summary))).lower(),
        )
        self._stage("node", node.path, entry)

    def stage_remove(self, path: str) -> None:
        self._stage("remove", path, None)

    def stage_chunks(self, collection_path: str, file_path: str, chunks: tuple[Chunk, ...], file_hash: str | None = None) -> None:
        """Replace a file's chunks; `file_hash` is recorded for the hash gate when there are chunks (a file
        with no text records none, so it is tried again)."""
        self._stage("chunks", (collection_path, file_path), chunks)
        if chunks and file_hash is not None:
            self._file_hashes[collection_path, file_path] = file_hash
        else:
            self._file_hashes.pop((collection_path, file_path), None)

    def unstage_chunks(self, collection_path: str, file_path: str) -> None:
        self._stage("drop-chunks", (collection_path, file_path), None)
        self._file_hashes.pop((collection_path, file_path), None)

    def file_hash(self, collection_path: str, file_path: str) -> str | None:
        """The hash of the bytes the file's chunks were made from, or None when it has none."""
        return self._file_hashes.get((collection_path, file_path))

    def document_known(self, path: str) -> bool:
        return path in self._known_documents

    def remember_document(self, path: str) -> None:
        self._known_documents.add(path)

    def restart_indexer(self) -> None:
        """The indexing process restarts (or another replica indexes, S3): the Document sink's memory is
        gone; the chunk store, PostgreSQL in memex, keeps the chunks and their hashes."""
        self._known_documents.clear()

    def check_chunk_store(self) -> None:
        """Raise as a failing chunk store (or embedding service) does: not an agentkit refusal, so the
        tool layers answer their invocation-failure text (K3)."""
        if self.chunk_store_failure is not None:
            raise ChunkStoreFailure(self.chunk_store_failure)

    def _stage(self, operation: str, key: Any, value: Any) -> None:
        self._pending.append((operation, key, value))
        if self.auto_refresh:
            self.refresh()

    def refresh(self) -> int:
        """Run the background indexing runs, then apply every staged write in order; returns how many
        writes were applied."""
        while self._background:
            self._background.pop(0)()
        applied = len(self._pending)
        for operation, key, value in self._pending:
            if operation == "node":
                self._nodes[key] = value
            elif operation == "remove":
                self._nodes.pop(key, None)
            elif operation == "chunks":
                self._chunks[key] = value
            else:
                self._chunks.pop(key, None)
        self._pending.clear()
        return applied

    def visible_nodes(self) -> list[IndexedNode]:
        return [self._nodes[path] for path in sorted(self._nodes)]

    def visible_chunks(self) -> list[Chunk]:
        """Every visible chunk, file by file (collection path, then file path), in chunk order."""
        return [chunk for key in sorted(self._chunks) for chunk in self._chunks[key]]

    def chunks_of(self, collection_path: str, file_path: str) -> tuple[Chunk, ...]:
        """The visible chunks of one file, keyed exactly as indexing stored them (none when unindexed)."""
        return self._chunks.get((collection_path, file_path), ())

    def synthetic_document_rows(self, query: str) -> list[dict[str, Any]]:
        """K8: one synthetic Document row per file whose chunk text holds the free text (any case).

        The row is a node row built from the chunk store alone: no ``collectionPath``, no
        ``filePath``, version 0, whether or not a Document node exists.
        """
        words = [term for term in query.split() if ":" not in term and term != "*"]
        phrase = " ".join(words).lower()
        if not phrase:
            return []
        rows = []
        for (collection_path, file_path), chunks in sorted(self._chunks.items()):
            if any(phrase in chunk.text.lower() for chunk in chunks):
                rows.append({
                    "path": document_node_path(collection_path, file_path),
                    "name": file_path.rsplit("/", 1)[-1],
                    "nodeType": "Document",
                    "version": 0,
                    "lastModified": "",
                })
        return rows


class ChunkStoreFailure(RuntimeError):
    """A chunk store or embedding service that failed; deliberately not an :class:`AgentkitError`."""


def _matches(entry: IndexedNode, terms: Sequence[Term]) -> bool:
    """Whether an indexed node matches every term left after the reserved qualifiers: free text anywhere in
    its searchable text, ``nodeType:`` its type (any case), ``name:`` within its name, any other
    ``field:value`` as that text; ``-field:`` (and a list ``-field:(A OR B)``) negates."""
    for term in terms:
        if term.text is not None:
            hit, negated = term.text.lower() in entry.text, False
        else:
            values, negated = [value.lower() for value in term.values], term.op in ("ne", "notin")
            if term.field == "nodeType":
                hit = entry.node_type.lower() in values
            elif term.field == "name":
                hit = any(value in entry.name.lower() for value in values)
            else:
                hit = any(f"{term.field}:{value}".lower() in entry.text for value in values)
        if hit == negated:
            return False
    return True
