"""Tests for agentkit/_config.py: the plugins whitelist, the tool budget and agent definitions (facts A1-A8)."""

from __future__ import annotations

import json
import os
import re
import warnings

import pytest

from agentkit import ConfigurationError, Mesh, UnknownPluginWarning, mesh_plugin
from agentkit._config import (
    BUDGET_SEPARATOR,
    BUDGET_TEXT,
    DELEGATION_GUIDANCE,
    BUILT_IN_PLUGINS,
    DEFAULT_MAXIMUM_ITERATIONS,
    READ_ONLY_MESH_METHODS,
    THREAD_GUIDANCE,
    AgentConfiguration,
    PluginGrant,
    parse_plugin_entry,
)
from agentkit._plugins import Tool

BUILTINS = [Tool(name, "Agent", name, lambda arguments: "") for name in
            ("delegate_to_agent", "list_sub_threads", "send_to_sub_thread", "store_plan", "load_skill")]


def _tool(name: str, plugin: str) -> Tool:
    return Tool(name, plugin, name, lambda arguments: "")


@pytest.fixture
def available() -> list[Tool]:
    """The host: the Mesh tools, a ContentCollection plugin and a custom (DI) plugin named WebSearch."""
    return (mesh_plugin(Mesh()) + [_tool(n, "ContentCollection") for n in ("UploadContent", "SearchChunks", "GetChunk")]
            + [_tool("Find", "WebSearch")])


def _offered(config: AgentConfiguration, available: list[Tool]) -> list[str]:
    return [tool.name for tool in config.offered_tools(available, BUILTINS)]


def test_entry_splits_at_the_first_colon_then_on_commas_every_part_trimmed():
    """A1: 'Name' grants a whole plugin; ' Name : A , B ' grants the trimmed methods; nothing is validated."""
    assert parse_plugin_entry("Mesh") == PluginGrant("Mesh")
    assert parse_plugin_entry("  Mesh : Get , search ") == PluginGrant("Mesh", ("Get", "search"))
    # verifies: agent.plugin-entry-parsing
    assert parse_plugin_entry("Mesh:Get:Create") == PluginGrant("Mesh", ("Get:Create",))
    assert parse_plugin_entry("Mesh:") == PluginGrant("Mesh", ("",))
    assert parse_plugin_entry("Mesh:Get,,Search") == PluginGrant("Mesh", ("Get", "", "Search"))


def test_malformed_entries_are_accepted_and_offer_what_their_parts_match(available):
    """A1: 'Mesh:' offers no Mesh tool; an empty method between commas matches nothing; no error is raised."""
    assert _offered(AgentConfiguration("a", plugins=["Mesh:"]), available) == ["store_plan", "load_skill"]
    assert _offered(AgentConfiguration("a", plugins=["Mesh:Get,,Search"]), available)[:2] == ["Get", "Search"]


def test_no_plugins_list_offers_the_read_only_mesh_tools(available):
    """A3: absent or empty, the list offers Get, Search, NavigateTo and GetDiagnostics (M1's read-only set)."""
    expected = [*READ_ONLY_MESH_METHODS, "store_plan", "load_skill"]
    assert READ_ONLY_MESH_METHODS == ("Get", "Search", "NavigateTo", "GetDiagnostics")
    assert _offered(AgentConfiguration("a"), available) == expected
    assert _offered(AgentConfiguration("a", plugins=[]), available) == expected


def test_a_list_without_mesh_offers_no_mesh_tool(available):
    """A3: the Mesh tools are not 'always loaded': a list naming another plugin leaves them out."""
    assert _offered(AgentConfiguration("a", plugins=["ContentCollection"]), available) == [
        "UploadContent", "SearchChunks", "GetChunk", "store_plan", "load_skill"]


def test_methods_ignore_case_and_keep_the_plugins_order(available):
    """A2: 'Mesh:create,GET' offers Get and Create, in the plugin's order, and nothing else of it."""
    config = AgentConfiguration("a", plugins=["Mesh:create,GET"])
    assert _offered(config, available) == ["Get", "Create", "store_plan", "load_skill"]


