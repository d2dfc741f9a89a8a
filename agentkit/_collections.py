"""Content collections: stored files, their Document nodes, their text and chunks.

Upload reads the file through its transformer first; only when that works
does it store the file, write the Document node at
``{collectionPath}/_Documents/{slug}`` and stage the chunks for the index.
A file that cannot be read leaves nothing behind.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._chunks import Chunk, split_chunks
from ._errors import DocumentSlugCollision, FileNotFound, PathError
from ._paths import DOCUMENTS_SEGMENT, document_node_path, refuse_dot_segments, split_node_id, split_segments
from ._transformers import extract_text

if TYPE_CHECKING:  # pragma: no cover
    from ._mesh import Mesh, Node

SUMMARY_LIMIT = 280
ELLIPSIS = "…"


def extractive_summary(text: str, limit: int = SUMMARY_LIMIT) -> str:
    """At most ``limit`` characters of the text (whitespace collapsed), then ``…`` when cut."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit]
    if flat[limit] != " " and " " in cut:
        cut = cut[: cut.rindex(" ")]  # end on a word boundary
    return cut.rstrip() + ELLIPSIS


@dataclass(frozen=True)
class StoredFile:
    """A file as the collection keeps it: its bytes, its text and its chunks."""

    file_path: str
    data: bytes
    mime: str
    text: str
    chunks: tuple[Chunk, ...]
    document_path: str


class ContentCollection:
    """A named collection of files attached to a node; its path is ``{node}/{name}``."""

    def __init__(self, mesh: "Mesh", address: str, name: str) -> None:
        segments = split_segments(name)
        # Judge the decoded name: '%2e%2e' is '..' and '%5fDocuments' is '_Documents'.
        if len(segments) != 1 or segments[0] in ("..", ".", DOCUMENTS_SEGMENT):
            raise PathError(f"Collection name '{name}' must be one path segment (not '.', '..' or '{DOCUMENTS_SEGMENT}')")
        self.mesh = mesh
        self.address = address
        self.name = segments[0]
        self.path = f"{address}/{self.name}"
        self._files: dict[str, StoredFile] = {}

    # -- paths ----------------------------------------------------------------
    def canonical_file_path(self, file_path: str) -> str:
        """Canonical form of a path inside this collection; '..' (plain or encoded) is refused."""
        if not isinstance(file_path, str):
            raise PathError(f"File path must be a string, got {file_path!r}")
        segments = split_segments(file_path.strip().strip("/"))
        refuse_dot_segments(file_path, segments, self.path)
        if segments[0] == DOCUMENTS_SEGMENT:
            raise PathError(f"File path '{file_path}': '{DOCUMENTS_SEGMENT}' is reserved for Document nodes")
        return "/".join(segments)

    # -- writes ---------------------------------------------------------------
    def upload(self, file_path: str, data: bytes, *, description: str | None = None) -> "Node":
        """Store a file and write its Document node; returns the Document node.

        Re-uploading the same path replaces the file and bumps the node's version.
        """
        from ._mesh import Node

        canonical = self.canonical_file_path(file_path)
        if not isinstance(data, (bytes, bytearray)):
            raise PathError(f"Upload of '{canonical}' needs bytes, got {type(data).__name__}")
        data = bytes(data)
        extracted, mime = extract_text(canonical, data, description)
        document_path = document_node_path(self.path, canonical)
        namespace, slug = split_node_id(document_path, None)
        owner = next((f for f in self._files.values() if f.document_path == document_path), None)
        if owner is not None and owner.file_path != canonical:
            raise DocumentSlugCollision(
                f"File '{canonical}' would share the Document node '{document_path}' with '{owner.file_path}' "
                f"(both slug to '{slug}'); rename one of them"
            )
        chunks = split_chunks(
            extracted.text, collection_path=self.path, file_path=canonical,
            document_path=document_path, page_starts=extracted.page_starts,
        )
        content = {
            "$type": "Document",
            "name": canonical.rsplit("/", 1)[-1],
            "summary": extractive_summary(extracted.text),
            "collectionPath": self.path,
            "filePath": canonical,
            "mime": mime,
            "sizeBytes": len(data),
            "contentHash": hashlib.sha256(data).hexdigest(),
            "chunkCount": len(chunks),
            "indexedAt": self.mesh.clock.now(),
        }
        previous = self.mesh.exists(document_path) and self.mesh.get(document_path)
        node = Node(
            id=slug,
            namespace=namespace,
            name=content["name"],
            node_type="Document",
            content=content,
            icon="Document",
            version=previous.version + 1 if previous else 1,
            typed=True,
        )
        self._files[canonical] = StoredFile(canonical, data, mime, extracted.text, chunks, document_path)
        written = self.mesh.put_node(node)
        self.mesh.index.stage_chunks(self.path, canonical, chunks)
        return written

    def delete(self, file_path: str) -> None:
        """Remove a file, its Document node and its chunks."""
        stored = self.stored(file_path)
        del self._files[stored.file_path]
        self.mesh.remove_node(stored.document_path)
        self.mesh.index.unstage_chunks(self.path, stored.file_path)

    def drop_from_index(self) -> None:
        """Stage the removal of every chunk of this collection (its node is being deleted)."""
        for file_path in self._files:
            self.mesh.index.unstage_chunks(self.path, file_path)

    # -- reads ----------------------------------------------------------------
    def stored(self, file_path: str) -> StoredFile:
        """The stored file at ``file_path`` (canonicalized first)."""
        canonical = self.canonical_file_path(file_path)
        try:
            return self._files[canonical]
        except KeyError:
            raise FileNotFound(f"File '{file_path}' not found in collection '{self.name}'") from None

    def read_text(self, file_path: str) -> str:
        """What Get on ``{collectionPath}/{filePath}`` returns: the transformer's full text."""
        return self.stored(file_path).text

    def listing(self) -> list[dict[str, Any]]:
        """The files of the collection, as Get on ``Node/content/`` lists them."""
        return [
            {"filePath": f.file_path, "mime": f.mime, "sizeBytes": len(f.data), "documentPath": f.document_path}
            for f in (self._files[p] for p in sorted(self._files))
        ]

    def document_node(self, file_path: str) -> "Node":
        """The Document node of a stored file."""
        return self.mesh.get(self.stored(file_path).document_path)

