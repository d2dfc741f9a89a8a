"""Checks after writing: the existence checks, verification by Get, reconciliation and the grade.

They go by direct Get on the expected paths (deterministic ids make them known in advance), not
through the search index, which lags; the grade judges what was written against the report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from agentkit._errors import CollectionNotFound, NodeNotFound
from agentkit._mesh import Mesh
from agentkit._paths import document_slug

from ._facts import DIMENSIONS, EXISTS, FACTS, Worksheet, dimension_path, fact_path
from ._report import REPORT, STATEMENTS, FinancialReport

ALREADY_EXISTS = "dimension already exists"


def list_dimensions(mesh: Mesh, owner: str) -> dict[str, Any]:
    """The existence check as the guide recommends it: one search listing every dimension."""
    return mesh.search("nodeType:LineItem", base_path=f"{owner}/{DIMENSIONS}", limit=200)


def search_dimension_by_name(mesh: Mesh, owner: str, name: str) -> dict[str, Any]:
    """The fragile existence check: a search for the label's words (a variant label finds nothing)."""
    return mesh.search(f"nodeType:LineItem {name}", base_path=f"{owner}/{DIMENSIONS}", limit=200)


@dataclass(frozen=True)
class Verification:
    """Direct Get on every expected path, beside what a search count and a listing say at the same moment."""

    present: tuple[str, ...]
    missing: tuple[str, ...]
    search_count: int
    listed_count: int  # the facts Get on '{owner}/Facts/*' lists, a query that lags like Search (M2)

    @property
    def complete(self) -> bool:
        return not self.missing


def verify_by_get(mesh: Mesh, worksheet: Worksheet) -> Verification:
    """Get each expected path (deterministic ids make them known); also record what Search and a listing count now."""
    present, missing = [], []
    for path in worksheet.expected_paths():
        try:
            mesh.get(path)
            present.append(path)
        except (NodeNotFound, CollectionNotFound):
            missing.append(path)
    count = mesh.search("nodeType:Fact", base_path=f"{worksheet.owner}/{FACTS}", limit=200)["count"]
    listed = len(mesh.fetch(f"{worksheet.owner}/{FACTS}/*").value)
    return Verification(tuple(present), tuple(missing), count, listed)


@dataclass(frozen=True)
class Unwritten:
    """A worksheet row that did not become a new node, and why."""

    row: str
    reason: str


@dataclass(frozen=True)
class Reconciliation:
    """Worksheet rows against what was written: every row not written is listed with its reason."""

    rows: int
    written: tuple[str, ...]
    unwritten: tuple[Unwritten, ...]

    @property
    def unexplained(self) -> int:
        """Rows neither written nor explained: the signature of silent under-creation (0 when reconciled)."""
        return self.rows - len(self.written) - len(self.unwritten)

    def to_text(self) -> str:
        lines = [f"Reconciliation: {self.rows} worksheet rows, {len(self.written)} written, "
                 f"{len(self.unwritten)} not written, {self.unexplained} unexplained."]
        lines += [f"- {u.row}: {u.reason}" for u in self.unwritten]
        return "\n".join(lines)


def reconcile(worksheet: Worksheet, outcomes: Mapping[str, str],
              found_at_recheck: Iterable[str] = ()) -> Reconciliation:
    """Match every worksheet row to the tool result its Create got (``outcomes``: path -> result text).

    A row counts as written when its node was created, or when a re-create
    collided with the node an earlier, interrupted round wrote (same id, so
    the same row). ``found_at_recheck`` are the keys of dimensions the
    worksheet marks new that the re-check before writing found standing.
    Every other row is listed with its reason.
    """
    recheck = set(found_at_recheck)
    written, unwritten = [], []
    for row in worksheet.dimensions:
        path = dimension_path(worksheet.owner, row.key)
        result = outcomes.get(path, "")
        if result.startswith("Created:"):
            written.append(path)
        elif row.status == EXISTS:
            unwritten.append(Unwritten(path, ALREADY_EXISTS))
        elif row.key in recheck:
            unwritten.append(Unwritten(path, "marked new, but found standing at the re-check before writing"))
        elif "already exists" in result:
            unwritten.append(Unwritten(path, "created by an earlier round (re-create collided)"))
        else:
            unwritten.append(Unwritten(path, f"Create failed: {result}" if result else "no Create was issued"))
    for row in worksheet.facts:
        path = fact_path(worksheet.owner, row.id)
        result = outcomes.get(path, "")
        if row.value is None:
            unwritten.append(Unwritten(f"{row.key} {row.period}", row.reason))
        elif result.startswith("Created:") or "already exists" in result:
            written.append(path)
        else:
            unwritten.append(Unwritten(path, f"Create failed: {result}" if result else "no Create was issued"))
    return Reconciliation(len(worksheet.dimensions) + len(worksheet.facts), tuple(written), tuple(unwritten))


