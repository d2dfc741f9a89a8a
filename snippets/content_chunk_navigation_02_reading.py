"""Reading a document end to end: the corrected step 4 and the recovery clause."""

import json

from agentkit import REPORT, Mesh, chunk_plugin, file_path_from_document, mesh_plugin, tools_by_name, upload_report

mesh = Mesh()
upload_report(mesh)
mesh.refresh_index()
tools = tools_by_name(mesh_plugin(mesh) + chunk_plugin(mesh))
calls = []


def call(name, **arguments):
    """Call a tool as the model would, and count the call."""
    calls.append(name)
    return tools[name].call(arguments)


# --8<-- [start:end-to-end]
# 1. Find the document: search answers with its Document node, one hit per file.
hit = json.loads(call("search", query="consolidated income statement"))[0]
# 2. (optional) Get the Document node for metadata: name, summary, chunkCount.
metadata = json.loads(call("Get", path=hit["documentPath"]))["content"]
# 3. Derive the file path from the node's own fields, never from documentPath.
file_path = file_path_from_document(metadata)
# 4. Get the file path: the whole extracted text in one call.
text = call("Get", path=file_path)
# --8<-- [end:end-to-end]

# verifies: chunks.step4-get-file-path
assert text == mesh.fetch("Meridian/content/Annual Report 2024.pdf").value and len(calls) == 3
# verifies: chunks.whole-text-has-every-value
assert all(value.display in text for value in REPORT.values) and len(REPORT.values) == 64


# --8<-- [start:recovery]
def fetched_document_node(result: str) -> bool:
    """The failure signature: a Get that returned the Document node's metadata, not text."""
    try:
        answer = json.loads(result)
    except json.JSONDecodeError:
        return False  # plain text: the file's content
    return isinstance(answer, dict) and (answer.get("content") or {}).get("$type") == "Document"


result = call("Get", path=hit["documentPath"])  # the mistake the old step 4 taught
if fetched_document_node(result):
    # Wrong node: correct the path before doing anything else.
    result = call("Get", path=file_path_from_document(json.loads(result)["content"]))
# --8<-- [end:recovery]

# verifies: chunks.recovery-signature
assert fetched_document_node(tools["Get"].call({"path": hit["documentPath"]}))
# verifies: chunks.recovery-signature
assert not fetched_document_node(result) and result == text
