"""Round semantics: what survives a round boundary, the history budget, and when usage is recorded."""

import inspect

import agentkit
from agentkit import (
    HISTORY_BUDGET_CHARS, Agent, Mesh, Message, Reply, Thread, TokenUsage, ToolResult, rebuild_history, record_usage,
    trim_history, usage_report,
)
from agentkit import ToolCall
from agentkit._config import BUDGET_SEPARATOR, BUDGET_TEXT, DELEGATION_GUIDANCE, THREAD_GUIDANCE
from agentkit._runtime import split_summary
from agentkit.guide import PlannedCalls, ProcedureModel, TextModel
from agentkit.guide._procedures import APPROVE, PROTOCOL_INSTRUCTIONS, TASK, THREAD, protocol
from agentkit.guide._scenarios import interrupted, report_tokens, workspace
from claimcheck import capture, stated
from claimcheck.agentview import AgentView

# Every configuration built below is recorded for the page's "Agent node" listing (claimcheck/agentview.py).
VIEW = AgentView(__file__)
AgentConfiguration = VIEW.configurations(agentkit.AgentConfiguration)

mesh = workspace()  # the report uploaded to Meridian/content; income and balance dimensions already there
protocol_model = ProcedureModel(protocol)
seen = []  # every context the model is shown


class Seen:
    """Wraps a scripted model and keeps each context it is handed, in `contexts`."""

    def __init__(self, model, contexts):
        self.model, self.key, self.contexts = model, model.key, contexts

    def respond(self, context):
        self.contexts.append(context)
        return self.model.respond(context)


class Recorder(Seen):
    """The protocol's scripted model, keeping each context in `seen`."""

    def __init__(self):
        super().__init__(protocol_model, seen)


# --8<-- [start:two-phase-run]
config = AgentConfiguration(
    "extractor", PROTOCOL_INSTRUCTIONS,
    plugins=["Mesh:Get,Search,Create,Update,Patch"],  # no ContentCollection: no chunk tools
)
agent = Agent(config, Recorder(), mesh)
thread = Thread("Meridian/_Thread/extract-2024")

# Phase 1: Search, Get the file at the path the row names, answer with the worksheet.
reading = agent.start(thread, TASK)
print(reading.answer.splitlines()[0])
#> # Worksheet: Meridian/content/Annual Report 2024.pdf -> Meridian

# Phase 2: a new round, after a person has read the worksheet.
writing = agent.start(thread, APPROVE)
print(writing.answer.splitlines()[0])
#> Written from the worksheet; verification: every create answered, and the read-back found its nodes.
# --8<-- [end:two-phase-run]
capture("agent_node_two_phase.md", VIEW.agent_nodes("two-phase-run"))
capture("agent_system_message_two_phase.md", VIEW.system_messages("two-phase-run"))

# --8<-- [start:boundary]
last_read, first_write = seen[len(reading.turns) - 1], seen[len(reading.turns)]
# The last reading call holds three tool results, the report's full text among them.
print(len(last_read.tool_results()), reading.turns[-1].context.total)
#> 3 38474
print(len(first_write.tool_results()), writing.turns[0].context.total)
#> 0 3132
# What the first writing call is shown: the task, the worksheet, the approval.
print([(m.role, len(m.text)) for m in first_write.messages()])
#> [('user', 1442), ('assistant', 6703), ('user', 46)]
# --8<-- [end:boundary]

DOCUMENT = report_tokens()
# verifies: agent.boundary-keeps-texts-only
assert first_write.items == tuple(first_write.messages()) and [m.role for m in first_write.messages()] == [
    "user", "assistant", "user"]
# The system message every call is sent: the instructions, then the framework's guidance (T8).
# verifies: agent.system-message-instructions
assert first_write.instructions == config.round_instructions() == PROTOCOL_INSTRUCTIONS + THREAD_GUIDANCE
# verifies: agent.system-message-instructions
assert THREAD_GUIDANCE.index("**Reading prior thread messages:**") < THREAD_GUIDANCE.index(
    "**End every response with a <summary> block:**") and "nodeType:ThreadMessage" in THREAD_GUIDANCE
# With delegations and a cap: the instructions, the agents it may delegate to, the guidance, then the budget text.
sent = []
boxed_agent = Agent(agentkit.AgentConfiguration("boxed"), TextModel("Read."), Mesh())
capped = Agent(agentkit.AgentConfiguration("lead", "Read it.", delegations=["Acme/boxed"], max_tool_calls_per_round=3),
               Seen(TextModel("Done."), sent), Mesh(), delegates={"Acme/boxed": boxed_agent})
