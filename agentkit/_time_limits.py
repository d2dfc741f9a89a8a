"""The time limits that can cut a call, a read or a round short, as data: AgentDesign's table of time limits."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TimeLimit:
    """One time limit the framework sets on an agent round: what it times, how long, what happens then."""

    scope: str
    seconds: int | None  # None: no limit
    outcome: str
    facts: str
    modelled: str  # how agentkit models it: "yes", "outcome" (no clock; the effect), "no", or the part it models


# Every time limit that can cut a call, a read or a round short, for agents a host's chat runs (MeshWeaver's
# agent path, and the harness clients' own session timeouts). Rendered as AgentDesign's table of time limits.
TIME_LIMITS = (
    TimeLimit("one agent tool call (every tool but `delegate_to_agent` and `check_inbox`)", 30,
              "the model reads `Tool '{name}' timed out after 30s. Add [ToolTimeout(N)] to allow longer.`; "
              "the operation runs on", "MP3 FI3", "yes"),
    TimeLimit("`Get`'s read of a unified path (a `content`, `data`, `schema`, `model` or `menu` segment, any case; "
              "a `layoutAreas` segment; or the colon form `{address}/{prefix}:{path}`): routing, the node's hub, "
              "the store, the transformer", 10,
              "a node read at the whole path (10 s more) answers the node if there is one; otherwise "
              "`Error: Timeout resolving '{remainder}' at {address}`", "S2 S10", "for `content` paths"),
    TimeLimit("`Get`'s read of an area (`{path}/area/{Name}`): the rendered frame", 30,
              "the tool's own 30 s bound fires first: `Tool 'Get' timed out after 30s. …`", "S2 MP3", "no"),
    TimeLimit("`Get`'s read of a plain node path", 10,
              "a fallback read of 5 s more, then `Not found: {path}`", "S10", "no"),
    TimeLimit("the node read of `Patch`, `EditContent` and `GetDiagnostics`", 10,
              "the node reads as missing (`Patch`, `EditContent`: `Error: node not found at …`)", "S10", "no"),
    TimeLimit("`load_skill`'s read of the skill node", 10, "`Could not load skill '{path}': {message}`", "RL4", "no"),
    TimeLimit("the rebuild of a round's history", 5,
              "the round is shown no history, only its new message", "T1 AD1", "outcome"),
    TimeLimit("the read of the chat's context node", 5, "the round goes on without the context node", "RL3", "no"),
    TimeLimit("the agent's initialisation, before the round", 60,
              "the round ends in error: `*Agent initialization stalled: …*`", "RL3", "no"),
    TimeLimit("the check that a harness's CLI is installed", 10,
              "the round runs on the MeshWeaver agent path instead", "RL2", "no"),
    TimeLimit("`delegate_to_agent`, from the sub-thread's start", 10 * 60,
              "`Error: delegation to {agent} failed — timed out waiting for the delegated agent to finish.`; "
              "the sub-round runs on", "DL2", "yes"),
    TimeLimit("a sub-thread's first output, from its start", 60,
              "the parent cancels the sub-thread", "DL5", "no"),
    TimeLimit("a sub-thread's silence after its first output (not within 15 s of its start)", 30,
              "the parent cancels the sub-thread", "DL5", "no"),
    TimeLimit("a round: its model calls and tool calls (a `delegate_to_agent` call in progress is not cut: "
              "the round ends only once that call answers)", 30 * 60,
              "the round ends in error, storing `*Error: AI streaming exceeded the maximum round duration "
              "of 00:30:00 …*`", "RL1 DL3", "no"),
    TimeLimit("a Claude Code harness round (its CLI session)", 120,
              "the round ends in error, storing `*Error: {message}*`", "RL2", "no"),
    TimeLimit("a Copilot harness round, after its prompt is sent", 30,
              "the round ends in error, storing `*Error: {message}*`", "RL2", "no"),
    TimeLimit("a round on an Orleans host: a grain whose run of long-running operations passes 30 min "
              "(checked each minute)", 30 * 60,
              "the grain deactivates and the round ends cancelled", "RL5", "no"),
    TimeLimit("the round's usage write (a side effect after its terminal status; the round does not wait for it)",
              15,
              "if the usage node's creation has not answered, the tokens are never added; an add already queued "
              "still lands later; a failure is only logged", "W7", "no"),
    TimeLimit("one request to the model provider", None,
              "none: every chat-client factory (Claude, OpenAI, Azure OpenAI, Azure Foundry) switches its network "
              "timeout off; the opt-in Foundry persistent-agent factory keeps Azure.Core's default", "RL1", "—"),
)
