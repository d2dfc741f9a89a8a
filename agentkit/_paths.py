"""Unified paths: parsing, canonical segments, Document-node slugs.

A unified path reads ``{address}/{prefix}/{path}``. The address is a node
path; the prefix is one of the reserved words in :data:`RESERVED_PREFIXES`
or, if it is any other word, the name of a content collection. Under the
``content`` prefix a single segment is a root file of the collection named
``content``; with more segments the first one is read as the collection name,
which is why a nested file needs the doubled form
``Node/content/content/Sub/file.ext``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Callable, Mapping
from urllib.parse import unquote

from ._errors import PathError, PathTraversal

RESERVED_PREFIXES = ("data", "schema", "model", "area", "content", "menu")
DEFAULT_COLLECTION = "content"
DOCUMENTS_SEGMENT = "_Documents"

_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_SLUG_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
SLUG_SEGMENT = re.compile(r"^[A-Za-z0-9._-]+$")  # a node id or one namespace segment


def canonical_segment(segment: str) -> str:
    """Return the canonical form of one path segment: percent-decoded, then NFC.

    ``my%20report.md`` becomes ``my report.md``; a name typed in decomposed
    Unicode (as macOS stores it) becomes the composed form, so both find the
    same file.
    """
    if _BAD_PERCENT.search(segment):
        raise PathError(
            f"Malformed path segment '{segment}': '%' must be followed by two hex digits "
            "(write a literal '%' as %25)"
        )
    try:
        decoded = unquote(segment, errors="strict")
    except UnicodeDecodeError:
        raise PathError(
            f"Malformed path segment '{segment}': its percent-escapes are not valid UTF-8"
        ) from None
    if "/" in decoded or "\\" in decoded:
        raise PathTraversal(
            f"Malformed path segment '{segment}': an encoded '/' or '\\' would split the segment; "
            "address each folder as its own segment"
        )
    if any(unicodedata.category(ch) == "Cc" for ch in decoded):
        raise PathError(f"Malformed path segment '{segment}': control characters are not allowed")
    return unicodedata.normalize("NFC", decoded)


def split_segments(path: str) -> list[str]:
    """Split a slash-separated path into canonical segments, refusing empty ones."""
    if not path or not path.strip():
        raise PathError("Malformed path '': a path needs at least one segment")
    parts = path.split("/")
    if any(part == "" for part in parts):
        raise PathError(f"Malformed path '{path}': empty segment (doubled or stray '/')")
    return [canonical_segment(part) for part in parts]


def canonical_path(path: str) -> str:
    """A slash-separated path with outer blanks and slashes trimmed and every segment canonical."""
    return "/".join(split_segments(path.strip().strip("/")))


def is_within(path: str, root: str) -> bool:
    """True when ``path`` is ``root`` or lies below it: ``Acme/Sales`` is within ``Acme``, ``Acme2`` is not."""
    return path == root or path.startswith(root + "/")


def resolve_relative(base: str, reference: str) -> str:
    """Resolve a relative form against the node path ``base``.

    ``Child`` is below ``base``, ``../Sibling`` is beside it, ``/Absolute``
    starts at the mesh root.
    """
    if reference.startswith("/"):
        return "/".join(split_segments(reference[1:]))
    segments = split_segments(base) if base else []
    for segment in split_segments(reference):
        if segment == "..":
            if not segments:
                raise PathTraversal(f"Path '{reference}' from '{base}' climbs above the mesh root")
            segments.pop()
        elif segment != ".":
            segments.append(segment)
    if not segments:
        raise PathError(f"Path '{reference}' from '{base}' resolves to the mesh root, which is not a node")
    return "/".join(segments)


@dataclass(frozen=True)
class UnifiedPath:
    """A parsed unified path.

    ``kind`` is one of ``node``, ``children`` (``path/*``), ``area`` (a
    reserved prefix other than ``content``), ``collection`` (listing a
    collection), ``file`` (a file inside a collection) and ``document`` (a
    file's Document node, ``{collectionPath}/_Documents/{slug}``).
    """

    text: str
    kind: str
    address: str
    reference: str | None = None  # "link" for @, "embed" for @@
    prefix: str | None = None
    collection: str | None = None
    file_path: str | None = None

    @property
    def collection_path(self) -> str | None:
        """``{node}/{collection}`` when the path points into a collection."""
        return f"{self.address}/{self.collection}" if self.collection else None


def parse_path(text: str, *, is_node: Callable[[str], bool] | None = None) -> UnifiedPath:
    """Parse a unified path.

    Without ``is_node`` the address ends at the first reserved prefix (a
    collection name that is not reserved cannot be told from a child node by
    the string alone). With ``is_node`` (the mesh passes its own lookup) the
    address is the longest prefix that is an existing node, and a following
    word that is not reserved is a collection name.
    """
    if not isinstance(text, str):
        raise PathError(f"Malformed path {text!r}: a path is a string")
    raw = text.strip()
    reference = None
    if raw.startswith("@@"):
        reference, raw = "embed", raw[2:]
    elif raw.startswith("@"):
        reference, raw = "link", raw[1:]
    raw = raw.removeprefix("/")
    if raw.endswith("/*"):
        segments = split_segments(raw[:-2])
        refuse_dot_segments(text, segments)
        return UnifiedPath(text, "children", "/".join(segments), reference)
    listing = raw.endswith("/")
    segments = split_segments(raw[:-1] if listing else raw)

    address_length = _address_length(segments, is_node)
    refuse_dot_segments(text, segments[:address_length])
    address = "/".join(segments[:address_length])
    rest = segments[address_length:]
    if not rest:
        return UnifiedPath(text, "node", address, reference)
    if not address:
        raise PathError(f"Malformed path '{text}': '{rest[0]}' needs a node address before it")
    prefix = rest[0]
    refuse_dot_segments(text, [prefix])
    if prefix in RESERVED_PREFIXES and prefix != DEFAULT_COLLECTION:
        return UnifiedPath(text, "area", address, reference, prefix=prefix, file_path="/".join(rest[1:]) or None)

    if prefix == DEFAULT_COLLECTION:
        refuse_dot_segments(text, rest[1:], f"{address}/{DEFAULT_COLLECTION}")
        if len(rest) == 1:
            collection, inner = DEFAULT_COLLECTION, []
        elif len(rest) == 2 and not listing:
            collection, inner = DEFAULT_COLLECTION, rest[1:]
        else:
            collection, inner = rest[1], rest[2:]
        if collection == DOCUMENTS_SEGMENT:  # Node/content/_Documents/slug
            collection, inner = DEFAULT_COLLECTION, [DOCUMENTS_SEGMENT, *inner]
    else:
        collection, inner = prefix, rest[1:]
    if collection in RESERVED_PREFIXES and collection != DEFAULT_COLLECTION:
        raise PathError(f"Malformed path '{text}': '{collection}' is a reserved prefix, not a collection name")
    refuse_dot_segments(text, [collection], f"{address}/{collection}")
    refuse_dot_segments(text, inner, f"{address}/{collection}")
    if not inner:
        return UnifiedPath(text, "collection", address, reference, prefix=prefix, collection=collection)
    if inner[0] == DOCUMENTS_SEGMENT:
        if len(inner) != 2:
            raise PathError(
                f"Malformed path '{text}': a Document node path is "
                f"'{address}/{collection}/{DOCUMENTS_SEGMENT}/{{slug}}'"
            )
        return UnifiedPath(text, "document", address, reference, prefix=prefix, collection=collection, file_path=inner[1])
    return UnifiedPath(text, "file", address, reference, prefix=prefix, collection=collection, file_path="/".join(inner))


def _address_length(segments: list[str], is_node: Callable[[str], bool] | None) -> int:
    if is_node is not None:
        for length in range(len(segments), 0, -1):
            if is_node("/".join(segments[:length])):
                return length
    for position, segment in enumerate(segments):
        if segment in RESERVED_PREFIXES:
            return position
    return len(segments)


def refuse_dot_segments(text: str, segments: list[str], collection_path: str | None = None) -> None:
    """Refuse a '.' or '..' segment: as leaving ``collection_path`` when given, else as unresolved."""
    for segment in segments:
        if segment in ("..", "."):
            if collection_path:
                raise PathTraversal(
                    f"Path '{text}' would leave collection '{collection_path}': "
                    f"'{segment}' segments (plain or percent-encoded) are not allowed inside a collection"
                )
            raise PathError(
                f"Malformed path '{text}': '{segment}' is only meaningful in a relative reference; "
                "resolve it against the current node first"
            )


def document_slug(file_path: str) -> str:
    """The framework's slug: keep ASCII letters, digits, ``-``, ``_``, ``.``;
    every other run of characters becomes one ``-``; trimmed; empty gives ``document``."""
    slug = _SLUG_UNSAFE.sub("-", file_path).strip("-")
    return slug or "document"


def document_node_path(collection_path: str, file_path: str) -> str:
    """Where upload writes the Document node of a file."""
    return f"{collection_path}/{DOCUMENTS_SEGMENT}/{document_slug(file_path)}"


def file_path_by_string_rule(document_path: str) -> str:
    """The documented shortcut: replace ``/_Documents/`` with ``/``.

    Correct only when the file name is already slug-safe; for
    ``Annual Report 2024.pdf`` it yields ``.../Annual-Report-2024.pdf``, a file
    that does not exist.
    """
    marker = f"/{DOCUMENTS_SEGMENT}/"
    if document_path.count(marker) != 1:
        raise PathError(f"'{document_path}' is not a Document node path (it needs exactly one '{marker}')")
    return document_path.replace(marker, "/")


def file_path_from_document(content: Mapping[str, object]) -> str:
    """The robust readable path of a file: the Document node's ``collectionPath`` + ``filePath``.

    A nested file of the collection named ``content`` needs the doubled form,
    because after the ``content`` prefix the first segment names the collection.
    """
    collection_path = content.get("collectionPath")
    file_path = content.get("filePath")
    if not isinstance(collection_path, str) or not isinstance(file_path, str) or not collection_path or not file_path:
        raise PathError("Document content needs the strings 'collectionPath' and 'filePath'")
    address, _, collection = collection_path.rpartition("/")
    if collection == DEFAULT_COLLECTION and "/" in file_path:
        return f"{address}/{DEFAULT_COLLECTION}/{collection}/{file_path}"
    return f"{collection_path}/{file_path}"


def split_node_id(node_id: str, namespace: str | None) -> tuple[str, str]:
    """Split an id with slashes into (namespace, id), as Create does."""
    if "/" in node_id:
        head, _, tail = node_id.rpartition("/")
        namespace = f"{namespace}/{head}" if namespace else head
        node_id = tail
    return namespace or "", node_id


def is_valid_node_id(node_id: str) -> bool:
    """A node id is a slug (letters, digits, ``-``, ``_``, ``.``; no slashes), never ``.`` or ``..``."""
    return bool(SLUG_SEGMENT.match(node_id)) and node_id not in (".", "..")
