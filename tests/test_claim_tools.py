"""What a doc reviewer relies on, tried on tests/fixtures/minidocs, a small tree shaped like the guide:
the claims lock (a reworded claim is a review event), regen --outputs, and the review report."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from claimcheck import captures, outputs
from guidetools import claimcontract, claimlock, claims, pycon, review, stated
from guidetools.project import Project
from tests.test_upstream import git  # the framework's test repositories' git: no user configuration read

MINIDOCS = Path(__file__).parent / "fixtures" / "minidocs"


@pytest.fixture
def mini(tmp_path: Path) -> Project:
    """A fresh copy of the mini tree, with its claims lock written as regen would."""
    shutil.copytree(MINIDOCS, tmp_path / "mini")
    project = Project(tmp_path / "mini")
    write_lock(project)
    return Project(project.root)


def write_lock(project: Project, confirm: frozenset[str] = frozenset()) -> list[claimlock.Reworded]:
    entries, refused = claimlock.updated(project, claims.collect(project), set(confirm))
    (project.root / claimlock.LOCK_FILE).parent.mkdir(parents=True, exist_ok=True)
    (project.root / claimlock.LOCK_FILE).write_text(claimlock.render(entries), encoding="utf-8")
    return refused


def edit(project: Project, path: str, old: str, new: str) -> Project:
    file = project.root / path
    text = file.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    return Project(project.root)  # a Project caches its pages


class TestClaimsLock:
    def test_rewording_with_the_same_checks_is_refused_until_confirmed(self, mini):
        """A new number in the prose, with the check left alone, names the claim, its page line and its check;
        regen alone refuses (the lock keeps the old text), --confirm accepts exactly the named claim."""
        project = edit(mini, "docs/guide.md", "gives 5.", "gives 6.")
        found = claimlock.reworded(project, claims.collect(project))
        assert [str(item).splitlines()[0] for item in found] == [
            "claim mini.adds's wording changed at docs/guide.md:10; its checks at snippets/mini_01_sum.py:19 are unchanged: "
            "confirm with `python3 dev.py regen --confirm mini.adds` or change the check",
        ]
        assert "was: Adding 2 and 3 gives 5." in str(found[0]) and "now: Adding 2 and 3 gives 6." in str(found[0])
        assert [item.marker.id for item in write_lock(project)] == ["mini.adds"]
        assert claimlock.load(project)["mini.adds"].text == "Adding 2 and 3 gives 5."
        assert write_lock(project, frozenset({"mini.adds"})) == []
        assert claimlock.load(project)["mini.adds"].text == "Adding 2 and 3 gives 6."
        assert claimlock.reworded(project, claims.collect(project)) == []

    @pytest.mark.parametrize("edits", [
        # the check changed with the wording: the diff shows both
        [("docs/guide.md", "Adding 2 and 3 gives 5.", "Adding 2 and 4 gives 6."),
         ("snippets/mini_01_sum.py", "assert add(2, 3) == 5", "assert add(2, 4) == 6")],
        [("docs/guide.md", "Adding 2 and 3 gives 5.", "Adding 2 and 3\ngives 5.")],  # only words count
    ], ids=["reworded with its check", "rewrapped"])
    def test_rewording_with_its_check_or_rewrapping_needs_no_confirmation(self, mini, edits):
        project = mini
        for path, old, new in edits:
            project = edit(project, path, old, new)
        assert claimlock.reworded(project, claims.collect(project)) == []
        assert write_lock(project) == []


class TestOutputUpdate:
    def test_shown_output_mismatch_names_snippet_line_page_and_page_line(self, mini):
        project = edit(mini, "snippets/mini_01_sum.py", "#> 5", "#> 7")
        snippet = project.root / "snippets" / "mini_01_sum.py"
        recorder = captures.run_snippet(snippet).printed
        report = outputs.mismatch_report(project, Path("snippets/mini_01_sum.py"), outputs.attribute(snippet, recorder.writes))
        assert report.splitlines()[0] == (
            "snippets/mini_01_sum.py:9: the '#>' lines differ from what the code above them prints "
            "(shown on docs/guide.md:6 (section 'add'))"
        )  # the Expected/Got lines after it: tests/claimcheck/test_pytest_plugin.py

    def test_rewrite_replaces_only_the_differing_block_and_adds_missing_ones(self, tmp_path):
        """A stale block gets the real output, a matching `...` block stays, a print without block gets one."""
        snippet = tmp_path / "shown.py"
        kept, loop, new = 'print("kept: a long line")\n#> kept: ...\n', "for n in range(2):\n    print(n * 10)\n#> 0\n", 'print("new")\n'
        snippet.write_text(kept + loop + "#> 99\n" + new, encoding="utf-8")
        recorder = captures.run_snippet(snippet).printed
        assert outputs.rewritten(snippet, outputs.attribute(snippet, recorder.writes)) == kept + loop + "#> 10\n" + new + "#> new\n"

    def test_pycon_expected_output_is_rewritten_from_a_real_run(self, tmp_path):
        """A pycon example with a wrong expected output gets the real one; a right one is kept as written."""
        page = tmp_path / "page.md"
        page.write_text("# P\n\n```pycon\n>>> x = 2\n>>> x + 1\n4\n>>> 'a ' * 2\n'a ...'\n```\n", encoding="utf-8")
        assert pycon.rewritten(page) == "# P\n\n```pycon\n>>> x = 2\n>>> x + 1\n3\n>>> 'a ' * 2\n'a ...'\n```\n"


def two_commits(tmp_path: Path, base: Callable[[str], str], change: Callable[[str], str], snippet_tail: str = "") -> Path:
    """The mini tree committed with its page as ``base`` makes it, then with ``change`` made to the page."""
    root = tmp_path / "repo"
    shutil.copytree(MINIDOCS, root)
    page, snippet = root / "docs" / "guide.md", root / "snippets" / "mini_01_sum.py"
    page.write_text(base(page.read_text(encoding="utf-8")), encoding="utf-8")
    for args in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-q", "-m", "base"]):
        git(root, *args)
    page.write_text(change(page.read_text(encoding="utf-8")), encoding="utf-8")
    snippet.write_text(snippet.read_text(encoding="utf-8") + snippet_tail, encoding="utf-8")
    git(root, "commit", "-q", "-am", "change")
    return root


def cut_at_1200(text: str) -> str:
    return text.replace("Input is cut at 1,000 characters.", "Input is cut at 1,200 characters.")


def test_review_report_lists_claims_numbers_and_unmarked_behaviour(tmp_path):
    """A reworded claim (old and new text, its unchanged check), an added one, a changed number, a promise."""
    root = two_commits(tmp_path, str, lambda text: cut_at_1200(text) + (
        "\nThe sum is never negative for `add(2, 3)`.\n{ #mini.never-negative .model }\n\n"
        "The `add` function always returns an int.\n"), "# verifies: mini.never-negative\nassert add(2, 3) >= 0\n")
    assert review.default_base(root) == "HEAD~1"
    report = review.build(root, review.default_base(root)).markdown()
    assert "- **added** `mini.never-negative` (model) at docs/guide.md:22: The sum is never negative for `add(2, 3)`." in report
    assert "  - checks: `snippets/mini_01_sum.py:25`" in report
    assert "- **reworded** `mini.limit` (model) at docs/guide.md:16" in report
    assert "  - was: Input is cut at 1,000 characters." in report
    assert "  - now: Input is cut at 1,200 characters." in report
    assert "**unchanged**: the new wording needs `python3 dev.py regen --confirm mini.limit` or a changed check" in report
    assert "| docs/guide.md:15 | 1,000 | 1,200 |" in report
    assert "- docs/guide.md:24: The `add` function always returns an int. _(`add`, always, returns)_" in report
    # The claimed sentence is a claim, not an unmarked promise.
    assert "docs/guide.md:21: The sum" not in report
    assert "refutation reading" not in report  # model claims need none


def test_review_report_asks_a_new_reading_for_a_new_or_reworded_framework_claim(tmp_path):
    """A framework claim's new wording is read against the source by someone else (guidetools/refutation.py)."""
    root = two_commits(tmp_path, lambda text: text.replace("{ #mini.limit .model }", '{ #mini.limit .framework cite="F1" }'),
                       lambda text: cut_at_1200(text) + '\nThe sum is an int.\n{ #mini.sum-type .framework cite="F1" }\n')
    report = review.build(root, "HEAD~1").markdown()
    reading = "  - refutation reading: the new wording needs one in `framework/review.toml`"
    assert report.count(reading) == 2, report
    assert report.index("**reworded** `mini.limit` (framework)") < report.rindex(reading)


