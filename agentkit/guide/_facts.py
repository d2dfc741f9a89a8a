"""Fact/dimension write patterns: typed nodes, deterministic ids and the worksheet (the checks after writing: _checks).

The data model the guide's extraction agent writes into:

* a **dimension** node per line item, ``$type`` ``LineItem``, at
  ``{owner}/LineItems/{key}``: its id is the short key (``rev``), never a
  long name invented from the label;
* a **fact** node per reported value, ``$type`` ``Fact``, at
  ``{owner}/Facts/{key}-{period}-{position}``, referencing its dimension by path.

The **worksheet** is the checkpoint between the reading and the writing phase:
a Markdown text an agent emits as its answer, a human reviews, and the writing
phase parses. It must be self-sufficient, because the source is gone after the
round boundary: a new dimension without its master data (name, statement,
unit) is refused with :class:`MissingMasterData` before anything is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from agentkit._cost import require_count
from agentkit._errors import AgentkitError
from agentkit._content_types import ContentType
from agentkit._mesh import Mesh
from agentkit._paths import is_valid_node_id

from ._report import REPORT, STATEMENTS, FinancialReport


class WorksheetError(AgentkitError, ValueError):
    """A worksheet cannot be parsed or written as it stands; nothing was written."""


class MissingMasterData(WorksheetError):
    """A worksheet marks a dimension new but lacks its master data (name, statement, unit)."""


DIMENSION_TYPE = ContentType("LineItem", {"key": "string", "name": "string", "statement": "string", "unit": "string"})
FACT_TYPE = ContentType("Fact", {"lineItem": "string", "period": "string", "value": "number", "unit": "string"})
DIMENSIONS = "LineItems"
FACTS = "Facts"
EXISTS, NEW = "exists", "new"
MASTER_DATA = ("name", "statement", "unit")
NOT_REPORTED = "not stated in the report"

# Get's text of a PDF runs the cells of a table together where the PDF draws no space (PdfPig's page.Text): a row
# is ``RevenueEUR m4,812.34,523.1``. The reader takes what it is shown, spaces or not: a label (letters, no digits,
# brackets or full stops), a unit, then the figures up to the next label.
_ROW = re.compile(r"\s*(?P<name>[A-Za-z][^.()0-9]*?)\s*(?P<unit>EUR m|EUR)\s*(?P<values>[-0-9,.() ]*[0-9)])")
_PERIOD_HEADER = re.compile(r"\s*Line item\s*Unit\s*(?P<periods>(?:FY[0-9]{4}\s*)+)")
_AMOUNT = re.compile(r"^\(?-?[0-9][0-9,]*(?:\.[0-9]+)?\)?$")
_FUSED_AMOUNT = re.compile(r"\(?-?[0-9]{1,3}(?:,[0-9]{3})*\.(?P<decimals>[0-9]+)\)?")


def register_types(mesh: Mesh) -> None:
    """Register the ``LineItem`` and ``Fact`` NodeTypes and their content types in ``mesh``."""
    for content_type in (DIMENSION_TYPE, FACT_TYPE):
        mesh.register_node_type(content_type.name)
        mesh.register_type(content_type)


def fact_id(key: str, period: str, position: int) -> str:
    """The deterministic fact id ``{shortKey}-{period}-{position}``; a retry of the same row gets the same id."""
    require_count(position, "position", 1)
    made = f"{key}-{period}-{position}"
    if not key or not period or not is_valid_node_id(made):
        raise ValueError(f"fact id {made!r} is not a slug: key and period must be letters, digits, '-', '_' or '.'")
    return made


def dimension_path(owner: str, key: str) -> str:
    return f"{owner}/{DIMENSIONS}/{key}"


def fact_path(owner: str, identifier: str) -> str:
    return f"{owner}/{FACTS}/{identifier}"


def dimension_node(owner: str, key: str, name: str, statement: str, unit: str) -> dict[str, Any]:
    """The Create argument for a ``LineItem`` dimension at ``{owner}/LineItems/{key}``."""
    return {"id": key, "namespace": f"{owner}/{DIMENSIONS}", "name": name, "nodeType": DIMENSION_TYPE.name,
            "content": {"$type": DIMENSION_TYPE.name, "key": key, "name": name, "statement": statement,
                        "unit": unit}}


def fact_node(owner: str, identifier: str, name: str, line_item: str, period: str, value: float | None,
              unit: str) -> dict[str, Any]:
    """The Create argument for a ``Fact`` at ``{owner}/Facts/{identifier}``; ``line_item`` is its dimension's path."""
    return {"id": identifier, "namespace": f"{owner}/{FACTS}", "name": name, "nodeType": FACT_TYPE.name,
            "content": {"$type": FACT_TYPE.name, "lineItem": line_item, "period": period, "value": value,
                        "unit": unit}}


