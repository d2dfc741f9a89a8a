"""The tool surface as the framework spells it: agent plugins and MCP tools, in one registry.

Three lists of :class:`Tool` over one :class:`~agentkit.Mesh`:

* ``mesh_plugin(mesh)``: the agent plugin ``Mesh`` (MeshPlugin.cs): ``Get``,
  ``Search``, ``NavigateTo``, ``Create``, ``Update``, ``Patch``,
  ``EditContent``, ``Delete``, ``Move``, ``Copy``, ``GetDiagnostics``,
  ``Recycle`` (M1). ``RunTests`` exists only where the framework's source repo
  does, so agentkit leaves it out. Agent tools resolve paths against the chat
  ``context`` (N4).
* ``content_collection_plugin(mesh)``: the agent plugin ``ContentCollection``:
  ``UploadContent`` (which does not index, C7), ``SearchChunks``, ``GetChunk``
  (K2).
* ``mcp_tools(mesh)``: the MCP server's tools, snake_case (P1), with the same
  parameters and no chat context; an argument the tool does not declare is
  refused before the tool runs (P2). The framework's server has 17 more
  (``MCP_METHODS_NOT_MODELLED``, P3), which agentkit does not serve.

``PATH_HANDLING`` records, tool by tool, which path arguments get the chat
context and the cleaning of blanks, ``@`` and quotes (N7).

Each tool carries its parameters, the framework's own description texts
(verbatim, ``_tool_texts``), and its read-only/destructive annotations. A tool
takes the arguments as the model sends them (a JSON-like dict) and returns the
text the model reads; it never raises, and a refusal leaves the mesh as it was.

Extensions (agentkit only, off by default, never presented as framework):
``BulkCreate`` (``bulk_create=True``; the framework has no bulk create, M14)
and strict content checks (``strict=True``).
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import re
import time
from dataclasses import dataclass
from typing import Any, Callable

from ._chunk_navigation import get_chunk, search_chunks
from ._collections import index_file_activity  # MCP upload's indexing Activity (C8)
from ._errors import AgentkitError, StoreCannotWrite, ToolArgumentError
from ._invocation import DOTNET_TYPES, MISSING_ARGUMENT, NOT_CONVERTIBLE, NULL_TEXT, LayerAnswer, Raised
from ._json import load_json
from ._mesh import Mesh
from ._mesh_writes import CreateResult
from ._paths import resolve_tool_path as resolve_path  # MeshOperations.ResolvePath (N4)
from ._paths import resolve_context_path  # N4: which agent paths the chat context prefixes
from ._dotnet_json import compact, dotnet_json, dotnet_json_string, node_json, to_text
from ._tool_parameters import Parameter, parameters_of
from ._tool_texts import CONTENT_COLLECTION_TEXTS, MCP_TEXTS, MESH_TEXTS, ToolText

MESH_PLUGIN = "Mesh"
CONTENT_COLLECTION_PLUGIN = "ContentCollection"
MCP_SERVER = "mcp"  # the plugin name agentkit gives the MCP server's tools
BULK_CREATE = "BulkCreate"

# M1: CreateAllTools' order (the read-only set, CreateTools', is the tools whose annotations say read-only).
MESH_METHODS = ("Get", "Search", "NavigateTo", "Create", "Update", "Patch", "EditContent", "Delete", "Move", "Copy",
                "GetDiagnostics", "Recycle")
CONTENT_COLLECTION_METHODS = ("UploadContent", "SearchChunks", "GetChunk")  # K2
# P1: the MCP tools agentkit models, in McpMeshPlugin.cs's order (autocomplete and the rest are not modelled).
MCP_METHODS = ("Get", "Upload", "Search", "SearchChunks", "GetChunk", "Create", "Update", "Patch", "EditContent",
               "Delete", "Move", "Copy", "NavigateTo", "GetDiagnostics", "Recycle")
# P3: the other [McpServerTool] methods of McpMeshPlugin.cs, in its order. The framework's MCP server offers them all
# (WithToolsFromAssembly); no agent plugin has them, and agentkit's server does not serve them.
MCP_METHODS_NOT_MODELLED = ("Autocomplete", "Sync", "GitHubSync", "Export", "Import", "Compile", "LspCheckNode",
                            "LspDiagnosticsForNode", "ExecuteScript", "StartThread", "SubmitMessage", "Mirror",
                            "RenderArea", "GetVersions", "GetVersion", "RestoreVersion", "RestoreFromPointInTime")

# The [McpServerTool] annotations of McpMeshPlugin.cs: (ReadOnly, Destructive); an unset Destructive is False here.
_MCP_ANNOTATIONS = {
    "Get": (True, False), "Upload": (False, False), "Search": (True, False), "SearchChunks": (True, False),
    "GetChunk": (True, False), "Create": (False, False), "Update": (False, True), "Patch": (False, True),
    "EditContent": (False, True), "Delete": (False, True), "Move": (False, True), "Copy": (False, False),
    "NavigateTo": (True, False), "GetDiagnostics": (True, False), "Recycle": (False, True),
}
_AGENT_TO_MCP = {"UploadContent": "Upload"}  # the agent method whose MCP counterpart has another name


@dataclass(frozen=True)
class PathHandling:
    """What one tool does with one path argument before the operation reads it (N7).

    ``context``: the agent tool resolves it against the chat context (MeshOperations.ResolveContextPath), so a
    single segment or a path that starts with a reserved word lands under the context node. ``clean``: ResolvePath
    drops surrounding blanks, every ``"`` and ``'``, and one leading ``@``. ``note`` says what is special.
    """

    plugin: str
    tool: str
    parameter: str
    context: bool
    clean: bool
    note: str = ""


# N7, read tool by tool in MeshPlugin.cs, ContentCollectionPlugin.cs and McpMeshPlugin.cs down to MeshOperations.
# NavigateTo is left out: the agent tool hands its argument to a resolver of its own (M14, R9).
# The notes several rows share.
_NAMESPACE_FIELD = "the `namespace` field; every leading `/` is dropped too"
_EACH_PATH = "each path of the array"
_COMPARED_AS_SENT = "compared as sent"
_LEADING_SLASHES = "every leading `/` is dropped too"
PATH_HANDLING: tuple[PathHandling, ...] = (
    # plugin, tool, parameter, chat context, cleaned[, note]
    PathHandling(MESH_PLUGIN, "Get", "path", True, True),
    PathHandling(MESH_PLUGIN, "Search", "basePath", True, True),
    PathHandling(MESH_PLUGIN, "Patch", "path", True, True),
    PathHandling(MESH_PLUGIN, "EditContent", "path", True, True),
    PathHandling(MESH_PLUGIN, "Move", "sourcePath", True, True),
    PathHandling(MESH_PLUGIN, "Move", "targetPath", True, True),
    PathHandling(MESH_PLUGIN, "Copy", "sourcePath", True, True),
    PathHandling(MESH_PLUGIN, "Copy", "targetNamespace", True, True),
    PathHandling(MESH_PLUGIN, "GetDiagnostics", "path", True, True),
    PathHandling(MESH_PLUGIN, "Recycle", "path", True, True),
    PathHandling(MESH_PLUGIN, "Create", "node", False, True, _NAMESPACE_FIELD),
    PathHandling(MESH_PLUGIN, "Update", "nodes", False, True, _NAMESPACE_FIELD),
    PathHandling(MESH_PLUGIN, "Delete", "paths", False, True, _EACH_PATH),
    PathHandling(CONTENT_COLLECTION_PLUGIN, "UploadContent", "nodePath", True, True),
    PathHandling(CONTENT_COLLECTION_PLUGIN, "SearchChunks", "scope", True, True,
                 "absent: the chat context; the search then drops every leading `@` left and `/` at either end"),
    PathHandling(CONTENT_COLLECTION_PLUGIN, "UploadContent", "filePath", False, False, "saved as sent"),
    PathHandling(CONTENT_COLLECTION_PLUGIN, "GetChunk", "collectionPath", False, False, _COMPARED_AS_SENT),
    PathHandling(CONTENT_COLLECTION_PLUGIN, "GetChunk", "filePath", False, False, _COMPARED_AS_SENT),
    PathHandling(MCP_SERVER, "search_chunks", "scope", False, True,
                 "the search then drops every leading `@` left and `/` at either end, in that order: "
                 "`/@A/content` is `@A/content`"),
    PathHandling(MCP_SERVER, "get", "path", False, True),
    PathHandling(MCP_SERVER, "search", "basePath", False, True),
    PathHandling(MCP_SERVER, "patch", "path", False, True),
    PathHandling(MCP_SERVER, "edit_content", "path", False, True),
    PathHandling(MCP_SERVER, "move", "sourcePath", False, True),
    PathHandling(MCP_SERVER, "move", "targetPath", False, True),
    PathHandling(MCP_SERVER, "copy", "sourcePath", False, True),
    PathHandling(MCP_SERVER, "copy", "targetNamespace", False, True),
    PathHandling(MCP_SERVER, "get_diagnostics", "path", False, True),
    PathHandling(MCP_SERVER, "recycle", "path", False, True),
    PathHandling(MCP_SERVER, "navigate_to", "path", False, True, _LEADING_SLASHES),
    PathHandling(MCP_SERVER, "get_chunk", "collectionPath", False, True,
                 "a leading `/` stays and is compared: `@/A/content` names nothing"),
    PathHandling(MCP_SERVER, "upload", "path", False, True, _LEADING_SLASHES),
    PathHandling(MCP_SERVER, "create", "node", False, True, _NAMESPACE_FIELD),
    PathHandling(MCP_SERVER, "update", "nodes", False, True, _NAMESPACE_FIELD),
    PathHandling(MCP_SERVER, "delete", "paths", False, True, _EACH_PATH),
    PathHandling(MCP_SERVER, "get_chunk", "filePath", False, False, _COMPARED_AS_SENT),
)


# A5: Microsoft.Extensions.AI's answer to a call of a tool the agent was not offered; the round continues.
UNOFFERED_TOOL_TEXT = 'Error: Requested function "{name}" not found.'


def unoffered_tool_answer(name: str) -> str:
    """What the model reads after calling a tool it was not offered (A5)."""
    return UNOFFERED_TOOL_TEXT.format(name=name)


@dataclass(frozen=True)
class Tool:
    """One tool as offered to a model (or an MCP client)."""

    name: str
    plugin: str
    description: str
    call: Callable[[dict], str]
    parameters: tuple[Parameter, ...] = ()
    read_only: bool = False
    destructive: bool = False

    @property
    def signature(self) -> str:
        """``name(a, b=default)`` as the facts write it."""
        return f"{self.name}({', '.join(_signature_part(p) for p in self.parameters)})"


def _signature_part(parameter: Parameter) -> str:
    if parameter.required:
        return parameter.name
    return f"{parameter.name}={json.dumps(parameter.default)}"


def snake_case(method: str) -> str:
    """The MCP SDK's name for a method (JsonNamingPolicy.SnakeCaseLower, P1): ``GetChunk`` → ``get_chunk``."""
    out = []
    for position, char in enumerate(method):
        if char.isupper() and position and (method[position - 1].islower() or
                                            (position + 1 < len(method) and method[position + 1].islower())):
            out.append("_")
        out.append(char.lower())
    return "".join(out)


