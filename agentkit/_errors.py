"""Every exception the model raises, in one place.

Each one subclasses a builtin, so callers may catch either the precise class
or the builtin it refines. Messages are written for the reader of a tool
result: they say what was wrong and what to do instead.

Hierarchy::

    AgentkitError(Exception)                 base of everything below
    ├── PathError(ValueError)                malformed unified path or segment
    │   └── PathTraversal(PathError)         '..' (plain or encoded) would leave a collection
    ├── NodeNotFound(KeyError)               no node at the path
    ├── CollectionNotFound(KeyError)         "Content collection '{c}' not found"
    ├── FileNotFound(KeyError)               "File '{f}' not found in collection '{c}'"
    ├── CreateError(ValueError)              Create/Update refused; message opens as the framework's
    │   ├── InvalidJson(CreateError)         "Invalid JSON: ..."
    │   ├── MissingField(CreateError)        "Error: cannot create: 'id' is not set..."
    │   ├── MalformedNamespace(CreateError)  "Error: cannot create: namespace '...' is malformed..."
    │   ├── NodeExists(CreateError)          "Error creating node: Node already exists: {path}"
    │   ├── SchemaMismatch(CreateError)      "Error: Content does not match the schema for NodeType '...'"
    │   ├── UnregisteredDiscriminator(CreateError)  an unregistered '$type' on a built-in node type (M8)
    │   ├── MisplacedSatellite(CreateError)  an ownerless satellite or a mis-scoped access grant (MP2)
    │   ├── UnregisteredNodeType(CreateError)  a nodeType the mesh does not know (MP1)
    │   └── NotPatchable(CreateError)        Patch named a key it cannot apply (M11)
    ├── ToolArgumentError(ValueError)        a tool argument of the wrong JSON type (answered as text)
    ├── StrictContentError(ValueError)       strict mode (an agentkit extension): dropped fields or unknown $type
    ├── ContentError(ValueError)             a file cannot become text
    │   └── UnreadableDocument(ContentError) corrupt, truncated, empty or encrypted file
    ├── DocumentSlugCollision(ValueError)    two file names share one Document-node slug
    ├── ConfigurationError(ValueError)       malformed AgentConfiguration or Agent wiring
    └── ThreadError(ValueError)              malformed thread path

The guide's worked examples raise their own errors beside their code (``agentkit.guide._facts``:
``WorksheetError``, ``MissingMasterData``), as subclasses of ``AgentkitError``.

Warnings (``warnings.warn``, as the framework only logs)::

    UnknownPluginWarning(UserWarning)        a plugins entry names no known plugin or method
"""

from __future__ import annotations


class AgentkitError(Exception):
    """Base class of every agentkit error."""

    # KeyError quotes its message in str(); every agentkit error prints as written.
    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class PathError(AgentkitError, ValueError):
    """A unified path or one of its segments is malformed."""


class PathTraversal(PathError):
    """A path tries to step out of its collection with '..' (plain or percent-encoded)."""


class NodeNotFound(AgentkitError, KeyError):
    """No node stands at the requested path."""


class CollectionNotFound(AgentkitError, KeyError):
    """The path names a content collection that does not exist."""


class FileNotFound(AgentkitError, KeyError):
    """The collection exists but holds no file under that path."""


class CreateError(AgentkitError, ValueError):
    """Create, Update or Patch refused the input; nothing was written."""


class InvalidJson(CreateError):
    """The node argument is not valid JSON."""


class MissingField(CreateError):
    """A required node field (id, name, nodeType) is absent or empty."""


class MalformedNamespace(CreateError):
    """The namespace (or the part of an id before its last slash) is not a valid path."""


class NodeExists(CreateError):
    """Create was asked to write a path that already holds a node."""


class SchemaMismatch(CreateError):
    """A known content field holds a value of the wrong JSON shape."""


class UnregisteredDiscriminator(CreateError):
    """Content carries a string '$type' no registry resolves, on a built-in node type (refused since e298c8cf8)."""


class MisplacedSatellite(CreateError):
    """A satellite with no owning node, or an access assignment scoped elsewhere than its folder (MP2)."""


class UnregisteredNodeType(CreateError):
    """Create named a nodeType the mesh does not know (no registered NodeType, no node at that path)."""


class NotPatchable(CreateError):
    """Patch named a key outside the patchable node-level fields; nothing was written."""


class ToolArgumentError(AgentkitError, ValueError):
    """A tool was called with an argument of the wrong JSON type; the tool answers this text."""


class StrictContentError(AgentkitError, ValueError):
    """Strict mode refused content the framework would have accepted silently."""


class ContentError(AgentkitError, ValueError):
    """A stored or uploaded file cannot be turned into text."""


class UnreadableDocument(ContentError):
    """The file has a transformer but its bytes cannot be read (corrupt, truncated, empty, encrypted)."""


class StoreCannotWrite(AgentkitError, ValueError):
    """The collection's store cannot write: an embedded-resource collection's SaveFileAsync throws (CC3)."""


class DocumentSlugCollision(AgentkitError, ValueError):
    """A different file of the collection already owns the Document-node slug."""


class ConfigurationError(AgentkitError, ValueError):
    """An AgentConfiguration (or the Agent built from it) is malformed; nothing was built."""


class ThreadError(AgentkitError, ValueError):
    """A thread path is malformed."""


class UnknownPluginWarning(UserWarning):
    """A plugins entry names a plugin (or method) the host does not have; it offers nothing."""
