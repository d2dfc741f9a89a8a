"""The agent runtime: rounds, model iterations, tool calls, billing and usage records.

``Agent(config, model, mesh).start(thread, text)`` stores ``text`` as a user
message and runs one round:

1. The history is rebuilt from the thread's stored texts and cut to budget.
2. The model is shown the context (instructions, offered tools, items) and
   billed for all of it as input; its reply is billed as output.
3. Each tool call in the reply runs (a call to a tool not offered this
   iteration is refused and recorded) and its result joins the context.
4. A reply without tool calls ends the round; its text is stored.

``max_tool_calls_per_round`` caps the iterations: the last allowed one is
offered no tools, so the model must answer in text. When the round terminates
(completed, cancelled, error) its usage is added to the thread's ``_Usage``
satellite; a round that dies (``Interrupt(kind="died")``), or whose model never
reports usage (``reports_usage=False``), records nothing.

Prompt caching (``caching=True``) bills each call as modelled in ``_cost``:
the previous prompt of the same thread is read from the cache when the new
prompt starts with it under the same instructions and tool list; the rest is
written, if the prompt reaches the model's minimum cacheable size.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Mapping, Sequence

from ._config import DELEGATION_TOOL, AgentConfiguration
from ._cost import EXAMPLE_PRICES, ModelPrice, TokenUsage, cost_of, require_count
from ._errors import ConfigurationError
from ._mesh import Mesh
from ._messages import Context, ContextItem, Reply, ToolCall, ToolDefinition, ToolResult
from ._models import Model
from ._plugins import Tool, chunk_plugin, mesh_plugin
from ._threads import Thread
from ._tokens import ContextEstimate, estimate_context, item_tokens, items_tokens, reply_tokens
from ._usage import record_usage

ITERATION_SAFETY_LIMIT = 1000  # "no small cap" when unset, but never an endless loop
COMPLETED, CANCELLED, ERROR, DIED = "completed", "cancelled", "error", "died"
INTERRUPT_KINDS = (CANCELLED, ERROR, DIED)


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


@dataclass
class Run:
    """One round of one agent on one thread."""

    agent: str
    model: str | None
    thread: Thread
    status: str = ""
    answer: str = ""
    turns: list[Turn] = field(default_factory=list)
    refused: list[ToolCall] = field(default_factory=list)
    delegations: list["Run"] = field(default_factory=list)
    recorded: bool = False  # True once its usage is in the thread's _Usage satellite

    @property
    def usage(self) -> TokenUsage:
        """Tokens this round's own model calls were billed (sub-threads excluded)."""
        return sum((turn.usage for turn in self.turns), TokenUsage())

    @property
    def tool_calls(self) -> int:
        """Tool calls the model asked for in this round, refused ones included."""
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
    ``ContentChunks`` plugins over ``mesh``); the configuration picks what is
    offered. ``delegates`` maps each name in ``config.delegations`` to its
    Agent. ``caching`` bills prompt caching by the model's entry in ``prices``.
    ``record_subthread_usage_as_unknown`` reproduces framework issue #369:
    usage of delegation sub-threads is recorded under ``(unknown)``.
    """

    def __init__(self, config: AgentConfiguration, model: Model, mesh: Mesh, *,
                 tools: Sequence[Tool] | None = None, delegates: Mapping[str, "Agent"] | None = None,
                 prices: Mapping[str, ModelPrice] = EXAMPLE_PRICES, caching: bool = False,
                 record_subthread_usage_as_unknown: bool = False) -> None:
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
        self.record_subthread_usage_as_unknown = record_subthread_usage_as_unknown
        available = list(mesh_plugin(mesh) + chunk_plugin(mesh)) if tools is None else list(tools)
        self.offered = config.offered_tools(available, self._builtins())
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
               usage_model: str | None, as_unknown_below: bool) -> Run:
        if not isinstance(message, str) or not message.strip():
            raise ValueError("a round starts with a non-empty user message")
        thread.append("user", message)
        run = Run(self.config.id, self.model.key, thread)
        self._current, self._as_unknown_below = run, as_unknown_below
        items: list[ContextItem] = list(thread.history())
        # The items' tokens as a running sum: each item is estimated once, as it joins, not on every turn.
        items_total = items_tokens(items)
        instructions = self.config.round_instructions()
        cap = self.config.max_tool_calls_per_round
        executed = 0
        in_flight: Turn | None = None
        results: list[ToolResult] = []
        try:
            for index in range(1, (cap or ITERATION_SAFETY_LIMIT) + 1):
                offered = () if cap is not None and index == cap else self.offered
                context = Context(instructions, tuple(ToolDefinition.of(tool) for tool in offered), tuple(items))
                estimate = estimate_context(context, messages=items_total)
                reply = self.model.respond(context)
                output = reply_tokens(reply)
                usage = self._bill(thread.path, context, estimate.total) + TokenUsage(output=output)
                items.extend(reply.items())
                items_total += output  # a reply outputs exactly the items it adds
                results = []
                in_flight = Turn(index, tuple(t.name for t in offered), estimate, usage, reply, ())
                stop = None
                for number, call in enumerate(reply.tool_calls, start=1):
                    counts = interrupt is not None and interrupt.tool in (None, call.name)
                    if counts and executed >= interrupt.after_tool_calls:
                        stop = interrupt.kind  # only when after_tool_calls is 0: stop before the first
                        break
                    result = self._execute(call, offered, f"call-{index}-{number}")
                    items.append(result)
                    items_total += item_tokens(result)
                    results.append(result)
                    if result.refused:
                        run.refused.append(call)
                    elif counts:
                        executed += 1
                        if executed >= interrupt.after_tool_calls:
                            stop = interrupt.kind
                            break
                run.turns.append(replace(in_flight, results=tuple(results)))
                in_flight = None
                if stop:
                    return self._terminate(run, stop, usage_model, reply.text)
                if not reply.tool_calls or not offered:
                    return self._terminate(run, COMPLETED, usage_model, reply.text)
            return self._terminate(run, ERROR, usage_model,
                                   f"the model did not answer within {ITERATION_SAFETY_LIMIT} iterations")
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
        if total < price.min_cacheable_tokens:
            return TokenUsage(input=total - read, cache_read=read)
        self._caches[thread_path] = _PromptCache(signature, context.items, total)
        return TokenUsage(cache_read=read, cache_write=total - read)

    def _execute(self, call: ToolCall, offered: Sequence[Tool], call_id: str) -> ToolResult:
        tool = next((t for t in offered if t.name == call.name), None)
        if tool is None:
            names = ", ".join(t.name for t in offered) or "none (answer in text)"
            return ToolResult(call_id, call.name, f"Error: tool '{call.name}' is not offered to this agent; "
                                                  f"offered tools: {names}", refused=True)
        if not isinstance(call.arguments, Mapping):
            return ToolResult(call_id, call.name, "Error: tool arguments must be a JSON object, got "
                                                  f"{type(call.arguments).__name__}")
        text = tool.call(dict(call.arguments))
        if not isinstance(text, str):
            raise TypeError(f"tool {call.name!r} returned {type(text).__name__}, not the text a model reads")
        return ToolResult(call_id, call.name, text)

    def _terminate(self, run: Run, status: str, usage_model: str | None, text: str) -> Run:
        run.status = status
        run.answer = text
        if status == DIED:
            return run  # the process is gone: nothing is stored, nothing recorded
        run.thread.append("assistant", text if status == COMPLETED else f"[round {status}] {text}".rstrip())
        if getattr(self.model, "reports_usage", True):  # a provider that never reports leaves no record
            record_usage(self.mesh, run.thread.path, usage_model, run.usage)
            run.recorded = True
        return run

    # -- built-in tools -------------------------------------------------------------
    def _builtins(self) -> list[Tool]:
        return [
            Tool("store_plan", "Agent", "store_plan(plan): keep the plan for this thread.", self._store_plan),
            Tool("load_skill", "Agent", "load_skill(name): the text of a named skill.", self._load_skill),
            Tool(DELEGATION_TOOL, "Agent",
                 f"{DELEGATION_TOOL}(agentId, task): run another agent on a task in a sub-thread; "
                 f"returns its answer. Agents: {', '.join(self.config.delegations) or 'none'}.",
                 self._delegate),
        ]

    def _store_plan(self, arguments: dict[str, Any]) -> str:
        plan = arguments.get("plan")
        if not isinstance(plan, str) or not plan.strip():
            return "Error: store_plan needs 'plan', a non-empty text"
        assert self._current is not None
        self._current.thread.plan = plan
        return f"Plan stored ({len(plan)} characters)."

    def _load_skill(self, arguments: dict[str, Any]) -> str:
        name = arguments.get("name")
        if name not in self.config.skills:
            known = ", ".join(self.config.skills) or "none"
            return f"Error: no skill named {name!r}; available skills: {known}"
        return self.config.skills[name]

    def _delegate(self, arguments: dict[str, Any]) -> str:
        name, task = arguments.get("agentId"), arguments.get("task")
        if name not in self.delegates:
            return (f"Error: no delegation named {name!r}; this agent may delegate to: "
                    f"{', '.join(self.config.delegations) or 'nobody'}")
        if not isinstance(task, str) or not task.strip():
            return "Error: delegate_to_agent needs 'task', a non-empty text"
        parent, as_unknown = self._current, self._as_unknown_below
        assert parent is not None
        delegate = self.delegates[name]
        sub = delegate._round(parent.thread.subthread(name), task, None,
                              usage_model=None if as_unknown else delegate.model.key,
                              as_unknown_below=as_unknown)
        self._current, self._as_unknown_below = parent, as_unknown  # a delegate may be this very agent
        parent.delegations.append(sub)
        return sub.answer if sub.status == COMPLETED else f"Error: the delegated round ended {sub.status}: {sub.answer}"
