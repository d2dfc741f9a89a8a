"""Tests for agentkit/_wire.py beyond the pages: the relaxed JSON escaping (a property), the wire refusal, and
billing per wire. What the model reads and what a round records per wire is checked by snippets/agent_design_21_wire.py."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from agentkit import Mesh
from agentkit._config import AgentConfiguration
from agentkit._cost import ModelPrice, TokenUsage
from agentkit._messages import ToolCall
from agentkit._dotnet_json import dotnet_json_string
from agentkit._plugins import Tool
from agentkit._runtime import Agent
from agentkit._threads import Thread
from agentkit._tokens import item_tokens
from agentkit._wire import (
    CLAUDE, OPENAI, WIRES, WireResult, billed_input, model_reads,
    recorded, relaxed_json_string, require_wire, returned_text,
)
from agentkit.guide._models import PlannedCalls

MODEL = "test-model"
PRICES = {MODEL: ModelPrice(MODEL, 3, 15, min_cacheable_tokens=600)}
ANSWER = dotnet_json_string('Revenue "up" +6.4%\nC:\\data')  # a file's Get answer: the hub's JSON literal
FILE = Tool("Read", "Test", "Read(): a file as a JSON string.", lambda args: ANSWER)


def _agent(wire: str) -> Agent:
    model = PlannedCalls([ToolCall("Read", {})], answer="Done.", key=MODEL, state_in_answer=False)
    return Agent(AgentConfiguration("reader", "Read the file.", plugins=["Test"]), model, Mesh(),
                 tools=[FILE], prices=PRICES, wire=wire)


def test_relaxed_escaping_of_control_and_supplementary_characters():
    assert relaxed_json_string("a\u0001\u007f\u2028é😀") == '"a\\u0001\\u007F\\u2028é\\uD83D\\uDE00"'


@given(st.text())
def test_the_openai_text_decodes_to_the_tools_text(text):
    assert json.loads(relaxed_json_string(text)) == text


def test_wires_and_the_default():
    assert WIRES == (CLAUDE, OPENAI)  # the default: snippets/agent_design_21_wire.py
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


def test_billing_and_recording_per_wire():
    assert billed_input(1000, 400, True, CLAUDE) == TokenUsage(cache_read=400, cache_write=600)
    assert billed_input(1000, 400, True, OPENAI) == TokenUsage(input=600, cache_read=400)
    assert billed_input(500, 0, False, CLAUDE) == billed_input(500, 0, False, OPENAI) == TokenUsage(input=500)
    # recorded as billed on CLAUDE: snippets/agent_design_21_wire.py
    assert recorded(TokenUsage(input=10, output=5, cache_read=400, cache_write=600), OPENAI) == TokenUsage(input=1010, output=5)


