"""Unified paths as the framework's Get reads them: tool-path cleaning, the split at a reserved word,
Markdown's relative forms, Document-node slugs.

Get splits a path at its first reserved word (``content``, ``data``, ``schema``, ``model``, ``menu`` in
any case, and ``layoutAreas``): what stands before it is the node address, the rest is read by that node
(N2). Any other word is part of a node path, never a collection name (N3). Get decodes nothing and
normalises nothing (C6); :func:`canonical_segment` (percent-decoding, then NFC) is an agentkit extension,
used only by a mesh built with ``canonical_paths=True``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Mapping
from urllib.parse import unquote

from ._errors import PathError, PathTraversal

RESERVED_WORDS = ("content", "data", "schema", "model", "menu")  # matched in any case (N2)
LAYOUT_AREAS = "layoutAreas"  # matched exactly, like the framework's listing route
RESERVED_PREFIXES = (*RESERVED_WORDS, LAYOUT_AREAS)  # every word Get splits a path at
AREA_ROUTE = "area"  # `{node}/area/{Name}` is a route of its own, not a split word
DEFAULT_COLLECTION = "content"
DOCUMENTS_SEGMENT = "_Documents"

_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_SLUG_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
SLUG_SEGMENT = re.compile(r"^[A-Za-z0-9._-]+$")  # a node id or one namespace segment


def is_reserved_word(segment: str) -> bool:
    """True for a word Get splits a path at: a UCR prefix in any case, or exactly ``layoutAreas``."""
    return segment.lower() in RESERVED_WORDS or segment == LAYOUT_AREAS


# -- tool paths (N4) ----------------------------------------------------------------------------------
def resolve_tool_path(path: str) -> str:
    """The framework's ResolvePath: trim blanks, drop every ``"`` and ``'``, then one leading ``@``.

    Nothing else changes: ``..`` stays a segment for the store to interpret (N8), ``%20`` stays three
    characters, and a file whose name holds an apostrophe cannot be named at all. Which tools call this,
    and which first resolve against the chat context, is ``_plugins.PATH_HANDLING`` (N7).
    """
    if not path:
        return path
    path = path.strip().replace('"', "").replace("'", "")
    return path[1:] if path.startswith("@") else path


def resolve_context_path(context: str | None, path: str) -> str:
    """The framework's ResolveContextPath: which paths an agent tool prefixes with its chat context.

    A single segment (``Child``) or a path that starts with a reserved word (``content/f.md``) is
    prefixed; a path with a ``/`` elsewhere is taken as absolute; a leading ``/`` is absolute. The
    result keeps the ``@`` the framework adds; :func:`resolve_tool_path` removes it.
    """
    if not path:
        return path
    if len(path) >= 2 and path[0] == '"' and path[-1] == '"':
        path = path[1:-1]
    raw = path[1:] if path.startswith("@") else path
    if raw.startswith("/"):
        return "@" + raw[1:]
    colon = raw.find(":")
    if colon > 0:
        if "/" in raw[:colon]:
            return path
    elif "/" in raw:
        slash = raw.find("/")
        if slash > 0 and raw[:slash].lower() in RESERVED_WORDS:
            return f"@{context}/{raw}" if context else path
        return path  # "OrgA/Doc": taken as absolute
    return f"@{context}/{raw}" if context else path


# -- Markdown references (N5, UP4) ---------------------------------------------------------------------
def satellite_base(node_path: str) -> str:
    """The node a satellite belongs to: ``node_path`` cut before its first segment starting with ``_``
    (``Org/Report/_Thread/t1/msg-2`` is in ``Org/Report``), as the framework's StripSatellitePartition."""
    segments = node_path.split("/")
    for position, segment in enumerate(segments):
        if segment.startswith("_"):
            return "/".join(segments[:position])
    return node_path


