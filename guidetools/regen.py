"""Rewrite every generated file: captured snippet output, the claims page, the claims lock.

    python3 dev.py regen                   captured output, claims page, claims lock
    python3 dev.py regen --outputs         first rewrite the `#>` lines of snippets and the expected
                                           output of the pages' pycon examples from real runs
    python3 dev.py regen --confirm ID ...  accept the new wording of claims whose checks did not change

A reviewer then sees in the diff only what really changed. regen never accepts a reworded claim
whose checks stayed the same: it keeps the old wording in docs/reference/claims.lock.json, names
the claim and exits 1, until `--confirm ID` says a person read the new text.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from pathlib import Path

from claimcheck import captures, outputs
from guidetools import claimlock, claims, pycon
from guidetools.project import CLAIMS_PAGE, REPO_ROOT, Project


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dev.py regen", description="Rewrite the generated files.")
    parser.add_argument("--outputs", action="store_true", help="rewrite '#>' lines and pycon outputs from real runs")
    parser.add_argument("--confirm", nargs="+", default=[], metavar="ID", help="accept the new wording of these claims")
    parser.add_argument("--init-lock", action="store_true", help=f"write {claimlock.LOCK_FILE} when it does not exist yet")
    options = parser.parse_args(argv)
    os.chdir(REPO_ROOT)
    project = Project()
    written = set()
    failed = []
    # One run of each snippet gives both what it printed (its '#>' lines) and what it captured.
    for snippet in project.snippet_paths:
        try:
            result = captures.run_snippet(REPO_ROOT / snippet, site=project)
            rendered = captures.render(result.captured, project)
        except Exception as error:  # a failing check: its output cannot be rendered, the rest can
            failed.append(snippet)
            left = "'#>' lines and captured output were" if options.outputs else "captured output was"
            print(f"{snippet}: fails ({_where(error, snippet)}); its {left} left as they are", file=sys.stderr)
            continue
        if options.outputs:
            rewrite_shown_output(snippet, result.printed)
        # The same staleness test the snippet's own test applies.
        for path in captures.stale(rendered):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(rendered[path], encoding="utf-8")
            print(f"wrote {path.relative_to(REPO_ROOT)}")
        written |= rendered.keys()
    if options.outputs:
        for page in project.page_paths:
            text = pycon.rewritten(REPO_ROOT / page)
            if text is not None:
                write_if_changed(page, text)
    # A failing snippet's files are not orphans: it could not say what it captures.
    for orphan in {REPO_ROOT / path for path in project.captured_output_paths} - written if not failed else ():
        orphan.unlink()
        print(f"removed {orphan.relative_to(REPO_ROOT)} (no snippet captures it)")
    collected = claims.collect(project)
    write_if_changed(CLAIMS_PAGE, claims.render_page(project, collected))
    refused = update_lock(project, collected, set(options.confirm), options.init_lock)
    return 1 if failed or refused else 0


def _where(error: Exception, snippet) -> str:
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == str(REPO_ROOT / snippet)]
    line = f" at {snippet}:{frames[-1].lineno}" if frames else ""
    return f"{type(error).__name__}{line}"


def rewrite_shown_output(snippet: Path, recorder: outputs.LineRecorder) -> None:
    """The snippet's '#>' lines rewritten to what its run printed, where they differ."""
    path = REPO_ROOT / snippet
    attributed = outputs.attribute(path, recorder.writes)
    if attributed.mismatches():
        write_if_changed(snippet, outputs.rewritten(path, attributed))


def update_lock(project: Project, collected: claims.Claims, confirm: set[str], create: bool) -> int:
    lock = REPO_ROOT / claimlock.LOCK_FILE
    if not lock.is_file() and not create:
        print(f"no {claimlock.LOCK_FILE}: create it once with 'python3 dev.py regen --init-lock'", file=sys.stderr)
        return 0
    unknown = confirm - {marker.id for marker in collected.markers}
    for claim in sorted(unknown):
        print(f"--confirm {claim}: no page has this claim", file=sys.stderr)
    entries, refused = claimlock.updated(project, collected, confirm)
    write_if_changed(claimlock.LOCK_FILE, claimlock.render(entries))
    for item in refused:
        print(item, file=sys.stderr)
    return 1 if refused or unknown else 0


def write_if_changed(relative, text: str) -> None:
    path = REPO_ROOT / relative
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {relative}")


if __name__ == "__main__":
    sys.exit(main())
