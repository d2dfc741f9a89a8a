"""agentkit: an in-process reference model of the mesh-based agent framework the guide documents."""

# content layer: paths, mesh, index, collections, transformers, chunks, tools, report
from ._errors import (
    AgentkitError, PathError, PathTraversal, NodeNotFound, CollectionNotFound, FileNotFound,
    CreateError, InvalidJson, MissingField, MalformedNamespace, NodeExists, SchemaMismatch,
    StrictContentError, ContentError, NoTransformer, UnreadableDocument, DocumentSlugCollision,
)
from ._paths import (
    RESERVED_PREFIXES, UnifiedPath, parse_path, canonical_segment, resolve_relative,
    document_slug, document_node_path, file_path_by_string_rule, file_path_from_document,
)
from ._mesh import Mesh, Node, ContentType, CreateResult, StepClock, merge_patch, DOCUMENT_TYPE
from ._index import SearchIndex
from ._collections import ContentCollection, extractive_summary, SUMMARY_LIMIT
from ._transformers import TRANSFORMERS, Transformer, find_transformer, extract_text
from ._chunks import CHUNK_SIZE, CHUNK_OVERLAP, Chunk, chunk_spans, search_chunks, search_documents, get_chunk
from ._plugins import Tool, mesh_plugin, chunk_plugin, tools_by_name, MESH_PLUGIN, CHUNK_PLUGIN, BULK_CREATE
from ._report import REPORT, FinancialReport, LineItem, ReportedValue
# end content layer
