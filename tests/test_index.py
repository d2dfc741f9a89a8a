"""Tests for agentkit/_index.py: the eventually consistent search index."""

from __future__ import annotations

import pytest

from agentkit import Mesh, PathError, SearchIndex
from agentkit._index import clamp_limit


def mesh_with_facts(count: int, **options) -> Mesh:
    mesh = Mesh(index=SearchIndex(**options))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    for number in range(count):
        mesh.create({"id": f"Acme/f-{number:03d}", "name": f"Fact {number}", "nodeType": "Fact"})
    return mesh


def test_search_lags_until_refresh_while_get_succeeds():
    """Right after creates a count search says zero, a direct Get finds the node, and refresh catches up."""
    mesh = mesh_with_facts(3)
    assert mesh.search("nodeType:Fact")["count"] == 0
    assert mesh.get("Acme/f-002").name == "Fact 2"
    assert mesh.index.pending == 4
    assert mesh.refresh_index() == 4
    assert mesh.search("nodeType:Fact")["count"] == 3


def test_deletes_also_lag():
    """A deleted node stays findable until the index refreshes."""
    mesh = mesh_with_facts(1)
    mesh.refresh_index()
    mesh.delete(["Acme/f-000"])
    assert mesh.search("nodeType:Fact")["count"] == 1
    mesh.refresh_index()
    assert mesh.search("nodeType:Fact")["count"] == 0


def test_auto_refresh_makes_writes_visible_at_once():
    """With auto_refresh the index behaves as if consistent."""
    assert mesh_with_facts(2, auto_refresh=True).search("nodeType:Fact")["count"] == 2


def test_envelope_truncation_and_hint():
    """More matches than the limit set truncated and add a hint; the rows carry the framework's keys."""
    mesh = mesh_with_facts(60)
    mesh.refresh_index()
    envelope = mesh.search("nodeType:Fact")
    assert (envelope["count"], envelope["limit"], envelope["truncated"]) == (50, 50, True)
    assert envelope["hint"].startswith("Showing 50 of 60 matches.")
    assert set(envelope["results"][0]) == {"path", "name", "nodeType", "version", "lastModified"}
    assert "hint" not in mesh.search("nodeType:Fact", limit=60)


@pytest.mark.parametrize("asked, clamped", [(0, 1), (-5, 1), (1, 1), (200, 200), (1000, 200), ("30", 30), (None, 50)])
def test_limit_is_clamped_to_1_200(asked, clamped):
    """The limit is clamped to 1..200; None means the default."""
    assert clamp_limit(asked, 50) == clamped


def test_non_numeric_limit_is_refused():
    """A limit that is not a number gets a precise error."""
    with pytest.raises(PathError, match="limit must be a whole number"):
        clamp_limit("many", 50)


def test_infinite_limit_is_clamped_and_nan_refused():
    """A JSON 1e400 (infinity) clamps like any large or small number; NaN is refused, not a crash."""
    assert (clamp_limit(float("inf"), 50), clamp_limit(float("-inf"), 50), clamp_limit(2.9, 50)) == (200, 1, 2)
    with pytest.raises(PathError, match="limit must be a whole number"):
        clamp_limit(float("nan"), 50)


def test_query_terms_and_base_path():
    """Field terms filter exactly, bare words match name or path, basePath scopes the subtree."""
    mesh = mesh_with_facts(12)
    mesh.create({"id": "Other", "name": "Fact elsewhere", "nodeType": "Fact"})
    mesh.refresh_index()
    assert mesh.search("nodeType:fact", base_path="Acme")["count"] == 12
    assert [r["path"] for r in mesh.search("f-011")["results"]] == ["Acme/f-011"]
    assert [r["path"] for r in mesh.search("name:elsewhere")["results"]] == ["Other"]
    assert mesh.search("*", base_path="Other")["count"] == 1