def test_built_in_plugin_names_match_case_sensitively(available):
    """A2: 'mesh' is not the built-in Mesh; no host plugin has that name, so it warns and offers nothing."""
    assert "Mesh" in BUILT_IN_PLUGINS and len(BUILT_IN_PLUGINS) == 6
    with pytest.warns(UnknownPluginWarning) as caught:
        assert _offered(AgentConfiguration("a", plugins=["mesh:get"]), available) == ["store_plan", "load_skill"]
    assert [str(w.message) for w in caught] == ["Plugin 'mesh' not found for agent a"]


def test_host_plugins_match_ignoring_case(available):
    """A2: a plugin that is not built in is found by name ignoring case."""
    assert _offered(AgentConfiguration("a", plugins=["websearch"]), available) == ["Find", "store_plan", "load_skill"]


def test_unknown_plugin_logs_the_framework_warning_and_offers_nothing(available):
    """A2: the warning is the framework's log line, verbatim; the other entries still apply."""
    config = AgentConfiguration("a", plugins=["Mesh:Get", "Charts"])
    with pytest.warns(UnknownPluginWarning) as caught:
        offered = _offered(config, available)
    assert offered == ["Get", "store_plan", "load_skill"]
    assert [str(w.message) for w in caught] == ["Plugin 'Charts' not found for agent a"]


