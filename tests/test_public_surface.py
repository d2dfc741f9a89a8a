"""agentkit/__init__.py: the public surface is exactly what `__all__` lists."""

from __future__ import annotations

import types

import agentkit


def test_all_lists_every_public_name_once_and_nothing_else():
    """Every public name agentkit exposes is in `__all__`, once, and every listed name exists."""
    exposed = {name for name, value in vars(agentkit).items()
               if not name.startswith("_") and not isinstance(value, types.ModuleType)}
    assert len(agentkit.__all__) == len(set(agentkit.__all__))
    assert set(agentkit.__all__) == exposed
