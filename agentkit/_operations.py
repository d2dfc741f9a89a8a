"""The node operations behind the tools (MeshOperations), shared by the agent tools and their MCP twins.

Each method takes the arguments as the tool binds them and returns the text the framework answers; a
refusal is raised as an :class:`~agentkit._errors.AgentkitError`, whose text the tool answers.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from ._chunk_navigation import get_chunk, search_chunks
from ._collections import index_file_activity  # MCP upload's indexing Activity (C8)
from ._dotnet_json import compact, dotnet_json, dotnet_json_string, node_json, to_text
from ._errors import StoreCannotWrite
from ._json import load_json
from ._mesh import Mesh
from ._mesh_writes import CreateResult
from ._paths import resolve_context_path  # N4: which agent paths the chat context prefixes
from ._paths import resolve_tool_path as resolve_path  # MeshOperations.ResolvePath (N4)


def _text_arg(value: str | None) -> str:
    """A JSON-text parameter (node, nodes, fields, paths) as the operation reads it: a JSON null as `null`.

    Only text or null gets here: the agent binder and McpArgumentValidation refuse any other value (FI1, P2).
    """
    return "null" if value is None else value


class Operations:
    """MeshOperations over one mesh: each method returns the text the framework answers."""

    def __init__(self, mesh: Mesh, strict: bool | None = None, context: str | None = None) -> None:
        self.mesh = mesh
        self.strict = strict
        self.context = context  # an agent tool's chat context (N4); None for the MCP tools

    def in_context(self, path: Any) -> Any:
        """An agent tool's path argument resolved against the chat context (N4)."""
        return resolve_context_path(self.context, path) if isinstance(path, str) else path

    def get(self, path: Any) -> str:
        if not isinstance(path, str) or not path.strip():
            return "Error: path is required."
        resolved = resolve_path(path)
        if not resolved.strip():
            return "Error: path is required."
        if resolved.endswith("/*"):  # N6: a query over the index, which lags (M2)
            return node_json(self.mesh.children(resolved))
        fetched = self.mesh.fetch(path)  # fetch cleans the path once, as Get's single ResolvePath (N4)
        if fetched.kind == "node":
            return node_json(fetched.value.to_json(self.mesh.nullable_fields(fetched.value)))
        if isinstance(fetched.value, str):  # a file's text (or an image placeholder), serialized as a JSON string
            return dotnet_json_string(fetched.value)
        if fetched.kind == "collection":  # a folder's items, serialized by the hub's JSON options (UP2)
            return dotnet_json(fetched.value)
        return to_text(fetched.value)

    def search(self, query: Any, base_path: Any, limit: Any) -> str:
        if query is None and isinstance(base_path, str) and resolve_path(base_path):
            raise TypeError("Search: query.Replace on a null query")  # MeshOperations.Search dereferences it
        return to_text(self.mesh.search(str(query or ""), base_path, limit))

    def create(self, node: Any) -> str:
        return self.mesh.create(_text_arg(node), strict=self.strict).message

    def bulk_create(self, nodes: Any) -> str:
        """agentkit extension: one line per node, each as Create would answer."""
        lines = [outcome.message if isinstance(outcome, CreateResult) else f"[{position}] {outcome}"
                 for position, outcome in enumerate(self.mesh.create_many(_text_arg(nodes), strict=self.strict))]
        return "\n".join(lines) if lines else "Nothing to create: the array is empty."

    def update(self, nodes: Any) -> str:
        outcomes = self.mesh.update(_text_arg(nodes), strict=self.strict)
        return "\n".join(f"Updated: {o.path}" if isinstance(o, CreateResult) else str(o) for o in outcomes)

    def patch(self, path: Any, fields: Any) -> str:
        before = self.mesh._nodes.get(resolve_path(path)) if isinstance(path, str) else None
        result = self.mesh.patch(path, None if fields is None else _text_arg(fields), strict=self.strict)
        version = f" (v{before.version} → v{result.node.version})" if before and result.node.version > before.version else ""
        return f"Patched: {result.path}{version}"

    def edit_content(self, path: Any, old_text: Any, new_text: Any, replace_all: Any) -> str:
        result, count = self.mesh.edit_content(path, old_text or "", new_text or "", bool(replace_all))
        return f"Edited: {result.path} ({count} replacement{'' if count == 1 else 's'})"

    def delete(self, paths: Any) -> str:
        """One line per requested path (M12): ``Deleted: {path}`` or the path's error; each stands alone."""
        try:
            requested = load_json(_text_arg(paths))
        except json.JSONDecodeError as error:
            return f"Invalid JSON: {error.msg} at line {error.lineno} column {error.colno}."
        if not isinstance(requested, list) or not all(isinstance(p, str) or p is None for p in requested):
            return "Invalid JSON: 'paths' must be a JSON array of path strings."
        if not requested:
            return "No paths provided."
        lines = []
        for raw in requested:
            if raw is None or not raw.strip():
                lines.append("Error deleting: empty path")
                continue
            path = resolve_path(raw)
            if not self.mesh.exists(path):
                lines.append(f"Error deleting {path}: Node not found: {path}")
                continue
            self.mesh.delete([raw])  # the mesh cleans the path once, as Delete's single ResolvePath (N4)
            lines.append(f"Deleted: {path}")
        return "\n".join(lines)

    def move(self, source: Any, target: Any) -> str:
        self.mesh.move(source, target)
        return f"Moved: {resolve_path(source)} -> {resolve_path(target)}"

    def copy(self, source: Any, target: Any, force: Any) -> str:
        copied = self.mesh.copy(source, target, bool(force))
        return f"Copied {copied} node(s): {resolve_path(source)} -> {resolve_path(target)}"

    def get_diagnostics(self, path: Any) -> str:
        """Modelled: a missing node, and a node whose type is built in (the static fast path answers Ok)."""
        if not isinstance(path, str) or not path.strip():
            return compact({"status": "Error", "message": "path is required"})
        resolved = resolve_path(path)
        node = self.mesh._nodes.get(resolved)
        if node is None:
            return compact({"status": "Unknown", "message": f"Not found: {resolved}"})
        if node.node_type in self.mesh.builtin_node_types:
            return compact({"status": "Ok", "nodeTypePath": node.node_type,
                             "message": "Compile SUCCEEDED at . The NodeType assembly was built without errors and is loaded."})
        return (f"Error: agentkit does not model NodeType compilation; GetDiagnostics answers only for a missing "
                f"node or a built-in node type, and '{node.node_type}' is neither.")

    def recycle(self, path: Any) -> str:
        """The framework disposes the node's hub; agentkit has no hubs, so only the answer is modelled."""
        if not isinstance(path, str) or not path.strip() or not resolve_path(path).strip():
            return compact({"status": "Error", "message": "path is required"})
        return compact({"status": "Recycled", "path": resolve_path(path),
                         "message": "DisposeRequest posted + cache invalidation broadcast via MeshChangeFeed. "
                                    "Wait ~100ms before the next access."})

    def navigate_to(self, path: Any) -> str:
        """Modelled: a direct path to an existing node (case-insensitive), or a bare segment under the context.

        The framework's resolver (R9) also corrects a URL-shaped path, searches
        for the closest node and opens it, and reads free text (a blank in the
        argument) as a request for a skill or the best-matching node. agentkit
        has no search here: where no node has the path it answers the
        resolver's own text for a search that found nothing (R9).
        """
        row = path.strip() if isinstance(path, str) else ""
        quoted = len(row) >= 2 and row[0] == row[-1] and row[0] in "\"'"
        core = row[1:] if row.startswith("@") else row
        if not row or not core or (quoted and len(row) == 2):
            return "Nothing to navigate to."
        if not quoted and any(blank in core for blank in " \t\r\n"):
            return f"Couldn't find anything for \u201c{row}\u201d."
        node_path = resolve_path(row).strip("/")
        candidates = [node_path]
        if self.context and "/" not in node_path and not row.startswith("@/"):
            candidates.append(f"{self.context.strip('/')}/{node_path}")
        live = {p.lower(): p for p in self.mesh._nodes}
        for candidate in candidates:
            if candidate.lower() in live:
                return f"Navigating to: {live[candidate.lower()]}."
        return f"Nothing in the mesh matches \u201c{row}\u201d."

    def upload_content(self, node_path: Any, file_path: Any, content: Any, collection_name: Any) -> str:
        """Agent UploadContent: saves text into a collection and does NOT index it (C7).

        The text is stored as its UTF-8 bytes, and the collection's editable flag is not asked (U2).
        """
        resolved = resolve_path(resolve_context_path(self.context, str(node_path or "")))
        collection = self.mesh.collections.get(f"{resolved}/{collection_name}")
        if not self.mesh.exists(resolved):  # the framework's delivery fails; agentkit words the middle part
            return (f"Error uploading to {resolved}: no node at '{resolved}'. "
                    f"Check that '{node_path}' resolves to an existing node — pass the MeshNode's "
                    "`path` property, not its `name`.")
        if collection is None:
            return f"Error: Content collection '{collection_name}' not found"
        try:
            collection.upload(str(file_path), str(content or "").encode("utf-8"), index=False)
        except StoreCannotWrite as error:  # SaveFileContent's failed result (CC3)
            return f"Error: Error saving file '{file_path}' to collection '{collection_name}': {error}"
        return f"Uploaded `{file_path}` to @{resolved}/{collection_name}/{file_path}"

    def upload(self, path: Any, base64_content: Any) -> str:
        """MCP upload (C7): ``{node}/{collection}/{filePath}``, base64; indexed eventually (on the index's refresh)."""
        if not base64_content:
            return "Error: base64Content is required."
        try:
            data = base64.b64decode(str(base64_content), validate=True)
        except (binascii.Error, ValueError):
            return ("Error: invalid base64 content: The input is not a valid Base-64 string as it contains a "
                    "non-base 64 character, more than two padding characters, or an illegal character among the "
                    "padding characters.")
        if not isinstance(path, str) or not path.strip():
            return "Error: path is required."
        if not data:
            return "Error: content is required."
        resolved = resolve_path(path).lstrip("/")
        segments = resolved.split("/")
        prefix = next(("/".join(segments[:n]) for n in range(len(segments), 0, -1)
                       if self.mesh.exists("/".join(segments[:n]))), None)
        if prefix is None:
            return f"Error: no matching node for path '{resolved}'"
        remainder = resolved[len(prefix):].lstrip("/")
        if not remainder:
            return ("Error: path must include '{collection}/{filePath}' after the node path "
                    "(e.g. 'Systemorph/content/logo.png').")
        parts = remainder.split("/")
        if len(parts) < 2:
            return f"Error: expected '{{collection}}/{{filePath}}' in remainder '{remainder}'."
        collection_name, file_path = parts[0], "/".join(parts[1:])
        if not file_path.rsplit("/", 1)[-1]:
            return f"Error: missing filename in path '{file_path}'."
        collection = self.mesh.collections.get(f"{prefix}/{collection_name}")
        if collection is None:
            return f"Error: collection '{collection_name}' not found on '{prefix}'."
        if not collection.editable:  # U2: MCP upload asks; UploadContent does not
            return f"Error: collection '{collection_name}' on '{prefix}' is read-only."
        collection.upload(file_path, data)

        # The framework answers before indexing starts (U1): its Activity node, the chunks and the Document node
        # follow later (CC2); a failure there is not the upload's: it ends the Activity Failed (C8).
        self.mesh.index.index_in_background(lambda: index_file_activity(collection, file_path))
        return compact({"status": "Uploaded", "path": f"{prefix}/{collection_name}/{file_path}", "bytes": len(data)})

    def search_chunks(self, query: Any, scope: Any, limit: Any) -> str:
        result = search_chunks(self.mesh, str(query or ""), scope, limit)
        return to_text(result)

    def get_chunk(self, collection_path: Any, file_path: Any, chunk_index: Any) -> str:
        return to_text(get_chunk(self.mesh, str(collection_path or ""), str(file_path or ""), chunk_index))
