"""claimcheck/agentview.py: a snippet's tool calls and agent configurations, recorded per section (issue 12)."""

from __future__ import annotations

import json
import re
import textwrap

import pytest

import agentkit
from claimcheck.agentview import MAX_ANSWER_CHARS, MAX_ANSWER_LINES, AgentView, RecordedCall, pretty_json, render_call
from claimcheck.captures import run_snippet
from guidetools.project import REPO_ROOT

# Each section's calls, steps and configurations, with others made before and after it.
SNIPPET = textwrap.dedent('''
    import json

    import agentkit
    from agentkit import Mesh, mesh_plugin, tools_by_name
    from claimcheck.agentview import AgentView

    mesh = Mesh(node_types={"Company"})
    view = AgentView(__file__)
    tools = view.wrap(tools_by_name(mesh_plugin(mesh)))
    refresh = view.step(mesh.refresh_index, "The index catches up.")
    AgentConfiguration = view.configurations(agentkit.AgentConfiguration)
    tools["Get"].call({"path": "Before"})
    AgentConfiguration("before")


    def call(name, **arguments):
        return tools[name].call(arguments)


    def agent(plugins):
        return AgentConfiguration("a", "Read.", plugins=plugins)

    # --8<-- [start:create]
    print(tools["Create"].call({"node": json.dumps({"id": "Acme", "name": "Acme", "nodeType": "Company"})}))
    print(call("Get", path="Nowhere"))
    # --8<-- [end:create]

    refresh()

    # --8<-- [start:children]
    tools["Create"].call({"node": json.dumps({"id": "Acme/Unit", "name": "Unit", "nodeType": "Company"})})
    tools["Get"].call({"path": "Acme/*"})
    refresh()
    tools["Get"].call({"path": "Acme/*"})
    # --8<-- [end:children]

    # --8<-- [start:configure]
    agent(["Mesh:Get"])
    agent(["Mesh:Get"])
    AgentConfiguration.from_node_content({"id": "b", "maxToolCallsPerRound": 3})
    # --8<-- [end:configure]

    tools["Get"].call({"path": "After"})
    AgentConfiguration("after")
''')


@pytest.fixture(scope="module")
def view(tmp_path_factory: pytest.TempPathFactory) -> AgentView:
    path = tmp_path_factory.mktemp("agentview") / "mesh_plugin_99_view.py"
    path.write_text(SNIPPET, encoding="utf-8")
    return run_snippet(path).namespace["view"]


def test_a_section_shows_exactly_its_own_calls_in_order_as_the_json_call_and_the_exact_answer(view: AgentView):
    """A call made through a helper counts for the section's line."""
    assert [(call.tool, call.arguments, call.answer) for call in view.calls_in("create")] == [
        ("Create", {"node": '{"id": "Acme", "name": "Acme", "nodeType": "Company"}'}, "Created: Acme"),
        ("Get", {"path": "Nowhere"}, "Not found: Nowhere"),
    ]
    assert len(view.calls) == 7  # the calls outside the section were recorded, and left out
    listing = view.markdown("create")
    # The node goes as a JSON string, as the model must send it: the listing shows the string, escaped.
    assert '**`Create`** called with\n\n```json\n{\n  "node": "{\\"id\\": \\"Acme\\", \\"name\\": \\"Acme\\", ' \
        '\\"nodeType\\": \\"Company\\"}"\n}\n```' in listing
    assert "answers `Created: Acme`" in listing  # short enough to stand inline
    assert '**`Get`** called with `{"path": "Nowhere"}`\nanswers `Not found: Nowhere`' in listing
    assert "Before" not in listing and "After" not in listing and "catches up" not in listing
    with pytest.raises(ValueError, match="made no call"):
        view.markdown("configure")


