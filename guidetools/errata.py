"""Errata for the framework's own pages: a report for an upstream issue, and a patch that applies.

    python3 dev.py errata --source DIR [--ref REF] [--out FILE] [--patch FILE]

framework/errata.toml lists statements of MeshWeaver's documentation pages
(src/MeshWeaver.Documentation/Data/) that the framework's source contradicts, each with
its quote and page line at the pinned commit, what the framework does, the facts of
framework/citations.toml that show it, the guide's framework claims that state it
correctly and a replacement in the page's own voice; and framework defects, behaviours
to fix in the code rather than in the pages.

Every quote must stand exactly once on its page, on its line, at the pin (the pages are
read from DIR with `git cat-file`, as `dev.py upstream` reads the cited files); a quote
that moved or vanished is reported naming the entry and the page line where it was
expected. The report (Markdown, to FILE or stdout) groups the errata by page, each with
its quote and line, what the framework does, a permalink to the deciding source line
and the replacement; then the framework defects with their citations and a proposed fix.
With `--ref REF` the quotes are looked up at REF as well: the report gives their lines
there and lists the ones gone since the pin apart. `--patch FILE` writes a unified diff
against the pin that puts each replacement in place of its quote (`git apply` applies it
at the root of a MeshWeaver checkout). Exit status: 0 when every quote holds at the pin,
1 when one does not, 2 for bad input.
"""

from __future__ import annotations

import argparse
import difflib
import sys
import tomllib
from collections import defaultdict
from dataclasses import dataclass
from typing import ClassVar
from pathlib import Path

from guidetools import facts, tomllines
from guidetools.facts import Citation, Facts
from guidetools.project import REPO_ROOT, Project
from guidetools.upstream import EXIT_BAD_INPUT, EXIT_DRIFT, EXIT_OK, GitRepository, open_repository

ERRATA_FILE = Path("framework/errata.toml")


# ---- the entries ----

@dataclass(frozen=True)
class Entry:
    """What an erratum and a defect both give: what the framework does, and the facts and claims that show it."""

    kind: ClassVar[str]
    id: str
    framework: str
    facts: tuple[str, ...]
    decides: str
    claims: tuple[str, ...]
    toml_line: int

    @classmethod
    def read(cls, entry: dict, lines: dict[str, int], **fields):
        return cls(id=entry["id"], framework=entry["framework"].strip(), facts=tuple(entry.get("facts", ())),
                   decides=entry.get("decides", ""), claims=tuple(entry.get("claims", ())),
                   toml_line=lines.get(entry["id"], 1), **fields)


@dataclass(frozen=True)
class Erratum(Entry):
    kind = "erratum"
    page: str  # relative to Errata.pages
    line: int
    quote: str
    replacement: str


@dataclass(frozen=True)
class Defect(Entry):
    kind = "defect"
    title: str
    fix: str


@dataclass(frozen=True)
class Errata:
    file: Path  # as named in messages
    pages: str  # the pages' folder in the framework's tree
    errata: tuple[Erratum, ...]
    defects: tuple[Defect, ...]

    def path(self, erratum: Erratum) -> str:
        return f"{self.pages}/{erratum.page}"

    def by_page(self) -> dict[str, list[Erratum]]:
        pages = dict.fromkeys(erratum.page for erratum in self.errata)
        return {page: sorted((e for e in self.errata if e.page == page), key=lambda e: e.line) for page in pages}


def _id_lines(text: str, data: dict) -> dict[str, int]:
    """The line of each entry's `id = "…"` in the TOML, for messages that point at the entry."""
    lines: dict[str, int] = {}
    found = tomllines.key_lines(text)
    for kind in ("erratum", "defect"):
        for entry, number in zip(data.get(kind, []), (number for path, number in found if path == (kind, "id"))):
            lines.setdefault(entry["id"], number)
    return lines


def load(path: Path, shown_as: Path | None = None) -> Errata:
    """Read an errata file; `shown_as` is how messages name it (default: the path itself)."""
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    lines = _id_lines(text, data)
    errata = tuple(Erratum.read(entry, lines, page=entry["page"], line=int(entry["line"]), quote=entry["quote"],
                                replacement=entry["replacement"]) for entry in data.get("erratum", []))
    defects = tuple(Defect.read(entry, lines, title=entry["title"], fix=entry["fix"].strip())
                    for entry in data.get("defect", []))
    return Errata(shown_as or path, data["pages"].rstrip("/"), errata, defects)


