"""One finding of a checker, printed as `file:line: what is wrong and what to do`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    file: Path
    line: int
    message: str
    claim_id: str | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


def report(problems: list[Problem]) -> str:
    """All findings, one line each, in file order: what a failing test prints."""
    ordered = sorted(problems, key=lambda p: (str(p.file), p.line, p.message))
    return "\n".join(str(p) for p in ordered)
