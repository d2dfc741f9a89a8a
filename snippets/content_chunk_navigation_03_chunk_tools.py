"""The three chunk tools and their result shapes, on the generated report."""

import json

from agentkit import CHUNK_OVERLAP, CHUNK_SIZE, Mesh, chunk_plugin, chunk_spans, tools_by_name, upload_report

mesh = Mesh()
document = upload_report(mesh)
mesh.refresh_index()

# --8<-- [start:chunk-tools]
tools = tools_by_name(chunk_plugin(mesh))  # plugin "ContentChunks": search, search_chunks, get_chunk
hits = json.loads(tools["search_chunks"].call({"query": "operating profit", "limit": 5}))
chunk = json.loads(tools["get_chunk"].call({
    "collectionPath": hits[0]["collectionPath"],
    "filePath": hits[0]["filePath"],
    "chunkIndex": hits[0]["chunkIndex"],
}))
beyond = json.loads(tools["get_chunk"].call({
    "collectionPath": "Meridian/content", "filePath": "Annual Report 2024.pdf", "chunkIndex": 500,
}))
# --8<-- [end:chunk-tools]

text = mesh.fetch("Meridian/content/Annual Report 2024.pdf").value
total = document.content["chunkCount"]

# verifies: chunks.window-and-overlap
assert (CHUNK_SIZE, CHUNK_OVERLAP) == (1000, 150) and chunk_spans(len(text))[1] == (850, 1850)
# verifies: chunks.window-and-overlap
assert total == len(chunk_spans(len(text)))
# verifies: chunks.search-chunks-shape
assert all(set(hit) == {"documentPath", "collectionPath", "filePath", "chunkIndex", "rank", "snippet", "page"} for hit in hits)
# verifies: chunks.search-chunks-shape
assert [hit["rank"] for hit in hits] == [0, 1, 2, 3, 4] and len({hit["documentPath"] for hit in hits}) == 1
# verifies: chunks.get-chunk-shape
assert set(chunk) == {"found", "collectionPath", "filePath", "chunkIndex", "text", "prevIndex", "nextIndex", "totalChunks", "page"}
first = json.loads(tools["get_chunk"].call({"collectionPath": "Meridian/content", "filePath": "Annual Report 2024.pdf", "chunkIndex": 0}))
last = json.loads(tools["get_chunk"].call({"collectionPath": "Meridian/content", "filePath": "Annual Report 2024.pdf", "chunkIndex": total - 1}))
# verifies: chunks.get-chunk-shape
assert (first["prevIndex"], first["nextIndex"], last["prevIndex"], last["nextIndex"]) == (None, 1, total - 2, None)
# verifies: chunks.out-of-range-is-an-answer
assert beyond == {"found": False, "totalChunks": total, "message": f"No chunk at index 500; valid range is 0..{total - 1}."}
# verifies: chunks.pdf-chunks-have-pages
assert first["page"] == 1 and last["page"] == 62 and all("page" in hit for hit in hits)
documents = json.loads(tools["search"].call({"query": "operating profit"}))
# verifies: chunks.search-one-per-file
assert [d["documentPath"] for d in documents] == [document.path]


def shapes() -> str:
    """One search_chunks hit and one get_chunk answer, as the model reads them (text shortened)."""
    shown = dict(chunk, text=chunk["text"][:60] + " … (1000 characters)")
    return "\n".join([
        "```json title=\"search_chunks: the first hit\"",
        json.dumps(hits[0], ensure_ascii=False, indent=2),
        "```",
        "",
        "```json title=\"get_chunk: that hit's chunk\"",
        json.dumps(shown, ensure_ascii=False, indent=2),
        "```",
        "",
        "```json title=\"get_chunk: index 500, out of range\"",
        json.dumps(beyond, ensure_ascii=False, indent=2),
        "```",
    ])


CAPTURES = {"chunk_tool_shapes.md": shapes}
