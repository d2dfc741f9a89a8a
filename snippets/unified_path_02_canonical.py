"""Canonical segments: percent-decoding, NFC, and why '..' never leaves a collection."""

import unicodedata

import pytest

from agentkit import Mesh, PathError, PathTraversal, canonical_segment, mesh_plugin, tools_by_name, upload_report

mesh = Mesh()
upload_report(mesh)
collection = mesh.collections["Meridian/content"]
get = tools_by_name(mesh_plugin(mesh))["Get"]

# --8<-- [start:canonical]
typed_on_a_mac = unicodedata.normalize("NFD", "Übersicht 2024.md")  # U + combining diaeresis
collection.upload(typed_on_a_mac, b"Overview.\n")
print(canonical_segment("Annual%20Report%202024.pdf"))
#> Annual Report 2024.pdf
# the file's text ends with a newline, hence the empty line after it
print(get.call({"path": "Meridian/content/%C3%9Cbersicht%202024.md"}))
#> Overview.
#>
print(get.call({"path": "Meridian/content/Übersicht 2024.md"}))
#> Overview.
#>
# --8<-- [end:canonical]

# verifies: unified-path.canonical-form
assert canonical_segment("Annual%20Report%202024.pdf") == "Annual Report 2024.pdf"
# verifies: unified-path.canonical-form
assert canonical_segment(typed_on_a_mac) == unicodedata.normalize("NFC", "Übersicht 2024.md") != typed_on_a_mac
# verifies: unified-path.encoded-names-are-found
assert get.call({"path": "Meridian/content/Annual%20Report%202024.pdf"}) == get.call({"path": "Meridian/content/Annual Report 2024.pdf"})
# verifies: unified-path.encoded-names-are-found
assert get.call({"path": "Meridian/content/%C3%9Cbersicht%202024.md"}) == get.call({"path": "Meridian/content/" + typed_on_a_mac}) == "Overview.\n"

# --8<-- [start:traversal]
for attempt in ("Meridian/content/../../secrets.txt", "Meridian/content/%2e%2e/%2E%2E/secrets.txt",
                "Meridian/content/..%2Fsecrets.txt"):
    print(get.call({"path": attempt}))
#> Path 'Meridian/content/../../secrets.txt' would leave collection 'Meridian/content': ...
#> Path 'Meridian/content/%2e%2e/%2E%2E/secrets.txt' would leave collection ...
#> Malformed path segment '..%2Fsecrets.txt': an encoded '/' or '\' would split ...
# --8<-- [end:traversal]

# verifies: unified-path.traversal-refused
assert get.call({"path": "Meridian/content/../../secrets.txt"}).startswith("Path 'Meridian/content/../../secrets.txt' would leave collection 'Meridian/content'")
# verifies: unified-path.traversal-refused
assert "would leave collection 'Meridian/content'" in get.call({"path": "Meridian/content/%2e%2e/%2E%2E/secrets.txt"})
# verifies: unified-path.traversal-refused
assert "an encoded '/'" in get.call({"path": "Meridian/content/..%2Fsecrets.txt"})
# verifies: unified-path.traversal-refused
with pytest.raises(PathTraversal, match="would leave collection 'Meridian/content'"):
    collection.upload("../escape.md", b"x")
assert all("escape" not in f["filePath"] for f in collection.listing())

# verifies: unified-path.malformed-segments
assert get.call({"path": "Meridian/content/100%.md"}).startswith("Malformed path segment '100%.md': '%' must be followed by two hex digits")
# verifies: unified-path.malformed-segments
assert get.call({"path": "Meridian//content"}) == "Malformed path 'Meridian//content': empty segment (doubled or stray '/')"
# verifies: unified-path.malformed-segments
with pytest.raises(PathError, match="not valid UTF-8"):
    canonical_segment("%ff")
