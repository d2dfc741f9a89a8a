"""The mesh: typed nodes, the content-type registry and the node operations.

Modelled on the framework's MeshOperations at the pinned commit (facts M2-M14):
Create repairs JSON and checks identity in the framework's order, with its
texts; content is deserialized into the type its ``$type`` names, unknown
fields dropped without an error (M7); a string ``$type`` that resolves in no
registry is refused on a built-in node type (M8, ``Mesh.builtin_node_types``)
and stored untyped otherwise; Update replaces whole nodes one by one; Patch
changes node-level keys and merge-patches only ``content``; Move and Copy read
the subtree from the index, which lags.

Host wiring (as a host chooses it): ``content_store`` is the store behind the collections' files,
"FileSystem" (the framework's registration, the default) or "AzureBlob" (S1); on either, ``..`` in a
content key read by Get is resolved against the collection's folder and can leave it (N8, N9);
``partition_guard=True`` (off by default) is a host with row-level security, whose partition guard
refuses a create in the mirror partitions ``User`` and ``Auth``, a top-level node of a type that owns no
partition and a create into a missing partition other than the ``caller``'s own (H1, MQ6, MQ7).

Extensions (agentkit only, off by default): ``strict=True`` refuses content
the framework would store with fields dropped or untyped; ``create_many``
backs the ``BulkCreate`` tool. Every :class:`CreateResult` reports the
dropped field names.
"""

from __future__ import annotations

import copy
import json
import posixpath
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ._errors import (
    AgentkitError,
    CollectionNotFound,
    CreateError,
    FileNotFound,
    InvalidJson,
    MalformedNamespace,
    MisplacedSatellite,
    MissingField,
    NodeExists,
    NodeNotFound,
    NotPatchable,
    PathError,
    SchemaMismatch,
    StrictContentError,
    UnregisteredDiscriminator,
    UnregisteredNodeType,
    UnreadableDocument,
)
from ._collections import ACTIVITY_SEGMENT, AZURE_BLOB, CONTENT_STORES, FILE_SYSTEM, ContentCollection
from ._index import SearchIndex, clamp_limit
from ._index import _matches as index_matches
from ._paths import (
    AREA_ROUTE, DEFAULT_COLLECTION, DOCUMENTS_SEGMENT, UnifiedPath, document_node_path, is_within, parse_path, split_node_id,
)
from ._paths import resolve_tool_path as resolve_path  # MeshOperations.ResolvePath (N4)
from ._node import Node, StepClock
from ._transformers import IMAGE_MEDIA_TYPES, extension_of


_JSON_KINDS: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


@dataclass(frozen=True)
class ContentType:
    """A registered content type: its ``$type`` name and its fields with their JSON kinds.

    Kinds are ``string``, ``number``, ``integer``, ``boolean``, ``array``,
    ``object``; ``null`` is accepted for every field. A kind ending in ``?``
    (``number?``) is a nullable value type (``decimal?``): its default is
    null, so the framework's JSON writes a stored ``0`` or ``false`` (M7).
    """

    name: str
    fields: Mapping[str, str]
    # A type with a [JsonExtensionData] bag (MarkdownContent, CodeConfiguration: M7) keeps unknown fields.
    keeps_unknown_fields: bool = False

    def __post_init__(self) -> None:
        unknown = sorted(kind for kind in self.fields.values() if kind.removesuffix("?") not in _JSON_KINDS)
        if unknown:
            raise ValueError(f"ContentType '{self.name}': unknown field kind(s) {unknown}; use {sorted(_JSON_KINDS)}")

    @property
    def nullable_fields(self) -> frozenset[str]:
        """The fields declared nullable (kind ending in ``?``)."""
        return frozenset(name for name, kind in self.fields.items() if kind.endswith("?"))

    def deserialize(self, raw: Mapping[str, Any], node_type: str) -> tuple[dict[str, Any], tuple[str, ...]]:
        """Keep the known fields (checking their JSON kind); return them and the dropped names."""
        typed: dict[str, Any] = {"$type": self.name}
        dropped = []
        for key, value in raw.items():
            if key == "$type":
                continue
            kind = self.fields.get(key)
            if kind is None:
                if self.keeps_unknown_fields:
                    typed[key] = copy.deepcopy(value)
                else:
                    dropped.append(key)
                continue
            kind = kind.removesuffix("?")
            if value is not None and not _matches(value, kind):
                # M6: the opening is the framework's; the detail stands in for .NET's JsonException text.
                raise SchemaMismatch(
                    f"Error: Content does not match the schema for NodeType '{node_type}'. Field '{key}' "
                    f"of $type '{self.name}' expects {kind}, got {_json_kind(value)} {json.dumps(value)}."
                )
            typed[key] = copy.deepcopy(value)
        return typed, tuple(dropped)


def _matches(value: Any, kind: str) -> bool:
    if isinstance(value, bool) and kind != "boolean":
        return False
    return isinstance(value, _JSON_KINDS[kind])


def _json_kind(value: Any) -> str:
    for kind in _JSON_KINDS:
        if _matches(value, kind) and kind != "integer":
            return kind
    return type(value).__name__


DOCUMENT_TYPE = ContentType(
    "Document",
    {
        "name": "string",
        "summary": "string",
        "collectionPath": "string",
        "filePath": "string",
        "mime": "string",
        "sizeBytes": "integer",
        "contentHash": "string",
        "chunkCount": "integer",
        "indexedAt": "string",
    },
)


# The content of the framework's built-in node type Markdown (MarkdownContent.cs); its UnknownMembers
# bag keeps fields it does not declare (M7), so nothing is dropped silently here.
MARKDOWN_TYPE = ContentType(
    "MarkdownContent",
    {"content": "string", "prerenderedHtml": "string", "codeSubmissions": "array", "authors": "array",
     "tags": "array", "thumbnail": "string", "abstract": "string"},
    keeps_unknown_fields=True,
)


# The node types whose NodeTypeDefinition.OwnsPartition is true (H1): the only ones a partition guard lets into the
# root namespace.
PARTITION_OWNING_TYPES = ("User", "Space")
# WellKnownPartitions.Mirror (MQ6): the system-managed lookup mirror, which the partition guard closes to every
# caller but the system. Matched ignoring case.
MIRROR_PARTITIONS = ("User", "Auth")
# The partition stores a host may register (IPartitionStorageProvider), and those whose PartitionExists answers
# (MR2): only PostgreSQL and Snowflake read their schemas; every other store keeps the interface's default, null
# ("cannot tell"). The guard refuses a missing partition only when every registered store answers "no".
PARTITION_STORES = ("PostgreSql", "Snowflake", "FileSystem", "InMemory", "Sqlite", "Cosmos", "AzureBlob",
                    "EmbeddedResource", "StaticNode")
PARTITION_STORES_THAT_ANSWER = ("PostgreSql", "Snowflake")


def search_query(query: str | None, base_path: str | None) -> str:
    """The query Search runs (M3, Q1): with a ``basePath``, every ``namespace:`` is deleted from the query (its
    value stays, as free text) and ``namespace:{basePath}`` is put in front; without one, the query as sent."""
    base = resolve_path(base_path) if isinstance(base_path, str) else None
    if not base:
        return query or ""
    return f"namespace:{base} {(query or '').replace('namespace:', '').strip()}".strip()


