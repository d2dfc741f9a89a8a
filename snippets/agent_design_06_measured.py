"""Measured effect: the four scenarios on the generated report, against the floor."""

from pypdf import PdfReader

from agentkit import (
    REPORT, Worksheet, caching_table, floor_cost, list_dimensions, read_tables, report_pdf_path, report_text,
    run_all, scenario_table, workspace,
)

# --8<-- [start:table]
results = run_all()                    # scenarios 1-4, each on a fresh workspace
with_caching = run_all(caching=True)   # the same, billed with prompt caching
# prints the table above
print(scenario_table(results, with_caching))
#> | scenario | turns | input tokens | output tokens | cost | × floor | with caching | ...
#> ...
# --8<-- [end:table]

naive, reread, protocol, bulk = results


def table() -> str:
    return scenario_table(results, with_caching)


CAPTURES = {"agent_scenarios.md": table, "agent_scenarios_caching.md": lambda: caching_table(with_caching)}

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
assert [r.key for r in sorted(with_caching, key=lambda r: r.cost, reverse=True)] == [r.key for r in results]
# verifies: agent.caching-keeps-the-order
assert all(c.cost < r.cost for c, r in zip(with_caching, results))
# verifies: agent.caching-reads-most-input
assert all(c.usage.cache_read > c.usage.cache_write > c.usage.input for c in with_caching[:2])
# verifies: agent.caching-reads-most-input
assert all(c.usage.total_input == r.usage.total_input for c, r in zip(with_caching, results))

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
