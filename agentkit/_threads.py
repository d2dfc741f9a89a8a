"""Threads: the stored messages of a conversation, and what survives a round boundary.

A thread stores text messages only, as the framework's thread cells do. A new
user message starts a round, and the history the model is shown is rebuilt
from the stored texts of the earlier messages (T1): ordered by timestamp, role
``user`` in any case becomes ``user`` and every other role ``assistant``. Tool
calls and tool results of earlier rounds are not stored, so they are gone.
The framework waits up to 5 s for each earlier message to show a text, inside
a 5 s limit of the whole load that starts first: one earlier message with an
empty text (a round cancelled before it wrote any) runs the load out of time,
and the round is shown no history at all, only its new message.

The round's messages (the one system message of instructions first, then the
history) are then cut to the framework's character budget once (T2): each
message counts its length plus 64; when the whole does not fit, the system
message is kept and counted first, then whole messages are kept newest-first
until the first one that does not fit (the newest is always kept), and tool
messages at the start of the kept window are dropped.

Threads live at ``{contextPath}/_Thread/{id}``; a delegation sub-thread lives
under the parent's response message, ``{threadPath}/{responseMessageId}/{id}``
(A4), and delegation stops at depth 2.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from ._errors import ThreadError
from ._messages import Message

HISTORY_BUDGET_CHARS = 64_000
# The framework's two waits when it rebuilds the history (T1, AD1): each earlier message's text, and the
# whole load, whose limit starts first. agentkit keeps no clock; it models their outcome (rebuild_history).
HISTORY_CELL_TIMEOUT_SECONDS = 5
HISTORY_LOAD_TIMEOUT_SECONDS = 5
MESSAGE_OVERHEAD_CHARS = 64
THREAD_PARTITION = "_Thread"
MAXIMUM_DELEGATION_DEPTH = 2
_PATH_SEGMENT = re.compile(r"^[A-Za-z0-9._-]+$")


def message_chars(message: Message) -> int:
    """What one message counts against the history budget: its length plus 64."""
    return len(message.text) + MESSAGE_OVERHEAD_CHARS


def _replayed(stored: Sequence[Message]) -> tuple[Message, ...]:
    # The texts by timestamp (stable), empty ones left out, roles mapped.
    ordered = sorted((m for m in stored if m.text), key=lambda m: m.timestamp)
    return tuple(Message("user" if m.role.casefold() == "user" else "assistant", m.text, m.timestamp)
                 for m in ordered)


def rebuild_history(stored: Sequence[Message]) -> tuple[Message, ...]:
    """The earlier messages ``stored`` as the framework replays them to a new round (T1).

    By timestamp (stable), roles mapped; when any of them has an empty text the
    framework's history load times out and the round gets no history: ``()``.
    """
    if any(not m.text for m in stored):
        return ()
    return _replayed(stored)


def trim_history(messages: Sequence[Message], budget: int = HISTORY_BUDGET_CHARS) -> tuple[Message, ...]:
    """Cut a round's ``messages`` to ``budget`` characters as the framework does (T2).

    Unchanged when everything fits. Otherwise the system messages are kept
    (and moved first), the rest is walked back from the newest and kept while
    it fits, stopping at the first message that does not (the newest is kept
    whatever its size), and tool messages that would open the kept window are
    dropped.
    """
    if sum(message_chars(m) for m in messages) <= budget:
        return tuple(messages)
    system = [m for m in messages if m.role == "system"]
    rest = [m for m in messages if m.role != "system"]
    left = budget - sum(message_chars(m) for m in system)
    kept: list[Message] = []
    used = 0
    for message in reversed(rest):
        cost = message_chars(message)
        if used + cost > left and kept:
            break
        kept.insert(0, message)
        used += cost
    while kept and kept[0].role == "tool":
        kept.pop(0)
    return tuple(system + kept)


def delegation_depth(thread_path: str) -> int:
    """How deep ``thread_path`` is in delegation: two segments per level below ``/_Thread/``."""
    marker = f"/{THREAD_PARTITION}/"
    at = thread_path.find(marker)
    return 0 if at < 0 else (len(thread_path[at + len(marker):].split("/")) - 1) // 2


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
                f"'.', '_' or '-' (write e.g. 'Acme/{THREAD_PARTITION}/extract-2024')")

    def append(self, role: str, text: str) -> Message:
        """Store a message stamped with the next step."""
        self._steps[0] += 1
        message = Message(role, text, self._steps[0])
        self.messages.append(message)
        return message

    def history(self) -> tuple[Message, ...]:
        """The stored texts rebuilt for a new round (T1), before the round's budget cut."""
        return rebuild_history(self.messages)

    def subthread(self, name: str, response_id: str) -> "Thread":
        """A new child thread for a delegation, under the parent's response message ``response_id``."""
        path = f"{self.path}/{response_id}/{name}-{len(self.children) + 1}"
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
        ordered = _replayed(self.messages)
        for position, message in enumerate(ordered):
            if message.role != "user":
                continue
            following = ordered[position + 1] if position + 1 < len(ordered) else None
            if following is None or following.role != "assistant":
                count += 1
        return count