# -- the operations (MeshOperations), shared by agent and MCP tools ----------------------------------
def _text_arg(value: str | None) -> str:
    """A JSON-text parameter (node, nodes, fields, paths) as the operation reads it: a JSON null as `null`.

    Only text or null gets here: the agent binder and McpArgumentValidation refuse any other value (FI1, P2).
    """
    return "null" if value is None else value


class _Operations:
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


# Where a tool body fails unexpectedly, the framework's invocation layers answer a fixed text: the agent's
# FunctionInvokingChatClient (detailed errors off) and the MCP SDK's tools/call wrapper (McpArgumentValidation's
# doc names it). agentkit answers the same, so that no exception reaches the model or a client.
FUNCTION_FAILED = "Error: Function failed."
MCP_INVOCATION_FAILED = "An error occurred invoking '{tool}'."
_WHOLE_NUMBER_DIGITS = 18


def _coerced(parameter: Parameter, value: Any) -> Any:
    """An argument as the tool body may use it, or a ToolArgumentError naming what is wrong with it."""
    kind = parameter.type
    if kind == "string":
        # AIFunctionFactory deserializes the argument's JSON into a string: an object, an array, a number or a
        # flag there throws (FI1), Create's `node` and Patch's `fields` included.
        if isinstance(value, str):
            return value
    elif kind == "integer":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):
            digits = value.strip().lstrip("+-")
            if len(digits) > _WHOLE_NUMBER_DIGITS:  # far outside every range a tool clamps to
                return -(10 ** _WHOLE_NUMBER_DIGITS) if value.strip().startswith("-") else 10 ** _WHOLE_NUMBER_DIGITS
            return int(value)
    elif kind == "boolean":
        if isinstance(value, bool):
            return value
    raise ToolArgumentError(f"Error: argument '{parameter.name}' must be {_ARTICLE[kind]}, got {_kind_of(value)}.")


