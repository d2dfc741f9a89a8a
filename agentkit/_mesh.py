"""The mesh: the node store behind the framework's MeshOperations at the pinned commit (facts M2-M14).

:class:`Mesh` holds the nodes, the content collections, the search index and the host's wiring. Its
operations come in parts, each in a module of its own: the reads (Get, the children listing, Search:
``_mesh_reads``), the writes (Create, Update, Patch, EditContent, Delete, Move, Copy: ``_mesh_writes``),
the content-type registry and the typing of content (``_content_types``), the host's wiring and guards
(``_host``) and the JSON the tools take (``_json``).

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

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Callable

from ._collections import FILE_SYSTEM, ContentCollection
from ._content_types import DOCUMENT_TYPE, ContentType, ContentTyping
from ._errors import CollectionNotFound, CreateError, NodeNotFound, PathError
from ._host import check_host_wiring
from ._index import SearchIndex
from ._mesh_reads import MeshReads
from ._mesh_writes import MeshWrites
from ._node import Node, StepClock
from ._paths import DEFAULT_COLLECTION, is_within, parse_path


@dataclass
class Mesh(MeshReads, MeshWrites, ContentTyping):
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
        check_host_wiring(self.content_store, self.partition_stores)
        self.register_type(DOCUMENT_TYPE)
        self.node_types.add("Document")  # the host wires content indexing, which registers the Document NodeType

    # -- the node store -------------------------------------------------------
    def exists(self, path: str) -> bool:
        """True when a node stands at ``path`` (already canonical)."""
        return path in self._nodes

    def get(self, path: str) -> Node:
        """The node at ``path``; the path is canonicalized first (percent-decode, NFC)."""
        unified = parse_path(path)
        node = self._nodes.get(unified.path) if unified.kind != "children" else None  # the node namespace is authoritative (D4)
        if node is None:
            raise NodeNotFound(f"Node '{path}' not found")
        return node

    def nodes(self) -> list[Node]:
        """Every node, ordered by path."""
        return [self._nodes[p] for p in sorted(self._nodes)]

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

    def put_node(self, node: Node) -> Node:
        """Write a node built by agentkit itself (e.g. a Document node), bypassing Create's checks; every write ends here."""
        now = self.clock.tick()
        existing = self._nodes.get(node.path)
        created = node.created_date or (existing.created_date if existing is not None else "") or now
        stamped = node.stamped(now, created)  # CreatedDate: set once (MeshExtensions.cs:594)
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

    def _subtree(self, root: str) -> list[str]:
        """The paths of ``root`` and every node below it, parents first."""
        return sorted(path for path in self._nodes if is_within(path, root))