@dataclass(frozen=True)
class CreateResult:
    """What Create did: the node written and the content fields it dropped silently."""

    node: Node
    dropped_fields: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        return self.node.path

    @property
    def message(self) -> str:
        """The framework's tool result text."""
        return f"Created: {self.path}"


@dataclass(frozen=True)
class Fetched:
    """What a Get on any unified path found: ``kind`` tells which value it is."""

    kind: str  # "node", "children", "collection", "file"
    value: Any


@dataclass
class Mesh:
    """An in-process mesh of typed nodes with an eventually consistent search index.

    ``strict=False`` (the default) behaves as the framework: unknown content
    fields are dropped silently. ``strict=True`` refuses them, naming them.
    ``content_store`` and ``read_seconds`` are the host's wiring and speed (S1, S2).
    """

    strict: bool = False  # agentkit extension: refuse what the framework would drop silently
    canonical_paths: bool = False  # agentkit extension: content keys percent-decoded and NFC-composed (C6: the framework does neither)
    # Host wiring: `partition_guard=True` models a host that calls AddRowLevelSecurity (memex does), whose
    # PartitionWriteGuardValidator refuses a create in the User/Auth mirror, a top-level node of a type that owns
    # no partition and a create into a partition no store has (H1, MQ6, MQ7). agentkit's caller holds every
    # permission and the host has no self-healing partition bootstrap, so the guard's texts are what such a
    # Create answers.
    partition_guard: bool = False
    # Host wiring, with `partition_guard`: the caller's user id (the create's CreatedBy). The guard lets a caller
    # write into its own partition, a partition of that name (MQ7), and names it in its refusals; None: no id.
    caller: str | None = None
    # Host wiring, with `partition_guard`: the host's registered partition stores (MR2). The missing-partition rule
    # refuses only when every one of them can report a missing partition (PostgreSql, Snowflake); with a file-system,
    # in-memory or built-in (static, embedded) store among them, a create into a missing partition passes. The
    # default is memex on PostgreSQL with every static partition synced.
    partition_stores: tuple[str, ...] = ("PostgreSql",)
    # Host wiring (S1): the store behind the collections' files. "FileSystem" is the framework's own
    # registration and memex's deployed store; "AzureBlob" lists a missing folder as empty, so Get
    # answers [] where a FileSystem store answers the file's error. Both keep the collections' files as
    # folders (blob prefixes) of one tree (agentkit's layout: `{node}/{collection}`), and both resolve a
    # key's '.' and '..' when they read a file, so '..' can leave the collection's folder (N8, N9). For AzureBlob
    # that is the Azure SDK as far as its source could be read; a later SDK source refuses a name with '..'
    # instead, and which the pinned version does is not settled (N9): agentkit models the climbing read.
    content_store: str = FILE_SYSTEM
    # Host speed (S2): seconds the host takes to answer Get's unified read of a path, or None for no
    # delay; past UNIFIED_READ_TIMEOUT_SECONDS Get answers its timeout error instead.
    read_seconds: Callable[[str], float] | None = None
    clock: StepClock = field(default_factory=StepClock)
    index: SearchIndex = field(default_factory=SearchIndex)
    content_types: dict[str, ContentType] = field(default_factory=dict)
    collections: dict[str, ContentCollection] = field(default_factory=dict)
    # Node types the host registers in-process (the framework's built-ins, no compile source): on them an
    # unregistered '$type' is refused (M8). Any other node type counts as DB-defined or compiled.
    builtin_node_types: set[str] = field(default_factory=set)
    # Every other NodeType the host registers (configured or compiled: a static node at the type's path).
    # Create refuses a nodeType that is neither here, built in, nor the path of a node (a NodeType
    # defined in the mesh): the mesh's NodeType existence check.
    node_types: set[str] = field(default_factory=set)
    _nodes: dict[str, Node] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.content_store not in CONTENT_STORES:
            raise ValueError(f"content_store must be one of {CONTENT_STORES}, got {self.content_store!r}")
        unknown_stores = [store for store in self.partition_stores if store not in PARTITION_STORES]
        if unknown_stores:
            raise ValueError(f"partition_stores must be drawn from {PARTITION_STORES}, got {unknown_stores}")
        self.register_type(DOCUMENT_TYPE)
        self.node_types.add("Document")  # the host wires content indexing, which registers the Document NodeType

    # -- registry -----------------------------------------------------------
    def register_type(self, content_type: ContentType) -> None:
        """Register a content type under its ``$type`` name (re-registering replaces it)."""
        self.content_types[content_type.name] = content_type

    def register_node_type(self, name: str, *, builtin: bool = False) -> None:
        """Register a NodeType the host configures; ``builtin`` marks one without compile source (M8)."""
        (self.builtin_node_types if builtin else self.node_types).add(name)

    def knows_node_type(self, name: str) -> bool:
        """The create handler's check: a static NodeType node at ``name`` (registered here) or a node at that path."""
        return name in self.node_types or name in self.builtin_node_types or name in self._nodes

    # -- reads --------------------------------------------------------------
    def exists(self, path: str) -> bool:
        """True when a node stands at ``path`` (already canonical)."""
        return path in self._nodes

    def get(self, path: str) -> Node:
        """The node at ``path``; the path is canonicalized first (percent-decode, NFC)."""
        return self._node(parse_path(path, is_node=self.exists), path)

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
        words = search_query(query, base_path).split()
        base, namespace_used = None, False
        for word in words:  # QueryParser.ExtractReservedQualifiers: one `path` variable for both tokens
            key, _, value = word.partition(":")
            if key.lower() == "path" and value:
                base = value.strip("/")
            elif key.lower() == "namespace" and value:  # the providers trim '/' off the location (NormalizePath)
                base, namespace_used = resolve_path(value).strip("/"), True
        words = [w for w in words if w.partition(":")[0].lower() not in ("namespace", "path")]
        scopes = [w[len("scope:"):].lower() for w in words if w.startswith("scope:")]
        scoped = bool(scopes)
        with_self = scoped and scopes[-1] == "subtree" and not namespace_used  # a namespace's subtree drops itself
        terms = " ".join(w for w in words if not w.startswith("scope:"))

        def located(entry: Any) -> bool:
            if not base:
                return True
            if scoped:
                return is_within(entry.path, base) and (with_self or entry.path != base)
            return entry.namespace == base if namespace_used else entry.path == base

        # Activity nodes live in their own table (SatelliteTableMapping: `_Activity` -> activities): a query reads it
        # only when its location has an `_Activity` segment or it filters nodeType:Activity; any other query
        # leaves them out (PostgreSqlPartitionedMeshQuery.ResolveTable; the in-memory provider filters alike).
        # The framework does so for every configured satellite segment; agentkit writes only Activity satellites.
        activities = bool(base) and ACTIVITY_SEGMENT in base.split("/") or any(
            w.partition(":")[0].lower() == "nodetype" and w.partition(":")[2].lower() == "activity" for w in words)

        def in_table(entry: Any) -> bool:
            return activities or ACTIVITY_SEGMENT not in entry.path.split("/")

        matches = [entry.row() for entry in self.index.visible_nodes()
                   if located(entry) and in_table(entry) and index_matches(entry, terms)]
        if getattr(self.index, "content_rows", False):  # a PostgreSQL-backed mesh adds Document rows (K8)
            matches += self.index.synthetic_document_rows(terms)
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

    # -- writes (MeshOperations.Create/Update/Patch/EditContent/Delete/Move/Copy) --
    def create(self, node: str | Mapping[str, Any], *, strict: bool | None = None) -> CreateResult:
        """Create one node from JSON text or a mapping, as the framework's Create (M4-M9).

        Refusals raise a :class:`CreateError` whose text is the framework's
        answer; nothing is written then.
        """
        data = _node_json(node, invalid_tip=True)
        candidate = self._identified(data, "create")
        built = self._build(data, candidate, strict=strict)
        misplaced = misplaced_satellite(built.node, "mainNode" in data, _path_as_sent(data))
        if misplaced is not None:
            raise MisplacedSatellite(f"Error creating node: {misplaced}")
        if built.node.path in self._nodes:
            raise NodeExists(f"Error creating node: Node already exists: {built.node.path}")
        self._refuse_discriminator(built.node, existing=None, prefix="Error creating node: ")
        if self.partition_guard:  # the validators run before the NodeType check (MeshExtensions.cs:525)
            self._refuse_by_partition_guard(built.node)
        if not self.knows_node_type(built.node.node_type):
            raise UnregisteredNodeType(f"Error creating node: NodeType '{built.node.node_type}' is not registered")
        return replace(built, node=self.put_node(built.node))

    def _refuse_by_partition_guard(self, node: Node) -> None:
        """PartitionWriteGuardValidator's create rules 1, 3 and 2 (H1, MQ6, MQ7), for a caller other than the system.

        A node in the mirror partitions ``User`` and ``Auth`` is refused, unless it is a legacy satellite
        (``User/{user}/_…``), which the guard lets through at once. A node in the root namespace must be of a
        type that owns a partition (``User``, ``Space``); a node below one needs its partition (the first
        segment) to exist, unless it is a ``Space``, the partition is the caller's own (``caller``) or starts
        with ``_``. Here a partition exists when any node lies in it, and a missing one is refused only when
        every store in ``partition_stores`` can say so (none: no probe, the create passes; MR2). The
        framework's guard refuses Update in the mirror too; agentkit's Update does not run the guard.
        """
        segments = [segment for segment in node.path.split("/") if segment]
        partition = segments[0] if segments else ""
        if partition.lower() in (mirror.lower() for mirror in MIRROR_PARTITIONS):
            if len(segments) >= 3 and segments[2].startswith("_"):
                return
            raise CreateError(
                f"Error creating node: The '{partition}' partition is a system-managed lookup mirror (users, groups, "
                "roles, tokens) written only by the platform middleware. Cannot Create "
                f"'{node.path}' there. Put your content in your own space ('{self.caller or ''}/…') or a Space you create."
            )
        if not node.namespace and node.node_type not in PARTITION_OWNING_TYPES:
            raise CreateError(
                f"Error creating node: Cannot create '{node.path}' at the top level: the root namespace ('') is "
                "reserved for partition roots, so a top-level node MUST be a partition-owning type — it must be a "
                f"Space (which provisions the partition's schema). A '{node.node_type or 'untyped'}' node does not "
                "own a partition (only User and Space do). Create it as a Space (inspect the required shape via its "
                f"content schema at 'Space/schema'), or put your content in your own space "
                f"('{self.caller or '<your-id>'}/{node.id}')."
            )
        if node.node_type.lower() == "space" or partition.startswith("_"):
            return
        if self.caller and partition.lower() == self.caller.lower():  # the caller's own partition
            return
        if not self.partition_stores or not all(store in PARTITION_STORES_THAT_ANSWER for store in self.partition_stores):
            return  # some store cannot tell (null), or no store at all: the guard lets the create through (MR2)
        if not any(path == partition or path.startswith(partition + "/") for path in self._nodes):
            raise CreateError(
                f"Error creating node: Space '{partition}' does not exist. Writing never creates a space implicitly "
                "(\"no partition, no write\") — create the space explicitly first, then write into it. "
                f"Cannot create '{node.path}'."
            )

    def create_many(self, nodes: str | list[Mapping[str, Any]], *, strict: bool | None = None) -> list[CreateResult | CreateError | StrictContentError]:
        """agentkit extension (M14: the framework has no bulk create): create each node of a JSON array.

        Each item succeeds or fails on its own, exactly as the same items sent
        as separate Create calls would; a failed item writes nothing.
        """
        items = _parse_array(nodes, "nodes")
        outcomes: list[CreateResult | CreateError | StrictContentError] = []
        for item in items:
            try:
                outcomes.append(self.create(item if isinstance(item, Mapping) else json.dumps(item), strict=strict))
            except (CreateError, StrictContentError) as error:
                outcomes.append(error)
        return outcomes

    def update(self, nodes: str | list[Mapping[str, Any]], *, strict: bool | None = None) -> list[CreateResult | AgentkitError]:
        """Replace whole nodes (M10): one outcome per node, in input order; each node stands alone.

        A whole-input refusal (``Invalid JSON: …``, ``No nodes provided.``)
        raises; a refused node is an outcome and leaves that node as it was.
        """
        items = _parse_array(nodes, "nodes", repair=True)
        if not items:
            raise CreateError("No nodes provided.")
        outcomes: list[CreateResult | CreateError | StrictContentError] = []
        for item in items:
            try:
                outcomes.append(self._update_one(item, strict=strict))
            except AgentkitError as error:
                outcomes.append(error)
        return outcomes

    def _update_one(self, item: Any, *, strict: bool | None) -> CreateResult:
        if item is None:
            raise CreateError("Error: array contained a null entry. Each array element must be a complete MeshNode JSON object.")
        data = _node_json(item, invalid_tip=False)
        candidate = self._identified(data, "update")
        if data.get("content") is None:
            raise MissingField(self._null_content_error(candidate.path, candidate.node_type))
        built = self._build(data, candidate, strict=strict)
        existing = self._nodes.get(built.node.path)
        if existing is None:
            raise NodeNotFound(f"Error updating {built.node.path}: Node not found: {built.node.path}")
        self._refuse_discriminator(built.node, existing=existing, prefix=f"Error updating {built.node.path}: ")
        return self._overwrite(existing, built)

    def patch(self, path: str, fields: str | Mapping[str, Any], *, strict: bool | None = None) -> CreateResult:
        """Patch one node (M11): node-level keys; ``content`` is merge-patched (RFC 7396) onto object content.

        Patchable keys: ``name``, ``description``, ``icon``, ``category``,
        ``order``, ``content``, ``preRenderedHtml``, ``mainNode``; any other key
        is refused, naming it. ``content: null`` and an empty ``name`` are
        refused. Refusals raise with the framework's text and write nothing.
        """
        if not isinstance(path, str) or not path.strip():
            raise PathError("Error: path is required.")
        resolved = resolve_path(path)
        if not resolved.strip():
            raise PathError("Error: path is required.")
        if fields is None:  # RepairJson hands null back; JsonNode.Parse(null) throws outside the JsonException catch (MQ1)
            raise TypeError("Patch: fields is null")
        patch_doc = _parse_patch(fields)
        if "name" in patch_doc and (patch_doc["name"] is None or not str(patch_doc["name"]).strip()):
            raise MissingField(
                f"Error: cannot patch {resolved}: 'name' is empty. "
                "Provide a non-empty human-readable display name, or omit the 'name' key."
            )
        existing = self._nodes.get(resolved)
        if existing is None:
            raise NodeNotFound(
                f"Error: node not found at {resolved}. The path must be the node's exact 'path' property "
                "(never its display name). Locate it with Search (e.g. Search('name:\"…the name…\"')) and "
                "retry with the 'path' value from the match; to create a new node instead, use Create."
            )
        if "content" in patch_doc and patch_doc["content"] is None:
            raise MissingField(self._null_content_error(existing.path, existing.node_type))
        unpatchable = [key for key in patch_doc if key.lower() not in _PATCHABLE_LOWER]
        if unpatchable:
            names = ", ".join(f"'{key}'" for key in unpatchable)
            raise NotPatchable(
                f"Error: cannot patch {resolved}: {names} {'is' if len(unpatchable) == 1 else 'are'} not patchable. "
                f"Patchable fields: {', '.join(sorted(PATCHABLE_FIELDS, key=str.lower))}. "
                "Identity and audit fields (id, path, namespace, version, created*, lastModified*) are "
                "owned by the mesh; to change a node's shape beyond these, use Update with the full node."
            )
        refuse_non_string_fields(patch_doc, "Error: ")  # where the framework deserializes the patch into a MeshNode
        content = existing.content
        if isinstance(patch_doc.get("content"), Mapping) and isinstance(existing.content, Mapping):
            content = merge_patch(existing.content, patch_doc["content"])
        elif "content" in patch_doc:
            # A non-object replaces (RFC 7396). An object sent onto no or non-object content is taken
            # as is, nulls kept: MeshOperations.cs:1606-1611 merges only onto object content.
            content = copy.deepcopy(patch_doc["content"])
        # Keys are applied exactly as spelled; a key matching only case-insensitively passes the check
        # above and changes nothing, as in the framework.
        def chosen(key: str, current: Any) -> Any:
            return patch_doc[key] if key in patch_doc else current
        order = chosen("order", existing.order)
        if order is not None and (isinstance(order, bool) or not isinstance(order, int)):
            raise InvalidJson(f"Invalid JSON: 'order' must be an integer, got {json.dumps(order)}")
        if "content" in patch_doc:  # the merged content is deserialized again: unknown fields drop (M7)
            merged_content, typed, dropped = self._deserialize(
                content, existing.node_type, self.strict if strict is None else strict)
        else:
            merged_content, typed, dropped = existing.content, existing.typed, ()
        merged = replace(
            existing,
            name=chosen("name", existing.name),
            description=chosen("description", existing.description),
            icon=chosen("icon", existing.icon),
            category=chosen("category", existing.category),
            order=order,
            pre_rendered_html=chosen("preRenderedHtml", existing.pre_rendered_html),
            main_node=chosen("mainNode", existing.main_node),
            content=merged_content,
            typed=typed,
        )
        return self._overwrite(existing, CreateResult(merged, dropped))

    def edit_content(self, path: str, old_text: str, new_text: str, replace_all: bool = False) -> tuple[CreateResult, int]:
        """EditContent: replace an exact snippet in a Markdown body, a Code source or string content.

        Returns the written node and the number of replacements. Markdown
        re-rendering (pre-rendered HTML) is not modelled.
        """
        if not isinstance(path, str) or not path.strip():
            raise PathError("Error: path is required.")
        if not old_text:
            raise CreateError("Error: oldText is required — Get the node and copy the exact text to replace, including whitespace.")
        if old_text == new_text:
            raise CreateError("Error: oldText and newText are identical — nothing to change.")
        resolved = resolve_path(path)
        existing = self._nodes.get(resolved)
        if existing is None:
            raise NodeNotFound(
                f"Error: node not found at {resolved}. The path must be the node's exact 'path' property — "
                "locate it with Search and retry with the 'path' value from the match."
            )
        content = existing.content
        text_key = _EDITABLE_TEXT_KEYS.get(content.get("$type")) if isinstance(content, Mapping) else None
        text = content if isinstance(content, str) else content.get(text_key) if text_key else None
        if not isinstance(text, str):
            kind = ("empty" if content is None else
                    content.get("$type") if isinstance(content, Mapping) and existing.typed else "JsonElement")
            raise CreateError(
                f"Error: cannot edit {resolved}: its content is {kind}, not editable text. EditContent works on "
                "Markdown and Code nodes; for structured content use Patch with the full 'content' object."
            )
        count = _count_occurrences(text, old_text)
        if count == 0:
            raise CreateError(
                f"Error: the text to replace was not found in {resolved}. Get the node and copy the "
                "exact text — including whitespace and line breaks — then retry. "
                f"(Current content is {len(text)} chars.)"
            )
        if count > 1 and not replace_all:
            raise CreateError(
                f"Error: the text to replace occurs {count} times in {resolved}. Include more "
                "surrounding context to make the match unique, or set replaceAll=true to change every occurrence."
            )
        replaced = text.replace(old_text, new_text)
        new_content = replaced if isinstance(content, str) else {**content, text_key: replaced}
        return self._overwrite(existing, CreateResult(replace(existing, content=new_content))), count

    def delete(self, paths: str | list[str]) -> list[str]:
        """Delete each node and everything below it (M12); returns every deleted path, parents first.

        The Python API refuses a missing path before deleting anything; the
        Delete tool answers one line per requested path, as the framework does.
        """
        targets = _parse_array(paths, "paths")
        resolved = []
        for target in targets:
            if not isinstance(target, str):
                raise InvalidJson(f"Invalid JSON: Delete expects paths as strings, got {json.dumps(target)}")
            path = resolve_path(target)
            if path not in self._nodes:
                raise NodeNotFound(f"Error deleting {path}: Node not found: {path}")
            resolved.append(path)
        deleted: list[str] = []
        for root in resolved:
            deleted += self._delete_subtree(root)
        return deleted

    def _delete_subtree(self, root: str) -> list[str]:
        deleted = self._subtree(root)
        for path in deleted:
            del self._nodes[path]
            self.index.stage_remove(path)
        gone = set(deleted)
        for collection_path in [p for p, c in self.collections.items() if c.address in gone]:
            self.collections.pop(collection_path).drop_from_index()
        if deleted:
            self.clock.tick()
        return deleted

    def move(self, source_path: str, target_path: str) -> int:
        """Move a node and its subtree to ``target_path`` (M12); returns how many nodes were written.

        As in the framework, the nodes to carry are read from the index (it
        lags: a node not yet indexed is not carried), the target root must not
        exist, and then the source subtree is deleted from the live mesh.
        """
        for value, name in ((source_path, "sourcePath"), (target_path, "targetPath")):
            if not isinstance(value, str) or not value.strip():
                raise PathError(f"Error: {name} is required.")
        source, target = resolve_path(source_path), resolve_path(target_path)
        if source == target:
            raise PathError(f"Error: target path is the same as source ({source}).")
        failure = f"Error moving {source} -> {target}: "
        routable = {entry.path for entry in self.index.visible_nodes()} & self._nodes.keys()
        if source not in routable:
            # R8: the request goes to the source's address, which routing resolves with a 'path:' query (it
            # lags like Search); an address the query does not show is refused. agentkit has no route cache, so
            # the copy's 'Source node not found' (a route cached while the query misses the node) is not reached.
            raise NodeNotFound(failure + self._no_node_at(source, routable))
        indexed = self.indexed_subtree(source)
        self._refuse_collections(source, "move")
        if target in self._nodes:
            raise NodeExists(f"{failure}Node already exists: {target} (TargetAlreadyExists)")
        taken = [p for p in indexed if target + p[len(source):] in self._nodes]
        if taken:
            raise NodeExists(f"{failure}Node already exists: {target + taken[0][len(source):]} (TargetAlreadyExists)")
        written = [self._place(self._nodes[p], target + p[len(source):]) for p in indexed if p in self._nodes]
        self._delete_subtree(source)
        return len(written)

    def _no_node_at(self, address: str, known: Collection[str] | None = None) -> str:
        """Routing's refusal of an address with no node (R8), naming the closest ancestor among ``known`` (all nodes)."""
        known = self._nodes if known is None else known
        segments = address.split("/")
        ancestors = ["/".join(segments[:n]) for n in range(len(segments) - 1, 0, -1)]
        prefix = next((path for path in ancestors if path in known), None)
        if prefix is None:
            return f"No node found at '{address}'."
        return (f"No node found at '{address}'. Closest ancestor is '{prefix}' "
                f"(remainder='{address[len(prefix) + 1:]}'). "
                "This usually means the node is missing, has no NodeType, or has an invalid NodeType.")

    def copy(self, source_path: str, target_namespace: str, force: bool = False) -> int:
        """Copy a node and its subtree under ``target_namespace`` (M13); returns how many nodes were written.

        Ids are kept; a path is rewritten relative to the source's namespace.
        The subtree is read from the index (it lags, M2). An existing target
        node is skipped (not counted) unless ``force``; Copy carries name,
        nodeType, icon, category and content (not order).
        """
        for value, name in ((source_path, "sourcePath"), (target_namespace, "targetNamespace")):
            if not isinstance(value, str) or not value.strip():
                raise PathError(f"Error: {name} is required.")
        source, target = resolve_path(source_path), resolve_path(target_namespace)
        indexed = [p for p in self.indexed_subtree(source) if p in self._nodes]
        if source not in indexed:
            raise NodeNotFound(f"Error: Source node not found: {source}")
        self._refuse_collections(source, "copy")
        source_namespace = self._nodes[source].namespace
        copied = 0
        for path in indexed:
            relative = path[len(source_namespace) + 1:] if source_namespace else path
            new_path = f"{target}/{relative}" if target else relative
            existing = self._nodes.get(new_path)
            if existing is not None and not force:
                continue
            node = self._nodes[path]
            namespace, node_id = split_node_id(new_path, None)
            fresh = Node(id=node_id, namespace=namespace, name=node.name, node_type=node.node_type,
                         content=copy.deepcopy(node.content), category=node.category, icon=node.icon,
                         pre_rendered_html=node.pre_rendered_html, typed=node.typed)
            if existing is not None:
                self.put_node(replace(fresh, version=existing.version + 1))
            else:
                self.put_node(fresh)
            copied += 1
        return copied

    def _place(self, node: Node, new_path: str) -> Node:
        namespace, node_id = split_node_id(new_path, None)
        return self.put_node(replace(node, id=node_id, namespace=namespace, content=copy.deepcopy(node.content)))

    def _refuse_collections(self, root: str, verb: str) -> None:
        """agentkit does not model carrying a collection's files, chunks and Document nodes: refuse instead."""
        subtree = set(self._subtree(root))
        held = sorted(c for c, collection in self.collections.items()
                      if collection.address in subtree or (verb == "move" and root.startswith(c + "/")))
        if held:
            raise PathError(
                f"Error: cannot {verb}: '{root}' "
                f"{'belongs to' if root.startswith(held[0] + '/') else 'owns'} content collection '{held[0]}'; "
                "agentkit does not model carrying a collection's files and Document nodes, so nothing was "
                "changed. Upload the files to a collection at the target instead."
            )

    def put_node(self, node: Node) -> Node:
        """Write a node built by agentkit itself (e.g. a Document node), bypassing Create's checks; every write ends here."""
        now = self.clock.tick()
        existing = self._nodes.get(node.path)
        created = node.created_date or (existing.created_date if existing is not None else "") or now
        stamped = replace(node, last_modified=now, created_date=created)  # CreatedDate: set once (MeshExtensions.cs:594)
        self._nodes[stamped.path] = stamped
        self.index.stage_node(stamped)
        return stamped

    def remove_node(self, path: str) -> None:
        """Remove one node written with :meth:`put_node`, without Delete's subtree walk (a deleted file's Document node)."""
        if self._nodes.pop(path, None) is not None:
            self.index.stage_remove(path)

    def rebuild_content_index(self, node_path: str) -> int:
        """The Content Indexing settings tab's Rebuild button (MR1, MQ5): a forced re-index of every file of
        ``{node_path}/content``; returns the number of files indexed.

        The tab is shown only on a node whose type is exactly ``Space``, and its buttons re-index only that
        Space's ``content`` collection: a named collection, or a collection on any other node, has no such
        button, and nothing else forces a re-index. For such a node this raises :class:`PathError` and
        indexes nothing.
        """
        node = self._nodes.get(node_path)
        if node is None or node.node_type != "Space":
            kind = "no node" if node is None else f"a '{node.node_type}' node"
            raise PathError(f"No Content Indexing tab on '{node_path}' ({kind}): the tab is shown only on Space nodes")
        collection = self.collections.get(f"{node_path}/{DEFAULT_COLLECTION}")
        if collection is None:
            raise CollectionNotFound(f"Collection '{node_path}/{DEFAULT_COLLECTION}' not found")
        files = [stored.file_path for stored in list(collection._files.values())]
        for file_path in files:
            collection.index(file_path, force=True)
        return len(files)

    def add_collection(self, address: str, name: str = "content", *, editable: bool = True,
                       embedded_resource: bool = False) -> ContentCollection:
        """Attach a content collection named ``name`` to the node at ``address`` (``editable=False``: read-only;
        ``embedded_resource=True``: the framework's embedded-resource kind, read-only and unable to store, CC3)."""
        owner = self.get(address)
        collection = ContentCollection(self, owner.path, name, editable=editable, embedded_resource=embedded_resource)
        if collection.path in self.collections:
            raise CreateError(f"Content collection '{collection.path}' already exists")
        self.collections[collection.path] = collection
        return collection

    def typed_view(self, path: str) -> dict[str, Any]:
        """What a typed view renders: the typed fields, or nothing when the content is untyped."""
        node = self.get(path)
        if not node.typed or not node.content:
            return {}
        return {k: v for k, v in node.content.items() if k != "$type"}

    def nodes(self) -> list[Node]:
        """Every node, ordered by path."""
        return [self._nodes[p] for p in sorted(self._nodes)]

    # -- internals ------------------------------------------------------------
    def _node(self, unified: UnifiedPath, path: str) -> Node:
        """The node a parsed path names; ``path`` is the path as the caller wrote it, for the refusal."""
        node = self._nodes.get(unified.path) if unified.kind != "children" else None  # the node namespace is authoritative (D4)
        if node is None:
            raise NodeNotFound(f"Node '{path}' not found")
        return node

    def _subtree(self, root: str) -> list[str]:
        """The paths of ``root`` and every node below it, parents first."""
        return sorted(path for path in self._nodes if is_within(path, root))

    def _overwrite(self, previous: Node, result: CreateResult) -> CreateResult:
        """Write ``result``'s node over ``previous``, one version later.

        The owner's no-op gate (NodeUpdatePipeline): a node equal to the live one but for its
        version and timestamp is not written, and keeps its version.
        """
        if replace(result.node, version=previous.version, last_modified=previous.last_modified,
                   created_date=previous.created_date) == previous:
            return replace(result, node=previous)
        return replace(result, node=self.put_node(replace(result.node, version=previous.version + 1)))

    def _identified(self, data: Mapping[str, Any], operation: str) -> Node:
        """The node's identity as the framework settles it: SanitizeNodeId, NormalizeNamespace, ValidateNodeIdentity (M5)."""
        for key in ("id", "namespace", "name", "nodeType"):
            value = data.get(key)
            if value is not None and not isinstance(value, str):
                raise InvalidJson(f"Invalid JSON: '{key}' must be a JSON string, got {_json_kind(value)}.")
        node_id = data.get("id") or ""
        namespace = data.get("namespace") or ""
        if "/" in node_id:  # SanitizeNodeId: split at the last '/'
            head, node_id = node_id.rsplit("/", 1)
            namespace = f"{namespace}/{head}" if namespace else head
        if namespace:  # NormalizeNamespace: ResolvePath, then a leading '/' dropped
            namespace = resolve_path(namespace).lstrip("/")
        node_type, name = data.get("nodeType") or "", data.get("name") or ""
        path = f"{namespace}/{node_id}" if namespace else node_id
        if not node_id.strip():
            raise MissingField(
                f"Error: cannot {operation}: 'id' is not set. The id is the node's own slug — the final path segment, "
                "no slashes (e.g. \"PricingTool\"). Put the parent path in 'namespace' (e.g. \"ACME/Projects\"); "
                "the node's path is derived as {namespace}/{id}."
            )
        if not node_type.strip():
            raise MissingField(
                f"Error: cannot {operation} '{path}': 'nodeType' is not set. Every node must declare a nodeType — "
                "it is the path of the type definition that gives the node its shape, views, and behaviour "
                "(e.g. \"Markdown\", \"Code\", \"Organization\"). Discover available types with "
                "Search('nodeType:NodeType') and retry with nodeType set."
                + (" If you only meant to change a few fields, use Patch instead — it preserves all fields you don't mention."
                   if operation == "update" else "")
            )
        if not name.strip():
            raise MissingField(
                f"Error: cannot {operation} '{path}': 'name' is not set. Provide a non-empty, human-readable "
                "display name — it is shown as the node's title in the navigator and page heading."
            )
        if namespace and (namespace.endswith("/") or "//" in namespace):
            raise MalformedNamespace(
                f"Error: cannot {operation} '{node_id}': namespace '{namespace}' is malformed. The namespace is the parent "
                "path, segments separated by single slashes, no trailing slash (e.g. \"ACME/Projects\", \"User/rbuergi\")."
            )
        return Node(id=node_id, namespace=namespace, name=name, node_type=node_type)

    def _build(self, data: Mapping[str, Any], identity: Node, *, strict: bool | None) -> CreateResult:
        refuse_non_string_fields(data, "Invalid JSON: ")
        order = data.get("order")
        if order is not None and (isinstance(order, bool) or not isinstance(order, int)):
            raise InvalidJson(f"Invalid JSON: 'order' must be an integer, got {json.dumps(order)}.")
        content, typed, dropped = self._deserialize(
            data.get("content"), identity.node_type, self.strict if strict is None else strict, check_schema=True)
        node = replace(
            identity, content=content, typed=typed, category=data.get("category"), icon=data.get("icon"),
            order=order, description=data.get("description"), pre_rendered_html=data.get("preRenderedHtml"),
            main_node=data.get("mainNode"),
        )
        return CreateResult(node, dropped)

    def _schema_text(self, node_type: str) -> str:
        """The JSON schema the framework appends to content errors, when the node type registers a type of its name."""
        own = self.content_types.get(node_type)
        if own is None:
            return ""
        schema = {"type": "object", "properties": {name: {"type": kind.removesuffix("?")} for name, kind in own.fields.items()}}
        return f" Expected content schema for NodeType '{node_type}': {json.dumps(schema, separators=(',', ':'))}"

    def _null_content_error(self, path: str, node_type: str) -> str:
        return (f"Error: cannot write {path}: 'content' is null. "
                "Fetch the node first with Get, modify the returned content in-place, "
                "and resend the complete node. Never send null content." + self._schema_text(node_type))

    def _refuse_discriminator(self, node: Node, *, existing: Node | None, prefix: str) -> None:
        """M8 (since e298c8cf8): an unregistered string ``$type`` on a built-in node type is refused.

        Accepted: no ``$type``; a ``$type`` that resolves (also ``A.B.T`` as
        ``T``); a node type that is not built in (DB-defined or compiled); an
        Update keeping the ``$type`` the stored node already has.
        """
        content = node.content
        discriminator = content.get("$type") if isinstance(content, Mapping) else None
        if not isinstance(discriminator, str) or not discriminator or self._resolves(discriminator):
            return
        if existing is not None and isinstance(existing.content, Mapping) and existing.content.get("$type") == discriminator:
            return
        if node.node_type not in self.builtin_node_types:
            return
        raise UnregisteredDiscriminator(
            f"{prefix}Content of '{node.path}' carries the polymorphic discriminator '$type': '{discriminator}', "
            f"which is not a registered content type for the built-in NodeType '{node.node_type}' — it would "
            "persist as an untyped blob that renders empty and cannot be edited. Use the NodeType's declared "
            f"content shape (check '@{node.node_type}/schema/'); for Markdown nodes the content is "
            "{\"$type\": \"MarkdownContent\", \"content\": \"<markdown text>\"}."
        )

    def nullable_fields(self, node: Node) -> frozenset[str]:
        """The nullable fields of ``node``'s typed content (what the framework's JSON writes when 0 or false)."""
        content_type = self._content_type(node.content.get("$type")) if node.typed and isinstance(node.content, Mapping) else None
        return content_type.nullable_fields if content_type is not None else frozenset()

    def _resolves(self, discriminator: str) -> bool:
        return discriminator in self.content_types or (
            "." in discriminator and discriminator.rsplit(".", 1)[1] in self.content_types)

    def _content_type(self, discriminator: Any) -> ContentType | None:
        if not isinstance(discriminator, str):
            return None
        found = self.content_types.get(discriminator)
        if found is None and "." in discriminator:
            found = self.content_types.get(discriminator.rsplit(".", 1)[1])
        return found

    def _typed(self, content_type: ContentType, raw: Mapping[str, Any], node_type: str) -> tuple[dict[str, Any], tuple[str, ...]]:
        """``content_type.deserialize``; a schema mismatch ends with the node type's schema, rendered only then."""
        try:
            return content_type.deserialize(raw, node_type)
        except SchemaMismatch as mismatch:
            raise SchemaMismatch(f"{mismatch}{self._schema_text(node_type)}") from None

    def _deserialize(self, raw: Any, node_type: str, strict: bool, *, check_schema: bool = True) -> tuple[Any, bool, tuple[str, ...]]:
        """Content as the framework stores it: typed by a registered ``$type`` (unknown fields dropped, M7), else untyped.

        ``check_schema``: M6, where the node type registers a content type of
        its own name, the content is converted to that type: content that is
        not a JSON object (an array, a string, a number, a boolean) is refused,
        and so is a known field of the wrong JSON kind.
        """
        if raw is None:
            return None, False, ()
        own = self.content_types.get(node_type)
        checked = None  # what the schema check of the node type's own content type kept and dropped
        if check_schema and own is not None and not isinstance(raw, Mapping):
            # M6: the framework deserializes any content into the type, and JSON that is not an object fails;
            # the detail stands in for .NET's JsonException text.
            raise SchemaMismatch(
                f"Error: Content does not match the schema for NodeType '{node_type}'. Content of $type "
                f"'{own.name}' must be a JSON object, got {_json_kind(raw)}.{self._schema_text(node_type)}")
        if check_schema and own is not None:
            checked = self._typed(own, raw, node_type)
        if not isinstance(raw, Mapping):
            return copy.deepcopy(raw), False, ()
        type_name = raw.get("$type")
        content_type = self._content_type(type_name)
        if content_type is None:
            if strict:  # agentkit extension
                known = ", ".join(sorted(self.content_types))
                stated = "is missing" if type_name is None else f"'{type_name}' is not registered"
                raise StrictContentError(
                    f"Strict mode: content $type {stated}; the framework would store untyped content that renders "
                    f"empty in typed views. Registered types: {known}."
                )
            return copy.deepcopy(dict(raw)), False, ()
        if content_type is own and checked is not None:  # the same content type read the same raw content
            typed, dropped = checked
        else:
            typed, dropped = self._typed(content_type, raw, node_type)
        if dropped and strict:  # agentkit extension
            names = ", ".join(f"'{name}'" for name in dropped)
            known = ", ".join(sorted(content_type.fields))
            raise StrictContentError(
                f"Strict mode: field(s) {names} are not part of $type '{content_type.name}' and would be dropped "
                f"silently. Known fields: {known}."
            )
        return typed, True, dropped


