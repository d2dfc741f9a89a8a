"""Tests for agentkit/guide/_scenarios.py beyond the pages: the write phase's bill, resuming after every kill, the
scripted models, the floor, the table and the workspace copies. The scenarios' costs, grades and the document's
phase (agent.protocol-*, agent.naive-*, agent.document-*) are checked by snippets/agent_design_0[246]*.py."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError, replace

import pytest

from agentkit import Agent, AgentConfiguration, Context, Message, Thread, ToolCall, ToolResult, item_tokens
from agentkit._cost import input_tokens
from agentkit.guide import (
    REPORT, ProcedureModel, ScriptedModel, Worksheet, copy_mesh, dimension_path, floor_cost, floor_usage, interrupted,
    report_pdf_bytes, report_tokens, run_scenario, scenario_table, stepwise_input_tokens, verify_by_get, workspace,
    write_phase_sizes,
)
from agentkit.guide._procedures import (
    APPROVE, NAIVE_INSTRUCTIONS, OWNER, PROTOCOL_INSTRUCTIONS, PROTOCOL_PLUGINS, TASK, THREAD, TITLES, naive, protocol,
    scenario_config,
)
from agentkit.guide._replay import exchanges
from agentkit.guide._scenarios import _phase_one
from guidetools import stated

pytestmark = pytest.mark.usefixtures("report_read_once")  # tests/conftest.py

EXPECTED_NODES = 11 + len(REPORT.values)  # the new dimensions (cash flow, segments) and every reported value


def protocol_agent(mesh, model=None) -> Agent:
    return Agent(scenario_config("worksheet"), model or ProcedureModel(protocol), mesh)


def creates(run) -> list:
    return [turn for turn in run.turns if turn.reply.tool_calls and turn.reply.tool_calls[0].name == "Create"]


def recording(procedure) -> tuple[ScriptedModel, list]:
    """A ProcedureModel, and the list of every context it is handed, with its reply."""
    model, shown = ProcedureModel(procedure), []
    return ScriptedModel(lambda context: shown.append((context, model.respond(context))) or shown[-1][1],
                         key=model.key), shown


@pytest.fixture(scope="module")
def results():
    return {key: run_scenario(key) for key in TITLES}


def test_reread_keeps_the_document_in_every_writing_call(results):
    phase_two = [tokens for number, tokens in results["reread"].context_sizes() if number == 2]
    assert len(phase_two) > EXPECTED_NODES and all(tokens > report_tokens() for tokens in phase_two[2:])


@pytest.mark.parametrize("key, batch", [("reread", 1), ("worksheet", 10)])
def test_write_phase_bill_equals_the_closed_form(results, key, batch):
    """The creates of phase 2 bill exactly (k+1)P + the sizes of the calls before each response."""
    run = results[key].runs[1]
    creating = creates(run)
    first = run.turns.index(creating[0])
    sizes = [item_tokens(call) + item_tokens(result) for turn in creating
             for call, result in zip(turn.reply.tool_calls, turn.results)]
    billed = sum(turn.usage.input for turn in run.turns[first:first + len(creating) + 1])
    # verifies: agent.closed-forms, agent.closed-forms-exact
    assert billed == stepwise_input_tokens(run.turns[first].context.total, sizes, batch)


@pytest.mark.parametrize("n, batch", [(0, 1), (1, 1), (7, 1), (7, 3), (7, None)])
def test_stepwise_bill_equals_the_cost_closed_form_for_equal_sizes(n, batch):
    """With equal call sizes the stepwise bill is _cost.input_tokens (its formulas: tests/test_cost.py)."""
    # verifies: agent.closed-forms, agent.closed-forms-exact
    assert stepwise_input_tokens(500, [30] * n, batch) == input_tokens(n, 500, 30, batch)


def test_a_worksheet_without_master_data_writes_nothing():
    mesh, _, worksheet, _ = _phase_one()  # copies: this test may change them
    before = {node.path for node in mesh.nodes()}
    text = worksheet.to_text().replace("| Segment information | EUR m | new |", "| Segment information |  | new |", 1)
    thread = Thread(THREAD)
    thread.append("user", TASK)
    thread.append("assistant", text)
    run = protocol_agent(mesh).start(thread, APPROVE)
    assert run.answer.startswith("Cannot write: Worksheet refused") and "'indrev' lacks unit" in run.answer
    assert run.tool_calls == 0
    added = {node.path for node in mesh.nodes()} - before
    assert all("/_Usage/" in path for path in added)  # only the round's usage record


def test_recheck_before_writing_skips_a_dimension_created_since_the_worksheet():
    mesh, thread, worksheet, _ = _phase_one()  # copies: this test may change them
    early = worksheet.new_dimensions[0]
    mesh.create(worksheet.dimension_node(early))
    run = protocol_agent(mesh).start(thread, APPROVE)
    created = [call for turn in run.turns for call in turn.reply.tool_calls if call.name == "Create"]
    # verifies: agent.recheck-skips-standing-dimension
    assert len(created) == EXPECTED_NODES - 1
    # verifies: agent.recheck-skips-standing-dimension
    assert f"{dimension_path(OWNER, early.key)}: marked new, but found standing at the re-check" in run.answer


def test_floor_is_below_every_scenario_and_the_table_shows_multiples(results):
    """The floor bills the report once as input, the worksheet and nodes once as output."""
    assert floor_usage().total_input == report_tokens()
    assert all(result.cost > floor_cost() for result in results.values())
    table = scenario_table(list(results.values()))
    assert table.count("\n") == 2 + len(results) + 1
    assert f"| {results['worksheet'].cost / floor_cost():.1f} |" in table
    with pytest.raises(ValueError, match="same scenarios"):  # else the caching column would compare others
        scenario_table([results["naive"]], [results["bulk"]])


def test_write_phase_sizes_average_the_create_calls(results):
    """P is the first create call's context, N the creates, and call and result the rounded average item sizes."""
    sizes = write_phase_sizes(results["reread"])
    creating = creates(results["reread"].runs[1])
    assert (sizes.prefix, sizes.calls) == (creating[0].context.total, EXPECTED_NODES)
    assert sizes.call == round(sum(item_tokens(t.reply.tool_calls[0]) for t in creating) / EXPECTED_NODES)
    with pytest.raises(ValueError, match="issues no Create calls"):
        write_phase_sizes(replace(results["worksheet"], runs=results["worksheet"].runs[:1]))  # reading only


