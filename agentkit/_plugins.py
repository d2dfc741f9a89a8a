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

Each tool carries its parameters (``_tool_parameters``), the framework's own description texts
(verbatim, ``_tool_texts``), and its read-only/destructive annotations. A tool
takes the arguments as the model sends them (a JSON-like dict) and returns the
text the model reads; it never raises, and a refusal leaves the mesh as it was.
The operations behind the tools are ``_operations``; the MCP tools' argument check
is ``_mcp_validation``.

Extensions (agentkit only, off by default, never presented as framework):
``BulkCreate`` (``bulk_create=True``; the framework has no bulk create, M14)
and strict content checks (``strict=True``).
"""

from __future__ import annotations

import functools
import json
import re
import time
from dataclasses import dataclass
from typing import Any, Callable

from ._errors import AgentkitError, ToolArgumentError
from ._invocation import DOTNET_TYPES, MISSING_ARGUMENT, NOT_CONVERTIBLE, NULL_TEXT, LayerAnswer, Raised
from ._mesh import Mesh
from ._paths import resolve_tool_path as resolve_path  # MeshOperations.ResolvePath (N4)
from ._paths import resolve_context_path  # N4: which agent paths the chat context prefixes
from ._mcp_validation import mcp_argument_error
from ._operations import Operations
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


def snake_case(method: str) -> str:
    """The MCP SDK's name for a method (JsonNamingPolicy.SnakeCaseLower, P1): ``GetChunk`` → ``get_chunk``."""
    out = []
    for position, char in enumerate(method):
        if char.isupper() and position and (method[position - 1].islower() or
                                            (position + 1 < len(method) and method[position + 1].islower())):
            out.append("_")
        out.append(char.lower())
    return "".join(out)


# N7, read tool by tool in MeshPlugin.cs, ContentCollectionPlugin.cs and McpMeshPlugin.cs down to MeshOperations.
# NavigateTo is left out: the agent tool hands its argument to a resolver of its own (M14, R9).
# The notes several rows share.
_NAMESPACE_FIELD = "the `namespace` field; every leading `/` is dropped too"
_EACH_PATH = "each path of the array"
_COMPARED_AS_SENT = "compared as sent"
_LEADING_SLASHES = "every leading `/` is dropped too"
# The Mesh tools' path parameters that go through ResolveContextPath, then ResolvePath.
_CONTEXT_PATHS = (("Get", "path"), ("Search", "basePath"), ("Patch", "path"), ("EditContent", "path"),
                  ("Move", "sourcePath"), ("Move", "targetPath"), ("Copy", "sourcePath"), ("Copy", "targetNamespace"),
                  ("GetDiagnostics", "path"), ("Recycle", "path"))
PATH_HANDLING: tuple[PathHandling, ...] = (
    # plugin, tool, parameter, chat context, cleaned[, note]
    *(PathHandling(MESH_PLUGIN, tool, parameter, True, True) for tool, parameter in _CONTEXT_PATHS),
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
    # Their MCP twins: the same parameters, with no chat context.
    *(PathHandling(MCP_SERVER, snake_case(tool), parameter, False, True) for tool, parameter in _CONTEXT_PATHS),
    PathHandling(MCP_SERVER, "navigate_to", "path", False, True, _LEADING_SLASHES),
    PathHandling(MCP_SERVER, "get_chunk", "collectionPath", False, True,
                 "a leading `/` stays and is compared: `@/A/content` names nothing"),
    PathHandling(MCP_SERVER, "upload", "path", False, True, _LEADING_SLASHES),
    PathHandling(MCP_SERVER, "create", "node", False, True, _NAMESPACE_FIELD),
    PathHandling(MCP_SERVER, "update", "nodes", False, True, _NAMESPACE_FIELD),
    PathHandling(MCP_SERVER, "delete", "paths", False, True, _EACH_PATH),
    PathHandling(MCP_SERVER, "get_chunk", "filePath", False, False, _COMPARED_AS_SENT),
)


# N14: two more agent plugins whose path arguments take both steps, as the Mesh rows marked "yes" twice above
# (CollaborationPlugin.cs, LspPlugin.cs). agentkit models neither plugin, so PATH_HANDLING has no row for them.
CONTEXT_PATHS_NOT_MODELLED: tuple[PathHandling, ...] = tuple(
    PathHandling(plugin, tool, parameter, True, True) for plugin, tool, parameter in (
        ("Collaboration", "AddComment", "documentPath"), ("Collaboration", "SuggestEdit", "documentPath"),
        ("Lsp", "LspCheckNode", "nodeTypePath"), ("Lsp", "LspCheckNode", "sourcePath"),
        ("Lsp", "LspDiagnosticsForNode", "nodeTypePath"),
        ("Lsp", "LspHoverForNode", "nodeTypePath"), ("Lsp", "LspHoverForNode", "sourcePath"),
        ("Lsp", "LspCompletionsForNode", "nodeTypePath"), ("Lsp", "LspCompletionsForNode", "sourcePath"),
    ))


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
_Body = Callable[[Operations, Callable[[Any], Any], dict], str]
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


def _bodies(ops: Operations, at: Callable[[Any], Any]) -> dict[str, Callable[[dict], str]]:
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
    ops = Operations(mesh, strict, context)
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
    ops = Operations(mesh, context=context)

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
    ops = Operations(mesh)

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


def tools_by_name(tools: list[Tool]) -> dict[str, Tool]:
    """Index a tool list by tool name."""
    return {tool.name: tool for tool in tools}

