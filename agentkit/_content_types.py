"""Content types and the content-type registry: how Create, Update and Patch type a node's content (M6-M8).

A registered :class:`ContentType` names its ``$type`` and its fields' JSON kinds. Content is
deserialized into the type its ``$type`` names, unknown fields dropped without an error (M7); a string
``$type`` that resolves in no registry is refused on a built-in node type (M8) and stored untyped
otherwise; ``strict`` (an agentkit extension) refuses what would be dropped or stored untyped.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._errors import SchemaMismatch, StrictContentError, UnregisteredDiscriminator
from ._json import JSON_KINDS, is_json_kind, json_kind
from ._node import Node


@dataclass(frozen=True)
class ContentType:
    """A registered content type: its ``$type`` name and its fields with their JSON kinds.

    Kinds are ``string``, ``number``, ``integer``, ``boolean``, ``array``,
    ``object``; ``null`` is accepted for every field. A kind ending in ``?``
    (``number?``) is a nullable value type (``decimal?``): its default is
    null, so the framework's JSON writes a stored ``0`` or ``false`` (M7).
    """

    name: str
    fields: Mapping[str, str]
    # A type with a [JsonExtensionData] bag (MarkdownContent, CodeConfiguration: M7) keeps unknown fields.
    keeps_unknown_fields: bool = False

    def __post_init__(self) -> None:
        unknown = sorted(kind for kind in self.fields.values() if kind.removesuffix("?") not in JSON_KINDS)
        if unknown:
            raise ValueError(f"ContentType '{self.name}': unknown field kind(s) {unknown}; use {sorted(JSON_KINDS)}")

    @property
    def nullable_fields(self) -> frozenset[str]:
        """The fields declared nullable (kind ending in ``?``)."""
        return frozenset(name for name, kind in self.fields.items() if kind.endswith("?"))

    def deserialize(self, raw: Mapping[str, Any], node_type: str) -> tuple[dict[str, Any], tuple[str, ...]]:
        """Keep the known fields (checking their JSON kind); return them and the dropped names."""
        typed: dict[str, Any] = {"$type": self.name}
        dropped = []
        for key, value in raw.items():
            if key == "$type":
                continue
            kind = self.fields.get(key)
            if kind is None:
                if self.keeps_unknown_fields:
                    typed[key] = _own_copy(value)
                else:
                    dropped.append(key)
                continue
            kind = kind.removesuffix("?")
            if value is not None and not is_json_kind(value, kind):
                # M6: the opening is the framework's; the detail stands in for .NET's JsonException text.
                raise SchemaMismatch(
                    f"Error: Content does not match the schema for NodeType '{node_type}'. Field '{key}' "
                    f"of $type '{self.name}' expects {kind}, got {json_kind(value)} {json.dumps(value)}."
                )
            typed[key] = _own_copy(value)
        return typed, tuple(dropped)


def _own_copy(value: Any) -> Any:
    """A copy the node owns; a string, number, boolean or null is immutable and stands for itself (most fields
    are, and deepcopy's dispatch on each was a tenth of a Create)."""
    return value if value is None or type(value) in (str, int, float, bool) else copy.deepcopy(value)


DOCUMENT_TYPE = ContentType(
    "Document",
    {
        "name": "string",
        "summary": "string",
        "collectionPath": "string",
        "filePath": "string",
        "mime": "string",
        "sizeBytes": "integer",
        "contentHash": "string",
        "chunkCount": "integer",
        "indexedAt": "string",
    },
)


# The content of the framework's built-in node type Markdown (MarkdownContent.cs); its UnknownMembers
# bag keeps fields it does not declare (M7), so nothing is dropped silently here.
MARKDOWN_TYPE = ContentType(
    "MarkdownContent",
    {"content": "string", "prerenderedHtml": "string", "codeSubmissions": "array", "authors": "array",
     "tags": "array", "thumbnail": "string", "abstract": "string"},
    keeps_unknown_fields=True,
)


class ContentTyping:
    """The mesh's registry of content types and node types, and the typing of content it writes (a part of
    :class:`~agentkit.Mesh`; it reads the mesh's ``content_types``, ``node_types``, ``builtin_node_types``)."""

    def register_type(self, content_type: ContentType) -> None:
        """Register a content type under its ``$type`` name (re-registering replaces it)."""
        self.content_types[content_type.name] = content_type

    def register_node_type(self, name: str, *, builtin: bool = False) -> None:
        """Register a NodeType the host configures; ``builtin`` marks one without compile source (M8)."""
        (self.builtin_node_types if builtin else self.node_types).add(name)

    def knows_node_type(self, name: str) -> bool:
        """The create handler's check: a static NodeType node at ``name`` (registered here) or a node at that path."""
        return name in self.node_types or name in self.builtin_node_types or name in self._nodes

    def _schema_text(self, node_type: str) -> str:
        """The JSON schema the framework appends to content errors, when the node type registers a type of its name."""
        own = self.content_types.get(node_type)
        if own is None:
            return ""
        schema = {"type": "object", "properties": {name: {"type": kind.removesuffix("?")} for name, kind in own.fields.items()}}
        return f" Expected content schema for NodeType '{node_type}': {json.dumps(schema, separators=(',', ':'))}"

    def _refuse_discriminator(self, node: Node, *, existing: Node | None, prefix: str) -> None:
        """M8 (since e298c8cf8): an unregistered string ``$type`` on a built-in node type is refused.

        Accepted: no ``$type``; a ``$type`` that resolves (also ``A.B.T`` as
        ``T``); a node type that is not built in (DB-defined or compiled); an
        Update keeping the ``$type`` the stored node already has.
        """
        content = node.content
        discriminator = content.get("$type") if isinstance(content, Mapping) else None
        if not isinstance(discriminator, str) or not discriminator or self._content_type(discriminator) is not None:
            return
        if existing is not None and isinstance(existing.content, Mapping) and existing.content.get("$type") == discriminator:
            return
        if node.node_type not in self.builtin_node_types:
            return
        raise UnregisteredDiscriminator(
            f"{prefix}Content of '{node.path}' carries the polymorphic discriminator '$type': '{discriminator}', "
            f"which is not a registered content type for the built-in NodeType '{node.node_type}' — it would "
            "persist as an untyped blob that renders empty and cannot be edited. Use the NodeType's declared "
            f"content shape (check '@{node.node_type}/schema/'); for Markdown nodes the content is "
            "{\"$type\": \"MarkdownContent\", \"content\": \"<markdown text>\"}."
        )

    def nullable_fields(self, node: Node) -> frozenset[str]:
        """The nullable fields of ``node``'s typed content (what the framework's JSON writes when 0 or false)."""
        content_type = self._content_type(node.content.get("$type")) if node.typed and isinstance(node.content, Mapping) else None
        return content_type.nullable_fields if content_type is not None else frozenset()

    def _content_type(self, discriminator: Any) -> ContentType | None:
        """The registered content type a ``$type`` names (also ``A.B.T`` as ``T``), or ``None``."""
        if not isinstance(discriminator, str):
            return None
        found = self.content_types.get(discriminator)
        if found is None and "." in discriminator:
            found = self.content_types.get(discriminator.rsplit(".", 1)[1])
        return found

    def _typed(self, content_type: ContentType, raw: Mapping[str, Any], node_type: str) -> tuple[dict[str, Any], tuple[str, ...]]:
        """``content_type.deserialize``; a schema mismatch ends with the node type's schema, rendered only then."""
        try:
            return content_type.deserialize(raw, node_type)
        except SchemaMismatch as mismatch:
            raise SchemaMismatch(f"{mismatch}{self._schema_text(node_type)}") from None

    def _deserialize(self, raw: Any, node_type: str, strict: bool) -> tuple[Any, bool, tuple[str, ...]]:
        """Content as the framework stores it: typed by a registered ``$type`` (unknown fields dropped, M7), else untyped.

        M6: where the node type registers a content type of its own name, the
        content is converted to that type: content that is not a JSON object
        (an array, a string, a number, a boolean) is refused, and so is a known
        field of the wrong JSON kind.
        """
        if raw is None:
            return None, False, ()
        own = self.content_types.get(node_type)
        checked = None  # what the schema check of the node type's own content type kept and dropped
        if own is not None and not isinstance(raw, Mapping):
            # M6: the framework deserializes any content into the type, and JSON that is not an object fails;
            # the detail stands in for .NET's JsonException text.
            raise SchemaMismatch(
                f"Error: Content does not match the schema for NodeType '{node_type}'. Content of $type "
                f"'{own.name}' must be a JSON object, got {json_kind(raw)}.{self._schema_text(node_type)}")
        if own is not None:
            checked = self._typed(own, raw, node_type)
        if not isinstance(raw, Mapping):
            return copy.deepcopy(raw), False, ()
        type_name = raw.get("$type")
        content_type = self._content_type(type_name)
        if content_type is None:
            if strict:  # agentkit extension
                known = ", ".join(sorted(self.content_types))
                stated = "is missing" if type_name is None else f"'{type_name}' is not registered"
                raise StrictContentError(
                    f"Strict mode: content $type {stated}; the framework would store untyped content that renders "
                    f"empty in typed views. Registered types: {known}."
                )
            return copy.deepcopy(dict(raw)), False, ()
        if content_type is own and checked is not None:  # the same content type read the same raw content
            typed, dropped = checked
        else:
            typed, dropped = self._typed(content_type, raw, node_type)
        if dropped and strict:  # agentkit extension
            names = ", ".join(f"'{name}'" for name in dropped)
            known = ", ".join(sorted(content_type.fields))
            raise StrictContentError(
                f"Strict mode: field(s) {names} are not part of $type '{content_type.name}' and would be dropped "
                f"silently. Known fields: {known}."
            )
        return typed, True, dropped
