"""A deterministic annual-report PDF and its ground truth, for agents to read.

:data:`REPORT` is the ground truth as data: the line items (short key, display
name, statement, unit, position), the values the report prints for each
period, and the line items the report does not report. :func:`build_report_pdf`
writes the same bytes on every run (fixed creation date, seeded prose);
:func:`report_pdf_path` caches them under ``build/report/``.

Build it by hand (prints the path)::

    .venv/bin/python -c "import agentkit.guide; print(agentkit.guide.report_pdf_path())"
"""

from __future__ import annotations

import functools
import hashlib
import os
import random
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from agentkit._collections import extractive_summary
from agentkit._transformers import IndexText, index_text

# The generator that runs is the one imported, so the cache key is the hash of the source as imported.
_SOURCE_HASH = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]

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
                   cfo=7893, capex=-3573, cfi=-3977, div=-1912, cff=-2684,
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


# -- the PDF --------------------------------------------------------------------

_SECTIONS = (
    # (title, paragraphs of generated prose, vocabulary theme)
    ("Letter from the Chief Executive", 12, "leadership"),
    ("Strategy and business model", 19, "strategy"),
    ("Markets and customers", 19, "markets"),
    ("Segment review", 17, "segments"),
    ("Research and innovation", 19, "innovation"),
    ("People and organisation", 18, "people"),
    ("Sustainability report", 34, "sustainability"),
    ("Risk and opportunity report", 34, "risk"),
    ("Corporate governance statement", 34, "governance"),
    ("Remuneration report", 19, "remuneration"),
    ("Financial review", 12, "finance"),
    ("Notes to the consolidated financial statements", 30, "notes"),
)

_SUBJECTS = {
    "leadership": ["The Executive Board", "Our leadership team", "The Group", "Every business unit", "Our organisation"],
    "strategy": ["The strategy programme", "Our portfolio review", "The capital allocation framework", "The operating model", "Management"],
    "markets": ["Demand in core markets", "Our customer base", "The order intake", "Competitive pressure", "Distribution partners"],
    "segments": ["Each segment", "The Industrial Systems team", "The Medical Devices business", "The Consumer Electronics unit", "Segment management"],
    "innovation": ["The development centres", "Our engineering teams", "The product pipeline", "Joint research projects", "The patent portfolio"],
    "people": ["Our workforce", "The training academy", "Employee representatives", "Local management", "The apprenticeship scheme"],
    "sustainability": ["The environmental programme", "Our production sites", "The supplier code of conduct", "Energy management", "The climate roadmap"],
    "risk": ["The risk committee", "Internal audit", "The control system", "Treasury", "Each risk owner"],
    "governance": ["The Supervisory Board", "The audit committee", "The nomination committee", "The Executive Board", "Shareholders"],
    "remuneration": ["The remuneration system", "Variable pay", "The long-term incentive", "The Supervisory Board", "Pension commitments"],
    "finance": ["Group earnings", "The cost base", "Working capital", "The financing structure", "Currency effects"],
    "notes": ["The accounting policies", "Management judgement", "The consolidation scope", "Measurement of inventories", "Revenue recognition"],
}
_VERBS = ["strengthened", "reviewed", "extended", "stabilised", "simplified", "supported", "shaped", "monitored",
          "broadened", "accelerated", "reinforced", "clarified"]
_OBJECTS = ["the resilience of the supply chain", "the quality of customer service", "the discipline of investment decisions",
            "the transparency of reporting", "the pace of product launches", "the efficiency of plant operations",
            "cooperation across regions", "the long-term value of the Group", "the safety culture at every site",
            "the digital services offering", "the integration of recent acquisitions", "the dialogue with investors"]
_CLAUSES = ["during the reporting year", "in close cooperation with the regions", "despite a volatile environment",
            "in line with the medium-term targets", "as planned at the start of the year", "across all business units",
            "with measurable progress", "while keeping costs under control", "in every major market"]
_CLOSERS = ["This remains a priority for the coming year.", "Progress is reviewed each quarter.",
            "The approach has been confirmed by external review.", "Further steps are planned for the next period.",
            "Details are set out in the following sections.", "Targets for the next period have been agreed."]


def _paragraph(rng: random.Random, theme: str) -> str:
    sentences = [
        f"{rng.choice(_SUBJECTS[theme])} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} {rng.choice(_CLAUSES)}."
        for _ in range(rng.randint(4, 6))
    ]
    sentences.append(rng.choice(_CLOSERS))
    return " ".join(sentences)


def _prose(theme: str, count: int) -> list[str]:
    rng = random.Random(f"meridian-{theme}")  # a str seed is hashed with SHA-512: stable across runs
    return [_paragraph(rng, theme) for _ in range(count)]


def _value_text(report: FinancialReport, key: str, period: str) -> str:
    return report.value(key, period).display


