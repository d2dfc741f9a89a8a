"""Hostile-input test helpers: a small workspace, its MCP tools, and a snapshot of everything a mesh holds."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from agentkit import AgentkitError, ContentType, Mesh, Tool, extractive_summary, mcp_tools, tools_by_name

COMPANY = "Acme"
NOTE = "Annual Note 2024.md"
NOTE_TEXT = ("Revenue was 4,812.3 million. " * 60).strip()  # long enough for several chunks
NESTED = "Sub/ledger.csv"
NESTED_TEXT = "item,value\nrevenue,4812.3\n"
NAMED_COLLECTION = "reports"
NAMED_FILE = "board minutes.txt"
NAMED_TEXT = "The board approved the dividend."


# The NodeTypes the tests' meshes register: Create refuses any other (the mesh's NodeType existence check).
NODE_TYPES = frozenset({"Company", "Fact", "Folder", "Markdown", "Note", "Unit", "Organization", "X"})


def workspace() -> Mesh:
    """A company node with a child, a registered Fact type, and indexed files in the default and a named collection
    (memex's extractive summarizer wired, D6: indexing writes Document nodes too)."""
    mesh = Mesh(node_types=set(NODE_TYPES))
    mesh.index.summarizer = extractive_summary
    mesh.register_type(ContentType("Fact", {"item": "string", "value": "number", "period": "string"}))
    mesh.create({"id": COMPANY, "name": "Acme Corp", "nodeType": "Company"})
    mesh.create({"id": f"{COMPANY}/rev", "name": "Revenue", "nodeType": "Fact",
                 "content": {"$type": "Fact", "item": "rev", "value": 4812.3}})
    content = mesh.add_collection(COMPANY)
    content.upload(NOTE, NOTE_TEXT.encode(), index=True)
    content.upload(NESTED, NESTED_TEXT.encode(), index=True)
    mesh.add_collection(COMPANY, NAMED_COLLECTION).upload(NAMED_FILE, NAMED_TEXT.encode(), index=True)
    mesh.refresh_index()
    return mesh


KNOWN_PATHS = (  # paths that exist in workspace() (and their Get forms), for generators to start from
    COMPANY, f"{COMPANY}/rev", f"{COMPANY}/*", f"{COMPANY}/content", f"{COMPANY}/content/",
    f"{COMPANY}/content/{NOTE}", f"{COMPANY}/content/{NESTED}", f"{COMPANY}/content/Sub",
    f"{COMPANY}/{NAMED_COLLECTION}", f"{COMPANY}/content/{NAMED_COLLECTION}",
    f"{COMPANY}/content/{NAMED_COLLECTION}/{NAMED_FILE}", f"{COMPANY}/content/_Documents/Annual-Note-2024.md",
    f"{COMPANY}/{NAMED_COLLECTION}/_Documents/board-minutes.txt",
)


def mcp(mesh: Mesh) -> dict[str, Tool]:  # the MCP tools by name; no chat context: a path is read as written
    return tools_by_name(mcp_tools(mesh))


def file_text(answer: str) -> str:
    """The text of Get's answer for a file: one JSON string literal, as the framework serializes it (R7)."""
    return json.loads(answer) if answer.startswith('"') else answer


def _text_or_error(collection, file_path: str) -> str:
    try:
        return collection.read_text(file_path)
    except AgentkitError as error:
        return f"<{type(error).__name__}> {error}"


def snapshot(mesh: Mesh) -> str:
    """Everything observable about ``mesh`` through agentkit's public reads, as one JSON text: every node, each file's
    bytes (hashed) and text (or error), the index's visible nodes and chunks and its pending writes, and the clock.
    Two equal snapshots mean that nothing observable changed, as "a refusal leaves state as it was" promises."""
    state: dict[str, Any] = {
        "clock": mesh.clock.now(),
        "nodes": [node.to_json() for node in mesh.nodes()],
        "collections": {},
        "index": {
            "pending": mesh.index.pending,
            "nodes": [vars(entry) for entry in mesh.index.visible_nodes()],
            "chunks": [vars(chunk) for chunk in mesh.index.visible_chunks()],  # a PDF chunk's box by its repr
        },
    }
    for path in sorted(mesh.collections):
        collection = mesh.collections[path]
        files = []
        for entry in collection.listing():
            stored = collection.stored(entry["filePath"])
            files.append({**entry, "sha256": hashlib.sha256(stored.data).hexdigest(),
                          "text": _text_or_error(collection, entry["filePath"])})
        state["collections"][path] = files
    return json.dumps(state, sort_keys=True, default=repr)
