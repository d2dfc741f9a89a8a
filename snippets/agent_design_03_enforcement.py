"""Hard versus soft enforcement: the plugins whitelist, maxToolCallsPerRound, and a prohibition in the prompt."""

import json
import warnings

import agentkit
from agentkit import (
    BUDGET_TEXT, Agent, ConfigurationError, Mesh, Thread, ToolCall, UnknownPluginWarning, mesh_plugin,
)
from agentkit.guide import PlannedCalls, TextModel
from agentkit.guide import prohibition as run_prohibition
from agentkit._config import BUDGET_SEPARATOR, DEFAULT_MAXIMUM_ITERATIONS, THREAD_GUIDANCE
from agentkit._plugins import Tool, content_collection_plugin
from claimcheck import capture
from claimcheck.agentview import AgentView

# Every configuration built below is recorded for the page's "Agent node" listings (claimcheck/agentview.py).
VIEW = AgentView(__file__)
AgentConfiguration = VIEW.configurations(agentkit.AgentConfiguration)
OUTCOMES = []  # every prohibition run, in order: the checks below reuse the runs the listing prints


def prohibition(plugins, insist=False):
    OUTCOMES.append(run_prohibition(plugins, insist=insist, configuration=AgentConfiguration))
    return OUTCOMES[-1]


mesh = Mesh(node_types={"Company", "Agent"})
mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
HOST_TOOLS = mesh_plugin(mesh) + content_collection_plugin(mesh)  # the host's built-ins: Mesh, ContentCollection


def offered(plugins, delegations=(), is_default=False, tools=HOST_TOOLS):
    delegates = {name: Agent(AgentConfiguration(name), TextModel("ok"), mesh) for name in delegations}
    agent = Agent(AgentConfiguration("a", plugins=plugins, delegations=delegations, is_default=is_default),
                  TextModel("ok"), mesh, tools=tools, delegates=delegates)
    return [tool.name for tool in agent.offered]


ALWAYS = ["store_plan", "load_skill", "check_inbox"]


# --8<-- [start:whitelist]
print(offered(["Mesh:Get,Search,Create,Update,Patch"]))
#> ['Get', 'Search', 'Create', 'Update', 'Patch', 'store_plan', 'load_skill', 'check_inbox']
# A list without Mesh offers no Mesh tool at all:
print(offered(["ContentCollection:searchchunks, GETCHUNK"]))
#> ['SearchChunks', 'GetChunk', 'store_plan', 'load_skill', 'check_inbox']
# No list (or an empty one): the read-only Mesh tools.
print(offered(None))
#> ['Get', 'Search', 'NavigateTo', 'GetDiagnostics', 'store_plan', 'load_skill', 'check_inbox']
# --8<-- [end:whitelist]

# verifies: agent.whitelist-offers-only-listed
assert offered(["Mesh:Get,Search,Create,Update,Patch"]) == ["Get", "Search", "Create", "Update", "Patch", *ALWAYS]
# verifies: agent.plugin-entry-parsing
assert offered([" Mesh : patch , GET "]) == ["Get", "Patch", *ALWAYS]  # trimmed, any case
# verifies: agent.whitelist-offers-only-listed
assert offered(["Mesh:Get", "Mesh:Get"]) == ["Get", "Get", *ALWAYS]  # entries add up as given
# verifies: agent.no-list-is-read-only
assert offered(None) == offered([]) == ["Get", "Search", "NavigateTo", "GetDiagnostics", *ALWAYS]
# verifies: agent.no-list-is-read-only
assert not {"Get", "Search"} & set(offered(["ContentCollection"]))
# A host that runs from the framework's source tree has RunTests in its Mesh plugin (agentkit's has none):
DEV_HOST = [*HOST_TOOLS, Tool("RunTests", "Mesh", "RunTests(project, filter?): dotnet test.", lambda a: "")]
# verifies: agent.runtests-on-source-host
assert offered(None, tools=DEV_HOST) == ["Get", "Search", "NavigateTo", "GetDiagnostics", "RunTests", *ALWAYS]
# verifies: agent.runtests-on-source-host
assert "RunTests" not in offered(None) and "RunTests" not in offered(["Mesh:Get"], tools=DEV_HOST)
# A model known not to support tools is offered none, check_inbox included:
toolless = TextModel("ok")
toolless.supports_tools = False
plain = Agent(AgentConfiguration("a", plugins=["Mesh"]), toolless, mesh, tools=HOST_TOOLS).start(
    Thread("Acme/_Thread/t0"), "Hi.")
