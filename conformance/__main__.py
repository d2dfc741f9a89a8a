"""Run the conformance suite against an MCP endpoint.

    meshweaver-conform --url https://mesh.example.com/mcp --header 'Authorization: Bearer …'   (pip install ./conformance)
    python3 dev.py conform --url http://127.0.0.1:8765/mcp                                    (in the guide's checkout)
    python3 dev.py conform --url https://mesh.example.com/mcp --header 'Authorization: Bearer …' --namespace ACME
    python3 dev.py conform --command 'python3 dev.py mcp --stdio'      (a server spoken to over stdio)

Prints PASS, FAIL or SKIP per claim id with the reason, writes a JUnit XML
file and a Markdown report. Exit status: 0 all checked claims hold (skips
allowed), 1 a claim failed, 2 the target could not be checked at all.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import anyio

from conformance.checks import collect_checks
from conformance.report import console, write
from conformance.session import BadTarget, Connection, Target, parse_header
from conformance.suite import Run, run_checks

DEFAULT_NAMESPACE = "Meridian"
DEFAULT_JUNIT = Path("build/conformance/junit.xml")
DEFAULT_REPORT = Path("build/conformance/report.md")


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    # Installed, the command is `meshweaver-conform`; in the guide's checkout `dev.py conform` runs this module.
    prog = "meshweaver-conform" if Path(sys.argv[0]).stem == "meshweaver-conform" else "dev.py conform"
    parser = argparse.ArgumentParser(prog=prog, description="Check the guide's tool claims over MCP.")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--url", help="the streamable HTTP endpoint, e.g. http://127.0.0.1:8765/mcp")
    where.add_argument("--command", help="a command that serves MCP on stdin/stdout")
    parser.add_argument("--header", action="append", default=[], metavar="'NAME: VALUE'",
                        help="an HTTP header for every request, e.g. 'Authorization: Bearer …' (repeatable)")
    parser.add_argument("--namespace", default=DEFAULT_NAMESPACE,
                        help=f"a node with an editable 'content' collection where the suite may write its fixtures (default {DEFAULT_NAMESPACE})")
    parser.add_argument("--claim", action="append", default=[], metavar="ID", help="check only this claim (repeatable)")
    parser.add_argument("--junit", type=Path, default=DEFAULT_JUNIT, help=f"JUnit XML output (default {DEFAULT_JUNIT})")
    parser.add_argument("--report", type=Path, default=DEFAULT_REPORT, help=f"Markdown report (default {DEFAULT_REPORT})")
    parser.add_argument("--quiet", action="store_true", help="print only failures, skips and the summary")
    return parser.parse_args(argv)


async def conform(target: Target, namespace: str, claims: list[str]) -> Run:
    every_check = collect_checks()
    selected = [c for c in every_check if not claims or c.claim in claims]
    unknown = sorted(set(claims) - {c.claim for c in every_check})
    if unknown:
        raise BadTarget(f"no conformance check for claim(s): {', '.join(unknown)}")
    async with Connection(target) as mcp:
        return await run_checks(mcp, namespace.strip("/"), selected)


def main(argv: list[str] | None = None) -> int:
    options = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        headers = dict(parse_header(text) for text in options.header)
        target = Target(url=options.url, headers=headers, command=options.command)
        run = anyio.run(conform, target, options.namespace, options.claim)
    except BadTarget as problem:
        print(f"conform: {problem}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("conform: interrupted", file=sys.stderr)
        return 2
    text = console(run)
    if options.quiet:
        text = "\n".join(line for line in text.splitlines() if not line.startswith("PASS "))
    print(text)
    write(run, options.junit, options.report)
    print(f"wrote {options.junit} and {options.report}")
    return 1 if run.count("fail") else 0


if __name__ == "__main__":
    sys.exit(main())
