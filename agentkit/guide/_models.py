"""Deterministic scripted models: what the guide's examples plug into the runtime's model seam
(:class:`agentkit.Model`) in place of a provider.

They decide only from the :class:`Context` they are handed:
never from the mesh, the source file or their own memory. So what the runtime
drops at a round boundary they cannot use, just as a real model cannot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

from agentkit._messages import Context, Reply, ToolCall

DEFAULT_MODEL = "example-large"
_PROGRESS = re.compile(r"\[progress: (\d+)/(\d+) calls done\]")


@dataclass
class ScriptedModel:
    """A model whose reply is ``decide(context)``: a pure function of what it is shown."""

    decide: Callable[[Context], Reply]
    key: str | None = DEFAULT_MODEL
    reports_usage: bool = True

    def respond(self, context: Context) -> Reply:
        reply = self.decide(context)
        if not isinstance(reply, Reply):
            raise TypeError(f"a model must return a Reply, got {type(reply).__name__}")
        return reply


def progress_marker(done: int, total: int) -> str:
    """The line :class:`PlannedCalls` writes into its answer so a later round can resume."""
    return f"[progress: {done}/{total} calls done]"


def progress_from(context: Context) -> int:
    """Calls finished in earlier rounds, read from the newest assistant text that states it."""
    for message in reversed(context.messages("assistant")):
        found = _PROGRESS.search(message.text)
        if found:
            return int(found.group(1))
    return 0


@dataclass
class PlannedCalls:
    """Issues a fixed list of tool calls, ``batch_size`` per response (None: all at once), then answers.

    Where it stands is read from the context alone: the tool results of this
    round, plus the progress line of an earlier answer. When it is offered no
    tools (the call after the cap, A7) it answers with that progress line, so
    a "continue" round picks up where it stopped; when ``state_in_answer`` is
    False its answers leave the line out and a new round starts over.
    """

    calls: Sequence[ToolCall]
    answer: str = "Done."
    batch_size: int | None = 1
    key: str | None = DEFAULT_MODEL
    state_in_answer: bool = True
    reports_usage: bool = True

    def __post_init__(self) -> None:
        if self.batch_size is not None and (isinstance(self.batch_size, bool) or self.batch_size < 1):
            raise ValueError(f"batch_size must be >= 1 or None (all at once), got {self.batch_size!r}")
        self.calls = tuple(self.calls)

    def respond(self, context: Context) -> Reply:
        done = min(len(self.calls),
                   (progress_from(context) if self.state_in_answer else 0) + len(context.tool_results()))
        total = len(self.calls)
        if done >= total:
            return Reply(self._with_progress(self.answer, done))
        if not context.tools:
            return Reply(self._with_progress(
                f"Stopped at the tool-call budget after {done} of {total} calls. "
                'Reply "continue" to run the next batch.', done))
        size = total - done if self.batch_size is None else self.batch_size
        return Reply(tool_calls=tuple(self.calls[done:done + size]))

    def _with_progress(self, text: str, done: int) -> str:
        return f"{text}\n{progress_marker(done, len(self.calls))}" if self.state_in_answer else text


@dataclass
class TextModel:
    """Answers every context with the same text and never calls a tool."""

    answer: str
    key: str | None = DEFAULT_MODEL
    reports_usage: bool = True

    def respond(self, context: Context) -> Reply:
        return Reply(self.answer)
