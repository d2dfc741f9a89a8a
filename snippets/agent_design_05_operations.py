"""Operational notes: the true cost of a thread tree, and where a search hit's readable file is."""

from agentkit import (
    Agent, AgentConfiguration, Mesh, PlannedCalls, TextModel, Thread, ToolCall, document_slug,
    file_path_by_string_rule, file_path_from_document, usage_report, workspace,
)


def delegating_agent(mesh: Mesh, *, before_fix_369: bool) -> Agent:
    reader = Agent(AgentConfiguration("reader"), TextModel("Revenue: 4,812.3", key="example-small"), mesh)
    task = ToolCall("delegate_to_agent", {"agentId": "reader", "task": "Find FY2024 revenue."})
    return Agent(AgentConfiguration("lead", delegations=["reader"]), PlannedCalls([task]), mesh,
                 delegates={"reader": reader}, record_subthread_usage_as_unknown=before_fix_369)


# --8<-- [start:usage-tree]
# Before the fix the sub-thread's usage is recorded as '(unknown)': its tokens are priced $0.
for before_fix_369 in (False, True):
    mesh = Mesh()
    agent = delegating_agent(mesh, before_fix_369=before_fix_369)
    run = agent.start(Thread("Acme/_Threads/t1"), "Revenue?")
    report = usage_report(mesh, run.thread)  # every _Usage node at and below the thread
    print([row.model for row in report.rows], report.cost == run.billed_cost(),
          report.is_floor)
#> ['example-large', 'example-small'] True False
#> ['example-large', '(unknown)'] False True
# --8<-- [end:usage-tree]

fixed_mesh, old_mesh = Mesh(), Mesh()
fixed = delegating_agent(fixed_mesh, before_fix_369=False).start(Thread("Acme/_Threads/t1"), "Revenue?")
old = delegating_agent(old_mesh, before_fix_369=True).start(Thread("Acme/_Threads/t1"), "Revenue?")
fixed_report, old_report = usage_report(fixed_mesh, fixed.thread), usage_report(old_mesh, old.thread)
# verifies: agent.usage-sums-thread-tree
assert [r.thread for r in fixed_report.rows] == ["Acme/_Threads/t1", "Acme/_Threads/t1/reader-1"]
# verifies: agent.usage-sums-thread-tree
assert fixed_report.cost == fixed.billed_cost() and not fixed_report.is_floor
# verifies: agent.unknown-subthread-priced-zero
assert old_report.rows[1].model == "(unknown)" and not old_report.rows[1].priced and old_report.cost < old.billed_cost()
# verifies: agent.unknown-subthread-priced-zero
assert old_report.is_floor and "have no price and count as $0" in old_report.floor_reasons[0]

# --8<-- [start:file-path]
# The Document node a search hit points at:
node = workspace().get("Meridian/content/_Documents/Annual-Report-2024.pdf")
# the slug is lossy
print(document_slug("Annual Report 2024.pdf"))
#> Annual-Report-2024.pdf
# the string rule builds a path where no file is
print(file_path_by_string_rule(node.path))
#> Meridian/content/Annual-Report-2024.pdf
# the node's fields give the file, and its full text
print(file_path_from_document(node.content))
#> Meridian/content/Annual Report 2024.pdf
# --8<-- [end:file-path]

mesh = workspace()
# verifies: agent.derive-file-path-from-fields
assert mesh.fetch(file_path_from_document(node.content)).kind == "file"
try:
    mesh.fetch(file_path_by_string_rule(node.path))
except KeyError as missing:
    # verifies: agent.derive-file-path-from-fields
    assert str(missing) == "File 'Annual-Report-2024.pdf' not found in collection 'content'"
else:
    raise AssertionError("the string rule found the file")
# verifies: agent.derive-file-path-from-fields
assert document_slug("Annual Report 2024.pdf") == document_slug("Annual-Report 2024.pdf") == "Annual-Report-2024.pdf"