_ARTICLE = {"string": "a string", "integer": "a whole number", "boolean": "true or false",
            "object": "an object", "array": "an array"}


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return {str: "a string", list: "an array", dict: "an object"}.get(type(value), "null")


# The text arguments whose JSON null the framework's operation passes to JsonSerializer.Deserialize, which throws
# ArgumentNullException outside the JsonException catch (MeshOperations.Create/Update/Delete): the call raises.
NULL_RAISES = frozenset({"node", "nodes", "paths"})
# AccessContextAIFunction: every agent tool without [ToolTimeout] is bounded to 30 s; on expiry the model reads
# this text while the operation runs on (MP3). agentkit's operations are synchronous: a call that took longer
# answers the text after its work is done, which is what the framework's orphaned operation may still do.
AGENT_TOOL_TIMEOUT_SECONDS = 30
AGENT_TOOL_TIMED_OUT = "Tool '{name}' timed out after {seconds}s. Add [ToolTimeout(N)] to allow longer."
_clock = time.monotonic  # the agent tools' stopwatch (a test replaces it)


def _nulls(parameters: tuple[Parameter, ...], *, binds_text: bool, raises_types: tuple[str, ...] = ()) -> dict[str, str]:
    """What a JSON null does to each argument of a tool (see :func:`_answering`): the framework's call raises on
    the arguments of ``NULL_RAISES`` and those of ``raises_types``; with ``binds_text`` (the Mesh tools, whose
    operations check their text arguments) a text argument's null reaches the operation."""
    return {p.name: "raises" if p.name in NULL_RAISES or p.type in raises_types else
            "binds" if binds_text and p.type == "string" else "absent" for p in parameters}


