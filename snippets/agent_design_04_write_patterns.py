"""Write-phase patterns for a fact/dimension model: ids, existence checks, verification, reconciliation."""

from agentkit.guide import (
    REPORT, MissingMasterData, Worksheet, fact_id, facts_for, interrupted_sweep, invented_key, list_dimensions,
    run_scenario, search_dimension_by_name, verify_by_get, workspace,
)
from agentkit.guide._scenarios import creates_in_scenario_3
from claimcheck import capture

assert fact_id("rev", "FY2024", 1) == "rev-FY2024-1"  # short key, period, row position: the page's example id

# --8<-- [start:interrupted]
# Killed after k creates, for k = 0 .. 75, then resumed with "continue":
deterministic = interrupted_sweep()
invented = interrupted_sweep(random_ids=2024)  # the same, but the model makes up fact ids
print(max(run.duplicates for run in deterministic), max(run.missing for run in deterministic))
#> 0 0
# With invented ids, every fact written before the kill is written twice:
print([run.duplicates for run in invented][::15])
#> [0, 4, 19, 34, 49, 64]
# --8<-- [end:interrupted]

NEW_DIMENSIONS = 11
# verifies: agent.deterministic-ids-resume
assert [run.killed_after for run in deterministic] == list(range(creates_in_scenario_3() + 1)) == list(range(76))
# verifies: agent.deterministic-ids-resume
assert all(run.duplicates == run.missing == 0 and run.result.grade.correct == 75 for run in deterministic)
# verifies: agent.interrupted-recorded-below-billed
assert all(run.result.recorded_cost < run.result.cost for run in deterministic + invented)
# verifies: agent.deterministic-ids-resume
assert [run.duplicates for run in invented] == [max(0, k - NEW_DIMENSIONS) for k in range(76)]


def interruption_table(deterministic, invented) -> str:
    """Every 15th k (and the last) of the two sweeps the asserts above checked."""
    lines = ["| killed after k creates | duplicates (deterministic ids) | missing | duplicates (invented ids) "
             "| billed cost | recorded in _Usage |", "| ---: | ---: | ---: | ---: | ---: | ---: |"]
    shown = sorted(set(range(0, len(deterministic), 15)) | {len(deterministic) - 1})
    for det, inv in ((deterministic[k], invented[k]) for k in shown):
        lines.append(f"| {det.killed_after} | {det.duplicates} | {det.missing} | {inv.duplicates} | "
                     f"${det.result.cost:.2f} | ${det.result.recorded_cost:.2f} |")
    return "\n".join(lines) + "\n"


capture("agent_interruptions.md", interruption_table(deterministic, invented))

# --8<-- [start:label-search]
mesh = workspace()  # another system created 'ebit' and 'np' as "EBIT" and "Net income"
# "missing", says the label search:
print(search_dimension_by_name(mesh, "Meridian", "Net profit")["count"])
#> 0
listed = list_dimensions(mesh, "Meridian")["results"]  # one search, every dimension
print(len(listed), [row["name"] for row in listed if row["path"].endswith("/np")])
#> 21 ['Net income']
# --8<-- [end:label-search]

# verifies: agent.label-search-false-negative
assert search_dimension_by_name(mesh, "Meridian", "Net profit")["count"] == 0
# verifies: agent.label-search-false-negative
assert "Meridian/LineItems/np" in {row["path"] for row in listed} and len(listed) == 21
default_listing = mesh.search("nodeType:LineItem", base_path="Meridian/LineItems")
# verifies: mesh.search-limit-clamped, mesh.search-envelope
assert default_listing["limit"] == 50 and not default_listing["truncated"] and default_listing["count"] == len(listed)
short_listing = mesh.search("nodeType:LineItem", base_path="Meridian/LineItems", limit=5)
# verifies: mesh.search-envelope
assert short_listing["truncated"] and short_listing["count"] == 5 and "hint" in short_listing
# verifies: mesh.search-base-path
assert mesh.search("nodeType:LineItem", base_path="Meridian")["count"] == 0 < mesh.search(
    "nodeType:LineItem scope:subtree", base_path="Meridian")["count"]  # basePath: direct children only
# verifies: mesh.search-limit-clamped
assert mesh.search("nodeType:LineItem", base_path="Meridian/LineItems", limit=500)["limit"] == 200

# --8<-- [start:two-spellings]
naive = run_scenario("naive")  # its label search missed 'ebit', so it made a new dimension
long_key = invented_key("Operating profit")
print(long_key, len(facts_for(naive.mesh, "Meridian", long_key)))
#> operating-profit 2
# The view keyed on 'ebit' shows none of them:
print(len(facts_for(naive.mesh, "Meridian", "ebit")))
#> 0
# --8<-- [end:two-spellings]

# verifies: agent.two-spellings-split
assert len(facts_for(naive.mesh, "Meridian", long_key)) == 2 and facts_for(naive.mesh, "Meridian", "ebit") == []

# --8<-- [start:verify]
protocol = run_scenario("worksheet")
worksheet = Worksheet.from_text(protocol.runs[0].answer)
check = verify_by_get(protocol.mesh, worksheet)  # Get every expected path; count by Search and by listing
# Every path answers Get; the index and the listing still count no fact:
print(len(check.present), len(check.missing), check.search_count, check.listed_count)
#> 96 0 0 0
protocol.mesh.refresh_index()  # once the index has caught up
caught_up = verify_by_get(protocol.mesh, worksheet)
print(caught_up.search_count, caught_up.listed_count)
#> 64 64
# --8<-- [end:verify]

# verifies: mesh.index-count-may-miss
assert check.complete and len(check.present) == len(worksheet.expected_paths()) == 32 + 64
# verifies: mesh.index-count-may-miss
assert (check.search_count, check.listed_count) == (0, 0)
# verifies: mesh.index-count-may-miss
assert caught_up.search_count == caught_up.listed_count == len(REPORT.values)
writing = protocol.runs[1]
creates = [r.text for t in writing.turns for c, r in zip(t.reply.tool_calls, t.results) if c.name == "Create"]
last_calls = [c for t in writing.turns[-2:] for c in t.reply.tool_calls]
# verifies: agent.verify-by-get
assert len(creates) == 75 and all(text.startswith("Created: ") for text in creates)
# verifies: agent.verify-by-get
assert [c.name for c in last_calls] == ["Get", "Get"] and "Search" not in {
    c.name for t in writing.turns for c in t.reply.tool_calls}

# verifies: agent.reconciliation-explains-every-row
assert protocol.reconciliation.unexplained == 0 and len(protocol.reconciliation.unwritten) == 21 + 8
# verifies: agent.reconciliation-explains-every-row
assert protocol.runs[1].answer.endswith(protocol.reconciliation.to_text())
capture("agent_reconciliation.md", "```text\n" + protocol.reconciliation.to_text() + "\n```\n")

# --8<-- [start:master-data]
# The same worksheet with the unit of every segment dimension left out:
incomplete = worksheet.to_text().replace("| Segment information | EUR m | new |",
                                         "| Segment information |  | new |")
try:
    Worksheet.from_text(incomplete).nodes_to_create()
except MissingMasterData as refused:
    message = str(refused)
    print(message)
#> Worksheet refused: new dimension(s) without master data: 'indrev' lacks unit; ...
# --8<-- [end:master-data]

# verifies: agent.worksheet-needs-master-data
assert "'indrev' lacks unit" in message and "'conop' lacks unit" in message and "Nothing was written" in message
