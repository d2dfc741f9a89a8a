"""The conformance checks, one module per page of the guide, and `collect_checks`, which gathers them for a run."""

from __future__ import annotations

from types import ModuleType

from conformance.checks import chunks, mesh, paths, security
from conformance.suite import Check

# The order the checks run and are reported in (paths first: chunks.py imports its fixtures). A new module of
# checks goes here; tests/test_conformance.py fails on one that is missing.
MODULES: tuple[ModuleType, ...] = (paths, chunks, mesh, security)


def collect_checks(modules: tuple[ModuleType, ...] = MODULES) -> tuple[Check, ...]:
    """The checks the modules define, module by module, each module's in the order it defines them."""
    return tuple(value for module in modules for value in vars(module).values()
                 if isinstance(value, Check) and value.module == module.__name__)
