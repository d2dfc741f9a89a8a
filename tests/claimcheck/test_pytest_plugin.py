"""claimcheck's pytest plugin on a project that is not the guide, run by pytester in this process (xdist's workers
are processes of their own)."""

from __future__ import annotations

import textwrap

import pytest

pytest_plugins = ["pytester"]

SETTINGS = """
[pytest]
claims_snippets = snippets
claims_pages = docs
pythonpath = .
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    # Only the plugin under test (and those a test names with -p): each installed one costs every run its import.
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.setenv("PYTEST_PLUGINS", "claimcheck.pytest_plugin")
    pytester.makeini(SETTINGS)
    for folder in ("snippets", "docs"):
        pytester.mkdir(folder)
    return pytester


def write(pytester: pytest.Pytester, path: str, text: str) -> None:
    (pytester.path / path).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")


def test_a_snippet_runs_as_one_test_and_each_pycon_example_of_the_pages_as_a_doctest(project: pytest.Pytester):
    """A snippet whose print matches its `#>` line passes; one whose print differs fails and shows both. Each `>>>`
    example of a ```pycon block is a test; a wrong expected output fails it."""
    write(project, "snippets/adds.py", "print(1 + 1)\n#> 2\n")
    write(project, "snippets/miscounts.py", "print(1 + 2)\n#> 4\n")
    write(project, "docs/page.md", """
        # A page

        ```pycon
        >>> 1 + 1
        2
        >>> 2 + 2
        5
        ```
    """)
    result = project.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(["snippets/miscounts.py:2: *differ*", "Expected:", "    4", "Got:", "    3", "*regen --outputs*"])
    result.stdout.fnmatch_lines(["FAILED docs/page.md::*"])


def test_a_project_without_the_settings_is_left_alone(pytester: pytest.Pytester):
    """Without `claims_snippets` and `claims_pages` the plugin collects nothing of its own."""
    pytester.mkdir("snippets")
    write(pytester, "snippets/checks.py", "assert False\n")
    write(pytester, "page.md", "```pycon\n>>> 1\n2\n```\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "snippets", "page.md")
    result.assert_outcomes()


# Each example records its place and the worker it ran on; every example after the first needs the names
# the ones before it defined, and the last one checks the order and the worker.
ORDERED_PAGE = """
    # A page whose examples build on each other

    ```pycon
    >>> import os
    >>> ran = [(1, os.environ.get("PYTEST_XDIST_WORKER"))]
    ```

    Text between the blocks.

    ```pycon
    >>> ran.append((2, os.environ.get("PYTEST_XDIST_WORKER")))
    >>> ran.append((3, os.environ.get("PYTEST_XDIST_WORKER")))
    >>> [place for place, _ in ran], len({worker for _, worker in ran})
    ([1, 2, 3], 1)
    ```
"""


@pytest.mark.parametrize("distribution", [
    ("-p", "xdist", "-n", "2", "--dist", "loadgroup"), ("-p", "xdist", "-n", "2"),
    ("-p", "xdist", "-n", "2", "--dist", "worksteal"), ("-p", "xdist", "-n", "2", "--dist", "loadscope"), ()],
    ids=lambda args: " ".join(args) or "no xdist")
def test_a_pages_examples_run_in_one_process_in_page_order(project: pytest.Pytester, distribution):
    """Three pages whose later examples need the earlier ones pass on two workers whatever the scheduling says
    (`-n 2` alone is `--dist load`): each page's examples ran on one worker, in page order."""
    for name in ("first", "second", "third"):
        write(project, f"docs/{name}.md", ORDERED_PAGE)
    result = project.runpytest("-p", "no:cacheprovider", *distribution)
    result.assert_outcomes(passed=15)


# A tool whose answer depends on state that the snippet changes after its assert.
STATEFUL_TOOL = """\
from claimcheck import capture

made = set()

def create(path):
    answer = "exists" if path in made else "created"
    made.add(path)
    return answer

answer = create("a")
assert answer == "created"
"""


def test_a_capture_is_recorded_where_its_listing_runs(project: pytest.Pytester):
    """The text given to capture() at the assert's line is what the committed file is compared with."""
    write(project, "snippets/creates.py", STATEFUL_TOOL + 'capture("answer.md", f"Create answers {answer}")\ncreate("a")\n')
    project.mkdir("snippets/output")
    write(project, "snippets/output/answer.md", "Create answers created\n")
    project.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    write(project, "snippets/output/answer.md", "Create answers exists\n")
    result = project.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*captured output is stale: snippets/output/answer.md*"])


@pytest.mark.parametrize("deferred", [
    'CAPTURES = {"answer.md": lambda: f"Create answers {create(\'a\')}"}\n',
    'capture("answer.md", lambda: f"Create answers {create(\'a\')}")\n',
], ids=["CAPTURES dict", "capture of a function"])
def test_a_capture_that_would_rerun_a_tool_after_the_state_moved_on_is_refused(project: pytest.Pytester, deferred: str):
    """A capture rendered later, by a function that calls the tool again, is refused, naming the capture;
    run then, it would show 'exists' beside an assert that checked 'created'."""
    write(project, "snippets/creates.py", STATEFUL_TOOL + deferred)
    project.mkdir("snippets/output")
    write(project, "snippets/output/answer.md", "Create answers exists\n")
    result = project.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*'answer.md'*would render*after the snippet's state has moved on*"])


def test_a_failing_check_shows_its_values_names_the_claim_it_breaks_and_a_check_reads_the_claims_numbers(
        project: pytest.Pytester):
    """On a project of its own, a snippet's check reads the number its claim states (claimcheck.stated), and when
    it fails the report shows the compared values (the snippet's asserts are rewritten as a test module's are) and
    names the claim, where the page states it and where the check is."""
    write(project, "docs/page.md", """
        # A page

        The adder adds 2 and 2 to 4.
        { #adder.adds .model }
        """)
    write(project, "snippets/adds.py", """
        from claimcheck import stated

        # verifies: adder.adds
        assert stated.numbers("adder.adds") == [2, 2, 4]
        total = 2 + 2
        # verifies: adder.adds
        assert total == 5
        """)
    result = project.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*assert 4 == 5*", "*broken claims*",
                                 "adder.adds: stated at docs/page.md:4, checked at snippets/adds.py:7"])


def test_a_failure_is_reported_when_a_page_cannot_be_read(project: pytest.Pytester):
    """A page that is not UTF-8 leaves the claims a failure breaks unnamed, saying which page; the failure itself is
    reported (naming the claims had raised inside pytest's report hook: INTERNALERROR, and no failure shown)."""
    (project.path / "docs/page.md").write_bytes(b"# Caf\xe9\n")
    write(project, "snippets/fails.py", "total = 2 + 2\nassert total == 5\n")
    result = project.runpytest("-p", "no:cacheprovider", "snippets")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*assert 4 == 5*", "*broken claims*",
                                 "the claims it breaks cannot be named: docs/page.md: not UTF-8 text (*"])
    result.stdout.no_fnmatch_line("*INTERNALERROR*")
