#!/usr/bin/env python3
"""Set up and run the guide with nothing but python3.

    python3 dev.py serve   build and serve the site on http://127.0.0.1:8000
    python3 dev.py test    the whole gate (pytest on two workers: tests, snippets, pages, strict build, browser);
                           pytest arguments pass through: dev.py test -x -k chunks tests/test_mesh.py, --lf
    python3 dev.py build OUT   the site as it is published: the strict build (the notebook executed) into OUT,
                           the same command the gate checks and the Pages workflow deploys
    python3 dev.py check   the fast loop (its time: bench/README.md): contracts, claims, snippets and pages' pycon
                           examples, without the strict build or the browser
    python3 dev.py regen   rewrite the generated files (claims page, captured output, claims lock);
                           --outputs also rewrites '#>' lines and pycon outputs, --confirm ID accepts
                           a reworded claim
    python3 dev.py prose [SITE]   how the four pages read: prose words, sentence lengths, longest paragraph and claim,
                           against the targets (CONTRIBUTING.md); SITE is a built site (default: a plain build)
    python3 dev.py screenshots   whole-page screenshots of every page at 1280 and 390 px, in build/screenshots/
                           (the gate writes the first screen only)
    python3 dev.py review [BASE]   Markdown review report of a doc change (default: merge base with main)
    python3 dev.py mutate [PAGE ...]   docs mutation testing: change each number and name in checked claims
    python3 dev.py bench [--write] [NAME ...]   measure the speed figures (bench/bench_NAME.py);
                           --write records them in bench/README.md
    python3 dev.py export --meshweaver OUT   write the pages in the framework's documentation format under OUT
    python3 dev.py upstream --source DIR [--ref REF]   check the framework citations against its source
    python3 dev.py errata --source DIR [--ref REF] [--out FILE] [--patch FILE]
                           errata of the framework's own pages: an upstream issue (Markdown) and a patch
    python3 dev.py mcp [--port N] [--stdio]            serve agentkit over MCP on http://127.0.0.1:8765/mcp
    python3 dev.py conform --url URL [--header H] [--namespace NS]   check the tool claims over MCP

Every command first makes sure `.venv/` exists and holds exactly the pins of
requirements.txt and the checkout, installed editable; it reinstalls only when
requirements.txt or pyproject.toml changed.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
REQUIREMENTS = ROOT / "requirements.txt"
PYPROJECT = ROOT / "pyproject.toml"
BROWSER_SUITE = ROOT / "tests" / "test_browser.py"
STAMP = VENV / ".requirements.sha256"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


def ensure_environment() -> None:
    """Create the venv, install the pins and the checkout itself, unless the stamp says they are current."""
    if not PYTHON.exists():
        print(f"dev.py: creating {VENV.relative_to(ROOT)}/", flush=True)
        venv.create(VENV, with_pip=True)
    # The project's metadata (its entry points) is installed too: a change to either file reinstalls.
    wanted = hashlib.sha256(REQUIREMENTS.read_bytes() + PYPROJECT.read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    pins = [line for line in REQUIREMENTS.read_text().splitlines() if line[:1].isalnum()]
    print(f"dev.py: installing the {len(pins)} pins of requirements.txt into .venv/ (a minute or two the first time)", flush=True)
    # pip's own lines (Collecting / Installing / Successfully installed) are the progress report.
    # The pins carry hashes, so pip checks every file it installs against them.
    pip = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off"]
    subprocess.run([*pip, "-r", str(REQUIREMENTS)], check=True)
    # The checkout, editable: `import agentkit` works in pytest, in mkdocs and in the notebook kernel
    # alike with no build step, and the entry points (the pytest and MkDocs plugins) are registered.
    # Its dependencies are the pins just installed.
    subprocess.run([*pip, "--no-deps", "--editable", str(ROOT)], check=True)
    # The .pth file that stood in for this install before.
    _site_packages().joinpath("agent-design-guide.pth").unlink(missing_ok=True)
    STAMP.write_text(wanted + "\n")


def _site_packages() -> Path:
    return Path(subprocess.run(
        [str(PYTHON), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip())


def keep_bytecode() -> None:
    """Let Python cache the checkout's compiled modules, under .venv/pycache (never in the tree).

    Where PYTHONDONTWRITEBYTECODE is set (this project's machines set it), every process of the gate
    (pytest with its assertion rewriting, the builds, the notebook kernel, the MCP servers) compiled
    agentkit, guidetools/ and the tests anew on every run: about 2 s of CPU in pytest's collection alone.
    """
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(VENV / "pycache"))


def run(*command: str) -> int:
    """Run a command from the venv in the repository root and return its exit code."""
    return subprocess.run(command, cwd=ROOT).returncode


# Two pytest-xdist workers, each test module (and each page's examples) on one of them: the browser suite is one
# module, so one worker runs it while the other runs the rest (guidetools/gate.py), and what a module builds once
# is built in one process, not in both. Options given after these win: `dev.py test -n 0` runs in one process.
GATE_WORKERS = ["-n", "2", "--dist", "loadscope"]


def check(rest: list[str]) -> int:
    """The docs checks without the build or the browser: tests/test_docs_*.py, snippets/, docs/.

    Paths among the arguments replace those, in one pytest process; every other argument goes to pytest as
    it is. Without paths the checks run in three parts at once, forked from one process that has read the
    generated report, and their reports follow each other (guidetools/check.py). They leave pytest's cache
    alone (the parts would overwrite each other's last failures): `dev.py test --lf` reruns.
    """
    pytest = [str(PYTHON), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not build and not browser", *rest]
    if any(not arg.startswith("-") and (ROOT / arg.split("::")[0]).exists() for arg in rest):
        return run(*pytest)
    return run(str(PYTHON), "-m", "guidetools.check", *rest)


# The kernel that executes the notebook warns on every build that it talks TCP to nbclient on
# 127.0.0.1; the message names no action for a reader of the guide, so serve drops that one line.
KERNEL_TCP_WARNING = "Kernel is running over TCP without encryption"
FORWARDED_SIGNALS = (signal.SIGINT, signal.SIGTERM) + ((signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ())


def serve(rest: list[str]) -> int:
    """`mkdocs serve` on 127.0.0.1:8000, quiet about Material's end-of-life box and the kernel's TCP warning."""
    command = [str(BIN / "mkdocs"), "serve", "--dev-addr", "127.0.0.1:8000", *rest]
    env = {**os.environ, **BUILD_ENV}
    return run_forwarding_signals(command, env, drop=KERNEL_TCP_WARNING)


def run_forwarding_signals(command: list[str], env: dict[str, str], drop: str) -> int:
    """Run a server as a child that gets every stop signal dev.py gets; its stderr lines containing `drop` are left out.

    The child runs in its own process group, so Ctrl-C reaches it once (forwarded by dev.py), and on
    Linux it is also told to stop when dev.py dies without a chance to forward (SIGKILL).
    """
    child = subprocess.Popen(
        command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True, errors="replace", bufsize=1,
        preexec_fn=_prepare_child if os.name == "posix" else None,
        **({"process_group": 0} if os.name == "posix" else {}),
    )
    for number in FORWARDED_SIGNALS:
        signal.signal(number, lambda received, frame: child.send_signal(received))
    for line in child.stderr or ():
        if drop not in line:
            sys.stderr.write(line)
            sys.stderr.flush()
    return child.wait()


def _prepare_child() -> None:
    # A shell starts background jobs with SIGINT ignored, and an ignored signal stays ignored in
    # the child: MkDocs would never see the Ctrl-C dev.py forwards. The child starts with defaults.
    for number in FORWARDED_SIGNALS:
        signal.signal(number, signal.SIG_DFL)
    if sys.platform == "linux":
        import ctypes

        PR_SET_PDEATHSIG = 1  # the kernel sends the child SIGTERM when dev.py dies, even by SIGKILL
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def build_command(out: Path) -> list[str]:
    """The site as it is published: MkDocs' strict build into `out` (the gate's strict build is this command)."""
    return [str(PYTHON), "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)]


# Material's "MkDocs 2.0" end-of-life box, switched off for every build and serve.
BUILD_ENV = {"NO_MKDOCS_2_WARNING": "1"}


def build(rest: list[str]) -> int:
    """`dev.py build OUT`: what .github/workflows/guide.yml deploys to GitHub Pages, built here."""
    if len(rest) != 1 or rest[0].startswith("-"):
        print("usage: python3 dev.py build OUT   (OUT: the folder the site is written to, emptied first)", file=sys.stderr)
        return 2
    # OUT is read from the caller's folder; MkDocs runs from the root, where the snippet paths resolve.
    out = Path(rest[0]).resolve()
    return subprocess.run(build_command(out), cwd=ROOT, env={**os.environ, **BUILD_ENV}).returncode


def replace_with(*command: str) -> int:
    """Become the command (same process id), so Ctrl-C and SIGTERM reach a long-running server directly."""
    os.chdir(ROOT)
    os.execv(command[0], list(command))
    return 0  # not reached


def main(argv: list[str]) -> int:
    commands = {
        "build": build,
        "check": check,
        "serve": serve,
        "export": lambda rest: run(str(PYTHON), "-m", "guidetools.export", *rest),
        "test": lambda rest: run(str(PYTHON), "-m", "pytest", *GATE_WORKERS, *rest),
        "screenshots": lambda rest: run(str(PYTHON), "-m", "pytest", "-q", str(BROWSER_SUITE), "-k", "test_screenshot",
                                        "--full-page-screenshots", *rest),
        "regen": lambda rest: run(str(PYTHON), "-m", "guidetools.regen", *rest),
        "review": lambda rest: run(str(PYTHON), "-m", "guidetools.review", *rest),
        "prose": lambda rest: run(str(PYTHON), "-m", "guidetools.prose", *rest),
        "mutate": lambda rest: run(str(PYTHON), "-m", "guidetools.mutate", *rest),
        "bench": lambda rest: run(str(PYTHON), "-m", "guidetools.bench", *rest),
        "upstream": lambda rest: run(str(PYTHON), "-m", "guidetools.upstream", *rest),
        "errata": lambda rest: run(str(PYTHON), "-m", "guidetools.errata", *rest),
        "mcp": lambda rest: replace_with(str(PYTHON), "-m", "mcp_server", *rest),
        "conform": lambda rest: run(str(PYTHON), "-m", "conformance", *rest),
    }
    if not argv or argv[0] not in commands:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    if argv[0] == "mcp":
        # `mcp --stdio` speaks MCP on stdout: setup messages (and pip's) go to stderr instead.
        saved = os.dup(1)
        os.dup2(2, 1)
        try:
            ensure_environment()
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
    else:
        ensure_environment()
    keep_bytecode()
    return commands[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
