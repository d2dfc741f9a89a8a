"""The provider wire: what the model reads for a tool result, and the usage a round records.

MeshWeaver's tools are Microsoft.Extensions.AI functions over methods that return ``Task<string>``.
The function wrapper serializes that string into a JSON string element (fact W1), and the chat
client that talks to the provider turns the element into the text the model reads:

* ``claude``: MeshWeaver's ``AzureClaudeChatClient`` (the Anthropic factory) sends
  ``Result.ToString()``, which for a string element is the string itself: the model reads the
  tool's text as it returned it (W2).
* ``openai``: the Microsoft.Extensions.AI OpenAI adapter (the OpenAI and Azure OpenAI factories)
  and its Azure AI Inference adapter (the Azure Foundry factory) serialize the element once more,
  with ``AIJsonUtilities.DefaultOptions`` (``UnsafeRelaxedJsonEscaping``): the model reads a JSON
  string literal of the tool's text (W3).

A string the function-invoking layer makes itself (``Error: Requested function "X" not found.``,
``Error: Function failed.``, a tool timeout) is a string, not an element: every wire sends it
unchanged.

Usage (W4, W5): the Claude client reports input with cache reads and writes folded in and the cache
counts under ``AdditionalCounts``, which ``UsageTokens.SplitCache`` reads. The OpenAI adapter
reports cached input in ``UsageDetails.CachedInputTokenCount``, which ``SplitCache`` does not read:
an OpenAI-wire round records ``cacheReadTokens`` 0 and every input token as plain input. With
``caching=True`` the runtime bills each wire as its provider caches, as agentkit models it: the
Claude client marks cache breakpoints, so a prompt that reaches the minimum is written (at the
write premium); the OpenAI wire has no write premium, and a repeated prefix is read at the read
rate.

The displayed cost (W6) prices recorded usage with the model node's input and output rates; cache
reads at 0.1x and writes at 1.25x the input rate, which a model node cannot set.

The default wire is ``claude``: it is what agentkit did before the switch (the model read the
tool's text unchanged, and the caching bill and record were Anthropic's).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from decimal import Decimal

from ._cost import ModelPrice, TokenUsage, cost_of
from ._invocation import LayerAnswer
from ._messages import ToolResult
from ._dotnet_json import _JSON_SHORT_ESCAPES, _escaped_char

CLAUDE = "claude"
OPENAI = "openai"
WIRES = (CLAUDE, OPENAI)
DEFAULT_WIRE = CLAUDE

# What the framework's displayed cost uses when the rate does not say (ModelPriceRate: always, since
# a model node sets only the input and output prices and the currency).
DISPLAYED_CACHE_READ = Decimal("0.1")
DISPLAYED_CACHE_WRITE = Decimal("1.25")


def require_wire(wire: object) -> str:
    """``wire`` when it is one of :data:`WIRES`; otherwise ValueError naming them."""
    if wire not in WIRES:
        raise ValueError(f"wire must be one of {', '.join(map(repr, WIRES))}, got {wire!r}")
    return wire  # type: ignore[return-value]


def _relaxed_char(char: str) -> str:
    # The relaxed encoder differs from the hub's default one (_dotnet_json._escaped_char) in what it escapes, not how:
    # `"` takes a backslash, and only control characters, U+2028/U+2029 and supplementary characters (as two
    # UTF-16 units) become \uXXXX.
    if char == '"':
        return '\\"'
    code = ord(char)
    if char in _JSON_SHORT_ESCAPES or code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029) or code > 0xFFFF:
        return _escaped_char(char)
    return char


# The characters _relaxed_char changes, as a table for str.translate (one pattern match and Python call per
# character was a tenth of a scenario on the OpenAI wire): those of the BMP; a supplementary one, never in a table,
# goes through the pattern.
_RELAXED_BMP = {code: _relaxed_char(chr(code)) for code in (*range(0x20), ord('"'), ord("\\"), *range(0x7F, 0xA0),
                                                            0x2028, 0x2029)}
_SUPPLEMENTARY = re.compile("[\U00010000-\U0010ffff]")
# Every other character json.dumps(..., ensure_ascii=False) writes as _relaxed_char does: `"`, `\` and the five
# short forms with a backslash, the rest as it is. A text without one of these is encoded by json's C encoder
# (the report's Get text, 140,000 characters, took a dict lookup per character in str.translate).
_NOT_AS_JSON_DUMPS = re.compile("[\x00-\x07\x0b\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\U00010000-\U0010ffff]")


def relaxed_json_string(text: str) -> str:
    r"""``text`` as one JSON string literal, the way ``AIJsonUtilities.DefaultOptions`` writes it.

    ``UnsafeRelaxedJsonEscaping`` escapes ``"`` and ``\`` with a backslash, uses the short forms
    ``\n \r \t \b \f``, and writes other control characters, U+2028/U+2029 and supplementary
    characters as ``\uXXXX``; every other character stays. Exact for ASCII text, which is all the
    hub's own JSON holds; beyond ASCII, .NET's block list escapes a few more characters than this.
    """
    if type(text) is str and _NOT_AS_JSON_DUMPS.search(text) is None:
        return json.dumps(text, ensure_ascii=False)
    escaped = text.translate(_RELAXED_BMP)
    if escaped.isascii():  # no supplementary character: the common case
        return f'"{escaped}"'
    return '"' + _SUPPLEMENTARY.sub(lambda found: _relaxed_char(found.group()), escaped) + '"'


def model_reads(text: str, wire: str) -> str:
    """What the model reads on ``wire`` for a tool method's returned string ``text``."""
    return relaxed_json_string(text) if require_wire(wire) == OPENAI else text


