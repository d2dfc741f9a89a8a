"""JSON as the framework's tools read it: System.Text.Json's limits, MeshOperations.RepairJson (M4), the
lenient second read of the hub's deserializer, RFC 7396 merge patch, and the ``Invalid JSON: …`` refusals of
the node operations' JSON arguments."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from ._errors import CreateError, InvalidJson

JSON_KINDS: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


def is_json_kind(value: Any, kind: str) -> bool:
    if isinstance(value, bool) and kind != "boolean":
        return False
    return isinstance(value, JSON_KINDS[kind])


def json_kind(value: Any) -> str:
    for kind in JSON_KINDS:
        if is_json_kind(value, kind) and kind != "integer":
            return kind
    return type(value).__name__


INVALID_JSON_TIP = "Tip: ensure all quotes and special characters in markdown content are properly escaped for JSON strings."


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396 JSON Merge Patch: objects merge recursively, null removes, anything else replaces."""
    if not isinstance(patch, Mapping):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


# The framework parses tool JSON with System.Text.Json's defaults, which allow 64 levels of nesting.
JSON_MAX_DEPTH = 64
JSON_TOO_DEEP = f"The maximum configured depth of {JSON_MAX_DEPTH} has been exceeded."
# agentkit's own limit: Python cannot turn an integer of more than 4,300 digits into text.
JSON_NUMBER_TOO_LONG = "A number has more than 4300 digits."
_INT_BITS_LIMIT = 14_000  # about 4,300 decimal digits
# The fewest characters a JSON text needs to hold an integer beyond that limit: the digits of 2 ** 14,000.
_SHORTEST_TOO_LONG = len(str(1 << _INT_BITS_LIMIT))


def json_limit_error(value: Any) -> str | None:
    """Why JSON text cannot carry ``value`` as the framework reads it, or ``None``: nesting deeper than
    :data:`JSON_MAX_DEPTH`, or an integer too long to print. Walks the value without recursion."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        # The exact types json.loads makes are told apart first: an isinstance check on Mapping is slower.
        if kind is dict:
            children = item.values()
        elif kind is list or kind is tuple:
            children = item
        elif kind is str or kind is float or kind is bool or item is None:
            continue
        elif kind is not int and isinstance(item, Mapping):
            children = item.values()
        elif kind is not int and isinstance(item, (list, tuple)):
            children = item
        else:
            if isinstance(item, int) and item.bit_length() > _INT_BITS_LIMIT:
                return JSON_NUMBER_TOO_LONG
            continue
        if depth > JSON_MAX_DEPTH:
            return JSON_TOO_DEEP
        stack.extend((child, depth + 1) for child in children)
    return None


# MeshNode's string properties: System.Text.Json refuses any other JSON kind for them.
_STRING_FIELDS = ("name", "description", "icon", "category", "preRenderedHtml", "mainNode")


def refuse_non_string_fields(data: Mapping[str, Any], prefix: str) -> None:
    """Refuse a node field that MeshNode declares as a string but the JSON gives as another kind, as the
    framework's deserializer does (Create/Update answer ``Invalid JSON: …``, Patch ``Error: …``)."""
    for key in _STRING_FIELDS:
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise InvalidJson(f"{prefix}The JSON value could not be converted to System.String. Path: $.{key}.")


