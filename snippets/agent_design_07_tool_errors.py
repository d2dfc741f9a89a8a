"""Tool errors and limits: a call that throws, the consecutive-error limit, concurrent calls, the per-call timeout."""

import itertools
import json

import agentkit
import agentkit._plugins as plugins
from agentkit import Agent, Mesh, Thread, ToolCall
from agentkit._config import NO_NEW_MESSAGES
from agentkit._invocation import ALLOW_CONCURRENT_INVOCATION, MAXIMUM_CONSECUTIVE_ERRORS
from agentkit._messages import Reply
from agentkit._plugins import AGENT_TOOL_TIMED_OUT, AGENT_TOOL_TIMEOUT_SECONDS, FUNCTION_FAILED
from agentkit._runtime import DELEGATION_TIMED_OUT, DELEGATION_WAIT_SECONDS
from agentkit.guide import TextModel
from claimcheck import capture
from claimcheck import stated
from claimcheck.agentview import AgentView

# Every configuration built below is recorded for the page's "Agent node" listing (claimcheck/agentview.py).
VIEW = AgentView(__file__)
AgentConfiguration = VIEW.configurations(agentkit.AgentConfiguration)


class Resends:
    """A model that sends the same response whenever it is offered tools, whatever the answers say."""

    def __init__(self, *calls):
        self.calls, self.contexts, self.key = calls, [], "example-large"

    def respond(self, context):
        self.contexts.append(context)
        return Reply(tool_calls=self.calls) if context.tools else Reply("Stopped.")


class Corrects(Resends):
    """A model that sends `wrong`, then `right` once an answer reads 'Error: Function failed.', then answers."""

    def __init__(self, wrong, right):
        super().__init__(wrong)
        self.right = right

    def respond(self, context):
        self.contexts.append(context)
        answers = [result.text for result in context.tool_results()]
        if not answers:
            return Reply(tool_calls=self.calls)
        if answers[-1] == FUNCTION_FAILED:
            return Reply(tool_calls=(self.right,))
        return Reply("Created Acme.")


class Replies:
    """A model that gives its replies in order, then answers 'Done.'."""

    def __init__(self, replies):
        self.replies, self.key = list(replies), "example-large"

    def respond(self, context):
        return self.replies.pop(0) if self.replies else Reply("Done.")


def create(key):
    return ToolCall("Create", {"node": json.dumps({"id": key, "name": key, "nodeType": "Company"})})


def fresh_mesh():
    return Mesh(node_types={"Company"})


MISSING = ToolCall("Create", {"nodes": '{"id": "Acme", "name": "Acme", "nodeType": "Company"}'})  # no `node`
OBJECT = ToolCall("Create", {"node": {"id": "Acme", "name": "Acme", "nodeType": "Company"}})  # not a string

# --8<-- [start:abort]
WRITER = AgentConfiguration("writer", "Create the company the user names.", plugins=["Mesh:Get,Create"])
# The model sends `nodes` (Update's parameter) to Create, which declares `node`, and resends it.
mesh = fresh_mesh()
model = Resends(MISSING)
thread = Thread("Acme/_Thread/t1")
run = Agent(WRITER, model, mesh).start(thread, "Create the company Acme.")
print(run.status, len(model.contexts))
#> error 4
# The fourth model call read three failed answers; nothing reads the fourth's.
print([result.text for result in model.contexts[-1].tool_results()])
#> ['Error: Function failed.', 'Error: Function failed.', 'Error: Function failed.']
print(thread.messages[-1].text)  # the stored answer, which the next round reads
#> *Error: The arguments dictionary is missing a value for the required parameter 'node'. (Parameter 'arguments')*
# --8<-- [end:abort]

# verifies: agent.fourth-failing-response-aborts
assert MAXIMUM_CONSECUTIVE_ERRORS == 3 and run.status == "error" and len(run.turns) == len(model.contexts) == 4
# verifies: agent.fourth-failing-response-aborts
assert [r.text for turn in run.turns for r in turn.results] == [FUNCTION_FAILED] * 4 and not mesh.exists("Acme")
# verifies: agent.change-the-failing-call
assert run.status == "error" and len(run.turns) == 4
object_run = Agent(WRITER, Resends(OBJECT), fresh_mesh()).start(Thread("Acme/_Thread/t1"), "Create Acme.")
# verifies: agent.fourth-failing-response-aborts
assert object_run.status == "error" and len(object_run.turns) == 4
# verifies: agent.aborted-round-stores-error
assert run.recorded and run.answer == thread.messages[-1].text == (
    "*Error: The arguments dictionary is missing a value for the required parameter 'node'. (Parameter 'arguments')*")
said = Replies([Reply("Creating Acme. ", (MISSING,))] * 4)
said_thread = Thread("Acme/_Thread/t9")
Agent(WRITER, said, fresh_mesh()).start(said_thread, "Create Acme.")
# verifies: agent.aborted-round-stores-error
assert said_thread.messages[-1].text.startswith("Creating Acme. Creating Acme. Creating Acme. Creating Acme. \n\n*Error: ")

