"""Delegation end to end: what a sub-agent receives, what the parent reads, how it fails; and the time limits."""

from agentkit import Agent, Mesh, Thread, ToolCall
from agentkit._config import AgentConfiguration
from agentkit._delegation import BATCH_BUILD, BY_NAME, delegation_targets, named_agent, round_build
from agentkit._cost import TokenUsage
from agentkit._runtime import CANCELLED_SUMMARY, DELEGATION_TIMED_OUT, DELEGATION_WAIT_SECONDS, NO_RESPONSE, Interrupt
from agentkit._time_limits import TIME_LIMITS
from agentkit._usage import recorded_usage
from agentkit.guide import PlannedCalls, TextModel
from claimcheck import capture

ANSWER = "FY2024 revenue is 4,812.3 (p. 41).\n<summary>revenue FY2024 4812.3</summary>"


def delegate(task: ToolCall, reader: Agent, mesh: Mesh) -> Agent:
    return Agent(AgentConfiguration("lead", "Extract the figures.", delegations=["reader"]),
                 PlannedCalls([task]), mesh, delegates={"reader": reader})


# --8<-- [start:delegate]
mesh = Mesh()
reader = Agent(AgentConfiguration("reader", "Read the report."), TextModel(ANSWER, key="example-small"), mesh)
task = ToolCall("delegate_to_agent", {"agentName": "reader", "task": "Find FY2024 revenue in the annual report."})
thread = Thread("Acme/_Thread/t1")
run = delegate(task, reader, mesh).start(thread, "What was revenue?")
sub = run.delegations[0]
print(sub.thread.path, [m.text for m in sub.thread.messages][0])  # the sub-thread's one message: the task
#> Acme/_Thread/t1/response-1/reader-1 Find FY2024 revenue in the annual report.
print(run.turns[0].results[0].text)  # what the parent's call answers: the sub-round's <summary> block
#> revenue FY2024 4812.3
# --8<-- [end:delegate]

# verifies: agent.delegation-gets-task-only
assert [m.role for m in sub.thread.messages] == ["user", "assistant"] and sub.turns[0].context.messages > 0
# verifies: agent.delegation-gets-task-only
assert "What was revenue?" not in [m.text for m in sub.thread.messages] and sub.model == "example-small"
# verifies: agent.delegation-gets-task-only
assert sub.agent == "reader" and "Read the report." in reader.config.round_instructions()
# A task that names another loaded agent runs that agent instead (SelectAgent checks the message first, DL7).
routed_mesh = Mesh()
checker = Agent(AgentConfiguration("checker", "Check the figures."), TextModel("checked"), routed_mesh)
routed = {text: Agent(AgentConfiguration("lead", delegations=["reader", "checker"]), PlannedCalls([ToolCall(
    "delegate_to_agent", {"agentName": "reader", "task": text})]), routed_mesh,
    delegates={"reader": reader, "checker": checker}).start(Thread("Acme/_Thread/t7"), "Go.").delegations[0]
          for text in ("Ask @agent/Checker to verify.", "See @Acme/Agent/checker first.", "Mail a@b.c the total.")}
# verifies: agent.delegation-gets-task-only
assert [sub.agent for sub in routed.values()] == ["checker", "checker", "reader"] and [
    sub.summary for sub in routed.values()][:2] == ["checked"] * 2
# verifies: agent.delegation-gets-task-only
assert named_agent('Use @("Acme/Agent/Reader") and @checker', ["reader", "checker"]) == "reader" and named_agent(
    "@agent/nobody, then @model/checker", ["checker"]) is None
# verifies: agent.parent-usage-excludes-delegations
assert recorded_usage(mesh, thread.path, run.model) == run.usage and run.billed_usage() == run.usage + sub.usage
# verifies: agent.parent-usage-excludes-delegations
assert recorded_usage(mesh, sub.thread.path, "example-small") == sub.usage != TokenUsage()


def parent_reads(model, interrupt=None) -> str:
    """What the parent's delegate_to_agent call answers when the sub-round runs ``model``."""
    fresh = Mesh()
    helper = Agent(AgentConfiguration("reader", plugins=["Mesh"]), model, fresh, delegated_interrupt=interrupt)
    return delegate(task, helper, fresh).start(Thread("Acme/_Thread/t2"), "Go.").turns[0].results[0].text