# S2: TryResolveUnifiedPath's cap on the whole unified read (routing, the node hub, the store, the transformer).
UNIFIED_READ_TIMEOUT_SECONDS = 10


class ReadTimedOut(AgentkitError):
    """Get's unified read did not answer within UNIFIED_READ_TIMEOUT_SECONDS (S2)."""


# The satellite folders whose nodes need an owning node before them (SatelliteTableMapping.Defaults, '_' segments
# other than '_Access'), and the folder of access assignments (AccessAssignmentGuard).
OWNER_REQUIRING_SATELLITES = frozenset(
    {"_Activity", "_UserActivity", "_Thread", "_ThreadMessage", "_Tracking", "_Approval", "_Comment", "_Notification"})
_SATELLITE_SEGMENTS = OWNER_REQUIRING_SATELLITES | {"_Access"}


def _path_as_sent(data: Mapping[str, Any]) -> str:
    """The ``MainNode`` a deserialized node defaults to: ``{namespace}/{id}`` as sent, before any cleaning (MeshNode.cs:96)."""
    node_id, namespace = data.get("id") or "", data.get("namespace") or ""
    return f"{namespace}/{node_id}" if namespace else node_id


def misplaced_satellite(node: Node, main_node_sent: bool, sent_path: str) -> str | None:
    """The create handler's structural refusals, before it reads the path (ActivityNodeGuard, AccessAssignmentGuard).

    A node directly under an owner-requiring satellite folder with no node
    before it is ownerless; an ``_Activity`` with an empty ``mainNode`` too.
    An ``AccessAssignment`` filed under ``{scope}/_Access/`` must carry
    ``mainNode`` = ``{scope}`` (any case); left out, ``mainNode`` is the
    node's path as sent (``sent_path``), which a satellite normalises to its
    owner only when it equals the cleaned path (MeshExtensions.cs:3235-3241).
    """
    segments = [segment for segment in node.namespace.split("/") if segment]
    if segments and segments[-1] in OWNER_REQUIRING_SATELLITES:
        folder, owner = segments[-1], "/".join(segments[:-1])
        if not owner:
            return (f"Satellite '{node.path}' is anchored at a top-level / ownerless path: the namespace "
                    f"'{node.namespace}' has no owning node before '{folder}'. Satellites MUST live at "
                    f"'{{ownerPath}}/{folder}/{{id}}' under a real owning node (a Space, NodeType, User "
                    f"partition, or an Admin-partition version node for startup activities) — never at a bare "
                    f"'{folder}'. There is no partition / per-node hub to route to, so every "
                    f"poster/subscriber NotFound-storms the router.")
        if folder == ACTIVITY_SEGMENT and isinstance(node.main_node, str) and not node.main_node.strip():
            return (f"Activity '{node.path}' has an empty MainNode. Set MainNode to the owning node path "
                    f"('{owner}') so access delegates to it and the activity is routable — an empty MainNode is "
                    f"the ownerless shape that NotFound-storms the router.")
    if node.node_type.lower() != "accessassignment":
        return None
    marker = node.path.lower().find("/_access/")
    scope = node.path[:marker] if marker >= 0 else ("" if node.path.lower().startswith("_access/") else None)
    if scope is None:
        return None
    if main_node_sent:
        main = node.main_node if isinstance(node.main_node, str) else node.path
    else:  # the path as sent: a namespace the tool cleaned (`@`, quotes, blanks, '/') no longer matches it
        main = sent_path
    if node.namespace and main == node.path:  # NormalizeSatelliteMainNode: the owner, cut at the first satellite folder
        parts = [segment for segment in node.namespace.split("/") if segment]
        cut = next((i for i, segment in enumerate(parts) if segment in _SATELLITE_SEGMENTS), None)
        main = "/".join(parts[:cut]) if cut is not None else node.namespace
    if (not main and not scope) or main.lower() == scope.lower():
        return None
    if not main:
        return (f"AccessAssignment '{node.path}' has an EMPTY MainNode. A grant is scoped by MainNode, "
                f"NOT by its folder — so this grants ROOT (every partition), not '{scope}'. Set MainNode='{scope}'.")
    return (f"AccessAssignment '{node.path}' has MainNode='{main}' but its path encodes scope '{scope}'. "
            "A grant must be scoped to the node it is filed under; a mismatch silently grants somewhere else.")