def decisive(known: Facts, decides: str) -> Citation | None:
    """The citation `decides` names: "FACT" is its first citation, "FACT#n" its n-th; None when there is none."""
    fact_id, _, number = decides.partition("#")
    fact = known.facts.get(fact_id)
    if fact is None or not fact.citations:
        return None
    index = int(number) - 1 if number.isdigit() else 0
    return fact.citations[index] if 0 <= index < len(fact.citations) else None


# ---- checks that need no framework source ----

def structure_problems(errata: Errata, known: Facts, project: Project) -> list[str]:
    """What is wrong with the entries themselves: ids, facts, claims, quotes, replacements."""
    kinds = {marker.id: marker.kind for page in project.pages for marker in page.markers}
    problems: list[str] = []
    seen: set[str] = set()

    def at(entry: Entry) -> str:
        return f"{errata.file}:{entry.toml_line}: {entry.kind} {entry.id}"

    for entry in (*errata.errata, *errata.defects):
        if entry.id in seen:
            problems.append(f"{at(entry)}: the id is used twice; give each entry its own")
        seen.add(entry.id)
        if not entry.facts:
            problems.append(f"{at(entry)}: names no fact; cite the facts of citations.toml that show what the framework does")
        for fact_id in entry.facts:
            if fact_id not in known.facts:
                problems.append(f"{at(entry)}: fact {fact_id} is not in {facts.CITATIONS_FILE}; add it (path, line, symbol, evidence at the pin)")
            elif not known.facts[fact_id].citations:
                problems.append(f"{at(entry)}: fact {fact_id} has no citation of the source; cite one with a fact that has")
        if entry.decides.partition("#")[0] not in entry.facts or decisive(known, entry.decides) is None:
            problems.append(f"{at(entry)}: decides = \"{entry.decides}\" names no citation of its facts; use FACT or FACT#n of {', '.join(entry.facts)}")
        for claim_id in entry.claims:
            kind = kinds.get(claim_id)
            if kind is None:
                problems.append(f"{at(entry)}: claim {claim_id} is on no page of the guide; name an existing claim id")
            elif kind != "framework":
                problems.append(f"{at(entry)}: claim {claim_id} is a .{kind} claim; name framework claims only")
    for erratum in errata.errata:
        if not erratum.quote.strip() or "\n" in erratum.quote:
            problems.append(f"{at(erratum)}: the quote must be one line of the page, not empty")
        if erratum.replacement == erratum.quote:
            problems.append(f"{at(erratum)}: the replacement equals the quote")
    return problems


# ---- the quotes against the pages ----

def read_pages(repository: GitRepository, commit: str, errata: Errata) -> dict[str, list[str] | None]:
    """The lines of every page the errata name, at `commit` (None where the page is absent)."""
    pages = sorted({erratum.page for erratum in errata.errata})
    files = repository.read([(commit, f"{errata.pages}/{page}") for page in pages])
    return {page: files[commit, f"{errata.pages}/{page}"] for page in pages}


def locate(erratum: Erratum, lines: list[str] | None) -> tuple[int, ...] | None:
    """Each line that holds the quote, once for each time it does; None when the page is absent."""
    if lines is None:
        return None
    return tuple(number for number, text in enumerate(lines, start=1) for _ in range(text.count(erratum.quote)))


def quote_problems(errata: Errata, pages: dict[str, list[str] | None], where: str) -> list[str]:
    """Each quote that is not exactly once on its page at its line; `where` names the version ("the pin 2ba479c1d07d")."""
    problems = []
    for erratum in errata.errata:
        found = locate(erratum, pages.get(erratum.page))
        expected = f"{errata.path(erratum)}:{erratum.line}"
        head = f"{errata.file}:{erratum.toml_line}: erratum {erratum.id}: quote expected at {expected} at {where}"
        if found is None:
            problems.append(f"{head}: the page does not exist there; correct page")
        elif not found:
            problems.append(f"{head}: it is no longer on the page (`{_short(erratum.quote)}`); re-read the page and correct or drop the erratum")
        elif len(found) > 1:
            problems.append(f"{head}: it stands {len(found)} times (lines {', '.join(map(str, found))}); quote more of the line so it is unique")
        elif found[0] != erratum.line:
            problems.append(f"{head}: it moved to line {found[0]}; set line = {found[0]}")
    return problems


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---- the patch ----