def parse_amount(text: str) -> float:
    """A printed amount as a number: ``4,812.3`` is 4812.3, ``(2,935.5)`` is -2935.5."""
    if not _AMOUNT.match(text):
        raise ValueError(f"not an amount: {text!r}")
    negative = text.startswith("(") or text.startswith("-")
    number = float(text.strip("()").lstrip("-").replace(",", ""))
    return -number if negative else number


@dataclass(frozen=True)
class TableRow:
    """One line of a statement table as the text shows it."""

    statement: str
    position: int
    name: str
    unit: str
    values: Mapping[str, str]  # period -> the amount as printed


def read_tables(text: str) -> list[TableRow]:
    """Every row of every statement table in a report's full text (the key-figures overview is skipped).

    A table opens with its title, then ``Line item``, ``Unit`` and its periods; its rows follow until the first
    stretch of text that is no complete row. The text may hold the table as lines of cells separated by spaces,
    or, as Get returns a PDF, with no separator at all: then a row's figures are one run of digits, and
    :func:`split_amounts` must find the one way they divide into the periods' amounts, or the table ends there.
    """
    rows: list[TableRow] = []
    for title in STATEMENTS.values():
        start = 0
        while (at := text.find(title, start)) >= 0:
            start = at + len(title)
            header = _PERIOD_HEADER.match(text, start)
            if not header:
                continue
            periods = re.findall(r"FY[0-9]{4}", header["periods"])
            position, cursor = 0, header.end()
            while (found := _ROW.match(text, cursor)) is not None:
                amounts = split_amounts(found["values"], len(periods))
                if amounts is None or found["name"].strip() in STATEMENTS.values():
                    break
                position += 1
                rows.append(TableRow(title, position, found["name"].strip(), found["unit"],
                                     dict(zip(periods, amounts))))
                cursor = found.end()
    return rows


def split_amounts(figures: str, count: int) -> list[str] | None:
    """The ``count`` amounts a row's figures hold, or None when they cannot be read as exactly that many.

    Figures separated by spaces are read as they stand. Figures that ran together (``4,812.34,523.1``) are read
    only where they divide one way into amounts with thousands groups and the same number of decimals.
    """
    tokens = figures.split()
    if len(tokens) == count and all(_AMOUNT.match(token) for token in tokens):
        return tokens
    found = fused_readings("".join(tokens), count)
    return found[0] if len(found) == 1 else None


def fused_readings(fused: str, count: int, *, same_decimals: bool = True) -> list[list[str]]:
    """Every way ``fused`` divides into ``count`` amounts with thousands groups (``621.5528.2`` is ``621.5 528.2``,
    or ``621.55 28.2``, or ``621.552 8.2``); with ``same_decimals``, only those whose amounts all carry as many
    decimals as each other."""
    if count == 0:
        return [[]] if not fused else []
    readings = []
    for end in range(1, len(fused) + 1):
        found = _FUSED_AMOUNT.fullmatch(fused, 0, end)
        if found is None:
            continue
        for rest in fused_readings(fused[end:], count - 1, same_decimals=False):
            reading = [fused[:end], *rest]
            decimals = {len(amount.strip("()").partition(".")[2]) for amount in reading}
            if not same_decimals or len(decimals) == 1:
                readings.append(reading)
    return readings


# -- the worksheet --------------------------------------------------------------


@dataclass(frozen=True)
class DimensionRow:
    """A dimension the facts reference: ``status`` says whether it exists or must be created."""

    key: str
    name: str
    statement: str
    unit: str
    status: str

    def missing_master_data(self) -> tuple[str, ...]:
        return tuple(name for name in MASTER_DATA if not getattr(self, name).strip())


@dataclass(frozen=True)
class FactRow:
    """A value to write, or (``value`` None) a requested value the source does not report, with the reason."""

    id: str
    key: str
    period: str
    value: float | None
    unit: str
    reason: str = ""


