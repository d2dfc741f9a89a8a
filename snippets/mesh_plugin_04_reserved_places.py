"""Paths Create does not guard: a node at a file's or a collection's path, and ids no Get path names."""

import base64
import json

from claimcheck import capture
from claimcheck import stated
from claimcheck.agentview import AgentView
from agentkit import Mesh, PathError, extractive_summary, mcp_tools, mesh_plugin, tools_by_name

mesh = Mesh(node_types={"Company", "Markdown", "Space"})
mesh.index.summarizer = extractive_summary  # a host wired like memex writes Document nodes (D6)
mesh.create({"id": "Meridian", "name": "Meridian Components Group", "nodeType": "Company"})
mesh.add_collection("Meridian").upload("notes.md", b"Board notes: dividend approved.", index=True)
mesh.add_collection("Meridian", "filings")
# Every tool call below is recorded for the page's "Tool call" listings (claimcheck/agentview.py).
VIEW = AgentView(__file__)
tools = VIEW.wrap(tools_by_name(mcp_tools(mesh)))


def create(node_id: str, namespace: str = "Meridian") -> str:
    return tools["create"].call({"node": json.dumps({"id": node_id, "namespace": namespace, "name": "Notes",
                                                     "nodeType": "Markdown"})})


def upload(path: str, text: bytes) -> str:
    return tools["upload"].call({"path": path, "base64Content": base64.b64encode(text).decode()})


# --8<-- [start:shadowed]
print(create("notes.md", namespace="Meridian/content"))  # the file's Get path
#> Created: Meridian/content/notes.md
print(tools["get"].call({"path": "Meridian/content/notes.md"}))  # still the file
#> "Board notes: dividend approved."
# --8<-- [end:shadowed]
capture("mesh_view_shadowed.md", VIEW.markdown("shadowed"))

# verifies: mesh.create-under-content-is-shadowed
assert mesh.exists("Meridian/content/notes.md") and mesh.get("Meridian/content/notes.md").name == "Notes"
# verifies: mesh.create-under-content-is-shadowed
assert json.loads(tools["get"].call({"path": "Meridian/content/notes.md"})) == "Board notes: dividend approved."
# verifies: mesh.create-under-content-is-shadowed
assert create("content") == "Created: Meridian/content" and \
    [f["name"] for f in json.loads(tools["get"].call({"path": "Meridian/content/"}))] == ["notes.md"]
# verifies: mesh.create-under-content-is-shadowed
assert tools["delete"].call({"paths": json.dumps(["Meridian/content/notes.md"])}) == "Deleted: Meridian/content/notes.md"
# verifies: mesh.create-under-content-is-shadowed
assert json.loads(tools["get"].call({"path": "Meridian/content/notes.md"})) == "Board notes: dividend approved."
documents = [node.path for node in mesh.nodes() if node.node_type == "Document"]
# verifies: mesh.delete-takes-document-nodes
assert documents == ["Meridian/content/_Documents/notes.md"]
# verifies: mesh.delete-takes-document-nodes
assert tools["delete"].call({"paths": json.dumps(["Meridian/content"])}) == "Deleted: Meridian/content"
# verifies: mesh.delete-takes-document-nodes
assert not mesh.exists(documents[0]) and mesh.collections["Meridian/content"].read_text("notes.md")
mesh.collections["Meridian/content"].upload("notes.md", b"Board notes: dividend approved.", index=True)
# verifies: chunks.same-bytes-keep-node-deleted
assert not mesh.exists(documents[0])  # the same bytes: skipped, and the indexer remembers the node as written
mesh.collections["Meridian/content"].upload("notes.md", b"Board notes: dividend approved, paid in May.", index=True)
# verifies: chunks.same-bytes-keep-node-deleted
assert mesh.exists(documents[0])  # changed bytes: indexed anew, the Document node is written again
tools["delete"].call({"paths": json.dumps(documents)})
mesh.index.restart_indexer()  # a restart: the sink no longer remembers the Document as written
mesh.collections["Meridian/content"].upload("notes.md", b"Board notes: dividend approved, paid in May.", index=True)
# verifies: chunks.same-bytes-keep-node-deleted
assert mesh.exists(documents[0])  # the same bytes after a restart: the heal writes the Document again
tools["delete"].call({"paths": json.dumps(documents)})
mesh.collections["Meridian/content"].upload("notes.md", b"Board notes: dividend approved, paid in May.", index=True)
# verifies: chunks.same-bytes-keep-node-deleted
assert not mesh.exists(documents[0])  # written since the restart, so remembered: the same bytes are skipped