def patch(errata: Errata, pages: dict[str, list[str] | None]) -> str:
    """A unified diff, paths from the framework's root, that puts every replacement in place of its quote in the
    pages at the pin (`git apply` reads it)."""
    chunks = []
    for page, entries in sorted(errata.by_page().items()):
        old = pages[page]
        assert old is not None, page
        new = list(old)
        # From the bottom up: a replacement that adds lines moves the lines below it, not those above.
        for erratum in sorted(entries, key=lambda e: e.line, reverse=True):
            text = new[erratum.line - 1]
            assert text.count(erratum.quote) == 1, erratum.id
            new[erratum.line - 1: erratum.line] = text.replace(erratum.quote, erratum.replacement).split("\n")
        path = f"{errata.pages}/{page}"
        body = difflib.unified_diff(old, new, f"a/{path}", f"b/{path}", lineterm="", n=3)
        chunks.append("\n".join([f"diff --git a/{path} b/{path}", *body]) + "\n")
    return "".join(chunks)


# ---- the report ----

def _blockquote(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))


def _citation(citation: Citation) -> str:
    prefix = f"{citation.repo.name}: " if citation.repo.key else ""
    symbol = f" `{citation.symbol}`" if citation.symbol else ""
    return f"[{prefix}{citation.path}:{citation.line}]({citation.permalink}){symbol}"


def _sources(known: Facts, entry: Entry) -> list[str]:
    """The deciding citation first, then every other citation of the entry's facts."""
    first = decisive(known, entry.decides)
    lines = [f"- deciding line: {_citation(first)}: `{first.evidence}`"] if first else []
    others = [c for fact_id in entry.facts for c in known.facts[fact_id].citations if c != first]
    if others:
        lines.append("- also: " + "; ".join(_citation(c) for c in dict.fromkeys(others)))
    return lines


def _checked_in(claims: tuple[str, ...]) -> list[str]:
    return [f"Checked in the agent-design guide as {', '.join(f'`{c}`' for c in claims)}.", ""] if claims else []


def report(errata: Errata, known: Facts, pages: dict[str, list[str] | None], ref: str | None = None,
           ref_commit: str | None = None) -> str:
    """The Markdown of the upstream issue: errata by page, then framework defects; `pages` are the pages at the
    pin, or at `ref` (the commit `ref_commit`) when it is given."""
    pin = known.framework
    commit = ref_commit or pin.commit
    per_page: dict[str, list[tuple[Erratum, int]]] = defaultdict(list)
    gone: list[Erratum] = []
    for erratum in errata.errata:
        found = locate(erratum, pages.get(erratum.page))
        if found and len(found) == 1:
            per_page[erratum.page].append((erratum, found[0]))
        else:
            gone.append(erratum)
    version = f"`{pin.commit[:12]}`" if ref is None else f"`{ref}` (`{commit[:12]}`; errata read at the pin `{pin.commit[:12]}`)"
    out = [
        "# Documentation errata: statements the source contradicts",
        "",
        f"Pages of `{errata.pages}/` in [{pin.name}](https://github.com/{pin.name}) at {version}, read line by line",
        "against the source. Each entry quotes the page, says what the framework does, links the source line",
        "that decides it, and proposes a replacement; a patch with every replacement is attached",
        "(`git apply` at the repository root). Framework defects, behaviours to fix in the code rather than",
        "in the pages, follow the errata.",
        "",
        f"**{sum(map(len, per_page.values()))} errata on {len(per_page)} pages; {len(errata.defects)} framework defects.**",
        "",
        "| page | errata |",
        "| --- | ---: |",
        *(f"| `{page}` | {len(entries)} |" for page, entries in sorted(per_page.items())),
        "",
    ]
    number = 0
    for page, entries in sorted(per_page.items()):
        out += [f"## {page}", ""]
        for erratum, line in sorted(entries, key=lambda item: item[1]):
            number += 1
            # `?plain=1` makes GitHub show a Markdown file as text, so `#L{n}` lands on the line.
            link = f"https://github.com/{pin.name}/blob/{commit}/{errata.path(erratum)}?plain=1#L{line}"
            out += [
                f"### {number}. Line {line}: `{erratum.id}`",
                "",
                f"[{page}:{line}]({link}) says:",
                "",
                _blockquote(erratum.quote),
                "",
                f"**What the framework does.** {erratum.framework}",
                "",
                *_sources(known, erratum),
                "",
                "**Replace with:**",
                "",
                _blockquote(erratum.replacement),
                "",
            ]
            out += _checked_in(erratum.claims)
    if gone:
        out += ["## No longer on the page at " + (ref or "the pin"), "",
                "These quotes no longer stand once on their page; re-read the page before filing them.", ""]
        out += [f"- `{e.id}`: {e.page}:{e.line} (at the pin): {_short(e.quote, 90)}" for e in gone] + [""]
    out += ["## Framework defects", "",
            "Behaviours that are defects of the framework, not of its pages; each with the source that shows it and a fix.", ""]
    for index, defect in enumerate(errata.defects, start=1):
        out += [
            f"### D{index}. {defect.title}",
            "",
            defect.framework,
            "",
            *_sources(known, defect),
            "",
            f"**Proposed fix.** {defect.fix}",
            "",
        ]
        out += _checked_in(defect.claims)
    return "\n".join(out).rstrip("\n") + "\n"


