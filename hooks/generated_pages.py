"""MkDocs hook: no "edit this page" link on generated pages, whose edits the next `dev.py regen` overwrites."""

from __future__ import annotations

# Written by tools.regen from the pages, snippets and citations; a contributor edits those instead.
GENERATED_PAGES = {"reference/claims.md"}


def on_files(files, config):
    for file in files:
        if file.src_uri in GENERATED_PAGES:
            # MkDocs and ProperDocs build a page's edit link from `edit_uri`; None means no link.
            file.edit_uri = None
    return files
