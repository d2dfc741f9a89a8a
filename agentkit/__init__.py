"""agentkit: an in-process reference model of the mesh-based agent framework the guide documents."""

# content layer: paths, mesh, index, collections, transformers, chunks, tools, report
from ._errors import (
    AgentkitError, PathError, PathTraversal, NodeNotFound, CollectionNotFound, FileNotFound,
    CreateError, InvalidJson, MissingField, MalformedNamespace, NodeExists, SchemaMismatch,
    StrictContentError, ContentError, NoTransformer, UnreadableDocument, DocumentSlugCollision,
    UnregisteredDiscriminator, NotPatchable, ToolArgumentError,
)
from ._paths import (
    RESERVED_PREFIXES, UnifiedPath, parse_path, canonical_segment, resolve_relative,
    document_slug, document_node_path, file_path_by_string_rule, file_path_from_document,
    resolve_tool_path, resolve_context_path, get_path_of_file, reference_kind,
)
from ._node import Node, StepClock
from ._mesh import Mesh, ContentType, CreateResult, merge_patch, repair_json, DOCUMENT_TYPE, PATCHABLE_FIELDS
from ._index import SearchIndex
from ._collections import ContentCollection, extractive_summary, SUMMARY_LIMIT
from ._transformers import TRANSFORMERS, Transformer, find_transformer, get_text, index_text
from ._chunks import CHUNK_SIZE, CHUNK_OVERLAP, Chunk, chunk_spans, snippet
from ._chunk_navigation import search_chunks, get_chunk
from ._plugins import (
    Tool, Parameter, mesh_plugin, content_collection_plugin, mcp_tools, tools_by_name, snake_case,
    unoffered_tool_answer, MESH_PLUGIN, CONTENT_COLLECTION_PLUGIN, MCP_SERVER, BULK_CREATE, MESH_METHODS,
    MESH_READ_ONLY_METHODS, CONTENT_COLLECTION_METHODS, UNOFFERED_TOOL_TEXT,
)
from ._report import REPORT, FinancialReport, LineItem, ReportedValue, build_report_pdf, report_pdf_path, report_pdf_bytes, upload_report
# end content layer

# runtime and cost model: tokens, prices, configuration, threads, models, runtime, usage
from ._errors import ConfigurationError, ThreadError, UnknownPluginWarning
from ._messages import Message, ToolCall, ToolResult, ToolDefinition, Reply, Context
from ._tokens import (
    CHARS_PER_TOKEN, ITEM_OVERHEAD_TOKENS, ContextEstimate, estimate_context, text_tokens,
    item_tokens, items_tokens, reply_tokens, tool_definition_tokens, instructions_tokens,
)
from ._cost import (
    ModelPrice, EXAMPLE_PRICES, TokenUsage, CallPattern, cost_of, input_tokens,
    sequential_input_tokens, batched_input_tokens, CACHE_WRITE_5_MINUTES, CACHE_WRITE_1_HOUR, CACHE_READ,
)
from ._config import (
    AgentConfiguration, PluginGrant, parse_plugin_entry, BUDGET_TEXT, READ_ONLY_MESH_METHODS,
    ALWAYS_OFFERED, DELEGATION_TOOL,
)
from ._threads import Thread, rebuild_history, trim_history, HISTORY_BUDGET_CHARS
from ._models import Model, ScriptedModel, PlannedCalls, TextModel, DEFAULT_MODEL
from ._runtime import Agent, Run, Turn, Interrupt, COMPLETED, CANCELLED, ERROR, DIED
from ._usage import (
    UsageReport, UsageRow, usage_report, record_usage, recorded_usage, usage_key, usage_path,
    UNKNOWN_MODEL,
)
# end runtime and cost model

# fact/dimension write patterns and the guide's scenarios
from ._errors import WorksheetError, MissingMasterData
from ._facts import (
    DIMENSION_TYPE, FACT_TYPE, Worksheet, DimensionRow, FactRow, Reconciliation, Unwritten, Verification, Grade,
    register_types, fact_id, dimension_path, fact_path, read_tables, build_worksheet, parse_checklist,
    checklist_text, list_dimensions, search_dimension_by_name, verify_by_get, reconcile, grade, facts_for,
    invented_key,
)
from ._scenarios import (
    ScenarioResult, Interrupted, ProhibitionOutcome, ProcedureModel, View, WritePhaseSizes, workspace, copy_mesh,
    report_text, report_tokens, run_scenario, run_all, interrupted, interrupted_sweep, prohibition, floor_usage,
    floor_cost, scenario_table, caching_table, write_phase_sizes, stepwise_input_tokens,
)
# end fact/dimension write patterns and the guide's scenarios

