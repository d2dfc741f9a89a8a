"""While `mkdocs serve` runs, the theme's templates are compiled once, not on every rebuild.

Each rebuild loads the configuration anew, and with it a new Jinja environment that compiled
Material's templates again: about a seventh of a rebuild's time. Jinja's own bytecode cache keeps
the compiled code between environments; it is keyed by template and checked against a digest of
the template's source, so an edited template is compiled again.
"""

from __future__ import annotations

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket


class CompiledTemplates(BytecodeCache):
    """Jinja's bytecode cache, in memory: each template's compiled code, by Jinja's key."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.compiled:
            # Jinja drops the code itself when the template's source changed since it was compiled.
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()
