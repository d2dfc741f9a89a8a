"""McpArgumentValidation: the MCP server's check of a tool call's arguments before the tool runs (P2)."""

from __future__ import annotations

import json
from typing import Any

from ._tool_parameters import Parameter


def mcp_argument_error(tool: str, parameters: tuple[Parameter, ...], arguments: dict) -> str | None:
    """McpArgumentValidation.Validate: unknown name, then missing required, then wrong type; ``None`` when the call binds."""
    expected = [p.name for p in parameters]
    for key in arguments:
        if key not in expected:
            suggestion = _closest_match(key, expected)
            return (f"Error: unknown argument '{key}' for tool '{tool}' — expected one of: {', '.join(expected)}."
                    + (f" Did you mean '{suggestion}'?" if suggestion else "")
                    + " (Tool schemas change between releases — call tools/list for the current shape.)")
    required = [p.name for p in parameters if p.required]
    for name in required:
        if name not in arguments:
            return f"Error: missing required argument '{name}' for tool '{tool}' — required: {', '.join(required)}."
    by_name = {p.name: p for p in parameters}
    for key, value in arguments.items():
        declared = by_name[key].type
        if value is not None and not _accepts(declared, value):
            return f"Error: argument '{key}' for tool '{tool}' expects {declared}, got {_describe(value)}."
    return None


def _accepts(declared: str, value: Any) -> bool:
    if declared == "string":
        return isinstance(value, str)
    if declared == "integer":  # NumberHandling = AllowReadingFromString: a numeric string binds
        if isinstance(value, bool):
            return False
        return isinstance(value, (int, float)) or (isinstance(value, str) and value.strip().lstrip("+-").isdigit())
    if declared == "boolean":
        return isinstance(value, bool)
    if declared == "array":
        return isinstance(value, list)
    if declared == "object":
        return isinstance(value, dict)
    return True


def _describe(value: Any) -> str:
    kind = ("string" if isinstance(value, str) else "boolean" if isinstance(value, bool) else
            "number" if isinstance(value, (int, float)) else "array" if isinstance(value, list) else
            "object" if isinstance(value, dict) else "null")
    try:
        raw = json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("\n", " ")
    except (ValueError, RecursionError):  # a number past Python's digit limit, or nesting past its recursion limit
        raw = "…" * 61
    return f"{kind} ({raw})" if len(raw) <= 60 else f"{kind} ({raw[:59]}…)"


def _closest_match(supplied: str, expected: list[str]) -> str | None:
    normalized = supplied.replace("_", "").lower()
    best, best_distance = None, None
    for candidate in expected:
        distance = _edit_distance(normalized, candidate.replace("_", "").lower())
        if best_distance is None or distance < best_distance:
            best, best_distance = candidate, distance
    if best is None or best_distance is None:
        return None
    return best if best_distance <= max(2, len(best.replace("_", "").lower()) // 3) else None


def _edit_distance(left: str, right: str) -> int:
    previous = list(range(len(right) + 1))
    for i, a in enumerate(left, 1):
        current = [i]
        for j, b in enumerate(right, 1):
            current.append(min(current[j - 1] + 1, previous[j] + 1, previous[j - 1] + (a != b)))
        previous = current
    return previous[-1]
