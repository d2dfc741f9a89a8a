"""agentkit's two layers: the public surface is exactly `__all__`, grouped by its comments, as agentkit/README.md
("Public surface") lists it."""

from __future__ import annotations

import re
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
    """agentkit/README.md's list of a layer's names: `{group: [name, ...]}`, in its order."""
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
    for line in source.split("\n__all__ = [\n", 1)[1].split("\n]\n", 1)[0].splitlines():
        if line.strip().startswith("#"):
            names = groups.setdefault(line.strip("# "), [])
        else:  # a name before any group comment raises: names is unbound
            names += re.findall(r"[\"'](\w+)[\"']", line)
    return groups


def exposed(module: types.ModuleType) -> set[str]:
    return {name for name, value in vars(module).items()
            if not name.startswith("_") and not isinstance(value, types.ModuleType)}


LAYERS = pytest.mark.parametrize("module", [agentkit, agentkit.guide], ids=["agentkit", "agentkit.guide"])


@LAYERS
def test_all_lists_every_public_name_once_and_nothing_else(module):
    assert len(module.__all__) == len(set(module.__all__))
    assert set(module.__all__) == exposed(module)


@LAYERS
def test_the_doc_lists_exactly_the_groups_of_all(module):
    """Group by group as the source groups it, in order, with how many names there are."""
    groups = source_groups(module)
    assert [name for names in groups.values() for name in names] == list(module.__all__)
    assert documented_groups(module.__name__) == groups
    assert f"`{module.__name__}` exports {len(module.__all__)}" in surface_section()


def test_the_core_surface_is_small_and_grouped_as_the_framework():
    """In the framework's three groups; the guide's names are not among them."""
    assert len(agentkit.__all__) <= CORE_LIMIT
    assert list(source_groups(agentkit)) == ["content", "the mesh and its tools", "agents"]
    assert not set(agentkit.__all__) & set(agentkit.guide.__all__)


def test_return_only_helpers_stay_in_their_modules():
    """Types only ever returned are reached through their modules."""
    from agentkit import _content_types, _cost, _node, _tokens, _usage
    from agentkit.guide import _checks

    for module, name in ((_tokens, "ContextEstimate"), (_checks, "Grade"), (_usage, "UsageRow"),
                         (_node, "StepClock"), (_content_types, "DOCUMENT_TYPE"), (_cost, "require_count")):
        assert hasattr(module, name), (module.__name__, name)
        assert name not in agentkit.__all__ and name not in agentkit.guide.__all__