bad_create = ToolCall("Create", {"node": {"id": "x"}})  # an object where a string of JSON is due: it throws
lookup = ToolCall("Get", {"path": "Acme"})
outcomes = [
    ("completed, with a `<summary>` block", TextModel(ANSWER), None),
    ("completed, without one", TextModel("FY2024 revenue is 4,812.3."), None),
    ("completed, with no text and no tool call", TextModel(""), None),
    ("cancelled before it wrote any text (a Stop, or the parent's heartbeat)", PlannedCalls([lookup]),
     Interrupt(1, kind="cancelled")),
    ("ended in error (here: its fourth failing response)", PlannedCalls([bad_create] * 4), None),
    ("no terminal status within 10 minutes of its start (it died, or waits)", PlannedCalls([lookup]),
     Interrupt(1, kind="died")),
]
read = {outcome: parent_reads(model, interrupt) for outcome, model, interrupt in outcomes}
capture("agent_delegation_outcomes.md", "| the sub-round | the parent's call answers |\n| --- | --- |\n" + "".join(
    f"| {outcome} | `{text}` |\n" for outcome, text in read.items()))

answers = list(read.values())
# verifies: agent.delegation-answers-summary
assert answers[:3] == ["revenue FY2024 4812.3", "FY2024 revenue is 4,812.3.", NO_RESPONSE]
# verifies: agent.delegation-answers-summary
assert answers[3] == CANCELLED_SUMMARY and answers[4].endswith(
    "*Error: The JSON value could not be converted to System.String.*")
# verifies: agent.delegation-answers-summary
assert answers[5] == DELEGATION_TIMED_OUT.format(agent="reader") and DELEGATION_WAIT_SECONDS == 10 * 60

# --8<-- [start:unresolved]
for names in (["writer"], ["writer", "reader", "checker"]):  # writer resolves nowhere; checker is an agent too
    fresh = Mesh()
    agents = {name: Agent(AgentConfiguration(name), TextModel(f"{name}'s answer"), fresh)
              for name in ("reader", "checker")}
    calls = [ToolCall("delegate_to_agent", {"agentName": name, "task": "Check the totals."}) for name in names]
    lead = Agent(AgentConfiguration("lead", delegations=["reader", "checker"]),
                 PlannedCalls(calls, batch_size=None), fresh, delegates=agents)
    run = lead.start(Thread("Acme/_Thread/t3"), "Check it.")
    print(run.status, [result.text for result in run.turns[0].results], len(run.delegations))
#> waiting [''] 0
#> completed ["reader's answer", "reader's answer", "reader's answer"] 2
# --8<-- [end:unresolved]

# verifies: agent.unresolved-delegation-waits
assert run.delegations[1].summary == "checker's answer" and run.turns[0].results[2].text == "reader's answer"
waiting = Agent(AgentConfiguration("lead", delegations=["reader"]), PlannedCalls([ToolCall(
    "delegate_to_agent", {"agentName": "writer", "task": "t"})]), mesh, delegates={"reader": reader})
stuck = waiting.start(Thread("Acme/_Thread/t4"), "Go.")
# verifies: agent.unresolved-delegation-waits
assert stuck.status == "waiting" and [m.role for m in stuck.thread.messages] == ["user"] and not stuck.recorded
deep_mesh = Mesh()
deeper = ToolCall("delegate_to_agent", {"agentName": "digger", "task": "Dig deeper."})
digger = Agent(AgentConfiguration("digger", delegations=["digger"]), PlannedCalls([deeper]), deep_mesh,
               delegates={"digger": Agent(AgentConfiguration("digger"), TextModel("x"), deep_mesh)})
digger.delegates["digger"] = digger  # it delegates to itself: depth 1, then depth 2, which gets no answer
top = digger.start(Thread("Acme/_Thread/t6"), "Dig.")
middle, deepest = top.delegations[0], top.delegations[0].delegations[0]
# verifies: agent.unresolved-delegation-waits
assert deepest.status == "waiting" and deepest.delegations == [] and middle.turns[0].results[0].text == (
    DELEGATION_TIMED_OUT.format(agent="digger"))
# verifies: agent.unresolved-delegation-waits
assert deepest.thread.path == "Acme/_Thread/t6/response-1/digger-1/response-2/digger-1"  # depth two
# verifies: agent.unresolved-delegation-waits
assert middle.status == top.status == "completed"  # the timed-out call is an answer: both rounds go on and end
# verifies: agent.one-response-one-delegation
assert [sub.agent for sub in run.delegations] == ["reader", "checker"] and {
    r.text for r in run.turns[0].results} == {run.delegations[0].summary}

# --8<-- [start:targets]
hierarchy = [AgentConfiguration("lead", delegations=["writer"]), AgentConfiguration("writer", delegations=["reader"]),
             AgentConfiguration("reader"), AgentConfiguration("self", delegations=["self"])]
print(delegation_targets(hierarchy))  # the batch build: a fresh hub's unselected round, an @agent pick, a handoff
#> {'reader': (), 'lead': ('reader',), 'writer': ('reader', 'lead'), 'self': ('reader', 'lead', 'writer', 'self')}
print(delegation_targets(hierarchy, by_name=True)["reader"])  # an agent chosen by name: rebuilt with every agent
#> ('reader', 'lead', 'writer', 'self')
# --8<-- [end:targets]

