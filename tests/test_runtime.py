"""agentkit/_runtime.py beyond the snippets (agent_design_0[2357]*.py: the cap, FI2, FI3, the boundary, usage)."""

from __future__ import annotations

import itertools

import pytest

from agentkit import ConfigurationError, Mesh
from agentkit._config import AgentConfiguration
from agentkit._cost import CallPattern, ModelPrice
from agentkit._messages import Message, Reply, ToolCall, ToolDefinition, ToolResult
from agentkit.guide._models import PlannedCalls, ScriptedModel, TextModel
from agentkit._plugins import Tool
from agentkit._runtime import Agent, Interrupt
from agentkit._threads import Thread
from agentkit._tokens import estimate_context, instructions_tokens, item_tokens, reply_tokens, tool_definition_tokens
from agentkit._usage import recorded_usage
from guidetools import stated

MODEL = "test-model"
PRICES = {MODEL: ModelPrice(MODEL, 3, 15, min_cacheable_tokens=600)}
LOOKUP = Tool("Lookup", "Test", "Lookup(id): one record.", lambda args: f"record {args['id']}: " + "v" * 60)
INSTRUCTIONS = "Read every record."


def _recording(model) -> tuple[ScriptedModel, list]:
    """The model, and the list of every context it is shown."""
    contexts = []
    return ScriptedModel(lambda context: contexts.append(context) or model.respond(context), key=model.key), contexts


def _lookups(n: int) -> list[ToolCall]:
    return [ToolCall("Lookup", {"id": f"item-{i:03d}"}) for i in range(n)]


def _make(model, *, caching=False, mesh=None, tools=(LOOKUP,), **config) -> Agent:
    config.setdefault("plugins", ["Test"])
    return Agent(AgentConfiguration("reader", INSTRUCTIONS, **config), model, mesh or Mesh(),
                 tools=list(tools), prices=PRICES, caching=caching)


@pytest.mark.parametrize("n, batch, caching, document", list(itertools.product(
    (0, 1, 5, 30), (1, 4, None), (False, True), ("", "D" * 20_000))))
def test_billed_tokens_equal_the_closed_form(n, batch, caching, document):
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
    assert run.usage == pattern.usage(PRICES[MODEL] if caching else None)  # the formulas: tests/test_cost.py


def test_each_turn_records_the_estimate_of_the_context_it_showed():
    """The running sum of item tokens is a fresh estimate of every context, over rounds and refusals."""
    stubborn = ToolCall("Create", {"node": "x"})
    model, contexts = _recording(PlannedCalls(_lookups(5)[:2] + [stubborn] + _lookups(5)[2:], batch_size=2, key=MODEL))
    agent = _make(model, max_tool_calls_per_round=3)
    thread = Thread("T")
    runs = [agent.start(thread, text) for text in ("Read them.", "continue", "continue")]
    turns = [turn for run in runs for turn in run.turns]
    assert len(turns) == len(contexts) > 3 and any(run.refused for run in runs)
    assert [turn.context for turn in turns] == [estimate_context(context) for context in contexts]


def test_the_model_is_shown_tool_definitions_not_functions():
    model, contexts = _recording(TextModel("ok", key=MODEL))
    _make(model).start(Thread("T"), "hi")
    assert contexts[0].tools[0] == ToolDefinition("Lookup", "Lookup(id): one record.")
    assert not any(hasattr(tool, "call") for tool in contexts[0].tools)


@pytest.mark.parametrize("calls, state_in_answer, cap, messages, issued, progress", [
    pytest.param(5, False, 2, ("Read them.", "continue"), ["item-000", "item-001", "item-000", "item-001"], None,
                 id="only in tool results: lost"),
    pytest.param(4, True, 3, ("Read them.", "continue", "continue"), ["item-000", "item-001", "item-002", "item-003"],
                 "[progress: 4/4 calls done]", id="written into the answer: survives"),
])
def test_state_survives_the_boundary_only_in_the_answer(calls, state_in_answer, cap, messages, issued, progress):
    model = PlannedCalls(_lookups(calls), key=MODEL, state_in_answer=state_in_answer)
    agent = _make(model, max_tool_calls_per_round=cap)
    thread = Thread("T")
    runs = [agent.start(thread, text) for text in messages]
    assert [call.arguments["id"] for run in runs for t in run.turns for call in t.reply.tool_calls] == issued
    if progress is not None:
        assert progress in runs[-1].answer


def test_calls_asked_for_on_the_tool_less_last_iteration_are_not_run():
    """A7."""
    ran = []
    tool = Tool("Lookup", "Test", "Lookup(id)", lambda args: ran.append(args["id"]) or "ok")
    stubborn = ScriptedModel(lambda context: Reply("still going", (ToolCall("Lookup", {"id": "x"}),)), key=MODEL)
    run = _make(stubborn, tools=[tool], max_tool_calls_per_round=2).start(Thread("T"), "Read.")
    # verifies: agent.cap-last-call-not-run
    assert run.status == "completed" and run.answer == "still going"
    # verifies: agent.cap-last-call-not-run
    assert (len(run.turns), ran, run.turns[-1].results, run.refused) == (3, ["x", "x"], (), [])