# verifies: agent.toolless-model-offered-nothing, agent.whitelist-offers-only-listed
assert plain.turns[0].tools_offered == () and offered(["Mesh"])[-1] == "check_inbox"
# verifies: agent.delegation-tools-offered
assert offered(["Mesh:Get"], delegations=["reader"])[:4] == ["delegate_to_agent", "list_sub_threads",
                                                          "send_to_sub_thread", "Get"]
# verifies: agent.delegation-tools-offered
assert offered(["Mesh:Get"], is_default=True) == ["delegate_to_agent", "list_sub_threads", "send_to_sub_thread",
                                                  "Get", *ALWAYS]  # the default agent, too

# --8<-- [start:malformed]
# Nothing is validated: "Mesh:" names one empty method, which matches no tool.
print(offered(["Mesh:"]))
#> ['store_plan', 'load_skill', 'check_inbox']
# Built-in plugin names are case-sensitive: 'mesh' is looked up among the host's own plugins.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(offered(["mesh:Get"]))
#> ['store_plan', 'load_skill', 'check_inbox']
print(caught[0].message)
#> Plugin 'mesh' not found for agent a
# --8<-- [end:malformed]
capture("agent_node_whitelist.md", VIEW.agent_nodes("whitelist", "malformed"))

# verifies: agent.malformed-entry-accepted
assert offered(["Mesh:"]) == ALWAYS and offered(["Mesh:Get,,Search"])[:2] == ["Get", "Search"]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    unknown = offered(["Mesh:Get", "Chunks", "Mesh:Craete"])
# verifies: agent.unknown-plugin-warns
assert unknown == ["Get", *ALWAYS] and [str(w.message) for w in caught] == [
    "Plugin 'Chunks' not found for agent a"]  # an unknown method is filtered out without a word
# verifies: agent.unknown-plugin-warns
assert [w.category for w in caught] == [UnknownPluginWarning]
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    # verifies: agent.plugin-entry-parsing
    assert offered(["mesh:Get"]) == offered(["MESH"]) == ALWAYS and offered(["Mesh:get"]) == ["Get", *ALWAYS]
for entry, reason in (("Mesh:", "method 1 after ':' is empty"), ("Mesh:Get,,Search", "method 2 after ':' is empty"),
                      ("mesh thing", "must be letters, digits and '_'")):
    try:
        AgentConfiguration("a", plugins=[entry], strict_plugins=True)
    except ConfigurationError as refused:
        # verifies: agent.strict-plugins-extension
        assert reason in str(refused) and "plugins[0]" in str(refused)
    else:
        raise AssertionError(f"strict_plugins accepted {entry!r}")
# verifies: agent.strict-plugins-extension
assert AgentConfiguration("a", plugins=["Mesh:"]).strict_plugins is False  # off by default
# verifies: agent.strict-plugins-extension
assert AgentConfiguration("a", plugins=["Mesh:Get"], strict_plugins=True).node_json() == \
    AgentConfiguration("a", plugins=["Mesh:Get"]).node_json()  # the switch is not part of the agent node

# --8<-- [start:cap]
calls = [ToolCall("Get", {"path": "Acme"}) for _ in range(20)]
config = AgentConfiguration("a", "Read Acme.", plugins=["Mesh:Get"], max_tool_calls_per_round=3)
agent = Agent(config, PlannedCalls(calls, batch_size=4), mesh, tools=HOST_TOOLS)
run = agent.start(Thread("Acme/_Thread/t2"), "Go.")
# A cap of 3 allows three tool batches, not three calls: twelve calls run,
# then the model is called once more, without tools, and answers in text.
print([len(turn.reply.tool_calls) for turn in run.turns], run.tool_calls)
#> [4, 4, 4, 0] 12
print([len(turn.tools_offered) for turn in run.turns])  # Get, store_plan, load_skill, check_inbox
#> [4, 4, 4, 0]
print(run.status, run.answer.splitlines()[0])
#> completed Stopped at the tool-call budget after 12 of 20 calls. Reply "continue" ...
# --8<-- [end:cap]

