"""Claims traceability: every behaviour claim on a page has a check, every check names a claim.

Like the Rust Reference's rule ids: a page marks a claim with an id, the code
that confirms it names that id, and this module rejects claims without checks,
checks without claims, duplicate ids and checks of observations. It also
renders docs/reference/claims.md, the coverage table a reader and a reviewer see.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from guidetools import facts, refutation
from guidetools.facts import CITATIONS_FILE, Fact
from claimcheck.inline import read_inline
from claimcheck.page import Marker
from claimcheck.problems import Problem
from guidetools.project import CLAIMS_PAGE, CONFORMANCE, Project
from claimcheck.pysource import read_checks
from claimcheck.site import broken_by as _broken_by


@dataclass(frozen=True)
class CheckSite:
    """Where a check names a claim id: a Python comment or a page's verifies comment."""

    file: Path
    line: int

    def __str__(self) -> str:
        return f"{self.file.as_posix()}:{self.line}"


@dataclass
class Claims:
    markers: list[Marker]
    checks: dict[str, list[CheckSite]]
    problems: list[Problem]


def collect(project: Project) -> Claims:
    markers = [marker for page in project.pages for marker in page.markers]
    checks: dict[str, list[CheckSite]] = defaultdict(list)
    problems: list[Problem] = []
    for page in project.pages:
        for check in page.checks:
            if not check.can_fail():
                problems.append(Problem(check.page, check.line, "the ```pycon block under this verifies comment prints and asserts nothing, so it cannot fail; show expected output or assert"))
                continue
            for claim in check.ids:
                checks[claim].append(CheckSite(check.page, check.line))
    for path in project.check_source_paths:
        found, malformed = read_checks(project.root / path, path)
        problems += malformed
        for check in found:
            for claim in check.ids:
                checks[claim].append(CheckSite(check.file, check.line))
    problems += _consistency_problems(markers, checks, facts.load(project.root).facts)
    return Claims(markers, dict(checks), problems)


def broken_by(project: Project, claims: Claims, file: Path, line: int) -> list[str]:
    """Describe the claims whose check spans `file:line` (claimcheck's report under a failing test)."""
    return _broken_by(project, claims.markers, file, line)


def _consistency_problems(markers: list[Marker], checks: dict[str, list[CheckSite]], known_facts: dict[str, Fact]) -> list[Problem]:
    problems = []
    first_seen: dict[str, Marker] = {}
    for marker in markers:
        if marker.id in first_seen:
            first = first_seen[marker.id]
            problems.append(Problem(marker.page, marker.line, f"claim id '{marker.id}' is used twice (first at {first.page}:{first.line}); give each claim its own id", marker.id))
            continue
        first_seen[marker.id] = marker
        if marker.checked and marker.id not in checks:
            problems.append(Problem(marker.page, marker.line, f"claim '{marker.id}' has no check; add '# verifies: {marker.id}' above an assert in a snippet or test, or mark it .observation if no code can confirm it", marker.id))
        if marker.kind == "observation" and marker.id in checks:
            site = checks[marker.id][0]
            problems.append(Problem(site.file, site.line, f"'{marker.id}' is an observation, which no code can confirm; mark it .framework, .model or .extension on {marker.page}:{marker.line} or drop the check", marker.id))
        if marker.kind == "framework" and not marker.cites:
            problems.append(Problem(marker.page, marker.line, f"framework claim '{marker.id}' cites no source; add cite=\"FACT\" naming a fact of {CITATIONS_FILE} (path:line at the pinned commit)", marker.id))
        if marker.kind == "observation" and marker.cites:
            problems.append(Problem(marker.page, marker.line, f"observation '{marker.id}' cites framework source; a cited behaviour is a .framework claim with a check", marker.id))
        for fact_id in marker.cites:
            if fact_id not in known_facts:
                problems.append(Problem(marker.page, marker.line, f"claim '{marker.id}' cites fact '{fact_id}', which {CITATIONS_FILE} does not hold; cite an existing fact or add it with its path:line and evidence", marker.id))
            elif marker.kind == "framework" and not known_facts[fact_id].citations:
                problems.append(Problem(marker.page, marker.line, f"claim '{marker.id}' cites fact '{fact_id}', which has no source line in the framework; a framework claim needs a fact with path:line", marker.id))
    for claim, sites in checks.items():
        if claim not in first_seen:
            for site in sites:
                problems.append(Problem(site.file, site.line, f"check names claim '{claim}', which no page has; mark the claim on its page or fix the id", claim))
    return problems


KIND_LABELS = {
    "framework": "framework",
    "model": "guide's model",
    "extension": "agentkit extension",
    "observation": "observation",
}


def row_anchor(claim_id: str) -> str:
    """The id of a claim's row on the claims page; a page's claim label links to it."""
    return "claim-" + claim_id


