"""claimcheck.stated on the guide's pages, for the tests: `stated.numbers("claim.id")` reads the checkout's
pages, `stated.numbers("claim.id", root)` another tree's (a test's fixture)."""

from __future__ import annotations

from pathlib import Path

from claimcheck import stated
from guidetools.project import REPO_ROOT, Project


def text(claim_id: str, root: Path = REPO_ROOT) -> str:
    return stated.text(claim_id, Project(root))


def numbers(claim_id: str, root: Path = REPO_ROOT) -> list[int | float]:
    return stated.numbers(claim_id, Project(root))
