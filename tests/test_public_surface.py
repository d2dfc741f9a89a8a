"""agentkit/__init__.py and agentkit/guide/__init__.py: the public surface is exactly what `__all__`
lists, and `__all__` is the list the README's "Public surface" section explains, group by group."""

from __future__ import annotations

import re
import types

import pytest

import agentkit
import agentkit.guide
from tools.project import REPO_ROOT

CORE_LIMIT = 80  # a surface a reader can hold in their head


def readme_groups(layer: str) -> dict[str, list[str]]:
    """The README's list of a layer's names: `{group: [name, ...]}`, in the order it gives them.

    The core's list follows "`agentkit` exports", the guide's follows "`agentkit.guide` exports".
    """
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Public surface\n", 1)[1].split("\n## ", 1)[0]
    core, guide = section.split("`agentkit.guide` exports", 1)
    groups: dict[str, list[str]] = {}
    for item in re.split(r"\n- ", core if layer == "agentkit" else guide)[1:]:
        group, _, names = item.partition(":")
        groups[group.strip()] = re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", names)
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
def test_all_is_the_list_the_readme_explains(module):
    """The README lists each layer's names in `__all__`'s order, and states how many there are."""
    listed = [name for names in readme_groups(module.__name__).values() for name in names]
    assert listed == list(module.__all__)
    section = (REPO_ROOT / "README.md").read_text(encoding="utf-8").split("\n## Public surface\n", 1)[1]
    assert f"`{module.__name__}` exports {len(module.__all__)}" in section


def test_the_core_surface_is_small_and_grouped_as_the_framework():
    """At most about 80 names, in the framework's three groups; the guide's names are not among them."""
    assert len(agentkit.__all__) <= CORE_LIMIT
    assert list(readme_groups("agentkit")) == ["content", "the mesh and its tools", "agents"]
    assert not set(agentkit.__all__) & set(agentkit.guide.__all__)


def test_return_only_helpers_stay_in_their_modules():
    """Types only ever returned are reachable through their modules, not re-exported."""
    from agentkit import _cost, _mesh, _node, _tokens, _usage
    from agentkit.guide import _facts

    for module, name in ((_tokens, "ContextEstimate"), (_facts, "Grade"), (_usage, "UsageRow"),
                         (_node, "StepClock"), (_mesh, "DOCUMENT_TYPE"), (_cost, "require_count")):
        assert hasattr(module, name), (module.__name__, name)
        assert name not in agentkit.__all__ and name not in agentkit.guide.__all__