capped.start(Thread("Acme/_Thread/capped"), TASK)
# verifies: agent.system-message-instructions
assert sent[0].instructions == "Read it." + DELEGATION_GUIDANCE.replace("{agents}", "- boxed: ") + THREAD_GUIDANCE \
    + BUDGET_SEPARATOR + BUDGET_TEXT.format(n=3)
# verifies: agent.system-message-instructions
assert "**Available Agents for Delegation:**\n- boxed: \n" in sent[0].instructions
# agentkit appends nothing after the budget text: no chat context, and a round takes no attachments to append.
# verifies: agent.system-message-instructions
assert sent[0].instructions.endswith(BUDGET_TEXT.format(n=3)) and not {"attachments", "context"} & set(
    inspect.signature(agentkit.Agent.start).parameters)
# A delegation's own instructions, then the hierarchy's other agents with their descriptions (else a stand-in).
team = [agentkit.AgentConfiguration("lead", "Read it.", delegations=["Acme/boxed"],
                                    delegation_instructions={"Acme/boxed": "Reads one statement."}),
        agentkit.AgentConfiguration("boxed"), agentkit.AgentConfiguration("writer", description="Writes the nodes."),
        agentkit.AgentConfiguration("checker")]
# verifies: agent.system-message-instructions
assert team[0].round_instructions(team) == "Read it." + DELEGATION_GUIDANCE.replace("{agents}", (
    "- boxed: Reads one statement.\n- writer: Writes the nodes.\n- checker: Agent in hierarchy")) + THREAD_GUIDANCE
# verifies: agent.boundary-keeps-texts-only
assert first_write.messages()[1].text == reading.answer and THREAD == thread.path and TASK == thread.messages[0].text
# verifies: agent.document-dies-with-round
assert reading.turns[-1].context.total > DOCUMENT > max(turn.context.total for turn in writing.turns)
# A worksheet in the <summary> block the framework asks for is cut from the stored answer: the next round never sees it.
boxed_seen = []
boxed = Agent(AgentConfiguration("boxed"), Seen(TextModel("Read the report.\n<SUMMARY>rev FY2024 4812.3</Summary>\n"),
                                                 boxed_seen), Mesh())
boxed_thread = Thread("Acme/_Thread/boxed")
first = boxed.start(boxed_thread, TASK)
boxed.start(boxed_thread, APPROVE)
history = boxed_seen[-1]
# verifies: agent.summary-block-cut
assert (first.answer, first.summary, boxed_thread.messages[1].text) == ("Read the report.", "rev FY2024 4812.3", "Read the report.")
# verifies: agent.summary-block-cut
assert [m.text for m in history.messages()] == [TASK, "Read the report.", APPROVE]
# verifies: agent.summary-block-cut
assert split_summary("a <summary>one</summary> b <summary>two</summary>") == ("a  b <summary>two</summary>", "one") \
    and split_summary("no block ") == ("no block ", "no block ")  # only the first block; without one, the text
lead = Agent(AgentConfiguration("lead", delegations=["boxed"]),
             PlannedCalls([ToolCall("delegate_to_agent", {"agentName": "boxed", "task": "Read it."})]), Mesh(),
             delegates={"boxed": boxed})
delegated = lead.start(Thread("Acme/_Thread/lead"), TASK)
# verifies: agent.summary-block-cut
assert [result.text for turn in delegated.turns for result in turn.results] == ["rev FY2024 4812.3"]
plain = Agent(AgentConfiguration("plain"), TextModel("Revenue: 4,812.3"), Mesh())  # no block: the whole answer
lead = Agent(AgentConfiguration("lead", delegations=["plain"]),
             PlannedCalls([ToolCall("delegate_to_agent", {"agentName": "plain", "task": "Read it."})]), Mesh(),
             delegates={"plain": plain})
# verifies: agent.summary-block-cut
assert [r.text for turn in lead.start(Thread("Acme/_Thread/lead2"), TASK).turns for r in turn.results] == ["Revenue: 4,812.3"]
# verifies: agent.document-dies-with-round
assert "Meridian/content/Annual Report 2024.pdf" in first_write.messages()[1].text and not any(
    isinstance(item, ToolResult) for item in first_write.items)
