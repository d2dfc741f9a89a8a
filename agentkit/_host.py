"""Host wiring and host security: what a host chooses and the framework's guards enforce.

``content_store`` is the store behind the collections' files (S1); ``read_seconds`` the host's speed, past
:data:`UNIFIED_READ_TIMEOUT_SECONDS` Get answers its timeout (S2). ``partition_guard=True`` (off by default) is
a host with row-level security, whose partition guard refuses a create in the mirror partitions ``User`` and
``Auth``, a top-level node of a type that owns no partition and a create into a missing partition other than
the ``caller``'s own (H1, MQ6, MQ7). The create handler's structural guards (ActivityNodeGuard,
AccessAssignmentGuard) refuse a misplaced satellite on every host.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ._collections import ACTIVITY_SEGMENT, CONTENT_STORES
from ._errors import AgentkitError, CreateError
from ._node import Node


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


def check_host_wiring(content_store: str, partition_stores: tuple[str, ...]) -> None:
    """Refuse a content store or a partition store the model does not know."""
    if content_store not in CONTENT_STORES:
        raise ValueError(f"content_store must be one of {CONTENT_STORES}, got {content_store!r}")
    unknown_stores = [store for store in partition_stores if store not in PARTITION_STORES]
    if unknown_stores:
        raise ValueError(f"partition_stores must be drawn from {PARTITION_STORES}, got {unknown_stores}")


def refuse_by_partition_guard(node: Node, *, caller: str | None, partition_stores: tuple[str, ...],
                              paths: Collection[str]) -> None:
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
            f"'{node.path}' there. Put your content in your own space ('{caller or ''}/…') or a Space you create."
        )
    if not node.namespace and node.node_type not in PARTITION_OWNING_TYPES:
        raise CreateError(
            f"Error creating node: Cannot create '{node.path}' at the top level: the root namespace ('') is "
            "reserved for partition roots, so a top-level node MUST be a partition-owning type — it must be a "
            f"Space (which provisions the partition's schema). A '{node.node_type or 'untyped'}' node does not "
            "own a partition (only User and Space do). Create it as a Space (inspect the required shape via its "
            f"content schema at 'Space/schema'), or put your content in your own space "
            f"('{caller or '<your-id>'}/{node.id}')."
        )
    if node.node_type.lower() == "space" or partition.startswith("_"):
        return
    if caller and partition.lower() == caller.lower():  # the caller's own partition
        return
    if not partition_stores or not all(store in PARTITION_STORES_THAT_ANSWER for store in partition_stores):
        return  # some store cannot tell (null), or no store at all: the guard lets the create through (MR2)
    if not any(path == partition or path.startswith(partition + "/") for path in paths):
        raise CreateError(
            f"Error creating node: Space '{partition}' does not exist. Writing never creates a space implicitly "
            "(\"no partition, no write\") — create the space explicitly first, then write into it. "
            f"Cannot create '{node.path}'."
        )


# S2: TryResolveUnifiedPath's cap on the whole unified read (routing, the node hub, the store, the transformer).
UNIFIED_READ_TIMEOUT_SECONDS = 10


class ReadTimedOut(AgentkitError):
    """Get's unified read did not answer within UNIFIED_READ_TIMEOUT_SECONDS (S2)."""


# The satellite folders whose nodes need an owning node before them (SatelliteTableMapping.Defaults, '_' segments
# other than '_Access'), and the folder of access assignments (AccessAssignmentGuard).
OWNER_REQUIRING_SATELLITES = frozenset(
    {"_Activity", "_UserActivity", "_Thread", "_ThreadMessage", "_Tracking", "_Approval", "_Comment", "_Notification"})
_SATELLITE_SEGMENTS = OWNER_REQUIRING_SATELLITES | {"_Access"}


def path_as_sent(data: Mapping[str, Any]) -> str:
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

