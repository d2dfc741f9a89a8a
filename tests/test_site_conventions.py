"""The pieces behind the site's conventions and `dev.py serve`, checked without a build (issue 13): the link checker,
the date plugin's fallback outside a clone, and serve's wrapper. What a reader sees is the browser suite's (the
claims page's missing edit link: tests/claimcheck/test_mkdocs_plugin.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from guidetools import siteconfig
from guidetools.project import REPO_ROOT
from guidetools.sitelinks import link_problems, served_root_path

def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_link_checker_reports_missing_files_and_anchors_and_links_outside_the_root_path(tmp_path: Path):
    """Relative links resolve from their page; a 404 page's `/guide/...` links from the site's root path."""
    write(tmp_path / "index.html", '<h1 id="top">Home</h1>\n<a href="part/">ok</a>\n<a href="part/#sub">ok</a>\n'
                                   '<a href="gone/">bad</a>\n<a href="part/#nowhere">bad</a>\n<a href="https://example.org/">x</a>')
    write(tmp_path / "part" / "index.html", '<h2 id="sub">Part</h2><a href="../#top">up</a>')
    write(tmp_path / "assets" / "main.css", "")
    write(tmp_path / "404.html", '<a href="/guide/">home</a><a href="/guide/#top">top</a><link><a href="/guide/assets/main.css">css</a>'
                                 '<a href="/guide">bare root</a><a href="/elsewhere/">outside</a><a href="/guide/#nowhere">bad anchor</a>')
    root = served_root_path("https://example.org/guide/")
    assert root == "/guide/"
    assert sorted(str(problem) for problem in link_problems(tmp_path, root)) == [
        "404.html:1: link '/elsewhere/' points outside the site's root path /guide/",
        "404.html:1: link '/guide/#nowhere' points at a missing anchor '#nowhere'",
        "index.html:4: link 'gone/' points at a missing file",
        "index.html:5: link 'part/#nowhere' points at a missing anchor '#nowhere'",
    ]


def test_last_update_date_falls_back_to_the_build_date_outside_a_clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """With mkdocs.yml's options, a page outside any git repository gets the current time, and no warning fails the strict build."""
    from mkdocs_git_revision_date_localized_plugin.util import Util

    [options] = [entry["git-revision-date-localized"] for entry in siteconfig.load()["plugins"]
                 if isinstance(entry, dict) and "git-revision-date-localized" in entry]
    assert options.get("fallback_to_build_date") is True
    # A page not committed yet logs at info level: the strict build must not fail on it.
    assert options.get("strict") is False
    page = tmp_path / "page.md"
    write(page, "# A page\n")
    # GIT_CEILING_DIRECTORIES stops git from finding a repository above the temporary folder.
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    before = time.time()
    util = Util(config={"enable_git_follow": True, **options}, mkdocs_dir=str(tmp_path))
    _, timestamp = util.get_git_commit_timestamp(str(page))
    assert before - 1 <= timestamp <= time.time() + 1


# --- dev.py serve: signals reach the server, the kernel's warning does not reach the reader ------------------

# A stand-in for `mkdocs serve`: says its pid, writes the kernel's warning and a line of its own, then
# serves until a signal ends it, and says which one.
SERVER = textwrap.dedent("""
    import os, signal, sys, time
    def stop(number, frame):
        print(f"stopped by {signal.Signals(number).name}", file=sys.stderr, flush=True)
        sys.exit(0)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop) if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN else None
    print(os.getpid(), flush=True)
    print("[IPKernelApp] WARNING | Kernel is running over TCP without encryption. All communication ...", file=sys.stderr, flush=True)
    print("INFO    -  Serving on http://127.0.0.1:8000/", file=sys.stderr, flush=True)
    time.sleep(60)
""")
WRAPPER = "import sys, dev; sys.exit(dev.run_forwarding_signals([sys.executable, '-c', sys.argv[1]], dict(__import__('os').environ), dev.KERNEL_TCP_WARNING))"


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_serve_hands_a_stop_signal_to_the_server_and_drops_the_kernel_warning(stop_signal: signal.Signals):
    """Signalling dev.py's pid stops the server it runs, even when dev.py was started with SIGINT ignored; the kernel's TCP warning is not shown."""
    wrapper = subprocess.Popen(
        [sys.executable, "-c", WRAPPER, SERVER], cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        # As a shell starts a background job: SIGINT ignored, inherited by everything it starts.
        text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        server_pid = int(wrapper.stdout.readline())
        # The server's own line has passed the filter once it shows: the warning before it was dropped.
        assert "Serving on" in wrapper.stderr.readline()
        wrapper.send_signal(stop_signal)
        assert wrapper.wait(timeout=20) == 0
        rest = wrapper.stderr.read()
    finally:
        wrapper.kill()
    assert f"stopped by {stop_signal.name}" in rest
    assert "without encryption" not in rest
    with pytest.raises(ProcessLookupError):
        os.kill(server_pid, 0)
