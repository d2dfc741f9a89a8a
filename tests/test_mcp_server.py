"""The MCP server's publishing, answers and CLI (end to end, and its workspace's M7 and M8: test_conformance.py)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from types import SimpleNamespace

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from agentkit import Mesh, mcp_tools
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
    tool = stand_in("search", parameters=(Parameter("query", "string", True, None, "what to find"),
                                          Parameter("basePath", "string", False, None, "where"),
                                          Parameter("limit", "integer", False, 50, "how many")))
    assert input_schema(tool) == {"type": "object", "required": ["query"], "properties": {
        "query": {"type": "string", "description": "what to find"},
        "basePath": {"type": "string", "description": "where", "default": None},
        "limit": {"type": "integer", "description": "how many", "default": 50}}}
    with pytest.raises(ValueError, match="parameter type 'decimal' has no JSON Schema type"):
        input_schema(stand_in("x", parameters=(Parameter("n", "decimal", True),)))


def test_tools_are_listed_in_order_and_a_call_answers_text_a_refusal_a_failure_or_an_unknown_tool():
    """agentkit's tools are published as they declare themselves, in order; a read tool has no destructive hint (as the
    C# SDK publishes the framework's attributes); a refused call never reaches its tool, a tool that raises answers one
    error result, an unknown tool is an MCP error; each call logs one line."""
    calls: list[dict] = []
    declared = mcp_tools(Mesh())  # a tool's declaration does not depend on the mesh it serves
    tools = [*declared, stand_in("read", "Not found: X", read_only=True, calls=calls), stand_in("remove", destructive=True),
             stand_in("broken", "raise")]
    refuse = lambda tool, arguments: "Error: unknown argument 'x'" if "x" in arguments else None  # noqa: E731
    log: list[str] = []

    async def session():
        async with Client(build_server(tools, log=log.append, refuse=refuse)) as client:
            listed, answer = await client.list_tools(), await client.call_tool("read", {"path": "X"})
            refused = await client.call_tool("read", {"x": 1})
            failed = await client.call_tool("broken", {})
            with pytest.raises(MCPError, match="Unknown tool: 'nothing'"):
                await client.call_tool("nothing", {})
            return listed, answer, refused, failed

    listed, answer, refused, failed = anyio.run(session)
    assert [tool.name for tool in listed.tools] == [tool.name for tool in tools]
    for tool, published in zip(declared, listed.tools):
        assert list(published.input_schema["properties"]) == [p.name for p in tool.parameters]
        assert published.input_schema.get("required", []) == [p.name for p in tool.parameters if p.required]
    hints = [(tool.name, tool.annotations.read_only_hint, tool.annotations.destructive_hint) for tool in listed.tools[-3:]]
    assert hints == [("read", True, None), ("remove", None, True), ("broken", None, False)]
    assert ([block.text for block in answer.content], answer.is_error) == (["Not found: X"], False)
    assert (refused.is_error, refused.content[0].text, calls) == (True, "Error: unknown argument 'x'", [{"path": "X"}])
    assert failed.is_error and failed.content[0].text == "An error occurred invoking 'broken': RuntimeError: boom"
    assert log[0] == 'call read {"path":"X"} -> 12 chars in ' + log[0].split(" chars in ")[1]
    assert [line.split(" -> ")[1].split(" ")[0] for line in log[1:]] == ["error", "error", "unknown"]


def test_a_port_in_use_is_one_line_and_exit_2(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = serve(["--port", str(port)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err[-1].startswith(f"mcp: cannot listen on 127.0.0.1:{port}: "), err

