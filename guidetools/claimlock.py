"""A changed claim is a review event: docs/reference/claims.lock.json holds each checked claim's wording
and a fingerprint of its checks' source.

Rewording a claim while its checks stay the same is refused until a reviewer confirms it
(`python3 dev.py regen --confirm ID`): a new number or a new promise in the prose must come with a
check that tests it, or with a person who read it. A new claim, a removed claim, and a claim whose
checks changed along with it are updated by `python3 dev.py regen` alone (the diff shows them).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from guidetools.claims import Claims, CheckSite
from claimcheck.page import Marker
from guidetools.project import Project
from claimcheck.pysource import read_checks

LOCK_FILE = Path("docs/reference/claims.lock.json")


@dataclass(frozen=True)
class Entry:
    text: str
    checks: str  # fingerprint of the source of every check that names the claim


@dataclass(frozen=True)
class Reworded:
    """A claim whose wording changed while its checks did not."""

    marker: Marker
    old_text: str
    sites: tuple[CheckSite, ...]

    def __str__(self) -> str:
        where = ", ".join(str(site) for site in self.sites[:3]) + (" …" if len(self.sites) > 3 else "")
        return (
            f"claim {self.marker.id}'s wording changed at {self.marker.page.as_posix()}:{self.marker.line}; "
            f"its checks at {where} are unchanged: confirm with `python3 dev.py regen --confirm {self.marker.id}` "
            f"or change the check\n    was: {self.old_text}\n    now: {self.marker.text}"
        )


def check_source(project: Project, site: CheckSite, _cache: dict | None = None) -> str:
    """The source of the check at a site: the assert or with statement, or the pycon block under the comment."""
    cache = _cache if _cache is not None else {}
    if site.file.suffix == ".md":
        page = next(page for page in project.pages if page.path == site.file)
        check = next(check for check in page.checks if check.line == site.line)
        return "\n".join(line.strip() for line in check.fence.body)
    if site.file not in cache:
        found, _ = read_checks(project.root / site.file, site.file)
        lines = (project.root / site.file).read_text(encoding="utf-8").splitlines()
        cache[site.file] = {check.line: "\n".join(line.strip() for line in lines[check.statement[0] - 1:check.statement[1]]) for check in found}
    return cache[site.file].get(site.line, "")


def current(project: Project, claims: Claims) -> dict[str, Entry]:
    """Every checked claim's wording and checks fingerprint, as the tree has them now."""
    cache: dict = {}
    entries: dict[str, Entry] = {}
    for marker in claims.markers:
        if not marker.checked or marker.id in entries:
            continue
        sources = sorted(f"{site.file.as_posix()}\n{check_source(project, site, cache)}" for site in claims.checks.get(marker.id, []))
        entries[marker.id] = Entry(marker.text, hashlib.sha256("\n\n".join(sources).encode()).hexdigest()[:16])
    return entries


def load(project: Project) -> dict[str, Entry]:
    path = project.root / LOCK_FILE
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {claim: Entry(entry["text"], entry["checks"]) for claim, entry in data["claims"].items()}


def render(entries: dict[str, Entry]) -> str:
    data = {
        "about": "Wording and checks fingerprint of every checked claim. Written by `python3 dev.py regen`; "
                 "a claim reworded with unchanged checks needs `python3 dev.py regen --confirm ID`.",
        "claims": {claim: {"text": entries[claim].text, "checks": entries[claim].checks} for claim in sorted(entries)},
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def reworded(project: Project, claims: Claims, locked: dict[str, Entry] | None = None) -> list[Reworded]:
    """Claims whose text differs from the lock while their checks' fingerprint does not."""
    locked = load(project) if locked is None else locked
    markers = {marker.id: marker for marker in reversed(claims.markers)}
    return [
        Reworded(markers[claim], locked[claim].text, tuple(claims.checks.get(claim, ())))
        for claim, entry in current(project, claims).items()
        if claim in locked and entry.text != locked[claim].text and entry.checks == locked[claim].checks
    ]


def updated(project: Project, claims: Claims, confirm: set[str]) -> tuple[dict[str, Entry], list[Reworded]]:
    """The lock regen writes: every current entry, except reworded ones nobody confirmed, which keep their old entry."""
    locked = load(project)
    refused = [item for item in reworded(project, claims, locked) if item.marker.id not in confirm]
    entries = current(project, claims)
    for item in refused:
        entries[item.marker.id] = locked[item.marker.id]
    return entries, refused