def resolve_relative(base: str, reference: str) -> str:
    """A Markdown reference resolved against the node path ``base``, as the framework's PathUtils does.

    ``/Absolute``, ``http…``, ``#…`` and ``mailto:`` are returned unchanged. Otherwise ``base`` first
    loses its satellite part (from the first ``_`` segment, :func:`satellite_base`); a reference that
    already starts with that path (at a segment boundary) is kept whole; each leading ``../`` climbs
    one level (clamped at the root), ``./`` is dropped, and the rest, one segment or several, is below
    ``base``. Only Markdown resolves ``..`` itself;
    tool paths leave it to the collection's store (N8).
    """
    if not reference or reference.startswith(("/", "http", "#", "mailto:")) or not base:
        return reference
    base = satellite_base(base)
    if base and (reference == base or reference.startswith(base + "/")):
        return reference  # already the full path
    while reference.startswith("../"):
        base = base.rpartition("/")[0]
        reference = reference[3:]
    if reference.startswith("./"):
        reference = reference[2:]
    if not reference:
        return base
    return f"{base}/{reference}" if base else reference


_CODE_INDENT = 4  # columns of indentation that make a line code, where no reference opens
_IGNORED = " \t"  # the blanks the parser skips
_TOKEN_BREAK = "\n\r\0}"  # where the parenthesised form's token breaks off (no path)
_DIRECT_PATH_BREAK = " \t\n\r\0)]}"  # where a direct path ends


def markdown_reference(line: str) -> tuple[str, str] | None:
    """The reference a Markdown line opens, as the framework's block parser reads it: ``(kind, path)``.

    Only a line that starts with ``@`` (after fewer than four blanks) opens one; ``@@`` is an embed,
    ``@`` a link. The path is quoted (``@"a b/c.pdf"``, up to the closing quote), direct (it starts with
    a letter, digit, ``/`` or ``.`` and ends at a blank, ``)``, ``]`` or ``}``), or the old parenthesised
    form, which reads a token up to a closing quote, ``=`` or ``,`` (blanks outside quotes skipped) and
    needs ``)`` right after it: ``@("a b")`` opens one, ``@(a/b)`` does not (LayoutAreaMarkdownParser.cs
    59-71, 131-170). The path is returned as
    written, before :func:`resolve_relative`. ``None`` when the line opens none.
    """
    text = line.lstrip(" ")
    if len(line) - len(text) >= _CODE_INDENT or not text.startswith("@"):
        return None
    # A port of LayoutAreaMarkdownParser.TryOpen over Markdig's StringSlice: `at` is the current
    # character, peek() the one after it, advance() moves on and answers the new current one.
    at = 0

    def peek() -> str:
        return text[at + 1] if at + 1 < len(text) else "\0"

    def advance() -> str:
        nonlocal at
        at += 1
        return text[at] if at < len(text) else "\0"

    def prune() -> None:
        c = peek()
        while c in _IGNORED:
            c = advance()

    def read_token() -> str | None:
        inside, token = False, []
        while True:
            c = peek()
            while c in _IGNORED and not inside:
                advance()
                c = peek()
            if c in _TOKEN_BREAK:
                return None
            if c == '"':
                inside = not inside
                advance()
                if inside:
                    continue
                return "".join(token)
            if not inside and c in "=,":
                advance()
                if not token:
                    continue
                return "".join(token)
            token.append(c)
            advance()

    prune()
    kind = "link"
    if peek() == "@":
        kind = "embed"
        advance()
    first = peek()
    path: str | None
    if first == "(":
        advance()
        path = read_token()
        if path is None or not path.strip():
            return None
        prune()
        if peek() != ")":
            return None
    elif first == '"':
        advance()
        chars: list[str] = []
        while (c := peek()) != '"':
            if c in "\0\n\r":
                return None  # an unclosed quote
            chars.append(c)
            advance()
        path = "".join(chars)
    elif first.isalnum() or first in ("/", "."):
        chars = []
        while (c := peek()) not in _DIRECT_PATH_BREAK:
            chars.append(c)
            advance()
        path = "".join(chars)
    else:
        return None
    return (kind, path) if path.strip() else None


def markdown_blocks(text: str) -> list[tuple[str, str]]:
    """What the framework's Markdown parser keeps of ``text``, line by line: ``(kind, path)`` for a line that
    opens a reference (:func:`markdown_reference`) and ``("text", line)`` for any other line, which the rest of Markdown renders.

    A reference line keeps its reference only: the parser answers ``ContinueDiscard``, which ends the line's
    processing, so the rest of that line is dropped, and the next line starts a block of its own (UQ2).
    """
    blocks: list[tuple[str, str]] = []
    for line in text.splitlines():
        found = markdown_reference(line)
        blocks.append(found if found else ("text", line))
    return blocks