# The public surface: everything above, and nothing else, is agentkit's API.
__all__ = [
    "AgentkitError", "PathError", "PathTraversal", "NodeNotFound", "CollectionNotFound", "FileNotFound",
    "CreateError", "InvalidJson", "MissingField", "MalformedNamespace", "NodeExists", "SchemaMismatch",
    "StrictContentError", "ContentError", "NoTransformer", "UnreadableDocument", "DocumentSlugCollision",
    "RESERVED_PREFIXES", "UnifiedPath", "parse_path", "canonical_segment", "resolve_relative",
    "document_slug", "document_node_path", "file_path_by_string_rule", "file_path_from_document", "Mesh",
    "resolve_tool_path", "resolve_context_path", "get_path_of_file", "reference_kind",
    "Node", "ContentType", "CreateResult", "StepClock", "merge_patch", "DOCUMENT_TYPE", "SearchIndex",
    "ContentCollection", "extractive_summary", "SUMMARY_LIMIT", "TRANSFORMERS", "Transformer",
    "find_transformer", "get_text", "index_text", "snippet", "CHUNK_SIZE", "CHUNK_OVERLAP", "Chunk", "chunk_spans",
    "search_chunks", "get_chunk", "Tool", "Parameter", "mesh_plugin",
    "content_collection_plugin", "mcp_tools", "tools_by_name", "snake_case", "unoffered_tool_answer",
    "MESH_PLUGIN", "CONTENT_COLLECTION_PLUGIN", "MCP_SERVER", "BULK_CREATE", "MESH_METHODS",
    "MESH_READ_ONLY_METHODS", "CONTENT_COLLECTION_METHODS", "UNOFFERED_TOOL_TEXT",
    "UnregisteredDiscriminator", "NotPatchable", "ToolArgumentError", "repair_json", "PATCHABLE_FIELDS", "REPORT", "FinancialReport", "LineItem", "ReportedValue",
    "build_report_pdf", "report_pdf_path", "report_pdf_bytes", "upload_report", "ConfigurationError",
    "ThreadError", "UnknownPluginWarning", "Message", "ToolCall", "ToolResult", "ToolDefinition", "Reply",
    "Context", "CHARS_PER_TOKEN", "ITEM_OVERHEAD_TOKENS", "ContextEstimate", "estimate_context",
    "text_tokens", "item_tokens", "items_tokens", "reply_tokens", "tool_definition_tokens",
    "instructions_tokens", "ModelPrice", "EXAMPLE_PRICES", "TokenUsage", "CallPattern", "cost_of",
    "input_tokens", "sequential_input_tokens", "batched_input_tokens", "CACHE_WRITE_5_MINUTES",
    "CACHE_WRITE_1_HOUR", "CACHE_READ", "AgentConfiguration", "PluginGrant", "parse_plugin_entry",
    "BUDGET_TEXT", "READ_ONLY_MESH_METHODS", "ALWAYS_OFFERED", "DELEGATION_TOOL", "Thread", "rebuild_history",
    "trim_history", "HISTORY_BUDGET_CHARS", "Model", "ScriptedModel", "PlannedCalls", "TextModel",
    "DEFAULT_MODEL", "Agent", "Run", "Turn", "Interrupt", "COMPLETED", "CANCELLED", "ERROR", "DIED",
    "UsageReport", "UsageRow", "usage_report", "record_usage", "recorded_usage", "usage_key", "usage_path",
    "UNKNOWN_MODEL", "WorksheetError", "MissingMasterData", "DIMENSION_TYPE", "FACT_TYPE", "Worksheet",
    "DimensionRow", "FactRow", "Reconciliation", "Unwritten", "Verification", "Grade", "register_types",
    "fact_id", "dimension_path", "fact_path", "read_tables", "build_worksheet", "parse_checklist",
    "checklist_text", "list_dimensions", "search_dimension_by_name", "verify_by_get", "reconcile", "grade",
    "facts_for", "invented_key", "ScenarioResult", "Interrupted", "ProhibitionOutcome", "ProcedureModel",
    "View", "WritePhaseSizes", "workspace", "copy_mesh", "report_text", "report_tokens", "run_scenario",
    "run_all", "interrupted", "interrupted_sweep", "prohibition", "floor_usage", "floor_cost",
    "scenario_table", "caching_table", "write_phase_sizes", "stepwise_input_tokens",
]