# verifies: agent.document-billed-in-phase-one
assert all(turn.context.total < DOCUMENT / stated.numbers("agent.document-billed-in-phase-one")[-1] for turn in writing.turns)

# --8<-- [start:history-budget]
history = thread.history()  # the stored texts, as the next round would rebuild them
print(HISTORY_BUDGET_CHARS, sum(len(m.text) + 64 for m in history))
#> 64000 10016
# A worksheet over the budget: the system message is counted first, then the newest
# message is kept, and the walk back stops at the first message that does not fit.
oversized = [Message("system", config.instructions, 0), Message("user", TASK, 1),
             Message("assistant", "W" * 70_000, 2), Message("user", APPROVE, 3)]
print([m.role for m in trim_history(oversized)])
#> ['system', 'user']
# --8<-- [end:history-budget]

# verifies: agent.history-budget-order, agent.history-budget-drops-long-answer
assert [m.role for m in trim_history(oversized)] == ["system", "user"] and trim_history(history) == history
kept = trim_history(oversized, budget=len(config.instructions) + 64 + len(APPROVE) + 64)
# verifies: agent.history-budget, agent.history-budget-order
assert [m.timestamp for m in kept] == [0, 3] and trim_history(oversized, budget=10) == (oversized[0], oversized[3])
# verifies: agent.history-budget, agent.history-budget-order
assert HISTORY_BUDGET_CHARS == 64_000 and trim_history([Message("tool", "r", 1), Message("user", "u" * 100, 2)],
                                                       budget=200) == (Message("user", "u" * 100, 2),)
# verifies: agent.worksheet-fits-budget
assert sum(len(m.text) + 64 for m in history) * 6 < HISTORY_BUDGET_CHARS
stored = [Message("User", "read", 1), Message("agent", "worksheet", 2), Message("tool", "result text", 4)]
# verifies: agent.history-rebuild-rules
assert [(m.role, m.text) for m in rebuild_history(stored)] == [
    ("user", "read"), ("assistant", "worksheet"), ("assistant", "result text")]
# verifies: agent.history-rebuild-rules
assert rebuild_history(list(reversed(stored))) == rebuild_history(stored)  # by timestamp, not by storage order
# verifies: agent.history-lost-after-empty-message
assert rebuild_history(stored + [Message("assistant", "", 3)]) == ()  # one empty text: no history at all
# A round after a round that stored an empty answer is shown its new message only.
stalled = Thread("Meridian/_Thread/stalled")
stalled.append("user", TASK)
stalled.append("assistant", "")  # a round cancelled before it wrote any text
shown = []
Agent(AgentConfiguration("extractor", PROTOCOL_INSTRUCTIONS, plugins=["Mesh:Get"]),
      type("Shown", (), {"key": protocol_model.key, "respond": lambda self, c: shown.append(c) or Reply("ok")})(),
      mesh).start(stalled, APPROVE)
# verifies: agent.history-lost-after-empty-message
assert [(m.role, m.text) for m in shown[0].messages()] == [("user", APPROVE)]

# --8<-- [start:died-round]
# Scenario 3's writing round dies after 30 creates; a "continue" round resumes it.
killed = interrupted(30)
reading_run, died, resumed = killed.result.runs
# The round that died was billed and never recorded:
print(died.status, died.usage.total_input > 0, died.recorded)
#> died True False
report = usage_report(killed.result.mesh, resumed.thread)
print(report.usage == reading_run.usage + resumed.usage, report.is_floor)
#> True True
print(report.floor_reasons[0])
#> Meridian/_Thread/extract-2024: 1 round(s) recorded no end, so their usage was never written
# --8<-- [end:died-round]

# verifies: agent.died-round-records-nothing
assert died.status == "died" and not died.recorded and report.usage == reading_run.usage + resumed.usage
# verifies: agent.usage-report-flags-floor
assert report.is_floor and "recorded no end" in report.floor_reasons[0]
# verifies: agent.usage-report-flags-floor
assert killed.result.recorded_cost < killed.result.cost and report.is_floor
# verifies: agent.died-round-records-nothing
assert record_usage(Mesh(), "T", "example-large", TokenUsage()) is None  # an all-zero round writes nothing
# verifies: agent.died-round-records-nothing
assert reading_run.recorded and resumed.recorded and [r.status for r in killed.result.runs] == [
    "completed", "died", "completed"]