@dataclass(frozen=True)
class Grade:
    """Written nodes against the report's ground truth."""

    written: int
    correct: int
    duplicates: int
    missing: tuple[str, ...]
    wrong: tuple[str, ...] = field(default=())


def expected_nodes(owner: str, report: FinancialReport = REPORT) -> dict[str, dict[str, Any]]:
    """Ground truth: every dimension path with its master data, every fact path with its content."""
    expected: dict[str, dict[str, Any]] = {}
    for item in report.line_items:
        expected[dimension_path(owner, item.key)] = {
            "key": item.key, "name": item.name, "statement": STATEMENTS[item.statement], "unit": item.unit}
    for value in report.values:
        expected[fact_path(owner, value.fact_id)] = {
            "lineItem": dimension_path(owner, value.item), "period": value.period, "value": value.value,
            "unit": report.item(value.item).unit}
    return expected


def grade(mesh: Mesh, owner: str, before: Iterable[str], report: FinancialReport = REPORT) -> Grade:
    """Judge the nodes written under ``owner`` since ``before`` (the paths that stood then) against the report.

    A dimension is correct when it stands at its key's path with the report's
    master data. A fact is correct by content, whatever its id: typed, and its
    line-item reference, period, value and unit are the report's. A value
    written twice (two facts for one line item and period) is a duplicate.
    """
    stood = set(before)
    expected = expected_nodes(owner, report)
    truth = {(c["lineItem"], c["period"]): c for p, c in expected.items() if p.startswith(f"{owner}/{FACTS}/")}
    written, wrong, correct_pairs = [], [], set()
    correct = 0
    per_value: dict[tuple[str, str], int] = {}
    for node in mesh.nodes():
        if node.namespace not in (f"{owner}/{DIMENSIONS}", f"{owner}/{FACTS}"):
            continue
        content = node.content or {}
        is_fact = node.namespace == f"{owner}/{FACTS}"
        pair = (str(content.get("lineItem")), str(content.get("period")))
        if is_fact:
            per_value[pair] = per_value.get(pair, 0) + 1
        if node.path in stood:
            continue
        written.append(node.path)
        want = truth.get(pair) if is_fact else expected.get(node.path)
        if node.typed and want is not None and all(content.get(k) == v for k, v in want.items()):
            correct += 1
            if is_fact:
                correct_pairs.add(pair)
        else:
            wrong.append(node.path)
    duplicates = sum(count - 1 for count in per_value.values() if count > 1)
    missing = tuple(f"{line_item} {period}" for line_item, period in truth if (line_item, period) not in correct_pairs)
    missing += tuple(path for path in expected if path.startswith(f"{owner}/{DIMENSIONS}/")
                     and path not in stood and not mesh.exists(path))
    return Grade(len(written), correct, duplicates, missing, tuple(wrong))


def facts_for(mesh: Mesh, owner: str, key: str) -> list[str]:
    """A view keyed on one dimension: the facts whose ``lineItem`` is ``{owner}/LineItems/{key}``."""
    target = dimension_path(owner, key)
    return [node.path for node in mesh.nodes()
            if node.namespace == f"{owner}/{FACTS}" and (node.content or {}).get("lineItem") == target]


def invented_key(name: str) -> str:
    """The id a careless agent makes from a label (``Operating profit`` -> ``operating-profit``)."""
    return document_slug(name).lower()