def _answering(function: Callable[[dict], str], parameters: tuple[Parameter, ...],
               failed: str = FUNCTION_FAILED, *, nulls: dict[str, str] | None = None, binder: bool = True,
               passes: tuple[type[BaseException], ...] = ()) -> Callable[[dict], str]:
    """Wrap a tool body so that it always answers text: refusals become their message, never an exception.

    Arguments the tool does not declare are ignored (the agent binder drops them). A JSON null does what
    ``nulls`` says for its argument (default: :func:`_nulls` without ``binds_text``): ``raises``, the
    framework's call raises and ``failed`` is answered; ``binds``, the operation reads None; ``absent``, it
    counts as absent. With ``binder`` (the agent tools), an argument that does not bind (a missing required
    one, or a JSON value of another type, FI1) makes AIFunctionFactory throw before the tool runs: ``failed``
    is answered. The MCP tools (``binder=False``) are checked by McpArgumentValidation first, in words of its
    own. An exception of a type in ``passes`` leaves the wrapper (``_timed`` answers a TimeoutError).
    """
    if nulls is None:
        nulls = _nulls(parameters, binds_text=False)

    def call(arguments: dict) -> str:
        if not isinstance(arguments, dict):
            return f"Error: tool arguments must be a JSON object, got {type(arguments).__name__}"
        bound: dict[str, Any] = {}
        try:
            for parameter in parameters:
                value = arguments.get(parameter.name)
                null = nulls[parameter.name] if value is None and parameter.name in arguments else None
                if null == "raises":
                    return Raised(failed, NULL_TEXT)
                if null == "binds":
                    bound[parameter.name] = None  # the binder passes a JSON null on to the operation
                    continue
                if value is None:
                    if parameter.required:
                        # An absent required argument throws in the binder; a JSON null reaches the tool.
                        return Raised(failed, MISSING_ARGUMENT.format(name=parameter.name)) \
                            if binder and parameter.name not in arguments \
                            else f"Error: missing required argument '{parameter.name}'"
                    continue
                try:
                    bound[parameter.name] = _coerced(parameter, value)
                except ToolArgumentError as error:
                    if not binder:
                        return str(error)
                    return Raised(failed, NOT_CONVERTIBLE.format(type=DOTNET_TYPES.get(parameter.type, parameter.type)))
            return function(bound)
        except ToolArgumentError as error:
            return Raised(failed, str(error)) if binder else str(error)
        except AgentkitError as error:
            return str(error)
        except passes:
            raise
        except Exception as error:  # noqa: BLE001 - the framework's invocation layer answers a fixed text, see FUNCTION_FAILED
            return Raised(failed, str(error) or type(error).__name__)

    return call