def test_unknown_method_is_filtered_out_silently(available):
    """A2: a misspelt method offers nothing and warns about nothing."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _offered(AgentConfiguration("a", plugins=["Mesh:Get,Craete"]), available) == [
            "Get", "store_plan", "load_skill"]


def test_delegation_tools_come_first_and_only_with_delegations(available):
    """A4: delegate_to_agent, list_sub_threads, send_to_sub_thread lead the list when the agent delegates."""
    assert _offered(AgentConfiguration("a", plugins=["Mesh:Get"]), available) == ["Get", "store_plan", "load_skill"]
    assert _offered(AgentConfiguration("a", plugins=["Mesh:Get"], delegations=["reader"]), available) == [
        "delegate_to_agent", "list_sub_threads", "send_to_sub_thread", "Get", "store_plan", "load_skill"]


def test_strict_plugins_extension_refuses_malformed_entries():
    """Extension, off by default: strict_plugins=True names the entry, the fault and the two valid forms."""
    AgentConfiguration("a", plugins=["Mesh:Get,,Create"])  # the framework's behaviour: accepted
    for entry, message in [("", "plugin name is empty"), (":Get", "plugin name is empty"),
                           ("Mesh:", "method 1 after ':' is empty"), ("Mesh:Get,,Create", "method 2 after ':' is empty"),
                           ("Mesh:Get:Create", "method 'Get:Create' must be letters"),
                           ("Me sh", "plugin name 'Me sh' must be letters"), (42, "an entry must be a string")]:
        with pytest.raises(ConfigurationError, match=message) as raised:
            AgentConfiguration("a", plugins=["Mesh", entry], strict_plugins=True)
        assert "plugins[1]" in str(raised.value) and "Name:Method1,Method2" in str(raised.value)


def test_a_bare_string_is_not_a_plugins_list():
    """plugins='Mesh' is refused rather than read as five one-letter plugins."""
    with pytest.raises(ConfigurationError, match=r"write \['Mesh'\]"):
        AgentConfiguration("a", plugins="Mesh")


def test_budget_text_follows_the_separator_verbatim():
    """A6: a cap > 0 appends '\\n\\n---\\n' and the budget sentence, word for word, even to empty instructions."""
    config = AgentConfiguration("a", "Extract the facts.", max_tool_calls_per_round=12)
    assert config.round_instructions() == "Extract the facts." + THREAD_GUIDANCE + (
        "\n\n---\nTool-call budget: you may issue at most 12 tool calls in this turn. "
        "If you reach this budget before finishing, stop, briefly summarise what you accomplished, "
        'and ask the user to reply "continue" to run the next batch.')
    assert AgentConfiguration("a", max_tool_calls_per_round=2).round_instructions() == (
        THREAD_GUIDANCE + BUDGET_SEPARATOR + BUDGET_TEXT.format(n=2))
    assert AgentConfiguration("a", "Extract the facts.").round_instructions() == "Extract the facts." + THREAD_GUIDANCE


def test_system_message_is_instructions_delegations_guidance_budget():
    """T8: the instructions, the delegation block (one '- {id}: ' line per delegation), the guidance, the budget."""
    assert len(THREAD_GUIDANCE) == 1249 and THREAD_GUIDANCE.startswith("\n**Reading prior thread messages:**\n")
    assert THREAD_GUIDANCE.endswith("Be tight and outcome-focused.\n")
    config = AgentConfiguration("lead", "Go.", delegations=["reader", "Acme/writer"], max_tool_calls_per_round=4)
    assert config.round_instructions() == "Go." + DELEGATION_GUIDANCE.replace(
        "{agents}", "- reader: \n- writer: ") + THREAD_GUIDANCE + BUDGET_SEPARATOR + BUDGET_TEXT.format(n=4)
    # The default agent with no delegations and no hierarchy lists no agent: the guidance alone follows.
    assert AgentConfiguration("a", "Go.", is_default=True).round_instructions() == "Go." + THREAD_GUIDANCE


@pytest.mark.parametrize("cap", [None, 0, -1])
def test_no_positive_cap_means_the_default_forty_and_no_text(cap):
    """A6, A7: a cap of None, 0 or less adds no text and leaves the default of 40 iterations."""
    config = AgentConfiguration("a", "Go.", max_tool_calls_per_round=cap)
    assert (config.iteration_cap, config.round_instructions()) == (DEFAULT_MAXIMUM_ITERATIONS, "Go." + THREAD_GUIDANCE)
    assert DEFAULT_MAXIMUM_ITERATIONS == 40
    assert AgentConfiguration("a", max_tool_calls_per_round=7).iteration_cap == 7


@pytest.mark.parametrize("cap", [True, 2.5, "3"])
def test_non_integer_cap_is_a_type_error(cap):
    """Python's side of the cap's type (an int? in the framework): a bool, a fraction or a text is refused."""
    with pytest.raises(ConfigurationError, match="whole number"):
        AgentConfiguration("a", max_tool_calls_per_round=cap)


def test_front_matter_cannot_set_the_cap_but_node_json_can():
    """A8: front matter ignores maxToolCallsPerRound like any unknown key; the node's JSON content sets it."""
    markdown = ("---\nnodeType: Agent\nplugins:\n  - Mesh:Get,Search\nmaxToolCallsPerRound: 5\nfavouriteColour: red\n"
                "---\n\nRead the report.\n")
    from_file = AgentConfiguration.from_markdown("extractor", markdown)
    assert (from_file.instructions, from_file.plugins) == ("Read the report.", ("Mesh:Get,Search",))
    assert from_file.max_tool_calls_per_round is None and from_file.iteration_cap == 40
    from_json = AgentConfiguration.from_node_content({
        "id": "extractor", "instructions": "Read the report.", "maxToolCallsPerRound": 5,
        "plugins": [{"name": "Mesh", "methods": ["Get", "Search"]}, {"name": "ContentCollection"}]})
    assert from_json.max_tool_calls_per_round == from_json.iteration_cap == 5
    assert from_json.plugins == ("Mesh:Get,Search", "ContentCollection")


def test_a_markdown_file_without_node_type_agent_is_not_an_agent():
    """Only front matter with nodeType: Agent (any case) defines an agent."""
    assert AgentConfiguration.from_markdown("a", "---\nnodeType: agent\n---\nHi").instructions == "Hi"
    with pytest.raises(ConfigurationError, match="not an agent file"):
        AgentConfiguration.from_markdown("a", "---\nnodeType: Markdown\n---\nHi")


