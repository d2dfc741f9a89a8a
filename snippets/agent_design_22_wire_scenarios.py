"""The four scenarios on both provider wires: cost billed, without and with caching, and cost recorded."""

import math

from agentkit._wire import CLAUDE, OPENAI, WIRES, displayed_cost
from agentkit.guide._wire_costs import wire_cost_table, wire_costs
from claimcheck import capture
from claimcheck import stated

rows = wire_costs()  # each scenario on the Claude wire, then on the OpenAI wire
on = {wire: [row for row in rows if row.wire == wire] for wire in WIRES}
claude, openai = on[CLAUDE], on[OPENAI]
naive = openai[0]

# The recorded column is what section 9 models: the displayed cost of the _Usage nodes.
assert all(row.recorded == displayed_cost(row.cached.recorded, row.cached.price) == row.cached.recorded_cost
           for row in rows)
assert [row.key for row in claude] == [row.key for row in openai] == ["naive", "reread", "worksheet", "bulk"]
# Both wires write the same nodes; the wire moves only what the model is shown and what is recorded.
assert all(c.plain.grade == o.plain.grade and c.cached.grade == o.cached.grade for c, o in zip(claude, openai))

# verifies: agent.wire-scenario-costs
assert all(c.billed < o.billed for c, o in zip(claude, openai))
most_more = max(o.billed / c.billed - 1 for c, o in zip(claude, openai))  # the OpenAI wire's largest increase
naive_times = naive.recorded / naive.billed_with_caching  # recorded against billed, with caching
# verifies: agent.wire-scenario-costs
assert naive.key == "naive" and naive_times > math.floor(naive_times)  # over, not exactly, that many times
# verifies: agent.wire-scenario-costs
assert stated.numbers("agent.wire-scenario-costs") == [math.ceil(most_more * 100),
                                                        math.floor(naive_times)]
# verifies: agent.wire-scenario-costs
assert all(o.recorded == o.billed > o.billed_with_caching for o in openai)
# verifies: agent.wire-scenario-costs
assert all(c.recorded == c.billed_with_caching and c.recorded_without_caching == c.billed for c in claude)
capture("agent_wire_scenarios.md", wire_cost_table(rows))
