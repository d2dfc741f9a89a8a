"""Run the conformance checks against an MCP endpoint: pytest on conformance/checks/ with the conformance plugin.

    meshweaver-conform --url https://mesh.example.com/mcp --header 'Authorization: Bearer …'   (pip install ./conformance)
    python3 dev.py conform --url http://127.0.0.1:8765/mcp                                    (in the guide's checkout)
    python3 dev.py conform --url https://mesh.example.com/mcp --header 'Authorization: Bearer …' --namespace ACME
    python3 dev.py conform --command 'python3 dev.py mcp --stdio'      (a server spoken to over stdio)

Every argument goes to pytest, after the defaults below (a later option wins): the plugin's options
(conformance/plugin.py), and pytest's own, such as `--junitxml PATH` or `--quiet`. Exit status: 0 all checked
claims hold (skips allowed), 1 a claim failed, 2 the target could not be checked at all, or nothing was checked.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from conformance import checks

# pytest alone with this plugin and anyio's: no configuration file, conftest.py or other installed plugin of the
# folder it runs in, no cache written there. Asserts run as written (no rewriting: a check's message is the
# assert's own, whether or not its module was imported before).
ISOLATED = ["-c", os.devnull, "--rootdir", str(Path(checks.__file__).parents[2]), "--noconftest", "--disable-plugin-autoload",
            "-p", "anyio", "-p", "conformance.plugin", "-p", "no:cacheprovider", "--assert=plain", "-o", "junit_suite_name=conformance"]
DEFAULTS = ["-q", "--tb=short", "--junitxml=build/conformance/junit.xml", "--report=build/conformance/report.md"]


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    code = pytest.main([*ISOLATED, *DEFAULTS, *arguments, *(module.__file__ for module in checks.MODULES)])
    if code == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("conform: no check ran", file=sys.stderr)
    return {pytest.ExitCode.OK: 0, pytest.ExitCode.TESTS_FAILED: 1}.get(code, 2)


if __name__ == "__main__":
    sys.exit(main())