def test_agent_id_must_be_a_slug():
    """An agent id with a slash or a space is refused."""
    with pytest.raises(ConfigurationError, match="must be a slug"):
        AgentConfiguration("my agent")


def test_the_page_states_the_cap_rules_as_configured():
    """The numbers the cap claims state are the configuration's: a cap above 0 adds text; 0 or less means 40."""
    from guidetools import stated

    above, zero, default = stated.numbers("agent.cap-budget-text")
    # verifies: agent.cap-budget-text
    assert AgentConfiguration("a", "x", max_tool_calls_per_round=above + 1).round_instructions() != "x" + THREAD_GUIDANCE \
        == AgentConfiguration("a", "x", max_tool_calls_per_round=above).round_instructions()
    # verifies: agent.cap-budget-text
    assert AgentConfiguration("a", max_tool_calls_per_round=zero).iteration_cap == default == DEFAULT_MAXIMUM_ITERATIONS
    entry = "Mesh:Get,,Search"
    # verifies: agent.malformed-entry-accepted
    assert stated.numbers("agent.malformed-entry-accepted") == [entry.count(",")] and "" in parse_plugin_entry(entry).methods


# -- the agent node's JSON (A9) -------------------------------------------------------------------------------------
EVERY_FIELD = AgentConfiguration(
    "extractor", "Extract the report.", plugins=["Mesh:Get,Search", "ContentCollection"],
    max_tool_calls_per_round=0, delegations=["reader"], skills={"worksheet": "Write a worksheet."},
    model="example-large", strict_plugins=True, is_default=True, description="Extracts a report's figures.",
    delegation_instructions={"reader": "Reads one page."})


def _objects(value, owner: str = "AgentConfiguration"):
    """Every JSON object in the content with the record it stands for (its $type)."""
    if isinstance(value, dict):
        yield value.get("$type", owner), value
        for item in value.values():
            yield from _objects(item)
    elif isinstance(value, list):
        for item in value:
            yield from _objects(item)


def test_node_json_writes_every_framework_field_and_no_agentkit_field():
    """camelCase in the framework's declaration order; a cap of 0 is written (only null is the default of int?)."""
    node = EVERY_FIELD.node_json("Meridian/Agent")
    assert list(node) == ["id", "namespace", "name", "nodeType", "content"] and node["nodeType"] == "Agent"
    # verifies: agent.node-json
    assert list(node["content"]) == ["$type", "id", "description", "instructions", "isDefault", "delegations",
                                     "plugins", "maxToolCallsPerRound"]
    assert node["content"]["delegations"] == [
        {"$type": "AgentDelegation", "agentPath": "reader", "instructions": "Reads one page."}]
    assert node["content"]["maxToolCallsPerRound"] == 0 and node["content"]["isDefault"] is True
    # verifies: agent.strict-plugins-extension
    assert not {"model", "skills", "strictPlugins", "strict_plugins"} & set(node["content"])
    text = json.dumps(node)
    assert "example-large" not in text and "Write a worksheet." not in text


def test_node_json_reads_back_as_the_same_configuration():
    """from_node_content(content_json()) is the configuration, but for agentkit's own fields."""
    back = AgentConfiguration.from_node_content(json.loads(json.dumps(EVERY_FIELD.content_json())))
    assert (back.id, back.instructions, back.plugins, back.max_tool_calls_per_round, back.delegations, back.is_default) == (
        EVERY_FIELD.id, EVERY_FIELD.instructions, EVERY_FIELD.plugins, 0, ("reader",), True)
    assert [g for g in back.grants] == [g for g in EVERY_FIELD.grants]


MESHWEAVER_SOURCE = os.environ.get("MESHWEAVER_SOURCE", "")


