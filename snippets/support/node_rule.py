"""The framework's rule for a node's JSON (fact M15), written apart from agentkit so that checks can compare
agentkit's Get with it.

The framework's Get answers ``JsonSerializer.Serialize(node, hub.JsonSerializerOptions)``. That is one line:
``$type`` ``MeshNode`` first, then MeshNode's properties in their declared order, and a property at its default
is left out. Strings are escaped by System.Text.Json's default encoder, and the dates are written as they are
formatted, unescaped.
"""

from __future__ import annotations

import json
import re

# MeshNode's serialized properties in declaration order (MeshNode.cs; [JsonIgnore] ones left out).
MESH_NODE_KEYS = (
    "$type", "id", "namespace", "path", "mainNode", "name", "description", "nodeType", "category", "icon", "order",
    "createdDate", "createdBy", "lastModified", "lastModifiedBy", "version", "state", "content", "preRenderedHtml",
    "desiredId", "isSatelliteType", "excludeFromContext", "syncBehavior",
)
DATE_KEYS = ("createdDate", "lastModified")  # DateTimeOffset: written unescaped
_UTC_DATE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00")
# Python's json (ASCII output) already escapes what the default encoder escapes among control and non-ASCII
# characters, as UTF-16 \uxxxx units. The encoder writes that hex in upper case, `"` as \u0022, and escapes
# & ' + < > ` and DEL as well: a mechanism of its own, so the check does not repeat agentkit's encoder.
_TO_DEFAULT_ENCODER = re.compile(r"\\(u[0-9a-f]{4}|.)|[&'+<>`\x7f]")


def _default_encoder(match: re.Match[str]) -> str:
    escaped = match.group(1)
    if escaped is None:
        return f"\\u{ord(match.group()):04X}"
    if escaped == '"':
        return "\\u0022"
    return "\\u" + escaped[1:].upper() if escaped.startswith("u") else match.group()


def _value(value) -> str:
    """A JSON value as the hub's options write it: compact, strings escaped by the default encoder."""
    return _TO_DEFAULT_ENCODER.sub(_default_encoder, json.dumps(value, separators=(",", ":")))


def expected_text(node: dict) -> str:
    """The text the framework writes for a node holding these properties."""
    return "{" + ",".join(f'"{key}":"{item}"' if key in DATE_KEYS else f"{_value(key)}:{_value(item)}"
                          for key, item in node.items()) + "}"


def rule_breaks(answer: str) -> list[str]:
    """How a Get answer on a node departs from the framework's rule; empty when it follows it."""
    node = json.loads(answer)
    breaks = []
    if node.get("$type") != "MeshNode" or next(iter(node)) != "$type":
        breaks.append("`$type` MeshNode is not the first key")
    if [key for key in MESH_NODE_KEYS if key in node] != list(node):
        breaks.append(f"keys not in MeshNode's order, or not MeshNode's: {list(node)}")
    defaults = [key for key, value in node.items()
                if value is None or value is False or (value == 0 and key != "order")]  # Order is int? (MeshNode.cs:179): 0 is written
    if defaults:
        breaks.append(f"keys at their default are written: {defaults}")
    if node.get("mainNode") is None or node.get("state") != "Active":
        breaks.append("mainNode or state 'Active' is missing")
    if not all(_UTC_DATE.fullmatch(node[key]) for key in DATE_KEYS if key in node):
        breaks.append("a date is not a DateTimeOffset's text")
    if answer != expected_text(node):
        breaks.append("not one line escaped as the hub's options write it")
    return breaks


def is_node(answer: str) -> bool:
    """Whether a Get answer is a node's JSON (not a file's text, a listing or an error)."""
    try:
        parsed = json.loads(answer)
    except ValueError:
        return False
    return isinstance(parsed, dict) and "nodeType" in parsed


def node_answers(view) -> list[str]:
    """The answers of the Get calls an AgentView recorded that are a node (the nodes its listings show)."""
    return [call.answer for call in view.calls if call.tool in ("Get", "get") and is_node(call.answer)]
