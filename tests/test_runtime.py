"""Tests for agentkit/_runtime.py: rounds, billing, the budget, refusals, interrupts and delegation."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field

import pytest

from agentkit import ConfigurationError, Mesh, NodeNotFound
from agentkit._config import AgentConfiguration
from agentkit._cost import CallPattern, ModelPrice, TokenUsage
from agentkit._messages import Context, Message, Reply, ToolCall, ToolDefinition, ToolResult
from agentkit.guide._models import PlannedCalls, ScriptedModel, TextModel
from agentkit._plugins import Tool
from agentkit._runtime import Agent, Interrupt
from agentkit._threads import Thread
from agentkit._tokens import estimate_context, instructions_tokens, item_tokens, reply_tokens, tool_definition_tokens
from agentkit._usage import recorded_usage, usage_path
from agentkit._wire import DEFAULT_WIRE, WIRES

MODEL = "test-model"
PRICES = {MODEL: ModelPrice(MODEL, 3, 15, min_cacheable_tokens=600)}
LOOKUP = Tool("Lookup", "Test", "Lookup(id): one record.", lambda args: f"record {args['id']}: " + "v" * 60)
INSTRUCTIONS = "Read every record."


@dataclass
class Recording:
    """Wraps a model and keeps every context it was shown (the test's window into the runtime)."""

    inner: object
    contexts: list[Context] = field(default_factory=list)

    @property
    def key(self):
        return self.inner.key

    def respond(self, context: Context) -> Reply:
        self.contexts.append(context)
        return self.inner.respond(context)


def _lookups(n: int) -> list[ToolCall]:
    return [ToolCall("Lookup", {"id": f"item-{i:03d}"}) for i in range(n)]


def _make(model, *, caching=False, mesh=None, **config) -> Agent:
    config.setdefault("plugins", ["Test"])
    return Agent(AgentConfiguration("reader", INSTRUCTIONS, **config), model, mesh or Mesh(),
                 tools=[LOOKUP], prices=PRICES, caching=caching)


@pytest.mark.parametrize("n, batch, caching, document", list(itertools.product(
    (0, 1, 5, 30), (1, 4, None), (False, True), ("", "D" * 20_000))))
def test_billed_tokens_equal_the_closed_form(n, batch, caching, document):
    """The simulator bills exactly what CallPattern's closed form says, with and without caching and a document."""
    calls = _lookups(n)
    model = PlannedCalls(calls, answer="All records read.", batch_size=batch, key=MODEL, state_in_answer=False)
    agent = _make(model, caching=caching)
    message = "Read the records." + document
    run = agent.start(Thread("Acme/_Thread/t1"), message)

    stable = (instructions_tokens(agent.config.round_instructions())  # the system message, guidance included (T8)
              + sum(tool_definition_tokens(t) for t in agent.offered) + item_tokens(Message("user", "Read the records.")))
    document_tokens = item_tokens(Message("user", message)) - item_tokens(Message("user", "Read the records."))
    call = item_tokens(calls[0]) if calls else 0
    result = item_tokens(ToolResult("", "Lookup", LOOKUP.call(dict(calls[0].arguments)))) if calls else 0
    pattern = CallPattern(n, stable, call, result, answer_tokens=reply_tokens(Reply("All records read.")),
                          document_tokens=document_tokens, batch_size=batch)
    assert run.status == "completed"
    assert len(run.turns) == pattern.model_calls
    assert run.usage == pattern.usage(PRICES[MODEL] if caching else None)
    if batch == 1 and not caching:
        prefix, per_call = stable + document_tokens, call + result
        assert run.usage.input == (n + 1) * prefix + per_call * n * (n + 1) // 2
    if batch is None and n and not caching:
        assert run.usage.input == 2 * (stable + document_tokens) + n * (call + result)


def test_each_turn_records_the_estimate_of_the_context_it_showed():
    """The runtime's running sum of item tokens equals a fresh estimate of every context, over rounds and refusals."""
    stubborn = ToolCall("Create", {"node": "x"})
    model = Recording(PlannedCalls(_lookups(5)[:2] + [stubborn] + _lookups(5)[2:], batch_size=2, key=MODEL))
    agent = _make(model, max_tool_calls_per_round=3)
    thread = Thread("T")
    runs = [agent.start(thread, text) for text in ("Read them.", "continue", "continue")]
    turns = [turn for run in runs for turn in run.turns]
    assert len(turns) == len(model.contexts) > 3 and any(run.refused for run in runs)
    assert [turn.context for turn in turns] == [estimate_context(context) for context in model.contexts]


def test_the_model_is_shown_tool_definitions_not_functions():
    """What a model is offered is names and descriptions: it cannot run a tool behind the runtime's back."""
    model = Recording(TextModel("ok", key=MODEL))
    _make(model).start(Thread("T"), "hi")
    assert model.contexts[0].tools[0] == ToolDefinition("Lookup", "Lookup(id): one record.")
    assert not any(hasattr(tool, "call") for tool in model.contexts[0].tools)


def test_round_boundary_drops_tool_calls_and_results():
    """The next round's first context holds the stored texts only: no call or result of the round before."""
    model = Recording(PlannedCalls(_lookups(3), answer="Read 3 records.", key=MODEL, state_in_answer=False))
    agent = _make(model)
    thread = Thread("T")
    agent.start(thread, "Read them.")
    assert any(isinstance(i, ToolResult) for i in model.contexts[-1].items)
    agent.start(thread, "Thanks, now summarise.")
    first_of_round_two = model.contexts[4]
    assert [(m.role, m.text) for m in first_of_round_two.items] == [
        ("user", "Read them."), ("assistant", "Read 3 records."), ("user", "Thanks, now summarise.")]


def test_state_only_in_tool_results_is_lost_at_the_boundary():
    """A model that keeps its progress only in tool results starts over after a round boundary."""
    model = PlannedCalls(_lookups(5), key=MODEL, state_in_answer=False)
    agent = _make(model, max_tool_calls_per_round=2)
    thread = Thread("T")
    first = agent.start(thread, "Read them.")
    second = agent.start(thread, "continue")
    issued = [call.arguments["id"] for run in (first, second) for t in run.turns for call in t.reply.tool_calls]
    assert issued == ["item-000", "item-001", "item-000", "item-001"]


def test_state_written_into_the_answer_survives_the_boundary():
    """With its progress in the answer text, the model resumes where the budget stopped it."""
    agent = _make(PlannedCalls(_lookups(4), key=MODEL), max_tool_calls_per_round=3)
    thread = Thread("T")
    runs = [agent.start(thread, text) for text in ("Read them.", "continue", "continue")]
    issued = [call.arguments["id"] for run in runs for t in run.turns for call in t.reply.tool_calls]
    assert issued == ["item-000", "item-001", "item-002", "item-003"]
    assert "[progress: 4/4 calls done]" in runs[-1].answer


def test_cap_n_runs_n_tool_batches_then_one_call_without_tools():
    """A7: with a cap of 3 the model is called 4 times, the fourth with no tools; it answers in text."""
    model = Recording(PlannedCalls(_lookups(10), key=MODEL))
    run = _make(model, max_tool_calls_per_round=3).start(Thread("T"), "Read them.")
    assert [len(t.tools_offered) > 0 for t in run.turns] == [True, True, True, False]
    assert model.contexts[-1].tools == ()
    assert run.status == "completed" and run.tool_calls == 3
    assert run.answer.startswith("Stopped at the tool-call budget after 3 of 10 calls")
    assert "\n\n---\nTool-call budget: you may issue at most 3 tool calls" in model.contexts[0].instructions


def test_without_a_cap_the_default_is_forty_tool_batches():
    """A7: no cap (or a cap of 0) stops a one-call-a-turn model after 40 batches and a 41st call without tools."""
    for cap in (None, 0):
        run = _make(PlannedCalls(_lookups(100), key=MODEL), max_tool_calls_per_round=cap).start(Thread("T"), "Go.")
        assert (len(run.turns), run.tool_calls, run.turns[-1].tools_offered) == (41, 40, ())
        assert run.status == "completed" and "after 40 of 100 calls" in run.answer


def test_cap_does_not_limit_parallel_calls_in_one_iteration():
    """A7: one iteration may carry many calls: a cap of 2 still lets 10 batched calls run."""
    run = _make(PlannedCalls(_lookups(10), batch_size=None, key=MODEL), max_tool_calls_per_round=2) \
        .start(Thread("T"), "Read them.")
    assert len(run.turns) == 2 and run.tool_calls == 10 and not run.refused


def test_calls_asked_for_on_the_tool_less_last_iteration_are_not_run():
    """A7: a model that still asks for tools on iteration N gets nothing run; the round completes, nothing thrown."""
    ran = []
    tool = Tool("Lookup", "Test", "Lookup(id)", lambda args: ran.append(args["id"]) or "ok")
    stubborn = ScriptedModel(lambda context: Reply("still going", (ToolCall("Lookup", {"id": "x"}),)), key=MODEL)
    agent = Agent(AgentConfiguration("reader", plugins=["Test"], max_tool_calls_per_round=2), stubborn, Mesh(),
                  tools=[tool], prices=PRICES)
    run = agent.start(Thread("T"), "Read.")
    # verifies: agent.cap-last-call-not-run
    assert run.status == "completed" and run.answer == "still going"
    # verifies: agent.cap-last-call-not-run
    assert (len(run.turns), ran, run.turns[-1].results, run.refused) == (3, ["x", "x"], (), [])


def test_stripping_tools_loses_the_prompt_cache():
    """The last, tool-less iteration cannot read the cache the earlier calls wrote: it re-writes the prompt."""
    run = _make(PlannedCalls(_lookups(10), key=MODEL), caching=True, max_tool_calls_per_round=3) \
        .start(Thread("T"), "Read them." + "D" * 4_000)
    assert run.turns[1].usage.cache_read == run.turns[0].context.total
    last = run.turns[-1]
    assert last.usage.cache_read == 0 and last.usage.cache_write == last.context.total


def test_tool_not_offered_gets_the_framework_error_and_the_round_goes_on():
    """A5: Create under the read-only default gets 'Error: Requested function "Create" not found.'; nothing written."""
    mesh = Mesh()
    create = ToolCall("Create", {"node": {"id": "x", "name": "X", "nodeType": "Fact"}})
    model = PlannedCalls([create, ToolCall("Get", {"path": "x"})], answer="Tried.", key=MODEL)
    agent = Agent(AgentConfiguration("writer"), model, mesh, prices=PRICES)
    before = [node.path for node in mesh.nodes()]
    run = agent.start(Thread("T"), "Create x.")
    assert [call.name for call in run.refused] == ["Create"]
    result = run.turns[0].results[0]
    assert result.refused and result.text == 'Error: Requested function "Create" not found.'
    assert len(run.turns) == 3 and run.turns[1].results[0].name == "Get" and run.status == "completed"
    assert [node.path for node in mesh.nodes() if not node.namespace.endswith("_Usage")] == before
    with pytest.raises(NodeNotFound):
        mesh.get("x")


def test_round_start_cuts_the_history_once_with_the_instructions_counted_first():
    """T2: a long system message leaves room for the newest messages only; the cut happens once, at round start."""
    model = Recording(PlannedCalls(_lookups(3), key=MODEL, state_in_answer=False))
    thread = Thread("T")
    for role, text in (("user", "old task " + "o" * 20_000), ("assistant", "old answer " + "a" * 20_000)):
        thread.append(role, text)
    agent = Agent(AgentConfiguration("reader", "I" * 30_000, plugins=["Test"]), model, Mesh(), tools=[LOOKUP],
                  prices=PRICES)
    agent.start(thread, "new task")
    first, last = model.contexts[0], model.contexts[-1]
    assert [m.text[:10] for m in first.messages()] == ["old answer", "new task"]
    assert last.items[:2] == first.items and len(last.tool_results()) == 3  # within the round nothing is cut


def test_arguments_that_are_not_an_object_are_an_error_result():
    """A call whose arguments are not a JSON object gets an error text; the tool is not run."""
    run = _make(PlannedCalls([ToolCall("Lookup", ["item-000"])], key=MODEL)).start(Thread("T"), "Read.")
    assert run.status == "completed"
    assert run.turns[0].results[0].text == "Error: tool arguments must be a JSON object, got list"


def test_completed_round_records_its_usage_once():
    """When a round completes, its billed usage is added to the thread's _Usage satellite."""
    mesh = Mesh()
    agent = _make(PlannedCalls(_lookups(2), key=MODEL), mesh=mesh)
    thread = Thread("Acme/_Thread/t1")
    first = agent.start(thread, "Read.")
    assert first.recorded and recorded_usage(mesh, thread.path, MODEL) == first.usage
    second = agent.start(thread, "Again.")
    assert recorded_usage(mesh, thread.path, MODEL) == first.usage + second.usage
    assert usage_path(thread.path, MODEL) == "Acme/_Thread/t1/_Usage/test_model"


@pytest.mark.parametrize("kind", ["cancelled", "error"])
def test_cancelled_or_error_round_still_records_usage(kind):
    """A round that ends cancelled or in error is billed and recorded, and its end is stored."""
    mesh = Mesh()
    thread = Thread("T")
    run = _make(PlannedCalls(_lookups(5), key=MODEL), mesh=mesh).start(
        thread, "Read.", interrupt=Interrupt(2, kind))
    # verifies: agent.died-round-records-nothing
    assert run.status == kind and run.recorded and run.tool_calls == 2
    # verifies: agent.died-round-records-nothing
    assert recorded_usage(mesh, "T", MODEL) == run.usage
    assert thread.messages[-1].text.startswith(f"[round {kind}]")


def test_died_round_records_nothing_but_its_writes_stay():
    """A round whose process dies stores no answer and no usage, though it was billed and its calls ran."""
    mesh = Mesh()
    thread = Thread("T")
    seen = []
    counting = Tool("Lookup", "Test", "Lookup(id)", lambda args: seen.append(args["id"]) or "ok")
    agent = Agent(AgentConfiguration("reader", plugins=["Test"]), PlannedCalls(_lookups(5), key=MODEL), mesh,
                  tools=[counting], prices=PRICES)
    run = agent.start(thread, "Read.", interrupt=Interrupt(3))
    assert run.status == "died" and not run.recorded and run.usage.total_input > 0
    assert seen == ["item-000", "item-001", "item-002"]
    assert recorded_usage(mesh, "T", MODEL) == TokenUsage()
    assert [m.role for m in thread.messages] == ["user"]


def test_a_provider_that_never_reports_usage_records_nothing():
    """A completed round whose model reports no usage is billed but leaves no _Usage satellite."""
    mesh = Mesh()
    run = _make(TextModel("ok", key=MODEL, reports_usage=False), mesh=mesh).start(Thread("T"), "hi")
    assert run.status == "completed" and run.usage.total_input > 0 and not run.recorded
    assert not mesh.exists(usage_path("T", MODEL))


def test_interrupt_after_zero_calls_runs_none_and_counts_only_the_named_tool():
    """after_tool_calls=0 stops before the first matching call; other tools do not count."""
    ran = []
    tools = [Tool(name, "Test", name, lambda args, name=name: ran.append(name) or "ok") for name in ("Get", "Put")]
    calls = [ToolCall("Get", {}), ToolCall("Put", {}), ToolCall("Get", {}), ToolCall("Put", {})]
    agent = Agent(AgentConfiguration("w", plugins=["Test"]), PlannedCalls(calls, batch_size=None, key=MODEL),
                  Mesh(), tools=tools, prices=PRICES)
    assert agent.start(Thread("A"), "go", interrupt=Interrupt(0, tool="Put")).status == "died"
    assert ran == ["Get"]
    ran.clear()
    agent.start(Thread("B"), "go", interrupt=Interrupt(1, tool="Put"))
    assert ran == ["Get", "Put"]


def test_a_failing_tool_ends_the_round_in_error_and_surfaces():
    """A tool bug ends the round as 'error' (usage recorded), then the exception reaches the caller."""
    def broken(args):
        raise RuntimeError("disk on fire")
    mesh = Mesh()
    agent = Agent(AgentConfiguration("r", plugins=["Test"]), PlannedCalls(_lookups(1), key=MODEL), mesh,
                  tools=[Tool("Lookup", "Test", "", broken)], prices=PRICES)
    thread = Thread("T")
    with pytest.raises(RuntimeError, match="disk on fire"):
        agent.start(thread, "Read.")
    assert recorded_usage(mesh, "T", MODEL).total_input > 0
    assert thread.messages[-1].text == "[round error] RuntimeError: disk on fire"


def test_delegation_runs_in_a_subthread_with_its_own_usage():
    """The delegate answers in a sub-thread whose usage is recorded under the delegate's model."""
    mesh = Mesh()
    reader = Agent(AgentConfiguration("reader"), TextModel("Revenue 2024: 1,234", key="example-small"), mesh)
    lead_model = PlannedCalls([ToolCall("delegate_to_agent", {"agentName": "reader", "task": "Find revenue."})],
                              answer="Done.", key=MODEL)
    lead = Agent(AgentConfiguration("lead", delegations=["reader"]), lead_model, mesh,
                 delegates={"reader": reader}, prices=PRICES)
    thread = Thread("Acme/_Thread/t1")
    run = lead.start(thread, "What was revenue?")
    assert run.turns[0].results[0].text == "Revenue 2024: 1,234"
    sub = run.delegations[0]
    assert sub.thread.path == "Acme/_Thread/t1/response-1/reader-1" and sub.status == "completed"
    assert recorded_usage(mesh, sub.thread.path, "example-small") == sub.usage
    assert run.billed_usage() == run.usage + sub.usage


def test_pre_fix_delegation_records_subthread_usage_as_unknown():
    """T6: on request the sub-thread's usage lands under (unknown), as before fix 3a0c9a9a0 (#369)."""
    mesh = Mesh()
    reader = Agent(AgentConfiguration("reader"), TextModel("42", key="example-small"), mesh)
    lead = Agent(AgentConfiguration("lead", delegations=["reader"]),
                 PlannedCalls([ToolCall("delegate_to_agent", {"agentName": "reader", "task": "t"})], key=MODEL),
                 mesh, delegates={"reader": reader}, prices=PRICES, record_subthread_usage_as_unknown=True)
    run = lead.start(Thread("T"), "go")
    sub_path = run.delegations[0].thread.path
    assert recorded_usage(mesh, sub_path, None) == run.delegations[0].usage
    assert recorded_usage(mesh, sub_path, "example-small") == TokenUsage()
    assert mesh.exists(f"{sub_path}/_Usage/_unknown_")
    assert recorded_usage(mesh, "T", MODEL) == run.usage  # the parent is still attributed


def test_an_unresolved_delegation_never_answers():
    """DL3: an unknown agent name, alone in its response, gets no answer: the round waits and stores nothing."""
    mesh = Mesh()
    reader = Agent(AgentConfiguration("reader"), TextModel("x", key=MODEL), mesh, prices=PRICES)
    lead = Agent(AgentConfiguration("lead", delegations=["reader"]),
                 PlannedCalls([ToolCall("delegate_to_agent", {"agentName": "writer", "task": "t"})], key=MODEL),
                 mesh, delegates={"reader": reader}, prices=PRICES)
    thread = Thread("T")
    run = lead.start(thread, "go")
    assert run.status == "waiting" and run.delegations == [] and not run.recorded
    assert [m.role for m in thread.messages] == ["user"]
    assert recorded_usage(mesh, "T", MODEL) == TokenUsage()


def test_the_calls_of_one_response_take_its_first_dispatch():
    """DL4: an unknown name and two delegations in one response all answer the first sub-thread's summary."""
    mesh = Mesh()
    reader = Agent(AgentConfiguration("reader"), TextModel("from reader", key=MODEL), mesh, prices=PRICES)
    writer = Agent(AgentConfiguration("writer"), TextModel("from writer", key=MODEL), mesh, prices=PRICES)
    calls = [ToolCall("delegate_to_agent", {"agentName": name, "task": "t"}) for name in ("nobody", "reader", "writer")]
    lead = Agent(AgentConfiguration("lead", delegations=["reader", "writer"]),
                 PlannedCalls(calls, batch_size=None, key=MODEL), mesh,
                 delegates={"reader": reader, "writer": writer}, prices=PRICES)
    run = lead.start(Thread("T"), "go")
    assert [r.text for r in run.turns[0].results] == ["from reader"] * 3
    assert [(sub.agent, sub.status, sub.summary) for sub in run.delegations] == [
        ("reader", "completed", "from reader"), ("writer", "completed", "from writer")]
    assert run.status == "completed"


def test_delegation_answers_the_subthread_summary():
    """DL1, DL2: the sub-round gets the task alone (a blank one too); the parent reads its Summary per outcome."""
    from agentkit._runtime import CANCELLED_SUMMARY, NO_RESPONSE, Interrupt

    def answer(model, interrupt=None, task="Find revenue."):
        mesh = Mesh()
        sub_agent = Agent(AgentConfiguration("reader", "Read it."), model, mesh, prices=PRICES,
                          delegated_interrupt=interrupt)
        lead = Agent(AgentConfiguration("lead", delegations=["Acme/reader"]),
                     PlannedCalls([ToolCall("delegate_to_agent", {"agentName": "Acme/reader", "task": task})],
                                  key=MODEL), mesh, delegates={"Acme/reader": sub_agent}, prices=PRICES)
        thread = Thread("Acme/_Thread/t1")
        thread.append("user", "earlier question")
        thread.append("assistant", "earlier answer")
        run = lead.start(thread, "go")
        return run.turns[0].results[0].text, run.delegations[0]

    text, sub = answer(TextModel("Revenue 1,234.\n<summary>1,234</summary>", key=MODEL))
    assert text == "1,234" and [m.text for m in sub.thread.messages] == ["Find revenue.", "Revenue 1,234."]
    assert answer(TextModel("", key=MODEL))[0] == NO_RESPONSE
    assert answer(TextModel("x", key=MODEL), task=" ")[1].thread.messages[0].text == " "
    lookups = PlannedCalls([ToolCall("Get", {"path": "Acme"})], key=MODEL)
    assert answer(lookups, Interrupt(1, kind="cancelled"))[0] == CANCELLED_SUMMARY
    assert answer(lookups, Interrupt(1, kind="error"))[0] == "[round error]"
    assert answer(lookups, Interrupt(1, kind="died"))[0] == (
        "Error: delegation to Acme/reader failed — timed out waiting for the delegated agent to finish.")


def test_delegation_stops_at_depth_two():
    """A4, DL3: a self-delegation at depth 2 gets no answer, so the depth-1 call's wait runs out."""
    mesh = Mesh()
    call = ToolCall("delegate_to_agent", {"agentName": "lead", "task": "dig deeper"})
    stand_in = Agent(AgentConfiguration("lead"), TextModel("x", key=MODEL), mesh, prices=PRICES)
    lead = Agent(AgentConfiguration("lead", delegations=["lead"]), PlannedCalls([call], key=MODEL), mesh,
                 delegates={"lead": stand_in}, prices=PRICES)
    lead.delegates["lead"] = lead
    run = lead.start(Thread("Acme/_Thread/t1"), "go")
    middle = run.delegations[0]
    deepest = middle.delegations[0]
    assert deepest.thread.path == "Acme/_Thread/t1/response-1/lead-1/response-2/lead-1"
    assert deepest.status == "waiting" and deepest.delegations == []
    assert middle.turns[0].results[0].text == (
        "Error: delegation to lead failed — timed out waiting for the delegated agent to finish.")
    assert middle.status == run.status == "completed"


def test_store_plan_and_load_skill():
    """store_plan keeps the plan on the thread; load_skill returns a named skill or lists the known ones."""
    calls = [ToolCall("store_plan", {"planContent": "1. read 2. write"}), ToolCall("load_skill", {"skillPath": "facts"}),
             ToolCall("load_skill", {"skillPath": "charts"})]
    agent = Agent(AgentConfiguration("a", skills={"facts": "Use $type Fact."}),
                  PlannedCalls(calls, batch_size=None, key=MODEL), Mesh(), prices=PRICES)
    thread = Thread("T")
    results = agent.start(thread, "go").turns[0].results
    assert thread.plan == "1. read 2. write"
    assert [r.text for r in results] == ["Plan stored (16 characters).", "Use $type Fact.",
                                         "Error: no skill named 'charts'; available skills: facts"]


def test_builtin_tools_bind_their_arguments():
    """FI2: the runtime's own tools bind as AIFunctionFactory does; all but delegate_to_agent have the 30 s bound."""
    from agentkit import _plugins
    from agentkit._invocation import Raised

    mesh = Mesh()
    reader = Agent(AgentConfiguration("reader"), TextModel("x", key=MODEL), mesh, prices=PRICES)
    calls = [ToolCall("send_to_sub_thread", {"threadPath": "T/r/reader-1"}),
             ToolCall("delegate_to_agent", {"agentName": 5, "task": "t"}),
             ToolCall("delegate_to_agent", {"agentName": "reader", "task": "t", "context": "Acme", "extra": 1}),
             ToolCall("store_plan", {"planContent": "1. read"})]

    def first_round(slow: bool) -> list[ToolResult]:
        lead = Agent(AgentConfiguration("lead", delegations=["reader"]),
                     PlannedCalls(calls, batch_size=None, key=MODEL), mesh, delegates={"reader": reader}, prices=PRICES)
        ticks = itertools.count(0, _plugins.AGENT_TOOL_TIMEOUT_SECONDS + 1 if slow else 0)
        clock, _plugins._clock = _plugins._clock, lambda: next(ticks)
        try:
            return list(lead.start(Thread("T"), "go").turns[0].results)
        finally:
            _plugins._clock = clock

    results = first_round(slow=False)
    assert [r.text for r in results] == ["Error: Function failed.", "Error: Function failed.", "x",
                                         "Plan stored (7 characters)."]
    assert all(isinstance(r.text, Raised) for r in results[:2])
    assert results[0].text.message.endswith("required parameter 'message'. (Parameter 'arguments')")
    assert results[1].text.message == "The JSON value could not be converted to System.String."
    timed_out = "Tool '{}' timed out after 30s. Add [ToolTimeout(N)] to allow longer."
    assert [r.text for r in first_round(slow=True)] == [
        timed_out.format("send_to_sub_thread"), "Error: Function failed.", "x", timed_out.format("store_plan")]


def test_delegation_wait_is_ten_minutes_on_the_tools_clock():
    """delegate_to_agent answers the source's timed-out text when its sub-round took longer than 600 s."""
    from agentkit import _plugins
    from agentkit._runtime import DELEGATION_WAIT_SECONDS

    answers = {}
    for seconds in (DELEGATION_WAIT_SECONDS, DELEGATION_WAIT_SECONDS + 1):
        mesh = Mesh()
        reader = Agent(AgentConfiguration("reader"), TextModel("x", key=MODEL), mesh, prices=PRICES)
        call = ToolCall("delegate_to_agent", {"agentName": "reader", "task": "t"})
        lead = Agent(AgentConfiguration("lead", delegations=["reader"]), PlannedCalls([call], key=MODEL), mesh,
                     delegates={"reader": reader}, prices=PRICES)
        ticks = itertools.count(0, seconds)
        clock, _plugins._clock = _plugins._clock, lambda ticks=ticks: next(ticks)
        try:
            answers[seconds] = lead.start(Thread("T"), "go").turns[0].results[0].text
        finally:
            _plugins._clock = clock
    assert list(answers.values()) == [
        "x", "Error: delegation to reader failed — timed out waiting for the delegated agent to finish."]


def test_agent_wiring_errors_are_clear():
    """A delegation without its Agent, or caching for an unpriced model, is refused at construction."""
    with pytest.raises(ConfigurationError, match="delegates to 'reader' but no Agent was given"):
        Agent(AgentConfiguration("lead", delegations=["reader"]), TextModel("x"), Mesh())
    with pytest.raises(ConfigurationError, match="caching needs the price entry of model 'mystery'"):
        Agent(AgentConfiguration("a"), TextModel("x", key="mystery"), Mesh(), caching=True)


def test_empty_message_does_not_start_a_round():
    """A round needs a user message; an empty one is refused before anything is stored."""
    thread = Thread("T")
    with pytest.raises(ValueError, match="non-empty user message"):
        _make(TextModel("x", key=MODEL)).start(thread, "  ")
    assert thread.messages == []


def test_the_cap_example_runs_as_the_page_states_it():
    """Cap 3, four calls a response: 12 calls in three batches, then one more call; default 40 (the page's numbers)."""
    from guidetools import stated

    cap, per_response, calls, batches, again = stated.numbers("agent.cap-counts-tool-batches")
    extra, default = stated.numbers("agent.cap-default-forty")
    model = PlannedCalls(_lookups(50), batch_size=per_response, key=MODEL)
    run = _make(model, max_tool_calls_per_round=cap).start(Thread("T"), "Read.")
    # verifies: agent.cap-counts-tool-batches
    assert sum(len(t.results) for t in run.turns) == calls and sum(1 for t in run.turns if t.results) == batches
    # verifies: agent.cap-counts-tool-batches
    assert stated.numbers("agent.cap-counts-tool-batches") == [cap, per_response, cap * per_response, cap, per_response]
    # verifies: agent.cap-counts-tool-batches, agent.cap-default-forty
    assert again == per_response and len(run.turns) == cap + extra and run.turns[-1].tools_offered == ()
    # verifies: agent.cap-default-forty
    assert AgentConfiguration("a").iteration_cap == default


# -- the function-invocation layer: thrown calls and the consecutive-error limit (FI2, FI3) ------------------
@dataclass
class Replies:
    """A model that gives its replies in order, then answers ``Done.``."""

    replies: list[Reply]
    key: str = MODEL

    def respond(self, context: Context) -> Reply:
        return self.replies.pop(0) if self.replies else Reply("Done.")


MISSING = ToolCall("Create", {})  # AIFunctionFactory's binder throws: the model reads 'Error: Function failed.'
MISSING_MESSAGE = ("The arguments dictionary is missing a value for the required parameter 'node'. "
                   "(Parameter 'arguments')")


def _create(key: str) -> ToolCall:
    return ToolCall("Create", {"node": json.dumps({"id": key, "name": key, "nodeType": "Company"})})


def _writer(replies: list[Reply], mesh: Mesh | None = None, wire: str = DEFAULT_WIRE, **config) -> Agent:
    return Agent(AgentConfiguration("writer", plugins=["Mesh"], **config), Replies(replies),
                 mesh or Mesh(node_types={"Company"}), prices=PRICES, wire=wire)


@pytest.mark.parametrize("wire", WIRES)
def test_a_round_that_keeps_throwing_aborts_at_the_fourth_failing_iteration(wire):
    """Three failing iterations are answered; the fourth rethrows: the round ends in error, stored as ThreadExecution does.
    The limit is the function layer's, before any wire: on each, the model reads the error text as it is."""
    mesh = Mesh(node_types={"Company"})
    thread = Thread("T")
    run = _writer([Reply(f"Try {n}. ", (MISSING,)) for n in range(1, 10)], mesh, wire).start(thread, "Create Acme.")
    assert run.status == "error" and len(run.turns) == 4  # four model calls, no fifth
    assert [r.text for turn in run.turns[:3] for r in turn.results] == ["Error: Function failed."] * 3
    stored = f"Try 1. Try 2. Try 3. Try 4. \n\n*Error: {MISSING_MESSAGE}*"
    assert run.answer == run.summary == thread.messages[-1].text == stored
    assert run.recorded and recorded_usage(mesh, "T", MODEL) == run.usage  # the error path records the usage


def test_the_next_round_reads_the_stored_error():
    """An aborted round's stored text is history (T1): the next round's model reads the exception's message."""
    thread = Thread("T")
    agent = _writer([Reply(tool_calls=(MISSING,))] * 4)
    agent.start(thread, "Create Acme.")
    seen = Recording(TextModel("ok", key=MODEL))
    Agent(AgentConfiguration("writer", plugins=["Mesh"]), seen, agent.mesh, prices=PRICES).start(thread, "Again.")
    assert [(m.role, m.text) for m in seen.contexts[0].messages()][-2:] == [
        ("assistant", f"*Error: {MISSING_MESSAGE}*"), ("user", "Again.")]


@pytest.mark.parametrize("between", [
    Reply(tool_calls=(_create("Acme"),)),              # a call that ran
    Reply(tool_calls=(ToolCall("Launch", {}),)),        # a tool not offered: text, not an exception
])
def test_an_iteration_without_a_thrown_call_resets_the_count(between):
    """Failing iterations count only in a row: three, one without a thrown call, three more, and the round completes."""
    failing = [Reply(tool_calls=(MISSING,))] * 3
    run = _writer(failing + [between] + failing).start(Thread("T"), "Create Acme.")
    assert run.status == "completed" and run.answer == "Done." and len(run.turns) == 8
    aborted = _writer(failing + [between] + failing + [Reply(tool_calls=(MISSING,))]).start(Thread("T"), "Go.")
    assert aborted.status == "error" and len(aborted.turns) == 8


def test_unoffered_calls_never_abort_the_round():
    """'Requested function not found' carries no exception: a round of them runs to the iteration cap."""
    run = _writer([Reply(tool_calls=(ToolCall("Launch", {}),))] * 10, max_tool_calls_per_round=6).start(
        Thread("T"), "Go.")
    assert run.status == "completed" and len(run.turns) == 7


@pytest.mark.parametrize("wire", WIRES)
def test_a_timed_out_call_answers_text_and_does_not_count(monkeypatch, wire):
    """A call past 30 s answers the timed-out text, which is no exception: six of them do not abort the round.
    The text is the layer's own, so every wire passes it as it is."""
    import agentkit._plugins as plugins
    ticks = itertools.count(0, 31)
    monkeypatch.setattr(plugins, "_clock", lambda: next(ticks))
    run = _writer([Reply(tool_calls=(MISSING,))] * 6, wire=wire).start(Thread("T"), "Go.")
    assert run.status == "completed" and len(run.turns) == 7
    assert {r.text for turn in run.turns for r in turn.results} == {
        "Tool 'Create' timed out after 30s. Add [ToolTimeout(N)] to allow longer."}


def test_at_the_limit_every_call_of_the_response_runs_and_the_results_keep_call_order():
    """Concurrent invocation (FI3): the fourth response's good Create still runs; two thrown calls aggregate."""
    mesh = Mesh(node_types={"Company"})
    replies = [Reply(tool_calls=(MISSING, _create(f"C{n}"), MISSING)) for n in range(1, 5)]
    run = _writer(replies, mesh).start(Thread("T"), "Go.")
    assert run.status == "error" and len(run.turns) == 4
    assert all(mesh.exists(f"C{n}") for n in range(1, 5))
    first = [r.text for r in run.turns[0].results]
    assert first[0] == first[2] == "Error: Function failed." and first[1] != first[0]
    assert run.answer == f"*Error: One or more errors occurred. ({MISSING_MESSAGE}) ({MISSING_MESSAGE})*"