def test_stripping_tools_loses_the_prompt_cache():
    run = _make(PlannedCalls(_lookups(10), key=MODEL), caching=True, max_tool_calls_per_round=3) \
        .start(Thread("T"), "Read them." + "D" * 4_000)
    assert run.turns[1].usage.cache_read == run.turns[0].context.total
    last = run.turns[-1]
    assert last.usage.cache_read == 0 and last.usage.cache_write == last.context.total


def test_arguments_that_are_not_an_object_are_an_error_result():
    run = _make(PlannedCalls([ToolCall("Lookup", ["item-000"])], key=MODEL)).start(Thread("T"), "Read.")
    assert run.status == "completed"
    assert run.turns[0].results[0].text == "Error: tool arguments must be a JSON object, got list"


@pytest.mark.parametrize("kind", ["cancelled", "error"])
def test_cancelled_or_error_round_still_records_usage(kind):
    mesh = Mesh()
    thread = Thread("T")
    run = _make(PlannedCalls(_lookups(5), key=MODEL), mesh=mesh).start(
        thread, "Read.", interrupt=Interrupt(2, kind))
    # verifies: agent.died-round-records-nothing
    assert run.status == kind and run.recorded and run.tool_calls == 2
    # verifies: agent.died-round-records-nothing
    assert recorded_usage(mesh, "T", MODEL) == run.usage
    assert thread.messages[-1].text.startswith(f"[round {kind}]")


def test_interrupt_after_zero_calls_runs_none_and_counts_only_the_named_tool():
    ran = []
    tools = [Tool(name, "Test", name, lambda args, name=name: ran.append(name) or "ok") for name in ("Get", "Put")]
    calls = [ToolCall("Get", {}), ToolCall("Put", {}), ToolCall("Get", {}), ToolCall("Put", {})]
    agent = _make(PlannedCalls(calls, batch_size=None, key=MODEL), tools=tools)
    assert agent.start(Thread("A"), "go", interrupt=Interrupt(0, tool="Put")).status == "died"
    assert ran == ["Get"]
    ran.clear()
    agent.start(Thread("B"), "go", interrupt=Interrupt(1, tool="Put"))
    assert ran == ["Get", "Put"]


def test_a_failing_tool_ends_the_round_in_error_and_surfaces():
    def broken(args):
        raise RuntimeError("disk on fire")
    mesh = Mesh()
    agent = _make(PlannedCalls(_lookups(1), key=MODEL), mesh=mesh, tools=[Tool("Lookup", "Test", "", broken)])
    thread = Thread("T")
    with pytest.raises(RuntimeError, match="disk on fire"):
        agent.start(thread, "Read.")
    assert recorded_usage(mesh, "T", MODEL).total_input > 0
    assert thread.messages[-1].text == "[round error] RuntimeError: disk on fire"


def _delegated(task: str):
    """The sub-round of lead's one delegation of `task` to reader (the rest: snippets/agent_design_23_delegation.py)."""
    mesh = Mesh()
    lead = Agent(AgentConfiguration("lead", delegations=["reader"]),
                 PlannedCalls([ToolCall("delegate_to_agent", {"agentName": "reader", "task": task})]),
                 mesh, delegates={"reader": Agent(AgentConfiguration("reader"), TextModel("read"), mesh)})
    return lead.start(Thread("Acme/_Thread/route"), "Go.").delegations[0]


def test_store_plan_and_load_skill():
    calls = [ToolCall("store_plan", {"planContent": "1. read 2. write"}), ToolCall("load_skill", {"skillPath": "facts"}),
             ToolCall("load_skill", {"skillPath": "charts"})]
    agent = Agent(AgentConfiguration("a", skills={"facts": "Use $type Fact."}),
                  PlannedCalls(calls, batch_size=None, key=MODEL), Mesh(), prices=PRICES)
    thread = Thread("T")
    results = agent.start(thread, "go").turns[0].results
    assert thread.plan == "1. read 2. write"
    assert [r.text for r in results] == ["Plan stored (16 characters).", "Use $type Fact.",
                                         "Error: no skill named 'charts'; available skills: facts"]


def test_wiring_errors_are_clear_and_an_empty_message_starts_no_round():
    with pytest.raises(ConfigurationError, match="delegates to 'reader' but no Agent was given"):
        Agent(AgentConfiguration("lead", delegations=["reader"]), TextModel("x"), Mesh())
    with pytest.raises(ConfigurationError, match="caching needs the price entry of model 'mystery'"):
        Agent(AgentConfiguration("a"), TextModel("x", key="mystery"), Mesh(), caching=True)
    thread = Thread("T")
    with pytest.raises(ValueError, match="non-empty user message"):
        _make(TextModel("x", key=MODEL)).start(thread, "  ")
    assert thread.messages == []


def test_the_cap_example_runs_as_the_page_states_it():
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


def test_a_blank_task_is_the_sub_round_s_message_and_one_naming_the_caller_runs_in_its_sub_thread():
    """DL1; DL7: the caller is a loaded agent too."""
    assert _delegated(" ").thread.messages[0].text == " "
    sub = _delegated("Say @lead is done.")
    assert (sub.agent, sub.thread.path) == ("lead", "Acme/_Thread/route/response-1/reader-1")
