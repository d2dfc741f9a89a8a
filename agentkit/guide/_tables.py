"""The scenarios' Markdown tables, as the guide shows them."""

from __future__ import annotations

from typing import Sequence

from ._scenario_cost import floor_cost, floor_usage
from ._scenarios import ScenarioResult


def scenario_table(results: Sequence[ScenarioResult], cached: Sequence[ScenarioResult] = ()) -> str:
    """The Markdown table the guide shows: one row per scenario, cost also as a multiple of the floor.

    ``cached`` are the same scenarios run with prompt caching; given, they add a column.
    """
    floor, usage = floor_cost(), floor_usage()
    caching = bool(cached)
    if caching and [r.key for r in cached] != [r.key for r in results]:
        raise ValueError("cached results must be the same scenarios, in the same order")
    head = "| scenario | turns | input tokens | output tokens | cost | × floor |"
    head += " with caching |" if caching else ""
    lines = [head + " nodes written | correct | rows not written (unexplained) |",
             "| --- | ---: | ---: | ---: | ---: | ---: |" + (" ---: |" if caching else "") + " ---: | ---: | ---: |"]
    for position, r in enumerate(results):
        explained = "—" if r.reconciliation is None else (
            f"{len(r.reconciliation.unwritten)} ({r.reconciliation.unexplained})")
        extra = f" ${cached[position].cost:.2f} |" if caching else ""
        lines.append(f"| {r.title} | {r.turns} | {r.usage.total_input:,} | {r.usage.output:,} | ${r.cost:.2f} | "
                     f"{r.cost / floor:.1f} |{extra} {r.grade.written} | {r.grade.correct} | {explained} |")
    lines.append(f"| Floor | | {usage.total_input:,} | "
                 f"{usage.output:,} | ${floor:.2f} | 1.0 |" + (" |" if caching else "") + " | | |")
    return "\n".join(lines) + "\n"


def caching_table(cached: Sequence[ScenarioResult]) -> str:
    """The scenarios billed with prompt caching: plain input, cache reads and writes, output and cost."""
    lines = ["| scenario (with caching) | plain input | cache read | cache write | output | cost |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in cached:
        u = r.usage
        lines.append(f"| {r.title} | {u.input:,} | {u.cache_read:,} | {u.cache_write:,} | {u.output:,} "
                     f"| ${r.cost:.2f} |")
    return "\n".join(lines) + "\n"
