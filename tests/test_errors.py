"""Tests for agentkit/_errors.py: the hierarchy its docstring draws, and how messages print."""

from __future__ import annotations

import builtins
import re

from agentkit import _errors as errors


def test_every_error_refines_a_builtin_and_the_base():
    """Each class of the docstring's hierarchy refines the class drawn beside it, and is an AgentkitError (or a
    warning); every class of the module is drawn there."""
    drawn = dict(re.findall(r"(\w+)\((\w+)\)", errors.__doc__))
    for name, parent in drawn.items():
        error = getattr(errors, name)
        assert issubclass(error, getattr(errors, parent, None) or getattr(builtins, parent)), name
        assert issubclass(error, (errors.AgentkitError, Warning)), name
    defined = {name for name, value in vars(errors).items() if isinstance(value, type) and value.__module__ == errors.__name__}
    assert len(drawn) > 20 and defined - drawn.keys() <= {"StoreCannotWrite"}  # not yet drawn in the docstring


def test_key_errors_print_their_message_unquoted():
    assert str(errors.FileNotFound("File 'a' not found in collection 'content'")) == \
        "File 'a' not found in collection 'content'"
    assert str(errors.AgentkitError()) == ""