def _tool(name: str, plugin: str, text: ToolText, body: Callable[[dict], str], annotations: tuple[bool, bool]) -> Tool:
    parameters = parameters_of(text)
    nulls = _nulls(parameters, binds_text=plugin == MESH_PLUGIN)
    answering = _answering(body, parameters, nulls=nulls, passes=(TimeoutError,))
    return Tool(name, plugin, text[0], _timed(name, answering), parameters, *annotations)


def _timed(name: str, call: Callable[[dict], str]) -> Callable[[dict], str]:
    """AccessContextAIFunction's bound on an agent tool (MP3): past 30 s the model reads the timed-out text.

    Its ``catch (TimeoutException)`` also takes one the tool throws itself (Python's TimeoutError stands for
    it): that call answers the same text, a string, so it never counts toward the consecutive-error limit.
    ``call`` must let TimeoutError through (``_answering(..., passes=(TimeoutError,))``).
    """

    def timed(arguments: dict) -> str:
        started = _clock()
        try:
            answer = call(arguments)
        except TimeoutError:
            return LayerAnswer(AGENT_TOOL_TIMED_OUT.format(name=name, seconds=AGENT_TOOL_TIMEOUT_SECONDS))
        if _clock() - started > AGENT_TOOL_TIMEOUT_SECONDS:
            return LayerAnswer(AGENT_TOOL_TIMED_OUT.format(name=name, seconds=AGENT_TOOL_TIMEOUT_SECONDS))
        return answer

    return timed


def _agent_annotations(method: str) -> tuple[bool, bool]:
    """Agent tools declare no annotations; they are their MCP counterparts' (which agree with M1's read-only set)."""
    return _MCP_ANNOTATIONS[_AGENT_TO_MCP.get(method, method)]


# -- the tools: one body per method, for the agent tool and its MCP twin --------------------------------------
# Each body takes the operations, the path an agent tool resolves against its chat context (an MCP tool takes the
# path as sent: N4) and the bound arguments. NavigateTo, SearchChunks and GetChunk differ between the two.
_Body = Callable[[_Operations, Callable[[Any], Any], dict], str]
_BODIES: dict[str, _Body] = {
    "Get": lambda ops, at, a: ops.get(at(a["path"])),
    "Search": lambda ops, at, a: ops.search(a["query"], at(a.get("basePath")), a.get("limit", 50)),
    "Create": lambda ops, at, a: ops.create(a["node"]),
    "Update": lambda ops, at, a: ops.update(a["nodes"]),
    "Patch": lambda ops, at, a: ops.patch(at(a["path"]), a["fields"]),
    "EditContent": lambda ops, at, a: ops.edit_content(at(a["path"]), a["oldText"], a["newText"],
                                                      a.get("replaceAll", False)),
    "Delete": lambda ops, at, a: ops.delete(a["paths"]),
    "Move": lambda ops, at, a: ops.move(at(a["sourcePath"]), at(a["targetPath"])),
    "Copy": lambda ops, at, a: ops.copy(at(a["sourcePath"]), at(a["targetNamespace"]), a.get("force", False)),
    "GetDiagnostics": lambda ops, at, a: ops.get_diagnostics(at(a["path"])),
    "Recycle": lambda ops, at, a: ops.recycle(at(a["path"])),
    "UploadContent": lambda ops, at, a: ops.upload_content(a["nodePath"], a["filePath"], a["content"],
                                                          a.get("collectionName") or "content"),
    "Upload": lambda ops, at, a: ops.upload(a["path"], a["base64Content"]),
}