# --8<-- [start:next-round]
reader = TextModel("Create failed.")
reader.contexts = []
reader.respond = lambda context, respond=reader.respond: reader.contexts.append(context) or respond(context)
Agent(WRITER, reader, mesh).start(thread, "What happened?")
last = reader.contexts[0].messages()[-2]  # the new message comes after it
print(last.role, last.text)
#> assistant *Error: The arguments dictionary is missing a value for the required parameter 'node'. (Parameter 'arguments')*
# --8<-- [end:next-round]

# verifies: agent.aborted-round-stores-error
assert reader.contexts[0].messages()[-2].text == run.answer and reader.contexts[0].messages()[-2].role == "assistant"

# --8<-- [start:correct]
# The same first call, but the model corrects the argument after 'Error: Function failed.'.
run = Agent(WRITER, Corrects(MISSING, create("Acme")), fresh_mesh()).start(
    Thread("Acme/_Thread/t2"), "Create the company Acme.")
print(run.status, run.answer)
#> completed Created Acme.
# --8<-- [end:correct]

# verifies: agent.change-the-failing-call
assert run.status == "completed" and run.answer == "Created Acme." and len(run.turns) == 3

# --8<-- [start:reset]
# Three failing responses, one that succeeds, three more: the count starts again, the round completes.
failing = [Reply(tool_calls=(MISSING,))] * 3
run = Agent(WRITER, Replies(failing + [Reply(tool_calls=(create("Acme"),))] + failing),
            fresh_mesh()).start(Thread("Acme/_Thread/t3"), "Create Acme.")
print(run.status, len(run.turns))
#> completed 8
# --8<-- [end:reset]

# verifies: agent.fourth-failing-response-aborts
assert run.status == "completed" and len(run.turns) == 8
again = Agent(WRITER, Replies(failing + [Reply(tool_calls=(create("Acme"),))] + failing * 2),
              fresh_mesh()).start(Thread("Acme/_Thread/t3"), "Create Acme.")
# verifies: agent.fourth-failing-response-aborts
assert again.status == "error" and len(again.turns) == 3 + 1 + 4  # the count was 0 after the success

# The runtime's own tools bind their arguments the same way, under the source's names: a call missing
# `task` or `planContent` (sending store_plan's old `plan`) throws in the binder and counts.
helper = Agent(AgentConfiguration("helper"), TextModel("Acme is a company."), fresh_mesh())
LEAD = AgentConfiguration("lead", delegations=["helper"])
for call, missing in ((ToolCall("delegate_to_agent", {"agentName": "helper"}), "task"),
                      (ToolCall("store_plan", {"plan": "1. Read."}), "planContent"),
                      (ToolCall("load_skill", {"name": "facts"}), "skillPath")):
    builtin = Agent(LEAD, Resends(call), fresh_mesh(), delegates={"helper": helper}).start(
        Thread("Acme/_Thread/t11"), "Go.")
    # verifies: agent.fourth-failing-response-aborts
    assert builtin.status == "error" and [r.text for t in builtin.turns for r in t.results] == [FUNCTION_FAILED] * 4
    # verifies: agent.fourth-failing-response-aborts
    assert builtin.answer == ("*Error: The arguments dictionary is missing a value for the required parameter "
                              f"'{missing}'. (Parameter 'arguments')*")
# verifies: agent.fourth-failing-response-aborts
assert stated.numbers("agent.fourth-failing-response-aborts") == [
    MAXIMUM_CONSECUTIVE_ERRORS, MAXIMUM_CONSECUTIVE_ERRORS + 1, 0]


class HungReads(Mesh):
    """A host whose reads throw a TimeoutException (Python's TimeoutError) inside the tool itself."""

    def fetch(self, path):
        raise TimeoutError("The operation has timed out.")


# The 30 s wrapper catches a TimeoutException the tool throws, and answers the timed-out text: it never counts.
hung = Agent(WRITER, Resends(ToolCall("Get", {"path": "Acme"})), HungReads(node_types={"Company"})).start(
    Thread("Acme/_Thread/t10"), "Go.")
# verifies: agent.fourth-failing-response-aborts
assert hung.status == "completed" and len(hung.turns) == 41 and {r.text for t in hung.turns for r in t.results} == {
    AGENT_TOOL_TIMED_OUT.format(name="Get", seconds=AGENT_TOOL_TIMEOUT_SECONDS)} == {
    "Tool 'Get' timed out after 30s. Add [ToolTimeout(N)] to allow longer."}

# --8<-- [start:not-counted]
# Answers that are text, not exceptions: a tool not offered, an operation's own refusal.
for call in (ToolCall("Delete", {"paths": '["Acme"]'}), ToolCall("Get", {"path": "Nowhere"})):
    run = Agent(WRITER, Resends(call), fresh_mesh()).start(Thread("Acme/_Thread/t4"), "Go.")
    print(run.status, len(run.turns), run.turns[0].results[0].text)
