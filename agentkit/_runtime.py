"""The agent runtime: rounds, model iterations, tool calls, billing and usage records.

``Agent(config, model, mesh).start(thread, text)`` stores ``text`` as a user
message and runs one round, as the framework's function-invoking loop does:

1. The history is rebuilt from the thread's stored texts (T1) and, with the
   system message (instructions, the framework's guidance, T8) first, cut to the character budget once (T2).
2. Iterations 0 .. N-1 (N = the iteration cap, default 40, A7) call the model
   with the offered tools (``check_inbox`` among them; none at all for a model
   whose ``supports_tools`` is False); the call is shown everything so far, this round's
   tool calls and results included (T3), and billed for all of it as input;
   its reply is billed as output. Every tool call in the reply runs; a call to
   a tool that is not offered gets ``Error: Requested function "{name}" not
   found.`` as its result and the round goes on (A5). A call that throws
   answers ``Error: Function failed.``; the fourth iteration in a row with
   such a call ends the round in error, its text so far and the exception's
   message stored (FI2, ``_invocation``).
3. A reply without tool calls ends the round. After N tool batches, iteration
   N calls the model once more without tools, and its text ends the round:
   at most N + 1 model calls, nothing thrown.

When the round ends completed, cancelled or error, its usage is added to the
thread's ``_Usage`` satellite (T4, T5); a round that dies
(``Interrupt(kind="died")``), or whose model never reports usage
(``reports_usage=False``), records nothing. A round whose ``delegate_to_agent`` call never gets an
answer (an agent name that does not resolve, or the depth limit, with no other delegation in the same
response: DL3) does not end: its status is ``waiting``, and it stores and records nothing.

Delegation (DL1-DL4, DL7): the sub-agent's round runs in a new sub-thread whose one message is the task, under
the named agent, or another loaded agent (the caller or a delegate) the task names with ``@agent/X`` or an
``@`` reference ending in its name; the
parent's call answers the sub-thread's summary (``Run.summary``: a completed round's ``<summary>`` block
or answer, a cancelled round's text or ``Cancelled before completion.``, an errored round's stored text),
or the timed-out text when the sub-round does not end within 10 minutes (a round that died or waits).
Every ``delegate_to_agent`` call of one response answers the first sub-thread that response dispatched.

Prompt caching (``caching=True``) bills each call as modelled in ``_cost``:
the previous prompt of the same thread is read from the cache when the new
prompt starts with it under the same instructions and tool list; the rest is
written, if the prompt reaches the model's minimum cacheable size.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Sequence

from ._config import CHECK_INBOX, CHECK_INBOX_DESCRIPTION, DELEGATION_TOOL, NO_NEW_MESSAGES, AgentConfiguration
from ._delegation import named_agent
from ._cost import EXAMPLE_PRICES, ModelPrice, TokenUsage, cost_of, require_count
from ._errors import ConfigurationError
from ._invocation import ConsecutiveErrors, LayerAnswer, aborted_text
from ._mesh import Mesh
from ._messages import Context, ContextItem, Message, Reply, ToolCall, ToolDefinition, ToolResult
from ._models import Model
from . import _plugins
from ._plugins import Parameter, Tool, _answering, _timed, content_collection_plugin, mesh_plugin
from ._threads import MAXIMUM_DELEGATION_DEPTH, Thread, delegation_depth, trim_history
from ._tokens import ContextEstimate, estimate_context, item_tokens, items_tokens, reply_tokens
from ._usage import record_usage
from ._wire import DEFAULT_WIRE, billed_input, delivered, recorded, require_wire

COMPLETED, CANCELLED, ERROR, DIED = "completed", "cancelled", "error", "died"
WAITING = "waiting"  # the round has not ended: a tool call of it never got an answer (DL3)
REQUESTED_FUNCTION_NOT_FOUND = 'Error: Requested function "{name}" not found.'
INTERRUPT_KINDS = (CANCELLED, ERROR, DIED)
# delegate_to_agent waits for its sub-thread's first terminal status at most 10 minutes once dispatched, then
# answers this text (DelegationTool.cs:260, 437, 461-465); agentkit times the sub-round on the tools' clock.
DELEGATION_WAIT_SECONDS = 10 * 60
DELEGATION_TIMED_OUT = "Error: delegation to {agent} failed — timed out waiting for the delegated agent to finish."
# What a completed round stores when it streamed no text and asked for no tool call (ThreadExecution.cs:2355-2356).
NO_RESPONSE = "*Agent returned no response — streaming completed with zero tokens.*"
# A cancelled round's summary when it wrote no text (ThreadExecution.cs:2499-2500).
CANCELLED_SUMMARY = "Cancelled before completion."


def _builtin(name: str, description: str, body: Any, required: Sequence[str] = (), optional: Sequence[str] = (),
             timed: bool = True) -> Tool:
    """One of the runtime's own tools, its string arguments bound as AIFunctionFactory binds them (FI1, FI2).

    Only the binding is modelled: what the body raises leaves the call as before (a sub-round's bug surfaces).
    """
    parameters = tuple(Parameter(p, "string", True) for p in required) + tuple(
        Parameter(p, "string", False) for p in optional)
    call = _answering(body, parameters, passes=(Exception,))
    return Tool(name, "Agent", description, _timed(name, call) if timed else call, parameters)


class Unanswered(LayerAnswer):
    """A ``delegate_to_agent`` call that got no answer yet: the round resolves it, or waits (DL3)."""

    agent: str

    def __new__(cls, agent: str) -> "Unanswered":
        answer = super().__new__(cls, "")
        answer.agent = agent
        return answer


@dataclass(frozen=True)
class Interrupt:
    """Stop the round right after the ``after_tool_calls``-th executed call (of ``tool``, if given).

    ``kind`` says how it ends: ``died`` (the process is gone: no answer stored,
    no usage recorded), ``cancelled`` or ``error`` (usage recorded).
    """

    after_tool_calls: int
    kind: str = DIED
    tool: str | None = None

    def __post_init__(self) -> None:
        require_count(self.after_tool_calls, "after_tool_calls")
        if self.kind not in INTERRUPT_KINDS:
            raise ValueError(f"kind must be one of {', '.join(INTERRUPT_KINDS)}, got {self.kind!r}")


@dataclass(frozen=True)
class Turn:
    """One model iteration of a round: what was offered and billed, what came back."""

    index: int
    tools_offered: tuple[str, ...]
    context: ContextEstimate
    usage: TokenUsage
    reply: Reply
    results: tuple[ToolResult, ...]


# The block the framework asks every agent to end its response with (T9).
SUMMARY_BLOCK = re.compile(r"<summary>(?P<inner>[\s\S]*?)</summary>", re.IGNORECASE)


def split_summary(text: str) -> tuple[str, str]:
    """A completed round's answer as the framework stores it, and its summary (T9).

    The first ``<summary>…</summary>`` block, in any letter case, is cut from the text, which is then
    trimmed at its end; its inner text, trimmed, is the summary. Without one, the summary is the text.
    """
    match = SUMMARY_BLOCK.search(text)
    if match is None:
        return text, text
    return (text[:match.start()] + text[match.end():]).rstrip(), match["inner"].strip()


@dataclass
class Run:
    """One round of one agent on one thread."""

    agent: str
    model: str | None
    thread: Thread
    status: str = ""
    answer: str = ""  # the stored answer: what the user sees and the next round reads
    summary: str = ""  # a completed round's <summary> block (else its answer): a delegating parent's tool result
    turns: list[Turn] = field(default_factory=list)
    refused: list[ToolCall] = field(default_factory=list)
    delegations: list["Run"] = field(default_factory=list)
    recorded: bool = False  # True once its usage is in the thread's _Usage satellite
    response_id: str = ""  # the id of the round's response message; sub-threads live under it
    # The first sub-round the current response dispatched, and whether the wait for it ran out (DL2, DL4).
    _dispatch: "tuple[Run, bool] | None" = field(default=None, repr=False, compare=False)

    def _dispatch_answer(self, agent: str) -> str:
        # What a delegate_to_agent call for ``agent`` answers: the response's first sub-thread's Summary, or the
        # timed-out text naming the call's own agent.
        assert self._dispatch is not None
        sub, timed_out = self._dispatch
        return DELEGATION_TIMED_OUT.format(agent=agent) if timed_out else sub.summary

    @property
    def usage(self) -> TokenUsage:
        """Tokens this round's own model calls were billed (sub-threads excluded)."""
        return sum((turn.usage for turn in self.turns), TokenUsage())

    @property
    def tool_calls(self) -> int:
        """Tool calls the model asked for in this round: refused ones and those of the tool-less last call included."""
        return sum(len(turn.reply.tool_calls) for turn in self.turns)

    def tree(self) -> list["Run"]:
        """This run and every delegated run below it."""
        return [self] + [run for sub in self.delegations for run in sub.tree()]

    def billed_usage(self) -> TokenUsage:
        """What the provider billed for this round and every delegation under it."""
        return sum((run.usage for run in self.tree()), TokenUsage())

    def billed_cost(self, prices: Mapping[str, ModelPrice] = EXAMPLE_PRICES) -> Decimal:
        """Dollars billed for the round and its delegations, each at its own model's price."""
        total = Decimal(0)
        for run in self.tree():
            price = prices.get(run.model or "")
            if price is None:
                raise ConfigurationError(f"no price for model {run.model!r}; known: {', '.join(prices)}")
            total += cost_of(run.usage, price)
        return total


@dataclass
class _PromptCache:
    # The last cached prompt of one thread: what a next call may read.
    signature: tuple[str, tuple[str, ...]]
    items: tuple[ContextItem, ...]
    tokens: int


class Agent:
    """An agent: its configuration, its model, the mesh its tools work on.

    ``tools`` are the plugin tools the host has (default: the ``Mesh`` and
    ``ContentCollection`` plugins over ``mesh``); the configuration picks what
    is offered. ``delegates`` maps each name in ``config.delegations`` to its
    Agent. ``caching`` bills prompt caching by the model's entry in ``prices``.
    ``record_subthread_usage_as_unknown`` reproduces the framework before fix
    3a0c9a9a0 (#369, T6): usage of delegation sub-threads was recorded under
    ``(unknown)``. Off by default, as at the pinned commit. ``wire`` is the
    provider's chat client (``_wire``): ``claude`` (the default) or ``openai``;
    it decides the text the model reads for a tool's answer, how caching is
    billed and what the ``_Usage`` satellite records. ``delegated_interrupt``
    stops every round this agent runs as a delegate (a parent's Stop, or its
    heartbeat cancelling a silent sub-thread, DL5). ``hierarchy`` holds the
    configurations of the chat's agents: with more than one, the agent is
    offered the delegation tools, and its system message lists the others (T8).
    """

    def __init__(self, config: AgentConfiguration, model: Model, mesh: Mesh, *,
                 tools: Sequence[Tool] | None = None, delegates: Mapping[str, "Agent"] | None = None,
                 prices: Mapping[str, ModelPrice] = EXAMPLE_PRICES, caching: bool = False,
                 record_subthread_usage_as_unknown: bool = False, wire: str = DEFAULT_WIRE,
                 delegated_interrupt: Interrupt | None = None,
                 hierarchy: Sequence[AgentConfiguration] = ()) -> None:
        delegates = dict(delegates or {})
        missing = [name for name in config.delegations if name not in delegates]
        if missing:
            raise ConfigurationError(
                f"agent {config.id!r} delegates to {', '.join(map(repr, missing))} but no Agent was given "
                "for it; pass delegates={name: Agent(...)}")
        if caching and model.key not in prices:
            raise ConfigurationError(
                f"caching needs the price entry of model {model.key!r} (its cache rules); "
                f"known: {', '.join(prices)}")
        self.config = config
        self.model = model
        self.mesh = mesh
        self.delegates = delegates
        self.prices = prices
        self.caching = caching
        self.wire = require_wire(wire)
        self.record_subthread_usage_as_unknown = record_subthread_usage_as_unknown
        self.delegated_interrupt = delegated_interrupt
        available = list(mesh_plugin(mesh) + content_collection_plugin(mesh)) if tools is None else list(tools)
        self.hierarchy = tuple(hierarchy)
        self.offered = config.offered_tools(available, self._builtins(), self.hierarchy)
        self._caches: dict[str, _PromptCache] = {}
        self._current: Run | None = None  # the round the built-in tools act for
        self._as_unknown_below = False

    # -- public -----------------------------------------------------------------
    def start(self, thread: Thread | str, message: str, *, interrupt: Interrupt | None = None) -> Run:
        """Store ``message`` as a user message in ``thread`` and run one round; return the Run."""
        thread = Thread(thread) if isinstance(thread, str) else thread
        return self._round(thread, message, interrupt, usage_model=self.model.key,
                           as_unknown_below=self.record_subthread_usage_as_unknown)

    # -- the round ----------------------------------------------------------------
    def _round(self, thread: Thread, message: str, interrupt: Interrupt | None,
               usage_model: str | None, as_unknown_below: bool, delegated: bool = False) -> Run:
        # A delegation's task is whatever text the parent sent (DL1): the framework checks none.
        if not isinstance(message, str) or (not delegated and not message.strip()):
            raise ValueError("a round starts with a non-empty user message")
        history = thread.history()  # the earlier messages (T1), rebuilt before the new one is stored
        asked = thread.append("user", message)
        run = Run(self.config.id, self.model.key, thread, response_id=f"response-{asked.timestamp}")
        self._current, self._as_unknown_below = run, as_unknown_below
        instructions = self.config.round_instructions(self.hierarchy)
        system = [Message("system", instructions)] if instructions else []
        new = Message("user", message, asked.timestamp)
        # The one budget cut of the round (T2); the system message travels as the context's instructions.
        items: list[ContextItem] = [m for m in trim_history(system + list(history) + [new]) if m.role != "system"]
        # The items' tokens as a running sum: each item is estimated once, as it joins, not on every turn.
        items_total = items_tokens(items)
        cap = self.config.iteration_cap
        # A model known not to support tools is sent none, the runtime's own tools included.
        tools = self.offered if getattr(self.model, "supports_tools", True) else ()
        definitions = tuple(ToolDefinition.of(tool) for tool in tools)  # what every iteration but the last shows
        # A call runs the first offered tool of its name: looked up by name, not by a walk of the tools per call.
        by_name: dict[str, Tool] = {}
        for tool in tools:
            by_name.setdefault(tool.name, tool)
        executed = 0
        errors = ConsecutiveErrors()  # FunctionInvokingChatClient's count of failing iterations (FI2)
        in_flight: Turn | None = None
        results: list[ToolResult] = []
        try:
            for iteration in range(cap + 1):
                offered = tools if iteration < cap else ()  # iteration N: no tools, the model must answer
                context = Context(instructions, definitions if offered else (), tuple(items))
                estimate = estimate_context(context, messages=items_total)
                reply = self.model.respond(context)
                output = reply_tokens(reply)
                usage = self._bill(thread.path, context, estimate.total) + TokenUsage(output=output)
                items.extend(reply.items())
                items_total += output  # a reply outputs exactly the items it adds
                results = []
                in_flight = Turn(iteration + 1, tuple(t.name for t in offered), estimate, usage, reply, ())
                if iteration >= cap or not reply.tool_calls:  # calls asked for without tools are not run
                    run.turns.append(in_flight)
                    in_flight = None
                    return self._terminate(run, COMPLETED, usage_model, reply.text)
                stop = None
                run._dispatch = None  # the calls of one response start together (FI3): one dispatch they all take
                for number, call in enumerate(reply.tool_calls, start=1):
                    counts = interrupt is not None and interrupt.tool in (None, call.name)
                    if counts and executed >= interrupt.after_tool_calls:
                        stop = interrupt.kind  # only when after_tool_calls is 0: stop before the first
                        break
                    result = self._execute(call, by_name, f"call-{iteration + 1}-{number}")
                    results.append(result)
                    if result.refused:
                        run.refused.append(call)
                    elif counts:
                        executed += 1
                        if executed >= interrupt.after_tool_calls:
                            stop = interrupt.kind
                            break
                if any(isinstance(result.text, Unanswered) for result in results):
                    if run._dispatch is None:  # no sub-thread started: nothing ever answers the call (DL3)
                        run.turns.append(replace(in_flight, results=tuple(results)))
                        in_flight = None
                        return self._terminate(run, WAITING, usage_model, reply.text)
                    # The response's first dispatch answers the waiting calls too (DL4).
                    results = [delivered(ToolResult(r.call_id, r.name, run._dispatch_answer(r.text.agent)), self.wire)
                               if isinstance(r.text, Unanswered) else r for r in results]
                items.extend(results)
                items_total += sum(item_tokens(result) for result in results)
                run.turns.append(replace(in_flight, results=tuple(results)))
                in_flight = None
                if stop:
                    return self._terminate(run, stop, usage_model, reply.text)
                rethrown = errors.after(results)
                if rethrown is not None:  # the limit: the exception ends the round, stored as ThreadExecution does
                    streamed = "".join(turn.reply.text for turn in run.turns)
                    return self._terminate(run, ERROR, usage_model, aborted_text(streamed, rethrown), stored=True)
            raise AssertionError("unreachable: iteration N always ends the round")
        except Exception as failure:
            if not run.status:  # a model or tool bug: the round ends in error, then the bug surfaces
                if in_flight is not None:  # the call that was billed before the tool failed
                    run.turns.append(replace(in_flight, results=tuple(results)))
                self._terminate(run, ERROR, usage_model, f"{type(failure).__name__}: {failure}")
            raise

    def _bill(self, thread_path: str, context: Context, total: int) -> TokenUsage:
        # Input tokens of one call, split into plain, cache read and cache write.
        if not self.caching:
            return TokenUsage(input=total)
        price = self.prices[self.model.key]  # checked in __init__
        signature = (context.instructions, context.tool_names)
        cached = self._caches.get(thread_path)
        read = 0
        if cached and cached.signature == signature and context.items[:len(cached.items)] == cached.items:
            read = cached.tokens
        cacheable = total >= price.min_cacheable_tokens
        if cacheable:
            self._caches[thread_path] = _PromptCache(signature, context.items, total)
        return billed_input(total, read, cacheable, self.wire)

    def _execute(self, call: ToolCall, offered: Mapping[str, Tool], call_id: str) -> ToolResult:
        # ``offered``: the round's tools by name, each name's first (calls run only while tools are offered).
        try:
            tool = offered.get(call.name)
        except TypeError:  # a name that cannot be hashed names no tool
            tool = None
        if tool is None:  # the framework's answer to a call it cannot match (A5); the round goes on
            return ToolResult(call_id, call.name, REQUESTED_FUNCTION_NOT_FOUND.format(name=call.name), refused=True)
        if not isinstance(call.arguments, Mapping):
            return ToolResult(call_id, call.name, "Error: tool arguments must be a JSON object, got "
                                                  f"{type(call.arguments).__name__}")
        text = tool.call(dict(call.arguments))
        if not isinstance(text, str):
            raise TypeError(f"tool {call.name!r} returned {type(text).__name__}, not the text a model reads")
        return delivered(ToolResult(call_id, call.name, text), self.wire)  # the method's string, as the wire sends it

    def _terminate(self, run: Run, status: str, usage_model: str | None, text: str, stored: bool = False) -> Run:
        # ``stored``: ``text`` is already what the framework stores (an aborted round, FI2).
        run.status = status
        if status == COMPLETED and not text and run.tool_calls == 0:
            text = NO_RESPONSE  # ThreadExecution's placeholder for a round that streamed nothing
        run.answer, run.summary = split_summary(text) if status == COMPLETED else (text, text)
        if status in (DIED, WAITING):
            return run  # the process is gone, or the round never ends: nothing is stored, nothing recorded
        text = run.answer if status == COMPLETED or stored else f"[round {status}] {text}".rstrip()
        run.thread.append("assistant", text)
        # The thread's Summary, which a delegating parent reads (DL2): a cancelled round's text so far (or
        # CANCELLED_SUMMARY), an errored round's stored text.
        if status == CANCELLED:
            run.summary = run.answer or CANCELLED_SUMMARY
        elif status == ERROR:
            run.summary = text
        if getattr(self.model, "reports_usage", True):  # a provider that never reports leaves no record
            run.recorded = record_usage(self.mesh, run.thread.path, usage_model,
                                        recorded(run.usage, self.wire)) is not None
        return run

    # -- built-in tools -------------------------------------------------------------
    def _builtins(self) -> list[Tool]:
        # Each binds its arguments as AIFunctionFactory does (the source's parameter names: DelegationTool.cs:173-177,
        # 511-513, PlanStorageTool.cs:20-21, SkillTool.cs:21-23): a missing required one throws, the model reads
        # `Error: Function failed.` and the call counts toward the limit (FI2). Every one but delegate_to_agent has
        # AccessContextAIFunction's 30 s bound (MP3); check_inbox joins unwrapped and takes no argument.
        agents = ", ".join(self.config.delegations) or "none"
        return [
            _builtin(DELEGATION_TOOL,
                     f"{DELEGATION_TOOL}(agentName, task, context?): run another agent on a task in a sub-thread; "
                     f"returns its answer. Available agents: {agents}.", self._delegate,
                     ("agentName", "task"), optional=("context",), timed=False),
            _builtin("list_sub_threads",
                     "list_sub_threads(): the sub-threads spawned via delegate_to_agent that are still running.",
                     lambda arguments: "[]"),  # agentkit's delegations finish inside their call: none is running
            _builtin("send_to_sub_thread",
                     "send_to_sub_thread(threadPath, message): push a follow-up into a running sub-thread.",
                     lambda arguments: "Queued", ("threadPath", "message")),
            _builtin("store_plan", "store_plan(planContent): keep the thread's plan.", self._store_plan,
                     ("planContent",)),
            _builtin("load_skill", "load_skill(skillPath): a named skill's text.", self._load_skill, ("skillPath",)),
            # No message arrives while an agentkit round runs, so the inbox is always empty.
            Tool(CHECK_INBOX, "Agent", CHECK_INBOX_DESCRIPTION, lambda arguments: NO_NEW_MESSAGES),
        ]

    def _store_plan(self, arguments: dict[str, Any]) -> str:
        plan = arguments["planContent"]
        if not plan.strip():
            return "Error: store_plan needs 'planContent', a non-empty text"
        assert self._current is not None
        self._current.thread.plan = plan
        return f"Plan stored ({len(plan)} characters)."

    def _load_skill(self, arguments: dict[str, Any]) -> str:
        name = arguments["skillPath"]  # agentkit's skills are named: the name stands for the Skill node's path
        if name not in self.config.skills:
            known = ", ".join(self.config.skills) or "none"
            return f"Error: no skill named {name!r}; available skills: {known}"
        return self.config.skills[name]

    def _delegate(self, arguments: dict[str, Any]) -> str:
        # ExecuteDelegationAsync (ChatClientAgentFactory.cs:540-690) with DelegationTool's wait (DelegationTool.cs:
        # 173-330, 413-466). The binder has made agentName and task strings (FI1).
        name, task = arguments["agentName"], arguments["task"]
        parent, as_unknown = self._current, self._as_unknown_below
        assert parent is not None
        delegates = {key.split("/")[-1]: agent for key, agent in self.delegates.items()}
        target = name.split("/")[-1]
        if target not in delegates or delegation_depth(parent.thread.path) >= MAXIMUM_DELEGATION_DEPTH:
            # `Agent '{name}' not found` and `Maximum delegation depth reached ({depth}). ...` are returned before
            # any sub-thread exists and emit no lifecycle event; on a host's chat the call's answer comes only from
            # the next Dispatched or Failed event of the chat (DL3), so they never reach the model.
            return Unanswered(name)
        # The sub-round selects the named agent, unless the task names another loaded agent (`@agent/X`, or an
        # `@` reference ending in its name): SelectAgent checks the message first (DL7). agentkit's loaded agents
        # are the caller and its delegates.
        loaded = {**delegates, self.config.id: self}
        delegate = loaded[named_agent(task, list(loaded)) or target]
        dispatched = _plugins._clock()
        # A new sub-thread whose one message is the task (DL1), under that agent's own configuration and model.
        sub = delegate._round(parent.thread.subthread(target, parent.response_id), task, delegate.delegated_interrupt,
                              usage_model=None if as_unknown else delegate.model.key,
                              as_unknown_below=as_unknown, delegated=True)
        self._current, self._as_unknown_below = parent, as_unknown  # a delegate may be this very agent
        parent.delegations.append(sub)
        if parent._dispatch is None:
            # The sub-thread's first terminal status, and its Summary (DL2); a round that died or waits never
            # reaches one, so the wait runs out.
            parent._dispatch = (sub, sub.status in (DIED, WAITING)
                                or _plugins._clock() - dispatched > DELEGATION_WAIT_SECONDS)
        # Every call of the response subscribed before the first sub-thread started: they all take its result (DL4).
        return parent._dispatch_answer(name)
