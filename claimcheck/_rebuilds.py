"""While `mkdocs serve` runs, a page whose inputs are unchanged is shown as it was last rendered.

After an edit MkDocs builds the whole site again: rendering every page's Markdown was half of a
rebuild, and a notebook page's rendering runs its kernel. What a page renders to depends on its
source and its Markdown after the plugins' `on_page_markdown`, the files it includes (under the
watched folders, `watch:` in mkdocs.yml), the configuration, and the site's files (its links are
resolved against them). While none of these changed, the page gets back what its last render set.
A render that logged a warning is not kept: the warning, which fails a strict build, comes back on
every rebuild until it is fixed.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from pathlib import Path

_ABSENT = object()


def site_inputs(config_file: str | None, watched: list[str], files) -> bytes:
    """A digest of what every page's rendering shares: the configuration, the watched files, the site's files."""
    digest = hashlib.sha256(Path(config_file).read_bytes() if config_file else b"")
    for folder in watched:
        for path in sorted(p for p in Path(folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            digest.update(str(path).encode() + b"\0" + path.read_bytes())
    for file in sorted(files, key=lambda file: file.src_uri):
        digest.update(f"{file.src_uri}\0{file.url}\0".encode())
    return digest.digest()


def reuse_while_unchanged(page, site: bytes, rendered: dict) -> None:
    """Make the page's render give back what it set last time when its inputs are the same; otherwise
    render (a notebook plugin's render executes the notebook) and keep what it set, unless it warned."""
    render = page.render

    def render_or_reuse(config, files):
        key = hashlib.sha256(site + _source(page)).digest()
        kept = rendered.get(page.file.src_uri)
        if kept is not None and kept[0] == key:
            vars(page).update(kept[1])
            _relink(page, files)
            return
        before = dict(vars(page))
        with _warnings() as warned:
            render(config, files)
        if not warned:
            rendered[page.file.src_uri] = (key, {name: value for name, value in vars(page).items()
                                                 if before.get(name, _ABSENT) is not value})

    page.render = render_or_reuse


def _source(page) -> bytes:
    markdown = (getattr(page, "markdown", None) or "").encode()
    path = getattr(page.file, "abs_src_path", None)
    return markdown + b"\0" + (Path(path).read_bytes() if path else b"")


def _relink(page, files) -> None:
    # MkDocs checks the anchors a page links to against the pages of this build, found through its File objects.
    links = getattr(page, "links_to_anchors", None)
    if links:
        page.links_to_anchors = {files.get_file_from_path(file.src_uri) or file: anchors for file, anchors in links.items()}


@contextlib.contextmanager
def _warnings():
    """The warnings MkDocs counts (the `mkdocs` logger's, which fail a strict build) logged inside the block."""
    logged: list[logging.LogRecord] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = logged.append
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        yield logged
    finally:
        logger.removeHandler(handler)