def rebuild_refused(node_path: str) -> bool:
    """True when the node has no Content Indexing tab, so no Rebuild (MR1)."""
    try:
        mesh.rebuild_content_index(node_path)
    except PathError:
        return True
    return False


# verifies: chunks.forced-reindex-space-content-only
assert rebuild_refused("Meridian") and not mesh.exists(documents[0])  # a Company: no tab, nothing written
mesh.create({"id": "Harbor", "name": "Harbor Space", "nodeType": "Space"})
mesh.add_collection("Harbor").upload("memo.md", b"Harbor memo: berth 4 reopened.", index=True)
mesh.add_collection("Harbor", "filings").upload("q3.md", b"Q3 revenue 1,210.", index=True)
harbor_documents = sorted(node.path for node in mesh.nodes() if node.node_type == "Document" and node.path.startswith("Harbor/"))
# verifies: chunks.forced-reindex-space-content-only
assert harbor_documents == ["Harbor/content/_Documents/memo.md", "Harbor/filings/_Documents/q3.md"]
tools["delete"].call({"paths": json.dumps(harbor_documents)})
# verifies: chunks.forced-reindex-space-content-only
assert mesh.rebuild_content_index("Harbor") == 1  # the Space's Rebuild: a forced re-index of Harbor/content only
# verifies: chunks.forced-reindex-space-content-only
assert mesh.exists(harbor_documents[0]) and not mesh.exists(harbor_documents[1])  # the named collection: not rebuilt
tools["delete"].call({"paths": json.dumps(["Harbor"])})

# --8<-- [start:upload-taken-over]
print(create("filings"))  # the collection's own path
#> Created: Meridian/filings
print(upload("Meridian/filings/q3.md", b"Q3 revenue 1,210."))
#> Error: expected '{collection}/{filePath}' in remainder 'q3.md'.
print(tools["delete"].call({"paths": json.dumps(["Meridian/filings"])}))
#> Deleted: Meridian/filings
print(upload("Meridian/filings/q3.md", b"Q3 revenue 1,210."))
#> {"status":"Uploaded","path":"Meridian/filings/q3.md","bytes":17}
# --8<-- [end:upload-taken-over]
capture("mesh_view_upload_taken_over.md", VIEW.markdown("upload-taken-over"))

# verifies: mesh.create-takes-over-upload
assert mesh.collections["Meridian/filings"].read_text("q3.md") == "Q3 revenue 1,210."
upload("Meridian/content/notes.md", b"Board notes, revised.")
# verifies: mesh.create-takes-over-upload
assert create("notes.md", namespace="Meridian/content") == "Created: Meridian/content/notes.md"
# verifies: mesh.create-takes-over-upload
assert upload("Meridian/content/notes.md", b"Board notes, third draft.") == \
    "Error: path must include '{collection}/{filePath}' after the node path (e.g. 'Systemorph/content/logo.png')."
# verifies: mesh.create-takes-over-upload
assert mesh.collections["Meridian/content"].read_text("notes.md") == "Board notes, revised."
# verifies: mesh.upload-folder-read-as-collection
assert create("content") == "Created: Meridian/content" and upload("Meridian/content/Sub/a.md", b"x") == \
    "Error: collection 'Sub' not found on 'Meridian/content'."
tools["delete"].call({"paths": json.dumps(["Meridian/content"])})
# verifies: mesh.upload-folder-read-as-collection
assert upload("Meridian/content/Sub/a.md", b"x") == "{\"status\":\"Uploaded\",\"path\":\"Meridian/content/Sub/a.md\",\"bytes\":1}"

# --8<-- [start:unnamed-ids]
print(create("'Q3 plan'"))
#> Created: Meridian/'Q3 plan'
print(tools["get"].call({"path": "Meridian/'Q3 plan'"}))  # Get drops every quote
#> Not found: Meridian/Q3 plan
# --8<-- [end:unnamed-ids]
capture("mesh_view_unnamed_ids.md", VIEW.markdown("unnamed-ids"))

