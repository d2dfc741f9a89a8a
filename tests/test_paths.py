"""agentkit/_paths.py beyond snippets/unified_path_0[12]*.py and mesh_plugin_04_reserved_places.py (UP4, UP5, UQ2,
N3, N4)."""

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
    words = ("content", "DATA", "Schema", "model", "menu", "layoutAreas", "layoutareas", "area", "files")
    assert [is_reserved_word(word) for word in words] == [True] * 6 + [False] * 3
    parsed = parse_path("Acme/Sales/content/Sub/f.md")
    assert (parsed.kind, parsed.address, parsed.remainder, parsed.content_key) == ("content", "Acme/Sales", "content/Sub/f.md", "Sub/f.md")
    assert parse_path("Acme/schema/Fact").kind == "unified"
    assert parse_path("Acme/content/").content_key == ""
    area = parse_path("Acme/area/Overview")  # its own route (its kind and address, and children: unified_path_01_shapes.py)
    assert (area.kind, area.address, area.remainder) == ("area", "Acme", "area/Overview")


@pytest.mark.parametrize("function, arguments, expected", [
    (resolve_relative, ("A/B", "./C"), "A/B/C"),  # N5 (the rest: snippets/unified_path_01_shapes.py)
    (resolve_relative, ("A/B", ".."), "A/B/.."),  # a bare '..' does not climb
    # D2 (more: the pycon example of docs/Architecture/ContentChunkNavigation.md, content_chunk_navigation_01_paths.py)
    (document_slug, ("  Sub/Ünïcode file.MD ",), "Sub-n-code-file.MD"),
    (document_node_path, ("Acme/content/", "Sub/a b.md"), "Acme/content/_Documents/Sub-a-b.md"),
    (get_path_of_file, ("Acme/Sales/reports", "a.md"), "Acme/Sales/content/reports/a.md"),  # C1, two segments deep
    (canonical_path, ("a%20b/c%2Ed",), "a b/c.d"),  # the opt-in extension (snippets/unified_path_02_canonical.py)
])
def test_path_rules(function, arguments, expected):
    assert function(*arguments) == expected


@pytest.mark.parametrize("function, argument, error, message", [
    (parse_path, "  ", PathError, "^Error: path is required.$"),
    (document_slug, "  ", PathError, "File path is required"),
    (file_path_from_document, {"collectionPath": "Acme/content"}, PathError, "needs the strings"),
    (file_path_by_string_rule, "Acme/content/a.md", PathError, "not a Document node path"),
    (canonical_segment, "100%.md", PathError, "two hex digits"),
    (canonical_segment, "%ff", PathError, "not valid UTF-8"),
    (canonical_segment, "..%2Fsecret", PathTraversal, "encoded '/'"),
])
def test_malformed_paths_are_refused(function, argument, error, message):
    with pytest.raises(error, match=message):
        function(argument)


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


