"""Tests for agentkit/_usage.py: usage satellites and the cost report over a thread tree."""

from __future__ import annotations

from decimal import Decimal

from agentkit import Mesh
from agentkit._config import AgentConfiguration
from agentkit._cost import EXAMPLE_PRICES, TokenUsage, cost_of
from agentkit._messages import ToolCall
from agentkit.guide._models import PlannedCalls, TextModel
from agentkit._runtime import Agent, Interrupt
from agentkit._threads import Thread
from agentkit._usage import UNKNOWN_MODEL, USAGE_SEGMENT, record_usage, recorded_usage, usage_key, usage_report


def _delegating(mesh: Mesh, *, pre_fix: bool) -> Agent:
    reader = Agent(AgentConfiguration("reader"), TextModel("Revenue: 1,234", key="example-small"), mesh)
    task = ToolCall("delegate_to_agent", {"agentName": "reader", "task": "Find revenue."})
    return Agent(AgentConfiguration("lead", delegations=["reader"]), PlannedCalls([task], key="example-large"),
                 mesh, delegates={"reader": reader}, record_subthread_usage_as_unknown=pre_fix)


def test_usage_key_replaces_every_character_that_is_not_a_unicode_letter_or_digit():
    """T4: '.', '-', '/' and ':' become '_'; Unicode letters and digits stay; no model is '(unknown)', '_unknown_'."""
    # verifies: agent.usage-key-from-model-id
    assert usage_key("gpt-4.1-mini") == "gpt_4_1_mini"
    # verifies: agent.usage-key-from-model-id
    assert usage_key("azure/claude:opus") == "azure_claude_opus"
    # verifies: agent.usage-key-from-model-id
    assert usage_key("modèle-ü") == "modèle_ü"
    assert usage_key("x²") == "x_"  # a superscript is a number, not a decimal digit, in .NET
    assert usage_key("a\U0001D400") == "a__"  # outside the BMP: two UTF-16 units, neither a letter
    # verifies: agent.usage-key-from-model-id
    assert usage_key(None) == usage_key("  ") == "_unknown_" == usage_key(UNKNOWN_MODEL)


def test_record_usage_accumulates_in_one_satellite_with_the_framework_fields():
    """T4: two rounds add up in one TokenUsage node; inputTokens counts cache reads and writes too."""
    mesh = Mesh()
    assert record_usage(mesh, "Acme/_Thread/t1", "example-large", TokenUsage(100, 10, 5, 1)) is not None
    node = record_usage(mesh, "Acme/_Thread/t1", "example-large", TokenUsage(1, 2, 3, 4))
    assert (node.path, node.node_type) == ("Acme/_Thread/t1/_Usage/example_large", "TokenUsage")
    assert node.to_json()["mainNode"] == "Acme/_Thread/t1"  # the satellite's MainNode is its thread (TokenUsage.cs:193)
    assert node.content == {"$type": "TokenUsage", "threadId": "Acme/_Thread/t1", "model": "example-large",
                            "inputTokens": 101 + 8 + 5, "outputTokens": 12, "cacheReadTokens": 8,
                            "cacheWriteTokens": 5}
    assert recorded_usage(mesh, "Acme/_Thread/t1", "example-large") == TokenUsage(101, 12, 8, 5)


def test_an_all_zero_round_writes_nothing():
    """T5: a round with no tokens is a no-op: no satellite appears."""
    mesh = Mesh()
    assert record_usage(mesh, "T", "example-large", TokenUsage()) is None
    assert not mesh.exists("T/_Usage/example_large")


def test_report_sums_every_satellite_across_the_thread_tree():
    """The report covers the thread and its delegation sub-thread, each priced at its own model."""
    mesh = Mesh()
    run = _delegating(mesh, pre_fix=False).start(Thread("Acme/_Thread/t1"), "What was revenue?")
    report = usage_report(mesh, run.thread)
    assert [(row.thread, row.model) for row in report.rows] == [
        ("Acme/_Thread/t1", "example-large"), ("Acme/_Thread/t1/response-1/reader-1", "example-small")]
    assert report.usage == run.billed_usage()
    assert report.cost == run.billed_cost() > 0
    assert not report.is_floor
    assert usage_report(mesh, "Acme/_Thread/t1").cost == report.cost  # the path alone finds the same nodes


def test_report_leaves_out_other_threads():
    """Satellites of a sibling thread (a path that merely starts the same) are not summed."""
    mesh = Mesh()
    record_usage(mesh, "T/t1", "example-large", TokenUsage(input=1_000))
    record_usage(mesh, "T/t10", "example-large", TokenUsage(input=5_000))
    assert usage_report(mesh, "T/t1").usage == TokenUsage(input=1_000)


def test_pre_fix_delegation_makes_the_report_a_floor():
    """Under the #369 behaviour the sub-thread is priced $0 and the report says its total is a floor."""
    mesh = Mesh()
    run = _delegating(mesh, pre_fix=True).start(Thread("T"), "What was revenue?")
    report = usage_report(mesh, run.thread)
    unknown = [row for row in report.rows if row.model == UNKNOWN_MODEL]
    assert len(unknown) == 1 and not unknown[0].priced and unknown[0].cost == 0
    assert report.usage == run.billed_usage()  # every token is there...
    assert report.cost < run.billed_cost()  # ...but not every dollar
    assert report.cost == cost_of(run.usage, EXAMPLE_PRICES["example-large"])
    assert report.is_floor and "model '(unknown)' have no price" in report.floor_reasons[0]
    assert "at least $" in report.to_markdown()


def test_a_died_round_makes_the_report_a_floor():
    """A round that died recorded nothing; the report notices the unanswered user message."""
    mesh = Mesh()
    agent = Agent(AgentConfiguration("w"), PlannedCalls([ToolCall("Get", {"path": "x"})] * 3, key="example-large"),
                  mesh)
    thread = Thread("T")
    died = agent.start(thread, "Work.", interrupt=Interrupt(2))
    resumed = agent.start(thread, "continue")
    report = usage_report(mesh, thread)
    assert report.usage == resumed.usage != resumed.usage + died.usage
    assert report.floor_reasons == ("T: 1 round(s) recorded no end, so their usage was never written",)


def test_report_markdown_lists_rows_and_total():
    """The Markdown table has one row per satellite and a total row with the dollar figure."""
    mesh = Mesh()
    record_usage(mesh, "T", "example-large", TokenUsage(input=1_000_000, output=100_000))
    table = usage_report(mesh, "T").to_markdown()
    assert "| T | example-large | 1,000,000 | 100,000 | 0 | 0 | $4.5000 |" in table
    assert table.rstrip().endswith("| **$4.5000** |")
    assert usage_report(mesh, "T").cost == Decimal("4.5")


def test_the_page_states_the_usage_path_and_the_unpriced_dollars():
    """T4's path as the page writes it, and T6's $0 for usage recorded under (unknown) before the fix."""
    from guidetools import stated

    # verifies: agent.usage-node-shape
    assert f"`{{threadPath}}/{USAGE_SEGMENT}/{{key}}`" in stated.text("agent.usage-node-shape")
    mesh = Mesh()
    run = _delegating(mesh, pre_fix=True).start(Thread("T"), "What was revenue?")
    unknown = [row for row in usage_report(mesh, run.thread).rows if row.model == UNKNOWN_MODEL]
    # verifies: agent.usage-sums-thread-tree
    assert [row.cost for row in unknown] == stated.numbers("agent.usage-sums-thread-tree")
