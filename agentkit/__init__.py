"""agentkit: an in-process reference model of the mesh-based agent framework the guide documents.

The names below are the model's public surface, grouped as the framework groups them: content
(paths, collections, transformers, chunks, the search index), the mesh and its tools, and agents
(messages, configuration, runtime, threads, usage, cost). Types that are only ever returned
(``UnifiedPath``, ``Chunk``, ``CreateResult``, ``ContextEstimate``, ``UsageReport``, ...) and the
finer error classes stay in their modules (``agentkit._paths``, ``agentkit._errors``, ...). The
guide's worked examples (the report, the worksheet patterns, the scenarios, the scripted models)
are the separate layer ``agentkit.guide``, which imports this package and is never imported by it.
"""

# content: paths, collections, transformers, chunks, the search index
from ._errors import PathError, ContentError, DocumentSlugCollision
from ._paths import (
    RESERVED_PREFIXES, parse_path, canonical_segment, resolve_relative, resolve_tool_path, resolve_context_path,
    reference_kind, document_slug, document_node_path, file_path_by_string_rule, file_path_from_document,
    get_path_of_file,
)
from ._collections import ContentCollection, extractive_summary, SUMMARY_LIMIT
from ._transformers import IMAGE_MEDIA_TYPES, TRANSFORMERS, find_transformer, get_text, index_text
from ._chunks import CHUNK_SIZE, CHUNK_OVERLAP, chunk_spans, snippet
from ._index import SearchIndex
# end content

# the mesh and its tools: nodes, content types, the Mesh and ContentCollection plugins, MCP
from ._errors import AgentkitError, NodeNotFound, CreateError
from ._node import Node
from ._content_types import ContentType
from ._mesh import Mesh
from ._chunk_navigation import search_chunks, get_chunk
from ._plugins import (
    Tool, mesh_plugin, content_collection_plugin, mcp_tools, tools_by_name, snake_case, MESH_PLUGIN,
    CONTENT_COLLECTION_PLUGIN, MCP_SERVER,
)
# end the mesh and its tools

# agents: messages, the model seam, configuration, runtime, threads, tokens, cost, usage
from ._errors import ConfigurationError, ThreadError, UnknownPluginWarning
from ._messages import Message, ToolCall, ToolResult, Reply, Context
from ._models import Model
from ._config import AgentConfiguration, BUDGET_TEXT
from ._runtime import Agent, Run
from ._threads import Thread, rebuild_history, trim_history, HISTORY_BUDGET_CHARS
from ._tokens import estimate_context, item_tokens
from ._cost import (
    ModelPrice, EXAMPLE_PRICES, TokenUsage, CallPattern, cost_of, CACHE_WRITE_5_MINUTES, CACHE_WRITE_1_HOUR,
    CACHE_READ,
)
from ._usage import usage_report, record_usage, usage_key
# end agents

# The public surface: everything above, and nothing else (agentkit/README.md, "Public surface", lists it).
__all__ = [
    # content
    "PathError", "ContentError", "DocumentSlugCollision",
    "RESERVED_PREFIXES", "parse_path", "canonical_segment", "resolve_relative", "resolve_tool_path",
    "resolve_context_path", "reference_kind", "document_slug", "document_node_path", "file_path_by_string_rule",
    "file_path_from_document", "get_path_of_file",
    "ContentCollection", "extractive_summary", "SUMMARY_LIMIT",
    "TRANSFORMERS", "IMAGE_MEDIA_TYPES", "find_transformer", "get_text", "index_text",
    "CHUNK_SIZE", "CHUNK_OVERLAP", "chunk_spans", "snippet",
    "SearchIndex",
    # the mesh and its tools
    "AgentkitError", "NodeNotFound", "CreateError",
    "Node", "Mesh", "ContentType",
    "search_chunks", "get_chunk",
    "Tool", "mesh_plugin", "content_collection_plugin", "mcp_tools", "tools_by_name", "snake_case", "MESH_PLUGIN",
    "CONTENT_COLLECTION_PLUGIN", "MCP_SERVER",
    # agents
    "ConfigurationError", "ThreadError", "UnknownPluginWarning",
    "Message", "ToolCall", "ToolResult", "Reply", "Context",
    "Model",
    "AgentConfiguration", "BUDGET_TEXT",
    "Agent", "Run",
    "Thread", "rebuild_history", "trim_history", "HISTORY_BUDGET_CHARS",
    "estimate_context", "item_tokens",
    "ModelPrice", "EXAMPLE_PRICES", "TokenUsage", "CallPattern", "cost_of", "CACHE_WRITE_5_MINUTES",
    "CACHE_WRITE_1_HOUR", "CACHE_READ",
    "usage_report", "record_usage", "usage_key",
]
