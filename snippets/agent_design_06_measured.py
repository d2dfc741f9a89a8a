"""Measured effect: the four scenarios on the generated report, against the floor."""

from agentkit import floor_cost, run_all, scenario_table

# --8<-- [start:table]
results = run_all()                    # scenarios 1-4, each on a fresh workspace
with_caching = run_all(caching=True)   # the same, billed with prompt caching
print(scenario_table(results, with_caching))
# --8<-- [end:table]

naive, reread, protocol, bulk = results


def table() -> str:
    return scenario_table(results, with_caching)


CAPTURES = {"agent_scenarios.md": table}

# verifies: agent.protocol-far-cheaper
assert protocol.cost * 10 < reread.cost and protocol.cost * 10 < naive.cost
# verifies: agent.protocol-far-cheaper
assert protocol.cost < 3 * floor_cost() and naive.cost > 100 * floor_cost()
# verifies: agent.naive-writes-wrong-nodes
assert naive.grade.correct * 2 < naive.grade.written and len(naive.grade.missing) > 30
# verifies: agent.protocol-nodes-correct
assert all(r.grade.correct == r.grade.written == 75 and not r.grade.missing for r in (reread, protocol, bulk))
# verifies: agent.bulk-create-fewest-turns
assert bulk.turns < protocol.turns and bulk.cost < protocol.cost
# verifies: agent.caching-keeps-the-order
assert [r.key for r in sorted(with_caching, key=lambda r: r.cost, reverse=True)] == ["naive", "reread", "worksheet", "bulk"]
# verifies: agent.caching-keeps-the-order
assert all(c.cost < r.cost for c, r in zip(with_caching, results))
