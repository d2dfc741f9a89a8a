"""Content collections: stored files, and the indexing that turns a file into chunks and a Document node.

Storing and indexing are two steps, as in the framework. :meth:`ContentCollection.upload` stores the
bytes, which is all the agent tool ``UploadContent`` does: the file is readable by Get at once but is
not indexed (C7). :meth:`ContentCollection.index` is the indexing pipeline that MCP ``upload`` starts in
the background: it extracts the indexing text (D5), stages its chunks (K1) and, when the host has a
summarizer or an image caption (D6), upserts the Document node at ``{collectionPath}/_Documents/{slug}``
(D1-D4). ``upload(..., index=True)`` does both, in the framework's order: the file is stored first, and a
file indexing cannot read stays stored; the failure is returned as :attr:`UploadResult.index_error`, never
raised (the framework indexes in a background Activity, whose failure is not in the upload's answer but ends
the Activity node ``Failed`` with the error's message, C8). MCP ``upload`` writes that node
(:func:`index_file_activity`), readable by Get and Search.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ._chunks import split_chunks
from ._errors import AgentkitError, DocumentSlugCollision, FileNotFound, PathError, StoreCannotWrite, UnreadableDocument
from ._index import SearchIndex
from ._node import Node, StepClock, date_time_offset
from ._paths import DOCUMENTS_SEGMENT, canonical_path, document_node_path, document_slug, split_node_id
from ._transformers import IMAGE_MEDIA_TYPES, IndexText, extension_of, get_text, index_text


class NodeStore(Protocol):
    """What a collection needs of the mesh it belongs to (a :class:`~agentkit.Mesh`): its index, its
    clock and its node store, through which indexing writes the Document nodes. A protocol, so that the
    mesh may hold collections without the two modules importing each other."""

    index: SearchIndex
    clock: StepClock

    def exists(self, path: str) -> bool: ...

    def get(self, path: str) -> Node: ...

    def put_node(self, node: Node) -> Node: ...

    def remove_node(self, path: str) -> None: ...


# The content stores a host can back its collections with (S1): the framework registers FileSystem
# (AddContentService); AzureBlob comes with MeshWeaver.Hosting.AzureBlob.
FILE_SYSTEM = "FileSystem"
AZURE_BLOB = "AzureBlob"
CONTENT_STORES = (FILE_SYSTEM, AZURE_BLOB)

SUMMARY_LIMIT = 280
ELLIPSIS = "…"


def extractive_summary(text: str, file_name: str = "") -> str:
    """The framework's ExtractiveSummarizer (D7), which memex wires in: leading prose, one line.

    Each line is trimmed and stripped of leading ``#``, ``>``, ``-``, ``*`` and blanks; empty lines are
    skipped; lines are joined by spaces until the text reaches 280 characters; whitespace runs collapse.
    Over 280 characters: the first 280, end-trimmed, then ``…``.
    """
    if not text or not text.strip():
        return ""
    parts: list[str] = []
    length = 0
    for raw in text.split("\n"):
        line = raw.strip().lstrip("#>-* \t").strip()
        if not line:
            continue
        if parts:
            length += 1
        parts.append(line)
        length += len(line)
        if length >= SUMMARY_LIMIT:
            break
    one_line = " ".join(" ".join(parts).split())
    return one_line if len(one_line) <= SUMMARY_LIMIT else one_line[:SUMMARY_LIMIT].rstrip() + ELLIPSIS


def _names_itself(key: str) -> bool:
    """True when a canonical key is its own canonical form, so Get finds it at the path the listing shows."""
    try:
        return canonical_path(key) == key
    except PathError:
        return False


@dataclass(frozen=True)
class StoredFile:
    """A file as the collection keeps it: its path in the collection, its bytes and when it was stored."""

    file_path: str
    data: bytes
    last_modified: str = ""


@dataclass(frozen=True)
class UploadResult:
    """What :meth:`ContentCollection.upload` did: the file it stored and, with ``index=True``, what indexing did.

    ``document`` is the Document node indexing wrote (``None`` when it wrote none); ``index_error`` says why
    indexing could not read the file, which is stored all the same (the framework's indexing Activity ends
    ``Failed`` with it, C8). Without ``index=True`` both are ``None``.
    """

    stored: StoredFile
    document: Node | None = None
    index_error: str | None = None

    @property
    def file_path(self) -> str:
        return self.stored.file_path


# The satellite folder of Activity nodes (SatelliteTableMapping.Defaults: table `activities`, node type `Activity`).
ACTIVITY_SEGMENT = "_Activity"


def _log_message(message: str, level: str, stamp: str) -> dict[str, Any]:
    """A LogMessage as the hub's JSON writes it: its registered ``$type``, ``LogLevel`` by name, null
    ``categoryName`` left out, ``scopes`` the empty list it starts with."""
    return {"$type": "LogMessage", "message": message, "logLevel": level, "timestamp": stamp, "scopes": []}


def index_file_activity(collection: "ContentCollection", file_path: str) -> Node | None:
    """The indexing run MCP ``upload`` starts (ContentIndexingObserver.IndexFileActivity, C8): an Activity node.

    It is written at ``{node}/_Activity/{id}`` (``{node}`` the collection's node, ``id`` 8 hex digits), named
    ``Index {fileName}``, ``mainNode`` the node, its content an ActivityLog (category ``DataUpdate``) that
    starts ``Running`` (ActivityStatus 0, so its JSON has no ``status``). The run logs the bytes it reads and
    IndexFile's result (``'{filePath}': NoText (0 chunk(s)).``) and ends ``Succeeded``; an extraction that
    throws ends it ``Failed``, the error's message appended at ``Error`` level. The framework appends each
    line as it goes; agentkit writes the lines with the terminal status, one write after the create. A host
    without a chunk store has no indexing observer: no Activity (K11). Returns the finished node.
    """
    mesh = collection.mesh
    if not mesh.index.chunk_store:
        return None
    node_path = collection.address.strip("/")  # PartitionOf: the collection path minus its last segment
    title = f"Index {file_path.rsplit('/', 1)[-1]}"
    activity_id = hashlib.sha256(f"{collection.path}/{file_path}@{mesh.clock.steps}".encode()).hexdigest()[:8]
    path = f"{node_path}/{ACTIVITY_SEGMENT}/{activity_id}"
    started = mesh.clock.now()
    content: dict[str, Any] = {
        "$type": "ActivityLog", "category": "DataUpdate", "start": started, "id": activity_id,
        "messages": [_log_message(title, "Information", started)], "status": None, "end": None,
        "hubPath": path, "subActivities": [], "affectedPaths": [], "primaryNodePath": path,
    }
    created = mesh.put_node(Node(id=activity_id, namespace=f"{node_path}/{ACTIVITY_SEGMENT}", name=title,
                                 node_type="Activity", content=content, typed=True, main_node=node_path))
    lines: list[tuple[str, str]] = []
    status = "Succeeded"
    if not collection.has_file(file_path):
        lines.append((f"File '{file_path}' not found in collection '{collection.path}'; nothing to index.", "Warning"))
    else:
        data = collection.stored(file_path).data
        lines.append((f"Indexing '{file_path}' ({len(data)} bytes) in '{collection.path}'.", "Information"))
        try:
            _, result, count = collection._index(file_path)
            lines.append((f"'{file_path}': {result} ({count} chunk(s)).", "Information"))
        except AgentkitError as error:  # Run's Catch: Failed, the message appended at Error level
            status = "Failed"
            lines.append((str(error), "Error"))
    ended = mesh.clock.now()
    finished = dict(content, status=status, end=ended,
                    messages=content["messages"] + [_log_message(text, level, ended) for text, level in lines])
    return mesh.put_node(replace(created, content=finished, version=created.version + 1))


class ContentCollection:
    """A named collection of files attached to a node; its path is ``{node}/{name}``."""

    def __init__(self, mesh: NodeStore, address: str, name: str, *, editable: bool = True,
                 embedded_resource: bool = False) -> None:
        if not isinstance(name, str) or not name or "/" in name or name in (".", "..", DOCUMENTS_SEGMENT):
            raise PathError(f"Collection name '{name}' must be one path segment (not '.', '..' or '{DOCUMENTS_SEGMENT}')")
        self.mesh = mesh
        self.address = address
        self.name = name
        self.path = f"{address}/{name}"
        # ContentCollectionConfig.IsEditable: MCP upload refuses a read-only collection; UploadContent does not ask (U2).
        self.editable = editable and not embedded_resource
        # An embedded-resource collection (AddEmbeddedResourceContentCollection) is never editable, and its
        # store cannot write: every save raises, so UploadContent answers the store's error (CC3).
        self.embedded_resource = embedded_resource
        self._files: dict[str, StoredFile] = {}

    # -- paths ----------------------------------------------------------------
    def file_key(self, file_path: str) -> str:
        """The key a file is stored and looked up under: the path as given, outer ``/`` trimmed.

        The framework compares names exactly (no decoding, no Unicode normalisation, C6). With the
        agentkit extension ``Mesh(canonical_paths=True)`` every segment is percent-decoded and NFC-composed.
        """
        if not isinstance(file_path, str) or not file_path.strip("/").strip():
            raise PathError(f"File path must be a non-empty string, got {file_path!r}")
        key = file_path.strip("/")
        if getattr(self.mesh, "canonical_paths", False):
            key = canonical_path(key)
        return key

    def _upload_key(self, file_path: str) -> str:
        key = self.file_key(file_path)
        segments = key.split("/")
        # Not modelled: what a storage backend does with '.', '..' or empty segments; agentkit refuses them.
        if any(segment in ("", ".", "..") for segment in segments):
            raise PathError(f"File path '{file_path}': agentkit does not store '.', '..' or empty segments")
        if segments[0] == DOCUMENTS_SEGMENT:
            raise PathError(f"File path '{file_path}': '{DOCUMENTS_SEGMENT}' is reserved for Document nodes")
        if getattr(self.mesh, "canonical_paths", False) and not _names_itself(key):
            # '%25' decodes to '%': stored as such, the listed name would be decoded again by every Get.
            raise PathError(f"File path '{file_path}' decodes to '{key}', which a path cannot name again "
                            "(canonical paths decode every path); rename the file without a '%'")
        return key

    # -- writes ---------------------------------------------------------------
    def upload(self, file_path: str, data: bytes, *, index: bool = False) -> UploadResult:
        """Store a file (any extension, any bytes) as ``UploadContent`` does; replaces a file at that path.

        ``index=True`` also runs :meth:`index` after storing, at once, where MCP ``upload`` starts it in the
        background (it runs at the index's next refresh, CC2). A file indexing cannot
        read stays stored, and the failure is returned as ``index_error``, never raised: what a caller sees
        is what was stored. What raises (a bad path, data that is not bytes, an embedded-resource store, the
        slug-collision extension)
        raises before anything is stored.
        """
        key = self._upload_key(file_path)
        if not isinstance(data, (bytes, bytearray)):
            raise PathError(f"Upload of '{key}' needs bytes, got {type(data).__name__}")
        if self.embedded_resource:
            raise StoreCannotWrite("Embedded resource collections are read-only")
        stored = StoredFile(key, bytes(data), self.mesh.clock.now())
        if index:
            self._refuse_slug_collision(key)  # before anything is written
        self._files[key] = stored
        if not index:
            return UploadResult(stored)
        try:
            return UploadResult(stored, self.index(key))
        except UnreadableDocument as error:  # index() changed nothing; the stored file stays
            return UploadResult(stored, None, str(error))

    def index(self, file_path: str, *, force: bool = False) -> Node | None:
        """Index one stored file; returns its Document node, or ``None`` when none is written.

        The chunks are replaced (visible to chunk search after the index refreshes). A Document node is
        upserted only when the file has indexing text and the host has a summarizer, or an image
        describer captioned it (D5, D6); a second file with the same slug overwrites it (D3). A file
        whose bytes were indexed already is skipped, unless the sink believes its Document missing;
        it remembers every Document it wrote or found, deleted ones too, until the indexing process
        restarts (R14, S3). ``force=True`` is the host's forced rebuild (Re-index with rebuild): no
        hash gate, so the chunks and the Document are written again. A host without an indexing
        pipeline (``SearchIndex(chunk_store=False)``) indexes nothing.
        """
        return self._index(file_path, force)[0]

    def _index(self, file_path: str, force: bool = False) -> tuple[Node | None, str, int]:
        """:meth:`index`, with the IndexResult the framework's IndexFile reports: ``Indexed``, ``Skipped``
        (the hash gate, heal or not) or ``NoText``, and the chunks stored (0 unless ``Indexed``)."""
        stored = self.stored(file_path)
        pipeline = self.mesh.index
        if not pipeline.chunk_store:  # K11: the host wires no indexing pipeline, so nothing indexes
            return None, "Skipped", 0
        self._refuse_slug_collision(stored.file_path)
        digest = hashlib.sha256(stored.data).hexdigest()
        document_path = document_node_path(self.path, stored.file_path)
        unchanged = not force and pipeline.file_hash(self.path, stored.file_path) == digest
        if unchanged and self._document_believed_present(document_path):
            # The hash gate (R14): the chunks are current and the sink believes the Document exists
            # (it remembers every one it wrote or saw, deleted ones too): nothing is written.
            return None, "Skipped", 0
        caption = None
        if pipeline.image_describer is not None and extension_of(stored.file_path) in IMAGE_MEDIA_TYPES:
            caption = pipeline.image_describer(stored.data, stored.file_path.rsplit("/", 1)[-1]) or ""
            indexed = IndexText(caption)
        else:
            indexed = index_text(stored.file_path, stored.data)
        chunks = split_chunks(indexed, collection_path=self.path, file_path=stored.file_path,
                              size=pipeline.chunk_size, overlap=pipeline.chunk_overlap)
        if not unchanged:  # the heal of an unchanged file writes its Document only, never its chunks
            self.mesh.index.stage_chunks(self.path, stored.file_path, chunks, digest)
        result = ("Skipped", 0) if unchanged else ("Indexed", len(chunks))
        if not chunks:
            return None, "NoText", 0
        name = stored.file_path.rsplit("/", 1)[-1]
        if caption:
            summary = caption
        elif pipeline.summarizer is not None:
            summary = pipeline.summarizer(indexed.text, name)
        else:
            return (None, *result)
        namespace, slug = split_node_id(document_path, None)
        content: dict[str, Any] = {  # mime is always null, so it never appears (D4)
            "$type": "Document",
            "name": name,
            "summary": summary,
            "collectionPath": self.path,
            "filePath": stored.file_path,
            "sizeBytes": len(stored.data),
            "contentHash": digest,
            "chunkCount": len(chunks),
            "indexedAt": date_time_offset(self.mesh.clock.now()),  # a DateTimeOffset, as the node's dates
        }
        previous = self.mesh.exists(document_path) and self.mesh.get(document_path)
        node = Node(
            id=slug, namespace=namespace, name=name, node_type="Document", content=content,  # no icon (MeshDocumentSink)
            version=previous.version + 1 if previous else 1, typed=True,
        )
        written = self.mesh.put_node(node)
        pipeline.remember_document(document_path)
        return (written, *result)

    def _document_believed_present(self, document_path: str) -> bool:
        """The sink's DocumentExists: its memory first, then a look at the mesh (remembered when found)."""
        pipeline = self.mesh.index
        if pipeline.document_known(document_path):
            return True
        if self.mesh.exists(document_path):
            pipeline.remember_document(document_path)
            return True
        return False

    def _refuse_slug_collision(self, key: str) -> None:
        """agentkit extension, on with ``SearchIndex(refuse_slug_collisions=True)``: refuse to index a file
        whose Document node another stored file of the collection already owns (the framework overwrites)."""
        if not self.mesh.index.refuse_slug_collisions:
            return
        document_path = document_node_path(self.path, key)
        node = self.mesh.exists(document_path) and self.mesh.get(document_path)
        owner = (node.content or {}).get("filePath") if node else None
        if owner is not None and owner != key:
            raise DocumentSlugCollision(
                f"File '{key}' would share the Document node '{document_path}' with '{owner}' "
                f"(both slug to '{document_slug(key)}'); rename one of them"
            )

    def delete(self, file_path: str) -> None:
        """Remove a file, its chunks and the Document node that describes it."""
        stored = self.stored(file_path)
        del self._files[stored.file_path]
        document_path = document_node_path(self.path, stored.file_path)
        if self.mesh.exists(document_path) and (self.mesh.get(document_path).content or {}).get("filePath") == stored.file_path:
            self.mesh.remove_node(document_path)
        self.mesh.index.unstage_chunks(self.path, stored.file_path)

    def drop_from_index(self) -> None:
        """Stage the removal of every chunk of this collection (its node is being deleted)."""
        for file_path in self._files:
            self.mesh.index.unstage_chunks(self.path, file_path)

    # -- reads ----------------------------------------------------------------
    def has_file(self, file_path: str) -> bool:
        """True when a file is stored under exactly this key."""
        try:
            return self.file_key(file_path) in self._files
        except PathError:
            return False

    def stored(self, file_path: str) -> StoredFile:
        """The stored file at ``file_path``; the framework's message when there is none (C2)."""
        try:
            return self._files[self.file_key(file_path)]
        except (KeyError, PathError):
            raise FileNotFound(f"File '{file_path}' not found in collection '{self.name}'") from None

    def read_text(self, file_path: str) -> str:
        """What Get on the file returns: its transformer's text, an image placeholder, or UTF-8 (C3-C5)."""
        stored = self.stored(file_path)
        try:
            return get_text(stored.file_path, stored.data)
        except UnreadableDocument as error:
            raise UnreadableDocument(
                f"Error accessing file '{file_path}' from collection '{self.name}': {error}"
            ) from None

    def items(self, folder: str = "") -> list[dict[str, Any]]:
        """What Get answers for a folder of the collection (UP2): its immediate sub-folders, then its files.

        Each item is ``{path, name, isFolder, lastModified}`` as the framework's hub JSON writes it: ``path``
        from the collection's root with a leading ``/``, and default values left out, so a folder reads
        ``{path, name, isFolder: true}`` and a file ``{path, name, lastModified}``. Nested files are listed
        only by listing their folder. Sub-folders and files each come in name order here; the framework
        gives them in its storage's order.
        """
        prefix = folder.strip("/") + "/" if folder.strip("/") else ""
        below = [key[len(prefix):] for key in self._files if key.startswith(prefix)]
        folders = sorted({rest.split("/", 1)[0] for rest in below if "/" in rest})
        files = sorted(rest for rest in below if "/" not in rest)
        return [{"path": f"/{prefix}{name}", "name": name, "isFolder": True} for name in folders] + [
            {"path": f"/{prefix}{name}", "name": name, "lastModified": self._files[prefix + name].last_modified}
            for name in files]

    def listing(self, folder: str = "") -> list[dict[str, Any]]:
        """Every stored file of the collection (or below one folder in it), nested ones included: agentkit's
        inventory, ``{filePath, sizeBytes}``. Not what Get answers; that is :meth:`items`."""
        prefix = folder.strip("/") + "/" if folder.strip("/") else ""
        return [
            {"filePath": f.file_path, "sizeBytes": len(f.data)}
            for f in (self._files[p] for p in sorted(self._files)) if f.file_path.startswith(prefix)
        ]

    def has_folder(self, folder: str) -> bool:
        """True when some stored file lies below ``folder``."""
        return bool(folder.strip("/")) and bool(self.listing(folder))

    def folder_listing(self, folder: str) -> list[dict[str, Any]] | None:
        """What the collection's store answers when Get lists ``folder`` after a failed file read (S1).

        An AzureBlob store lists a missing prefix as empty; a FileSystem store refuses a missing subfolder
        (``None``: the file read's error stands). Its "root missing -> empty" branch is never reached through
        Get: opening a FileSystem collection creates its folder (AttachMonitor), stored file or not.
        """
        if getattr(self.mesh, "content_store", FILE_SYSTEM) == AZURE_BLOB:
            return self.items(folder)
        return self.items(folder) if self.has_folder(folder) else None

    def document_node(self, file_path: str) -> Node:
        """The Document node at the stored file's Document path (written by indexing)."""
        return self.mesh.get(document_node_path(self.path, self.stored(file_path).file_path))