@dataclass(frozen=True)
class Worksheet:
    """The phase-1 checkpoint: everything phase 2 needs to write, and nothing it must look up again."""

    owner: str
    source: str
    dimensions: tuple[DimensionRow, ...]
    facts: tuple[FactRow, ...]

    @property
    def new_dimensions(self) -> tuple[DimensionRow, ...]:
        return tuple(row for row in self.dimensions if row.status == NEW)

    @property
    def writable_facts(self) -> tuple[FactRow, ...]:
        return tuple(row for row in self.facts if row.value is not None)

    def validate(self) -> None:
        """Refuse a worksheet that cannot be written as it stands (nothing is written on refusal)."""
        lacking = [(row.key, row.missing_master_data()) for row in self.new_dimensions if row.missing_master_data()]
        if lacking:
            detail = "; ".join(f"'{key}' lacks {', '.join(names)}" for key, names in lacking)
            raise MissingMasterData(
                f"Worksheet refused: new dimension(s) without master data: {detail}. The source is not "
                "reachable in the writing phase, so the worksheet must carry name, statement and unit for "
                "every dimension it marks new. Nothing was written.")
        keys = {row.key for row in self.dimensions}
        orphans = sorted({row.key for row in self.writable_facts if row.key not in keys})
        if orphans:
            raise WorksheetError(
                f"Worksheet refused: fact rows reference dimension(s) {', '.join(orphans)} that have no dimension "
                "row; add a row (status exists or new) for each. Nothing was written.")
        seen: set[str] = set()
        for row in self.writable_facts:
            if row.id in seen:
                raise WorksheetError(f"Worksheet refused: fact id '{row.id}' appears twice. Nothing was written.")
            seen.add(row.id)

    def dimension_node(self, row: DimensionRow) -> dict[str, Any]:
        """The Create argument for a new dimension."""
        return dimension_node(self.owner, row.key, row.name, row.statement, row.unit)

    def fact_node(self, row: FactRow) -> dict[str, Any]:
        """The Create argument for a fact, under its deterministic id."""
        return fact_node(self.owner, row.id, f"{row.key} {row.period}", dimension_path(self.owner, row.key),
                         row.period, row.value, row.unit)

    def nodes_to_create(self, existing_keys: Iterable[str] = ()) -> list[dict[str, Any]]:
        """New dimensions (those not in ``existing_keys``) first, then every writable fact. Validates first."""
        self.validate()
        present = set(existing_keys)
        dimensions = [self.dimension_node(row) for row in self.new_dimensions if row.key not in present]
        return dimensions + [self.fact_node(row) for row in self.writable_facts]

    def expected_paths(self) -> list[str]:
        """Every path that must hold a node once the worksheet is written."""
        return ([dimension_path(self.owner, row.key) for row in self.dimensions]
                + [fact_path(self.owner, row.id) for row in self.writable_facts])

    def to_text(self) -> str:
        """The worksheet as the Markdown answer a reviewer reads and phase 2 parses."""
        lines = [f"# Worksheet: {self.source} -> {self.owner}", "", "## Dimensions (LineItem)", "",
                 "| key | name | statement | unit | status |", "| --- | --- | --- | --- | --- |"]
        lines += [f"| {r.key} | {r.name} | {r.statement} | {r.unit} | {r.status} |" for r in self.dimensions]
        lines += ["", "## Facts (Fact)", "", "| id | lineItem | period | value | unit | note |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for r in self.facts:
            value = "" if r.value is None else _number(r.value)
            lines.append(f"| {r.id} | {r.key} | {r.period} | {value} | {r.unit} | {r.reason} |")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> "Worksheet":
        """Parse a worksheet answer; a malformed one raises WorksheetError naming the line."""
        lines = text.splitlines()
        head = next((i for i, line in enumerate(lines) if line.startswith("# Worksheet: ")), None)
        if head is None:
            raise WorksheetError("No worksheet found: expected a line '# Worksheet: {source} -> {owner}'")
        source, arrow, owner = lines[head][len("# Worksheet: "):].rpartition(" -> ")
        if not arrow or not owner.strip():
            raise WorksheetError(f"Worksheet line {head + 1}: expected '# Worksheet: {{source}} -> {{owner}}'")
        sections: dict[str, list[tuple[int, list[str]]]] = {"dimensions": [], "facts": []}
        current = None
        for number, line in enumerate(lines[head + 1:], start=head + 2):
            first = line[:1]  # a heading starts with '#', a table row with '|': each line is tested for its kind
            if first == "#":
                if line.startswith("## Dimensions"):
                    current = "dimensions"
                elif line.startswith("## Facts"):
                    current = "facts"
                elif line.startswith("## ") or line.startswith("# "):
                    current = None
            elif current and first == "|" and not line.startswith("| ---"):
                sections[current].append((number, list(map(str.strip, line.strip().strip("|").split("|")))))
        dimensions = tuple(_dimension_row(number, cells) for number, cells in sections["dimensions"][1:])
        facts = tuple(_fact_row(number, cells) for number, cells in sections["facts"][1:])
        if not dimensions and not facts:
            raise WorksheetError("Worksheet has no dimension or fact rows")
        return cls(owner.strip(), source.strip(), dimensions, facts)


def _number(value: float) -> str:
    # repr is the shortest text that reads back as the same float: no rounding in the checkpoint.
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def _dimension_row(number: int, cells: list[str]) -> DimensionRow:
    if len(cells) != 5:
        raise WorksheetError(f"Worksheet line {number}: a dimension row has 5 cells (key, name, statement, unit, "
                             f"status), got {len(cells)}")
    key, name, statement, unit, status = cells
    if status not in (EXISTS, NEW):
        raise WorksheetError(f"Worksheet line {number}: status must be '{EXISTS}' or '{NEW}', got {status!r}")
    if not is_valid_node_id(key):
        raise WorksheetError(f"Worksheet line {number}: dimension key {key!r} is not a slug")
    return DimensionRow(key, name, statement, unit, status)


def _fact_row(number: int, cells: list[str]) -> FactRow:
    if len(cells) != 6:
        raise WorksheetError(f"Worksheet line {number}: a fact row has 6 cells (id, lineItem, period, value, unit, "
                             f"note), got {len(cells)}")
    identifier, key, period, value, unit, note = cells
    if not is_valid_node_id(identifier):
        raise WorksheetError(f"Worksheet line {number}: fact id {identifier!r} is not a slug")
    if not value:
        if not note:
            raise WorksheetError(f"Worksheet line {number}: fact '{identifier}' has no value and no note saying why")
        return FactRow(identifier, key, period, None, unit, note)
    try:
        number_value = float(value)
    except ValueError:
        raise WorksheetError(
            f"Worksheet line {number}: value {value!r} of fact '{identifier}' is not a number") from None
    return FactRow(identifier, key, period, number_value, unit, note)


@dataclass(frozen=True)
class Requested:
    """A line item the task asks for: its short key and the label the reader looks for."""

    key: str
    name: str


def parse_checklist(text: str) -> list[Requested]:
    """The ``- key: Name`` lines of a task message."""
    lines = re.finditer(r"^- (?P<key>[a-z0-9]+): (?P<name>.+)$", text, re.M)
    return [Requested(m["key"], m["name"].strip()) for m in lines]


def checklist_text(report: FinancialReport = REPORT) -> str:
    """The checklist lines for every line item of ``report``, reported or not, in report order."""
    return "\n".join(f"- {item.key}: {item.name}" for item in report.line_items + report.unreported)


def build_worksheet(owner: str, source: str, text: str, requested: Sequence[Requested],
                    listed: Sequence[Mapping[str, Any]], periods: Sequence[str]) -> Worksheet:
    """What a reading phase writes down: each requested item found in ``text``, its status, its values.

    ``listed`` is the dimension listing (``{path, name}`` rows). A dimension
    exists when a listed node has the key as its id or the same display name
    (case-insensitive); matching both catches a label variant and a key variant.
    """
    by_name = {row.name.casefold(): row for row in read_tables(text)}
    by_id = {str(row["path"]).rsplit("/", 1)[-1]: row for row in listed}
    by_label = {str(row["name"]).casefold(): row for row in listed}
    dimensions, facts = [], []
    for item in requested:
        row = by_name.get(item.name.casefold())
        match = by_id.get(item.key) or by_label.get(item.name.casefold())
        if row is None:
            for period in periods:
                facts.append(FactRow(f"{item.key}-{period}", item.key, period, None, "", NOT_REPORTED))
            continue
        key = str(match["path"]).rsplit("/", 1)[-1] if match else item.key
        dimensions.append(DimensionRow(key, row.name, row.statement, row.unit, EXISTS if match else NEW))
        for period in periods:
            facts.append(FactRow(fact_id(key, period, row.position), key, period,
                                 parse_amount(row.values[period]), row.unit))
    return Worksheet(owner, source, tuple(dimensions), tuple(facts))