def _table(pdf, report: FinancialReport, title: str, keys: list[str]) -> None:
    label_width, unit_width, value_width = 96, 18, 28
    pdf.set_font("Helvetica", "B", 11)
    pdf.cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "B", 9)
    pdf.cell(label_width, 6, "Line item")
    pdf.cell(unit_width, 6, "Unit")
    for period in report.periods:
        pdf.cell(value_width, 6, period, align="R")
    pdf.ln(6)
    pdf.set_font("Helvetica", "", 9)
    for key in keys:
        item = report.item(key)
        pdf.cell(label_width, 5.5, item.name)
        pdf.cell(unit_width, 5.5, item.unit)
        for period in report.periods:
            pdf.cell(value_width, 5.5, _value_text(report, key, period), align="R")
        pdf.ln(5.5)
    pdf.ln(4)


def _statement_keys(report: FinancialReport, statement: str) -> list[str]:
    return [item.key for item in report.line_items if item.statement == statement]


def _section_extra(pdf, report: FinancialReport, theme: str) -> None:
    """Tables and value-bearing sentences that belong to a section."""
    cur, prev = report.periods
    if theme == "leadership":
        _text(pdf, f"In {cur} the Group grew revenue to EUR {_value_text(report, 'rev', cur)} million "
                   f"(prior year: EUR {_value_text(report, 'rev', prev)} million) and earned a net profit of "
                   f"EUR {_value_text(report, 'np', cur)} million.")
    elif theme == "segments":
        for segment in ("Industrial Systems", "Medical Devices", "Consumer Electronics"):
            _text(pdf, f"{segment} is reported as a separate operating segment; its revenue and operating "
                       "profit are shown in the segment table below.")
        _table(pdf, report, STATEMENTS["segment"], _statement_keys(report, "segment"))
    elif theme == "finance":
        for statement in ("income", "balance", "cashflow"):
            _table(pdf, report, STATEMENTS[statement], _statement_keys(report, statement))


def _text(pdf, text: str) -> None:
    pdf.set_font("Helvetica", "", 11)
    pdf.multi_cell(0, 6.8, text, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)


def build_report_pdf(report: FinancialReport = REPORT) -> bytes:
    """Render the annual report; the same report gives the same bytes on every run."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(CREATION_DATE)
    pdf.set_title(f"{report.company} - Annual Report 2024")
    pdf.set_author(report.company)
    pdf.set_margins(30, 26, 30)
    pdf.set_auto_page_break(True, margin=22)

    pdf.add_page()
    pdf.set_font("Helvetica", "B", 24)
    pdf.ln(60)
    pdf.multi_cell(0, 12, f"{report.company}\nAnnual Report 2024", align="C")
    pdf.set_font("Helvetica", "", 12)
    pdf.ln(10)
    pdf.multi_cell(0, 7, "Financial year ended 31 December 2024\nAll amounts in EUR million unless stated otherwise",
                   align="C")

    pdf.add_page()
    _table(pdf, report, "Key figures", [item.key for item in report.line_items])

    for title, paragraphs, theme in _SECTIONS:
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 16)
        pdf.cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
        texts = _prose(theme, paragraphs)
        half = len(texts) // 2
        for text in texts[:half]:
            _text(pdf, text)
        _section_extra(pdf, report, theme)
        for text in texts[half:]:
            _text(pdf, text)
    return bytes(pdf.output())


def report_pdf_path(cache_dir: Path | None = None) -> Path:
    """The generated PDF on disk, built on first use into ``build/report/`` (git-ignored).

    The cache key is a hash of this module's source, so a changed generator
    never serves a stale file.
    """
    base = cache_dir if cache_dir is not None else Path(__file__).resolve().parents[2] / "build" / "report"
    path = base / _SOURCE_HASH / REPORT.file_name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Write under a name of this process, then rename: a reader never sees a half-written PDF,
        # and two processes building at once never write into the same file.
        partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
        partial.write_bytes(build_report_pdf())
        partial.replace(path)
    return path


def report_pdf_bytes() -> bytes:
    """The generated PDF's bytes (through the cache)."""
    return report_pdf_path().read_bytes()


@functools.cache
def report_index_text() -> IndexText:
    """What indexing extracts from the report (D5): its words joined by spaces, and each word's span.

    Computed once per process, and frozen, so no caller can change what another sees: the pages compare
    against it again and again, and each reading of the PDF takes about a second.
    """
    return index_text(REPORT.file_name, report_pdf_bytes())


def upload_report(mesh, address: str = "Meridian", collection: str = "content"):
    """Upload the generated report into ``{address}/{collection}``, index it, and return its Document node.

    The guide's examples run on a host wired like memex: when the mesh's indexing has no summarizer,
    this sets the framework's ExtractiveSummarizer (:func:`extractive_summary`), because without one
    indexing writes no Document node (D6). The upload is indexed as MCP ``upload`` indexes it (C7).
    Creates the company node (registering the Company NodeType) and the collection when they are missing. The index is not refreshed:
    searches see the report after ``mesh.refresh_index()``.
    """
    if mesh.index.summarizer is None:
        mesh.index.summarizer = extractive_summary
    if not mesh.exists(address):
        mesh.register_node_type("Company")  # the guide's host configures a Company NodeType
        mesh.create({"id": address, "name": REPORT.company, "nodeType": "Company"})
    target = mesh.collections.get(f"{address}/{collection}") or mesh.add_collection(address, collection)
    target.upload(REPORT.file_name, report_pdf_bytes(), index=True)
    return target.document_node(REPORT.file_name)
