"""File names are compared as typed: Get decodes nothing and normalises nothing (C6); agentkit's opt-in extension."""

import json
import unicodedata

from agentkit import Mesh, canonical_segment, mesh_plugin, tools_by_name
from agentkit.guide import upload_report
from claimcheck import capture
from claimcheck.agentview import AgentView

mesh = Mesh()
upload_report(mesh)
collection = mesh.collections["Meridian/content"]
# Every tool call below is recorded for the page's "Tool call" listings (claimcheck/agentview.py).
VIEW = AgentView(__file__)
get = VIEW.wrap(tools_by_name(mesh_plugin(mesh)))["Get"]

# --8<-- [start:as-typed]
stored_by_a_mac = unicodedata.normalize("NFD", "Übersicht 2024.md")  # U + combining diaeresis
collection.upload(stored_by_a_mac, b"Overview.\n")
print(get.call({"path": "Meridian/content/Annual%20Report%202024.pdf"}))
#> Error: File 'Annual%20Report%202024.pdf' not found in collection 'content'
print(get.call({"path": "Meridian/content/Übersicht 2024.md"}))  # typed composed, as a model types it
#> Error: File 'Übersicht 2024.md' not found in collection 'content'
# --8<-- [end:as-typed]
capture("unified_path_view_as_typed.md", VIEW.markdown("as-typed"))

typed = unicodedata.normalize("NFC", "Übersicht 2024.md")
# verifies: unified-path.no-decoding
assert get.call({"path": "Meridian/content/Annual%20Report%202024.pdf"}).startswith("Error: File 'Annual%20Report%202024.pdf' not found")
# verifies: unified-path.nfd-unreachable
assert get.call({"path": "Meridian/content/" + typed}) == f"Error: File '{typed}' not found in collection 'content'"
# verifies: unified-path.nfd-unreachable
assert json.loads(get.call({"path": "Meridian/content/" + stored_by_a_mac})) == "Overview.\n" and typed != stored_by_a_mac

# --8<-- [start:extension]
canonical = Mesh(canonical_paths=True)  # agentkit extension, off by default
upload_report(canonical)
canonical.collections["Meridian/content"].upload(stored_by_a_mac, b"Overview.\n")
canonical_get = VIEW.wrap(tools_by_name(mesh_plugin(canonical)))["Get"]
print(canonical_get.call({"path": "Meridian/content/%C3%9Cbersicht%202024.md"}))
#> "Overview.\n"
# --8<-- [end:extension]
capture("unified_path_view_extension.md", VIEW.markdown("extension"))

# verifies: unified-path.canonical-paths-extension
assert canonical_segment("Annual%20Report%202024.pdf") == "Annual Report 2024.pdf"
# verifies: unified-path.canonical-paths-extension
assert json.loads(canonical_get.call({"path": "Meridian/content/" + typed})) == "Overview.\n"
# verifies: unified-path.canonical-paths-extension
assert json.loads(canonical_get.call({"path": "Meridian/content/Annual%20Report%202024.pdf"})).startswith("Meridian Components Group")
# verifies: unified-path.canonical-paths-extension
assert Mesh().canonical_paths is False
