"""Tests for agentkit/_config.py: the plugin whitelist and the tool-call budget settings."""

from __future__ import annotations

import warnings

import pytest

from agentkit import ConfigurationError, Mesh, UnknownPluginWarning, chunk_plugin, mesh_plugin
from agentkit._config import (
    BUDGET_TEXT,
    AgentConfiguration,
    PluginGrant,
    parse_plugin_entry,
)
from agentkit._plugins import Tool

BUILTINS = [Tool(name, "Agent", name, lambda arguments: "") for name in
            ("store_plan", "load_skill", "delegate_to_agent")]


@pytest.fixture
def available() -> list[Tool]:
    mesh = Mesh()
    return mesh_plugin(mesh) + chunk_plugin(mesh)


def _offered(config: AgentConfiguration, available: list[Tool]) -> list[str]:
    return [tool.name for tool in config.offered_tools(available, BUILTINS)]


def test_entry_forms_split_on_first_colon_then_commas_trimmed():
    """'Name' grants a whole plugin; 'Name: A , B' grants the trimmed methods."""
    assert parse_plugin_entry("Mesh") == PluginGrant("Mesh")
    assert parse_plugin_entry("  Mesh : Get , search ") == PluginGrant("Mesh", ("Get", "search"))


def test_no_plugins_list_offers_read_only_mesh_tools(available):
    """Absent or empty, the list offers Get, Search and NavigateTo (plus the always-added tools)."""
    expected = ["Get", "Search", "NavigateTo", "store_plan", "load_skill"]
    assert _offered(AgentConfiguration("a"), available) == expected
    assert _offered(AgentConfiguration("a", plugins=[]), available) == expected


def test_methods_are_matched_case_insensitively(available):
    """'Mesh:get,CREATE' offers Get and Create and nothing else of the Mesh plugin."""
    config = AgentConfiguration("a", plugins=["Mesh:get,CREATE"])
    assert _offered(config, available) == ["Get", "Create", "store_plan", "load_skill"]


def test_whitelisting_the_mesh_removes_the_chunk_tools(available):
    """Chunk tools are offered only when their plugin is listed."""
    only_mesh = _offered(AgentConfiguration("a", plugins=["Mesh:Get,Search,Create"]), available)
    both = _offered(AgentConfiguration("a", plugins=["Mesh:Get", "ContentChunks"]), available)
    assert "search_chunks" not in only_mesh and "get_chunk" not in only_mesh
    assert both == ["Get", "search", "search_chunks", "get_chunk", "store_plan", "load_skill"]


def test_delegation_tool_is_offered_only_with_delegations(available):
    """delegate_to_agent appears exactly when the agent has delegations."""
    assert "delegate_to_agent" not in _offered(AgentConfiguration("a"), available)
    assert "delegate_to_agent" in _offered(AgentConfiguration("a", delegations=["reader"]), available)


def test_unknown_plugin_only_warns(available):
    """An unknown plugin name warns, names the known plugins, and offers nothing from it."""
    config = AgentConfiguration("a", plugins=["Mesh:Get", "Charts"])
    with pytest.warns(UnknownPluginWarning, match=r"unknown plugin 'Charts'.*known plugins: ContentChunks, Mesh"):
        offered = _offered(config, available)
    assert offered == ["Get", "store_plan", "load_skill"]


def test_unknown_method_of_a_known_plugin_warns(available):
    """A misspelt method warns instead of silently offering nothing."""
    config = AgentConfiguration("a", plugins=["Mesh:Get,Craete"])
    with pytest.warns(UnknownPluginWarning, match="plugin 'Mesh' has no method 'Craete'"):
        assert _offered(config, available) == ["Get", "store_plan", "load_skill"]


def test_known_plugins_do_not_warn(available):
    """A correct whitelist raises no warning at all."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _offered(AgentConfiguration("a", plugins=["Mesh:Get,Create", "ContentChunks"]), available)


@pytest.mark.parametrize("entry, message", [
    ("", "plugin name is empty"),
    ("   ", "plugin name is empty"),
    (":Get", "plugin name is empty"),
    ("Mesh:", "method 1 after ':' is empty"),
    ("Mesh:Get,,Create", "method 2 after ':' is empty"),
    ("Mesh:Get:Create", "method 'Get:Create' must be letters"),
    ("Me sh", "plugin name 'Me sh' must be letters"),
    (42, "an entry must be a string"),
])
def test_malformed_entry_is_a_clear_error(entry, message):
    """A malformed entry raises ConfigurationError naming the entry, the fault and the two valid forms."""
    with pytest.raises(ConfigurationError, match=message) as raised:
        AgentConfiguration("a", plugins=["Mesh", entry])
    assert "plugins[1]" in str(raised.value) and "Name:Method1,Method2" in str(raised.value)


def test_a_bare_string_is_not_a_plugins_list():
    """plugins='Mesh' is refused rather than read as five one-letter plugins."""
    with pytest.raises(ConfigurationError, match=r"write \['Mesh'\]"):
        AgentConfiguration("a", plugins="Mesh")


@pytest.mark.parametrize("cap", [0, -1, -100])
def test_zero_or_negative_cap_is_a_clear_error(cap):
    """A cap below 1 is refused: it would leave no iteration to answer in."""
    with pytest.raises(ConfigurationError, match=f"max_tool_calls_per_round must be >= 1, got {cap}"):
        AgentConfiguration("a", max_tool_calls_per_round=cap)


@pytest.mark.parametrize("cap", [True, 2.5, "3"])
def test_non_integer_cap_is_a_clear_error(cap):
    """The cap must be a whole number (a bool is not one)."""
    with pytest.raises(ConfigurationError, match="whole number"):
        AgentConfiguration("a", max_tool_calls_per_round=cap)


def test_budget_text_is_appended_verbatim():
    """With a cap the framework's budget sentence follows the instructions, word for word."""
    config = AgentConfiguration("a", "Extract the facts.", max_tool_calls_per_round=12)
    assert config.round_instructions() == (
        "Extract the facts.\n\nTool-call budget: you may issue at most 12 tool calls in this turn. "
        "If you reach this budget before finishing, stop, briefly summarise what you accomplished, "
        'and ask the user to reply "continue" to run the next batch.')
    assert BUDGET_TEXT.format(n=12) in config.round_instructions()
    assert AgentConfiguration("a", "Extract the facts.").round_instructions() == "Extract the facts."


def test_agent_id_must_be_a_slug():
    """An agent id with a slash or a space is refused."""
    with pytest.raises(ConfigurationError, match="must be a slug"):
        AgentConfiguration("my agent")
