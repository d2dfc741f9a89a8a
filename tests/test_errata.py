"""guidetools/errata.py and framework/errata.toml, the errata of the framework's own pages, checked like citations:
on a small framework repository built on the fly, and (with MESHWEAVER_SOURCE) on the framework's pages at the pin."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_upstream import MESHWEAVER_SOURCE, _commit, git, needs_source
from guidetools import errata as errata_tool
from guidetools import facts
from guidetools.errata import ERRATA_FILE, load, patch, quote_problems, read_pages, structure_problems
from guidetools.project import REPO_ROOT, Project
from guidetools.upstream import EXIT_BAD_INPUT, EXIT_DRIFT, EXIT_OK, open_repository

KNOWN = facts.load()
ERRATA = load(REPO_ROOT / ERRATA_FILE, shown_as=ERRATA_FILE)
# The defects the issue names; each must stay in the report.
REQUIRED_DEFECTS = {
    "pdf-transformer-page-text", "file-system-dot-dot", "budget-text-says-tool-calls",
    "plugins-doc-comment-stale", "search-chunks-get-the-document",
}


# ---- the entries, without the framework's source ----

def test_every_entry_names_existing_facts_and_framework_claims_and_the_named_defects_are_in():
    assert structure_problems(ERRATA, KNOWN, Project()) == []
    with_claims = [e.id for e in ERRATA.errata if e.claims]
    assert len(with_claims) >= 20, with_claims
    assert REQUIRED_DEFECTS <= {d.id for d in ERRATA.defects}
    assert all(d.fix for d in ERRATA.defects)  # structure_problems has checked what each entry decides by


def test_a_claim_of_another_kind_or_an_unknown_fact_is_named(tmp_path):
    observation = next(m.id for p in Project().pages for m in p.markers if m.kind == "observation")
    text = (REPO_ROOT / ERRATA_FILE).read_text(encoding="utf-8")
    first = ERRATA.errata[0]
    planted = text.replace(f'claims = ["{first.claims[0]}"', f'claims = ["{observation}"', 1)
    planted = planted.replace(f'facts = ["{first.facts[0]}"', 'facts = ["NOPE"', 1)
    (tmp_path / "errata.toml").write_text(planted, encoding="utf-8")
    problems = structure_problems(load(tmp_path / "errata.toml", Path("errata.toml")), KNOWN, Project())
    where = f"errata.toml:{first.toml_line}: erratum {first.id}"
    assert f"{where}: claim {observation} is a .observation claim; name framework claims only" in problems
    assert any(p.startswith(f"{where}: fact NOPE is not in framework/citations.toml") for p in problems)
    assert any(p.startswith(f"{where}: decides = ") for p in problems)


# ---- a small framework repository: quotes that moved, vanished or repeat; the patch ----

PAGE = "Data/Guide.md"
FIRST = "# Guide\n\nThe cap counts tool calls.\nSearch returns an array.\n\nEnd.\n"
# The second commit pushes the first quote two lines down and rewrites the second.
SECOND = "# Guide\n\nNew intro.\n\nThe cap counts tool calls.\nSearch returns an envelope.\n\nEnd.\n"
TOML = """pages = "Data"

[[erratum]]
id = "guide.cap"
page = "Guide.md"
line = 3
quote = "The cap counts tool calls."
framework = "It counts iterations."
facts = ["A7"]
decides = "A7"
claims = []
replacement = "The cap counts iterations."

