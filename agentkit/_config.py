"""AgentConfiguration: which tools an agent is offered, and its tool-call budget.

The enforcement surface of the framework, modelled as it behaves at the pinned
commit (facts A1-A8):

* A ``plugins`` entry reads ``"Name"`` (the whole plugin) or
  ``"Name:Method1,Method2"``: split at the first ``:``, the name trimmed, the
  rest split on ``,`` and each part trimmed. Nothing is validated, so
  ``"Mesh:"`` names the method ``""`` and offers no tool (A1).
* The built-in plugin names (``Mesh``, ``Version``, ``Collaboration``,
  ``ContentCollection``, ``Lsp``, ``AgentFiles``) match case-sensitively; any
  other name is looked up among the host's own plugins ignoring case, and an
  unknown one only logs ``Plugin '{PluginName}' not found for agent
  {AgentName}``. Method names ignore case; an unknown method is silently
  filtered out (A2).
* An empty or absent list offers the read-only Mesh tools (``Get``,
  ``Search``, ``NavigateTo``, ``GetDiagnostics``); a list without ``Mesh``
  offers no Mesh tool at all (A3).
* ``store_plan`` and ``load_skill`` are always offered; an agent with
  delegations, and the default agent (``is_default``), is offered
  ``delegate_to_agent``, ``list_sub_threads`` and ``send_to_sub_thread``
  (A4). Every round also offers ``check_inbox`` (the chat client adds it to
  the round's tools, whatever the list), and a model known not to support
  tools is offered nothing at all (see ``_runtime``). Order: delegation tools,
  the plugins' tools in entry order, ``store_plan``, ``load_skill``, then
  ``check_inbox``. The delegation tools are offered too when the agent's
  hierarchy (``hierarchy=``, the chat's agents) holds more than one agent.
  Not modelled: ``handoff_to_agent`` to an agent with handoffs.
* The system message is the instructions, then the framework's guidance
  (``THREAD_GUIDANCE``, after a ``DELEGATION_GUIDANCE`` block listing each
  delegation with its ``delegation_instructions`` and each other agent of the
  hierarchy with its ``description``), then the budget text (T8;
  ``round_instructions``). Not modelled: handoffs, the chat's context and the text of the round's
  attachments, which the framework appends after the context.
* ``max_tool_calls_per_round`` > 0 appends ``"\\n\\n---\\n"`` and the budget
  text to the instructions and sets the iteration cap; 0, a negative number
  or None leaves the default of 40 iterations and adds no text (A6, A7).
* Markdown front matter cannot set ``maxToolCallsPerRound`` (unknown keys are
  ignored); an agent node's JSON content can (A8).
* An agent node (``nodeType: Agent``) carries the configuration as its
  content, written as the framework's JSON options write its
  ``AgentConfiguration`` (A9): camelCase names in declaration order, ``$type``
  on every object, null and default values left out. :meth:`AgentConfiguration.node_json`
  writes it from the same object the runtime uses.

Extension (off by default): ``strict_plugins=True`` refuses a malformed
entry when the configuration is built, instead of letting it offer nothing.
It is agentkit's switch, not a property of the framework's configuration, so
the node's JSON never carries it; nor ``model`` and ``skills``, which the
framework keeps elsewhere (the composer picks the model; skills are nodes of
their own).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import yaml

from ._errors import ConfigurationError, UnknownPluginWarning
from ._plugins import MESH_PLUGIN

BUILT_IN_PLUGINS = ("Mesh", "Version", "Collaboration", "ContentCollection", "Lsp", "AgentFiles")
READ_ONLY_MESH_METHODS = ("Get", "Search", "NavigateTo", "GetDiagnostics")
# Added to the Mesh plugin's tools (the default set and the whole plugin) only on a host whose executable sits
# below the framework's source tree (MeshWeaver.slnx); agentkit's own Mesh plugin, like a deployed host, has none.
SOURCE_TREE_MESH_METHODS = ("RunTests",)
ALWAYS_OFFERED = ("store_plan", "load_skill")
CHECK_INBOX = "check_inbox"  # added by the chat client to every round of a tool-capable model
CHECK_INBOX_DESCRIPTION = (  # the framework's InboxTool.ToolDescription
    "Check if the user has sent any new messages while you were working. "
    "Call this between major steps — after each tool call or before starting a new file edit — "
    "so the user can steer you mid-task. Returns the message text(s) the user typed "
    "since you last checked, or '(no new messages)' if the queue is empty. "
    "Once a message is returned by this tool it is permanently delivered to you "
    "(it won't be re-delivered on a future call) — fold it into your current response."
)
NO_NEW_MESSAGES = "(no new messages)"
DELEGATION_TOOL = "delegate_to_agent"
DELEGATION_TOOLS = (DELEGATION_TOOL, "list_sub_threads", "send_to_sub_thread")
DEFAULT_MAXIMUM_ITERATIONS = 40  # Microsoft.Extensions.AI's MaximumIterationsPerRequest when no cap is set
BUDGET_SEPARATOR = "\n\n---\n"
BUDGET_TEXT = (
    "Tool-call budget: you may issue at most {n} tool calls in this turn. If you reach this "
    "budget before finishing, stop, briefly summarise what you accomplished, and ask the user "
    'to reply "continue" to run the next batch.'
)
# The framework's own guidance, appended to every agent's instructions (T8: ChatClientAgentFactory.cs:775-798,
# BuildInstructionsWithDelegations' threadInspectionAndSummary, quoted as the raw string reads: 1,249 characters).
THREAD_GUIDANCE = """
**Reading prior thread messages:**
Use the `search` tool with `nodeType:ThreadMessage` to find conversation cells.
  - One thread: `search "path:{threadPath} scope:descendants nodeType:ThreadMessage"`
  - One sub-thread (delegation child): same shape with the sub-thread's path.
  - Project only the fields you need with `select:` — e.g.
    `search "path:{threadPath} scope:descendants nodeType:ThreadMessage select:text,summary,role,timestamp"`.
  - To read the dedicated summary of a completed sub-thread directly,
    `get "{subThreadPath}"` and read `content.summary` (filled atomically
    with `content.status=Idle`).
