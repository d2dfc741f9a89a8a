"""The conformance checks, one module per page of the guide; importing this package registers them all."""

from conformance.checks import chunks, mesh, paths, security  # noqa: F401
