"""The agent-facing tool layer: what a model sees is names, descriptions and strings.

``mesh_plugin(mesh)`` returns the framework's ``Mesh`` tools (``Get``,
``Search``, ``Create``, ``Update``, ``Patch``, ``Delete``, ``Move``, ``Copy``,
``NavigateTo``); ``chunk_plugin(mesh)`` returns the three chunk tools
(``search``, ``search_chunks``, ``get_chunk``) under the plugin name
``ContentChunks``. Each tool takes the arguments as the model sends them (a
JSON-like dict) and returns the text the model reads. A refusal is returned
as text too, never raised: the model reads the error and may correct itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from ._chunks import get_chunk, search_chunks, search_documents
from ._errors import AgentkitError
from ._mesh import CreateResult, Mesh

MESH_PLUGIN = "Mesh"
CHUNK_PLUGIN = "ContentChunks"
BULK_CREATE = "BulkCreate"


@dataclass(frozen=True)
class Tool:
    """One tool as offered to a model."""

    name: str
    plugin: str
    description: str
    call: Callable[[dict], str]


def to_text(value: Any) -> str:
    """Render a tool result value as the JSON text a model reads."""
    return json.dumps(value, ensure_ascii=False, indent=2)


def _guarded(function: Callable[[dict], str], required: tuple[str, ...]) -> Callable[[dict], str]:
    def call(arguments: dict) -> str:
        if not isinstance(arguments, dict):
            return f"Error: tool arguments must be a JSON object, got {type(arguments).__name__}"
        missing = [name for name in required if arguments.get(name) in (None, "")]
        if missing:
            return f"Error: missing required argument '{missing[0]}'"
        try:
            return function(arguments)
        except AgentkitError as error:
            return str(error)

    return call


def mesh_plugin(mesh: Mesh, *, bulk_create: bool = False, strict: bool | None = None) -> list[Tool]:
    """The ``Mesh`` plugin's tools over ``mesh``.

    ``bulk_create=True`` adds ``BulkCreate``, an agentkit extension the
    framework does not have. ``strict`` overrides the mesh's strict mode for
    Create, Update and Patch.
    """

    def get(args: dict) -> str:
        fetched = mesh.fetch(str(args["path"]))
        if fetched.kind == "node":
            return to_text(fetched.value.to_json())
        if fetched.kind == "file":
            return fetched.value
        return to_text(fetched.value)

    def search(args: dict) -> str:
        return to_text(mesh.search(str(args.get("query") or ""), args.get("basePath"), args.get("limit")))

    def create(args: dict) -> str:
        return mesh.create(args["node"], strict=strict).message

    def bulk(args: dict) -> str:
        lines = []
        for position, outcome in enumerate(mesh.create_many(args["nodes"], strict=strict)):
            lines.append(outcome.message if isinstance(outcome, CreateResult) else f"[{position}] {outcome}")
        return "\n".join(lines) if lines else "Nothing to create: the array is empty."

    def update(args: dict) -> str:
        return "\n".join(f"Updated: {result.path}" for result in mesh.update(args["nodes"], strict=strict))

    def patch(args: dict) -> str:
        return f"Patched: {mesh.patch(str(args['path']), args['fields'], strict=strict).path}"

    def delete(args: dict) -> str:
        deleted = mesh.delete(args["paths"])
        return "\n".join(f"Deleted: {path}" for path in deleted) if deleted else "Nothing to delete."

    def move(args: dict) -> str:
        return "\n".join(f"Moved: {old} -> {new}" for old, new in mesh.move(str(args["source"]), str(args["target"])))

    def copy(args: dict) -> str:
        return "\n".join(f"Copied: {old} -> {new}" for old, new in mesh.copy(str(args["source"]), str(args["target"])))

    def navigate(args: dict) -> str:
        mesh.fetch(str(args["path"]))  # refuses a path that does not resolve
        return f"Navigated to {args['path']}"

    tools = [
        Tool("Get", MESH_PLUGIN,
             "Get(path): a node as JSON; 'path/*' lists children as {path, name, nodeType, icon}; "
             "a file path {collectionPath}/{filePath} returns the file's full text.",
             _guarded(get, ("path",))),
        Tool("Search", MESH_PLUGIN,
             "Search(query, basePath?, limit=50): nodes from the search index, limit clamped to 1..200; "
             "returns {count, limit, truncated, results, hint?}. The index lags behind writes.",
             _guarded(search, ())),
        Tool("Create", MESH_PLUGIN,
             "Create(node): one node as JSON with id, name, nodeType and content carrying the exact $type "
             "and field names of the registered type (unknown fields are dropped silently). Returns 'Created: {path}'.",
             _guarded(create, ("node",))),
        Tool("Update", MESH_PLUGIN,
             "Update(nodes): JSON array of whole nodes to replace; content is required.",
             _guarded(update, ("nodes",))),
        Tool("Patch", MESH_PLUGIN,
             "Patch(path, fields): merge fields into the node's content (RFC 7396; null removes a field).",
             _guarded(patch, ("path", "fields"))),
        Tool("Delete", MESH_PLUGIN,
             "Delete(paths): JSON array of node paths; each is deleted with everything below it.",
             _guarded(delete, ("paths",))),
        Tool("Move", MESH_PLUGIN, "Move(source, target): move a node and its subtree to the target path.",
             _guarded(move, ("source", "target"))),
        Tool("Copy", MESH_PLUGIN, "Copy(source, target): copy a node and its subtree to the target path.",
             _guarded(copy, ("source", "target"))),
        Tool("NavigateTo", MESH_PLUGIN, "NavigateTo(path): show the path to the user.",
             _guarded(navigate, ("path",))),
    ]
    if bulk_create:
        tools.insert(3, Tool(
            BULK_CREATE, MESH_PLUGIN,
            "BulkCreate(nodes) [agentkit extension, not in the framework]: a JSON array of nodes, each created "
            "as Create would; one result line per node.",
            _guarded(bulk, ("nodes",)),
        ))
    return tools


def chunk_plugin(mesh: Mesh) -> list[Tool]:
    """The three chunk tools (plugin ``ContentChunks``) over every collection of ``mesh``."""

    def search(args: dict) -> str:
        return to_text(search_documents(mesh, str(args["query"]), args.get("scope"), args.get("limit")))

    def chunks(args: dict) -> str:
        return to_text(search_chunks(mesh, str(args["query"]), args.get("scope"), args.get("limit")))

    def chunk(args: dict) -> str:
        return to_text(get_chunk(mesh, str(args["collectionPath"]), str(args["filePath"]), args["chunkIndex"]))

    return [
        Tool("search", CHUNK_PLUGIN,
             "search(query, scope?, limit=20): documents (their Document nodes), one result per file.",
             _guarded(search, ("query",))),
        Tool("search_chunks", CHUNK_PLUGIN,
             "search_chunks(query, scope?, limit=20): matching chunks {documentPath, collectionPath, filePath, "
             "chunkIndex, rank, snippet, page?}, best first, limit clamped to 1..200.",
             _guarded(chunks, ("query",))),
        Tool("get_chunk", CHUNK_PLUGIN,
             "get_chunk(collectionPath, filePath, chunkIndex): one chunk with prevIndex/nextIndex and totalChunks.",
             _guarded(chunk, ("collectionPath", "filePath", "chunkIndex"))),
    ]


def tools_by_name(tools: list[Tool]) -> dict[str, Tool]:
    """Index a tool list by tool name."""
    return {tool.name: tool for tool in tools}
