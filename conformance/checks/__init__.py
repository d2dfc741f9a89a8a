"""The conformance checks, one module per page of the guide, and `collect_checks`, which gathers them."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from conformance.checks import chunks, mesh, paths, security
from conformance.suite import is_check

# The order the checks run and are reported in (paths first: chunks.py imports its fixtures). A new module of
# checks goes here; tests/test_conformance.py fails on one that is missing.
MODULES: tuple[ModuleType, ...] = (paths, chunks, mesh, security)


def collect_checks(modules: tuple[ModuleType, ...] = MODULES) -> tuple[Callable, ...]:
    """The checks the modules define (their `@check` functions), module by module, each module's in the order it
    defines them: the order pytest collects and runs them in."""
    return tuple(value for module in modules for value in vars(module).values()
                 if is_check(value, module.__name__))
