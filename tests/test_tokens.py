"""Tests for agentkit/_tokens.py: the deterministic token estimate."""

from __future__ import annotations

from agentkit._messages import Context, Message, Reply, ToolCall, ToolDefinition, ToolResult
from agentkit._tokens import (
    CHARS_PER_TOKEN,
    ITEM_OVERHEAD_TOKENS,
    arguments_json,
    estimate_context,
    instructions_tokens,
    item_tokens,
    items_tokens,
    reply_tokens,
    text_tokens,
    tool_definition_tokens,
)


def test_text_tokens_round_up_four_characters_a_token():
    """A text is ceil(len / 4) tokens and the empty text is none."""
    assert CHARS_PER_TOKEN == 4
    assert [text_tokens("x" * n) for n in (0, 1, 4, 5, 8, 9)] == [0, 1, 1, 2, 2, 3]


def test_every_item_adds_the_fixed_overhead():
    """A message, a call and a result each cost the overhead plus their text."""
    assert item_tokens(Message("user", "x" * 8)) == ITEM_OVERHEAD_TOKENS + 2
    assert item_tokens(ToolResult("c1", "Get", "y" * 9)) == ITEM_OVERHEAD_TOKENS + 3
    call = ToolCall("Get", {"path": "Acme/a"})
    assert item_tokens(call) == ITEM_OVERHEAD_TOKENS + text_tokens('Get{"path":"Acme/a"}')


def test_call_arguments_are_estimated_as_canonical_json_and_the_call_id_is_not_billed():
    """Argument order does not change a call's estimate (keys sorted, separators compact), nor does the runtime's
    call id: it is bookkeeping, not text the model is shown."""
    assert arguments_json({"b": 1, "a": "é"}) == '{"a":"é","b":1}'
    assert item_tokens(ToolCall("X", {"b": 1, "a": 2})) == item_tokens(ToolCall("X", {"a": 2, "b": 1}))
    assert item_tokens(ToolCall("Get", {"path": "p"}, "call-1-1")) == item_tokens(ToolCall("Get", {"path": "p"}))


def test_context_estimate_is_the_sum_of_its_parts():
    """Instructions, tool definitions and items add up to the context total."""
    tools = (ToolDefinition("Get", "read a node"), ToolDefinition("Search", "find nodes"))
    items = (Message("user", "hello there"), ToolCall("Get", {"path": "a"}), ToolResult("c", "Get", "{}"))
    estimate = estimate_context(Context("Be brief.", tools, items))
    assert estimate.instructions == instructions_tokens("Be brief.") == ITEM_OVERHEAD_TOKENS + 3
    assert estimate.tools == tool_definition_tokens(tools[0]) + tool_definition_tokens(tools[1])
    assert estimate.messages == items_tokens(items) == sum(item_tokens(i) for i in items)
    assert estimate.total == estimate.instructions + estimate.tools + estimate.messages


def test_a_reply_outputs_exactly_what_it_adds_to_the_next_context():
    """Output tokens of a reply equal the tokens of the items it appends."""
    reply = Reply("Reading both.", (ToolCall("Get", {"path": "a"}), ToolCall("Get", {"path": "b"})))
    assert reply_tokens(reply) == items_tokens(reply.items())
    assert len(reply.items()) == 3
    assert reply_tokens(Reply()) == 0