def reference_kind(text: str) -> str | None:
    """``embed`` for a line opening ``@@x``, ``link`` for ``@x`` (see :func:`markdown_reference`), else ``None``."""
    found = markdown_reference(text)
    return found[0] if found else None


# -- the split Get makes (N2, N3) ---------------------------------------------------------------------
@dataclass(frozen=True)
class UnifiedPath:
    """A tool path as Get reads it, after :func:`resolve_tool_path`.

    ``kind`` is ``node`` (no reserved word: a node path, N3), ``children`` (``path/*``), ``area``
    (``{node}/area/{Name}``), ``unified`` (any reference other than ``content``) or ``content``.
    ``address`` is everything before the split; ``remainder`` is what the node reads, starting with
    the word itself (``content/Sub/f.md``); ``prefix`` is the reference it names (``content``,
    ``data``, ...; for ``area`` the word ``area``).
    """

    text: str
    kind: str
    address: str
    prefix: str | None = None
    remainder: str | None = None
    rest: str | None = None  # what follows the prefix (after its '/' or ':'), as the node reads it

    @property
    def path(self) -> str:
        """The whole path after :func:`resolve_tool_path`: what Get's node read falls back to."""
        return resolve_tool_path(self.text)

    @property
    def content_key(self) -> str | None:
        """For a ``content`` path: the part after ``content/`` (or ``content:``), trailing ``/`` trimmed
        ('' lists ``content``)."""
        if self.kind != "content":
            return None
        return (self.rest or "").rstrip("/")


def parse_path(text: str) -> UnifiedPath:
    """Split a tool path as Get does, without looking any node up (N2, UP1).

    In the framework's order: ``path/*`` lists children; a path without ``:`` whose last exact
    ``area`` segment follows the first segment is the area route ``{node}/area/{Name}``; a ``:``
    with a ``/`` before it is the old form ``{address}/{word}:{rest}``, split at that ``/``;
    otherwise the path splits at its first reserved word. What the node reads is then parsed as
    the framework's ParseUnifiedPath does: the word before a ``:`` (lower-cased), else a reserved
    first segment followed by ``/``, else ``data`` with the whole remainder
    (``Meridian/content`` without a trailing ``/`` is the data reference ``content``).
    The framework splits by words, so ``Meridian/filings/x.md`` is a node path whether or not a
    collection ``filings`` exists.
    """
    if not isinstance(text, str):
        raise PathError(f"Malformed path: a path is a string, got {type(text).__name__}")
    path = resolve_tool_path(text)
    if not path:
        raise PathError("Error: path is required.")
    if path.endswith("/*"):
        return UnifiedPath(text, "children", path[:-2])
    segments = path.split("/")
    if ":" not in path:
        for at in range(len(segments) - 1, 0, -1):  # the LAST exact 'area' segment after the first
            if segments[at] == AREA_ROUTE and "/".join(segments[:at]).strip("/"):
                return UnifiedPath(text, "area", "/".join(segments[:at]), AREA_ROUTE, "/".join(segments[at:]))
    colon = path.find(":")
    if colon > 0 and "/" in path[:colon]:  # the old colon form, tried before the slash split
        slash = path.rfind("/", 0, colon)
        return _unified(text, path[:slash], path[slash + 1:])
    for position, segment in enumerate(segments):
        if is_reserved_word(segment):
            return _unified(text, "/".join(segments[:position]), "/".join(segments[position:]))
    return UnifiedPath(text, "node", path)


def _unified(text: str, address: str, remainder: str) -> UnifiedPath:
    """What the node at ``address`` reads for ``remainder``: the framework's ParseUnifiedPath."""
    colon = remainder.find(":")
    if colon > 0:
        prefix, rest = remainder[:colon].lower(), remainder[colon + 1:]
    else:
        slash = remainder.find("/")
        head = remainder[:slash].lower() if slash > 0 else ""
        prefix, rest = (head, remainder[slash + 1:]) if head in RESERVED_WORDS else ("data", remainder)
    kind = "content" if prefix == DEFAULT_COLLECTION else "unified"
    return UnifiedPath(text, kind, address, prefix, remainder, rest)