# ---- command line ----

@dataclass
class Outcome:
    problems: list[str]
    exit_status: int = EXIT_BAD_INPUT
    report: str | None = None
    patch: str | None = None


def run(root: Path, source: Path, ref: str | None = None, errata_file: Path | None = None) -> Outcome:
    """Check the errata of the guide at `root` against the framework at `source`; build the report and the patch."""
    known = facts.load(root)
    path = errata_file or root / ERRATA_FILE
    try:
        errata = load(path, shown_as=path if errata_file else ERRATA_FILE)
    except (OSError, tomllib.TOMLDecodeError, KeyError) as error:
        return Outcome([f"{path}: cannot be read ({error}); fix the file"])
    structure = structure_problems(errata, known, Project(root))
    if structure:
        return Outcome(structure)
    repository = open_repository(source)
    if isinstance(repository, str):
        return Outcome([repository])
    pin = known.framework
    if repository.commit(pin.commit) is None:
        return Outcome([f"{source} does not hold the pinned commit {pin.commit[:12]} of {pin.name}; fetch it"])
    at_pin = read_pages(repository, pin.commit, errata)
    problems = quote_problems(errata, at_pin, f"the pin {pin.commit[:12]}")
    if problems:
        return Outcome(problems, EXIT_DRIFT)
    target = None if ref is None else repository.commit(ref)
    if ref is not None and target is None:
        return Outcome([f"unknown ref '{ref}': {source} has no commit of that name"])
    now = at_pin if target is None else read_pages(repository, target, errata)
    return Outcome([], EXIT_OK, report(errata, known, now, ref, target), patch(errata, at_pin))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dev.py errata", description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", required=True, type=Path, help="the framework: a MeshWeaver work tree or git directory")
    parser.add_argument("--ref", help="also look the quotes up at REF (a branch, tag or commit of the framework)")
    parser.add_argument("--out", type=Path, help="write the report here (default: stdout, unless --patch is given)")
    parser.add_argument("--patch", type=Path, help="write the unified diff against the pin here")
    parser.add_argument("--errata", type=Path, help=f"the errata file (default: {ERRATA_FILE})")
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="the guide's checkout (default: this one)")
    arguments = parser.parse_args(argv)
    outcome = run(arguments.root, arguments.source, arguments.ref, arguments.errata)
    for line in outcome.problems:
        print(line, file=sys.stderr)
    if outcome.exit_status != EXIT_OK:
        return outcome.exit_status
    assert outcome.report is not None and outcome.patch is not None
    if arguments.patch:
        arguments.patch.write_text(outcome.patch, encoding="utf-8")
    if arguments.out:
        arguments.out.write_text(outcome.report, encoding="utf-8")
    elif not arguments.patch:
        sys.stdout.write(outcome.report)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
