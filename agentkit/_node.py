"""A mesh node and the clock that stamps its writes: the records the mesh, its collections and its index share.

They stand apart from the mesh so that the index and the collections, which the mesh itself uses,
can name a node without importing the mesh.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from dataclasses import dataclass, replace
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
    created_date: str = ""  # stamped by the node's first write, kept by every later one

    @property
    def path(self) -> str:
        return f"{self.namespace}/{self.id}" if self.namespace else self.id

    def stamped(self, last_modified: str, created_date: str) -> Node:
        """This node with a write's two stamps: ``dataclasses.replace(self, last_modified=…, created_date=…)``,
        built from the fields directly (a Node has no ``__post_init__``), since every write makes one and
        replace's generic path took a sixth of a Create. A subclass may derive fields in its own
        ``__post_init__``: it gets replace itself."""
        if type(self) is not Node:
            return replace(self, last_modified=last_modified, created_date=created_date)
        node = object.__new__(Node)
        node.__dict__.update(self.__dict__, last_modified=last_modified, created_date=created_date)
        return node

    def to_json(self, nullable: Collection[str] = ()) -> dict[str, Any]:
        """The node as the framework's Get serializes its MeshNode (MeshNode.cs), as a dict in the same key order.

        ``$type`` first, then MeshNode's properties in their declared order; a property holding its
        default (null, 0, default(DateTimeOffset)) is left out (WhenWritingDefault, M7). ``mainNode``
        defaults to the path and ``state`` is ``Active``. agentkit knows no user, so ``createdBy`` and
        ``lastModifiedBy`` are null and left out. :func:`agentkit._plugins.node_json` writes the text.

        ``nullable``: the typed content's fields declared nullable (``int?``), whose default is null
        alone, so a stored ``0`` or ``false`` is written.
        """
        properties = {
            "$type": "MeshNode",  # the name MeshDataSource registers MeshNode under
            "id": self.id,
            "namespace": self.namespace or None,  # a root node's Namespace is null
            "path": self.path,
            "mainNode": self.path if self.main_node is None else self.main_node,
            "name": self.name,
            "description": self.description,
            "nodeType": self.node_type,
            "category": self.category,
            "icon": self.icon,
            "order": self.order,
            "createdDate": date_time_offset(self.created_date),
            "lastModified": date_time_offset(self.last_modified),
            "version": self.version or None,
            "state": "Active",
            "content": _without_defaults(self.content, nullable) if self.typed else copy.deepcopy(self.content),
            "preRenderedHtml": self.pre_rendered_html,
        }
        return {key: value for key, value in properties.items() if value is not None}


def date_time_offset(stamp: str) -> str | None:
    """A clock stamp as System.Text.Json writes a UTC DateTimeOffset (``+00:00``, not ``Z``); unset: None."""
    if not stamp:
        return None
    return stamp[:-1] + "+00:00" if stamp.endswith("Z") else stamp


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
