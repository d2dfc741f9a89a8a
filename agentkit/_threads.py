"""Threads: the stored messages of a conversation, and what survives a round boundary.

A thread stores text messages only. A new user message starts a round; the
history the model is shown at the start of a round is rebuilt from the stored
message texts (roles ``user`` and ``assistant``), ordered by timestamp, so tool
calls and tool results of earlier rounds are gone. The rebuilt history is then
cut to the framework's character budget: each message counts its length plus
64, system messages are kept, and the newest messages are kept, always the
newest one.

Delegation runs in a sub-thread, a child of the thread in the thread tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from ._errors import ThreadError
from ._messages import Message

HISTORY_BUDGET_CHARS = 64_000
MESSAGE_OVERHEAD_CHARS = 64
_PATH_SEGMENT = re.compile(r"^[A-Za-z0-9._-]+$")


def message_chars(message: Message) -> int:
    """What one message counts against the history budget: its length plus 64."""
    return len(message.text) + MESSAGE_OVERHEAD_CHARS


def rebuild_history(stored: Sequence[Message]) -> tuple[Message, ...]:
    """The user and assistant messages of ``stored``, ordered by timestamp (stable for ties)."""
    return tuple(sorted((m for m in stored if m.role in ("user", "assistant")),
                        key=lambda m: m.timestamp))


def trim_history(messages: Sequence[Message], budget: int = HISTORY_BUDGET_CHARS) -> tuple[Message, ...]:
    """Cut ``messages`` to ``budget`` characters: keep system messages and the newest, always the newest one.

    Walking back from the newest, a message is kept while the running total
    (system messages counted first) stays within the budget; the first one that
    does not fit ends the walk, so what is kept is a contiguous newest tail.
    """
    system_cost = sum(message_chars(m) for m in messages if m.role == "system")
    kept: set[int] = set()
    used = system_cost
    for position in range(len(messages) - 1, -1, -1):
        message = messages[position]
        if message.role == "system":
            continue
        cost = message_chars(message)
        if kept and used + cost > budget:
            break
        kept.add(position)
        used += cost
    return tuple(m for i, m in enumerate(messages) if m.role == "system" or i in kept)


@dataclass
class Thread:
    """A conversation at a mesh path: its stored messages and its delegation sub-threads.

    Timestamps come from the thread's own step counter (shared with its
    sub-threads), never from a wall clock.
    """

    path: str
    messages: list[Message] = field(default_factory=list)
    children: list["Thread"] = field(default_factory=list)
    plan: str = ""  # the last plan store_plan kept
    _steps: list[int] = field(default_factory=lambda: [0], repr=False)

    def __post_init__(self) -> None:
        segments = self.path.split("/") if isinstance(self.path, str) else [""]
        bad = [s for s in segments if not _PATH_SEGMENT.match(s)]
        if bad:
            raise ThreadError(
                f"thread path {self.path!r} is malformed: segment {bad[0]!r} must be letters, digits, "
                "'.', '_' or '-' (write e.g. 'Acme/_Threads/extract-2024')")

    def append(self, role: str, text: str) -> Message:
        """Store a message stamped with the next step."""
        self._steps[0] += 1
        message = Message(role, text, self._steps[0])
        self.messages.append(message)
        return message

    def history(self, budget: int = HISTORY_BUDGET_CHARS) -> tuple[Message, ...]:
        """What a new round starts from: the stored texts rebuilt, then cut to the budget."""
        return trim_history(rebuild_history(self.messages), budget)

    def subthread(self, name: str) -> "Thread":
        """A new child thread for a delegation; ``name`` is made unique among the children."""
        path = f"{self.path}/{name}-{len(self.children) + 1}"
        child = Thread(path, _steps=self._steps)
        self.children.append(child)
        return child

    def fork(self) -> "Thread":
        """A new thread at this path holding a copy of the stored messages, the plan and the step count.

        Rounds run on the fork leave this thread unchanged; sub-threads are not carried.
        """
        return Thread(self.path, messages=list(self.messages), plan=self.plan, _steps=[self._steps[0]])

    def walk(self) -> Iterator["Thread"]:
        """This thread and every sub-thread below it, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()

    def unanswered_rounds(self) -> int:
        """User messages with no assistant message after them: rounds that recorded no end."""
        count = 0
        ordered = rebuild_history(self.messages)
        for position, message in enumerate(ordered):
            if message.role != "user":
                continue
            following = ordered[position + 1] if position + 1 < len(ordered) else None
            if following is None or following.role != "assistant":
                count += 1
        return count