def _framework_records() -> tuple[dict[str, list[str]], set[str]]:
    """The records of AgentConfiguration.cs at the pin with their properties in order, and the $type names AddAITypes registers."""
    from tests.test_plugins import _framework_file

    source = _framework_file("src/MeshWeaver.AI/AgentConfiguration.cs")
    records: dict[str, list[str]] = {}
    for match in re.finditer(r"public record (\w+)\s*\{(.*?)\n\}", source, re.DOTALL):
        records[match.group(1)] = re.findall(r"public (?:required )?[\w<>?]+ (\w+) \{ get; init; \}", match.group(2))
    registered = set(re.findall(r"WithType\(typeof\((\w+)\), nameof\(\1\)\)", _framework_file("src/MeshWeaver.AI/AIExtensions.cs")))
    return records, registered


@pytest.mark.skipif(not MESHWEAVER_SOURCE, reason=(
    "set MESHWEAVER_SOURCE to a MeshWeaver checkout or git dir to compare the agent node's JSON with AgentConfiguration.cs"))
def test_node_json_names_are_the_framework_s_properties_in_camel_case():
    """Each object's keys are its record's properties, camelCased (the hub's naming policy), in declaration order;
    each $type is a record of AgentConfiguration.cs that AddAITypes registers under its own name."""
    records, registered = _framework_records()
    assert records["AgentConfiguration"][:3] == ["Id", "Description", "Instructions"]  # the parse found the records
    assert "MaxToolCallsPerRound" in records["AgentConfiguration"] and records["AgentPluginReference"] == ["Name", "Methods"]
    camel = {name: [p[0].lower() + p[1:] for p in properties] for name, properties in records.items()}
    for type_name, obj in _objects(EVERY_FIELD.content_json()):
        # verifies: agent.node-json
        assert obj["$type"] == type_name and type_name in camel and type_name in registered
        keys = [key for key in obj if key != "$type"]
        # verifies: agent.node-json
        assert keys == [name for name in camel[type_name] if name in keys], (type_name, keys, camel[type_name])


def test_the_system_message_lists_delegations_and_hierarchy_agents():
    """T8: each delegation with its instructions, then each other agent of the hierarchy with its description."""
    from agentkit._config import DELEGATION_GUIDANCE, HIERARCHY_AGENT, THREAD_GUIDANCE

    lead = AgentConfiguration("lead", "Lead.", delegations=["Acme/reader"],
                              delegation_instructions={"Acme/reader": "Reads pages."})
    hierarchy = [lead, AgentConfiguration("reader"), AgentConfiguration("writer", description="Writes nodes."),
                 AgentConfiguration("checker")]
    lines = f"- reader: Reads pages.\n- writer: Writes nodes.\n- checker: {HIERARCHY_AGENT}"
    assert lead.round_instructions(hierarchy) == "Lead." + DELEGATION_GUIDANCE.replace("{agents}", lines) + THREAD_GUIDANCE
    plain = AgentConfiguration("writer", "Write.")
    assert plain.round_instructions() == "Write." + THREAD_GUIDANCE  # alone: no delegation block
    assert "- lead: Agent in hierarchy" in plain.round_instructions(hierarchy)
    from agentkit import Agent, Mesh
    from agentkit.guide import TextModel

    names = [tool.name for tool in Agent(plain, TextModel("ok"), Mesh(), hierarchy=hierarchy).offered]
    assert names[:3] == ["delegate_to_agent", "list_sub_threads", "send_to_sub_thread"]
    assert "delegate_to_agent" not in [tool.name for tool in Agent(plain, TextModel("ok"), Mesh()).offered]
    assert AgentConfiguration.from_node_content(
        lead.content_json()).delegation_instructions == {"Acme/reader": "Reads pages."}
    reread = AgentConfiguration.from_markdown("lead", AgentConfiguration("lead", "Lead.", description="Leads.",
                                               delegations=["reader"], delegation_instructions={"reader": "R."}).to_markdown())
    assert reread.description == "Leads." and reread.delegation_instructions == {"reader": "R."}
    with pytest.raises(ConfigurationError, match="not among the delegations"):
        AgentConfiguration("lead", delegation_instructions={"writer": "W."})