cap = config.max_tool_calls_per_round
# verifies: agent.cap-counts-tool-batches
assert len(run.turns) == cap + 1 and sum(len(t.results) for t in run.turns) == cap * 4 == 12 == run.tool_calls
# verifies: agent.cap-counts-tool-batches
assert run.turns[-1].tools_offered == () and all(len(t.tools_offered) == 4 for t in run.turns[:cap])
# verifies: agent.cap-last-call-not-run
assert run.status == "completed" and run.answer.startswith("Stopped at the tool-call budget after 12 of 20")
unbounded = Agent(AgentConfiguration("a", plugins=["Mesh:Get"]), PlannedCalls(calls * 5, batch_size=1), mesh,
                  tools=HOST_TOOLS).start(Thread("Acme/_Thread/t3"), "Go.")
# verifies: agent.cap-default-forty
assert (len(unbounded.turns), unbounded.tool_calls) == (DEFAULT_MAXIMUM_ITERATIONS + 1, DEFAULT_MAXIMUM_ITERATIONS) == (41, 40)
stubborn = Agent(AgentConfiguration("a", plugins=["Mesh:Get"], max_tool_calls_per_round=1),
                 PlannedCalls(calls, batch_size=None), mesh, tools=HOST_TOOLS).start(Thread("Acme/_Thread/t4"), "Go.")
# verifies: agent.cap-counts-tool-batches
assert [len(t.results) for t in stubborn.turns] == [20, 0] and stubborn.status == "completed"  # a batch is not capped
# A response that calls only check_inbox uses up a batch like any other:
inbox = [ToolCall("check_inbox"), ToolCall("Get", {"path": "Acme"})] * 3
polled = Agent(config, PlannedCalls(inbox, batch_size=1), mesh, tools=HOST_TOOLS).start(Thread("Acme/_Thread/t6"), "Go.")
# verifies: agent.check-inbox-uses-batch
assert [r.name for t in polled.turns for r in t.results] == ["check_inbox", "Get", "check_inbox"]
# verifies: agent.check-inbox-uses-batch
assert len(polled.turns) == cap + 1 and polled.turns[0].results[0].text == "(no new messages)"
# verifies: agent.cap-budget-text, agent.cap-budget-text-wording
assert agent.config.round_instructions() == "Read Acme." + THREAD_GUIDANCE + BUDGET_SEPARATOR + BUDGET_TEXT.format(n=3)
# verifies: agent.cap-budget-text, agent.cap-budget-text-wording
assert BUDGET_SEPARATOR == "\n\n---\n" and BUDGET_TEXT.format(n="{N}") == (
    "Tool-call budget: you may issue at most {N} tool calls in this turn. If you reach this budget before "
    "finishing, stop, briefly summarise what you accomplished, and ask the user to reply \"continue\" to run "
    "the next batch.")
for no_cap in (None, 0, -5):
    quiet = AgentConfiguration("a", "Read Acme.", max_tool_calls_per_round=no_cap)
    # verifies: agent.cap-budget-text
    assert quiet.round_instructions() == "Read Acme." + THREAD_GUIDANCE \
        and quiet.iteration_cap == DEFAULT_MAXIMUM_ITERATIONS == 40

node = config.node_json()
# verifies: agent.node-json
assert node == {"id": "a", "name": "a", "nodeType": "Agent", "content": {
    "$type": "AgentConfiguration", "id": "a", "instructions": "Read Acme.",
    "plugins": [{"$type": "AgentPluginReference", "name": "Mesh", "methods": ["Get"]}], "maxToolCallsPerRound": 3}}
# verifies: agent.node-json
assert AgentConfiguration.from_node_content(json.loads(json.dumps(node))["content"]) == config  # the same agent
# verifies: agent.node-json
assert AgentConfiguration("a").node_json()["content"] == {"$type": "AgentConfiguration", "id": "a"}  # no null, no default
# verifies: agent.plugins-stored-parsed
assert AgentConfiguration("a", plugins=["Mesh", " Mesh : Get ,Search", "Mesh:"]).content_json()["plugins"] == [
    {"$type": "AgentPluginReference", "name": "Mesh"},
    {"$type": "AgentPluginReference", "name": "Mesh", "methods": ["Get", "Search"]},
    {"$type": "AgentPluginReference", "name": "Mesh", "methods": [""]}]  # stored parsed (A1)
# verifies: agent.node-json
assert AgentConfiguration("lead", delegations=["reader"], is_default=True).content_json() == {
    "$type": "AgentConfiguration", "id": "lead", "isDefault": True,
    "delegations": [{"$type": "AgentDelegation", "agentPath": "reader"}]}
