"""Tests for agentkit/_paths.py: unified paths, canonical segments, slugs."""

from __future__ import annotations

import unicodedata

import pytest

from agentkit import (
    PathError, PathTraversal, canonical_segment, document_node_path, document_slug,
    file_path_by_string_rule, file_path_from_document, parse_path, resolve_relative,
)


def test_canonical_segment_percent_decodes_then_composes():
    """A percent-encoded, decomposed name becomes the plain composed name."""
    decomposed = unicodedata.normalize("NFD", "Résumé 2024.md")
    assert canonical_segment("my%20report.md") == "my report.md"
    assert canonical_segment(decomposed) == "Résumé 2024.md"
    assert canonical_segment("R%C3%A9sum%C3%A9.md") == "Résumé.md"


@pytest.mark.parametrize("segment, fragment", [
    ("bad%zzname", "'%' must be followed by two hex digits"),
    ("half%2", "'%' must be followed by two hex digits"),
    ("%ff%fe", "not valid UTF-8"),
    ("tab%09", "control characters"),
])
def test_canonical_segment_refuses_malformed_escapes(segment, fragment):
    """Malformed percent-escapes and control characters are named in the error."""
    with pytest.raises(PathError, match=fragment):
        canonical_segment(segment)


def test_encoded_slash_is_refused_as_traversal():
    """An encoded '/' cannot smuggle a second segment into one."""
    with pytest.raises(PathTraversal, match="encoded '/'"):
        canonical_segment("..%2Fsecret")


@pytest.mark.parametrize("text", ["", "   ", "Acme//x", "/"])
def test_malformed_paths_name_the_problem(text):
    """Empty paths and empty segments are refused."""
    with pytest.raises(PathError, match="Malformed path"):
        parse_path(text)


def test_parse_node_children_and_area():
    """A plain node path, a children listing and a reserved prefix parse to their kinds."""
    assert parse_path("Acme/Sales").kind == "node"
    children = parse_path("Acme/*")
    assert (children.kind, children.address) == ("children", "Acme")
    area = parse_path("Acme/schema/Fact")
    assert (area.kind, area.prefix, area.file_path) == ("area", "schema", "Fact")


def test_content_prefix_shapes():
    """`content/` lists, a single segment is a root file, more segments start with the collection name."""
    listing = parse_path("@Acme/content/")
    assert (listing.kind, listing.collection_path, listing.reference) == ("collection", "Acme/content", "link")
    root = parse_path("@Acme/content/Annual Report 2024.pdf")
    assert (root.kind, root.collection_path, root.file_path) == ("file", "Acme/content", "Annual Report 2024.pdf")
    nested = parse_path("Acme/content/content/Sub/file.md")
    assert (nested.collection_path, nested.file_path) == ("Acme/content", "Sub/file.md")
    misread = parse_path("Acme/content/Sub/file.md")
    assert (misread.collection_path, misread.file_path) == ("Acme/Sub", "file.md")


def test_embed_reference_and_leading_slash():
    """`@@` marks an embed; a leading '/' is the absolute form."""
    embed = parse_path("@@/Acme/content/logo.png")
    assert (embed.reference, embed.address, embed.file_path) == ("embed", "Acme", "logo.png")


def test_other_prefix_is_a_collection_name_once_the_address_is_known():
    """With the mesh's node lookup, a non-reserved word after the address names a collection."""
    parsed = parse_path("Acme/reports/Q1.pdf", is_node=lambda path: path == "Acme")
    # verifies: unified-path.address-is-longest-node
    assert (parsed.kind, parsed.collection_path, parsed.file_path) == ("file", "Acme/reports", "Q1.pdf")
    without_lookup = parse_path("Acme/reports/Q1.pdf")
    # verifies: unified-path.address-is-longest-node
    assert without_lookup.kind == "node" and parse_path("Acme/Sub/content/a.md").address == "Acme/Sub"


def test_document_node_paths_parse_as_documents():
    """`{collectionPath}/_Documents/{slug}` is recognised for the default and a named collection."""
    default = parse_path("Acme/content/_Documents/Annual-Report-2024.pdf")
    assert (default.kind, default.collection_path, default.file_path) == ("document", "Acme/content", "Annual-Report-2024.pdf")
    named = parse_path("Acme/reports/_Documents/Q1.pdf", is_node=lambda path: path == "Acme")
    assert (named.kind, named.collection_path) == ("document", "Acme/reports")


@pytest.mark.parametrize("text", [
    "Acme/content/../../etc/passwd",
    "Acme/content/%2e%2e/x",
    "Acme/content/content/Sub/%2E%2E/%2e%2e/x",
    "Acme/content/..",
])
def test_traversal_never_leaves_the_collection(text):
    """Plain or percent-encoded '..' inside a collection is refused, naming the collection."""
    with pytest.raises(PathTraversal, match="would leave collection 'Acme/content'"):
        parse_path(text)


def test_dot_segments_in_the_address_need_a_base():
    """'..' before any prefix is refused unless resolved against a node first."""
    with pytest.raises(PathError, match="relative reference"):
        parse_path("Acme/../Other")


def test_relative_forms():
    """Child, ../Sibling and /Absolute resolve against the current node."""
    assert resolve_relative("Acme/Sales", "Child") == "Acme/Sales/Child"
    assert resolve_relative("Acme/Sales", "../Sibling") == "Acme/Sibling"
    assert resolve_relative("Acme/Sales", "/Other/Node") == "Other/Node"
    with pytest.raises(PathTraversal, match="climbs above the mesh root"):
        resolve_relative("Acme", "../../x")


def test_slug_rule_and_its_lossy_case():
    """Unsafe runs become one '-', ends are trimmed, empty gives 'document', and two names can collide."""
    assert document_slug("Annual Report 2024.pdf") == "Annual-Report-2024.pdf"
    assert document_slug("Annual-Report 2024.pdf") == "Annual-Report-2024.pdf"
    assert document_slug("  Über  Bericht!.md") == "ber-Bericht-.md"
    assert document_slug("***") == "document"
    assert document_node_path("Acme/content", "a b.txt") == "Acme/content/_Documents/a-b.txt"


def test_string_rule_versus_document_fields():
    """The string rule loses spaces; collectionPath + filePath keeps them (doubled form when nested)."""
    document = "Acme/content/_Documents/Annual-Report-2024.pdf"
    assert file_path_by_string_rule(document) == "Acme/content/Annual-Report-2024.pdf"
    content = {"collectionPath": "Acme/content", "filePath": "Annual Report 2024.pdf"}
    assert file_path_from_document(content) == "Acme/content/Annual Report 2024.pdf"
    nested = {"collectionPath": "Acme/content", "filePath": "2024/Annual Report.pdf"}
    # verifies: chunks.nested-file-path-is-doubled
    assert file_path_from_document(nested) == "Acme/content/content/2024/Annual Report.pdf"
    named = {"collectionPath": "Acme/reports", "filePath": "2024/Q1.pdf"}
    assert file_path_from_document(named) == "Acme/reports/2024/Q1.pdf"


def test_string_rule_and_fields_refuse_non_documents():
    """A path without '/_Documents/' or content without the two fields is refused."""
    with pytest.raises(PathError, match="not a Document node path"):
        file_path_by_string_rule("Acme/content/file.pdf")
    with pytest.raises(PathError, match="collectionPath"):
        file_path_from_document({"filePath": "x.pdf"})
