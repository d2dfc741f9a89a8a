"""Serve agentkit's workspace over MCP.

    python3 dev.py mcp                 streamable HTTP on http://127.0.0.1:8765/mcp
    python3 dev.py mcp --port 9000     another port (0 picks a free one; the URL is logged)
    python3 dev.py mcp --stdio         MCP over stdin/stdout (the log stays on stderr)

The mesh starts as the guide's workspace: node `Meridian` with the generated
report in `Meridian/content`. `upload` adds files; the index catches up in the
background (every --index-interval seconds), so search and chunk reads see a
new file eventually, as in the framework. One log line per call goes to
stderr; Ctrl-C or SIGTERM stops the server cleanly. `--content-store` names the
store behind the collections' files: FileSystem (the framework's default) or AzureBlob.
"""

from __future__ import annotations

import argparse
import signal
import socket
import sys
from collections.abc import Callable
from typing import Any

import anyio

from mcp_server.server import build_server, stderr_log

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
ENDPOINT = "/mcp"
INSTRUCTIONS = (
    "agentkit, a reference model of the MeshWeaver framework's mesh and content tools. "
    "The workspace holds node 'Meridian' with its annual report in 'Meridian/content'."
)


def seeded_workspace(*, content_store: str = "FileSystem") -> tuple[Any, list]:
    """The guide's workspace and its MCP tools, its collections' files behind `content_store` (S1)."""
    from agentkit import mcp_tools
    from agentkit._content_types import MARKDOWN_TYPE
    from agentkit.guide import workspace

    mesh = workspace()
    mesh.content_store = content_store
    # Every framework host has the built-in node type Markdown: on it an unregistered '$type' is refused (M8).
    mesh.register_type(MARKDOWN_TYPE)
    mesh.builtin_node_types.add("Markdown")
    return mesh, list(mcp_tools(mesh))


def refused(tool: Any, arguments: dict) -> str | None:
    """The framework's MCP argument filter (McpArgumentValidation): its refusals are isError results."""
    from agentkit._mcp_validation import mcp_argument_error

    return mcp_argument_error(tool.name, tool.parameters, arguments)


async def keep_indexing(mesh: Any, interval: float) -> None:
    """Make staged index changes visible every `interval` seconds: the framework indexes in the background."""
    while True:
        await anyio.sleep(interval)
        mesh.refresh_index()


def http_server(server: Any, host: str, port: int) -> tuple[Any, socket.socket]:
    """The uvicorn server for the MCP endpoint and the socket it will serve on, bound to `port` (0: a free one)."""
    import uvicorn

    app = server.streamable_http_app(streamable_http_path=ENDPOINT, stateless_http=True, json_response=True, host=host)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit TCP_NODELAY; without it each answer waits ~40 ms for a delayed ACK.
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    listener.bind((host, port))
    return uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on")), listener


async def serve_http(server: Any, mesh: Any, host: str, port: int, interval: float, log) -> None:
    web, listener = http_server(server, host, port)
    bound = listener.getsockname()[1]

    async def announce() -> None:
        while not web.started:
            await anyio.sleep(0.01)
        log(f"serving agentkit over MCP at http://{host}:{bound}{ENDPOINT} (Ctrl-C stops)")

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(keep_indexing, mesh, interval)
        tasks.start_soon(announce)
        # uvicorn handles SIGINT and SIGTERM itself: it finishes open requests, then returns.
        await web.serve(sockets=[listener])
        tasks.cancel_scope.cancel()


async def serve_stdio(server: Any, mesh: Any, interval: float, log) -> None:
    from mcp.server.stdio import stdio_server

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(keep_indexing, mesh, interval)
        log("serving agentkit over MCP on stdio (Ctrl-C or closing stdin stops)")
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
        tasks.cancel_scope.cancel()


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    from agentkit._collections import CONTENT_STORES, FILE_SYSTEM

    parser = argparse.ArgumentParser(prog="dev.py mcp", description="Serve agentkit's workspace over MCP.")
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"HTTP port (default {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--stdio", action="store_true", help="serve over stdin/stdout instead of HTTP")
    parser.add_argument("--index-interval", type=float, default=0.1, metavar="SECONDS",
                        help="how often the background indexer makes new uploads searchable (default 0.1)")
    parser.add_argument("--content-store", choices=CONTENT_STORES, default=FILE_SYSTEM,
                        help=f"the store behind the collections' files (default {FILE_SYSTEM}, the framework's)")
    return parser.parse_args(argv)


def _is_interrupt(error: BaseException) -> bool:
    if isinstance(error, BaseExceptionGroup):
        return all(_is_interrupt(inner) for inner in error.exceptions)
    return isinstance(error, KeyboardInterrupt)


def main(argv: list[str] | None = None, change_tools: Callable[[list, Callable[[str], None]], list] | None = None) -> int:
    """Serve; `change_tools(tools, log)` may replace the tools first (the gate's planted divergences,
    tests/planted_server.py)."""
    options = parse_arguments(sys.argv[1:] if argv is None else argv)
    log = stderr_log()
    mesh, tools = seeded_workspace(content_store=options.content_store)
    if options.content_store != "FileSystem":
        log(f"content store: {options.content_store}")
    if change_tools is not None:
        tools = change_tools(tools, log)
    server = build_server(tools, log=log, refuse=refused, instructions=INSTRUCTIONS)
    # SIGTERM ends the stdio server the way Ctrl-C does; over HTTP uvicorn installs its own handlers.
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        if options.stdio:
            anyio.run(serve_stdio, server, mesh, options.index_interval, log)
        else:
            anyio.run(serve_http, server, mesh, options.host, options.port, options.index_interval, log)
    except OSError as error:
        log(f"mcp: cannot listen on {options.host}:{options.port}: {error.strerror or error}")
        return 2
    except BaseException as error:
        if not _is_interrupt(error):
            raise
    finally:
        signal.signal(signal.SIGTERM, previous)
    log("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
