"""The four scenarios on both provider wires: what each wire bills and what its usage nodes record.

Each scenario runs on the Claude wire and on the OpenAI wire (``agentkit._wire``), once without and
once with prompt caching. *Billed* is what the provider charges (the rounds' usage at the example
price); *recorded* is the displayed cost of what the thread's ``_Usage`` satellites hold for the run
with caching (:func:`agentkit._wire.displayed_cost` of :attr:`ScenarioResult.recorded`). Without
caching the record is the bill on both wires, so the table shows the record of the cached run only.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from agentkit._wire import WIRES, displayed_cost

from ._procedures import TITLES
from ._scenarios import ScenarioResult, run_scenario

WIRE_TITLES = {"claude": "Claude", "openai": "OpenAI"}


@dataclass(frozen=True)
class WireCosts:
    """One scenario on one wire: the run without caching and the run with it."""

    key: str
    wire: str
    plain: ScenarioResult
    cached: ScenarioResult

    @property
    def title(self) -> str:
        return TITLES[self.key]

    @property
    def billed(self) -> Decimal:
        """What the provider bills without prompt caching."""
        return self.plain.cost

    @property
    def billed_with_caching(self) -> Decimal:
        """What the provider bills with prompt caching."""
        return self.cached.cost

    @property
    def recorded(self) -> Decimal:
        """The cost the framework displays from the ``_Usage`` nodes of the run with caching."""
        return displayed_cost(self.cached.recorded, self.cached.price)

    @property
    def recorded_without_caching(self) -> Decimal:
        """The same for the run without caching (on both wires, the bill)."""
        return displayed_cost(self.plain.recorded, self.plain.price)


def wire_costs() -> list[WireCosts]:
    """Scenarios 1 to 4, each on every wire in :data:`agentkit._wire.WIRES` (in that order within a scenario)."""
    return [WireCosts(key, wire, run_scenario(key, wire=wire), run_scenario(key, caching=True, wire=wire))
            for key in TITLES for wire in WIRES]


def wire_cost_table(rows: list[WireCosts]) -> str:
    """The Markdown table: one row per scenario and wire, billed (without, with caching) and recorded."""
    lines = ["| scenario | wire | cost billed | with caching: billed | with caching: recorded |",
             "| --- | --- | ---: | ---: | ---: |"]
    previous = None
    for row in rows:
        title = row.title if row.key != previous else ""
        previous = row.key
        lines.append(f"| {title} | {WIRE_TITLES[row.wire]} | ${row.billed:.2f} | ${row.billed_with_caching:.2f} "
                     f"| ${row.recorded:.2f} |")
    return "\n".join(lines) + "\n"
