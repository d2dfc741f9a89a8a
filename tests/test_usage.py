"""Tests for agentkit/_usage.py beyond the pages: the usage key's character rule and the report's thread scope. The
usage nodes, their sum over a thread tree and the floor (T4-T6) are checked by snippets/agent_design_0[25]*.py."""

from __future__ import annotations

from agentkit import Mesh
from agentkit._cost import TokenUsage
from agentkit._usage import UNKNOWN_MODEL, USAGE_SEGMENT, record_usage, usage_key, usage_report
from guidetools import stated


def test_usage_key_replaces_every_character_that_is_not_a_unicode_letter_or_digit():
    """T4: '.', '-', '/' and ':' become '_'; Unicode letters and digits stay; no model is '(unknown)', '_unknown_'."""
    # verifies: agent.usage-key-from-model-id
    assert usage_key("azure/claude:opus") == "azure_claude_opus"  # '.', '-', 'ü': agent_design_05_operations.py
    assert usage_key("x²") == "x_"  # a superscript is a number, not a decimal digit, in .NET
    assert usage_key("a\U0001D400") == "a__"  # outside the BMP: two UTF-16 units, neither a letter
    # verifies: agent.usage-key-from-model-id
    assert usage_key(None) == usage_key("  ") == "_unknown_" == usage_key(UNKNOWN_MODEL)


def test_report_leaves_out_other_threads():
    """Satellites of a sibling thread (a path that merely starts the same) are not summed."""
    mesh = Mesh()
    record_usage(mesh, "T/t1", "example-large", TokenUsage(input=1_000))
    record_usage(mesh, "T/t10", "example-large", TokenUsage(input=5_000))
    assert usage_report(mesh, "T/t1").usage == TokenUsage(input=1_000)


def test_the_page_states_the_usage_path():
    """T4's path as the page writes it (T6's $0 for usage recorded under (unknown): tests/test_claim_numbers.py)."""
    # verifies: agent.usage-node-shape
    assert f"`{{threadPath}}/{USAGE_SEGMENT}/{{key}}`" in stated.text("agent.usage-node-shape")