def test_a_step_the_model_does_not_see_stands_between_the_calls_it_ran_between(view: AgentView):
    """Two identical calls with different answers show why; a step outside the section is left out."""
    listing = view.markdown("children")
    blocks = listing.split("\n\n")
    note = blocks.index("*The index catches up.*")
    assert listing.count("The index catches up.") == 1
    assert blocks[note - 1].startswith("**`Get`**") and "answers `[]`" in blocks[note - 1]
    assert blocks[note + 1].startswith("**`Get`**") and '"path":"Acme/Unit"' in "".join(blocks[note + 1:])


def test_a_json_answer_is_shown_verbatim_and_a_long_answer_is_cut_with_a_count():
    answer = json.dumps({"path": "Acme", "name": "Acme"}, indent=2)
    assert f"```json\n{answer}\n```" in render_call(RecordedCall((1,), "Get", {"path": "Acme"}, answer))
    long = "\n".join(f"line {number}" for number in range(40))
    shown = render_call(RecordedCall((1,), "Get", {"path": "f.pdf"}, long))
    assert f"line {MAX_ANSWER_LINES - 1}\n```" in shown and f"line {MAX_ANSWER_LINES}\n" not in shown
    assert f"(the first {MAX_ANSWER_LINES} lines of 40)" in shown
    one_line = json.dumps("word " * 1000)  # a whole file as one JSON string literal: cut after its first characters
    shown = render_call(RecordedCall((1,), "Get", {"path": "f.md"}, one_line))
    assert f"```text\n{one_line[:MAX_ANSWER_CHARS]}\n```" in shown
    assert f"(the first {MAX_ANSWER_CHARS:,} characters of {len(one_line):,})" in shown


def test_a_section_shows_the_agent_nodes_it_configures_once_each(view: AgentView):
    """Configurations built through a helper or a class method count for the section's line; the same node shows once."""
    assert [c.id for c in view.configurations_in("configure")] == ["a", "a", "b"]
    assert len(view.configurations_built) == 5
    assert isinstance(view.configurations_built[0].configuration, agentkit.AgentConfiguration)
    listing = view.agent_nodes("configure")
    blocks = [json.loads(block.split("\n```")[0]) for block in listing.split("```json\n")[1:]]
    assert blocks == [
        {"id": "a", "name": "a", "nodeType": "Agent", "content": {
            "$type": "AgentConfiguration", "id": "a", "instructions": "Read.",
            "plugins": [{"$type": "AgentPluginReference", "name": "Mesh", "methods": ["Get"]}]}},
        {"id": "b", "name": "b", "nodeType": "Agent",
         "content": {"$type": "AgentConfiguration", "id": "b", "maxToolCallsPerRound": 3}}]
    assert "before" not in listing and "after" not in listing
    with pytest.raises(ValueError, match="built no agent configuration"):
        view.agent_nodes("create")


def test_pretty_json_keeps_what_fits_on_one_line():
    value = {"plugins": [{"name": "Mesh", "methods": ["Get", "Search"]}], "long": "x" * 100}
    assert pretty_json(value) == ('{\n  "plugins": [{"name": "Mesh", "methods": ["Get", "Search"]}],\n'
                                  f'  "long": "{"x" * 100}"\n}}')
    assert pretty_json({"a": [1, 2]}) == '{"a": [1, 2]}' and pretty_json({}) == "{}"


def test_every_agent_node_listing_of_agent_design_opens_with_agent_nodes():
    page = (REPO_ROOT / "docs" / "AI" / "AgentDesign.md").read_text(encoding="utf-8")
    listings = re.findall(r'--8<-- "(snippets/output/agent_node_\w+\.md)"', page)
    tabs = re.findall(r'=== "Agent node"\n\s*\n\s*--8<-- "([^"]+)"', page)
    assert len(tabs) >= 5 and set(tabs) <= set(listings)
    for name in listings:
        listing = (REPO_ROOT / name).read_text(encoding="utf-8")
        first = json.loads(listing.split("```json\n")[1].split("\n```")[0])
        # verifies: agent.listings-show-agent-nodes
        assert listing.index("```") == listing.index("```json\n") and first["nodeType"] == "Agent" and first["content"]["$type"] == \
            "AgentConfiguration", name
