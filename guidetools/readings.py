"""The snippets' documents, read once per process: what Get and indexing extract, remembered by content.

Nearly every snippet uploads the generated report, indexes it and Gets it, and a scenario Gets it on every
run: each reading is pypdf parsing 62 pages of content streams and agentkit placing every letter (about a
tenth of a second for Get's text, four tenths for indexing's words and their boxes). What a stored file's reading gives
is a pure function of its path and its bytes (``agentkit._transformers.get_text`` and ``index_text``), and
what it gives is immutable (a ``str``; an ``IndexText`` of frozen spans). So while a snippet runs, the
harness lets agentkit read each (path, bytes) once and hands the same result to every later reading.

agentkit keeps no memo of its own: outside :func:`read_once` (the unit tests, the MCP server, a reader's
own session) every reading computes. Everything else a snippet does (the upload, the hash gate, chunking,
the Document node, the search index) still runs each time. A reading that fails is not remembered: the
next one fails the same way, anew.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import agentkit
from agentkit import _collections
from agentkit._transformers import extension_of
from agentkit.guide import _report

# (reader, file path, bytes) -> what the reader returned; kept for the process, as the bytes are immutable.
_READ: dict[tuple[str, str, bytes], object] = {}
# Where agentkit reads a document through the two (each module imported them from _transformers): a collection's
# Get and indexing, the guide's report_index_text (what indexing extracts from the report, the pages compare), and
# agentkit's public names, which a snippet imports to compare the two texts of the report.
READERS = ((_collections, "get_text"), (_collections, "index_text"), (_report, "index_text"),
           (agentkit, "get_text"), (agentkit, "index_text"))


def _remembered(name: str, read: Callable[[str, bytes], object]) -> Callable[[str, bytes], object]:
    def reading(file_path: str, data: bytes):
        # A PDF's texts never name the file (only a refusal does, and a refusal is not remembered): the same
        # bytes uploaded under another name read the same.
        key = (name, ".pdf" if extension_of(file_path) == ".pdf" else file_path, bytes(data))
        if key not in _READ:
            _READ[key] = read(file_path, data)
        return _READ[key]

    reading.__wrapped__ = read
    return reading


@contextlib.contextmanager
def read_once() -> Iterator[None]:
    """Within the block, each stored file's Get text and indexing text are computed once per process."""
    saved = [(module, name, getattr(module, name)) for module, name in READERS]
    for module, name, read in saved:
        setattr(module, name, _remembered(name, read))
    try:
        yield
    finally:
        for module, name, read in saved:
            setattr(module, name, read)
