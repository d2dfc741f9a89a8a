"""The mesh: typed nodes, the content-type registry and the node operations.

Content is deserialized into the type its ``$type`` names, as the framework
does: unknown fields are dropped without an error, a missing or unregistered
``$type`` leaves untyped content (empty in typed views), and only a known
field holding the wrong JSON shape fails. ``strict=True`` is agentkit's
opt-in guard that refuses what the framework would drop; every
:class:`CreateResult` also reports the dropped field names.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Mapping

from ._errors import (
    CollectionNotFound,
    CreateError,
    InvalidJson,
    MalformedNamespace,
    MissingField,
    NodeExists,
    NodeNotFound,
    PathError,
    SchemaMismatch,
    StrictContentError,
)
from ._index import SearchIndex
from ._paths import SLUG_SEGMENT, UnifiedPath, is_valid_node_id, is_within, parse_path, split_node_id

if TYPE_CHECKING:  # pragma: no cover
    from ._collections import ContentCollection

_JSON_KINDS: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


class StepClock:
    """A deterministic clock: it moves one second each time the mesh writes."""

    def __init__(self, start: datetime = datetime(2025, 1, 1, tzinfo=timezone.utc)) -> None:
        self._start = start
        self.steps = 0

    def tick(self) -> str:
        """Advance one step and return the new time as ISO 8601 (UTC, 'Z')."""
        self.steps += 1
        return self.now()

    def now(self) -> str:
        """The current time as ISO 8601 (UTC, 'Z')."""
        moment = self._start + timedelta(seconds=self.steps)
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class ContentType:
    """A registered content type: its ``$type`` name and its fields with their JSON kinds.

    Kinds are ``string``, ``number``, ``integer``, ``boolean``, ``array``,
    ``object``; ``null`` is accepted for every field.
    """

    name: str
    fields: Mapping[str, str]

    def __post_init__(self) -> None:
        unknown = sorted(kind for kind in self.fields.values() if kind not in _JSON_KINDS)
        if unknown:
            raise ValueError(f"ContentType '{self.name}': unknown field kind(s) {unknown}; use {sorted(_JSON_KINDS)}")

    def deserialize(self, raw: Mapping[str, Any], node_type: str) -> tuple[dict[str, Any], tuple[str, ...]]:
        """Keep the known fields (checking their JSON kind); return them and the dropped names."""
        typed: dict[str, Any] = {"$type": self.name}
        dropped = []
        for key, value in raw.items():
            if key == "$type":
                continue
            kind = self.fields.get(key)
            if kind is None:
                dropped.append(key)
                continue
            if value is not None and not _matches(value, kind):
                raise SchemaMismatch(
                    f"Content does not match the schema for NodeType '{node_type}': field '{key}' "
                    f"of $type '{self.name}' expects {kind}, got {_json_kind(value)} {json.dumps(value)}"
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


@dataclass(frozen=True)
class Node:
    """One mesh node. Its path is ``{namespace}/{id}`` (just ``id`` at the root)."""

    id: str
    namespace: str
    name: str
    node_type: str
    content: dict[str, Any] | None = None
    category: str | None = None
    icon: str | None = None
    order: int | None = None
    version: int = 1
    last_modified: str = ""
    typed: bool = False  # True when content was deserialized into a registered $type

    @property
    def path(self) -> str:
        return f"{self.namespace}/{self.id}" if self.namespace else self.id

    def to_json(self) -> dict[str, Any]:
        """The node as the Get tool shows it, with the framework's camelCase keys."""
        return {
            "id": self.id,
            "namespace": self.namespace,
            "path": self.path,
            "name": self.name,
            "nodeType": self.node_type,
            "category": self.category,
            "icon": self.icon,
            "order": self.order,
            "version": self.version,
            "lastModified": self.last_modified,
            "content": copy.deepcopy(self.content),
        }


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
    """

    strict: bool = False
    clock: StepClock = field(default_factory=StepClock)
    index: SearchIndex = field(default_factory=SearchIndex)
    content_types: dict[str, ContentType] = field(default_factory=dict)
    collections: dict[str, "ContentCollection"] = field(default_factory=dict)
    _nodes: dict[str, Node] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.register_type(DOCUMENT_TYPE)

    # -- registry -----------------------------------------------------------
    def register_type(self, content_type: ContentType) -> None:
        """Register a content type under its ``$type`` name (re-registering replaces it)."""
        self.content_types[content_type.name] = content_type

    # -- reads --------------------------------------------------------------
    def exists(self, path: str) -> bool:
        """True when a node stands at ``path`` (already canonical)."""
        return path in self._nodes

    def get(self, path: str) -> Node:
        """The node at ``path``; the path is canonicalized first (percent-decode, NFC)."""
        return self._node(parse_path(path, is_node=self.exists), path)

    def children(self, path: str) -> list[dict[str, Any]]:
        """The direct children of a node as ``{path, name, nodeType, icon}``, ordered by order then path."""
        parent = self._node(parse_path(path.rstrip("*").rstrip("/") or path, is_node=self.exists), path)
        kids = [node for node in self._nodes.values() if node.namespace == parent.path]
        kids.sort(key=lambda node: (node.order if node.order is not None else 0, node.path))
        return [{"path": n.path, "name": n.name, "nodeType": n.node_type, "icon": n.icon} for n in kids]

    def fetch(self, path: str) -> Fetched:
        """Get on any unified path: a node, ``path/*`` children, a collection listing or a file's text."""
        unified = parse_path(path, is_node=self.exists)
        if unified.kind == "children":
            return Fetched("children", self.children(unified.address))
        if unified.kind == "node":
            return Fetched("node", self._node(unified, path))
        if unified.kind == "document":
            # A Document node path whose node does not exist (never uploaded, or a wrong slug).
            raise NodeNotFound(f"Node '{path}' not found")
        if unified.kind == "area":
            raise PathError(
                f"Path '{path}': the '{unified.prefix}/' prefix is not modelled by agentkit; "
                "only nodes and content collections are"
            )
        collection = self.collections.get(unified.collection_path or "")
        if collection is None and unified.kind == "collection" and not path.rstrip().endswith("/"):
            # 'Node/Word' is a missing child node as much as a missing collection; say the simpler one.
            raise NodeNotFound(f"Node '{path}' not found")
        if collection is None:
            raise CollectionNotFound(f"Content collection '{unified.collection}' not found")
        if unified.kind == "collection":
            return Fetched("collection", collection.listing())
        return Fetched("file", collection.read_text(unified.file_path or ""))

    def search(self, query: str = "", base_path: str | None = None, limit: Any = 50) -> dict[str, Any]:
        """Search the index (not the live nodes): the framework's envelope, limit clamped to 1..200."""
        return self.index.search_nodes(query, base_path, limit)

    def refresh_index(self) -> int:
        """Make every pending write visible to Search; returns how many were applied."""
        return self.index.refresh()

    # -- writes -------------------------------------------------------------
    def create(self, node: str | Mapping[str, Any], *, strict: bool | None = None) -> CreateResult:
        """Create one node from JSON text or a mapping; refuses with the framework's messages."""
        data = _parse_object(node, "node")
        result = self._build(data, strict=strict, verb="create")
        if result.node.path in self._nodes:
            raise NodeExists(
                f"Error: cannot create: a node already exists at '{result.node.path}'. "
                "Use Update to replace it, or choose another id."
            )
        return replace(result, node=self.put_node(result.node))

    def create_many(self, nodes: str | list[Mapping[str, Any]], *, strict: bool | None = None) -> list[CreateResult | CreateError | StrictContentError]:
        """agentkit extension (the framework has no bulk create): create each node of a JSON array.

        Each item succeeds or fails on its own, exactly as the same items sent
        as parallel Create calls would; a failed item writes nothing.
        """
        items = _parse_array(nodes, "nodes")
        outcomes: list[CreateResult | CreateError | StrictContentError] = []
        for item in items:
            try:
                outcomes.append(self.create(item, strict=strict))
            except (CreateError, StrictContentError) as error:
                outcomes.append(error)
        return outcomes

    def update(self, nodes: str | list[Mapping[str, Any]], *, strict: bool | None = None) -> list[CreateResult]:
        """Replace whole nodes (content required). All items are checked before any is written."""
        items = _parse_array(nodes, "nodes")
        results = []
        for position, item in enumerate(items):
            if not isinstance(item, Mapping):
                raise CreateError(f"Error: cannot update: item {position} is not a JSON object")
            if "content" not in item or item["content"] is None:
                raise MissingField(
                    f"Error: cannot update: item {position} has no 'content'. Update replaces the whole node; "
                    "send the full content (use Patch to change single fields)."
                )
            result = self._build(item, strict=strict, verb="update")
            if result.node.path not in self._nodes:
                raise NodeNotFound(f"Error: cannot update: no node at '{result.node.path}'. Use Create for new nodes.")
            results.append(result)
        return [self._overwrite(self._nodes[result.node.path], result) for result in results]

    def patch(self, path: str, fields: str | Mapping[str, Any], *, strict: bool | None = None) -> CreateResult:
        """Merge ``fields`` into the node's content as RFC 7396 JSON Merge Patch (null deletes)."""
        patch_doc = _parse_object(fields, "fields")
        current = self.get(path)
        merged = merge_patch(current.content or {}, patch_doc)
        data = current.to_json() | {"content": merged}
        return self._overwrite(current, self._build(data, strict=strict, verb="patch"))

    def delete(self, paths: str | list[str]) -> list[str]:
        """Delete each node and everything below it; returns every deleted path, parents first."""
        targets = _parse_array(paths, "paths")
        resolved = []
        for target in targets:
            if not isinstance(target, str):
                raise PathError(f"Delete expects paths as strings, got {json.dumps(target)}")
            resolved.append(self.get(target).path)
        deleted: list[str] = []
        for root in resolved:
            for path in self._subtree(root):
                del self._nodes[path]
                self.index.stage_remove(path)
                deleted.append(path)
        gone = set(deleted)
        for collection_path in [p for p, c in self.collections.items() if c.address in gone]:
            self.collections.pop(collection_path).drop_from_index()
        if deleted:
            self.clock.tick()
        return deleted

    def move(self, source: str, target: str) -> list[tuple[str, str]]:
        """Move a node and its subtree so that it stands at ``target``; returns (old, new) pairs."""
        return self._relocate(source, target, keep_source=False)

    def copy(self, source: str, target: str) -> list[tuple[str, str]]:
        """Copy a node and its subtree to ``target``; returns (old, new) pairs."""
        return self._relocate(source, target, keep_source=True)

    def _relocate(self, source: str, target: str, *, keep_source: bool) -> list[tuple[str, str]]:
        root = self.get(source).path
        verb = "copy" if keep_source else "move"
        destination = parse_path(target)
        if destination.kind != "node":
            raise PathError(f"Error: cannot {verb}: target '{target}' is not a node path")
        new_root = destination.address
        namespace, node_id = split_node_id(new_root, None)
        if not is_valid_node_id(node_id):
            raise PathError(f"Error: cannot {verb}: target id '{node_id}' is not a slug")
        if is_within(new_root, root):
            raise PathError(f"Error: cannot {verb}: target '{new_root}' lies inside source '{root}'")
        subtree = self._subtree(root)
        held = sorted(c for c, collection in self.collections.items()
                      if collection.address in subtree or (not keep_source and root.startswith(c + "/")))
        if held:
            # A collection's files, chunks and Document nodes are keyed by its path; carrying only the
            # nodes would leave files readable under the old path and Document nodes pointing at it.
            raise PathError(
                f"Error: cannot {verb}: '{root}' "
                f"{'belongs to' if root.startswith(held[0] + '/') else 'owns'} content collection '{held[0]}'; "
                "agentkit does not model carrying a collection's files and Document nodes, so nothing was "
                "changed. Upload the files to a collection at the target instead."
            )
        pairs = [(old, new_root + old[len(root):]) for old in subtree]
        taken = [new for _, new in pairs if new in self._nodes]
        if taken:
            raise NodeExists(f"Error: cannot {verb}: a node already exists at '{taken[0]}'")
        for old, new in pairs:
            node = self._nodes[old]
            new_namespace, new_id = split_node_id(new, None)
            if not keep_source:
                del self._nodes[old]
                self.index.stage_remove(old)
            self.put_node(replace(node, id=new_id, namespace=new_namespace, content=copy.deepcopy(node.content)))
        return pairs

    def put_node(self, node: Node) -> Node:
        """Write a node built by agentkit itself (e.g. a Document node), bypassing Create's checks; every write ends here."""
        stamped = replace(node, last_modified=self.clock.tick())
        self._nodes[stamped.path] = stamped
        self.index.stage_node(stamped)
        return stamped

    def remove_node(self, path: str) -> None:
        """Remove one node written with :meth:`put_node`, without Delete's subtree walk (a deleted file's Document node)."""
        if self._nodes.pop(path, None) is not None:
            self.index.stage_remove(path)

    def add_collection(self, address: str, name: str = "content") -> "ContentCollection":
        """Attach a content collection named ``name`` to the node at ``address``."""
        from ._collections import ContentCollection

        owner = self.get(address)
        collection = ContentCollection(self, owner.path, name)
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
        node = self._nodes.get(unified.address) if unified.kind == "node" else None
        if node is None:
            raise NodeNotFound(f"Node '{path}' not found")
        return node

    def _subtree(self, root: str) -> list[str]:
        """The paths of ``root`` and every node below it, parents first."""
        return sorted(path for path in self._nodes if is_within(path, root))

    def _overwrite(self, previous: Node, result: CreateResult) -> CreateResult:
        """Write ``result``'s node over ``previous``, one version later."""
        return replace(result, node=self.put_node(replace(result.node, version=previous.version + 1)))

    def _build(self, data: Mapping[str, Any], *, strict: bool | None, verb: str) -> CreateResult:
        for key, example in (("id", '"id": "rev-FY2024-1"'), ("nodeType", '"nodeType": "Fact"'), ("name", '"name": "Revenue FY2024"')):
            value = data.get(key)
            if not isinstance(value, str) or not value.strip():
                raise MissingField(
                    f"Error: cannot {verb}: '{key}' is not set. Every node needs a non-empty string "
                    f"'{key}', e.g. {example}."
                )
        namespace = data.get("namespace")
        if namespace is not None and not isinstance(namespace, str):
            raise MalformedNamespace(f"Error: cannot {verb}: namespace {json.dumps(namespace)} is malformed: it must be a string path")
        namespace, node_id = split_node_id(data["id"].strip(), (namespace or "").strip("/") or None)
        bad = [s for s in namespace.split("/") if not SLUG_SEGMENT.match(s)] if namespace else []
        if bad:
            raise MalformedNamespace(
                f"Error: cannot {verb}: namespace '{namespace}' is malformed: segment '{bad[0]}' must be "
                "letters, digits, '-', '_' or '.', with single '/' between segments."
            )
        if not is_valid_node_id(node_id):
            raise CreateError(
                f"Error: cannot {verb}: id '{node_id}' is not a slug: use letters, digits, '-', '_' and '.' "
                "(a '/' in the id splits it into namespace and id)."
            )
        raw_content = data.get("content")
        content, typed, dropped = self._deserialize(raw_content, data["nodeType"], self.strict if strict is None else strict)
        order = data.get("order")
        if order is not None and (isinstance(order, bool) or not isinstance(order, int)):
            raise CreateError(f"Error: cannot {verb}: 'order' must be an integer, got {json.dumps(order)}")
        node = Node(
            id=node_id,
            namespace=namespace,
            name=data["name"].strip(),
            node_type=data["nodeType"].strip(),
            content=content,
            category=data.get("category"),
            icon=data.get("icon"),
            order=order,
            typed=typed,
        )
        return CreateResult(node, dropped)

    def _deserialize(self, raw: Any, node_type: str, strict: bool) -> tuple[dict[str, Any] | None, bool, tuple[str, ...]]:
        if raw is None:
            return None, False, ()
        if not isinstance(raw, Mapping):
            raise SchemaMismatch(
                f"Content does not match the schema for NodeType '{node_type}': content must be a JSON object, "
                f"got {_json_kind(raw)}"
            )
        type_name = raw.get("$type")
        content_type = self.content_types.get(type_name) if isinstance(type_name, str) else None
        if content_type is None:
            if strict:
                known = ", ".join(sorted(self.content_types))
                stated = "is missing" if type_name is None else f"'{type_name}' is not registered"
                raise StrictContentError(
                    f"Strict mode: content $type {stated}; the framework would store untyped content that renders "
                    f"empty in typed views. Registered types: {known}."
                )
            return copy.deepcopy(dict(raw)), False, ()
        typed, dropped = content_type.deserialize(raw, node_type)
        if dropped and strict:
            names = ", ".join(f"'{name}'" for name in dropped)
            known = ", ".join(sorted(content_type.fields))
            raise StrictContentError(
                f"Strict mode: field(s) {names} are not part of $type '{content_type.name}' and would be dropped "
                f"silently. Known fields: {known}."
            )
        return typed, True, dropped


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


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidJson(
            f"Invalid JSON: {error.msg} at line {error.lineno} column {error.colno}. "
            "Tip: send one JSON value with double-quoted keys and strings; escape a quote inside a string as \\\" "
            "and do not wrap the JSON in quotes or code fences."
        ) from None


def _parse_object(value: str | Mapping[str, Any], label: str) -> Mapping[str, Any]:
    data = _parse_json(value) if isinstance(value, str) else value
    if not isinstance(data, Mapping):
        raise InvalidJson(f"Invalid JSON: '{label}' must be one JSON object {{...}}, got {_json_kind(data)}.")
    return data


def _parse_array(value: Any, label: str) -> list[Any]:
    data = _parse_json(value) if isinstance(value, str) else value
    if isinstance(data, tuple):
        data = list(data)
    if not isinstance(data, list):
        raise InvalidJson(f"Invalid JSON: '{label}' must be a JSON array [...], got {_json_kind(data)}.")
    return data
