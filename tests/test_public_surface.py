"""agentkit/__init__.py and agentkit/guide/__init__.py: the public surface is exactly what `__all__`
lists, grouped by the comments inside `__all__`, and agentkit/README.md ("Public surface") lists
exactly those groups and names, in that order."""

from __future__ import annotations

import io
import re
import tokenize
import types
from pathlib import Path

import pytest

import agentkit
import agentkit.guide
from guidetools.project import REPO_ROOT

CORE_LIMIT = 80  # a surface a reader can hold in their head
SURFACE_DOC = REPO_ROOT / "agentkit" / "README.md"


def surface_section() -> str:
    return SURFACE_DOC.read_text(encoding="utf-8").split("\n## Public surface\n", 1)[1].split("\n## ", 1)[0]


def documented_groups(layer: str) -> dict[str, list[str]]:
    """agentkit/README.md's list of a layer's names: `{group: [name, ...]}`, in the order it gives them.

    The core's list follows "`agentkit` exports", the guide's follows "`agentkit.guide` exports".
    """
    core, guide = surface_section().split("`agentkit.guide` exports", 1)
    groups: dict[str, list[str]] = {}
    for item in re.split(r"\n- ", core if layer == "agentkit" else guide)[1:]:
        group, _, names = item.partition(":")
        groups[group.strip()] = re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", names)
    return groups


def source_groups(module: types.ModuleType) -> dict[str, list[str]]:
    """The layer's `__all__` as its source writes it: `{comment: [name, ...]}`, each comment opening a group."""
    source = Path(module.__file__).read_text(encoding="utf-8")
    groups: dict[str, list[str]] = {}
    inside, group = False, None
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if not inside:
            inside = token.type == tokenize.NAME and token.string == "__all__" and token.start[1] == 0
            continue
        if token.type == tokenize.OP and token.string == "]":
            break
        if token.type == tokenize.COMMENT:
            group = token.string.lstrip("#").strip()
            groups[group] = []
        elif token.type == tokenize.STRING:
            assert group is not None, f"{module.__name__}.__all__ lists {token.string} before any group comment"
            groups[group].append(token.string.strip("\"'"))
    return groups


def exposed(module: types.ModuleType) -> set[str]:
    return {name for name, value in vars(module).items()
            if not name.startswith("_") and not isinstance(value, types.ModuleType)}


@pytest.mark.parametrize("module", [agentkit, agentkit.guide], ids=["agentkit", "agentkit.guide"])
def test_all_lists_every_public_name_once_and_nothing_else(module):
    """Every public name a layer exposes is in its `__all__`, once, and every listed name exists."""
    assert len(module.__all__) == len(set(module.__all__))
    assert set(module.__all__) == exposed(module)


@pytest.mark.parametrize("module", [agentkit, agentkit.guide], ids=["agentkit", "agentkit.guide"])
def test_the_doc_lists_exactly_the_groups_of_all(module):
    """agentkit/README.md lists each layer's `__all__`, group by group as the source groups it, in order,
    and states how many names there are."""
    groups = source_groups(module)
    assert [name for names in groups.values() for name in names] == list(module.__all__)
    assert documented_groups(module.__name__) == groups
    assert f"`{module.__name__}` exports {len(module.__all__)}" in surface_section()


def test_the_core_surface_is_small_and_grouped_as_the_framework():
    """At most about 80 names, in the framework's three groups; the guide's names are not among them."""
    assert len(agentkit.__all__) <= CORE_LIMIT
    assert list(source_groups(agentkit)) == ["content", "the mesh and its tools", "agents"]
    assert not set(agentkit.__all__) & set(agentkit.guide.__all__)


def test_return_only_helpers_stay_in_their_modules():
    """Types only ever returned are reachable through their modules, not re-exported."""
    from agentkit import _content_types, _cost, _node, _tokens, _usage
    from agentkit.guide import _checks

    for module, name in ((_tokens, "ContextEstimate"), (_checks, "Grade"), (_usage, "UsageRow"),
                         (_node, "StepClock"), (_content_types, "DOCUMENT_TYPE"), (_cost, "require_count")):
        assert hasattr(module, name), (module.__name__, name)
        assert name not in agentkit.__all__ and name not in agentkit.guide.__all__
