"""A tool's parameters, read from the framework's C# declarations (``_tool_texts``): the C# type and default
value of each, as AIFunctionFactory and the MCP SDK bind them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ._tool_texts import ToolText


@dataclass(frozen=True)
class Parameter:
    """One parameter of a tool as the framework declares it."""

    name: str
    type: str  # "string" | "integer" | "boolean" | "object" | "array"
    required: bool
    default: Any = None
    description: str = ""


_CS_TYPES = {"string": "string", "string?": "string", "int": "integer", "long": "integer", "bool": "boolean"}
_CS_CONSTANTS = {"ContentCollectionsExtensions.DefaultCollectionName": "content"}


def cs_default_value(cs_default: str | None) -> Any:
    """A C# default value as JSON gives it: ``null``, ``true``, a number, a string literal, or a known constant."""
    if cs_default is None or cs_default == "null":
        return None
    if cs_default in ("true", "false"):
        return cs_default == "true"
    if cs_default.lstrip("-").isdigit():
        return int(cs_default)
    if cs_default.startswith('"'):
        return json.loads(cs_default)
    return _CS_CONSTANTS[cs_default]


def parameters_of(text: ToolText) -> tuple[Parameter, ...]:
    """A parameter is required when the C# signature gives it no default (AIFunctionFactory's rule)."""
    return tuple(
        Parameter(name, _CS_TYPES[cs_type], cs_default is None, cs_default_value(cs_default), description)
        for name, (cs_type, cs_default, description) in text[1].items()
    )