@pytest.mark.parametrize("procedure, instructions, plugins", [
    (protocol, PROTOCOL_INSTRUCTIONS, list(PROTOCOL_PLUGINS)),
    (naive, NAIVE_INSTRUCTIONS, ["Mesh", "ContentCollection"]),
])
def test_scripted_models_decide_from_the_context_alone_and_address_only_places_it_names(procedure, instructions, plugins):
    """A fresh model handed any context recorded mid-round replies exactly as the running model did; every folder
    a scripted model searches, lists or writes into is named in what it was shown, not taken from the source."""
    model, shown = recording(procedure)
    agent = Agent(AgentConfiguration("extractor", instructions, plugins=plugins), model, workspace())
    thread = Thread(THREAD)
    agent.start(thread, TASK)
    if procedure is protocol:
        agent.start(thread, APPROVE)
        assert len(shown) == 14
    assert [ProcedureModel(procedure).respond(context) for context, _ in shown] == [reply for _, reply in shown]
    for context, reply in shown:
        seen = "\n".join([context.instructions] + [m.text for m in context.messages()]
                         + [r.text for r in context.tool_results()])
        for call in reply.tool_calls:
            arguments = dict(call.arguments)
            folders = [arguments["basePath"]] if "basePath" in arguments else []
            if "path" in arguments:
                path = arguments["path"]
                folders.append(path[:-2] if path.endswith("/*") else path.rsplit("/", 1)[0])
            if call.name == "Create":
                folders.append(json.loads(arguments["node"])["namespace"])
            unnamed = [folder for folder in folders if folder not in seen]
            assert not unnamed, f"{call.name} addresses {unnamed}, which nothing the model was shown names"


def test_exchanges_pair_each_iteration_of_the_current_round():
    """Calls and the results after them form one iteration; items before the last user message are not read."""
    get = ToolCall("Get", {"path": "A"})
    old = ToolResult("c0", "Get", "old")
    items = (Message("user", "one"), get, old, Message("assistant", "done"), Message("user", "two"),
             get, get, ToolResult("c1", "Get", "a"), ToolResult("c2", "Get", "b"), get, ToolResult("c3", "Get", "c"))
    pairs = exchanges(Context("", (), items))
    assert [(len(calls), [r.text for r in results]) for calls, results in pairs] == [(2, ["a", "b"]), (1, ["c"])]


def _reading_calls(mesh):
    """The calls of the protocol's reading round on ``mesh``, one list per model response, and the run."""
    run = protocol_agent(mesh).start(Thread(THREAD), TASK)
    return [[(c.name, c.arguments.get("path")) for c in t.reply.tool_calls] for t in run.turns if t.reply.tool_calls], run


def test_reading_phase_without_the_report_says_so():
    mesh = workspace()
    mesh.collections["Meridian/content"].delete(REPORT.file_name)
    mesh.refresh_index()
    run = _reading_calls(mesh)[1]
    assert run.answer.startswith("Cannot read: Search found no Document node") and run.status == "completed"


def test_reading_phase_gets_the_file_from_the_search_row_without_its_document_node():
    """The file's Get path comes from the Search row (collection before /_Documents/, the name): no Document node Get."""
    calls, _ = _reading_calls(workspace())  # the worksheet's first line: snippets/agent_design_02_rounds.py
    document = f"{OWNER}/content/_Documents/{REPORT.file_name.replace(' ', '-')}"
    # verifies: agent.read-file-from-search-row
    assert calls == [[("Search", None), ("Search", None)], [("Get", f"{OWNER}/content/{REPORT.file_name}")]]
    # verifies: agent.read-file-from-search-row
    assert document not in {path for response in calls for _, path in response}


