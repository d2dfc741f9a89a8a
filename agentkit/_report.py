"""A deterministic annual-report PDF and its ground truth, for agents to read.

:data:`REPORT` is the ground truth as data: the line items (short key, display
name, statement, unit, position), the values the report prints for each
period, and the line items the report does not report. :func:`build_report_pdf`
writes the same bytes on every run (fixed creation date, seeded prose);
:func:`report_pdf_path` caches them under ``build/report/``.

Regenerate by hand with ``python -m agentkit._report`` (prints the path).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

COMPANY = "Meridian Components Group"
FILE_NAME = "Annual Report 2024.pdf"
PERIODS = ("FY2024", "FY2023")
SHARES_MILLIONS = 212.4
CREATION_DATE = datetime(2025, 3, 14, 9, 0, 0, tzinfo=timezone.utc)
STATEMENTS = {
    "income": "Consolidated income statement",
    "balance": "Consolidated balance sheet",
    "cashflow": "Consolidated cash flow statement",
    "segment": "Segment information",
}


@dataclass(frozen=True)
class LineItem:
    """A reportable line: ``key`` is the short key used in fact ids (``rev``)."""

    key: str
    name: str
    statement: str  # a key of STATEMENTS
    unit: str  # "EUR m" or "EUR"
    position: int  # 1-based row of the line in its statement


@dataclass(frozen=True)
class ReportedValue:
    """One value the report prints: line item, period, value and the exact text printed."""

    item: str
    period: str
    value: float
    display: str
    position: int

    @property
    def fact_id(self) -> str:
        """The deterministic id ``{shortKey}-{period}-{position}``."""
        return f"{self.item}-{self.period}-{self.position}"


@dataclass(frozen=True)
class FinancialReport:
    """The ground truth behind the generated PDF."""

    company: str
    file_name: str
    periods: tuple[str, ...]
    line_items: tuple[LineItem, ...]
    values: tuple[ReportedValue, ...]
    unreported: tuple[LineItem, ...]

    def item(self, key: str) -> LineItem:
        """The line item (reported or not) with short key ``key``."""
        for item in self.line_items + self.unreported:
            if item.key == key:
                return item
        raise KeyError(f"no line item with key '{key}'")

    def value(self, key: str, period: str) -> ReportedValue:
        """The reported value of ``key`` in ``period``."""
        for value in self.values:
            if value.item == key and value.period == period:
                return value
        raise KeyError(f"no reported value for '{key}' in '{period}'")


# Line items in statement order: (key, name, statement, unit).
_ITEMS = (
    ("rev", "Revenue", "income", "EUR m"),
    ("cos", "Cost of sales", "income", "EUR m"),
    ("gp", "Gross profit", "income", "EUR m"),
    ("sdx", "Selling and distribution expenses", "income", "EUR m"),
    ("adm", "Administrative expenses", "income", "EUR m"),
    ("rnd", "Research and development expenses", "income", "EUR m"),
    ("ebit", "Operating profit", "income", "EUR m"),
    ("nfc", "Net finance costs", "income", "EUR m"),
    ("pbt", "Profit before tax", "income", "EUR m"),
    ("tax", "Income tax expense", "income", "EUR m"),
    ("np", "Net profit", "income", "EUR m"),
    ("eps", "Basic earnings per share", "income", "EUR"),
    ("ppe", "Property, plant and equipment", "balance", "EUR m"),
    ("inv", "Inventories", "balance", "EUR m"),
    ("rec", "Trade receivables", "balance", "EUR m"),
    ("cash", "Cash and cash equivalents", "balance", "EUR m"),
    ("ta", "Total assets", "balance", "EUR m"),
    ("eq", "Total equity", "balance", "EUR m"),
    ("ltd", "Non-current borrowings", "balance", "EUR m"),
    ("pay", "Trade payables", "balance", "EUR m"),
    ("ocl", "Other liabilities", "balance", "EUR m"),
    ("cfo", "Net cash from operating activities", "cashflow", "EUR m"),
    ("capex", "Purchase of property, plant and equipment", "cashflow", "EUR m"),
    ("cfi", "Net cash used in investing activities", "cashflow", "EUR m"),
    ("div", "Dividends paid", "cashflow", "EUR m"),
    ("cff", "Net cash used in financing activities", "cashflow", "EUR m"),
    ("indrev", "Industrial Systems revenue", "segment", "EUR m"),
    ("indop", "Industrial Systems operating profit", "segment", "EUR m"),
    ("medrev", "Medical Devices revenue", "segment", "EUR m"),
    ("medop", "Medical Devices operating profit", "segment", "EUR m"),
    ("conrev", "Consumer Electronics revenue", "segment", "EUR m"),
    ("conop", "Consumer Electronics operating profit", "segment", "EUR m"),
)

# Line items a reader might look for that the report never states.
_UNREPORTED = (
    ("gwimp", "Goodwill impairment", "income", "EUR m"),
    ("rstr", "Restructuring costs", "income", "EUR m"),
    ("lease", "Lease liabilities", "balance", "EUR m"),
    ("fcf", "Free cash flow", "cashflow", "EUR m"),
)

# Chosen inputs in tenths of EUR m (integers keep sums exact); the rest is derived.
_INPUTS = {
    "FY2024": dict(rev=48123, cos=-29355, sdx=-6412, adm=-3187, rnd=-2954, nfc=-734, tax=-1368,
                   ppe=21873, inv=7412, rec=8236, cash=5321, eq=19764, ltd=11208, pay=5937,
                   cfo=7893, capex=-3562, cfi=-3977, div=-1912, cff=-2684,
                   indrev=23107, medrev=14986, indop=3218, medop=2469),
    "FY2023": dict(rev=45231, cos=-28017, sdx=-6145, adm=-3076, rnd=-2711, nfc=-812, tax=-1173,
                   ppe=20546, inv=7089, rec=7753, cash=4089, eq=18412, ltd=11975, pay=5528,
                   cfo=7125, capex=-3318, cfi=-3704, div=-1784, cff=-2917,
                   indrev=21884, medrev=13902, indop=2987, medop=2135),
}


def _derive(inputs: dict[str, int]) -> dict[str, int]:
    v = dict(inputs)
    v["gp"] = v["rev"] + v["cos"]
    v["ebit"] = v["gp"] + v["sdx"] + v["adm"] + v["rnd"]
    v["pbt"] = v["ebit"] + v["nfc"]
    v["np"] = v["pbt"] + v["tax"]
    v["ta"] = v["ppe"] + v["inv"] + v["rec"] + v["cash"]
    v["ocl"] = v["ta"] - v["eq"] - v["ltd"] - v["pay"]
    v["conrev"] = v["rev"] - v["indrev"] - v["medrev"]
    v["conop"] = v["ebit"] - v["indop"] - v["medop"]
    return v


def _display(tenths: int) -> str:
    text = f"{abs(tenths) / 10:,.1f}"
    return f"({text})" if tenths < 0 else text


def _build_report() -> FinancialReport:
    positions: dict[str, int] = {}
    items = []
    for key, name, statement, unit in _ITEMS:
        positions[statement] = positions.get(statement, 0) + 1
        items.append(LineItem(key, name, statement, unit, positions[statement]))
    unreported = tuple(
        LineItem(key, name, statement, unit, 0) for key, name, statement, unit in _UNREPORTED
    )
    values = []
    for period in PERIODS:
        tenths = _derive(_INPUTS[period])
        for item in items:
            if item.key == "eps":
                eps = round(tenths["np"] / 10 / SHARES_MILLIONS, 2)
                values.append(ReportedValue("eps", period, eps, f"{eps:.2f}", item.position))
            else:
                amount = tenths[item.key]
                values.append(ReportedValue(item.key, period, amount / 10, _display(amount), item.position))
    return FinancialReport(COMPANY, FILE_NAME, PERIODS, tuple(items), tuple(values), unreported)


REPORT = _build_report()
