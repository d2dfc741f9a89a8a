"""One MCP connection for the suite: reach the endpoint, list its tools, call them and read text.

Anything that makes the run meaningless (no server, not MCP, refused
credentials, a missing tool, an answer that is not one text) raises `BadTarget`
with one line that says what is wrong; the command exits 2 on it.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shlex
import ssl
import tempfile
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any, Self

import httpx2
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import MCP_DEFAULT_SSE_READ_TIMEOUT, MCP_DEFAULT_TIMEOUT
from mcp.shared.exceptions import MCPError

CALL_TIMEOUT_SECONDS = 30.0
PROBE_TIMEOUT_SECONDS = 10.0
LIST_PAGES = 100  # at most this many further pages of tools/list, so a server that never ends one cannot hang the run
# The handshake-era protocol version every MCP server still accepts for `initialize`.
PROBE_PROTOCOL_VERSION = "2025-06-18"


@functools.cache
def tls_context() -> ssl.SSLContext:
    """One TLS context for every connection of the process: each new one reads the CA store again (about 25 ms)."""
    return httpx2.create_ssl_context()


class BadTarget(Exception):
    """The endpoint cannot be checked at all; the message is the one line the user sees."""


@dataclass(frozen=True)
class Target:
    """Where the suite connects: an HTTP URL with headers, or a command that serves MCP on stdio."""

    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    command: str | None = None

    def describe(self) -> str:
        return self.url if self.url else f"stdio: {self.command}"


def parse_header(text: str) -> tuple[str, str]:
    name, colon, value = text.partition(":")
    if not colon or not name.strip():
        raise BadTarget(f"--header must look like 'Name: value', got {text!r}")
    return name.strip(), value.strip()


async def probe(target: Target, http: httpx2.AsyncClient) -> None:
    """Send one `initialize` over plain HTTP, to tell an unreachable, unauthorised or non-MCP endpoint apart."""
    request = {
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": PROBE_PROTOCOL_VERSION, "capabilities": {},
                   "clientInfo": {"name": "conformance-probe", "version": "1"}},
    }
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json", **target.headers}
    url = target.url or ""
    try:
        response = await http.post(url, json=request, headers=headers, timeout=PROBE_TIMEOUT_SECONDS)
        session = response.headers.get("mcp-session-id")
        if session:  # a stateful server opened a session for the probe: close it again
            await http.delete(url, headers={**target.headers, "mcp-session-id": session}, timeout=PROBE_TIMEOUT_SECONDS)
    except httpx2.InvalidURL as error:
        raise BadTarget(f"{url!r} is not a valid URL: {error}") from None
    except httpx2.UnsupportedProtocol:
        raise BadTarget(f"{url!r} is not an http(s) URL") from None
    except httpx2.TimeoutException:
        raise BadTarget(f"cannot reach {url}: no answer within {PROBE_TIMEOUT_SECONDS:.0f} s") from None
    except httpx2.HTTPError as error:
        raise BadTarget(f"cannot reach {url}: {error or type(error).__name__}") from None
    if response.status_code in (401, 403):
        hint = "the credentials were refused" if "authorization" in {h.lower() for h in target.headers} else \
            "pass credentials with --header 'Authorization: Bearer …'"
        raise BadTarget(f"authentication failed at {url} (HTTP {response.status_code}): {hint}")
    if response.status_code >= 400:
        raise BadTarget(f"{url} is not an MCP endpoint: an MCP initialize request got HTTP {response.status_code}")
    if not _is_jsonrpc(response):
        kind = response.headers.get("content-type", "no content type").split(";")[0]
        raise BadTarget(f"{url} is not an MCP endpoint: it answered an MCP initialize request with {kind}, not JSON-RPC")


def _is_jsonrpc(response: httpx2.Response) -> bool:
    kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "application/json":
        bodies = [response.text]
    elif kind == "text/event-stream":
        bodies = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
    else:
        return False
    for body in bodies:
        try:
            message = json.loads(body)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("jsonrpc") == "2.0" and ("result" in message or "error" in message):
            return True
    return False


class Connection:
    """An open MCP client with the server's tool list."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self.tools: dict[str, types.Tool] = {}
        self.calls = 0
        self._stack = AsyncExitStack()
        self._client: Client | None = None
        self._server_log: Any = None

    async def __aenter__(self) -> Self:
        if self.target.url:
            http = await self._stack.enter_async_context(httpx2.AsyncClient(
                headers=self.target.headers, timeout=httpx2.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT),
                verify=tls_context()))
            try:
                await probe(self.target, http)
            except BadTarget:
                await self._stack.aclose()
                raise
            transport: Any = streamable_http_client(self.target.url, http_client=http)
        else:
            words = shlex.split(self.target.command or "")
            if not words:
                raise BadTarget("--command is empty")
            # The server's own log goes to a file, not into the suite's output; its last line explains a crash.
            self._server_log = self._stack.enter_context(tempfile.TemporaryFile("w+", encoding="utf-8"))
            transport = stdio_client(StdioServerParameters(command=words[0], args=words[1:], env=dict(os.environ)),
                                     errlog=self._server_log)
        try:
            self._client = await self._stack.enter_async_context(
                Client(transport, read_timeout_seconds=CALL_TIMEOUT_SECONDS, cache=None))
            listed = await self._client.list_tools()
            tools = list(listed.tools)
            for _ in range(LIST_PAGES):  # a server may page its tool list
                if not listed.next_cursor:
                    break
                listed = await self._client.list_tools(cursor=listed.next_cursor)
                tools += listed.tools
        except Exception as error:  # noqa: BLE001 (any failure to connect is the target's, said in one line)
            said = self._server_said()
            await self._stack.aclose()
            raise BadTarget(f"cannot talk MCP with {self.target.describe()}: {_reason(error)}"
                            + (f" (the server said: {said})" if said else "")) from None
        self.tools = {tool.name: tool for tool in tools}
        return self

    async def __aexit__(self, *exc: object) -> None:
        # Closing a broken connection must not hide the run's result.
        with contextlib.suppress(Exception):
            await self._stack.aclose()

    def _server_said(self) -> str:
        """The last line a stdio server wrote to stderr, if any."""
        if self._server_log is None:
            return ""
        self._server_log.flush()
        self._server_log.seek(0)
        lines = [line.strip() for line in self._server_log.read().splitlines() if line.strip()]
        return lines[-1] if lines else ""

    def require(self, names: set[str]) -> None:
        missing = sorted(names - set(self.tools))
        if missing:
            raise BadTarget(f"{self.target.describe()} lacks tool(s) the suite needs: {', '.join(missing)} "
                            f"(it offers: {', '.join(sorted(self.tools)) or 'none'})")

    async def call_result(self, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
        assert self._client is not None
        self.calls += 1
        try:
            return await self._client.call_tool(tool, arguments)
        except MCPError as error:
            raise BadTarget(f"{tool} failed with an MCP error {error.code}: {error.message}") from None
        except Exception as error:  # noqa: BLE001 (a transport failure mid-run is the target's, said in one line)
            raise BadTarget(f"lost the connection to {self.target.describe()} during {tool}: {_reason(error)}") from None

    async def call_flagged(self, tool: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        """What a tool answers, its texts joined, and whether the result is flagged as an error."""
        result = await self.call_result(tool, arguments)
        return "".join(block.text for block in result.content if isinstance(block, types.TextContent)), bool(result.is_error)

    async def call(self, tool: str, arguments: dict[str, Any]) -> str:
        """The one text a tool answers (a tool error's text too: the framework answers refusals as text)."""
        result = await self.call_result(tool, arguments)
        texts = [block.text for block in result.content if isinstance(block, types.TextContent)]
        if len(texts) != 1 or len(result.content) != 1:
            kinds = ", ".join(block.type for block in result.content) or "nothing"
            raise BadTarget(f"{tool} answered with {kinds}, not one text: unexpected answer shape")
        return texts[0]

    async def call_json(self, tool: str, arguments: dict[str, Any]) -> Any:
        text = await self.call(tool, arguments)
        try:
            return json.loads(text)
        except ValueError:
            raise BadTarget(f"{tool}({short(arguments, 100)}) answered text where JSON was expected: {short(text, 100)}") from None


def short(value: Any, limit: int = 120) -> str:
    """`value` (JSON unless a string) on one line, cut to `limit` characters: what an answer looks like in a reason."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _reason(error: BaseException) -> str:
    """The innermost message of an error, an exception group included."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    if isinstance(error, MCPError):
        return f"MCP error {error.code}: {error.message}"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__

