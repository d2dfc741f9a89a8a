"""An MCP server over a list of self-describing tools, built on the SDK's low-level `Server`.

A tool here is anything with `name`, `description`, `parameters` (each with
`name`, `type`, `required`, `default`, `description`), `read_only`,
`destructive` and `call(arguments) -> str`: agentkit's `mcp_tools(mesh)`.
Nothing in this module knows what a tool does: it publishes the tools, relays
each call's arguments and answers with the tool's text. An optional `refuse`
hook names the calls the framework's MCP layer answers as errors (its argument
filter); their text comes from the hook, the result is flagged `isError`.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TextIO

import mcp_types as types
from mcp.server import Server
from mcp.shared.exceptions import MCPError

SERVER_NAME = "agentkit"

# The parameter types a tool may declare: JSON Schema's own names, which tools/list publishes as they are.
JSON_TYPES = ("string", "integer", "number", "boolean", "array", "object")


class Parameter(Protocol):
    name: str
    type: str
    required: bool
    default: Any
    description: str


class Tool(Protocol):
    name: str
    description: str
    parameters: Sequence[Parameter]
    read_only: bool
    destructive: bool

    def call(self, arguments: dict) -> str: ...


def json_type(type_name: str) -> str:
    if type_name not in JSON_TYPES:
        raise ValueError(f"parameter type '{type_name}' has no JSON Schema type; use one of {', '.join(JSON_TYPES)}")
    return type_name


def input_schema(tool: Tool) -> dict[str, Any]:
    """The tool's JSON Schema as `tools/list` publishes it: one property per parameter, in order."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for parameter in tool.parameters:
        schema: dict[str, Any] = {"type": json_type(parameter.type)}
        if parameter.description:
            schema["description"] = parameter.description
        if parameter.required:
            required.append(parameter.name)
        else:
            schema["default"] = parameter.default
        properties[parameter.name] = schema
    published: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        published["required"] = required
    return published


def annotations(tool: Tool) -> types.ToolAnnotations:
    # The framework's [McpServerTool] attributes set ReadOnly on read tools and Destructive on the
    # others; the C# SDK publishes only the hints an attribute sets, so a read tool has no destructiveHint.
    if tool.read_only:
        return types.ToolAnnotations(read_only_hint=True)
    return types.ToolAnnotations(destructive_hint=tool.destructive)


# -- the server ------------------------------------------------------------------------------------

CallLog = Callable[[str], None]
Refusal = Callable[[Tool, dict], "str | None"]


def stderr_log(stream: TextIO | None = None) -> CallLog:
    def write(line: str) -> None:
        print(line, file=stream or sys.stderr, flush=True)

    return write


def _short(arguments: dict[str, Any], limit: int = 160) -> str:
    text = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def build_server(tools: Iterable[Tool], *, log: CallLog | None = None, refuse: Refusal | None = None,
                 instructions: str | None = None) -> Server:
    """A low-level MCP `Server` that lists `tools` and answers `tools/call` with their text.

    `refuse(tool, arguments)` returns the text of a call the MCP layer refuses before the tool runs
    (the result is then flagged as an error), or None to call the tool.
    """
    by_name = {tool.name: tool for tool in tools}
    schemas = {name: input_schema(tool) for name, tool in by_name.items()}
    published = [
        types.Tool(name=name, description=tool.description, input_schema=schemas[name], annotations=annotations(tool))
        for name, tool in by_name.items()
    ]
    write = log or stderr_log()

    async def list_tools(context: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=published)

    async def call_tool(context: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        started = time.perf_counter()
        arguments = params.arguments or {}
        tool = by_name.get(params.name)
        if tool is None:
            write(f"call {params.name} {_short(arguments)} -> unknown tool")
            raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: '{params.name}'")
        refusal = refuse(tool, arguments) if refuse else None
        if refusal is not None:
            answer, is_error = refusal, True
        else:
            # The tools answer every refusal as text; anything raised here is a bug in a tool and
            # still reaches the client as one error result, not a dropped connection.
            try:
                answer, is_error = tool.call(arguments), False
            except Exception as error:  # noqa: BLE001 (reported to the caller and logged)
                answer, is_error = f"An error occurred invoking '{tool.name}': {type(error).__name__}: {error}", True
        elapsed_ms = (time.perf_counter() - started) * 1000
        write(f"call {tool.name} {_short(arguments)} -> {'error ' if is_error else ''}{len(answer)} chars in {elapsed_ms:.1f} ms")
        return types.CallToolResult(content=[types.TextContent(text=answer)], is_error=is_error)

    return Server(
        SERVER_NAME,
        instructions=instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        get_tool_input_schema=schemas.get,
    )
