"""JSON text as the framework writes it: System.Text.Json's default encoder (the hub's options, R7, M7), and the
two renderings of a tool's result envelope agentkit uses (indented for the model, compact where the framework
serializes the envelope itself)."""

from __future__ import annotations

import json
import re
from typing import Any


# System.Text.Json with its default encoder, as the framework's hub serializes: printable ASCII stays,
# except the HTML-sensitive characters, which become \uXXXX like every non-ASCII and control character.
_JSON_SHORT_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_JSON_HEX_ESCAPED = frozenset('"&\'+<>`')
# Runs of characters that need escaping: the text between them is copied as it is, not char by char.
_JSON_ESCAPED_RUN = re.compile("[^" + "".join(
    re.escape(char) for char in map(chr, range(ord(" "), ord("~") + 1))
    if char not in _JSON_HEX_ESCAPED and char not in _JSON_SHORT_ESCAPES) + "]+")


def dotnet_json_string(text: str) -> str:
    r"""``text`` as the framework's Get answers a file: one JSON string literal (R7).

    Escapes as System.Text.Json's default encoder does: ``\n``-style short forms,
    ``\uXXXX`` (upper-case hex, UTF-16 units) for control, non-ASCII and the
    characters ``" & ' + < > ` ``.
    """
    return f'"{_JSON_ESCAPED_RUN.sub(_escaped_run, text)}"'


def _escaped_run(found: re.Match[str]) -> str:
    return "".join(map(_escaped_char, found.group()))


def _escaped_char(char: str) -> str:
    if char in _JSON_SHORT_ESCAPES:
        return _JSON_SHORT_ESCAPES[char]
    units = char.encode("utf-16-be")
    return "".join(f"\\u{int.from_bytes(units[i:i + 2], 'big'):04X}" for i in range(0, len(units), 2))


def dotnet_json(value: Any) -> str:
    """``value`` as the hub's JSON options write it: compact, strings escaped as :func:`dotnet_json_string`."""
    if isinstance(value, str):
        return dotnet_json_string(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{dotnet_json_string(k)}:{dotnet_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(dotnet_json(v) for v in value) + "]"
    return json.dumps(value)


def to_text(value: Any) -> str:
    """Render a tool result value as the JSON text a model reads (agentkit indents it; the framework does not)."""
    return json.dumps(value, ensure_ascii=False, indent=2)


# A node's DateTimeOffset properties: Utf8JsonWriter writes a date as it formats it, with no escaping.
_DATE_KEYS = frozenset({"createdDate", "lastModified"})


def node_json(value: dict[str, Any] | list[dict[str, Any]]) -> str:
    """A node (:meth:`Node.to_json`) or a listing of children as the framework's Get writes it, agent and MCP alike.

    Compact, strings escaped as :func:`dotnet_json_string`, except the node's dates (``+`` unescaped); a
    child row with a null key leaves it out (WhenWritingDefault, M7).
    """
    if isinstance(value, list):
        return "[" + ",".join(node_json({key: item for key, item in row.items() if item is not None})
                              for row in value) + "]"
    return "{" + ",".join(f'"{key}":"{item}"' if key in _DATE_KEYS else f"{dotnet_json_string(key)}:{dotnet_json(item)}"
                          for key, item in value.items()) + "}"


def compact(value: Any) -> str:
    """A JSON envelope the framework serializes itself (upload, diagnostics, recycle): compact."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
