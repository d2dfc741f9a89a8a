"""Scripted models as procedures replayed against the context they are handed.

A procedure is a generator: it yields each response's tool calls and is sent their results. Each call of
:class:`ProcedureModel` replays the procedure against the context, feeding it the tool results the context
holds, and answers its next step. So a scripted model decides only from what it is shown: what the runtime
drops at a round boundary it cannot use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Generator

from agentkit._messages import Context, Message, Reply, ToolCall, ToolResult

from ._models import DEFAULT_MODEL

Procedure = Generator[list[ToolCall], tuple[ToolResult, ...], str]


@dataclass(frozen=True)
class View:
    """What a procedure may look at: the instructions, the offered tool names and the text messages."""

    instructions: str
    offered: tuple[str, ...]
    messages: tuple[Message, ...]

    @property
    def task(self) -> str:
        users = [m.text for m in self.messages if m.role == "user"]
        return users[0] if users else ""

    @property
    def periods(self) -> tuple[str, ...]:
        """The periods the task's first line names (``FY2024``, ...)."""
        return tuple(re.findall(r"FY\d{4}", self.task.splitlines()[0]))

    @property
    def rounds(self) -> int:
        """How many user messages the context holds (the round number)."""
        return sum(1 for m in self.messages if m.role == "user")

    def worksheet_text(self) -> str | None:
        """The newest assistant answer that holds a worksheet."""
        for message in reversed(self.messages):
            if message.role == "assistant" and "# Worksheet: " in message.text:
                return message.text
        return None


Exchange = tuple[tuple[ToolCall, ...], tuple[ToolResult, ...]]


def exchanges(context: Context) -> list[Exchange]:
    """This round's iterations as (calls, results) pairs, read from the context after the last user message."""
    items = context.items
    start = next((i for i in range(len(items) - 1, -1, -1) if isinstance(items[i], Message) and items[i].role == "user"), -1)
    return _paired(items[start + 1:])


def _paired(items: tuple) -> list[Exchange]:
    pairs: list[tuple[list[ToolCall], list[ToolResult]]] = []
    for item in items:
        if isinstance(item, ToolCall):
            if not pairs or pairs[-1][1]:
                pairs.append(([], []))
            pairs[-1][0].append(item)
        elif isinstance(item, ToolResult) and pairs:
            pairs[-1][1].append(item)
    return [(tuple(calls), tuple(results)) for calls, results in pairs]


@dataclass(frozen=True)
class _Running:
    """A procedure part-way through a round: the context it last answered, all of whose exchanges it was fed."""

    context: Context
    view: View
    steps: Procedure
    fed: tuple[Exchange, ...]
    batch: list[ToolCall]

    def exchanges_after(self, context: Context) -> list[Exchange] | None:
        """The exchanges `context` adds when it is this context with new tool calls and results appended (the
        same view, a call first, after an exchange that has its results), else None: the full replay decides."""
        seen, items = self.context.items, context.items
        if (context.instructions, context.tools) != (self.context.instructions, self.context.tools) or items[:len(seen)] != seen:
            return None
        added = items[len(seen):]
        if not added or not isinstance(added[0], ToolCall) or (self.fed and not self.fed[-1][1]):
            return None
        if any(isinstance(item, Message) for item in added):
            return None
        return _paired(added)


@dataclass
class ProcedureModel:
    """A model whose every reply is the next step of ``procedure(view)``, replayed against the context.

    Replaying from the top on every call is quadratic in the turns of a
    round, so the running procedure is kept while each new context extends
    the one before it (same view, earlier iterations unchanged): the reply is
    the one a full replay gives, only computed once. A context it refuses may
    have advanced the procedure, so nothing is kept: the next call replays.
    """

    procedure: Callable[[View], Procedure]
    key: str | None = DEFAULT_MODEL

    def __post_init__(self) -> None:
        self._live: _Running | None = None

    def respond(self, context: Context) -> Reply:
        live, self._live = self._live, None
        added = live.exchanges_after(context) if live else None
        if added is not None:  # reading only what was appended gives the pairs a full read would give
            view, steps, fed, batch, pairs = live.view, live.steps, list(live.fed), live.batch, [*live.fed, *added]
        else:
            view = View(context.instructions, context.tool_names, context.messages())
            pairs = exchanges(context)
            if live and live.view == view and pairs[:len(live.fed)] == list(live.fed):
                steps, fed, batch = live.steps, list(live.fed), live.batch
            else:
                steps, fed, batch = self.procedure(view), [], None
        try:
            if batch is None:
                batch = next(steps)
            for calls, results in pairs[len(fed):]:
                if [(c.name, dict(c.arguments)) for c in batch] != [(c.name, dict(c.arguments)) for c in calls]:
                    raise RuntimeError("the context holds calls this procedure would not have made")
                batch = steps.send(results)
                fed.append((calls, results))
        except StopIteration as finished:
            return Reply(text=finished.value or "")
        self._live = _Running(context, view, steps, tuple(fed), batch)
        return Reply(tool_calls=tuple(batch))