def _bodies(ops: _Operations, at: Callable[[Any], Any]) -> dict[str, Callable[[dict], str]]:
    return {method: functools.partial(body, ops, at) for method, body in _BODIES.items()}


def _as_sent(path: Any) -> Any:
    return path


# -- the agent plugins ---------------------------------------------------------------------------------
def mesh_plugin(mesh: Mesh, *, context: str | None = None, bulk_create: bool = False,
                strict: bool | None = None) -> list[Tool]:
    """The agent plugin ``Mesh``: its twelve tools over ``mesh`` (M1), paths resolved against ``context`` (N4).

    Extensions, off by default: ``bulk_create=True`` adds ``BulkCreate``
    (after ``Create``); ``strict`` overrides the mesh's strict mode for
    Create, Update and Patch.
    """
    ops = _Operations(mesh, strict, context)
    bodies = _bodies(ops, ops.in_context)
    bodies["NavigateTo"] = lambda a: ops.navigate_to(a["path"])
    tools = [_tool(method, MESH_PLUGIN, MESH_TEXTS[method], bodies[method], _agent_annotations(method))
             for method in MESH_METHODS]
    if bulk_create:
        bulk_text: ToolText = (
            "[agentkit extension, not in the framework] Creates each node of a JSON array as Create would; "
            "one result line per node.",
            {"nodes": ("string", None, "JSON array of MeshNode objects, each as Create takes it")},
        )
        tools.insert(MESH_METHODS.index("Create") + 1,
                     _tool(BULK_CREATE, MESH_PLUGIN, bulk_text, lambda a: ops.bulk_create(a["nodes"]), (False, False)))
    return tools


def content_collection_plugin(mesh: Mesh, *, context: str | None = None) -> list[Tool]:
    """The agent plugin ``ContentCollection`` (K2): ``UploadContent``, ``SearchChunks``, ``GetChunk``.

    ``SearchChunks`` without a ``scope`` anchors at the chat ``context`` (K4);
    ``UploadContent`` saves without indexing (C7).
    """
    ops = _Operations(mesh, context=context)

    def scope_of(arguments: dict) -> str | None:
        scope = arguments.get("scope")
        if isinstance(scope, str) and scope.strip():
            return resolve_path(resolve_context_path(context, scope))
        return context

    bodies = _bodies(ops, ops.in_context)
    bodies["SearchChunks"] = lambda a: ops.search_chunks(a["query"], scope_of(a), a.get("limit", 20))
    bodies["GetChunk"] = lambda a: ops.get_chunk(a["collectionPath"], a["filePath"], a["chunkIndex"])
    return [_tool(method, CONTENT_COLLECTION_PLUGIN, CONTENT_COLLECTION_TEXTS[method], bodies[method],
                  _agent_annotations(method)) for method in CONTENT_COLLECTION_METHODS]


# -- the MCP server -----------------------------------------------------------------------------------
def mcp_tools(mesh: Mesh, *, base_url: str = "") -> list[Tool]:
    """The MCP tools over ``mesh`` (P1, P2): snake_case names, the agent tools' parameters, no chat context.

    Every call first passes McpArgumentValidation: an argument name the tool
    does not declare, a missing required one, or a value of the wrong JSON type
    is refused with the framework's text. ``navigate_to`` returns
    ``{base_url}/{path}`` (M14).
    """
    ops = _Operations(mesh)

    def navigate(arguments: dict) -> str:
        path = arguments.get("path")
        if not isinstance(path, str) or not path.strip():
            return base_url.rstrip("/")
        return f"{base_url.rstrip('/')}/{resolve_path(path).lstrip('/')}"

    def chunk_scope(arguments: dict) -> str | None:
        scope = arguments.get("scope")
        return resolve_path(scope) if isinstance(scope, str) and scope.strip() else None

    bodies = _bodies(ops, _as_sent)
    bodies["NavigateTo"] = navigate
    bodies["SearchChunks"] = lambda a: ops.search_chunks(a["query"], chunk_scope(a), a.get("limit", 20))
    bodies["GetChunk"] = lambda a: ops.get_chunk(resolve_path(str(a["collectionPath"])), a["filePath"], a["chunkIndex"])
    tools = []
    for method in MCP_METHODS:
        name = snake_case(method)
        text = MCP_TEXTS[method]
        parameters = parameters_of(text)
        # McpArgumentValidation lets JSON null through (MP4): the binder cannot make it a number or a flag.
        nulls = _nulls(parameters, binds_text=method in MESH_METHODS, raises_types=("integer", "boolean"))
        body = _answering(bodies[method], parameters, MCP_INVOCATION_FAILED.format(tool=name), nulls=nulls,
                          binder=False)
        tools.append(Tool(name, MCP_SERVER, text[0], _validated(name, parameters, body), parameters,
                          *_MCP_ANNOTATIONS[method]))
    return tools


