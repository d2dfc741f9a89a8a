"""The MCP server: what it publishes for a tool, how it answers calls, refusals and failures, and its CLI.

The end-to-end runs (HTTP and stdio subprocesses, the planted divergence) are in test_conformance.py; the served
workspace's built-in Markdown type (M7, M8) is checked there, by conformance/checks/mesh.py.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from types import SimpleNamespace

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from agentkit._plugins import Parameter
from mcp_server import build_server, input_schema
from mcp_server.__main__ import main as serve


def stand_in(name: str, answer: str | Callable[[dict], str] = "ok", *, parameters=(), read_only=False,
             destructive=False, calls=None):
    """A tool that answers `answer`, or what `answer` returns for the arguments; "raise" raises."""
    def call(arguments: dict) -> str:
        if calls is not None:
            calls.append(arguments)
        if answer == "raise":
            raise RuntimeError("boom")
        return answer(arguments) if callable(answer) else answer

    return SimpleNamespace(name=name, description=f"{name} tool", parameters=parameters, read_only=read_only,
                           destructive=destructive, call=call)


def test_input_schema_has_one_property_per_parameter_in_order():
    tool = stand_in("search", parameters=(
        Parameter("query", "string", True, None, "what to find"),
        Parameter("basePath", "string", False, None, "where"),
        Parameter("limit", "integer", False, 50, "how many"),
    ))
    assert input_schema(tool) == {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "what to find"},
            "basePath": {"type": "string", "description": "where", "default": None},
            "limit": {"type": "integer", "description": "how many", "default": 50},
        },
        "required": ["query"],
    }
    with pytest.raises(ValueError, match="parameter type 'decimal' has no JSON Schema type"):
        input_schema(stand_in("x", parameters=(Parameter("n", "decimal", True),)))


def run(server, script):
    async def session():
        async with Client(server) as client:
            return await script(client)

    return anyio.run(session)


def test_tools_are_listed_with_schema_and_annotations_and_answer_their_text():
    log: list[str] = []
    calls: list[dict] = []
    tools = [
        stand_in("get", "Not found: X", parameters=(Parameter("path", "string", True),), read_only=True, calls=calls),
        stand_in("delete", "Deleted: X", parameters=(Parameter("paths", "string", True),), destructive=True),
        stand_in("create", "Created: X", parameters=(Parameter("node", "string", True),)),
    ]
    server = build_server(tools, log=log.append)

    async def script(client):
        return await client.list_tools(), await client.call_tool("get", {"path": "X"})

    listed, answer = run(server, script)
    by_name = {tool.name: tool for tool in listed.tools}
    assert list(by_name) == ["get", "delete", "create"]
    assert by_name["get"].input_schema == {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    # As the C# SDK publishes the framework's attributes: a read tool says readOnly only, others say destructive.
    hints = {name: (tool.annotations.read_only_hint, tool.annotations.destructive_hint) for name, tool in by_name.items()}
    assert hints == {"get": (True, None), "delete": (None, True), "create": (None, False)}
    assert [block.text for block in answer.content] == ["Not found: X"] and answer.is_error is False
    assert calls == [{"path": "X"}]
    assert log == ['call get {"path":"X"} -> 12 chars in ' + log[0].split(" chars in ")[1]]


def test_refusals_failures_and_unknown_tools():
    calls: list[dict] = []
    tools = [stand_in("get", calls=calls), stand_in("broken", "raise")]
    refuse = lambda tool, arguments: "Error: unknown argument 'x'" if "x" in arguments else None  # noqa: E731
    log: list[str] = []
    server = build_server(tools, log=log.append, refuse=refuse)

    async def script(client):
        refused = await client.call_tool("get", {"x": 1})
        failed = await client.call_tool("broken", {})
        with pytest.raises(MCPError, match="Unknown tool: 'nothing'"):
            await client.call_tool("nothing", {})
        return refused, failed

    refused, failed = run(server, script)
    assert (refused.is_error, refused.content[0].text, calls) == (True, "Error: unknown argument 'x'", [])
    assert failed.is_error and failed.content[0].text == "An error occurred invoking 'broken': RuntimeError: boom"
    assert [line.split(" -> ")[1].split(" ")[0] for line in log] == ["error", "error", "unknown"]


def test_a_port_in_use_is_one_line_and_exit_2(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = serve(["--port", str(port)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err[-1].startswith(f"mcp: cannot listen on 127.0.0.1:{port}: "), err

