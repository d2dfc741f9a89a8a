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


def exchanges(context: Context) -> list[tuple[tuple[ToolCall, ...], tuple[ToolResult, ...]]]:
    """This round's iterations as (calls, results) pairs, read from the context after the last user message."""
    items = context.items
    start = next((i for i in range(len(items) - 1, -1, -1) if isinstance(items[i], Message) and items[i].role == "user"), -1)
    pairs: list[tuple[list[ToolCall], list[ToolResult]]] = []
    for item in items[start + 1:]:
        if isinstance(item, ToolCall):
            if not pairs or pairs[-1][1]:
                pairs.append(([], []))
            pairs[-1][0].append(item)
        elif isinstance(item, ToolResult) and pairs:
            pairs[-1][1].append(item)
    return [(tuple(calls), tuple(results)) for calls, results in pairs]


@dataclass
class ProcedureModel:
    """A model whose every reply is the next step of ``procedure(view)``, replayed against the context.

    Replaying from the top on every call is quadratic in the turns of a
    round, so the running procedure is kept while each new context extends
    the one before it (same view, earlier iterations unchanged): the reply is
    the one a full replay gives, only computed once.
    """

    procedure: Callable[[View], Procedure]
    key: str | None = DEFAULT_MODEL

    def __post_init__(self) -> None:
        self._live: tuple[View, Procedure, list, list[ToolCall]] | None = None

    def respond(self, context: Context) -> Reply:
        view = View(context.instructions, context.tool_names, context.messages())
        pairs = exchanges(context)
        if self._live and self._live[0] == view and pairs[:len(self._live[2])] == self._live[2]:
            _, steps, fed, batch = self._live
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
            self._live = None
            return Reply(text=finished.value or "")
        self._live = (view, steps, fed, batch)
        return Reply(tool_calls=tuple(batch))