for odd_id, get_path in ((" padded ", "Meridian/ padded "), ("*", "Meridian/*"), ('say "hi"', 'Meridian/say "hi"')):
    # verifies: mesh.create-ids-get-cannot-name
    assert create(odd_id) == f"Created: Meridian/{odd_id}" and mesh.exists(f"Meridian/{odd_id}")
    answer = tools["get"].call({"path": get_path})
    # verifies: mesh.create-ids-get-cannot-name
    assert not (answer.startswith("{") and json.loads(answer).get("path") == f"Meridian/{odd_id}"), answer
# verifies: mesh.create-ids-get-cannot-name
assert create("*", namespace="") == "Created: *" and json.loads(tools["get"].call({"path": "*"}))["path"] == "*"
# verifies: mesh.create-at-ids
assert create("@Q3", namespace="") == "Created: @Q3" and tools["get"].call({"path": "@Q3"}) == "Not found: Q3"
# verifies: mesh.create-at-ids
assert json.loads(tools["get"].call({"path": "@@Q3"}))["path"] == "@Q3"  # Get drops only one leading '@'
agent_get = tools_by_name(mesh_plugin(mesh))["Get"]
in_chat_get = tools_by_name(mesh_plugin(mesh, context="Meridian"))["Get"]
# verifies: mesh.create-at-ids
assert json.loads(agent_get.call({"path": "@@Q3"}))["path"] == "@Q3"  # the agent's Get without a chat context
# verifies: mesh.create-at-ids
assert json.loads(in_chat_get.call({"path": "@/@Q3"}))["path"] == "@Q3"  # with one: '@/' makes the path absolute
# verifies: mesh.create-at-ids
assert in_chat_get.call({"path": "@Q3"}).startswith("Not found")  # read under the chat's context
# verifies: mesh.create-ids-get-cannot-name
assert mesh.exists("Meridian/'Q3 plan'") and not mesh.exists("Meridian/Q3 plan")

# host wiring: a host that calls AddRowLevelSecurity, as memex does, on PostgreSQL (partition_stores' default)
guarded = Mesh(node_types={"Space", "Markdown"}, partition_guard=True)
guarded.create({"id": "Meridian", "name": "Meridian Components Group", "nodeType": "Space"})
on_memex = VIEW.wrap(tools_by_name(mcp_tools(guarded)))


def create_on(node_id: str, namespace: str, node_type: str = "Markdown") -> str:
    return on_memex["create"].call({"node": json.dumps({"id": node_id, "namespace": namespace, "name": "Notes",
                                                        "nodeType": node_type})})


# --8<-- [start:partition-guard]
print(create_on("@Q3", namespace=""))  # the root namespace: only a User or a Space
#> Error creating node: Cannot create '@Q3' at the top level: the root namespace ('') is reserved for ...
print(create_on("q3", namespace="Archive"))  # a partition no store has
#> Error creating node: Space 'Archive' does not exist. Writing never creates a space implicitly ...
print(create_on("q3", namespace="Meridian"))  # inside an existing Space
#> Created: Meridian/q3
# --8<-- [end:partition-guard]
capture("mesh_view_partition_guard.md", VIEW.markdown("partition-guard"))
# verifies: mesh.guard-in-agentkit
assert (Mesh().partition_guard, guarded.partition_stores) == (False, ("PostgreSql",))  # off by default; PostgreSQL
# No Space bootstrap in agentkit: the missing partition stays missing, and nothing is created before the refusal.
# verifies: mesh.guard-space-bootstrap, mesh.guard-in-agentkit
assert create_on("q4", namespace="Elsewhere").startswith("Error creating node: Space 'Elsewhere' does not exist.") and \
    not guarded.exists("Elsewhere")

# verifies: mesh.create-partition-guard
assert create_on("Archive", namespace="", node_type="Space") == "Created: Archive"  # a Space owns a partition
# verifies: mesh.guard-missing-partition
assert create_on("q3", namespace="Archive") == "Created: Archive/q3"  # now the partition exists
# verifies: mesh.guard-missing-partition
assert create_on("t", namespace="_Scratch") == "Created: _Scratch/t"  # partitions starting with '_' are exempt
# verifies: mesh.guard-top-level, mesh.guard-missing-partition
assert not guarded.exists("@Q3") and create_on("Q3", namespace="", node_type="User").startswith(
    "Error creating node: Space 'Q3' does not exist.")  # a User passes the top-level rule; its partition is missing