def _validated(tool: str, parameters: tuple[Parameter, ...], body: Callable[[dict], str]) -> Callable[[dict], str]:
    """McpArgumentValidation.CallToolFilter: refuse what the binder would drop or choke on, naming the argument."""

    def call(arguments: dict) -> str:
        try:
            error = mcp_argument_error(tool, parameters, arguments if isinstance(arguments, dict) else {})
        except Exception:  # noqa: BLE001 - the SDK's tools/call wrapper answers a fixed text
            return MCP_INVOCATION_FAILED.format(tool=tool)
        return error if error is not None else body(arguments)

    return call


def mcp_argument_error(tool: str, parameters: tuple[Parameter, ...], arguments: dict) -> str | None:
    """McpArgumentValidation.Validate: unknown name, then missing required, then wrong type; ``None`` when the call binds."""
    expected = [p.name for p in parameters]
    for key in arguments:
        if key not in expected:
            suggestion = _closest_match(key, expected)
            return (f"Error: unknown argument '{key}' for tool '{tool}' — expected one of: {', '.join(expected)}."
                    + (f" Did you mean '{suggestion}'?" if suggestion else "")
                    + " (Tool schemas change between releases — call tools/list for the current shape.)")
    required = [p.name for p in parameters if p.required]
    for name in required:
        if name not in arguments:
            return f"Error: missing required argument '{name}' for tool '{tool}' — required: {', '.join(required)}."
    by_name = {p.name: p for p in parameters}
    for key, value in arguments.items():
        declared = by_name[key].type
        if value is not None and not _accepts(declared, value):
            return f"Error: argument '{key}' for tool '{tool}' expects {declared}, got {_describe(value)}."
    return None


def _accepts(declared: str, value: Any) -> bool:
    if declared == "string":
        return isinstance(value, str)
    if declared == "integer":  # NumberHandling = AllowReadingFromString: a numeric string binds
        if isinstance(value, bool):
            return False
        return isinstance(value, (int, float)) or (isinstance(value, str) and value.strip().lstrip("+-").isdigit())
    if declared == "boolean":
        return isinstance(value, bool)
    if declared == "array":
        return isinstance(value, list)
    if declared == "object":
        return isinstance(value, dict)
    return True


def _describe(value: Any) -> str:
    kind = ("string" if isinstance(value, str) else "boolean" if isinstance(value, bool) else
            "number" if isinstance(value, (int, float)) else "array" if isinstance(value, list) else
            "object" if isinstance(value, dict) else "null")
    try:
        raw = json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("\n", " ")
    except (ValueError, RecursionError):  # a number past Python's digit limit, or nesting past its recursion limit
        raw = "…" * 61
    return f"{kind} ({raw})" if len(raw) <= 60 else f"{kind} ({raw[:59]}…)"


def _closest_match(supplied: str, expected: list[str]) -> str | None:
    normalized = supplied.replace("_", "").lower()
    best, best_distance = None, None
    for candidate in expected:
        distance = _edit_distance(normalized, candidate.replace("_", "").lower())
        if best_distance is None or distance < best_distance:
            best, best_distance = candidate, distance
    if best is None or best_distance is None:
        return None
    return best if best_distance <= max(2, len(best.replace("_", "").lower()) // 3) else None


def _edit_distance(left: str, right: str) -> int:
    previous = list(range(len(right) + 1))
    for i, a in enumerate(left, 1):
        current = [i]
        for j, b in enumerate(right, 1):
            current.append(min(current[j - 1] + 1, previous[j] + 1, previous[j - 1] + (a != b)))
        previous = current
    return previous[-1]


def tools_by_name(tools: list[Tool]) -> dict[str, Tool]:
    """Index a tool list by tool name."""
    return {tool.name: tool for tool in tools}

