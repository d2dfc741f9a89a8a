"""Tests for agentkit/_wire.py: what the model reads per provider wire, and what a round bills and records."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given, strategies as st

from agentkit import Mesh
from agentkit._config import AgentConfiguration
from agentkit._cost import ModelPrice, TokenUsage, cost_of
from agentkit._messages import ToolCall, ToolResult
from agentkit._dotnet_json import dotnet_json_string
from agentkit._plugins import Tool
from agentkit._runtime import Agent
from agentkit._threads import Thread
from agentkit._tokens import item_tokens
from agentkit._usage import recorded_usage
from agentkit._wire import (
    CLAUDE, DEFAULT_WIRE, OPENAI, WIRES, WireResult, billed_input, delivered, displayed_cost, model_reads,
    recorded, relaxed_json_string, require_wire, returned_text,
)
from agentkit.guide._models import PlannedCalls

MODEL = "test-model"
PRICES = {MODEL: ModelPrice(MODEL, 3, 15, min_cacheable_tokens=600)}
ANSWER = dotnet_json_string('Revenue "up" +6.4%\nC:\\data')  # a file's Get answer: the hub's JSON literal
FILE = Tool("Read", "Test", "Read(): a file as a JSON string.", lambda args: ANSWER)


def _agent(wire=DEFAULT_WIRE, caching=False, calls=1):
    model = PlannedCalls([ToolCall("Read", {}) for _ in range(calls)], answer="Done.", key=MODEL,
                         state_in_answer=False)
    return Agent(AgentConfiguration("reader", "Read the file.", plugins=["Test"]), model, Mesh(),
                 tools=[FILE], prices=PRICES, caching=caching, wire=wire)


def test_claude_sends_the_tools_text_unchanged():
    assert model_reads(ANSWER, CLAUDE) == ANSWER
    result = ToolResult("c1", "Get", ANSWER)
    assert delivered(result, CLAUDE) is result and returned_text(result) == ANSWER


def test_openai_sends_a_json_string_literal_of_the_tools_text():
    """Relaxed escaping: quotes and backslashes get a backslash; the hub's \\u002B keeps its hex."""
    read = model_reads(ANSWER, OPENAI)
    assert ANSWER == r'"Revenue \u0022up\u0022 \u002B6.4%\nC:\\data"'
    assert read == r'"\"Revenue \\u0022up\\u0022 \\u002B6.4%\\nC:\\\\data\""'
    assert json.loads(read) == ANSWER and json.loads(json.loads(read)) == 'Revenue "up" +6.4%\nC:\\data'
    assert len(read) == len(ANSWER) + 2 + ANSWER.count("\\") + ANSWER.count('"')


def test_relaxed_escaping_of_control_and_supplementary_characters():
    assert relaxed_json_string("a\u0001\u007f\u2028é😀") == '"a\\u0001\\u007F\\u2028é\\uD83D\\uDE00"'


@given(st.text())
def test_the_openai_text_decodes_to_the_tools_text(text):
    assert json.loads(relaxed_json_string(text)) == text


def test_wires_and_the_default():
    assert WIRES == (CLAUDE, OPENAI) and DEFAULT_WIRE == CLAUDE
    with pytest.raises(ValueError, match="wire must be one of"):
        require_wire("anthropic")
    with pytest.raises(ValueError, match="wire must be one of"):
        _agent(wire="gemini")


@pytest.mark.parametrize("wire", WIRES)
def test_the_runtime_delivers_and_bills_what_the_wire_sends(wire):
    run = _agent(wire).start(Thread("T/_Thread/t"), "Read it.")
    (result,) = run.turns[0].results
    assert result.text == model_reads(ANSWER, wire)
    assert returned_text(result) == ANSWER
    assert isinstance(result, WireResult) == (wire == OPENAI)
    # the next call is billed for the text as delivered
    assert run.turns[1].context.messages == run.turns[0].context.messages + item_tokens(run.turns[0].reply.tool_calls[0]) \
        + item_tokens(result)


def test_a_refusal_is_a_string_on_every_wire():
    model = PlannedCalls([ToolCall("Missing", {})], answer="Done.", key=MODEL, state_in_answer=False)
    for wire in WIRES:
        agent = Agent(AgentConfiguration("reader", "x", plugins=["Test"]), model, Mesh(), tools=[FILE],
                      prices=PRICES, wire=wire)
        (result,) = agent.start(Thread("T/_Thread/t"), "Read it.").turns[0].results
        assert result.refused and result.text == 'Error: Requested function "Missing" not found.'


def test_billing_and_recording_per_wire():
    assert billed_input(1000, 400, True, CLAUDE) == TokenUsage(cache_read=400, cache_write=600)
    assert billed_input(1000, 400, True, OPENAI) == TokenUsage(input=600, cache_read=400)
    assert billed_input(500, 0, False, CLAUDE) == billed_input(500, 0, False, OPENAI) == TokenUsage(input=500)
    usage = TokenUsage(input=10, output=5, cache_read=400, cache_write=600)
    assert recorded(usage, CLAUDE) == usage
    assert recorded(usage, OPENAI) == TokenUsage(input=1010, output=5)


@pytest.mark.parametrize("wire", WIRES)
def test_a_cached_round_records_per_wire(wire):
    agent = _agent(wire, caching=True, calls=3)
    run = agent.start(Thread("T/_Thread/t"), "Read it." + "x" * 4000)
    billed = run.usage
    assert billed.cache_read > 0 and (billed.cache_write > 0) == (wire == CLAUDE)
    stored = recorded_usage(agent.mesh, "T/_Thread/t", MODEL)
    assert stored == recorded(billed, wire) and stored.total_input == billed.total_input
    price = PRICES[MODEL]
    if wire == CLAUDE:
        assert displayed_cost(stored, price) == cost_of(billed, price)
    else:
        assert stored.cache_read == 0 and displayed_cost(stored, price) > cost_of(billed, price)


def test_the_displayed_cost_ignores_the_prices_cache_multipliers():
    usage = TokenUsage(input=1_000_000, output=1_000_000, cache_read=1_000_000, cache_write=1_000_000)
    standard = ModelPrice("m", 3, 15)
    assert displayed_cost(usage, standard) == cost_of(usage, standard) == Decimal("3") + Decimal("0.3") \
        + Decimal("3.75") + Decimal("15")
    hour = ModelPrice("m", 3, 15, cache_write_multiplier=2, cache_read_multiplier="0.5")
    assert displayed_cost(usage, hour) == displayed_cost(usage, standard) < cost_of(usage, hour)