refused = create_on("Note", namespace="")
# verifies: mesh.create-partition-guard, mesh.guard-top-level
assert refused.endswith("A 'Markdown' node does not own a partition (only User and Space do). Create it as a Space "
                        "(inspect the required shape via its content schema at 'Space/schema'), or put your content "
                        "in your own space ('<your-id>/Note').") and not guarded.exists("Note")
# verifies: mesh.create-at-ids
assert create_on("@Q4", namespace="").startswith("Error creating node: Cannot create '@Q4' at the top level")
# verifies: mesh.create-at-ids
assert not create_on("@Q5", namespace="", node_type="Space").startswith("Error creating node: Cannot create")  # a Space
# verifies: mesh.guard-mirror-partitions
assert [create_on("notes", namespace=namespace) for namespace in ("User/alice", "auth")] == [
    "Error creating node: The 'User' partition is a system-managed lookup mirror (users, groups, roles, tokens) written "
    "only by the platform middleware. Cannot Create 'User/alice/notes' there. Put your content in your own space "
    "('/…') or a Space you create.",
    "Error creating node: The 'auth' partition is a system-managed lookup mirror (users, groups, roles, tokens) written "
    "only by the platform middleware. Cannot Create 'auth/notes' there. Put your content in your own space "
    "('/…') or a Space you create."] and not guarded.exists("User/alice/notes")
# verifies: mesh.guard-mirror-partitions
assert create_on("t1", namespace="User/alice/_Thread") == "Created: User/alice/_Thread/t1"  # a legacy satellite passes
# The test is on the third segment alone: a '_' in the second, or in the fourth, does not pass; Auth passes as User does.
# verifies: mesh.guard-mirror-partitions
assert [create_on("g", namespace=namespace).startswith("Created: ") for namespace in
        ("Auth/x/_Grants", "User/_alice", "User/alice/notes/_Thread")] == [True, False, False] and \
    "Auth/x/_Grants/g".split("/")[stated.numbers("mesh.guard-mirror-partitions")[0] - 1] == "_Grants"
as_alice = tools_by_name(mcp_tools(Mesh(node_types={"Space", "Markdown"}, partition_guard=True, caller="alice")))
# verifies: mesh.guard-missing-partition
assert [as_alice["create"].call({"node": json.dumps({"id": "notes", "namespace": partition, "name": "Notes",
                                                     "nodeType": "Markdown"})}) for partition in ("Alice", "bob")] == [
    "Created: Alice/notes",  # the caller's own partition, in any case, needs no Space
    "Error creating node: Space 'bob' does not exist. Writing never creates a space implicitly (\"no partition, no "
    "write\") — create the space explicitly first, then write into it. Cannot create 'bob/notes'."]
for stores in (("PostgreSql", "FileSystem"), ("InMemory",), ("PostgreSql", "StaticNode"), ("Sqlite",)):
    on_files = tools_by_name(mcp_tools(Mesh(node_types={"Space", "Markdown"}, partition_guard=True,
                                            partition_stores=stores)))
    # verifies: mesh.guard-stores-that-tell
    assert on_files["create"].call({"node": json.dumps({"id": "q3", "namespace": "Archive", "name": "Notes",
                                                        "nodeType": "Markdown"})}) == "Created: Archive/q3", stores
on_snowflake = tools_by_name(mcp_tools(Mesh(node_types={"Space", "Markdown"}, partition_guard=True,
                                            partition_stores=("Snowflake", "PostgreSql"))))
# verifies: mesh.guard-stores-that-tell
assert on_snowflake["create"].call({"node": json.dumps({"id": "q3", "namespace": "Archive", "name": "Notes",
                                                        "nodeType": "Markdown"})}).startswith(
    "Error creating node: Space 'Archive' does not exist.")  # every store can tell: refused
# verifies: mesh.create-checks-nothing-else
assert create_on("x", namespace="Two Words").startswith("Error creating node: Space 'Two Words' does not exist.") \
    and create("x", namespace="Two Words") == "Created: Two Words/x"  # the tool itself accepts the blank
