"""Operational notes: the true cost of a thread tree."""

import agentkit
from agentkit import Agent, Mesh, Thread, ToolCall, usage_key, usage_report
from agentkit.guide import PlannedCalls, TextModel
from claimcheck import capture
from claimcheck.agentview import AgentView

# Every configuration built below is recorded for the page's "Agent node" listing (claimcheck/agentview.py).
VIEW = AgentView(__file__)
AgentConfiguration = VIEW.configurations(agentkit.AgentConfiguration)


def delegating_agent(mesh: Mesh, *, before_fix_369: bool) -> Agent:
    reader = Agent(AgentConfiguration("reader"), TextModel("Revenue: 4,812.3", key="example-small"), mesh)
    task = ToolCall("delegate_to_agent", {"agentName": "reader", "task": "Find FY2024 revenue."})
    return Agent(AgentConfiguration("lead", delegations=["reader"]), PlannedCalls([task]), mesh,
                 delegates={"reader": reader}, record_subthread_usage_as_unknown=before_fix_369)


# --8<-- [start:usage-tree]
# Before fix 3a0c9a9a0 (#369) the sub-thread's usage was recorded as '(unknown)': its tokens were priced $0.
for before_fix_369 in (False, True):
    mesh = Mesh()
    agent = delegating_agent(mesh, before_fix_369=before_fix_369)
    run = agent.start(Thread("Acme/_Thread/t1"), "Revenue?")
    report = usage_report(mesh, run.thread)  # every _Usage node at and below the thread
    print([row.model for row in report.rows], report.cost == run.billed_cost(),
          report.is_floor)
#> ['example-large', 'example-small'] True False
#> ['example-large', '(unknown)'] False True
# --8<-- [end:usage-tree]

fixed_mesh, old_mesh = Mesh(), Mesh()
fixed = delegating_agent(fixed_mesh, before_fix_369=False).start(Thread("Acme/_Thread/t1"), "Revenue?")
old = delegating_agent(old_mesh, before_fix_369=True).start(Thread("Acme/_Thread/t1"), "Revenue?")
fixed_report, old_report = usage_report(fixed_mesh, fixed.thread), usage_report(old_mesh, old.thread)
# verifies: agent.usage-sums-thread-tree
assert [r.thread for r in fixed_report.rows] == ["Acme/_Thread/t1", "Acme/_Thread/t1/response-1/reader-1"]
# verifies: agent.usage-sums-thread-tree
assert fixed_report.cost == fixed.billed_cost() and not fixed_report.is_floor
# verifies: agent.usage-sums-thread-tree
assert old_report.rows[1].model == "(unknown)" and not old_report.rows[1].priced and old_report.cost < old.billed_cost()
# verifies: agent.usage-sums-thread-tree
assert old_report.is_floor and "have no price and count as $0" in old_report.floor_reasons[0]
# verifies: agent.usage-sums-thread-tree
assert fixed_mesh.exists("Acme/_Thread/t1/response-1/reader-1/_Usage/example_small") and old_mesh.exists(
    "Acme/_Thread/t1/response-1/reader-1/_Usage/_unknown_")

# --8<-- [start:usage-node]
node = fixed_mesh.get("Acme/_Thread/t1/_Usage/example_large")
print(node.node_type, sorted(node.content))
#> TokenUsage ['$type', 'cacheReadTokens', 'cacheWriteTokens', 'inputTokens', 'model', 'outputTokens', 'threadId']
print(usage_key("claude-opus-4.8"), usage_key("modèle/ü"), usage_key(None))
#> claude_opus_4_8 modèle_ü _unknown_
# --8<-- [end:usage-node]
capture("agent_node_operations.md", VIEW.agent_nodes("usage-node", "usage-tree"))

# verifies: agent.usage-node-shape
assert node.path == f"{fixed.thread.path}/_Usage/{usage_key(fixed.model)}" and node.content["model"] == "example-large"
# verifies: agent.usage-node-shape
assert node.content["inputTokens"] == fixed.usage.total_input and node.content["outputTokens"] == fixed.usage.output
# verifies: agent.usage-key-from-model-id
assert old_mesh.get("Acme/_Thread/t1/response-1/reader-1/_Usage/_unknown_").content["model"] == "(unknown)"
twice = Mesh()
lead = delegating_agent(twice, before_fix_369=False)
thread = Thread("Acme/_Thread/t2")
rounds = [lead.start(thread, "Revenue?"), lead.start(thread, "And FY2023?")]
# verifies: agent.usage-node-shape
assert twice.get("Acme/_Thread/t2/_Usage/example_large").content["inputTokens"] == sum(
    r.usage.total_input for r in rounds)  # summed over rounds
