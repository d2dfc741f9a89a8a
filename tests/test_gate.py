"""guidetools/gate.py and the gate's two xdist workers: real pytest sessions on small projects, run by pytester."""

from __future__ import annotations

import pytest

from guidetools import gate
from guidetools.project import REPO_ROOT

pytest_plugins = ["pytester"]

# What `python3 dev.py test` adds (dev.GATE_WORKERS), with xdist named since autoloading is off.
WORKERS = ["-p", "xdist", "-n", "2", "--dist", "loadscope"]


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    # Only the plugins a session uses: each installed one costs each of xdist's workers up to a second of CPU.
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.setenv("PYTHONPATH", str(REPO_ROOT))  # for xdist's workers, which are processes of their own
    # The jobs a session declares are the module's: they go into a copy, so this run's own jobs stay as they were.
    monkeypatch.setattr(gate, "JOBS", dict(gate.JOBS))
    monkeypatch.setenv("PYTEST_ADDOPTS", "-q -rs -p guidetools.gate")  # (pytester clears the outer run's)
    return pytester


COUNTED_JOB = '''
import sys
from guidetools.gate import background_fixture, summary_line

# Each run of the "build" adds a line to a file beside this conftest.
BUILD = "import pathlib, sys; pathlib.Path(sys.argv[1]).open('a').write('ran\\\\n')"
site = background_fixture("site", lambda workdir: [sys.executable, "-c", BUILD, __file__ + ".runs"])


def pytest_sessionfinish(session):
    summary_line(session.config, "SUMMARY-FROM-" + getattr(session.config, "workerinput", {}).get("workerid", "main"))
'''

WORKERS_TESTS = '''
import pytest

def test_passes(site):
    assert site.ok

def test_fails():
    assert 1 == 2, "PLAIN-FAIL-MARK"

@pytest.mark.parametrize("n", range(3))
def test_more(n, site):
    assert site.ok
'''

GROUP_TESTS = '''
import os
import pytest

# Marked as tests/test_browser.py is; on the gate's workers (--dist loadscope) the module is what keeps it together.
pytestmark = pytest.mark.xdist_group("browser")

@pytest.mark.parametrize("n", range(4))
def test_in_group(n, site):
    print("WORKER", os.environ.get("PYTEST_XDIST_WORKER"))

def test_group_fails():
    assert 1 == 2, "GROUP-FAIL-MARK"
'''


def test_failures_fail_the_run_a_module_shares_a_worker_the_job_runs_once_lf_reruns_the_failures_and_none_exits_5(project):
    project.makepyfile(conftest=COUNTED_JOB, test_plain=WORKERS_TESTS, test_group=GROUP_TESTS)
    first = project.runpytest(*WORKERS, "-rA")
    assert first.ret == 1
    first.assert_outcomes(failed=2, passed=8)
    first.stdout.fnmatch_lines_random(["FAILED test_plain.py::test_fails*", "*PLAIN-FAIL-MARK*",
                                       "FAILED test_group.py::test_group_fails*", "*GROUP-FAIL-MARK*",
                                       "*background jobs: site ran*",
                                       # each worker's summary line reaches the run's (xdist's workeroutput)
                                       "*SUMMARY-FROM-gw0*", "*SUMMARY-FROM-gw1*"])
    workers = {line.split()[1] for line in first.outlines if line.startswith("WORKER ")}
    assert len(workers) == 1 and workers <= {"gw0", "gw1"}, first.outlines
    assert (project.path / "conftest.py.runs").read_text() == "ran\n", "the job ran more than once"

    # Both fixed, each by a change of length: pytest's rewritten bytecode is keyed by the file's mtime and size, and
    # the same second and size would rerun the old assert.
    project.makepyfile(test_plain=WORKERS_TESTS.replace("1 == 2", "2 == 1 + 1"),
                       test_group=GROUP_TESTS.replace("1 == 2", "2 == 1 + 1"))
    again = project.runpytest(*WORKERS, "--lf", "-rA")
    # Only the two failures ran, and a run on workers that passes exits 0 (the workers deselect the rest, so the
    # controller's summary counts no deselected).
    assert again.ret == 0
    again.assert_outcomes(passed=2, deselected=0)
    again.stdout.fnmatch_lines_random(["PASSED test_plain.py::test_fails*", "PASSED test_group.py::test_group_fails*"])

    # On the gate's workers as in one process, pytest's exit code 5 (nothing collected) is not hidden.
    assert project.runpytest(*WORKERS, "-k", "no_test_has_this_name").ret == 5
    assert (project.path / "conftest.py.runs").read_text() == "ran\n", "a run of no test ran the job"


FAILING_JOB = '''
import sys
import pytest
from guidetools.gate import background_fixture, require_success

# A "build" that fails with a recognisable log.
slow_build = background_fixture("slow_build", lambda workdir: [sys.executable, "-c", "print('BUILD-LOG-LINE'); raise SystemExit(3)"])


@pytest.fixture(scope="session")
def built(slow_build):
    require_success(slow_build, "the slow build")
    return slow_build.workdir
'''


@pytest.mark.parametrize("tests, args, code, printed", [
    pytest.param("""
        def test_build_succeeds(slow_build):
            assert slow_build.ok, slow_build.output

        def test_reads_site_1(built): pass
        def test_reads_site_2(built): pass
        def test_reads_site_3(built): pass
    """, (), 1, ["1 failed, 3 skipped", "its log is shown once, by test_it.py::test_build_succeeds"], id="tested"),
    pytest.param("""
        def test_reads_site_1(built): pass
        def test_reads_site_2(built): pass
    """, WORKERS, 1, ["2 skipped", "background job 'slow_build' failed (exit 3)"], id="no test reports it, on workers"),
    pytest.param("""
        def test_build_fails_as_planted(slow_build):
            assert not slow_build.ok and "BUILD-LOG-LINE" in slow_build.output
    """, (), 0, [], id="a planted defect: expected by a passing test"),
])
def test_failed_job_log_is_shown_once_and_the_run_fails(project, tests, args, code, printed):
    """The log shows once, by the job's test or else in the summary; a planted defect's passing test shows none."""
    project.makepyfile(conftest=FAILING_JOB, test_it=tests)
    result = project.runpytest(*args)
    output = result.stdout.str()
    assert result.ret == code, output
    assert output.count("BUILD-LOG-LINE") == (1 if code else 0), output
    assert code or "background job 'slow_build' failed" not in output, output
    for text in printed:
        assert text in output


EARLY_PROJECT = '''
import sys
from pathlib import Path

from guidetools.gate import background_fixture

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


def test_plain_gate_starts_the_declared_jobs_before_collection_and_a_narrowed_run_after(project, monkeypatch):
    project.makeini("[pytest]\ntestpaths = .\n")
    project.makepyfile(conftest=EARLY_PROJECT, test_slow_to_collect=SLOW_TO_COLLECT)
    monkeypatch.setattr(gate, "JOBS", {})  # in this process the plain gate would start this run's own jobs too
    with monkeypatch.context() as waiting:
        waiting.setenv("WAIT_FOR_THE_JOB", "1")
        plain = project.runpytest("-s")
    assert plain.ret == 0
    plain.stdout.fnmatch_lines(["*STARTED BEFORE COLLECTION ENDED*"])
    # Collection does not wait here: a job that started only after it writes a later stamp.
    named = project.runpytest("-s", "test_slow_to_collect.py")
    assert named.ret == 0
    named.stdout.fnmatch_lines(["*STARTED AFTER COLLECTION ENDED*"])

