"""The mesh's writes, as MeshOperations.Create/Update/Patch/EditContent/Delete/Move/Copy answer (M4-M14).

Create repairs JSON and checks identity in the framework's order, with its texts; Update replaces whole
nodes one by one; Patch changes node-level keys and merge-patches only ``content``; Move and Copy read the
subtree from the index, which lags. ``create_many`` (an agentkit extension) backs the ``BulkCreate`` tool.
Every :class:`CreateResult` reports the dropped field names.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ._errors import (
    AgentkitError, CreateError, InvalidJson, MalformedNamespace, MisplacedSatellite, MissingField, NodeExists,
    NodeNotFound, NotPatchable, PathError, StrictContentError, UnregisteredNodeType,
)
from ._host import misplaced_satellite, path_as_sent, refuse_by_partition_guard
from ._json import json_kind, merge_patch, parse_array, parse_node, parse_patch, refuse_non_string_fields
from ._node import Node
from ._paths import resolve_tool_path as resolve_path  # MeshOperations.ResolvePath (N4)
from ._paths import split_node_id

PATCHABLE_FIELDS = ("name", "description", "icon", "category", "order", "content", "preRenderedHtml", "mainNode")
_PATCHABLE_LOWER = {key.lower() for key in PATCHABLE_FIELDS}
# EditContent's editable text: MarkdownContent.content, CodeConfiguration.code (or content that is a string).
_EDITABLE_TEXT_KEYS = {"MarkdownContent": "content", "CodeConfiguration": "code"}


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


class MeshWrites:
    """The node operations that write (a part of :class:`~agentkit.Mesh`)."""

    def create(self, node: str | Mapping[str, Any], *, strict: bool | None = None) -> CreateResult:
        """Create one node from JSON text or a mapping, as the framework's Create (M4-M9).

        Refusals raise a :class:`CreateError` whose text is the framework's
        answer; nothing is written then.
        """
        data = parse_node(node, invalid_tip=True)
        candidate = self._identified(data, "create")
        built = self._build(data, candidate, strict=strict)
        misplaced = misplaced_satellite(built.node, "mainNode" in data, path_as_sent(data))
        if misplaced is not None:
            raise MisplacedSatellite(f"Error creating node: {misplaced}")
        if built.node.path in self._nodes:
            raise NodeExists(f"Error creating node: Node already exists: {built.node.path}")
        self._refuse_discriminator(built.node, existing=None, prefix="Error creating node: ")
        if self.partition_guard:  # the validators run before the NodeType check (MeshExtensions.cs:525)
            refuse_by_partition_guard(built.node, caller=self.caller, partition_stores=self.partition_stores,
                                      paths=self._nodes)
        if not self.knows_node_type(built.node.node_type):
            raise UnregisteredNodeType(f"Error creating node: NodeType '{built.node.node_type}' is not registered")
        return CreateResult(self.put_node(built.node), built.dropped_fields)

    def create_many(self, nodes: str | list[Mapping[str, Any]], *, strict: bool | None = None) -> list[CreateResult | CreateError | StrictContentError]:
        """agentkit extension (M14: the framework has no bulk create): create each node of a JSON array.

        Each item succeeds or fails on its own, exactly as the same items sent
        as separate Create calls would; a failed item writes nothing.
        """
        items = parse_array(nodes, "nodes")
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
        items = parse_array(nodes, "nodes", repair=True)
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
        data = parse_node(item, invalid_tip=False)
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
        patch_doc = parse_patch(fields)
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
        count = text.count(old_text)  # non-overlapping, as the framework counts
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
        targets = parse_array(paths, "paths")
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
                raise InvalidJson(f"Invalid JSON: '{key}' must be a JSON string, got {json_kind(value)}.")
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
            data.get("content"), identity.node_type, self.strict if strict is None else strict)
        node = Node(
            identity.id, identity.namespace, identity.name, identity.node_type, content=content, typed=typed,
            category=data.get("category"), icon=data.get("icon"), order=order, description=data.get("description"),
            pre_rendered_html=data.get("preRenderedHtml"), main_node=data.get("mainNode"),
        )
        return CreateResult(node, dropped)

    def _null_content_error(self, path: str, node_type: str) -> str:
        return (f"Error: cannot write {path}: 'content' is null. "
                "Fetch the node first with Get, modify the returned content in-place, "
                "and resend the complete node. Never send null content." + self._schema_text(node_type))
