"""Tests for agentkit/_paths.py: the split Get makes, tool and Markdown paths, slugs, Get paths of files. The Markdown
reference forms (UP4, UP5, UQ2), a path with no reserved word (N3) and what a tool path loses (N4: blanks, quotes, one
'@', nothing decoded, '..' kept) are checked by snippets/unified_path_0[12]*.py and mesh_plugin_04_reserved_places.py."""

from __future__ import annotations

import pytest

from agentkit import (
    PathError, canonical_segment, document_node_path, document_slug, file_path_by_string_rule, file_path_from_document,
    get_path_of_file, parse_path, resolve_relative,
)
from agentkit._errors import PathTraversal
from agentkit._paths import canonical_path, is_reserved_word


def test_get_splits_at_the_first_reserved_word_in_any_case():
    """N2: content, data, schema, model, menu in any case, and exactly layoutAreas."""
    assert [is_reserved_word(w) for w in ("content", "DATA", "Schema", "model", "menu", "layoutAreas", "layoutareas", "area", "files")] == [
        True, True, True, True, True, True, False, False, False]
    parsed = parse_path("Acme/Sales/content/Sub/f.md")
    assert (parsed.kind, parsed.address, parsed.remainder, parsed.content_key) == ("content", "Acme/Sales", "content/Sub/f.md", "Sub/f.md")
    assert parse_path("Acme/schema/Fact").kind == "unified"
    assert parse_path("Acme/content/").content_key == ""
    area = parse_path("Acme/area/Overview")  # its own route (its kind and address, and children: unified_path_01_shapes.py)
    assert (area.kind, area.address, area.remainder) == ("area", "Acme", "area/Overview")


def test_empty_path_is_refused_with_the_framework_text():
    with pytest.raises(PathError, match="^Error: path is required.$"):
        parse_path("  ")


def test_markdown_references_drop_dot_slash_and_climb_only_at_dot_dot_slash():
    """N5: ./ dropped; a bare '..' does not climb (child, ../, clamping, /x and full paths: unified_path_01_shapes.py)."""
    assert resolve_relative("A/B", "./C") == "A/B/C"
    assert resolve_relative("A/B", "..") == "A/B/.."


def test_slug_rule():
    """D2: trimmed; kept characters verbatim; other runs one '-', not merged with a kept '-'; trimmed (a blank beside a
    kept '-', and 'document' for a name of nothing kept: the pycon example of docs/Architecture/ContentChunkNavigation.md;
    two names sharing a slug: snippets/content_chunk_navigation_01_paths.py)."""
    assert document_slug("  Sub/Ünïcode file.MD ") == "Sub-n-code-file.MD"
    with pytest.raises(PathError):
        document_slug("  ")
    assert document_node_path("Acme/content/", "Sub/a b.md") == "Acme/content/_Documents/Sub-a-b.md"


def test_get_path_of_a_file_depends_on_the_collection():
    """C1: a named collection of a node two segments deep reads at {node}/content/{name}/{file} (content's files and
    file_path_from_document: snippets/content_chunk_navigation_01_paths.py)."""
    assert get_path_of_file("Acme/Sales/reports", "a.md") == "Acme/Sales/content/reports/a.md"
    with pytest.raises(PathError, match="needs the strings"):
        file_path_from_document({"collectionPath": "Acme/content"})


def test_string_rule_refuses_non_documents():
    """Its lossy answer for a Document path: snippets/content_chunk_navigation_01_paths.py:127."""
    with pytest.raises(PathError, match="not a Document node path"):
        file_path_by_string_rule("Acme/content/a.md")


def test_canonical_segment_is_the_opt_in_extension():
    """Malformed escapes and encoded separators are refused (percent-decoding, then NFC, of a segment:
    snippets/unified_path_02_canonical.py, unified-path.canonical-paths-extension)."""
    assert canonical_path("a%20b/c%2Ed") == "a b/c.d"
    with pytest.raises(PathError, match="two hex digits"):
        canonical_segment("100%.md")
    with pytest.raises(PathError, match="not valid UTF-8"):
        canonical_segment("%ff")
    with pytest.raises(PathTraversal, match="encoded '/'"):
        canonical_segment("..%2Fsecret")


def test_get_tries_children_then_the_last_area_segment_then_the_old_colon_form():
    """UP1: '/*', the last exact 'area' after the first segment (no ':' anywhere), a ':' after a '/', then the word."""
    cases = {
        "A/content/*": ("children", "A/content", None, None),
        "A/area/B/area/Overview/1": ("area", "A/area/B", "area", None),
        "A/Area/x": ("node", "A/Area/x", None, None),  # 'area' matches exactly
        "area/x": ("node", "area/x", None, None),  # never the first segment
        "A/content/area:x/area/y": ("unified", "A/content", "area", "x/area/y"),  # a ':' turns the area route off
        "A/CONTENT:Sub/f.md": ("content", "A", "content", "Sub/f.md"),
        "A/content/Q1: notes.md": ("unified", "A/content", "q1", " notes.md"),
        "A/content": ("unified", "A", "data", "content"),
        "A/content/": ("content", "A", "content", ""),
    }
    for path, expected in cases.items():
        parsed = parse_path(path)
        assert (parsed.kind, parsed.address, parsed.prefix, parsed.rest) == expected, path


