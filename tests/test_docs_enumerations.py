"""The pages name what the code has (like Pydantic's check that its docs list every error code): when agentkit gains
a tool or a content type, or rewords the budget text or an error message the pages quote, this fails."""

from __future__ import annotations

import re

import pytest

from agentkit import BUDGET_TEXT, Mesh, content_collection_plugin, mcp_tools, mesh_plugin
from agentkit._config import ALWAYS_OFFERED, DELEGATION_TOOL, READ_ONLY_MESH_METHODS
from agentkit.guide._facts import register_types
from guidetools.project import REPO_ROOT
from tests.mesh_state import NODE_TYPES

MESH_PAGE = "AI/Tools/MeshPlugin.md"
CHUNKS_PAGE = "Architecture/ContentChunkNavigation.md"
DESIGN_PAGE = "AI/AgentDesign.md"


def page(path: str, *, outputs: bool = False) -> str:
    """A page's Markdown with white space folded, as a reader sees the prose, and with `outputs` the captured
    outputs it includes (``--8<-- "snippets/output/…"``) written in."""
    text = (REPO_ROOT / "docs" / path).read_text(encoding="utf-8")
    if outputs:
        included = re.findall(r'--8<-- "(snippets/output/[^"]+)"', text)
        text = " ".join([text, *((REPO_ROOT / path).read_text(encoding="utf-8") for path in included)])
    return re.sub(r"\s+", " ", text)


def _tool_names(tools) -> list[str]:
    return [tool.name for tool in tools(Mesh(node_types=set(NODE_TYPES)))]


@pytest.mark.parametrize("names, path, outputs", [
    # each tool of the Mesh plugin, the bulk-create extension included
    (lambda: _tool_names(lambda mesh: mesh_plugin(mesh, bulk_create=True)), MESH_PAGE, False),
    (lambda: _tool_names(mcp_tools), MESH_PAGE, True),  # each MCP tool agentkit models (its table of tools included)
    (lambda: _tool_names(content_collection_plugin), CHUNKS_PAGE, False),
    # the always-offered tools, the read-only Mesh methods and the delegation tool the runtime adds
    (lambda: [*ALWAYS_OFFERED, *READ_ONLY_MESH_METHODS, DELEGATION_TOOL], DESIGN_PAGE, False),
], ids=["mesh plugin", "mcp", "content collection", "configuration"])
def test_every_tool_is_named_as_code_on_its_page(names, path, outputs):
    text = page(path, outputs=outputs)
    assert [name for name in names() if f"`{name}`" not in text and f"`{name}(" not in text] == []


def test_every_registered_content_type_is_named_on_a_page():
    """Document, and the fact model's types."""
    mesh = Mesh(node_types=set(NODE_TYPES))
    register_types(mesh)
    everything = " ".join(page(path.relative_to(REPO_ROOT / "docs").as_posix()) for path in (REPO_ROOT / "docs").rglob("*.md"))
    assert [name for name in mesh.content_types if f"`{name}`" not in everything] == []


@pytest.mark.parametrize("quoted, pages", [
    (BUDGET_TEXT.format(n="{N}"), [DESIGN_PAGE]),
    ("`Error: Content collection '{c}' not found`", [CHUNKS_PAGE, "DataMesh/UnifiedPath.md"]),
    ("`Error: File '{f}' not found in collection '{c}'`", [CHUNKS_PAGE, "DataMesh/UnifiedPath.md"]),
], ids=["budget text", "collection not found", "file not found"])
def test_agentkit_s_texts_are_quoted_word_for_word(quoted, pages):
    """The budget text agentkit appends (with {N} for the cap) and the not-found messages it answers, names
    aside (agentkit's wording: snippets/unified_path_01_shapes.py, unified-path.not-found-messages), as quoted."""
    assert quoted in "".join(page(path) for path in pages)