#> completed 41 Error: Requested function "Delete" not found.
#> completed 41 Not found: Nowhere
# --8<-- [end:not-counted]

# verifies: agent.only-thrown-calls-count
assert run.status == "completed" and len(run.turns) == 41  # 40 tool batches, then the tool-free call (A7)
# Calls that would throw, each taking 31 s on this clock: the 30 s timer answers first, with text.
ticks = itertools.count(0, AGENT_TOOL_TIMEOUT_SECONDS + 1)
clock, plugins._clock = plugins._clock, lambda: next(ticks)
try:
    slow = Agent(WRITER, Resends(MISSING), fresh_mesh()).start(Thread("Acme/_Thread/t5"), "Go.")
finally:
    plugins._clock = clock
# verifies: agent.only-thrown-calls-count
assert slow.status == "completed" and len(slow.turns) == 41 and slow.turns[0].results[0].text == (
    "Tool 'Create' timed out after 30s. Add [ToolTimeout(N)] to allow longer.")

# --8<-- [start:concurrent]
# Each response: a call that throws, a Create that works, another that throws.
mesh = fresh_mesh()
calls = [Reply(tool_calls=(MISSING, create(f"C{n}"), OBJECT)) for n in range(1, 5)]
run = Agent(WRITER, Replies(calls), mesh).start(Thread("Acme/_Thread/t6"), "Go.")
print([result.text for result in run.turns[0].results])
#> ['Error: Function failed.', 'Created: C1', 'Error: Function failed.']
print(run.status, [mesh.exists(f"C{n}") for n in range(1, 5)])
#> error [True, True, True, True]
# --8<-- [end:concurrent]

# verifies: agent.concurrent-calls-call-order
assert ALLOW_CONCURRENT_INVOCATION and [r.name for r in run.turns[0].results] == ["Create"] * 3
# verifies: agent.concurrent-calls-call-order
assert run.status == "error" and len(run.turns) == 4 and mesh.exists("C4")  # the fourth response ran whole
# verifies: agent.concurrent-calls-call-order
assert run.answer.startswith("*Error: One or more errors occurred. (The arguments dictionary is missing")

# The per-call limit: 30 s on every agent tool but delegate_to_agent (MP3); the library sets none.
lead_mesh = fresh_mesh()
helper = Agent(AgentConfiguration("helper"), TextModel("Acme is a company."), lead_mesh)
task = ToolCall("delegate_to_agent", {"agentName": "helper", "task": "Describe Acme."})
ticks = itertools.count(0, AGENT_TOOL_TIMEOUT_SECONDS + 1)
clock, plugins._clock = plugins._clock, lambda: next(ticks)
try:
    lead = Agent(AgentConfiguration("lead", delegations=["helper"]), Replies([Reply(tool_calls=(task,))]),
                 lead_mesh, delegates={"helper": helper}).start(Thread("Acme/_Thread/t7"), "Go.")
    timed = Agent(WRITER, Replies([Reply(tool_calls=(create("Acme"), ToolCall("check_inbox", {})))]),
                  fresh_mesh()).start(Thread("Acme/_Thread/t8"), "Go.")
finally:
    plugins._clock = clock
# verifies: agent.call-time-limit
assert lead.turns[0].results[0].text == "Acme is a company." and AGENT_TOOL_TIMEOUT_SECONDS == 30
# verifies: agent.call-time-limit
assert timed.turns[0].results[0].text.startswith("Tool 'Create' timed out after 30s.")
# verifies: agent.call-time-limit
assert timed.turns[0].results[1].text == NO_NEW_MESSAGES
# delegate_to_agent waits 10 minutes for its sub-thread, then answers an error text; the sub-round ran on.
ticks = itertools.count(0, DELEGATION_WAIT_SECONDS + 1)
clock, plugins._clock = plugins._clock, lambda: next(ticks)
try:
    late = Agent(AgentConfiguration("lead", delegations=["helper"]), Replies([Reply(tool_calls=(task,))]),
                 lead_mesh, delegates={"helper": helper}).start(Thread("Acme/_Thread/t12"), "Go.")
finally:
    plugins._clock = clock
# verifies: agent.call-time-limit
assert late.turns[0].results[0].text == DELEGATION_TIMED_OUT.format(agent="helper") == (
    "Error: delegation to helper failed — timed out waiting for the delegated agent to finish.")
# verifies: agent.call-time-limit
assert late.delegations[0].status == "completed" and late.status == "completed"
# verifies: agent.call-time-limit
assert stated.numbers("agent.call-time-limit") == [AGENT_TOOL_TIMEOUT_SECONDS, DELEGATION_WAIT_SECONDS // 60]

capture("agent_node_tool_errors.md", VIEW.agent_nodes("abort"))
