"""The mesh's reads: Get on a unified path (N2-N9, C1-C6), the children listing, and Search (M2, M3).

Get reads the live nodes; the children listing and Search read the index, which lags until refreshed.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Any

from ._collections import ACTIVITY_SEGMENT, AZURE_BLOB, ContentCollection
from ._errors import CollectionNotFound, FileNotFound, NodeNotFound, PathError, UnreadableDocument
from ._host import UNIFIED_READ_TIMEOUT_SECONDS, ReadTimedOut
from ._index import clamp_limit
from ._index import _matches as index_matches
from ._node import Node
from ._paths import AREA_ROUTE, DEFAULT_COLLECTION, DOCUMENTS_SEGMENT, document_node_path, is_within, parse_path
from ._paths import resolve_tool_path as resolve_path  # MeshOperations.ResolvePath (N4)
from ._query import reserved, search_query
from ._transformers import IMAGE_MEDIA_TYPES, extension_of

SEARCH_TRUNCATED_HINT = (
    "Result set hit the limit — there may be more matches. Narrow the query (namespace:/nodeType:/name:) "
    "or raise 'limit' (max 200)."
)


@dataclass(frozen=True)
class Fetched:
    """What a Get on any unified path found: ``kind`` tells which value it is."""

    kind: str  # "node", "children", "collection", "file"
    value: Any


class MeshReads:
    """Get, the children listing and Search over the mesh (a part of :class:`~agentkit.Mesh`)."""

    def children(self, path: str) -> list[dict[str, Any]]:
        """``Get("X/*")`` (N6, M2): the query ``namespace:X`` over the index, which lags like Search.

        A bare array of ``{path, name, nodeType, icon}``, no limit; a parent
        that does not exist (or is not indexed yet) simply has no children.
        """
        parent = path[:-2] if path.endswith("/*") else path
        icons = {n.path: n.icon for n in self._nodes.values()}
        kids = [entry for entry in self.index.visible_nodes() if entry.namespace == parent]
        return [{"path": e.path, "name": e.name, "nodeType": e.node_type, "icon": icons.get(e.path)} for e in kids]

    def fetch(self, path: str) -> Fetched:
        """Get on a tool path, resolved as the framework's Get resolves it (N2-N4, C1-C6).

        The path is cleaned as a tool path (blanks, every quote, one leading ``@``; nothing decoded),
        then split at its first reserved word. ``path/*`` lists children. Without a reserved word the
        path is a node path (``Not found: {path}``). After ``content`` it names a file, a folder or a
        collection as C1 says; an image in collection ``content`` is answered by its Document node
        when indexing wrote one (C5). A content error falls back to a node at the whole path (a
        Document node under ``content/_Documents``) before it is answered, prefixed ``Error: ``.
        """
        unified = parse_path(path)
        resolved = unified.path
        if unified.kind == "children":
            return Fetched("children", self.children(unified.address))
        node = self._nodes.get(resolved)
        if unified.kind != "area":  # after the area route, before any split: an image's Document node (C5, CC6)
            image_document = self._image_document(resolved)
            if image_document is not None:
                return Fetched("node", image_document)
        try:
            legacy = self._legacy_colon_read(resolved, content_only=unified.kind != "content")
            if legacy is not None:
                return legacy
        except (CollectionNotFound, FileNotFound, UnreadableDocument, NodeNotFound, PathError) as error:
            if node is not None:
                return Fetched("node", node)
            raise type(error)(f"Error: {error}") from None
        if unified.kind == "node":
            if node is None:
                raise NodeNotFound(f"Not found: {resolved}")
            return Fetched("node", node)
        if unified.kind == "area" and not self.exists(unified.address) and unified.remainder != AREA_ROUTE:
            # The area route renders {node}/area/{Name} of the node at the path before 'area'; with no node
            # there it answers Not found for that path, unless a node stands at the whole path (UP1).
            if node is not None:
                return Fetched("node", node)
            raise NodeNotFound(f"Not found: {unified.address}")
        if unified.kind != "content" or not unified.address:
            # A layout area, a data/schema/model/menu reference or an old-form 'word:' reference: the
            # framework answers that read, and a node at the whole path only when the read fails (R12).
            what = "layout areas" if unified.kind == "area" else f"the reference '{unified.prefix}'"
            raise PathError(f"Error: agentkit models node and content paths only, not {what} ('{resolved}')")
        try:
            if self.read_seconds is not None and self.read_seconds(resolved) > UNIFIED_READ_TIMEOUT_SECONDS:
                raise ReadTimedOut(f"Timeout resolving '{unified.remainder}' at {unified.address}")
            return self._read_content(unified.address, unified.content_key or "")
        except (CollectionNotFound, FileNotFound, UnreadableDocument, ReadTimedOut) as error:
            if node is not None:
                return Fetched("node", node)  # the node namespace is authoritative (D4)
            raise type(error)(f"Error: {error}") from None

    def _legacy_colon_read(self, resolved: str, *, content_only: bool) -> Fetched | None:
        """Get tries the legacy form ``address/prefix:path`` before the slash form (S4): the address is what
        stands before the last ``/`` ahead of the first ``:``. So ``{node}/content:{file}`` reads a file,
        and a file whose path holds a ``:`` is never read by its slash path: the read goes to an address
        inside the collection, where routing finds no node. ``None`` when the colon form does not apply,
        or (``content_only``) names another prefix than ``content``; agentkit reads only ``content`` there."""
        colon = resolved.find(":")
        slash = resolved.rfind("/", 0, colon + 1) if colon > 0 else -1
        if slash <= 0:
            return None
        address, remainder = resolved[:slash], resolved[slash + 1:]
        prefix, sep, rest = remainder.partition(":")
        if not sep or not prefix:
            return None
        if address not in self._nodes:
            raise NodeNotFound(self._no_node_at(address))  # routing refuses the address first (R8), whatever the prefix
        if content_only and prefix.lower() != DEFAULT_COLLECTION:
            return None
        if prefix.lower() != DEFAULT_COLLECTION:
            raise PathError(f"agentkit models node and content paths only, not '{prefix}' ('{resolved}')")
        return self._read_content(address, rest.strip("/"))

    def _image_document(self, resolved: str) -> Node | None:
        """C5: an image read through ``{node}/content/{file}`` is answered by the Document node of
        ``{node}/content`` + ``{file}`` when it exists (the framework waits 3 s for it)."""
        marker, length = resolved.find("/content/"), len("/content/")
        if marker < 0:  # the old colon form, '{node}/content:{file}'
            marker, length = resolved.find("/content:"), len("/content:")
        if marker <= 0:
            return None
        file_path = resolved[marker + length:].lstrip("/")
        if not file_path or file_path.startswith(DOCUMENTS_SEGMENT + "/") or extension_of(file_path) not in IMAGE_MEDIA_TYPES:
            return None
        return self._nodes.get(document_node_path(f"{resolved[:marker]}/{DEFAULT_COLLECTION}", file_path))

    def _read_content(self, address: str, key: str) -> Fetched:
        """The content route (C1): ``content/`` lists collection ``content``; one segment is a file of
        ``content``, else the collection of that name; more segments are a key of ``content`` (file, then
        folder), else collection ``A`` with key ``B…``; when both miss, the ``content`` error is raised."""
        default = self.collections.get(f"{address}/{DEFAULT_COLLECTION}")
        if not key:
            if default is None:
                raise CollectionNotFound(f"Content collection '{DEFAULT_COLLECTION}' not found")
            return Fetched("collection", default.items())
        if "/" not in key:
            try:
                return self._read_file(default, DEFAULT_COLLECTION, key)
            except (CollectionNotFound, FileNotFound, UnreadableDocument):
                named = self.collections.get(f"{address}/{key}")
                if named is not None:
                    return Fetched("collection", named.items())
                raise
        try:
            return self._read_file_or_folder(default, DEFAULT_COLLECTION, key)
        except (CollectionNotFound, FileNotFound, UnreadableDocument) as default_error:
            name, _, inner = key.partition("/")
            try:
                return self._read_file_or_folder(self.collections.get(f"{address}/{name}"), name, inner)
            except (CollectionNotFound, FileNotFound, UnreadableDocument):
                raise default_error from None

    def _in_store(self, collection: ContentCollection, key: str) -> tuple[ContentCollection | None, str]:
        """Where the store reads the file ``key`` of ``collection``: the key joined to the collection's folder,
        its '.' and '..' resolved, which '..' can take outside the folder (into another collection's folder, or
        into no collection at all: ``None``). FileSystem joins with ``Path.Combine`` and the OS resolves (N8);
        AzureBlob puts the blob name in the blob's URL, whose dot segments are removed, as the Azure SDK versions
        whose source could be read do (N9: a later SDK refuses such a name; the pinned one is not settled)."""
        if not any(part in (".", "..") for part in key.split("/")):
            return collection, key
        target = posixpath.normpath(f"{collection.path}/{key}")
        owners = [c for c in self.collections.values() if is_within(target, c.path)]
        if not owners:
            return None, key
        owner = max(owners, key=lambda c: len(c.path))
        return owner, target[len(owner.path) + 1:]

    def _read_file(self, collection: ContentCollection | None, name: str, key: str) -> Fetched:
        if collection is None:
            raise CollectionNotFound(f"Content collection '{name}' not found")
        store, inner = self._in_store(collection, key)
        if store is collection and inner == key:
            return Fetched("file", collection.read_text(key))
        if store is None or not inner or not store.has_file(inner):
            raise FileNotFound(f"File '{key}' not found in collection '{name}'")
        try:  # a file outside the collection's folder, answered as if it were in it
            return Fetched("file", store.read_text(inner))
        except UnreadableDocument as error:
            raise UnreadableDocument(str(error).replace(f"'{inner}' from collection '{store.name}'",
                                                        f"'{key}' from collection '{name}'", 1)) from None

    def _read_file_or_folder(self, collection: ContentCollection | None, name: str, key: str) -> Fetched:
        """ReadFileOrListFolder: the file, else the folder listing of that name, as the store answers it
        (S1: an empty listing on an AzureBlob store; a FileSystem store refuses a missing folder). A
        FileSystem store lists the folder the key reaches; AzureBlob lists the blobs whose names start with
        the key as sent (a query parameter, not resolved), so a key with '..' lists as empty (N9)."""
        try:
            return self._read_file(collection, name, key)
        except (FileNotFound, UnreadableDocument):
            if self.content_store == AZURE_BLOB:
                listed = collection.folder_listing(key) if collection is not None else None
                if listed is not None:
                    return Fetched("collection", listed)
                raise
            store, inner = self._in_store(collection, key) if collection is not None else (None, key)
            if store is not None and not inner:
                return Fetched("collection", store.items())  # '..' reached a collection's own folder
            listed = store.folder_listing(inner) if store is not None else None
            if listed is not None:
                return Fetched("collection", listed)
            raise

    def search(self, query: str = "", base_path: str | None = None, limit: Any = 50) -> dict[str, Any]:
        """Search as the framework does (M3): over the index (which lags), ``{count, limit, truncated, results, hint?}``.

        ``limit`` is clamped to 1..200. A ``base_path`` turns the query into
        ``namespace:{base_path} …`` (its own ``namespace:`` words dropped): the
        direct children of ``base_path``, or its subtree when the query names a
        ``scope:``. As in the framework's QueryParser (MQ3), a ``path:`` and a
        ``namespace:`` token set the same location, the later one winning, and
        a ``namespace:`` makes the default scope the children: ``path:X`` with a
        ``base_path`` lists X's children. ``path:X`` alone is the node X.
        The location loses its leading and trailing ``/``, as in the framework's
        query providers: ``namespace:/Meridian/Facts`` lists Meridian/Facts' children.
        ``truncated`` is ``count >= limit``; ``hint`` appears only then.
        """
        clamped = clamp_limit(limit, 50)
        parsed = reserved(search_query(query, base_path))
        base = parsed.path or None
        if base is not None:  # the providers trim '/' off the location (NormalizePath); a namespace is a path
            base = (resolve_path(base) if parsed.by_namespace else base).strip("/")
        # A namespace's subtree drops the namespace itself (the parser reads it as Descendants).
        with_self = parsed.scoped and parsed.scope == "subtree"

        def located(entry: Any) -> bool:
            if parsed.alternation:  # agentkit does not model a namespace alternation `namespace:A|B`: no match
                return False
            if not base:
                return True
            if parsed.scoped:
                return is_within(entry.path, base) and (with_self or entry.path != base)
            return entry.namespace == base if parsed.namespace_used else entry.path == base

        # Activity nodes live in their own table (SatelliteTableMapping: `_Activity` -> activities): a query reads it
        # only when its location has an `_Activity` segment or it filters nodeType:Activity; any other query
        # leaves them out (PostgreSqlPartitionedMeshQuery.ResolveTable; the in-memory provider filters alike).
        # The framework does so for every configured satellite segment; agentkit writes only Activity satellites.
        activities = bool(base) and ACTIVITY_SEGMENT in base.split("/") or any(
            term.field.lower() == "nodetype" and term.value.lower() == "activity" for term in parsed.rest)

        def in_table(entry: Any) -> bool:
            return activities or ACTIVITY_SEGMENT not in entry.path.split("/")

        matches = [entry.row() for entry in self.index.visible_nodes()
                   if located(entry) and in_table(entry) and index_matches(entry, parsed.rest)]
        if getattr(self.index, "content_rows", False):  # a PostgreSQL-backed mesh adds Document rows (K8)
            matches += self.index.synthetic_document_rows(parsed.text)
        shown = matches[:clamped]
        envelope: dict[str, Any] = {
            "count": len(shown),
            "limit": clamped,
            "truncated": len(shown) >= clamped,
            "results": shown,
        }
        if envelope["truncated"]:
            envelope["hint"] = SEARCH_TRUNCATED_HINT
        return envelope

    def indexed_subtree(self, root: str) -> list[str]:
        """The paths the index shows at ``root`` and below (``path:{root} scope:subtree``): it lags like Search (M2)."""
        return sorted(entry.path for entry in self.index.visible_nodes() if is_within(entry.path, root))

    def refresh_index(self) -> int:
        """Make every pending write visible to Search; returns how many were applied."""
        return self.index.refresh()