# -- the agentkit extension: canonical segments -------------------------------------------------------
def canonical_segment(segment: str) -> str:
    """agentkit extension (the framework decodes nothing, C6): percent-decode one segment, then NFC.

    Used only by a mesh built with ``canonical_paths=True``. ``my%20report.md`` becomes
    ``my report.md``; a decomposed name (as macOS stores it) becomes the composed form.
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
    return unicodedata.normalize("NFC", decoded)


def canonical_path(path: str) -> str:
    """agentkit extension: every segment of ``path`` through :func:`canonical_segment`."""
    return "/".join(canonical_segment(part) for part in path.split("/"))


def is_within(path: str, root: str) -> bool:
    """True when ``path`` is ``root`` or lies below it: ``Acme/Sales`` is within ``Acme``, ``Acme2`` is not."""
    return path == root or path.startswith(root + "/")


# -- Document nodes (D1, D2) --------------------------------------------------------------------------
def document_slug(file_path: str) -> str:
    """The framework's slug: trim; keep ASCII letters, digits, ``-``, ``_``, ``.`` (case kept); every
    other run of characters becomes one ``-`` (not merged with a kept ``-``); trim ``-``; empty gives
    ``document``. Lossy: ``Annual Report 2024.pdf`` and ``Annual-Report 2024.pdf`` share a slug."""
    if not file_path or not file_path.strip():
        raise PathError("File path is required.")
    slug = _SLUG_UNSAFE.sub("-", file_path.strip()).strip("-")
    return slug or "document"


def document_node_path(collection_path: str, file_path: str) -> str:
    """Where indexing writes a file's Document node: ``{collectionPath}/_Documents/{slug}``."""
    return f"{collection_path.rstrip('/')}/{DOCUMENTS_SEGMENT}/{document_slug(file_path)}"


def file_path_by_string_rule(document_path: str) -> str:
    """A shortcut some guides give: replace ``/_Documents/`` with ``/``.

    Correct only for collection ``content`` and a slug-safe file name; for ``Annual Report 2024.pdf``
    it yields ``.../Annual-Report-2024.pdf``, a file that does not exist.
    """
    marker = f"/{DOCUMENTS_SEGMENT}/"
    if document_path.count(marker) != 1:
        raise PathError(f"'{document_path}' is not a Document node path (it needs exactly one '{marker}')")
    return document_path.replace(marker, "/")


def get_path_of_file(collection_path: str, file_path: str) -> str:
    """The path Get reads a stored file at (C1).

    Collection ``content``: ``{node}/content/{filePath}`` (nested paths work as they are). A named
    collection ``{node}/{coll}``: ``{node}/content/{coll}/{filePath}``, because Get reads only words
    after ``content`` as collections; ``{node}/{coll}/{filePath}`` is a node path (N3).
    """
    address, _, collection = collection_path.rstrip("/").rpartition("/")
    if not address or not collection or not file_path:
        raise PathError(f"'{collection_path}' + '{file_path}' is not a collection path and a file path")
    if collection == DEFAULT_COLLECTION:
        return f"{address}/{DEFAULT_COLLECTION}/{file_path}"
    return f"{address}/{DEFAULT_COLLECTION}/{collection}/{file_path}"


def file_path_from_document(content: Mapping[str, object]) -> str:
    """The Get path of the file a Document node (or a SearchChunks hit) describes, from its
    ``collectionPath`` and ``filePath`` fields (see :func:`get_path_of_file`)."""
    collection_path = content.get("collectionPath")
    file_path = content.get("filePath")
    if not isinstance(collection_path, str) or not isinstance(file_path, str) or not collection_path or not file_path:
        raise PathError("Document content needs the strings 'collectionPath' and 'filePath'")
    return get_path_of_file(collection_path, file_path)


# -- node ids -------------------------------------------------------------------------------------------
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
