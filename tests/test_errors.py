"""Tests for agentkit/_errors.py: the hierarchy and how messages print."""

from __future__ import annotations

from agentkit import _errors as errors


def test_every_error_refines_a_builtin_and_the_base():
    """Each content-layer error is an AgentkitError and the builtin (or the error) its docstring names."""
    pairs = {
        errors.PathError: ValueError, errors.PathTraversal: ValueError, errors.NodeNotFound: KeyError,
        errors.CollectionNotFound: KeyError, errors.FileNotFound: KeyError, errors.CreateError: ValueError,
        errors.InvalidJson: ValueError, errors.MissingField: ValueError, errors.MalformedNamespace: ValueError,
        errors.NodeExists: ValueError, errors.SchemaMismatch: ValueError, errors.StrictContentError: ValueError,
        errors.UnreadableDocument: ValueError,
        errors.DocumentSlugCollision: ValueError, errors.ToolArgumentError: ValueError,
        # The M8 and M11 refusals are CreateErrors: a caller catching Create's refusals catches them too.
        errors.UnregisteredDiscriminator: errors.CreateError, errors.NotPatchable: errors.CreateError,
    }
    for error, builtin in pairs.items():
        assert issubclass(error, errors.AgentkitError) and issubclass(error, builtin), error
        assert error.__name__ in errors.__doc__


def test_key_errors_print_their_message_unquoted():
    """A KeyError subclass prints as written, not as a quoted repr."""
    assert str(errors.FileNotFound("File 'a' not found in collection 'content'")) == \
        "File 'a' not found in collection 'content'"
    assert str(errors.AgentkitError()) == ""