class TestStaticContract:
    """Every number in a checked claim is compared by its check; every name in a code span is one agentkit knows.
    (The clean tree: each test below asserts the whole list of problems, so one elsewhere in the tree fails it.)"""

    def test_a_number_no_check_compares_is_named_until_the_check_reads_it_from_the_page(self, mini):
        project = edit(mini, "docs/guide.md", "1,000 characters", "1,200 characters")
        assert [str(problem).split(";")[0] for problem in claimcontract.number_problems(project, claims.collect(project))] == [
            "docs/guide.md:16: mini.limit: '1,200' is not produced or compared by any check",
        ]
        project = edit(project, "snippets/mini_01_sum.py", "assert LIMIT == 1000", "assert stated.numbers('mini.limit', ROOT) == [LIMIT]")
        assert claimcontract.number_problems(project, claims.collect(project)) == []

    def test_stated_numbers_reads_digits_and_words_from_the_page(self, mini):
        project = edit(mini, "docs/guide.md", "Input is cut at 1,000 characters.", "Input is cut at 1,000 characters, three times.")
        assert stated.numbers("mini.limit", project.root) == [1000, 3]

    def test_an_unknown_name_is_named_with_the_closest_known_one(self, mini):
        project = edit(mini, "docs/guide.md", "takes `left` and `right`", "takes `lefft` and `right`, like `searchChunks`")
        found = [str(problem) for problem in claimcontract.name_problems(project, claims.collect(project))]
        assert found[0] == "docs/guide.md:13: mini.add-params: `lefft` names 'lefft', which is no tool, plugin, parameter or field agentkit knows (did you mean 'left'?)"
        # The MCP tool is search_chunks; the agent's method may be spelt SearchChunks: the hint names each spelling agentkit has.
        assert found[1].startswith("docs/guide.md:13: mini.add-params: `searchChunks` names 'searchChunks', which is no tool, plugin, parameter or field agentkit knows (did you mean ")
        assert "'search_chunks'" in found[1] and len(found) == 2

    def test_names_are_read_from_calls_object_shapes_and_plugin_entries(self):
        assert claimcontract.names_in_span("search_chunks(query, scope?, limit=20)") == ["search_chunks", "query", "scope", "limit"]
        assert claimcontract.names_in_span("{count, limit, truncated, hint?}") == ["count", "limit", "truncated", "hint"]
        assert claimcontract.names_in_span('"Mesh:Get,Search"') == ["Mesh", "Get", "Search"]
        assert claimcontract.names_in_span("{collectionPath}/_Documents/{slug}") == ["collectionPath", "slug"]
        assert claimcontract.names_in_span("Annual Report 2024.pdf") == []

    def test_a_name_said_not_to_exist_is_still_checked_when_it_recases_a_known_one(self, mini):
        """"not `Left`" is a typo of `left`, not a name the claim says is absent; "no `Right2`" stays exempt."""
        project = edit(mini, "docs/guide.md", "takes `left` and `right`", "takes `left` and `right`, not `Left` and no `Right2`")
        found = [str(problem) for problem in claimcontract.name_problems(project, claims.collect(project))]
        assert found == ["docs/guide.md:13: mini.add-params: `Left` names 'Left', which is no tool, plugin, parameter or field agentkit knows (did you mean 'left'?)"]
