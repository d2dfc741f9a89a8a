"""The cited source lines of the guide's facts (framework/citations.toml), for checks of framework tools agentkit
does not model: `dev.py upstream` finds each cite's evidence at its line of the pinned commit, so a check that
holds a claim to that evidence holds it to the source."""

from __future__ import annotations

import tomllib
from pathlib import Path

# Read once, when a snippet first imports this module: the snippets ask for several facts' cites.
FACTS = tomllib.loads((Path(__file__).resolve().parents[2] / "framework" / "citations.toml").read_text("utf-8"))["facts"]


def cites(fact: str) -> list[dict]:
    """The fact's cites, each with its `path`, `line`, `symbol` and `evidence`."""
    return FACTS[fact]["cites"]


def evidence(fact: str) -> list[str]:
    return [cite["evidence"] for cite in cites(fact)]