def test_reading_phase_falls_back_to_the_document_node_for_a_file_in_a_folder():
    """A file in a folder is not at {node}/content/{name}: that Get errs, and the Document node's filePath is used."""
    mesh = workspace()
    content = mesh.collections[f"{OWNER}/content"]
    content.delete(REPORT.file_name)
    content.upload(f"2024/{REPORT.file_name}", report_pdf_bytes(), index=True)
    mesh.refresh_index()
    calls, run = _reading_calls(mesh)
    nested = f"{OWNER}/content/2024/{REPORT.file_name}"
    # verifies: agent.read-file-from-search-row
    assert [response[0] for response in calls[1:]] == [
        ("Get", f"{OWNER}/content/{REPORT.file_name}"),
        ("Get", f"{OWNER}/content/_Documents/2024-{REPORT.file_name.replace(' ', '-')}"), ("Get", nested)]
    assert run.answer.startswith(f"# Worksheet: {nested} -> {OWNER}")


def test_copied_workspaces_share_the_report_but_not_writes():
    original = workspace()
    first, second = copy_mesh(original), copy_mesh(original)
    stored, kept = (mesh.collections["Meridian/content"].stored(REPORT.file_name) for mesh in (original, first))
    assert kept.data is stored.data
    assert [*map(id, first.index.visible_chunks())] == [*map(id, original.index.visible_chunks())]
    first.create({"id": "Meridian/Facts/x", "name": "x", "nodeType": "Fact"})
    first.patch("Meridian/LineItems/rev", {"name": "Sales"})
    first.delete(["Meridian/LineItems/cos"])
    first.refresh_index()
    for untouched in (original, second):
        assert not untouched.exists("Meridian/Facts/x") and untouched.exists("Meridian/LineItems/cos")
        assert untouched.get("Meridian/LineItems/rev").content["name"] == "Revenue"
        assert untouched.search("nodeType:Fact")["count"] == 0


def test_run_scenario_refuses_an_unknown_key_and_hands_out_copies_of_results_computed_once():
    with pytest.raises(ValueError, match="choose one of naive, reread, worksheet, bulk"):
        run_scenario("fast")
    for handed_out in (lambda: run_scenario("worksheet"), lambda: interrupted(1).result):
        result = handed_out()
        with pytest.raises(FrozenInstanceError):
            result.grade = None
        result.runs[-1].turns.clear()
        result.runs[-1].thread.messages.clear()
        result.mesh.create({"id": "Meridian/Facts/x", "name": "x", "nodeType": "Fact"})
        again = handed_out()
        assert again.runs[-1].turns and again.runs[-1].thread.messages
        assert not again.mesh.exists("Meridian/Facts/x")


def test_procedure_model_replays_afresh_after_a_refusal():
    """Calls the procedure would not make are an error, not a silent guess; refused part-way (its second exchange
    wrong), the model answers the next context as a fresh one does."""
    recorder, shown = recording(protocol)
    protocol_agent(workspace(), recorder).start(Thread(THREAD), TASK)
    first, second = (context for context, _ in shown[:2])  # the task; the task and one exchange
    wrong = (ToolCall("Get", {"path": "x"}), ToolResult("c", "Get", "{}"))
    model = ProcedureModel(protocol)
    with pytest.raises(RuntimeError, match="would not have made"):  # a wrong first exchange
        model.respond(Context(first.instructions, first.tools, (*first.items, *wrong)))
    model.respond(first)
    with pytest.raises(RuntimeError, match="would not have made"):  # a right first exchange, a wrong second one
        model.respond(Context(second.instructions, second.tools, (*second.items, *wrong)))
    assert model.respond(second) == ProcedureModel(protocol).respond(second)


def test_the_page_states_the_protocols_figures(results):
    """Phase 1 is shown the report (phase 2 less than a third of it: snippets/agent_design_02_rounds.py); verification
    never counts (zero) and reads back two nodes."""
    reading_phase, writing_phase, _ = stated.numbers("agent.document-billed-in-phase-one")
    worksheet = results["worksheet"]
    writing = worksheet.runs[writing_phase - 1]
    # verifies: agent.document-billed-in-phase-one
    assert max(turn.context.total for turn in worksheet.runs[reading_phase - 1].turns) > report_tokens()
    zero, read_backs = stated.numbers("agent.verify-by-get")
    calls = [c.name for t in writing.turns for c in t.reply.tool_calls]
    check = verify_by_get(copy_mesh(worksheet.mesh), Worksheet.from_text(worksheet.runs[0].answer))
    # verifies: agent.verify-by-get
    assert check.search_count == check.listed_count == zero and "Search" not in calls
    # verifies: agent.verify-by-get
    assert [c.name for c in writing.turns[-2].reply.tool_calls] == ["Get"] * read_backs
