"""tools/gate.py: the gate runs the cheap checks first, and a failed background job is reported once."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

from tools import gate
from tools.project import REPO_ROOT

FAILING_JOB = '''
import sys
import pytest
from tools.gate import background_fixture, require_success

# A "build" that fails with a recognisable log.
slow_build = background_fixture("slow_build", lambda workdir: [sys.executable, "-c", "print('BUILD-LOG-LINE'); raise SystemExit(3)"])


@pytest.fixture(scope="session")
def built(slow_build):
    require_success(slow_build, "the slow build")
    return slow_build.workdir
'''


# The sessions load only the gate plugin: the installed plugins (Hypothesis, anyio, ...) would cost
# each of them about a second of CPU, and none of these sessions uses them.
SESSION_ENV = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


def run_session(tmp_path: Path, tests: str) -> subprocess.CompletedProcess:
    (tmp_path / "conftest.py").write_text(FAILING_JOB, encoding="utf-8")
    (tmp_path / "test_it.py").write_text(textwrap.dedent(tests), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "tools.gate", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True,
        env=SESSION_ENV,
    )


def test_failed_job_log_is_shown_once_and_dependents_skip_with_a_pointer(tmp_path):
    """The test that checks the job shows its log; each dependent test skips in one line naming that test."""
    result = run_session(tmp_path, """
        def test_build_succeeds(slow_build):
            assert slow_build.ok, slow_build.output

        def test_reads_site_1(built): pass
        def test_reads_site_2(built): pass
        def test_reads_site_3(built): pass
    """)
    assert result.returncode == 1
    assert result.stdout.count("BUILD-LOG-LINE") == 1, result.stdout
    assert "1 failed, 3 skipped" in result.stdout
    assert "its log is shown once, by test_it.py::test_build_succeeds" in result.stdout


def test_failed_job_that_no_test_reports_still_fails_the_session(tmp_path):
    """When only dependents ran, they skip, and the summary shows the log once and the exit code is 1."""
    result = run_session(tmp_path, """
        def test_reads_site_1(built): pass
        def test_reads_site_2(built): pass
    """)
    assert result.returncode == 1, result.stdout
    assert "2 skipped" in result.stdout
    assert "background job 'slow_build' failed (exit 3)" in result.stdout
    assert result.stdout.count("BUILD-LOG-LINE") == 1, result.stdout


def test_tiers_put_contracts_first_and_the_browser_last():
    """Contracts, then snippets and pages, then unit tests, then tests of the build, then the browser suite."""
    def item(path: str, *fixtures: str):
        return SimpleNamespace(path=REPO_ROOT / path, fixturenames=list(fixtures))

    items = [
        item("tests/test_browser.py", "site"),
        item("tests/test_site_build.py", "site_build"),
        item("tests/test_mesh.py"),
        item("snippets/mesh_plugin_01_tools.py"),
        item("docs/AI/AgentDesign.md"),
        item("tests/test_docs_contracts.py"),
    ]
    ordered = sorted(items, key=gate.tier)
    assert [Path(i.path).name for i in ordered] == [
        "test_docs_contracts.py", "mesh_plugin_01_tools.py", "AgentDesign.md", "test_mesh.py", "test_site_build.py", "test_browser.py",
    ]


def test_failed_job_that_a_passing_test_expected_is_not_reported_again(tmp_path):
    """A planted defect: the job is meant to fail and its test passes; the session passes, no log is printed."""
    result = run_session(tmp_path, """
        def test_build_fails_as_planted(slow_build):
            assert not slow_build.ok and "BUILD-LOG-LINE" in slow_build.output
    """)
    assert result.returncode == 0, result.stdout
    assert "background job 'slow_build' failed" not in result.stdout


def test_jobs_run_one_at_a_time_in_the_order_given_and_a_needed_one_starts_at_once(tmp_path):
    """With one free core the jobs run in turn; a test that needs a queued job starts it without waiting."""
    from tools.background import Jobs

    jobs = Jobs(tmp_path, parallel=1)
    sleeper = [sys.executable, "-c", "import time; time.sleep(0.5)"]
    for name in ("first", "second", "needed-now"):
        jobs.define(name, lambda workdir: sleeper)
    jobs.start_in_order(["first", "second", "needed-now"])
    result = jobs.jobs["needed-now"].result()
    assert result.ok and result.seconds < 1.4, "the needed job waited for the queue"
    first, second = jobs.jobs["first"].result(), jobs.jobs["second"].result()
    assert first.ok and second.ok
    assert jobs.jobs["second"]._started >= jobs.jobs["first"]._started + first.seconds - 0.05, "the second job overlapped the first"
    jobs.stop_all()


EARLY_PROJECT = '''
import sys
from pathlib import Path

from tools.gate import background_fixture

STAMP = "import pathlib, sys, time; pathlib.Path(sys.argv[1]).write_text(repr(time.time()))"
build = background_fixture("build", lambda workdir: [sys.executable, "-c", STAMP, str(Path(__file__).parent / "started")])
'''

SLOW_TO_COLLECT = '''
import os
import time
from pathlib import Path

STARTED = Path(__file__).parent / "started"
# Asked to, collection lasts until the job has started (at most 10 s): a job started early writes its stamp meanwhile.
deadline = time.time() + 10
while os.environ.get("WAIT_FOR_THE_JOB") and not STARTED.exists() and time.time() < deadline:
    time.sleep(0.01)
COLLECTED = time.time()


def test_build_started(build):
    started = float(STARTED.read_text())
    print(f"STARTED {'BEFORE' if started < COLLECTED else 'AFTER'} COLLECTION ENDED")
'''


def test_plain_gate_starts_the_declared_jobs_before_collection_and_a_narrowed_run_after(tmp_path):
    """Run with no paths, -k or -m, the gate starts the jobs the conftests declare at once, while collection runs on
    one core; a run that names its tests starts a job only once collection shows a test needs it."""
    (tmp_path / "pytest.ini").write_text("[pytest]\ntestpaths = .\n", encoding="utf-8")
    (tmp_path / "conftest.py").write_text(EARLY_PROJECT, encoding="utf-8")
    (tmp_path / "test_slow_to_collect.py").write_text(SLOW_TO_COLLECT, encoding="utf-8")
    command = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "tools.gate", "-p", "no:cacheprovider"]
    plain = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env={**SESSION_ENV, "WAIT_FOR_THE_JOB": "1"})
    assert plain.returncode == 0 and "STARTED BEFORE COLLECTION ENDED" in plain.stdout, plain.stdout
    # Collection does not wait here: a job that started only after it writes a later stamp.
    named = subprocess.run([*command, "test_slow_to_collect.py"], cwd=tmp_path, capture_output=True, text=True, env=SESSION_ENV)
    assert named.returncode == 0 and "STARTED AFTER COLLECTION ENDED" in named.stdout, named.stdout


REMOTE_PROJECT = '''
import sys
from pathlib import Path

import pytest

import tools.gate
from tools.gate import background_fixture, require_success

# This folder's test_slow.py plays the browser suite.
tools.gate.BROWSER_SUITE = Path(__file__).parent / "test_slow.py"
BUILD = "import pathlib, sys; pathlib.Path(sys.argv[1], 'runs').open('a').write('ran;'); raise SystemExit(int(sys.argv[2]))"
site = background_fixture("site", lambda workdir: [sys.executable, "-c", BUILD, str(workdir), "{exit_code}"])


@pytest.fixture(scope="session")
def built(site):
    require_success(site, "the site")
    return site.workdir
'''

SLOW_TESTS = '''
import os

import pytest

def test_runs_in_the_child(built):
    assert os.environ.get("GATE_REMOTE_CHILD") == "1"
    assert (built / "runs").read_text() == "ran;"

def test_fails(built):
    assert 1 == 2, "REMOTE-FAIL-MARK"

def test_skips(built):
    pytest.skip("REASON-X")

@pytest.mark.parametrize("n", [1, 2])
def test_parametrized(built, n):
    assert n in (1, 2)
'''


def run_remote_session(tmp_path: Path, exit_code: int) -> subprocess.CompletedProcess:
    (tmp_path / "conftest.py").write_text(REMOTE_PROJECT.replace("{exit_code}", str(exit_code)), encoding="utf-8")
    (tmp_path / "test_slow.py").write_text(SLOW_TESTS, encoding="utf-8")
    (tmp_path / "test_fast.py").write_text("def test_fast():\n    pass\n", encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-ra", "-p", "tools.gate", "-p", "no:cacheprovider",
         str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, env=SESSION_ENV,
    )


def test_browser_suite_runs_in_a_second_process_and_each_result_is_reported_under_its_own_id(tmp_path):
    """The slow file runs in a child pytest process once the job it needs is done; the job runs once, here."""
    result = run_remote_session(tmp_path, exit_code=0)
    assert result.returncode == 1, result.stdout
    assert "1 failed, 4 passed, 1 skipped" in result.stdout, result.stdout
    # The child's failure is shown once, by its test (pytest's short summary may quote it again, as in CI);
    # the summary does not print the child's whole log again.
    failures = result.stdout.split("short test summary info")[0]
    assert failures.count('>       assert 1 == 2, "REMOTE-FAIL-MARK"') == 1, result.stdout
    assert "background job 'browser_suite' failed" not in result.stdout, result.stdout
    assert "FAILED test_slow.py::test_fails" in result.stdout and "REMOTE-FAIL-MARK" in result.stdout
    assert "(run in the background by browser_suite)" in result.stdout
    assert "REASON-X" in result.stdout
    assert "browser_suite ran" in result.stdout
    runs = list(tmp_path.glob("**/runs"))
    assert not runs or all(path.read_text() == "ran;" for path in runs), "the job ran again in the child"


def test_browser_suite_is_not_started_when_the_job_it_needs_failed(tmp_path):
    """Its tests skip with the one-line pointer; the job's failure is still reported once."""
    result = run_remote_session(tmp_path, exit_code=3)
    assert result.returncode == 1, result.stdout
    assert "1 passed, 5 skipped" in result.stdout, result.stdout
    assert "the background job 'site' failed (exit 3)" in result.stdout
    assert "background job 'site' failed (exit 3)" in result.stdout
    assert "browser_suite ran" not in result.stdout
