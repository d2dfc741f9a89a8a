"""agentkit/_config.py beyond snippets/agent_design_0[23]*.py (the whitelist, the cap and its text: A1-A8, T8)."""

from __future__ import annotations

import json
import os
import re

import pytest

from agentkit import Agent, ConfigurationError, Mesh, mesh_plugin
from agentkit._config import (
    DEFAULT_MAXIMUM_ITERATIONS,
    THREAD_GUIDANCE,
    AgentConfiguration,
    PluginGrant,
    parse_plugin_entry,
)
from agentkit._delegation import named_agent
from agentkit._plugins import Tool
from agentkit.guide import TextModel
from guidetools import stated


def _tool(name: str, plugin: str) -> Tool:
    return Tool(name, plugin, name, lambda arguments: "")


def test_entry_splits_at_the_first_colon_then_on_commas_every_part_trimmed():
    """A1 (stored parsed: snippets/agent_design_03_enforcement.py, agent.plugins-stored-parsed)."""
    # verifies: agent.plugin-entry-parsing
    assert parse_plugin_entry("Mesh:Get:Create") == PluginGrant("Mesh", ("Get:Create",))
    assert parse_plugin_entry("Mesh:Get,,Search") == PluginGrant("Mesh", ("Get", "", "Search"))


def test_host_plugins_match_ignoring_case():
    """A2: a plugin that is not built in (here a custom one, WebSearch) is found by name ignoring case."""
    collection = [_tool(name, "ContentCollection") for name in ("UploadContent", "SearchChunks", "GetChunk")]
    available = mesh_plugin(Mesh()) + collection + [_tool("Find", "WebSearch")]
    builtins = [_tool(name, "Agent") for name in
                ("delegate_to_agent", "list_sub_threads", "send_to_sub_thread", "store_plan", "load_skill")]
    offered = AgentConfiguration("a", plugins=["websearch"]).offered_tools(available, builtins)
    assert [tool.name for tool in offered] == ["Find", "store_plan", "load_skill"]


def _strict(entry, fault: str):  # strict_plugins names the entry, the fault and the two valid forms
    return pytest.param("a", {"plugins": ["Mesh", entry], "strict_plugins": True},
                        rf"^plugins\[1\] = .*{fault}.*; write 'Name' .* or 'Name:Method1,Method2'",
                        id=f"strict {entry!r}")


@pytest.mark.parametrize("agent_id, settings, message", [
    pytest.param("a", {"plugins": "Mesh"}, r"write \['Mesh'\]", id="plugins a bare string"),
    pytest.param("a", {"max_tool_calls_per_round": True}, "whole number", id="cap a bool"),
    pytest.param("a", {"max_tool_calls_per_round": 2.5}, "whole number", id="cap a fraction"),
    pytest.param("a", {"max_tool_calls_per_round": "3"}, "whole number", id="cap a text"),
    pytest.param("my agent", {}, "must be a slug", id="id not a slug"),
    *[_strict(entry, fault) for entry, fault in [("", "plugin name is empty"), (":Get", "plugin name is empty"),
      ("Mesh:Get:Create", "method 'Get:Create' must be letters"), ("Me sh", "plugin name 'Me sh' must be letters"),
      (42, "an entry must be a string")]],  # (off by default, empty methods: snippets/agent_design_03_enforcement.py)
])
def test_a_malformed_configuration_is_refused(agent_id, settings, message):
    """plugins='Mesh' is not five one-letter plugins; the cap is an int? in the framework."""
    with pytest.raises(ConfigurationError, match=message):
        AgentConfiguration(agent_id, **settings)


def test_a_markdown_file_without_node_type_agent_is_not_an_agent():
    assert AgentConfiguration.from_markdown("a", "---\nnodeType: agent\n---\nHi").instructions == "Hi"
    with pytest.raises(ConfigurationError, match="not an agent file"):
        AgentConfiguration.from_markdown("a", "---\nnodeType: Markdown\n---\nHi")


def test_the_page_states_the_cap_rules_as_configured():
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


def _objects(value, owner: str = "AgentConfiguration"):  # every JSON object in it, with the record it stands for
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
    """The hub's camelCase, in declaration order; each $type a record AddAITypes registers under its own name."""
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
    """T8, for an agent that delegates to none (one that does: snippets/agent_design_02_rounds.py)."""
    lead = AgentConfiguration("lead", "Lead.", description="Leads.", delegations=["Acme/reader"],
                              delegation_instructions={"Acme/reader": "Reads pages."})
    hierarchy = [lead, AgentConfiguration("reader"), AgentConfiguration("writer", description="Writes nodes."),
                 AgentConfiguration("checker")]
    plain = AgentConfiguration("writer", "Write.")
    assert "- lead: Leads.\n- reader: Agent in hierarchy\n" in plain.round_instructions(hierarchy)
    names = [tool.name for tool in Agent(plain, TextModel("ok"), Mesh(), hierarchy=hierarchy).offered]
    assert names[:3] == ["delegate_to_agent", "list_sub_threads", "send_to_sub_thread"]
    for reread in AgentConfiguration.from_node_content(lead.content_json()), AgentConfiguration.from_markdown(
            "lead", lead.to_markdown()):  # the node and the Markdown file keep them
        assert (reread.description, reread.delegation_instructions) == ("Leads.", {"Acme/reader": "Reads pages."})
    with pytest.raises(ConfigurationError, match="not among the delegations"):
        AgentConfiguration("lead", delegation_instructions={"writer": "W."})


# Step 1 in any case, the parentheses form and an address that is no reference: snippets/agent_design_23_delegation.py.
@pytest.mark.parametrize("text, expected", [
    ("Ask @agent/nobody, or @Acme/Agent/reader now.", "reader"),  # step 1 misses: step 2
    ("Ask @Acme/Agent/reader.", None),  # the direct form takes the full stop into the path
    ("See @Acme/Agent/checker then @reader.", "checker"),  # the first matching reference wins
    ('Use @"Acme/Agent/Checker".', "checker"),  # the quoted form
    ("@model/reader and @agent/", None),  # command forms are not references
    ("No reference.", None),
])
def test_named_agent_follows_select_agent(text, expected):
    assert named_agent(text, ["reader", "checker"]) == expected