# verifies: agent.listings-show-agent-nodes
assert all(json.loads(VIEW.agent_nodes(*sections).split("```json\n", 1)[1].split("\n```")[0])["nodeType"] == "Agent"
           for sections in (("whitelist",), ("cap",)))  # the listings show nodes of the configurations built
# verifies: agent.node-json
assert mesh.create(node).path == "a" and mesh.get("a").content == node["content"]  # what Create takes

# --8<-- [start:front-matter]
agent_file = """---
nodeType: Agent
plugins: ["Mesh:Get,Search,Create,Update,Patch"]
maxToolCallsPerRound: 30
---
Extract the report."""
print(AgentConfiguration.from_markdown("extractor", agent_file).max_tool_calls_per_round)
#> None
agent_node_content = {"id": "extractor", "instructions": "Extract the report.", "maxToolCallsPerRound": 30,
                      "plugins": [{"name": "Mesh", "methods": ["Get", "Search", "Create", "Update", "Patch"]}]}
print(AgentConfiguration.from_node_content(agent_node_content).max_tool_calls_per_round)
#> 30
# --8<-- [end:front-matter]

from_file = AgentConfiguration.from_markdown("extractor", agent_file)
# verifies: agent.cap-not-in-front-matter
assert from_file.max_tool_calls_per_round is None and from_file.iteration_cap == 40
# verifies: agent.cap-not-in-front-matter
assert AgentConfiguration.from_node_content(agent_node_content).iteration_cap == 30
# verifies: agent.cap-not-in-front-matter
assert from_file.plugins == AgentConfiguration.from_node_content(agent_node_content).plugins  # the rest is read
# A file-system mesh writes the agent node as Markdown: read back, the cap is gone, the rest stays.
from_json = AgentConfiguration.from_node_content(agent_node_content)
reread = AgentConfiguration.from_markdown("extractor", from_json.to_markdown())
# verifies: agent.cap-not-in-front-matter
assert from_json.iteration_cap == 30 and reread.max_tool_calls_per_round is None and reread.iteration_cap == 40
# verifies: agent.cap-not-in-front-matter
assert (reread.plugins, reread.instructions) == (from_json.plugins, from_json.instructions)

# --8<-- [start:prohibition]
# The prompt forbids the chunk tools; the model reaches for SearchChunks when offered.
# Offered, the forbidden tool is called and runs.
print(prohibition(["Mesh:Get,Search,Create,Update,Patch", "ContentCollection"]))
#> ProhibitionOutcome(plugins=(...), offered=True, executed=1, refused=0)
# Not offered, there is nothing to reach for.
print(prohibition(["Mesh:Get,Search,Create,Update,Patch"]))
#> ProhibitionOutcome(plugins=(...), offered=False, executed=0, refused=0)
# Asked for anyway, the call gets an error as its result and runs nothing.
print(prohibition(["Mesh:Get,Search,Create,Update,Patch"], insist=True))
#> ProhibitionOutcome(plugins=(...), offered=False, executed=0, refused=1)
# --8<-- [end:prohibition]
capture("agent_node_cap.md", VIEW.agent_nodes("cap", "front-matter", "prohibition"))

prompt_only, whitelist, insisting = OUTCOMES
assert [outcome.plugins for outcome in OUTCOMES] == [("Mesh:Get,Search,Create,Update,Patch", "ContentCollection"),
                                                     *[("Mesh:Get,Search,Create,Update,Patch",)] * 2]
# verifies: agent.prompt-does-not-stop-offered-tool
assert (prompt_only.offered, prompt_only.executed) == (True, 1)
# verifies: agent.prompt-does-not-stop-offered-tool
assert (whitelist.offered, whitelist.executed, insisting.executed) == (False, 0, 0)
# verifies: agent.refused-call-recorded
assert insisting.refused == 1
asking = Agent(AgentConfiguration("a", plugins=["Mesh:Get"]),
               PlannedCalls([ToolCall("Create", {"node": "{}"}), ToolCall("Get", {"path": "Acme"})]), mesh,
               tools=HOST_TOOLS).start(Thread("Acme/_Thread/t5"), "Go.")
# verifies: agent.unoffered-call-error
assert asking.turns[0].results[0].text == 'Error: Requested function "Create" not found.'
# verifies: agent.unoffered-call-error
assert asking.turns[1].results[0].name == "Get" and asking.status == "completed"