targets = delegation_targets(hierarchy)
loaded = [c.id for c in hierarchy]
# verifies: agent.delegation-resolves-earlier-agents
assert "writer" not in targets["lead"] and sorted(targets["self"]) == sorted(loaded) and targets["reader"] == ()
# verifies: agent.delegation-resolves-earlier-agents
assert delegation_targets([AgentConfiguration("main", is_default=True), AgentConfiguration("a")])["main"] == ("a",)
mutual = delegation_targets([AgentConfiguration("p", delegations=["q"]), AgentConfiguration("q", delegations=["p"]),
                             AgentConfiguration("r", delegations=["p"]), AgentConfiguration("main", is_default=True)])
# verifies: agent.delegation-resolves-earlier-agents
assert mutual["p"] == mutual["q"] == ("p", "q", "r", "main") and mutual["r"] == ("p", "q") and mutual["main"] == ("p", "q", "r")
# verifies: agent.delegation-resolves-earlier-agents
assert [round_build(None, "Go.", loaded), round_build("lead", "Ask @agent/Writer.", loaded),
        round_build("lead", "Go.", loaded, handoff=True)] == [BATCH_BUILD] * 3
by_name = delegation_targets(hierarchy, by_name=True)
# verifies: agent.named-round-rebuilds-agent
assert all(by_name[c.id] == targets["self"] and c.id in by_name[c.id] for c in hierarchy) and "writer" in by_name["lead"]
# verifies: agent.named-round-rebuilds-agent
assert [round_build(name, "Check the totals.", loaded) for name in ("lead", "Acme/Agent/reader")] == [BY_NAME] * 2


def seconds(limit) -> str:
    if limit is None:
        return "none"
    return f"{limit // 60} min" if limit >= 60 and limit % 60 == 0 and limit > 60 else f"{limit} s"


capture("agent_time_limits.md", "| what is timed | limit | when it runs out | modelled | source |\n"
        "| --- | --- | --- | --- | --- |\n" + "".join(
            f"| {t.scope} | {seconds(t.seconds)} | {t.outcome} | {t.modelled} | {t.facts} |\n" for t in TIME_LIMITS))
by_fact = {t.facts: t.seconds for t in TIME_LIMITS}
unified, area, node_path = TIME_LIMITS[1:4]
rounds = [t for t in TIME_LIMITS if "RL1" in t.facts.split()]
# verifies: agent.time-limits
assert [t.seconds for t in rounds] == [30 * 60, None] and TIME_LIMITS[-1].seconds is None and (
    "not cut" in rounds[0].scope and "DL3" in rounds[0].facts and "persistent-agent" in rounds[1].outcome)
# verifies: agent.time-limits
assert by_fact["MP3 FI3"] == 30 and by_fact["S2 S10"] == 10 and by_fact["DL2"] == DELEGATION_WAIT_SECONDS
# verifies: agent.time-limits
assert [t.seconds for t in TIME_LIMITS if t.scope.startswith(("a Claude Code", "a Copilot"))] == [120, 30] and [
    t.seconds for t in TIME_LIMITS if t.scope.startswith("the agent's initialisation")] == [60]
# verifies: agent.time-limits
assert "unified path" in unified.scope and "`area/`" not in unified.scope and "node read at the whole path" in (
    unified.outcome) and node_path.outcome.endswith("`Not found: {path}`") and "5 s" in node_path.outcome and (
    {t.facts for t in TIME_LIMITS} >= {"RL2", "RL3", "RL4", "RL5", "S10"})
# verifies: agent.time-limits
assert "/area/" in area.scope and area.seconds == 30 and area.modelled == "no" and "Tool 'Get' timed out" in (
    area.outcome)
# verifies: agent.subthread-heartbeat
assert [t.seconds for t in TIME_LIMITS if t.facts == "DL5"] == [60, 30] and "15 s" in next(
    t.scope for t in TIME_LIMITS if t.facts == "DL5" and t.seconds == 30)

# A harness round's client reports no usage (W8): agentkit's model that never reports stands for it.
harness_mesh = Mesh()
harness = Agent(AgentConfiguration("coder"), PlannedCalls([lookup], reports_usage=False), harness_mesh)
harness_run = harness.start(Thread("Acme/_Thread/t5"), "Fix it.")
# verifies: agent.harness-records-nothing
assert harness_run.status == "completed" and not harness_run.recorded and harness_run.usage != TokenUsage()
# verifies: agent.harness-records-nothing
assert recorded_usage(harness_mesh, "Acme/_Thread/t5", harness_run.model) == TokenUsage()
usage_wait = next(t for t in TIME_LIMITS if t.facts == "W7")
# verifies: agent.usage-write-dropped
assert usage_wait.seconds == 15 and "never added" in usage_wait.outcome and "still lands later" in usage_wait.outcome
# verifies: agent.usage-write-dropped
assert "only logged" in usage_wait.outcome and "does not wait" in usage_wait.scope