def render_page(project: Project, claims: Claims) -> str:
    """The Markdown of docs/reference/claims.md."""
    known = facts.load(project.root)
    by_page: dict[Path, list[Marker]] = defaultdict(list)
    for marker in claims.markers:
        by_page[marker.page].append(marker)
    titles = {page.path: _title(project.root / page.path) for page in project.pages}
    here = posixpath.dirname(CLAIMS_PAGE.relative_to("docs").as_posix())

    def link(page: Path, anchor: str = "") -> str:
        target = posixpath.relpath(page.relative_to("docs").as_posix(), here)
        return f"{target}#{anchor}" if anchor else target

    checked = [m for m in claims.markers if m.checked]
    total_checked = sum(1 for m in checked if m.id in claims.checks)
    framework = [m for m in claims.markers if m.kind == "framework"]
    cited = sum(1 for m in framework if m.cites)
    over_mcp = sum(1 for m in checked if _over_mcp(claims, m.id))
    pin = known.framework
    lines = [
        "# Claims",
        "",
        "Every behaviour this guide states carries an id, and the code that confirms it names that id.",
        "A claim is one of four kinds:",
        "",
        "- **framework**: how the framework behaves, cited to its source at the pinned commit and checked against agentkit's model of it;",
        "- **guide's model**: the guide's own cost model and scenarios, checked;",
        "- **agentkit extension**: a behaviour agentkit adds beyond the framework, off by default, checked;",
        "- **observation**: what no code can confirm (a production figure, a model's habit).",
        "",
        f"Framework sources are pinned to [`{pin.name}` @ `{pin.commit[:12]}`](https://github.com/{pin.name}/tree/{pin.commit}).",
        "This page is generated by `python3 dev.py regen`; the test suite fails when it is stale, when a",
        "claim has no check, when a framework claim cites no source, or when a check names an id that no page has.",
        "",
        f"**{total_checked} of {len(checked)} claims checked ({_percent(total_checked, len(checked))}); "
        f"{cited} of {len(framework)} framework claims cited ({_percent(cited, len(framework))}); "
        f"{over_mcp} checked over MCP as well.**",
        "",
        _refutation_line(project, framework),
        "",
        "A claim marked **MCP** is also checked by the conformance suite (`conformance/`), which calls the tools",
        "through the Model Context Protocol only: `python3 dev.py conform --url URL` runs it against agentkit's",
        "own server (`python3 dev.py mcp`) or against a framework deployment.",
        "",
        "## Coverage",
        "",
        "| page | framework | model | extension | checked | over MCP | observations |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for page in sorted(by_page, key=lambda p: p.as_posix()):
        markers = by_page[page]
        count = {kind: sum(1 for m in markers if m.kind == kind) for kind in KIND_LABELS}
        claimed = [m for m in markers if m.checked]
        done = [m for m in claimed if m.id in claims.checks]
        lines.append(
            f"| [{titles[page]}]({link(page)}) | {count['framework']} | {count['model']} | {count['extension']} "
            f"| {len(done)} of {len(claimed)} ({_percent(len(done), len(claimed))}) "
            f"| {sum(1 for m in claimed if _over_mcp(claims, m.id))} | {count['observation']} |"
        )
    for page in sorted(by_page, key=lambda p: p.as_posix()):
        lines += ["", f"## {titles[page]}", "", "| id | what it says | kind | source | checked by | MCP |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for marker in by_page[page]:
            sites = _checking_files(claims.checks.get(marker.id, [])) or "—"
            if marker.kind == "observation":
                sites = "not checkable: observation"
            lines.append(
                f'| <span id="{row_anchor(marker.id)}"></span>[`{marker.id}`]({link(page, marker.id)}) '
                f"| {_cell(marker.text)} | {KIND_LABELS[marker.kind]} | {_sources(marker, known)} | {sites} "
                f"| {'MCP' if _over_mcp(claims, marker.id) else ''} |"
            )
    return "\n".join(lines) + "\n"


def _refutation_line(project: Project, framework: list[Marker]) -> str:
    """How many framework claims a reading that tried to refute them found true, as worded now."""
    readings, _ = refutation.load(project.root)
    current = [m for m in framework if m.id in readings and readings[m.id].text == m.text]
    read = {m.id: readings[m.id] for m in current}
    counts = refutation.summary(read)
    return (f"{len(current)} of {len(framework)} framework claims were read against the source, as worded now, by a reader "
            f"who did not write them and tried to refute them ({counts['corrected']} of them corrected after an earlier "
            f"reading, {counts['unsettled']} that the source cannot settle, which say so); the record, with the files "
            f"and lines each reading followed, is `{refutation.REVIEW_FILE}`.")


def _over_mcp(claims: Claims, claim_id: str) -> bool:
    """Whether the conformance suite checks the claim: it then holds over MCP, for any server it runs against."""
    return any(site.file.parts[:1] == CONFORMANCE.parts for site in claims.checks.get(claim_id, []))


def _sources(marker: Marker, known: facts.Facts) -> str:
    """Each cited fact id with permalinks to its source lines at the pinned commit."""
    parts = []
    for fact_id in marker.cites:
        fact = known.facts.get(fact_id)
        links = [f"[{citation.path.rsplit('/', 1)[-1]}:{citation.line}]({citation.permalink})" for citation in (fact.citations if fact else ())]
        parts.append(f"{fact_id}" + (f" ({', '.join(links)})" if links else ""))
    return "; ".join(parts) or "—"


def _cell(text: str) -> str:
    """A claim's whole text, safe inside a table cell: links keep their words; a `|` is escaped outside code
    spans (the tables extension splits no cell inside one, and would show the backslash there)."""
    text = read_inline(text).link_texts()
    inside = {i for span in read_inline(text).code for i in range(span.start, span.end)}
    return "".join("\\|" if char == "|" and i not in inside else char for i, char in enumerate(text))


def _checking_files(sites: list[CheckSite]) -> str:
    # Files, not lines: an edit above a check must not make the page stale. A failing
    # check names its exact line in the test report ("broken claims").
    counts: dict[str, int] = {}
    for site in sites:
        counts[site.file.as_posix()] = counts.get(site.file.as_posix(), 0) + 1
    return ", ".join(f"`{file}`" + (f" ×{count}" if count > 1 else "") for file, count in counts.items())


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


def _percent(part: int, whole: int) -> str:
    return f"{100 * part // whole}%" if whole else "—"
