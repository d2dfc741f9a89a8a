"""Why extraction should not read chunk by chunk: the turns it costs and the table it breaks."""

import json
import math

from claimcheck import capture
from agentkit import (
    Mesh, chunk_spans, content_collection_plugin, file_path_from_document, mesh_plugin, tools_by_name,
)
from agentkit.guide import REPORT, report_index_text, upload_report

mesh = Mesh()
document = upload_report(mesh)
mesh.refresh_index()
tools = tools_by_name(mesh_plugin(mesh, context="Meridian") + content_collection_plugin(mesh, context="Meridian"))
QUERY = "namespace:Meridian/content net profit"
FILE = {"collectionPath": "Meridian/content", "filePath": REPORT.file_name}
PARALLEL = 10  # calls a model issues side by side in one turn when told to batch

# --8<-- [start:count-turns]
def read_with_one_get():
    """SearchChunks, then one Get on the file's path. Returns the tool results, turn by turn."""
    found = tools["SearchChunks"].call({"query": QUERY})
    hit = json.loads(found)["results"][0]
    return [[found], [tools["Get"].call({"path": file_path_from_document(hit)})]]


def read_chunk_by_chunk(parallel):
    """SearchChunks, GetChunk 0 (to learn totalChunks), then the rest `parallel` calls per turn."""
    turns = [[tools["SearchChunks"].call({"query": QUERY})]]
    first = tools["GetChunk"].call({**FILE, "chunkIndex": 0})
    turns.append([first])
    rest = list(range(1, json.loads(first)["totalChunks"]))
    for start in range(0, len(rest), parallel):
        turns.append([tools["GetChunk"].call({**FILE, "chunkIndex": i}) for i in rest[start:start + parallel]])
    return turns
# --8<-- [end:count-turns]


def read_through_document_node():
    """What the descriptions invite: SearchChunks, Get the hit's documentPath (metadata only), then the file."""
    found = tools["SearchChunks"].call({"query": QUERY})
    node = tools["Get"].call({"path": json.loads(found)["results"][0]["documentPath"]})
    return [[found], [node], [tools["Get"].call({"path": file_path_from_document(json.loads(node)["content"])})]]


def turns_table() -> str:
    """Tool calls, turns and the characters of tool results after the search, for one report read four ways."""
    rows = [
        ("SearchChunks, then Get on the file's path", one_get),
        ("SearchChunks, Get on the hit's Document node (as the descriptions say), then Get on the file", detour),
        (f"SearchChunks, then GetChunk for every chunk, {PARALLEL} calls per turn", batched),
        ("SearchChunks, then GetChunk following nextIndex, one call per turn", sequential),
    ]
    lines = ["| How the agent reads the report | Tool calls | Turns | Characters the reads return |",
             "|---|---:|---:|---:|"]
    for how, turns in rows:
        returned = sum(len(result) for turn in turns[1:] for result in turn)
        lines.append(f"| {how} | {sum(map(len, turns))} | {len(turns)} | {returned:,} |")
    lines.append("")
    lines.append(f"The report: {len(text):,} characters of indexing text, {total} chunks of "
                 "1,000 characters with 150 overlap. A GetChunk result is JSON around the chunk's text.")
    return "\n".join(lines)


one_get = read_with_one_get()
detour = read_through_document_node()
batched = read_chunk_by_chunk(PARALLEL)
sequential = read_chunk_by_chunk(1)
total = document.content["chunkCount"]
text = report_index_text().text  # what the chunks cut (D5)
chunk_texts = [json.loads(result)["text"] for turn in sequential[1:] for result in turn]

# verifies: chunks.turns-counted
assert (len(one_get), len(batched), len(sequential)) == (2, 2 + math.ceil((total - 1) / PARALLEL), 1 + total)
# verifies: chunks.turns-counted
assert (PARALLEL, len(batched), len(batched) // len(one_get)) == (10, 20, 10)
# verifies: chunks.chunks-reread-overlap
assert sum(map(len, chunk_texts)) == len(text) + 150 * (total - 1) and "".join(chunk_texts) != text
capture("chunk_reading_turns.md", turns_table())


# --8<-- [start:broken-table]
start = text.index("Key figures")
end = text.index("Consumer Electronics operating profit", start)
spans = chunk_spans(len(text))
holding = [i for i, (s, e) in enumerate(spans) if s <= start and end <= e]
cut = next(i for i, (s, e) in enumerate(spans) if s <= start < e)
before, after = spans[cut][1], spans[cut + 1][0]
# no single chunk holds the whole key-figures table
print(holding)
#> []
# --8<-- [end:broken-table]

# verifies: chunks.tables-break-at-boundaries
assert holding == [] and start < before < end
header = "Line item Unit FY2024 FY2023"
next_chunk = json.loads(tools["GetChunk"].call({**FILE, "chunkIndex": cut + 1}))["text"]
# verifies: chunks.tables-break-at-boundaries
assert header in text[start:before] and header not in next_chunk and "Trade payables EUR m" in next_chunk
cut_end = text[:before][-len("Other liabilities EUR m 593.3 356."):]
# verifies: chunks.boundary-cuts-a-value
assert (cut, cut_end, text[before]) == (0, "Other liabilities EUR m 593.3 356.", "2")
# Get's text holds the whole value, run together with the row's other figure (C9).
# verifies: chunks.boundary-cuts-a-value
assert "Other liabilitiesEUR m593.3356.2" in mesh.fetch("Meridian/content/Annual Report 2024.pdf").value


def boundary() -> str:
    """The end of the chunk that starts the key-figures table, and the start of the next chunk."""
    tail = text[spans[cut][1] - 330:spans[cut][1]]
    head = text[spans[cut + 1][0]:spans[cut + 1][0] + 330]
    return "\n".join([
        f"```text title=\"GetChunk {cut}: its last 330 characters\"",
        tail,
        "```",
        "",
        f"```text title=\"GetChunk {cut + 1}: its first 330 characters\"",
        head,
        "```",
    ])


capture("chunk_boundary_table.md", boundary())
