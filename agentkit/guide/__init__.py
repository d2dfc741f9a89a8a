"""agentkit.guide: the guide's worked examples, built on agentkit and never imported by it.

The generated annual report and its ground truth, the fact/dimension worksheet patterns, the
deterministic scripted models, and the six scenarios the agent-design page measures. None of it
models the framework: it is what the guide's pages run on the model. Types only ever returned
(``FinancialReport``, ``ScenarioResult``, ``Grade``, ...) stay in their modules.
"""

# the generated annual report
from ._report import REPORT, build_report_pdf, report_pdf_path, report_pdf_bytes, report_index_text, upload_report

# fact/dimension write patterns: typed nodes, the worksheet (_facts), the checks after writing (_checks)
from ._facts import (
    WorksheetError, MissingMasterData, DIMENSION_TYPE, FACT_TYPE, Worksheet, register_types, fact_id,
    dimension_path, fact_path, read_tables, build_worksheet, parse_checklist, checklist_text,
)
from ._checks import list_dimensions, search_dimension_by_name, verify_by_get, reconcile, grade, facts_for, invented_key

# scripted models
from ._models import ScriptedModel, PlannedCalls, TextModel, DEFAULT_MODEL

# the scenarios
from ._replay import ProcedureModel, View
from ._scenarios import (
    workspace, copy_mesh, report_text, report_tokens, run_scenario, run_all, interrupted, interrupted_sweep, prohibition,
)
from ._scenario_cost import floor_usage, floor_cost, write_phase_sizes, stepwise_input_tokens
from ._tables import scenario_table, caching_table

__all__ = [
    # the generated annual report
    "REPORT", "build_report_pdf", "report_pdf_path", "report_pdf_bytes", "report_index_text", "upload_report",
    # fact/dimension write patterns
    "WorksheetError", "MissingMasterData", "DIMENSION_TYPE", "FACT_TYPE", "Worksheet", "register_types", "fact_id",
    "dimension_path", "fact_path", "read_tables", "build_worksheet", "parse_checklist", "checklist_text",
    "list_dimensions", "search_dimension_by_name", "verify_by_get", "reconcile", "grade", "facts_for",
    "invented_key",
    # scripted models
    "ScriptedModel", "PlannedCalls", "TextModel", "DEFAULT_MODEL",
    # the scenarios
    "ProcedureModel", "View", "workspace", "copy_mesh", "report_text", "report_tokens", "run_scenario", "run_all",
    "interrupted", "interrupted_sweep", "prohibition", "floor_usage", "floor_cost", "scenario_table",
    "caching_table", "write_phase_sizes", "stepwise_input_tokens",
]
