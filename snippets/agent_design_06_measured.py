"""Measured effect: the four scenarios on the generated report, against the floor."""

import json
from dataclasses import replace

from pypdf import PdfReader

from agentkit import Agent, Thread
from agentkit.guide import (
    REPORT, ProcedureModel, Worksheet, caching_table, floor_cost, invented_key, list_dimensions, read_tables,
    report_pdf_path, report_text, run_all, scenario_table, workspace,
)
from agentkit._config import DEFAULT_MAXIMUM_ITERATIONS
from agentkit.guide._procedures import LONG_ROUND_CAP, TASK, THREAD, TITLES, scenario_config
from agentkit.guide._procedures import naive as naive_procedure
from claimcheck import capture
from claimcheck.agentview import pretty_json

NAIVE_CONFIG = scenario_config("naive")

results = run_all()                    # scenarios 1-4, each on a fresh workspace
with_caching = run_all(caching=True)   # the same, billed with prompt caching

naive, reread, protocol, bulk = results


def agent_nodes() -> str:
    """Each scenario's agent node, written from the configuration the scenario runs with."""
    return "\n\n".join(f"**{TITLES[key]}**\n\n```json\n{pretty_json(scenario_config(key).node_json())}\n```"
                       for key in TITLES) + "\n"


# verifies: agent.protocol-far-cheaper
assert protocol.cost * 10 < reread.cost and protocol.cost * 10 < naive.cost
# verifies: agent.protocol-far-cheaper
assert protocol.cost < 3 * floor_cost() and naive.cost > 100 * floor_cost()
# verifies: agent.naive-writes-wrong-nodes
assert naive.grade.correct * 2 < naive.grade.written and len(naive.grade.missing) > 30
# verifies: agent.protocol-nodes-correct
assert all(r.grade.correct == r.grade.written == 75 and not r.grade.missing for r in (reread, protocol, bulk))
# verifies: agent.protocol-far-cheaper
assert bulk.turns < protocol.turns and bulk.cost < protocol.cost
# verifies: agent.caching-reads-most-input
assert [r.key for r in sorted(with_caching, key=lambda r: r.cost, reverse=True)] == [r.key for r in results]
# verifies: agent.caching-reads-most-input
assert all(c.cost < r.cost for c, r in zip(with_caching, results))
# verifies: agent.caching-reads-most-input
assert all(c.usage.cache_read > c.usage.cache_write > c.usage.input for c in with_caching[:2])
# verifies: agent.caching-reads-most-input
assert all(c.usage.total_input == r.usage.total_input for c, r in zip(with_caching, results))
# The tables show the scenario results the asserts above checked.
capture("agent_scenarios.md", scenario_table(results, with_caching))
capture("agent_scenarios_caching.md", caching_table(with_caching))

mesh = workspace()
tables = {row.statement for row in read_tables(report_text(mesh))}
# verifies: agent.report-shape
assert len(PdfReader(str(report_pdf_path())).pages) == 62 and len(REPORT.values) == 64 and len(tables) == 4
worksheet = Worksheet.from_text(protocol.runs[0].answer)
# verifies: agent.workspace-shape
assert (len(worksheet.new_dimensions), len(worksheet.writable_facts)) == (11, 64)
# verifies: agent.workspace-shape
assert list_dimensions(mesh, "Meridian")["count"] == 21 and len(REPORT.unreported) == 4
# verifies: agent.workspace-shape
assert {row.key for row in worksheet.facts if row.value is None} == {item.key for item in REPORT.unreported}

# The long rounds raise the cap in the agent node's JSON; under the default of 40 the naive round stops early.
long_round = naive.runs[0]
# verifies: agent.long-rounds-raise-the-cap
assert scenario_config("reread").max_tool_calls_per_round == NAIVE_CONFIG.max_tool_calls_per_round == LONG_ROUND_CAP == 1000
# verifies: agent.long-rounds-raise-the-cap
assert all(len(run.turns) <= LONG_ROUND_CAP for r in (naive, reread) for run in r.runs)
# verifies: agent.long-rounds-raise-the-cap
assert len(long_round.turns) > DEFAULT_MAXIMUM_ITERATIONS + 1 and "Tool-call budget" in NAIVE_CONFIG.round_instructions()
capped = Agent(replace(NAIVE_CONFIG, max_tool_calls_per_round=None), ProcedureModel(naive_procedure), workspace())
default_round = capped.start(Thread(THREAD), TASK)
# verifies: agent.long-rounds-raise-the-cap
assert len(default_round.turns) == DEFAULT_MAXIMUM_ITERATIONS + 1 and default_round.turns[-1].tools_offered == ()
# verifies: agent.long-rounds-raise-the-cap
assert all(scenario_config(key).node_json()["content"].get("maxToolCallsPerRound") == (
    LONG_ROUND_CAP if key in ("naive", "reread") else None) for key in TITLES)  # what the listing shows
capture("agent_node_scenarios.md", agent_nodes())
# Scenario 4 writes with BulkCreate, the Mesh plugin's extension, instead of Create.
# verifies: agent.protocol-far-cheaper
assert any(c.name == "BulkCreate" for run in bulk.runs for t in run.turns for c in t.reply.tool_calls)

naive_creates = [json.loads(call.arguments["node"]) for run in naive.runs for turn in run.turns
                 for call in turn.reply.tool_calls if call.name == "Create"]
naive_dimensions = {node["id"] for node in naive_creates if node["nodeType"] == "LineItem"}
# verifies: agent.naive-writes-wrong-nodes
assert {invented_key("Operating profit"), invented_key("Net profit")} <= naive_dimensions  # 'ebit', 'np' missed
# verifies: agent.naive-writes-wrong-nodes
assert not naive_dimensions & {item.key for item in REPORT.line_items}  # every new dimension got an invented id
cut = [node for node in naive_creates if node["name"] == "Other liabilities FY2023"]
# verifies: agent.naive-writes-wrong-nodes
assert [node["content"]["value"] for node in cut] == [356.0] and REPORT.value("ocl", "FY2023").value == 356.2