PATCHABLE_FIELDS = ("name", "description", "icon", "category", "order", "content", "preRenderedHtml", "mainNode")
_PATCHABLE_LOWER = {key.lower() for key in PATCHABLE_FIELDS}
SEARCH_TRUNCATED_HINT = (
    "Result set hit the limit — there may be more matches. Narrow the query (namespace:/nodeType:/name:) "
    "or raise 'limit' (max 200)."
)
INVALID_JSON_TIP = "Tip: ensure all quotes and special characters in markdown content are properly escaped for JSON strings."
# EditContent's editable text: MarkdownContent.content, CodeConfiguration.code (or content that is a string).
_EDITABLE_TEXT_KEYS = {"MarkdownContent": "content", "CodeConfiguration": "code"}


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396 JSON Merge Patch: objects merge recursively, null removes, anything else replaces."""
    if not isinstance(patch, Mapping):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


# The framework parses tool JSON with System.Text.Json's defaults, which allow 64 levels of nesting.
JSON_MAX_DEPTH = 64
JSON_TOO_DEEP = f"The maximum configured depth of {JSON_MAX_DEPTH} has been exceeded."
# agentkit's own limit: Python cannot turn an integer of more than 4,300 digits into text.
JSON_NUMBER_TOO_LONG = "A number has more than 4300 digits."


def json_limit_error(value: Any) -> str | None:
    """Why JSON text cannot carry ``value`` as the framework reads it, or ``None``: nesting deeper than
    :data:`JSON_MAX_DEPTH`, or an integer too long to print. Walks the value without recursion."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        # The exact types json.loads makes are told apart first: an isinstance check on Mapping is slower.
        if kind is dict:
            children = item.values()
        elif kind is list or kind is tuple:
            children = item
        elif kind is str or kind is float or kind is bool or item is None:
            continue
        elif kind is not int and isinstance(item, Mapping):
            children = item.values()
        elif kind is not int and isinstance(item, (list, tuple)):
            children = item
        else:
            if isinstance(item, int) and item.bit_length() > 14_000:  # about 4,300 decimal digits
                return JSON_NUMBER_TOO_LONG
            continue
        if depth > JSON_MAX_DEPTH:
            return JSON_TOO_DEEP
        stack.extend((child, depth + 1) for child in children)
    return None


