"""The upstream drift check: do the framework citations still hold in the framework's source?

    python3 dev.py upstream --source DIR [--ref REF] [--repo KEY=DIR]

DIR is a MeshWeaver work tree or its git directory (bare or not). Every citation
of framework/citations.toml that belongs to the framework is read at the pinned
commit: the file must exist, the line must lie inside it, and the evidence string
must stand within EVIDENCE_WINDOW lines of it. With `--ref REF` each citation is
also read at REF, and the claims whose evidence moved out of its window, vanished,
or lost its file are listed, so a maintainer bumping the pin knows what to re-check.

Findings are reported per claim (`page:line: claim '…' cites FACT: path:line: …`);
a fact that no claim cites is reported at its line of citations.toml. The exit
status is 0 when everything holds, 1 when REF drifted from the pin, 2 for bad
input (a citation that is wrong at the pin, an unknown ref, a DIR that is not a
git repository). Files are read through `git cat-file --batch`, once per commit.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from guidetools import facts, tomllines
from guidetools.facts import CITATIONS_FILE, EVIDENCE_WINDOW, Citation, Facts
from claimcheck.problems import Problem
from guidetools.project import REPO_ROOT, Project

EXIT_OK, EXIT_DRIFT, EXIT_BAD_INPUT = 0, 1, 2
SOURCE_HINT = "pass a checkout of {name} (the folder holding .git) or its git directory (bare or .git)"


# ---- reading the framework's source through git ----

@dataclass(frozen=True)
class GitRepository:
    git_dir: Path

    def _git(self, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(["git", "--git-dir", str(self.git_dir), *args], input=stdin, capture_output=True, check=False)

    def commit(self, ref: str) -> str | None:
        """The full hash of the commit `ref` names, or None when it names none."""
        if ref.startswith("-"):  # never let a ref be read as an option
            return None
        result = self._git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
        return result.stdout.decode().strip() if result.returncode == 0 else None

    def read(self, wanted: list[tuple[str, str]]) -> dict[tuple[str, str], list[str] | None]:
        """The lines of each (commit, path) in one `git cat-file --batch` run; None where no file is."""
        unique = list(dict.fromkeys(wanted))
        if not unique:
            return {}
        out = self._git("cat-file", "--batch", stdin="".join(f"{commit}:{path}\n" for commit, path in unique).encode()).stdout
        files: dict[tuple[str, str], list[str] | None] = {}
        position = 0
        for key in unique:
            end = out.index(b"\n", position)
            header = out[position:end].split()
            position = end + 1
            if len(header) != 3:  # "<name> missing" or "<name> ambiguous"
                files[key] = None
                continue
            size = int(header[2])
            body = out[position:position + size]
            position += size + 1
            files[key] = _lines(body) if header[1] == b"blob" else None
        return files

    def renames(self, old: str, new: str) -> dict[str, str]:
        """Paths that git sees renamed between two commits: old path -> new path."""
        result = self._git("diff", "--name-status", "-M", "-z", old, new)
        fields = iter(result.stdout.decode(errors="replace").split("\0")[:-1])
        moved = {}
        for status in fields:
            path = next(fields, "")
            if status.startswith(("R", "C")):  # a second path follows; a copy leaves the old file in place
                renamed = next(fields, "")
                if status.startswith("R"):
                    moved[path] = renamed
        return moved


def _lines(body: bytes) -> list[str]:
    # Split on "\n" only, as GitHub numbers lines; str.splitlines would also split on form feeds.
    text = body.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def open_repository(directory: Path, name: str = "Systemorph/MeshWeaver") -> GitRepository | str:
    """The git repository at `directory` (a work tree's top or a git dir), or why it is none; `name` is the
    repository the caller expects there, for the hint."""
    hint = SOURCE_HINT.format(name=name)
    if not directory.is_dir():
        return f"{directory} is not a directory; {hint}"
    # Name the repository exactly: `git -C` would climb to an enclosing repository, such as this guide's.
    where = ["-C", str(directory)] if (directory / ".git").exists() else ["--git-dir", str(directory)]
    try:
        result = subprocess.run(["git", *where, "rev-parse", "--absolute-git-dir"], capture_output=True, check=False)
    except FileNotFoundError:
        return "git is not installed; install git to run the upstream check"
    if result.returncode != 0:
        return f"{directory} is not a git repository; {hint}"
    return GitRepository(Path(result.stdout.decode().strip()))


# ---- finding evidence ----

@dataclass(frozen=True)
class Finding:
    """Where a citation's evidence stands in one version of its file."""

    file_lines: int | None  # None: no such file
    occurrences: tuple[int, ...]  # line numbers holding the evidence
    cited_line: int

    @property
    def holds(self) -> bool:
        return any(abs(line - self.cited_line) <= EVIDENCE_WINDOW for line in self.occurrences)

    @property
    def nearest(self) -> int | None:
        return min(self.occurrences, key=lambda line: (abs(line - self.cited_line), line)) if self.occurrences else None


def find(lines: list[str] | None, citation: Citation) -> Finding:
    if lines is None:
        return Finding(None, (), citation.line)
    found = tuple(number for number, text in enumerate(lines, start=1) if citation.evidence in text)
    return Finding(len(lines), found, citation.line)


# ---- the check ----

@dataclass
class Outcome:
    findings: list[str]  # one line each: a claim to fix or re-check, or why the check could not run
    summary: str | None  # what was checked and how long it took; None when the check could not run
    exit_status: int


# Where a citation is used: (file, line, label) of a claim on a page, or, cited by no claim, of its citations.toml line.
Use = tuple[Path, int, str]


def check(root: Path, sources: dict[str, Path], ref: str | None = None) -> Outcome:
    """Check the citations of the guide at `root` against `sources` (repository key -> DIR; "" is the framework)."""
    started = time.perf_counter()
    loaded = _load_facts(root)
    if isinstance(loaded, str):
        return _bad(loaded)
    known, toml_lines = loaded
    repositories: dict[str, GitRepository] = {}
    for key, directory in sources.items():
        if key not in known.repositories:
            return _bad(f"--repo {key}=…: {CITATIONS_FILE} defines no repository '{key}'; use one of {', '.join(k for k in known.repositories if k)}")
        pin = known.repositories[key]
        opened = open_repository(directory, pin.name)
        if isinstance(opened, str):
            return _bad(opened)
        if opened.commit(pin.commit) is None:
            return _bad(f"{directory} does not hold the pinned commit {pin.commit[:12]} of {pin.name}; fetch it (git fetch origin {pin.commit}) or pass a clone of {pin.name}")
        repositories[key] = opened
    framework = repositories[""]
    target = None
    if ref is not None:
        target = framework.commit(ref)
        if target is None:
            return _bad(f"unknown ref '{ref}': {framework.git_dir} has no commit of that name; pass a branch, tag or commit of the framework (git --git-dir {framework.git_dir} log --oneline)")

    uses = _uses(Project(root), known, toml_lines)
    citations = [(fact.id, citation) for fact in known.facts.values() for citation in fact.citations]
    checked = [(fact_id, c) for fact_id, c in citations if c.repo.key in repositories]
    skipped = Counter(c.repo.key for _, c in citations if c.repo.key not in repositories)

    problems: list[Problem] = []
    at_pin: dict[tuple[str, Citation], Finding] = {}
    for key, repository in repositories.items():
        mine = [(fact_id, c) for fact_id, c in checked if c.repo.key == key]
        files = repository.read([(c.repo.commit, c.path) for _, c in mine])
        for fact_id, citation in mine:
            finding = at_pin[fact_id, citation] = find(files[citation.repo.commit, citation.path], citation)
            message = _pin_problem(fact_id, citation, finding)
            if message:
                problems += _per_use(uses, fact_id, citation, message)

    drifted: list[Problem] = []
    drifted_citations = 0
    if target is not None:
        pin = known.framework.commit
        valid = [(fact_id, c) for fact_id, c in checked if c.repo.key == "" and at_pin[fact_id, c].holds]
        renamed = framework.renames(pin, target) if target != pin else {}
        files = framework.read([(target, renamed.get(c.path, c.path)) for _, c in valid])
        for fact_id, citation in valid:
            new_path = renamed.get(citation.path, citation.path)
            finding = find(files[target, new_path], citation)
            if not finding.holds:
                message = _drift(fact_id, citation, finding, ref, target, new_path)
                drifted += _per_use(uses, fact_id, citation, message)
                drifted_citations += 1

    names = sorted({known.repositories[c.repo.key].name for _, c in checked})
    parts = [f"upstream: {len(checked)} citations of {', '.join(names)} checked at the pin"]
    parts.append(f"{len(problems)} problem(s) at the pin" if problems else "all hold")
    if skipped:
        per_repo = ", ".join(f"{key} {count}" for key, count in sorted(skipped.items()))
        parts.append(f"{skipped.total()} not checked: other repository ({per_repo}; pass --repo KEY=DIR to check them)")
    if target is not None:
        parts.append(f"compared with {ref} ({target[:12]}): " + (f"{drifted_citations} citation(s) moved or changed, listed above" if drifted else "no evidence moved or changed"))
    summary = "; ".join(parts) + f"; {time.perf_counter() - started:.2f} s"
    status = EXIT_BAD_INPUT if problems else EXIT_DRIFT if drifted else EXIT_OK
    return Outcome([str(problem) for problem in _ordered(problems) + _ordered(drifted)], summary, status)


def _bad(message: str) -> Outcome:
    return Outcome([message], None, EXIT_BAD_INPUT)


def _load_facts(root: Path) -> tuple[Facts, dict] | str:
    try:
        text = (root / CITATIONS_FILE).read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as error:
        return f"{CITATIONS_FILE} cannot be read ({error.strerror}); pass --root, the guide's checkout"
    except tomllib.TOMLDecodeError as error:
        return f"{CITATIONS_FILE}: not valid TOML ({error}); fix the file"
    lines = _citation_lines(text)
    malformed = _malformed(data, lines)
    return malformed or (facts.parse(data), lines)


def _malformed(data: dict, lines: dict) -> str | None:
    """The first shape error of citations.toml, as one line naming where it is; None when well formed."""
    if not {"repo", "commit"} <= set(data.get("pin", {})):
        return f"{CITATIONS_FILE}: [pin] needs repo and commit; fix the file"
    repositories = data.get("repos", {})
    for fact_id, fact in data.get("facts", {}).items():
        where = f"{CITATIONS_FILE}:{lines.get(('fact', fact_id), 1)}"
        if "text" not in fact:
            return f"{where}: fact {fact_id} has no text; fix the file"
        for cite in fact.get("cites", []):
            missing = [key for key in ("path", "line", "evidence") if key not in cite]
            if missing or not isinstance(cite["line"], int):
                return f"{where}: a citation of fact {fact_id} lacks {', '.join(missing) or 'an integer line'}; give path, line = N and evidence"
            if cite.get("repo", "") and cite["repo"] not in repositories:
                return f"{where}: a citation of fact {fact_id} names repo '{cite['repo']}', which [repos] does not define; fix the file"
    return None


_CITE_FIELDS = re.compile(r'path\s*=\s*"(?P<path>[^"]*)".*?\bline\s*=\s*(?P<line>\d+)')


def _citation_lines(text: str) -> dict:
    """Line numbers in citations.toml: ("fact", id) -> header line, (id, path, line) -> citation line."""
    where: dict = {}
    fact_id = None
    for number, line in enumerate(text.split("\n"), start=1):
        if (table := tomllines.header(line)) is not None:  # a [facts.ID] header; any other table ends the fact
            fact_id = table[1] if len(table) == 2 and table[0] == "facts" else None
            if fact_id is not None:
                where.setdefault(("fact", fact_id), number)
        elif fact_id and (fields := _CITE_FIELDS.search(line)):
            where.setdefault((fact_id, fields["path"], int(fields["line"])), number)
    return where


def _uses(project: Project, known: Facts, toml_lines: dict) -> dict[tuple[str, Citation], list[Use]]:
    """For each citation, the claims that cite its fact; a fact no claim cites is used by its TOML line."""
    by_fact: dict[str, list[Use]] = defaultdict(list)
    for page in project.pages:
        for marker in page.markers:
            for fact_id in dict.fromkeys(marker.cites):
                by_fact[fact_id].append((marker.page, marker.line, f"claim '{marker.id}' cites {fact_id}"))
    uses = {}
    for fact in known.facts.values():
        for citation in fact.citations:
            line = toml_lines.get((fact.id, citation.path, citation.line), toml_lines.get(("fact", fact.id), 1))
            uses[fact.id, citation] = by_fact.get(fact.id) or [(CITATIONS_FILE, line, f"fact {fact.id} (cited by no claim)")]
    return uses


def _ordered(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: (p.file.as_posix(), p.line, p.message))


def _per_use(uses: dict, fact_id: str, citation: Citation, message: str) -> list[Problem]:
    return [Problem(file, line, f"{label}: {citation}: {message}") for file, line, label in uses[fact_id, citation]]


def _pin_problem(fact_id: str, citation: Citation, finding: Finding) -> str | None:
    """What is wrong with a citation at its pinned commit, and what to do; None when it holds."""
    pin = citation.repo.commit[:12]
    fix = f"in {CITATIONS_FILE} [facts.{fact_id}]"
    if not citation.evidence:
        return f"the evidence is empty; give the exact string that stands at that line {fix}"
    if finding.file_lines is None:
        return f"{citation.path} does not exist at the pin {pin}; correct the path {fix}"
    if not 1 <= citation.line <= finding.file_lines:
        return f"line {citation.line} is past the end of {citation.path} ({finding.file_lines} lines) at the pin {pin}; correct the line {fix}"
    if finding.holds:
        return None
    if finding.nearest is not None:
        return f"evidence `{citation.evidence}` is not within ±{EVIDENCE_WINDOW} lines of line {citation.line} at the pin {pin}; it stands at line {finding.nearest}: set line = {finding.nearest} {fix}"
    return f"evidence `{citation.evidence}` is not in {citation.path} at the pin {pin}; re-read the source and correct the evidence {fix}"


def _drift(fact_id: str, citation: Citation, finding: Finding, ref: str, target: str, new_path: str) -> str:
    """How a citation that holds at the pin fails at REF, and what a maintainer bumping the pin does."""
    at = f"{ref} ({target[:12]})" if ref != target else target[:12]
    if finding.file_lines is None:
        return f"file gone at {at}; re-check against the source there and cite where the behaviour lives now in [facts.{fact_id}]"
    renamed = f" (renamed to {new_path})" if new_path != citation.path else ""
    if finding.nearest is not None:
        others = len(finding.occurrences) - 1
        also = f" (and {others} other line{'s' if others > 1 else ''})" if others else ""
        return (f"moved to {new_path}:{finding.nearest}{also} at {at}: evidence `{citation.evidence}`; "
                f"re-check against the source there, then set line = {finding.nearest} in [facts.{fact_id}]")
    return (f"gone at {at}: evidence `{citation.evidence}` is no longer in {new_path}{renamed}; "
            f"re-check against the source there and correct [facts.{fact_id}]")


# ---- command line ----

def _repo_option(value: str) -> tuple[str, Path]:
    key, separator, directory = value.partition("=")
    if not separator or not key or not directory:
        raise argparse.ArgumentTypeError(f"'{value}' is not KEY=DIR (e.g. MEAI=../extensions)")
    return key, Path(directory)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dev.py upstream", description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", required=True, type=Path, help="the framework: a MeshWeaver work tree or git directory")
    parser.add_argument("--ref", help="also list the claims whose evidence moved or changed between the pin and REF")
    parser.add_argument("--repo", action="append", default=[], type=_repo_option, metavar="KEY=DIR",
                        help="also check the citations of another repository of citations.toml (MEAI, MCPSDK)")
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="the guide's checkout (default: this one)")
    arguments = parser.parse_args(argv)  # a bad option: argparse prints the usage and exits with 2
    sources = {"": arguments.source} | dict(arguments.repo)
    outcome = check(arguments.root, sources, arguments.ref)
    for line in outcome.findings:
        # A check that could not run says why on stderr; findings about claims are the report itself.
        print(line, file=sys.stdout if outcome.summary else sys.stderr)
    if outcome.summary:
        print(outcome.summary)
    return outcome.exit_status


if __name__ == "__main__":
    sys.exit(main())
