"""The framework facts the guide's claims cite: read from framework/citations.toml.

A framework claim on a page names fact ids (`cite="K1 C3"`); each fact holds one
or more citations, `path:line` at the pinned commit with an evidence string that
must stand within a few lines of `line`. `python3 dev.py upstream` verifies them
against a framework checkout; the claims page renders them as permalinks.

`import_facts_markdown` reads the shared facts file (framework-facts.md, v2) into
the same structure, so a test can prove that the vendored TOML holds each of its facts.
The TOML is kept by hand, not written from the facts file: most of its facts are the
guide's own readings of the source, which the facts file lacks.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from guidetools.project import REPO_ROOT

CITATIONS_FILE = Path("framework/citations.toml")
# How far from the cited line the evidence may stand (the facts file's own rule: ±5 lines).
EVIDENCE_WINDOW = 5


@dataclass(frozen=True)
class Repository:
    key: str  # "" for the framework itself, else the facts file's prefix ("MEAI", "MCPSDK")
    name: str  # owner/name
    commit: str

    def permalink(self, path: str, line: int) -> str:
        return f"https://github.com/{self.name}/blob/{self.commit}/{path}#L{line}"


@dataclass(frozen=True)
class Citation:
    repo: Repository
    path: str
    line: int
    symbol: str
    evidence: str

    @property
    def permalink(self) -> str:
        return self.repo.permalink(self.path, self.line)

    def __str__(self) -> str:
        prefix = f"{self.repo.key}:" if self.repo.key else ""
        return f"{prefix}{self.path}:{self.line}"


@dataclass(frozen=True)
class Fact:
    id: str
    text: str
    citations: tuple[Citation, ...]
    origin: str  # "facts v2", "facts v2, corrected by own reading" or "own reading"


@dataclass(frozen=True)
class Facts:
    framework: Repository
    repositories: dict[str, Repository]
    facts: dict[str, Fact]


def load(root: Path = REPO_ROOT) -> Facts:
    return _parsed((root / CITATIONS_FILE).read_text(encoding="utf-8"))


# The contracts, the claims page and its lock each read citations.toml in one process: the same text gives
# the same facts, so it is parsed once (tomllib is pure Python, and the file is large). Read, never change.
@functools.lru_cache(maxsize=8)
def _parsed(text: str) -> Facts:
    return parse(tomllib.loads(text))


def parse(data: dict) -> Facts:
    """The facts of citations.toml's data, as tomllib reads it."""
    pin = data["pin"]
    framework = Repository("", pin["repo"], pin["commit"])
    repositories = {"": framework} | {
        key: Repository(key, value["repo"], value["commit"]) for key, value in data.get("repos", {}).items()
    }
    facts = {}
    for fact_id, value in data["facts"].items():
        citations = tuple(
            Citation(repositories[cite.get("repo", "")], cite["path"], cite["line"], cite.get("symbol", ""), cite["evidence"])
            for cite in value.get("cites", [])
        )
        facts[fact_id] = Fact(fact_id, value["text"], citations, value.get("origin", "facts v2"))
    return Facts(framework, repositories, facts)


# ---- reading the shared facts file (markdown) ----

_FACT_LINE = re.compile(r"^- \*\*(?P<id>[A-Z]+\d+)\*\* (?P<body>.*)$")
_CITATION = re.compile(r"\[(?:(?P<prefix>[A-Z]+):)?(?P<path>[^\s:\]]+):(?P<line>\d+)(?: (?P<symbol>[^\]]+))?\] evidence: `(?P<evidence>(?:[^`]|``)+?)`(?=;|$)")
_PIN = re.compile(r"`(?P<repo>[\w.-]+/[\w.-]+)` @ `(?P<commit>[0-9a-f]{40})`")
_PREFIX = re.compile(r"`(?P<key>[A-Z]+):` = `(?P<repo>[\w.-]+/[\w.-]+)` @ `(?P<commit>[0-9a-f]{40})`")


def import_facts_markdown(text: str) -> dict:
    """The TOML-shaped dict of the facts file: its pin, other repositories and every fact."""
    source_line = next(line for line in text.splitlines() if line.startswith("- Source:"))
    pin = _PIN.search(source_line)
    data: dict = {"pin": {"repo": pin["repo"], "commit": pin["commit"]}, "repos": {}, "facts": {}}
    for match in _PREFIX.finditer(source_line):
        data["repos"][match["key"]] = {"repo": match["repo"], "commit": match["commit"]}
    for line in text.splitlines():
        fact = _FACT_LINE.match(line)
        if not fact:
            continue
        body = fact["body"]
        cites = []
        for match in _CITATION.finditer(body):
            cite = {"path": match["path"], "line": int(match["line"]), "symbol": match["symbol"] or "", "evidence": match["evidence"]}
            if match["prefix"]:
                cite = {"repo": match["prefix"]} | cite
            cites.append(cite)
        first = _CITATION.search(body)
        data["facts"][fact["id"]] = {"text": (body[: first.start()] if first else body).strip(), "cites": cites}
    return data
