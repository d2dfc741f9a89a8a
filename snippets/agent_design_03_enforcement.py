"""Hard versus soft enforcement: the plugins whitelist, maxToolCallsPerRound, and a prohibition in the prompt."""

import warnings

from agentkit import (
    BUDGET_TEXT, Agent, AgentConfiguration, ConfigurationError, Mesh, PlannedCalls, TextModel, Thread, ToolCall,
    UnknownPluginWarning, chunk_plugin, mesh_plugin, prohibition,
)

mesh = Mesh()
mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
HOST_TOOLS = mesh_plugin(mesh) + chunk_plugin(mesh)  # what the host has: Mesh and ContentChunks


def offered(plugins, **config):
    agent = Agent(AgentConfiguration("a", plugins=plugins, **config), TextModel("ok"), mesh, tools=HOST_TOOLS)
    return [tool.name for tool in agent.offered]


# --8<-- [start:whitelist]
print(offered(["Mesh:Get,Search,Create"]))
#> ['Get', 'Search', 'Create', 'store_plan', 'load_skill']
print(offered(["Mesh", "ContentChunks:get_chunk"])[-3:])
#> ['get_chunk', 'store_plan', 'load_skill']
# No list at all: read-only by default.
print(offered(None))
#> ['Get', 'Search', 'NavigateTo', 'store_plan', 'load_skill']
# --8<-- [end:whitelist]

# verifies: agent.whitelist-offers-only-listed
assert offered(["Mesh:Get,Search,Create"]) == ["Get", "Search", "Create", "store_plan", "load_skill"]
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UnknownPluginWarning)
    # verifies: agent.whitelist-offers-only-listed
    assert offered(["mesh:get"]) == ["store_plan", "load_skill"]  # plugin names are matched exactly
# verifies: agent.whitelist-offers-only-listed
assert offered(["Mesh: get , SEARCH"])[:2] == ["Get", "Search"]  # method names case-insensitively
# verifies: agent.no-list-is-read-only
assert offered(None) == offered([]) == ["Get", "Search", "NavigateTo", "store_plan", "load_skill"]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    unknown = offered(["Mesh:Get", "Chunks"])
# verifies: agent.unknown-plugin-warns
assert unknown == ["Get", "store_plan", "load_skill"] and [w.category for w in caught] == [UnknownPluginWarning]

# --8<-- [start:cap]
calls = [ToolCall("Get", {"path": "Acme"}) for _ in range(12)]
config = AgentConfiguration("a", "Read Acme.", plugins=["Mesh:Get"], max_tool_calls_per_round=3)
agent = Agent(config, PlannedCalls(calls, batch_size=4), mesh, tools=HOST_TOOLS)
run = agent.start(Thread("Acme/_Threads/t2"), "Go.")
# The cap of 3 allows three iterations, not three calls: eight calls are made.
print([len(turn.reply.tool_calls) for turn in run.turns])
#> [4, 4, 0]
# The last iteration is offered no tools.
print([len(turn.tools_offered) for turn in run.turns])
#> [3, 3, 0]
print(run.status, run.answer.splitlines()[0])
#> completed Stopped at the tool-call budget after 8 of 12 calls. Reply "continue" ...
# --8<-- [end:cap]

# verifies: agent.cap-counts-iterations
assert len(run.turns) == 3 and run.tool_calls == 8 > 3
# verifies: agent.cap-last-iteration-no-tools
assert run.turns[-1].tools_offered == () and run.status == "completed" and run.answer.startswith("Stopped")
# verifies: agent.cap-budget-text
assert agent.config.round_instructions() == "Read Acme.\n\n" + BUDGET_TEXT.format(n=3)
# verifies: agent.cap-budget-text
assert BUDGET_TEXT.format(n="{N}") == (
    "Tool-call budget: you may issue at most {N} tool calls in this turn. If you reach this budget before "
    "finishing, stop, briefly summarise what you accomplished, and ask the user to reply \"continue\" to run "
    "the next batch.")
for bad in (0, -1, True, 2.5):
    try:
        AgentConfiguration("a", max_tool_calls_per_round=bad)
    except ConfigurationError as refused:
        # verifies: agent.cap-must-be-positive
        assert "max_tool_calls_per_round must be" in str(refused)
    else:
        raise AssertionError(f"a cap of {bad!r} was accepted")
try:
    AgentConfiguration("a", plugins=["Mesh:Get,,Search"])
except ConfigurationError as refused:
    # verifies: agent.malformed-entry-refused
    assert "method 2 after ':' is empty" in str(refused)
else:
    raise AssertionError("a malformed plugins entry was accepted")

# --8<-- [start:prohibition]
# The prompt forbids the chunk tools; the model reaches for search_chunks when offered.
# Offered, the forbidden tool is called and runs.
print(prohibition(["Mesh:Get,Search,Create", "ContentChunks"]))
#> ProhibitionOutcome(plugins=(...), offered=True, executed=1, refused=0)
# Not offered, there is nothing to reach for.
print(prohibition(["Mesh:Get,Search,Create"]))
#> ProhibitionOutcome(plugins=(...), offered=False, executed=0, refused=0)
# Asked for anyway, the call is refused.
print(prohibition(["Mesh:Get,Search,Create"], insist=True))
#> ProhibitionOutcome(plugins=(...), offered=False, executed=0, refused=1)
# --8<-- [end:prohibition]

prompt_only = prohibition(["Mesh:Get,Search,Create", "ContentChunks"])
whitelist = prohibition(["Mesh:Get,Search,Create"])
insisting = prohibition(["Mesh:Get,Search,Create"], insist=True)
# verifies: agent.prompt-does-not-stop-offered-tool
assert (prompt_only.offered, prompt_only.executed) == (True, 1)
# verifies: agent.whitelist-removes-tool
assert (whitelist.offered, whitelist.executed, insisting.executed) == (False, 0, 0)
# verifies: agent.refused-call-recorded
assert insisting.refused == 1