[[erratum]]
id = "guide.search"
page = "Guide.md"
line = 4
quote = "returns an array"
framework = "An envelope."
facts = ["M3"]
decides = "M3"
claims = []
replacement = "returns an envelope\\n(see the table)"
"""


@pytest.fixture(scope="module")
def framework(tmp_path_factory) -> tuple[Path, str, str]:
    """A git repository with the page at two commits: (work tree, first commit, second commit)."""
    root = tmp_path_factory.mktemp("framework")
    git(root, "init", "-q", "-b", "main")
    return root, _commit(root, {PAGE: FIRST}, "page"), _commit(root, {PAGE: SECOND}, "page")


def applied(tree: Path, diff: str) -> None:
    """`git apply` of the diff in the folder `tree`, made a repository: all hunks apply, or it fails and writes none."""
    git(tree, "init", "-q")
    (tree.parent / "fix.patch").write_text(diff, encoding="utf-8")
    git(tree, "apply", str(tree.parent / "fix.patch"))


@pytest.fixture()
def small(tmp_path):
    (tmp_path / "errata.toml").write_text(TOML, encoding="utf-8")
    return load(tmp_path / "errata.toml", Path("errata.toml"))


@pytest.mark.parametrize("commit, ref, problems", [
    pytest.param(1, "the pin", [], id="quotes that hold"),
    pytest.param(2, "REF", [
        "errata.toml:4: erratum guide.cap: quote expected at Data/Guide.md:3 at REF: it moved to line 5; set line = 5",
        "errata.toml:15: erratum guide.search: quote expected at Data/Guide.md:4 at REF: "
        "it is no longer on the page (`returns an array`); re-read the page and correct or drop the erratum",
    ], id="a quote that moved or vanished"),
])
def test_a_quote_that_moved_or_vanished_is_named_and_one_that_holds_is_not(framework, small, commit, ref, problems):
    pages = read_pages(open_repository(framework[0]), framework[commit], small)
    assert quote_problems(small, pages, ref) == problems


def test_a_quote_on_two_lines_or_a_missing_page_is_named(small):
    doubled = {"Guide.md": ["The cap counts tool calls.", "The cap counts tool calls."]}
    assert quote_problems(small, doubled, "X")[0].endswith("it stands 2 times (lines 1, 2); quote more of the line so it is unique")
    assert quote_problems(small, {"Guide.md": None}, "X")[0].endswith("the page does not exist there; correct page")


def test_the_patch_applies_and_puts_each_replacement_in_place(framework, small, tmp_path):
    root, first, _ = framework
    pages = read_pages(open_repository(root), first, small)
    diff = patch(small, pages)
    assert diff.startswith(f"diff --git a/{PAGE} b/{PAGE}\n--- a/{PAGE}\n+++ b/{PAGE}\n")
    checkout = tmp_path / "checkout"
    (checkout / "Data").mkdir(parents=True)
    (checkout / PAGE).write_text(FIRST, encoding="utf-8")  # the page at the first commit
    applied(checkout, diff)
    assert (checkout / PAGE).read_text(encoding="utf-8") == (
        "# Guide\n\nThe cap counts iterations.\nSearch returns an envelope\n(see the table).\n\nEnd.\n")


def test_the_report_at_a_later_ref_gives_new_lines_and_lists_the_quotes_gone(framework, small):
    root, _, second = framework
    repository = open_repository(root)
    text = errata_tool.report(small, KNOWN, read_pages(repository, second, small), "main", second)
    assert "**1 errata on 1 pages; 0 framework defects.**" in text
    assert f"### 1. Line 5: `guide.cap`\n\n[Guide.md:5](https://github.com/{KNOWN.framework.name}/blob/{second}/Data/Guide.md?plain=1#L5)" in text
    assert "## No longer on the page at main" in text and "- `guide.search`: Guide.md:4 (at the pin): returns an array" in text


# ---- against the framework's source ----

at_the_source = needs_source("check the errata's quotes and patch against the framework's pages")


@pytest.fixture(scope="module")
def outcome():
    return errata_tool.run(REPO_ROOT, Path(MESHWEAVER_SOURCE))


@at_the_source
def test_every_quote_stands_once_at_its_line_and_the_patch_applies_at_the_pin(outcome, tmp_path):
    assert outcome.exit_status == EXIT_OK, "\n".join(outcome.problems)
    pin = KNOWN.framework.commit
    diff = outcome.patch
    touched = re.findall(r"^diff --git a/(\S+) b/\1$", diff, flags=re.MULTILINE)
    assert touched and all(path.startswith(ERRATA.pages + "/") for path in touched)
    assert len(touched) == len(re.findall(r"^diff --git ", diff, flags=re.MULTILINE))
    git_dir = open_repository(Path(MESHWEAVER_SOURCE)).git_dir
    tree = tmp_path / "tree"
    tree.mkdir()
    archive = subprocess.run(["git", "--git-dir", str(git_dir), "archive", pin, "--", *touched],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    applied(tree, diff)
    for erratum in ERRATA.errata:
        text = (tree / ERRATA.path(erratum)).read_text(encoding="utf-8")
        assert erratum.replacement in text, erratum.id
        assert erratum.quote not in text or erratum.quote in erratum.replacement, erratum.id


@at_the_source
def test_a_planted_stale_quote_fails_naming_the_entry_and_the_page_line(tmp_path):
    # Run as the drift workflow runs it, a process whose exit code is the verdict (drift.yml).
    target = ERRATA.errata[1]
    text = (REPO_ROOT / ERRATA_FILE).read_text(encoding="utf-8")
    planted = tmp_path / "errata.toml"
    planted.write_text(text.replace(target.quote, target.quote + " (stale)", 1), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "guidetools.errata", "--source", MESHWEAVER_SOURCE, "--errata", str(planted)],
        cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == EXIT_DRIFT, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith(
        f"{planted}:{target.toml_line}: erratum {target.id}: quote expected at {ERRATA.path(target)}:{target.line} "
        f"at the pin {KNOWN.framework.commit[:12]}: it is no longer on the page")
    moved = tmp_path / "moved.toml"
    moved.write_text(text.replace(f"line = {target.line}\nquote", f"line = {target.line + 1}\nquote", 1), encoding="utf-8")
    problems = errata_tool.run(REPO_ROOT, Path(MESHWEAVER_SOURCE), errata_file=moved).problems
    assert problems == [f"{moved}:{target.toml_line}: erratum {target.id}: quote expected at "
                        f"{ERRATA.path(target)}:{target.line + 1} at the pin {KNOWN.framework.commit[:12]}: "
                        f"it moved to line {target.line}; set line = {target.line}"]


@at_the_source
def test_the_report_groups_errata_by_page_with_permalinks_and_lists_the_defects(outcome):
    report = outcome.report
    pin = KNOWN.framework
    errata_part, defects_part = report.split("\n## Framework defects\n")  # the heading stands once
    entries = re.findall(r"^### \d+\. Line (\d+): `([^`]+)`$", errata_part, flags=re.MULTILINE)
    assert [entry_id for _, entry_id in entries] == [
        e.id for page, group in sorted(ERRATA.by_page().items()) for e in group]
    for erratum in ERRATA.errata:
        block = errata_part.split(f": `{erratum.id}`\n", 1)[1].split("\n### ", 1)[0]
        assert f"{erratum.page}:{erratum.line}](https://github.com/{pin.name}/blob/{pin.commit}/{ERRATA.path(erratum)}?plain=1#L{erratum.line})" in block
        assert re.search(r"- deciding line: \[[^\]]+\]\(https://github\.com/[\w.-]+/[\w.-]+/blob/[0-9a-f]{40}/\S+#L\d+\)", block)
        assert "> " + erratum.quote.split("\n")[0] in block and "**Replace with:**" in block
    for page, group in ERRATA.by_page().items():
        assert f"| `{page}` | {len(group)} |" in errata_part
    titles = re.findall(r"^### D\d+\. (.+)$", defects_part, flags=re.MULTILINE)
    assert titles == [d.title for d in ERRATA.defects]
    assert defects_part.count("**Proposed fix.**") == len(ERRATA.defects) >= 5


@at_the_source
def test_an_unknown_ref_or_a_missing_source_is_bad_input(tmp_path):
    assert errata_tool.run(REPO_ROOT, Path(MESHWEAVER_SOURCE), ref="no-such-ref").exit_status == EXIT_BAD_INPUT
    assert errata_tool.run(REPO_ROOT, tmp_path / "none").exit_status == EXIT_BAD_INPUT