# MeshNode's string properties: System.Text.Json refuses any other JSON kind for them.
_STRING_FIELDS = ("name", "description", "icon", "category", "preRenderedHtml", "mainNode")


def refuse_non_string_fields(data: Mapping[str, Any], prefix: str) -> None:
    """Refuse a node field that MeshNode declares as a string but the JSON gives as another kind, as the
    framework's deserializer does (Create/Update answer ``Invalid JSON: …``, Patch ``Error: …``)."""
    for key in _STRING_FIELDS:
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise InvalidJson(f"{prefix}The JSON value could not be converted to System.String. Path: $.{key}.")


def load_json(text: str) -> Any:
    """``json.loads`` within the framework's limits: malformed text raises ``json.JSONDecodeError``, text
    nested too deep or holding a number too long raises :class:`InvalidJson` (Python's own recursion and
    int-string limits would otherwise escape as RecursionError or ValueError)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise
    except (RecursionError, ValueError) as error:
        raise InvalidJson(f"Invalid JSON: {JSON_NUMBER_TOO_LONG if 'digits' in str(error) else JSON_TOO_DEEP}") from None
    refuse_beyond_json_limits(data)
    return data


def refuse_beyond_json_limits(value: Any) -> None:
    """Raise :class:`InvalidJson` for a value JSON text cannot carry to the framework (see :func:`json_limit_error`)."""
    error = json_limit_error(value)
    if error is not None:
        raise InvalidJson(f"Invalid JSON: {error}")


def repair_json(text: str) -> str:
    """MeshOperations.RepairJson (M4): unparseable text is cut to its longest parseable prefix ending in ``}`` or ``]``.

    The framework parses every such prefix from the longest down, which takes time quadratic in the
    text. Only one prefix can parse: the first complete value (after leading blanks), since one JSON
    value is all a document may hold. agentkit decodes that value once, in linear time, and returns
    the same prefix.
    """
    if not text:
        return text
    try:
        load_json(text)
        return text
    except (json.JSONDecodeError, InvalidJson):
        return _repaired_prefix(text)


def _repaired_prefix(text: str) -> str:
    """:func:`repair_json` of text that does not parse whole."""
    start = len(text) - len(text.lstrip())
    try:
        value, end = json.JSONDecoder().raw_decode(text, start)
    except (json.JSONDecodeError, RecursionError, ValueError):
        return text
    if text[end - 1] not in "}]" or json_limit_error(value) is not None:
        return text
    return text[:end]


def _load_repaired(text: str) -> Any:
    """``load_json(repair_json(text))``, parsing text that parses whole only once.

    The repair parses strictly, but the hub's deserializer then skips comments
    and allows trailing commas (M4), so text no prefix of which parses is read
    once more that leniently before it is refused.
    """
    try:
        return load_json(text)
    except (json.JSONDecodeError, InvalidJson):
        pass
    repaired = _repaired_prefix(text)
    if repaired != text:
        return load_json(repaired)
    try:
        return load_json(_without_comments_and_trailing_commas(text))
    except (json.JSONDecodeError, InvalidJson):
        return load_json(text)  # refused with the strict parser's detail


def _without_comments_and_trailing_commas(text: str) -> str:
    """``text`` with ``//`` and ``/* */`` comments outside strings removed, and every comma before ``}`` or ``]``."""
    kept: list[str] = []
    index, in_string = 0, False
    while index < len(text):
        char = text[index]
        if in_string:
            kept.append(char)
            if char == "\\" and index + 1 < len(text):
                kept.append(text[index + 1])
                index += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            kept.append(char)
        elif text.startswith("//", index):
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
            continue
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            if end < 0:
                return text  # an unterminated comment: the deserializer refuses it too
            index = end + 2
            continue
        else:
            kept.append(char)
        index += 1
    return _drop_trailing_commas("".join(kept))