def load_json(text: str) -> Any:
    """``json.loads`` within the framework's limits: malformed text raises ``json.JSONDecodeError``, text
    nested too deep or holding a number too long raises :class:`InvalidJson` (Python's own recursion and
    int-string limits would otherwise escape as RecursionError or ValueError)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise
    except (RecursionError, ValueError) as error:
        raise InvalidJson(f"Invalid JSON: {JSON_NUMBER_TOO_LONG if 'digits' in str(error) else JSON_TOO_DEEP}") from None
    # Text with at most 64 brackets cannot nest deeper than 64, and text shorter than the digits of the smallest
    # integer too long holds none: the walk is skipped for nearly every tool argument, and runs for the rest.
    if len(text) >= _SHORTEST_TOO_LONG or text.count("{") + text.count("[") > JSON_MAX_DEPTH:
        refuse_beyond_json_limits(data)
    return data


def refuse_beyond_json_limits(value: Any) -> None:
    """Raise :class:`InvalidJson` for a value JSON text cannot carry to the framework (see :func:`json_limit_error`)."""
    error = json_limit_error(value)
    if error is not None:
        raise InvalidJson(f"Invalid JSON: {error}")


def repair_json(text: str) -> str:
    """MeshOperations.RepairJson (M4) of text that does not parse whole: it is cut to its longest parseable
    prefix ending in ``}`` or ``]`` (:func:`_load_repaired` parses text whole first).

    The framework parses every such prefix from the longest down, which takes time quadratic in the
    text. Only one prefix can parse: the first complete value (after leading blanks), since one JSON
    value is all a document may hold. agentkit decodes that value once, in linear time, and returns
    the same prefix.
    """
    start = len(text) - len(text.lstrip())
    try:
        value, end = json.JSONDecoder().raw_decode(text, start)
    except (json.JSONDecodeError, RecursionError, ValueError):
        return text
    if text[end - 1] not in "}]" or json_limit_error(value) is not None:
        return text
    return text[:end]


def _load_repaired(text: str) -> Any:
    """``load_json(repair_json(text))``, parsing text that parses whole only once.

    The repair parses strictly, but the hub's deserializer then skips comments
    and allows trailing commas (M4), so text no prefix of which parses is read
    once more that leniently before it is refused.
    """
    try:
        return load_json(text)
    except (json.JSONDecodeError, InvalidJson):
        pass
    repaired = repair_json(text)
    if repaired != text:
        return load_json(repaired)
    try:
        return load_json(_without_comments_and_trailing_commas(text))
    except (json.JSONDecodeError, InvalidJson):
        return load_json(text)  # refused with the strict parser's detail


def _without_comments_and_trailing_commas(text: str) -> str:
    """``text`` with ``//`` and ``/* */`` comments outside strings removed, and every comma before ``}`` or ``]``."""
    kept: list[str] = []
    index, in_string = 0, False
    while index < len(text):
        char = text[index]
        if in_string:
            kept.append(char)
            if char == "\\" and index + 1 < len(text):
                kept.append(text[index + 1])
                index += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            kept.append(char)
        elif text.startswith("//", index):
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
            continue
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            if end < 0:
                return text  # an unterminated comment: the deserializer refuses it too
            index = end + 2
            continue
        else:
            kept.append(char)
        index += 1
    return _drop_trailing_commas("".join(kept))


def _drop_trailing_commas(text: str) -> str:
    """Remove each comma outside strings whose next non-blank character is ``}`` or ``]`` (linear time)."""
    following = [""] * (len(text) + 1)  # the first non-blank character after each position
    for index in range(len(text) - 1, -1, -1):
        following[index] = following[index + 1] if text[index].isspace() else text[index]
    kept: list[str] = []
    in_string = escaped = False
    previous = ""
    for index, char in enumerate(text):
        if in_string:
            in_string = escaped or char != '"'
            escaped = not escaped and char == "\\"
        elif char == '"':
            in_string = True
        elif char == "," and following[index + 1] in ("}", "]") and previous not in ("", "{", "[", ","):
            continue  # a trailing comma follows a value; '[,]' stays invalid
        kept.append(char)
        if not char.isspace():
            previous = char
    return "".join(kept)


def _parse_json(text: str, *, tip: bool) -> Any:
    try:
        return _load_repaired(text)
    except json.JSONDecodeError as error:
        detail = f"{error.msg} at line {error.lineno} column {error.colno}"
    except InvalidJson as error:  # beyond the JSON limits
        detail = str(error).removeprefix("Invalid JSON: ").rstrip(".")
    raise InvalidJson(f"Invalid JSON: {detail}." + (f" {INVALID_JSON_TIP}" if tip else ""))


def _value(value: Any, *, tip: bool) -> Any:
    """A JSON argument as a value: text parsed (and repaired) by :func:`_parse_json`, a value checked against the limits."""
    if isinstance(value, str):
        return _parse_json(value, tip=tip)  # load_json has checked the limits
    refuse_beyond_json_limits(value)
    return value


def parse_node(value: Any, *, invalid_tip: bool) -> Mapping[str, Any]:
    """Create's and Update's node argument: one JSON object."""
    data = _value(value, tip=invalid_tip)
    if data is None:
        raise CreateError("Invalid node: deserialized to null.")
    if not isinstance(data, Mapping):
        raise InvalidJson(f"Invalid JSON: a node must be one JSON object {{...}}, got {json_kind(data)}."
                          + (f" {INVALID_JSON_TIP}" if invalid_tip else ""))
    return data


def parse_patch(value: Any) -> Mapping[str, Any]:
    """Patch's fields argument: one JSON object."""
    data = _value(value, tip=False)
    if not isinstance(data, Mapping):
        raise InvalidJson("Error: fields must be a JSON object")
    return data


def parse_array(value: Any, label: str, *, repair: bool = False) -> list[Any]:
    """An array argument (Update's nodes, Delete's paths, BulkCreate's nodes); ``repair``: RepairJson first."""
    if isinstance(value, str):
        try:
            data = _load_repaired(value) if repair else load_json(value)
        except json.JSONDecodeError as error:
            raise InvalidJson(f"Invalid JSON: {error.msg} at line {error.lineno} column {error.colno}.") from None
    else:
        data = value
        refuse_beyond_json_limits(data)
    if isinstance(data, tuple):
        data = list(data)
    if not isinstance(data, list):
        raise InvalidJson(f"Invalid JSON: '{label}' must be a JSON array [...], got {json_kind(data)}.")
    return data