@dataclass(frozen=True)
class WireResult(ToolResult):
    """A tool result whose ``text`` is what the model reads on ``wire``; ``returned`` is the method's string."""

    returned: str = ""
    wire: str = OPENAI


def delivered(result: ToolResult, wire: str) -> ToolResult:
    """``result`` as the model receives it on ``wire``: a tool method's own string is encoded, an answer the
    function layer writes itself (``Error: Function failed.``, the timed-out text) passes as it is."""
    if isinstance(result.text, LayerAnswer):
        return result
    text = model_reads(result.text, wire)
    if text == result.text:
        return result
    return WireResult(result.call_id, result.name, text, result.refused, returned=result.text, wire=wire)


def returned_text(result: ToolResult) -> str:
    """The string the tool method returned, whatever the wire made of it (a model reads through it)."""
    return result.returned if isinstance(result, WireResult) else result.text


def billed_input(total: int, read: int, cacheable: bool, wire: str) -> TokenUsage:
    """One call's ``total`` input tokens, ``read`` of them from the cache, as ``wire``'s provider bills them.

    ``cacheable``: the prompt reaches the model's minimum cacheable size. On ``claude`` such a prompt
    writes what it does not read; on ``openai`` nothing is written, the rest is plain input.
    """
    if require_wire(wire) == CLAUDE and cacheable:
        return TokenUsage(cache_read=read, cache_write=total - read)
    return TokenUsage(input=total - read, cache_read=read)


def recorded(usage: TokenUsage, wire: str) -> TokenUsage:
    """What a round billed ``usage`` records in its ``_Usage`` satellite on ``wire``.

    ``claude``: all of it, cache reads and writes apart. ``openai``: every input token as plain
    input, cache reads and writes 0 (``SplitCache`` misses ``CachedInputTokenCount``).
    """
    if require_wire(wire) == CLAUDE:
        return usage
    return TokenUsage(input=usage.total_input, output=usage.output)


def displayed_cost(usage: TokenUsage, price: ModelPrice) -> Decimal:
    """The cost the framework shows for recorded ``usage`` at a model node's input and output prices.

    ``ModelPriceRate.Cost``: plain input at the input rate, cache reads at 0.1x and writes at
    1.25x of it, output at the output rate; the price's own cache multipliers play no part.
    """
    return cost_of(usage, replace(price, cache_read_multiplier=DISPLAYED_CACHE_READ,
                                  cache_write_multiplier=DISPLAYED_CACHE_WRITE))