def _drop_trailing_commas(text: str) -> str:
    """Remove each comma outside strings whose next non-blank character is ``}`` or ``]`` (linear time)."""
    following = [""] * (len(text) + 1)  # the first non-blank character after each position
    for index in range(len(text) - 1, -1, -1):
        following[index] = following[index + 1] if text[index].isspace() else text[index]
    kept: list[str] = []
    in_string = escaped = False
    previous = ""
    for index, char in enumerate(text):
        if in_string:
            in_string = escaped or char != '"'
            escaped = not escaped and char == "\\"
        elif char == '"':
            in_string = True
        elif char == "," and following[index + 1] in ("}", "]") and previous not in ("", "{", "[", ","):
            continue  # a trailing comma follows a value; '[,]' stays invalid
        kept.append(char)
        if not char.isspace():
            previous = char
    return "".join(kept)


def _parse_json(text: str, *, tip: bool) -> Any:
    try:
        return _load_repaired(text)
    except json.JSONDecodeError as error:
        detail = f"{error.msg} at line {error.lineno} column {error.colno}"
    except InvalidJson as error:  # beyond the JSON limits
        detail = str(error).removeprefix("Invalid JSON: ").rstrip(".")
    raise InvalidJson(f"Invalid JSON: {detail}." + (f" {INVALID_JSON_TIP}" if tip else ""))


