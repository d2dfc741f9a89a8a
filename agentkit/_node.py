"""A mesh node and the clock that stamps its writes: the records the mesh, its collections and its index share.

They stand apart from the mesh so that the index and the collections, which the mesh itself uses,
can name a node without importing the mesh.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any


class StepClock:
    """A deterministic clock: it moves one second each time the mesh writes."""

    def __init__(self, start: datetime = datetime(2025, 1, 1, tzinfo=timezone.utc)) -> None:
        self._start = start
        self.steps = 0

    def tick(self) -> str:
        """Advance one step and return the new time as ISO 8601 (UTC, 'Z')."""
        self.steps += 1
        return self.now()

    def now(self) -> str:
        """The current time as ISO 8601 (UTC, 'Z')."""
        moment = self._start + timedelta(seconds=self.steps)
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")



@dataclass(frozen=True)
class Node:
    """One mesh node. Its path is ``{namespace}/{id}`` (just ``id`` at the root)."""

    id: str
    namespace: str
    name: str
    node_type: str
    content: Any = None  # a JSON object as a rule; any JSON value is accepted, as in the framework
    category: str | None = None
    icon: str | None = None
    order: int | None = None
    version: int = 1
    last_modified: str = ""
    typed: bool = False  # True when content was deserialized into a registered $type
    description: str | None = None
    pre_rendered_html: str | None = None
    main_node: str | None = None

    @property
    def path(self) -> str:
        return f"{self.namespace}/{self.id}" if self.namespace else self.id

    def to_json(self, nullable: Collection[str] = ()) -> dict[str, Any]:
        """The node as the Get tool shows it, with the framework's camelCase keys.

        ``nullable``: the typed content's fields declared nullable (``int?``), whose default is null
        alone, so a stored ``0`` or ``false`` is written.
        """
        return {
            "id": self.id,
            "namespace": self.namespace,
            "path": self.path,
            "name": self.name,
            "nodeType": self.node_type,
            "category": self.category,
            "icon": self.icon,
            "order": self.order,
            "version": self.version,
            "lastModified": self.last_modified,
            "content": _without_defaults(self.content, nullable) if self.typed else copy.deepcopy(self.content),
        } | {key: value for key, value in (("description", self.description), ("preRenderedHtml", self.pre_rendered_html),
                                           ("mainNode", self.main_node)) if value is not None}


def _is_default(value: Any) -> bool:
    """A .NET default value: null, false or a zero number (an empty string is not: a string's default is null)."""
    return value is None or value is False or (type(value) in (int, float) and value == 0)


def _without_defaults(content: Any, nullable: Collection[str] = ()) -> Any:
    """Typed content as the framework's JSON writes it: fields holding their default value are omitted (M7).

    A nullable field's default is null: its ``0`` or ``false`` is written.
    """
    if not isinstance(content, dict):
        return copy.deepcopy(content)
    return {key: copy.deepcopy(value) for key, value in content.items()
            if key == "$type" or not (value is None if key in nullable else _is_default(value))}
