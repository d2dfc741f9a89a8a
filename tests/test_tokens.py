"""Tests for agentkit/_tokens.py: the deterministic token estimate."""

from __future__ import annotations

from agentkit._messages import Context, Message, Reply, ToolCall, ToolDefinition, ToolResult
from agentkit._tokens import (
    CHARS_PER_TOKEN, ITEM_OVERHEAD_TOKENS as OVERHEAD, ContextEstimate, arguments_json, estimate_context, item_tokens,
    items_tokens, reply_tokens, text_tokens,
)


def test_text_tokens_round_up_four_characters_a_token():
    assert CHARS_PER_TOKEN == 4
    assert [text_tokens("x" * n) for n in (0, 1, 4, 5, 8, 9)] == [0, 1, 1, 2, 2, 3]


def test_every_item_adds_the_fixed_overhead_and_a_context_is_the_sum_of_its_parts():
    """The instructions, each tool definition (name and description), message, call and result: the overhead plus
    their text."""
    tools = (ToolDefinition("Get", "read a node"), ToolDefinition("Search", "find nodes"))
    items = (Message("user", "x" * 8), ToolCall("Get", {"path": "Acme/a"}), ToolResult("c1", "Get", "y" * 9))
    assert [item_tokens(item) for item in items] == [OVERHEAD + 2, OVERHEAD + text_tokens('Get{"path":"Acme/a"}'), OVERHEAD + 3]
    estimate = estimate_context(Context("Be brief.", tools, items))
    tools_tokens = 2 * OVERHEAD + text_tokens("Get\nread a node") + text_tokens("Search\nfind nodes")
    assert estimate == ContextEstimate(OVERHEAD + 3, tools_tokens, items_tokens(items))
    assert estimate.total == OVERHEAD + 3 + tools_tokens + sum(item_tokens(item) for item in items)


def test_call_arguments_are_estimated_as_canonical_json_and_the_call_id_is_not_billed():
    """The call id is bookkeeping, not text the model is shown."""
    assert arguments_json({"b": 1, "a": "é"}) == '{"a":"é","b":1}'
    assert item_tokens(ToolCall("X", {"b": 1, "a": 2})) == item_tokens(ToolCall("X", {"a": 2, "b": 1}))
    assert item_tokens(ToolCall("Get", {"path": "p"}, "call-1-1")) == item_tokens(ToolCall("Get", {"path": "p"}))


def test_a_reply_outputs_exactly_what_it_adds_to_the_next_context():
    reply = Reply("Reading both.", (ToolCall("Get", {"path": "a"}), ToolCall("Get", {"path": "b"})))
    assert len(reply.items()) == 3 and reply_tokens(reply) == items_tokens(reply.items())
    assert reply_tokens(Reply()) == 0
