"""claimcheck's pytest plugin on a project that is not the guide, run by pytester in this process."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

SETTINGS = """
[pytest]
claims_snippets = snippets
claims_pages = docs
pythonpath = .
addopts = -p no:cacheprovider
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    # Only the plugin under test (and those a test names with -p): each installed one costs every run its import.
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.setenv("PYTEST_PLUGINS", "claimcheck.pytest_plugin")
    pytester.makeini(SETTINGS)
    return pytester


def test_a_snippet_runs_as_one_test_and_each_pycon_example_of_the_pages_as_a_doctest(project: pytest.Pytester):
    """A print that differs from its `#>` line fails showing both; a wrong pycon output fails its example."""
    project.makepyfile(**{"snippets/adds": "print(1 + 1)\n#> 2\n", "snippets/miscounts": "print(1 + 2)\n#> 4\n"})
    project.makefile(".md", **{"docs/page": """
        # A page

        ```pycon
        >>> 1 + 1
        2
        >>> 2 + 2
        5
        ```
    """})
    result = project.runpytest()
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(["snippets/miscounts.py:2: *differ*", "Expected:", "    4", "Got:", "    3", "*regen --outputs*"])
    result.stdout.fnmatch_lines(["FAILED docs/page.md::*"])


def test_a_project_without_the_settings_is_left_alone(pytester: pytest.Pytester):
    pytester.makepyfile(**{"snippets/checks": "assert False\n"})
    pytester.makefile(".md", page="```pycon\n>>> 1\n2\n```\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "snippets", "page.md")
    result.assert_outcomes()


# Each example needs the names the ones before it defined; the last checks their order and worker.
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


@pytest.mark.parametrize("distribution", [("-p", "xdist", "-n", "2"), ("-p", "xdist", "-n", "2", "--dist", "loadscope"), ()],
                         ids=lambda args: " ".join(args) or "no xdist")
def test_a_pages_examples_run_in_one_process_in_page_order(project: pytest.Pytester, distribution):
    """In one process and on real workers (`-n 2` alone is `--dist load`, which the plugin runs as loadgroup; loadscope
    is the gate's), each page's examples run in one process, in order."""
    project.makefile(".md", **{f"docs/{name}": ORDERED_PAGE for name in ("first", "second", "third")})
    result = project.runpytest(*distribution)
    result.assert_outcomes(passed=15)


def test_the_modes_that_ignore_groups_run_as_loadgroup_and_the_others_as_given(project: pytest.Pytester):
    """worksteal ignores groups as load does, so the plugin runs both as loadgroup (whose run on workers is above);
    loadgroup and loadscope stay as given."""
    modes = ("load", "worksteal", "loadgroup", "loadscope")
    chosen = {mode: project.parseconfigure("-p", "xdist", "-n", "2", "--dist", mode).option.dist for mode in modes}
    assert chosen == {"load": "loadgroup", "worksteal": "loadgroup", "loadgroup": "loadgroup", "loadscope": "loadscope"}


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


AT_THE_ASSERT = 'capture("answer.md", f"Create answers {answer}")\ncreate("a")\n'
REFUSED = "*'answer.md'*would render*after the snippet's state has moved on*"


@pytest.mark.parametrize("capture, committed, failure", [
    (AT_THE_ASSERT, "created", None),
    (AT_THE_ASSERT, "exists", "*captured output is stale: snippets/output/answer.md*"),
    # Rendered later by a function that calls the tool again, it would show 'exists' beside an assert of 'created'.
    ('CAPTURES = {"answer.md": lambda: f"Create answers {create(\'a\')}"}\n', "exists", REFUSED),
    ('capture("answer.md", lambda: f"Create answers {create(\'a\')}")\n', "exists", REFUSED),
], ids=["current", "stale", "CAPTURES dict refused", "capture of a function refused"])
def test_a_capture_is_recorded_where_its_listing_runs(project: pytest.Pytester, capture, committed, failure):
    project.makepyfile(**{"snippets/creates": STATEFUL_TOOL + capture})
    # (makefile would strip the newline the capture writes)
    project.mkdir("snippets/output").joinpath("answer.md").write_text(f"Create answers {committed}\n", encoding="utf-8")
    result = project.runpytest()
    result.assert_outcomes(passed=0 if failure else 1, failed=1 if failure else 0)
    if failure:
        result.stdout.fnmatch_lines([failure])


CLAIM_CHECKED = """
    from claimcheck import stated

    # verifies: adder.adds
    assert stated.numbers("adder.adds") == [2, 2, 4]
    total = 2 + 2
    # verifies: adder.adds
    assert total == 5
"""


@pytest.mark.parametrize("page, snippet, named", [
    (b"# A page\n\nThe adder adds 2 and 2 to 4.\n{ #adder.adds .model }\n", CLAIM_CHECKED,
     "adder.adds: stated at docs/page.md:4, checked at snippets/adds.py:7"),
    # Naming the claims once raised inside pytest's report hook: an INTERNALERROR, and no failure shown.
    (b"# Caf\xe9\n", "total = 2 + 2\nassert total == 5\n", "the claims it breaks cannot be named: docs/page.md: not UTF-8 text (*"),
], ids=["a check reads its claim's numbers", "a page that is not UTF-8"])
def test_a_failing_check_shows_its_values_and_names_the_claim_it_breaks(project: pytest.Pytester, page, snippet, named):
    """The snippet's asserts are rewritten as a test module's are; the claim is named with where it is stated and checked."""
    project.mkdir("docs").joinpath("page.md").write_bytes(page)
    project.makepyfile(**{"snippets/adds": snippet})
    result = project.runpytest("snippets")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*assert 4 == 5*", "*broken claims*", named])
    result.stdout.no_fnmatch_line("*INTERNALERROR*")