Use `select:summary` when scanning many cells — it returns the one-line
digest without the verbose `text`, so you can survey a deep thread cheaply.

**End every response with a <summary> block:**
At the very end of your response, on its own line, emit:
  `<summary>One- or two-sentence distillation of what you did or decided.</summary>`
The framework strips this from what the user sees and stores it as the
dedicated summary on both the response message and the thread. When a
parent agent delegated to you, this summary IS the tool-call result it
receives back — not your verbose response. Be tight and outcome-focused.
"""
# The delegation block (T8: ChatClientAgentFactory.cs:834-849), before the guidance, for an agent with delegations;
# {agents} is one line per delegation, "- {id}: {instructions}", then one per other hierarchy agent, "- {id}: {description}".
DELEGATION_GUIDANCE = """
**Agent Delegation:**
You have access to a delegate_to_agent tool to route requests to specialized agents.
Use delegation when you need a result back — the delegated agent runs in isolation and returns its result to you.

**Available Agents for Delegation:**
{agents}

**How to delegate:**
1. Identify which specialized agent can best handle the user's request
2. Call the delegate_to_agent tool with the agent name and your task description
3. The delegated agent will execute the task and return its result to you
4. Relay or summarize the result to the user
"""
PLUGIN_NOT_FOUND = "Plugin '{PluginName}' not found for agent {AgentName}"
AGENT_NODE_TYPE = "Agent"
# The $type names the framework registers (AIExtensions.AddAITypes: WithType(typeof(T), nameof(T))).
CONFIGURATION_TYPE = "AgentConfiguration"
PLUGIN_REFERENCE_TYPE = "AgentPluginReference"
DELEGATION_TYPE = "AgentDelegation"
HIERARCHY_AGENT = "Agent in hierarchy"  # a hierarchy agent's line when it has no description (T8)

def _last_segment(path: str) -> str:
    return path.split("/")[-1]


def _delegation_instructions(entries: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    # The instructions of each delegation entry that has any, by its path.
    return {entry.get("agentPath", ""): entry["instructions"] for entry in entries if entry.get("instructions")}


_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_ENTRY_FORMS = "write 'Name' for a whole plugin or 'Name:Method1,Method2' for some of its methods"


@dataclass(frozen=True)
class PluginGrant:
    """One parsed ``plugins`` entry: a plugin and, optionally, the methods it is limited to."""

    plugin: str
    methods: tuple[str, ...] | None = None  # None: every method of the plugin

    def allows(self, method: str) -> bool:
        """Whether ``method`` passes the filter; methods ignore case, and an empty name matches none."""
        return not self.methods or method.casefold() in {m.casefold() for m in self.methods}


def parse_plugin_entry(entry: str) -> PluginGrant:
    """Parse one ``plugins`` entry as the framework does: first ``:``, then ``,``, every part trimmed."""
    name, colon, methods_text = entry.partition(":")
    if not colon:
        return PluginGrant(entry.strip())
    return PluginGrant(name.strip(), tuple(part.strip() for part in methods_text.split(",")))


def check_plugin_entry(entry: object, position: int = 0) -> None:
    """Extension (``strict_plugins=True``): refuse a malformed entry, saying which one and why."""
    where = f"plugins[{position}] = {entry!r}"
    if not isinstance(entry, str):
        raise ConfigurationError(f"{where}: an entry must be a string; {_ENTRY_FORMS}")
    grant = parse_plugin_entry(entry)
    if not grant.plugin:
        raise ConfigurationError(f"{where}: the plugin name is empty; {_ENTRY_FORMS}")
    if not _NAME.match(grant.plugin):
        raise ConfigurationError(
            f"{where}: plugin name {grant.plugin!r} must be letters, digits and '_'; {_ENTRY_FORMS}")
    for index, method in enumerate(grant.methods or (), start=1):
        if not method:
            raise ConfigurationError(f"{where}: method {index} after ':' is empty; {_ENTRY_FORMS}")
        if not _NAME.match(method):
            raise ConfigurationError(
                f"{where}: method {method!r} must be letters, digits and '_'; {_ENTRY_FORMS}")


def _check_cap(cap: object) -> None:
    # A Python type check only: the framework's cap is an int? by type; its value is not validated.
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int)):
        raise ConfigurationError(
            f"max_tool_calls_per_round must be a whole number or None, got {cap!r}")


@dataclass(frozen=True)
class AgentConfiguration:
    """An agent as the framework configures it.

    ``model`` is the model key the agent bills under (a key of the price table);
    ``delegations`` name the agents it may hand work to; ``skills`` are texts
    ``load_skill`` returns by name; ``is_default`` marks the hierarchy's default
    agent, which is offered the delegation tools like an agent with delegations.
    ``description`` says when to choose the agent (other agents' system messages
    list it); ``delegation_instructions`` maps a delegation's path to the text
    its line in the system message carries (the framework's
    ``AgentDelegation.Instructions``).
    ``strict_plugins`` is agentkit's extension (off by default) that refuses
    malformed ``plugins`` entries.
    """

    id: str
    instructions: str = ""
    plugins: Sequence[str] | None = None
    max_tool_calls_per_round: int | None = None
    delegations: Sequence[str] = ()
    skills: Mapping[str, str] = field(default_factory=dict)
    model: str | None = None
    strict_plugins: bool = False
    is_default: bool = False
    description: str | None = None
    delegation_instructions: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not re.match(r"^[A-Za-z0-9-]+$", self.id):
            raise ConfigurationError(
                f"agent id {self.id!r} must be a slug: letters, digits and hyphens")
        if isinstance(self.plugins, str):
            raise ConfigurationError(
                f"plugins must be a list of entries, got the string {self.plugins!r}; "
                f"write [{self.plugins!r}]")
        entries = tuple(self.plugins or ())
        if self.strict_plugins:
            for position, entry in enumerate(entries):
                check_plugin_entry(entry, position)
        elif not all(isinstance(entry, str) for entry in entries):
            raise ConfigurationError(f"plugins entries must be strings, got {list(entries)!r}")
        _check_cap(self.max_tool_calls_per_round)
        object.__setattr__(self, "plugins", None if self.plugins is None else entries)
        object.__setattr__(self, "delegations", tuple(self.delegations))
        unknown = [path for path in self.delegation_instructions if path not in self.delegations]
        if unknown:
            raise ConfigurationError(
                f"delegation_instructions name {', '.join(map(repr, unknown))}, which are not among the delegations "
                f"{list(self.delegations)!r}")
        object.__setattr__(self, "delegation_instructions", dict(self.delegation_instructions))
        object.__setattr__(self, "skills", dict(self.skills))
        object.__setattr__(self, "_grants", tuple(parse_plugin_entry(entry) for entry in entries))

    # -- reading an agent definition --------------------------------------------------
    @classmethod
    def from_markdown(cls, agent_id: str, text: str) -> "AgentConfiguration":
        """An agent from a Markdown file with YAML front matter (``nodeType: Agent``); the body is the instructions.

        Front matter knows ``description``, ``plugins``, ``delegations`` and a
        few display keys; every other key, ``maxToolCallsPerRound`` among them,
        is ignored (A8).
        """
        found = re.match(r"\A---\r?\n(.*?)\r?\n---\r?\n?(.*)\Z", text, re.DOTALL)
        front = yaml.safe_load(found.group(1)) if found else None
        if not isinstance(front, dict) or str(front.get("nodeType", "")).casefold() != "agent":
            raise ConfigurationError(
                f"{agent_id!r} is not an agent file: it needs YAML front matter with 'nodeType: Agent'")
        entries = [d for d in front.get("delegations") or () if isinstance(d, dict)]
        delegations = [d.get("agentPath", "") for d in entries]
        return cls(agent_id, found.group(2).strip(), plugins=front.get("plugins"), delegations=delegations,
                   is_default=front.get("isDefault") is True, description=front.get("description"),
                   delegation_instructions=_delegation_instructions(entries))

    def to_markdown(self) -> str:
        """The agent as the framework writes an Agent node to a file-system mesh: YAML front matter, then the
        instructions (AgentFileParser.Serialize). Only the keys front matter knows are written, so
        ``maxToolCallsPerRound`` is not: read back, the agent has no cap (A8)."""
        front: dict[str, Any] = {"nodeType": "Agent"}
        if self.description:
            front["description"] = self.description
        if self.is_default:
            front["isDefault"] = True
        if self.delegations:
            front["delegations"] = [self._delegation(name) for name in self.delegations]
        if self.plugins is not None:
            front["plugins"] = [g.plugin + (":" + ",".join(g.methods) if g.methods else "") for g in self.grants]
        body = self.instructions if not self.instructions.strip() or self.instructions.endswith("\n") \
            else self.instructions + "\n"
        return "---\n" + yaml.safe_dump(front, sort_keys=False).rstrip() + "\n---\n\n" + \
            (body if self.instructions.strip() else "")

    @classmethod
    def from_node_content(cls, content: Mapping[str, Any]) -> "AgentConfiguration":
        """An agent from its node's JSON content (A9): ``plugins`` as ``{name, methods}``, ``delegations`` as
        ``{agentPath}``, ``isDefault`` and ``maxToolCallsPerRound``; ``$type`` and other properties are skipped."""
        plugins = content.get("plugins")
        entries = None if plugins is None else [
            p["name"] + (":" + ",".join(p["methods"]) if p.get("methods") else "") for p in plugins]
        listed = list(content.get("delegations") or ())
        delegations = [d.get("agentPath", "") for d in listed]
        return cls(content["id"], content.get("instructions") or "", plugins=entries,
                   max_tool_calls_per_round=content.get("maxToolCallsPerRound"), delegations=delegations,
                   is_default=content.get("isDefault") is True, description=content.get("description"),
                   delegation_instructions=_delegation_instructions(listed))

    # -- the agent node, as the framework stores it ---------------------------------------
    def content_json(self) -> dict[str, Any]:
        """The node's content: this configuration as the framework's JSON options write it (A9).

        The properties of the framework's ``AgentConfiguration`` in declaration
        order, camelCase, each object with its ``$type``; what is null or a
        default (``false``, an absent list) is left out. A ``plugins`` entry is
        written parsed, as ``{name, methods}`` (A1). Empty instructions count as
        none. agentkit's own fields (``model``, ``skills``, ``strict_plugins``)
        are not the framework's and are never written.
        """
        content: dict[str, Any] = {"$type": CONFIGURATION_TYPE, "id": self.id}
        if self.description:
            content["description"] = self.description
        if self.instructions:
            content["instructions"] = self.instructions
        if self.is_default:
            content["isDefault"] = True
        if self.delegations:
            content["delegations"] = [{"$type": DELEGATION_TYPE, **self._delegation(path)} for path in self.delegations]
        if self.plugins is not None:
            content["plugins"] = [
                {"$type": PLUGIN_REFERENCE_TYPE, "name": grant.plugin,
                 **({} if grant.methods is None else {"methods": list(grant.methods)})}
                for grant in self.grants]
        if self.max_tool_calls_per_round is not None:
            content["maxToolCallsPerRound"] = self.max_tool_calls_per_round
        return content

    def node_json(self, namespace: str | None = None) -> dict[str, Any]:
        """The agent node: ``id``, ``namespace`` (when given), ``name`` (the id, as an agent file without a
        name gets), ``nodeType: Agent`` and :meth:`content_json`. What ``Create`` takes to make the agent."""
        node: dict[str, Any] = {"id": self.id}
        if namespace:
            node["namespace"] = namespace
        node.update({"name": self.id, "nodeType": AGENT_NODE_TYPE, "content": self.content_json()})
        return node

    # -- what the round is given ----------------------------------------------------------
    @property
    def grants(self) -> tuple[PluginGrant, ...]:
        """The parsed ``plugins`` entries, in order."""
        return self._grants  # type: ignore[attr-defined]

    @property
    def iteration_cap(self) -> int:
        """The cap on tool batches in a round: ``max_tool_calls_per_round`` when > 0, else the default 40."""
        cap = self.max_tool_calls_per_round
        return cap if cap is not None and cap > 0 else DEFAULT_MAXIMUM_ITERATIONS

    def round_instructions(self, hierarchy: Sequence["AgentConfiguration"] = ()) -> str:
        """The system message's text as the framework builds it (T8, A6), in order: the ``instructions``; the
        delegation block, listing each delegation (``- {id}: {instructions}``) and each other agent of the
        ``hierarchy`` (``- {id}: {description}``), when the agent has delegations, is the default agent or its
        hierarchy holds more than one agent, and that list is not empty; the thread guidance, for every agent;
        then the separator and the budget text when a cap > 0 is set. Not modelled: handoffs, the chat's context."""
        text = self.instructions
        listed = {_last_segment(path) for path in self.delegations}
        lines = [f"- {_last_segment(path)}: {self.delegation_instructions.get(path) or ''}" for path in self.delegations]
        if self.delegations or self.is_default or len(hierarchy) > 1:
            lines += [f"- {agent.id}: {agent.description or HIERARCHY_AGENT}" for agent in hierarchy
                      if agent.id != self.id and agent.id not in listed]
        if lines:
            text += DELEGATION_GUIDANCE.replace("{agents}", "\n".join(lines))
        text += THREAD_GUIDANCE
        cap = self.max_tool_calls_per_round
        if cap is None or cap <= 0:
            return text
        return text + BUDGET_SEPARATOR + BUDGET_TEXT.format(n=cap)

    def _delegation(self, path: str) -> dict[str, str]:
        # One delegation as the framework writes it: its path, and its instructions when it has any.
        instructions = self.delegation_instructions.get(path)
        return {"agentPath": path, **({"instructions": instructions} if instructions else {})}

    def offered_tools(self, available: Sequence[Any], builtins: Sequence[Any] = (),
                      hierarchy: Sequence["AgentConfiguration"] = ()) -> tuple[Any, ...]:
        """The tools offered to the model, from the host's plugin tools and the runtime's ``builtins``.

        ``available`` holds every plugin tool the host has (each with ``.name``
        and ``.plugin``); ``builtins`` the always-offered tools and the
        delegation tools, kept when their condition holds. An entry naming no
        plugin warns (UnknownPluginWarning, the framework's log line) and
        offers nothing.
        """
        by_name = {tool.name: tool for tool in builtins}
        delegates = bool(self.delegations) or self.is_default or len(hierarchy) > 1
        chosen = [by_name[name] for name in DELEGATION_TOOLS if delegates and name in by_name]
        if self.grants:
            for grant in self.grants:
                tools = self._resolve(grant, available)
                if tools is None:
                    warnings.warn(UnknownPluginWarning(
                        PLUGIN_NOT_FOUND.format(PluginName=grant.plugin, AgentName=self.id)), stacklevel=3)
                    continue
                chosen += [tool for tool in tools if grant.allows(tool.name)]
        else:
            chosen += [tool for tool in available if tool.plugin == MESH_PLUGIN
                       and tool.name in (*READ_ONLY_MESH_METHODS, *SOURCE_TREE_MESH_METHODS)]
        chosen += [by_name[name] for name in (*ALWAYS_OFFERED, CHECK_INBOX) if name in by_name]
        return tuple(chosen)

    @staticmethod
    def _resolve(grant: PluginGrant, available: Sequence[Any]) -> list[Any] | None:
        # Built-in names match exactly (a built-in agentkit does not model offers nothing, as it has
        # no tools here, but is never "not found"); other names find a host plugin ignoring case.
        if grant.plugin in BUILT_IN_PLUGINS:
            return [tool for tool in available if tool.plugin == grant.plugin]
        custom = [tool.plugin for tool in available if tool.plugin not in BUILT_IN_PLUGINS]
        match = next((name for name in custom if name.casefold() == grant.plugin.casefold()), None)
        return None if match is None else [tool for tool in available if tool.plugin == match]
