"""The scenarios' token arithmetic: the write phase's sizes, the stepwise input bill, and the floor."""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Sequence

from agentkit._cost import EXAMPLE_PRICES, TokenUsage, cost_of
from agentkit._messages import Message, ToolCall
from agentkit._tokens import item_tokens

from ._models import DEFAULT_MODEL
from ._scenarios import ScenarioResult, reading_worksheet, report_tokens


@dataclass(frozen=True)
class WritePhaseSizes:
    """The sizes of a scenario's create calls, as the closed forms take them."""

    prefix: int   # P: the context of the first create call
    calls: int    # N: how many Create calls
    call: int     # the average tokens of one call item
    result: int   # the average tokens of its result item


def write_phase_sizes(result: ScenarioResult) -> WritePhaseSizes:
    """P, N and the average call and result sizes of the Create calls in ``result``'s last round."""
    turns = [t for t in result.runs[-1].turns if t.reply.tool_calls and t.reply.tool_calls[0].name == "Create"]
    if not turns:
        raise ValueError(f"scenario {result.key!r} issues no Create calls in its last round")
    calls = [item_tokens(c) for t in turns for c in t.reply.tool_calls]
    results = [item_tokens(r) for t in turns for r in t.results]
    return WritePhaseSizes(turns[0].context.total, len(calls), round(sum(calls) / len(calls)),
                           round(sum(results) / len(results)))


def stepwise_input_tokens(prefix: int, sizes: Sequence[int], batch_size: int | None = 1) -> int:
    """Input tokens of a round that issues calls of ``sizes`` tokens, ``batch_size`` per response, then answers.

    Response j is shown the prefix and every call before it, so the bill is
    ``(k+1)*P + sum over responses j of (sizes of the calls before j)``. With
    equal sizes d this is the closed form ``_cost.input_tokens``:
    sequential ``(N+1)*P + d*N(N+1)/2``, batched ``2*P + N*d``.
    """
    size = len(sizes) or 1 if batch_size is None else batch_size
    starts = range(0, len(sizes), size)
    return (len(starts) + 1) * prefix + sum(sum(sizes[:start]) for start in starts) + sum(sizes)


def floor_usage() -> TokenUsage:
    """The least any run can bill: the source read once, the worksheet written once, each node created once."""
    worksheet = reading_worksheet()
    source = report_tokens()
    creates = sum(item_tokens(ToolCall("Create", {"node": json.dumps(node)})) for node in worksheet.nodes_to_create())
    return TokenUsage(input=source, output=item_tokens(Message("assistant", worksheet.to_text())) + creates)


def floor_cost() -> Decimal:
    return cost_of(floor_usage(), EXAMPLE_PRICES[DEFAULT_MODEL])

