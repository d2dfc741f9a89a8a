"""A deterministic token estimate, so every figure the guide prints can be recomputed.

No tokenizer is downloaded. The rule is the common rule of thumb for English
text and JSON, stated once here and used everywhere:

* a text of ``n`` characters is ``ceil(n / CHARS_PER_TOKEN)`` tokens (4 characters a token);
* every item of a context (the instructions, one offered tool definition, one
  message, one tool call, one tool result) adds ``ITEM_OVERHEAD_TOKENS`` (4) for
  the role and framing a provider wraps around it;
* a tool definition is its name and description; a tool call is its name and its
  arguments as compact JSON with sorted keys.

Each item is estimated on its own, so a context's estimate is the sum of its
items' estimates, and what a reply outputs is exactly what it adds to the next
call's input. That additivity is what makes the closed-form cost formulas in
``_cost`` equal the simulated bill to the token.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ._messages import Context, ContextItem, Message, Reply, ToolCall, ToolResult

CHARS_PER_TOKEN = 4
ITEM_OVERHEAD_TOKENS = 4


def text_tokens(text: str) -> int:
    """Tokens of a bare text: ``ceil(len(text) / 4)``; the empty text is 0."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def arguments_json(arguments: Mapping[str, Any]) -> str:
    """The canonical JSON of a call's arguments (compact, sorted keys), as estimated."""
    return json.dumps(arguments, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def instructions_tokens(instructions: str) -> int:
    """Tokens of the instructions (the system prompt) as one item."""
    return ITEM_OVERHEAD_TOKENS + text_tokens(instructions)


def tool_definition_tokens(tool: Any) -> int:
    """Tokens of one offered tool's definition (name and description)."""
    return ITEM_OVERHEAD_TOKENS + text_tokens(f"{tool.name}\n{tool.description}")


def item_tokens(item: ContextItem) -> int:
    """Tokens of one context item: a message, a tool call or a tool result."""
    if isinstance(item, Message):
        body = item.text
    elif isinstance(item, ToolCall):
        body = item.name + arguments_json(item.arguments)
    elif isinstance(item, ToolResult):
        body = item.text
    else:
        raise TypeError(f"not a context item: {item!r}")
    return ITEM_OVERHEAD_TOKENS + text_tokens(body)


def items_tokens(items: Iterable[ContextItem]) -> int:
    """Tokens of a sequence of items: the sum of each one's estimate."""
    return sum(item_tokens(item) for item in items)


def reply_tokens(reply: Reply) -> int:
    """Output tokens of a reply: the items it adds to the context."""
    return items_tokens(reply.items())


@dataclass(frozen=True)
class ContextEstimate:
    """A context's input tokens, split by what they are for."""

    instructions: int
    tools: int
    messages: int

    @property
    def total(self) -> int:
        return self.instructions + self.tools + self.messages


def estimate_context(context: Context, messages: int | None = None) -> ContextEstimate:
    """Estimate what one model call shown ``context`` bills as input.

    ``messages`` is ``items_tokens(context.items)`` when the caller already
    has it: the runtime adds each item's estimate as the item joins, so a long
    round is not re-estimated item by item on every turn.
    """
    return ContextEstimate(
        instructions=instructions_tokens(context.instructions),
        tools=sum(tool_definition_tokens(tool) for tool in context.tools),
        messages=items_tokens(context.items) if messages is None else messages,
    )
