"""agentkit's MCP server with test-only divergences, each a behaviour the guide states changed, for conform to catch:

    python tests/planted_server.py --plant NAME [--plant NAME ...] [`python -m mcp_server`'s OPTION ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
import urllib.parse
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from mcp_server.__main__ import main as serve

def _path_not_url(tool: Any, arguments: dict, tools: dict[str, Any]) -> str:
    # One tool and one claim (mesh.navigate-to) change, so a whole conformance run must fail that claim alone.
    tool.call(arguments)
    return str(arguments.get("path", ""))


def _decoded_path(tool: Any, arguments: dict, tools: dict[str, Any]) -> str:
    # A host that URL-decodes the path it is given (as a web route would) before it reaches the store.
    path = arguments.get("path")
    return tool.call({**arguments, "path": urllib.parse.unquote(path) if isinstance(path, str) else path})


def _with_traceback(tool: Any, arguments: dict, tools: dict[str, Any]) -> str:
    # A host that reports a refusal with the exception behind it, as a debugging build might.
    answer = tool.call(arguments)
    if not answer.startswith(("Error", "Invalid")):
        return answer
    try:
        raise ValueError(answer)
    except ValueError:
        return f"{answer}\n{traceback.format_exc()}"


def _touch_on_read(tool: Any, arguments: dict, tools: dict[str, Any]) -> str:
    # A read-only tool that creates what it is asked about: a write through the read-only surface.
    path = str(arguments.get("path", "")).strip("/")
    if "/" in path and tools["get"].call({"path": path}) == f"Not found: {path}":
        namespace, node_id = path.rsplit("/", 1)
        tools["create"].call({"node": json.dumps({"id": node_id, "namespace": namespace, "name": "Touched",
                                                  "nodeType": "Markdown"})})
    return tool.call(arguments)


# Each plant: the tool it replaces, its replacement (original tool, arguments, tools by name -> the answer), and what
# the server logs of it on start.
PLANTS: dict[str, tuple[str, Callable[[Any, dict, dict[str, Any]], str], str]] = {
    "navigate-to-path": ("navigate_to", _path_not_url, "navigate_to answers the node's path instead of its URL"),
    "decode-paths": ("get", _decoded_path, "get percent-decodes its path before it reads (%2e%2e becomes '..', %2f '/')"),
    "error-details": ("create", _with_traceback,
                      "create answers its refusals with the Python traceback (exception type, server file paths)"),
    "read-only-writes": ("get_diagnostics", _touch_on_read,
                         "get_diagnostics, annotated read-only, creates the node it is asked about when it is missing"),
}


def plant(name: str, tools: list) -> list:
    """`tools` with the plant's tool's call replaced (its name, description, parameters and annotations kept)."""
    tool_name, replacement, _ = PLANTS[name]
    by_name = {tool.name: tool for tool in tools}
    return [replace(tool, call=lambda arguments, tool=tool: replacement(tool, arguments, by_name))
            if tool.name == tool_name else tool for tool in tools]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tests/planted_server.py", add_help=False)
    parser.add_argument("--plant", choices=sorted(PLANTS), action="append", default=[])
    options, server_options = parser.parse_known_args(argv)

    def planted(tools: list, log: Callable[[str], None]) -> list:
        for name in options.plant:
            tools = plant(name, tools)
            log(f"PLANTED DIVERGENCE (test only): {name}: {PLANTS[name][2]}")
        return tools

    return serve(server_options, change_tools=planted)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