def _node_json(value: Any, *, invalid_tip: bool) -> Mapping[str, Any]:
    if isinstance(value, str):
        data = _parse_json(value, tip=invalid_tip)  # load_json has checked the limits
    else:
        data = value
        refuse_beyond_json_limits(data)
    if data is None:
        raise CreateError("Invalid node: deserialized to null.")
    if not isinstance(data, Mapping):
        raise InvalidJson(f"Invalid JSON: a node must be one JSON object {{...}}, got {_json_kind(data)}."
                          + (f" {INVALID_JSON_TIP}" if invalid_tip else ""))
    return data


def _parse_patch(value: Any) -> Mapping[str, Any]:
    if isinstance(value, str):
        data = _parse_json(value, tip=False)  # load_json has checked the limits
    else:
        data = value
        refuse_beyond_json_limits(data)
    if not isinstance(data, Mapping):
        raise InvalidJson("Error: fields must be a JSON object")
    return data


def _parse_array(value: Any, label: str, *, repair: bool = False) -> list[Any]:
    if isinstance(value, str):
        try:
            data = _load_repaired(value) if repair else load_json(value)
        except json.JSONDecodeError as error:
            raise InvalidJson(f"Invalid JSON: {error.msg} at line {error.lineno} column {error.colno}.") from None
    else:
        data = value
        refuse_beyond_json_limits(data)
    if isinstance(data, tuple):
        data = list(data)
    if not isinstance(data, list):
        raise InvalidJson(f"Invalid JSON: '{label}' must be a JSON array [...], got {_json_kind(data)}.")
    return data


def _count_occurrences(text: str, needle: str) -> int:
    count = start = 0
    while (found := text.find(needle, start)) >= 0:
        count += 1
        start = found + len(needle)
    return count
