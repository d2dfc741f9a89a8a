"""Rewrite every generated file: captured snippet output, then the claims page.

    python3 dev.py regen

A reviewer then sees in the diff only what really changed.
"""

from __future__ import annotations

import os
import sys

from tools import captures, claims
from tools.project import CAPTURED_OUTPUT, CLAIMS_PAGE, REPO_ROOT, Project


def main() -> int:
    os.chdir(REPO_ROOT)
    project = Project()
    written = set()
    for snippet in project.snippet_paths:
        rendered = captures.render(captures.run_snippet(REPO_ROOT / snippet)[0])
        # The same staleness test the snippet's own test applies.
        for path in captures.stale(rendered):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(rendered[path], encoding="utf-8")
            print(f"wrote {path.relative_to(REPO_ROOT)}")
        written |= rendered.keys()
    for orphan in set((REPO_ROOT / CAPTURED_OUTPUT).glob("*")) - written:
        orphan.unlink()
        print(f"removed {orphan.relative_to(REPO_ROOT)} (no snippet captures it)")
    page = REPO_ROOT / CLAIMS_PAGE
    text = claims.render_page(project, claims.collect(project))
    if not page.is_file() or page.read_text(encoding="utf-8") != text:
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text, encoding="utf-8")
        print(f"wrote {CLAIMS_PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
