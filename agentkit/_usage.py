"""Usage satellites and the cost report over a thread tree.

The framework stores token usage per thread and model as a satellite node
``{threadPath}/_Usage/{modelKey}`` (every non-alphanumeric character of the
model name becomes ``_``; a missing model is ``(unknown)``, key ``_unknown_``),
written when a round terminates. A round whose process dies first records
nothing, and usage under a model the price table does not know is priced $0,
so a thread's recorded cost is a floor. :func:`usage_report` sums every
``_Usage`` node across the thread tree and says when, and why, its total is
only a floor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Mapping

from ._cost import EXAMPLE_PRICES, ModelPrice, TokenUsage, cost_of
from ._mesh import Mesh, Node
from ._paths import is_within
from ._threads import Thread

USAGE_SEGMENT = "_Usage"
USAGE_NODE_TYPE = "Usage"
UNKNOWN_MODEL = "(unknown)"


def usage_key(model: str | None) -> str:
    """The satellite id of ``model``: non-alphanumerics become '_'; None is '(unknown)', key '_unknown_'."""
    return re.sub(r"[^A-Za-z0-9]", "_", model or UNKNOWN_MODEL)


def usage_path(thread_path: str, model: str | None) -> str:
    """Where ``model``'s usage in the thread is stored."""
    return f"{thread_path}/{USAGE_SEGMENT}/{usage_key(model)}"


def record_usage(mesh: Mesh, thread_path: str, model: str | None, usage: TokenUsage) -> Node:
    """Add ``usage`` to the thread's satellite for ``model`` (created on first use) and return it."""
    usage = recorded_usage(mesh, thread_path, model) + usage
    content = {"$type": USAGE_NODE_TYPE, "model": model or UNKNOWN_MODEL, **usage.as_content()}
    return mesh.put_node(Node(id=usage_key(model), namespace=f"{thread_path}/{USAGE_SEGMENT}",
                              name=model or UNKNOWN_MODEL, node_type=USAGE_NODE_TYPE, content=content))


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

    def to_markdown(self) -> str:
        """The report as a Markdown table, followed by the floor reasons, if any."""
        lines = ["| thread | model | input | output | cache read | cache write | cost |",
                 "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
        for row in self.rows:
            u = row.usage
            price = f"${row.cost:.4f}" if row.priced else "$0 (unpriced)"
            lines.append(f"| {row.thread} | {row.model} | {u.input:,} | {u.output:,} | "
                         f"{u.cache_read:,} | {u.cache_write:,} | {price} |")
        total = self.usage
        label = "at least " if self.is_floor else ""
        lines.append(f"| **total** | | {total.input:,} | {total.output:,} | {total.cache_read:,} | "
                     f"{total.cache_write:,} | **{label}${self.cost:.4f}** |")
        if self.floor_reasons:
            lines += [""] + [f"- floor: {reason}" for reason in self.floor_reasons]
        return "\n".join(lines) + "\n"


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
