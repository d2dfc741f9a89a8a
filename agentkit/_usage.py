"""Usage satellites and the cost report over a thread tree.

The framework stores token usage per thread and model as a satellite node
``{threadPath}/_Usage/{key}`` of node type ``TokenUsage`` (T4). The key is
the model id with every character that is not a Unicode letter or digit
replaced by ``_`` (per UTF-16 unit, as .NET's ``char.IsLetterOrDigit`` sees
it); a missing or blank model id is ``(unknown)``, key ``_unknown_``. The
content holds ``model``, ``userId``, ``threadId``, ``inputTokens`` (every
input token, cache reads and writes included), ``outputTokens``,
``cacheReadTokens`` and ``cacheWriteTokens``, summed over the thread's rounds.

A round's usage is added when it ends Completed, Cancelled or Error; an
all-zero round writes nothing, and a round whose process dies first records
nothing (T5). Usage under a model the price table does not know is priced $0
(before framework fix 3a0c9a9a0 for #369 that was every delegation
sub-thread, T6). So a thread's recorded cost is a floor: :func:`usage_report`
sums every ``_Usage`` node across the thread tree and says when, and why, its
total is only a floor.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from typing import Mapping

from ._cost import EXAMPLE_PRICES, ModelPrice, TokenUsage, cost_of
from ._mesh import Mesh
from ._node import Node
from ._paths import is_within
from ._threads import Thread

USAGE_SEGMENT = "_Usage"
USAGE_NODE_TYPE = "TokenUsage"
UNKNOWN_MODEL = "(unknown)"
_LETTER_OR_DIGIT = {"Lu", "Ll", "Lt", "Lm", "Lo", "Nd"}  # .NET char.IsLetterOrDigit


def usage_model(model: str | None) -> str:
    """The model name a usage record carries: ``(unknown)`` when missing or blank."""
    return model if model and model.strip() else UNKNOWN_MODEL


def _key_char(character: str) -> str:
    if ord(character) > 0xFFFF:  # a surrogate pair in .NET: two chars, neither a letter
        return "__"
    return character if unicodedata.category(character) in _LETTER_OR_DIGIT else "_"


def usage_key(model: str | None) -> str:
    """The satellite id of ``model``: each non-letter, non-digit (Unicode) becomes '_'; no model is '_unknown_'."""
    return "".join(_key_char(c) for c in usage_model(model))


def usage_path(thread_path: str, model: str | None) -> str:
    """Where ``model``'s usage in the thread is stored."""
    return f"{thread_path}/{USAGE_SEGMENT}/{usage_key(model)}"


def record_usage(mesh: Mesh, thread_path: str, model: str | None, usage: TokenUsage) -> Node | None:
    """Add one round's ``usage`` to the thread's satellite for ``model`` and return it; all-zero writes nothing."""
    if usage == TokenUsage():
        return None
    usage = recorded_usage(mesh, thread_path, model) + usage
    content = {"$type": USAGE_NODE_TYPE, "threadId": thread_path,  # JSON omits the null userId
               "model": usage_model(model), **usage.as_content()}
    return mesh.put_node(Node(id=usage_key(model), namespace=f"{thread_path}/{USAGE_SEGMENT}",
                              name=usage_model(model), node_type=USAGE_NODE_TYPE, content=content,
                              main_node=thread_path))  # the satellite's MainNode is its thread (TokenUsage.cs:193)


def recorded_usage(mesh: Mesh, thread_path: str, model: str | None) -> TokenUsage:
    """What the satellite for ``model`` holds (zero when the thread recorded nothing for it)."""
    path = usage_path(thread_path, model)
    return TokenUsage.from_content(mesh.get(path).content or {}) if mesh.exists(path) else TokenUsage()


@dataclass(frozen=True)
class UsageRow:
    """One ``_Usage`` satellite: its thread, model, tokens and price."""

    thread: str
    model: str
    usage: TokenUsage
    cost: Decimal
    priced: bool


@dataclass(frozen=True)
class UsageReport:
    """Every ``_Usage`` satellite across a thread tree, summed."""

    thread: str
    rows: tuple[UsageRow, ...]
    floor_reasons: tuple[str, ...]

    @property
    def usage(self) -> TokenUsage:
        return sum((row.usage for row in self.rows), TokenUsage())

    @property
    def cost(self) -> Decimal:
        return sum((row.cost for row in self.rows), Decimal(0))

    @property
    def is_floor(self) -> bool:
        """True when the true cost may be higher than :attr:`cost`."""
        return bool(self.floor_reasons)


def usage_report(mesh: Mesh, thread: Thread | str,
                 prices: Mapping[str, ModelPrice] = EXAMPLE_PRICES) -> UsageReport:
    """Sum every ``_Usage`` satellite at and below ``thread``, priced by ``prices``.

    Given a :class:`Thread` (not just its path) the report also checks each
    thread's stored messages: a user message with no reply after it is a round
    that recorded no end, so its usage is missing.
    """
    root = thread.path if isinstance(thread, Thread) else thread
    rows = []
    reasons = []
    for node in mesh.nodes():
        owner, _, segment = node.namespace.rpartition("/")
        if segment != USAGE_SEGMENT or node.node_type != USAGE_NODE_TYPE:
            continue
        if not is_within(owner, root):
            continue
        usage = TokenUsage.from_content(node.content or {})
        model = str((node.content or {}).get("model", node.name))
        price = prices.get(model)
        rows.append(UsageRow(owner, model, usage, cost_of(usage, price) if price else Decimal(0),
                             price is not None))
        if price is None and (usage.total_input or usage.output):
            reasons.append(f"{owner}: {usage.total_input + usage.output:,} tokens recorded under model "
                           f"{model!r} have no price and count as $0")
    if isinstance(thread, Thread):
        for member in thread.walk():
            missing = member.unanswered_rounds()
            if missing:
                reasons.append(f"{member.path}: {missing} round(s) recorded no end, so their usage "
                               "was never written")
    rows.sort(key=lambda row: (row.thread, row.model))
    return UsageReport(root, tuple(rows), tuple(reasons))
