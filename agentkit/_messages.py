"""What a model is shown and what it answers: context items, the context, the reply.

A context is the instructions, the tool definitions offered, and an ordered
sequence of items. An item is a text message (role ``user`` or ``assistant``
once the history is rebuilt), a tool call the assistant made, or the result of
one. A message stored in a thread may carry any role text, as the framework's
stored messages do; the history rebuild maps it (see ``_threads``). Parallel
tool calls are separate items, as providers send them, so every item is
estimated on its own and a context's token count is the sum of its parts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Union

@dataclass(frozen=True)
class Message:
    """A text message; ``timestamp`` comes from the thread's step clock; ``role`` is any non-empty text."""

    role: str
    text: str
    timestamp: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.role, str) or not self.role:
            raise ValueError(f"message role must be a non-empty text, got {self.role!r}")


@dataclass(frozen=True)
class ToolCall:
    """One call the model asks for; ``arguments`` is the JSON object it passes."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    call_id: str = ""


@dataclass(frozen=True)
class ToolResult:
    """The text a tool returned for the call ``call_id``; ``refused`` when it was not offered."""

    call_id: str
    name: str
    text: str
    refused: bool = False


ContextItem = Union[Message, ToolCall, ToolResult]


@dataclass(frozen=True)
class ToolDefinition:
    """A tool as a model sees it: a name and a description, never the function behind it."""

    name: str
    description: str

    @classmethod
    def of(cls, tool: Any) -> "ToolDefinition":
        """The definition of any tool-like object (anything with .name and .description)."""
        return cls(tool.name, tool.description)


@dataclass(frozen=True)
class Reply:
    """What a model returns: text, tool calls, or both."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()

    def items(self) -> tuple[ContextItem, ...]:
        """The items this reply adds to the context (the text first, if any, then each call)."""
        head: tuple[ContextItem, ...] = (Message("assistant", self.text),) if self.text else ()
        return head + tuple(self.tool_calls)


@dataclass(frozen=True)
class Context:
    """Everything one model call is shown, and so everything it is billed for."""

    instructions: str
    tools: tuple[ToolDefinition, ...]
    items: tuple[ContextItem, ...]

    @property
    def tool_names(self) -> tuple[str, ...]:
        return tuple(tool.name for tool in self.tools)

    def messages(self, role: str | None = None) -> tuple[Message, ...]:
        """The text messages, optionally only those of one role."""
        return tuple(
            item for item in self.items
            if isinstance(item, Message) and (role is None or item.role == role)
        )

    def tool_results(self, name: str | None = None) -> tuple[ToolResult, ...]:
        """The tool results in this context, optionally only those of one tool."""
        return tuple(
            item for item in self.items
            if isinstance(item, ToolResult) and (name is None or item.name == name)
        )
