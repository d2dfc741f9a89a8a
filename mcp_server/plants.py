"""Test-only divergences: each changes one behaviour the guide states, so the gate can prove conform catches it.

Never used unless `--plant NAME` is passed (a hidden option of `dev.py mcp`);
the server logs the plant on start.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PLANTS = {
    "navigate-to-path": "navigate_to answers the node's path instead of its URL",
}


@dataclass(frozen=True)
class _Planted:
    """A tool with the same name, description and parameters whose answer is rewritten."""

    original: Any
    rewrite: Callable[[dict, str], str]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.original, name)

    def call(self, arguments: dict) -> str:
        return self.rewrite(arguments, self.original.call(arguments))


def _path_not_url(arguments: dict, answer: str) -> str:
    # One tool and one claim (mesh.navigate-to) change, so a whole conformance run must fail that claim alone.
    return str(arguments.get("path", ""))


_REWRITES = {"navigate-to-path": ("navigate_to", _path_not_url)}


def plant(name: str, tools: list) -> list:
    tool_name, rewrite = _REWRITES[name]
    return [_Planted(tool, rewrite) if tool.name == tool_name else tool for tool in tools]
