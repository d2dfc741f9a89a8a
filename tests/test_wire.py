"""agentkit/_wire.py beyond the pages (snippets/agent_design_21_wire.py): relaxed JSON escaping, the wire refusal,
billing per wire."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from agentkit import Mesh
from agentkit._config import AgentConfiguration
from agentkit._cost import TokenUsage
from agentkit._runtime import Agent
from agentkit._wire import _NOT_AS_JSON_DUMPS, CLAUDE, OPENAI, _relaxed_char, billed_input, relaxed_json_string
from agentkit.guide._models import TextModel


def test_relaxed_escaping_of_control_and_supplementary_characters():
    assert relaxed_json_string("a\u0001\u007f\u2028é😀") == '"a\\u0001\\u007F\\u2028é\\uD83D\\uDE00"'


def test_every_character_the_c_encoder_is_handed_it_writes_as_the_relaxed_rule():
    """relaxed_json_string gives a text with none of _NOT_AS_JSON_DUMPS's characters to json.dumps: over every
    character that can reach it (the pattern takes the supplementary ones), json.dumps writes what _relaxed_char does."""
    handed = [chr(code) for code in range(0x10000) if not _NOT_AS_JSON_DUMPS.match(chr(code))]
    assert len(handed) > 60_000
    assert [json.dumps(char, ensure_ascii=False)[1:-1] for char in handed] == list(map(_relaxed_char, handed))


@given(st.text())
def test_the_openai_text_decodes_to_the_tools_text(text):
    assert json.loads(relaxed_json_string(text)) == text


def test_an_unknown_wire_is_refused():
    # the wires and the default: snippets/agent_design_21_wire.py
    with pytest.raises(ValueError, match="wire must be one of"):
        Agent(AgentConfiguration("reader"), TextModel("Done."), Mesh(), wire="gemini")


def test_billing_per_wire():
    assert billed_input(1000, 400, True, CLAUDE) == TokenUsage(cache_read=400, cache_write=600)
    assert billed_input(1000, 400, True, OPENAI) == TokenUsage(input=600, cache_read=400)
    assert billed_input(500, 0, False, CLAUDE) == billed_input(500, 0, False, OPENAI) == TokenUsage(input=500)
    # recorded per wire (on OPENAI, cached input as plain input): snippets/agent_design_21_wire.py
