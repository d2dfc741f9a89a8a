"""A run as the console shows it, as JUnit XML (for CI test views) and as Markdown (for a CI job summary)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from xml.etree import ElementTree

from conformance.suite import ClaimResult, Run

LABELS = {"pass": "PASS", "fail": "FAIL", "skip": "SKIP"}


def claim_line(claim: ClaimResult) -> str:
    line = f"{LABELS[claim.status]} {claim.claim}"
    return f"{line}: {claim.reason}" if claim.reason else line


def summary_line(run: Run) -> str:
    return f"{run.count('pass')} passed, {run.count('fail')} failed, {run.count('skip')} skipped"


def console(run: Run) -> str:
    lines = [claim_line(claim) for claim in sorted(run.claims, key=_order)]
    lines += [f"left behind: {path} ({why})" for path, why in run.leftovers]
    lines.append(f"conformance of {run.target}: {len(run.claims)} claims, {run.calls} tool calls in {run.seconds:.2f} s")
    lines.append(summary_line(run))
    return "\n".join(lines)


def _order(claim: ClaimResult) -> tuple[int, str]:
    return ({"fail": 0, "skip": 1, "pass": 2}[claim.status], claim.claim)


def junit_xml(run: Run) -> str:
    suite = ElementTree.Element("testsuite", {
        "name": "conformance", "tests": str(len(run.claims)), "failures": str(run.count("fail")),
        "errors": "0", "skipped": str(run.count("skip")), "time": f"{run.seconds:.3f}",
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
    })
    properties = ElementTree.SubElement(suite, "properties")
    for name, value in (("target", run.target), ("namespace", run.namespace)):
        ElementTree.SubElement(properties, "property", {"name": name, "value": value})
    for claim in run.claims:
        checks = ", ".join(f"{o.check.module}.{o.check.name}" for o in claim.outcomes)
        case = ElementTree.SubElement(suite, "testcase", {
            "classname": "conformance." + claim.claim.split(".", 1)[0], "name": claim.claim,
            "time": f"{sum(o.seconds for o in claim.outcomes):.3f}",
        })
        if claim.status == "fail":
            ElementTree.SubElement(case, "failure", {"message": claim.reason}).text = f"checked by {checks}\n{claim.reason}"
        elif claim.status == "skip":
            ElementTree.SubElement(case, "skipped", {"message": claim.reason})
    if run.leftovers:
        ElementTree.SubElement(suite, "system-out").text = "\n".join(f"left behind: {path} ({why})" for path, why in run.leftovers)
    ElementTree.indent(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(suite, encoding="unicode") + "\n"


def markdown(run: Run) -> str:
    lines = [
        "# Conformance over MCP",
        "",
        (f"Target `{run.target}`, namespace `{run.namespace}`: **{summary_line(run)}** "
         f"({len(run.claims)} claims, {run.calls} tool calls, {run.seconds:.2f} s)."),
        "",
        "| result | claim | reason |",
        "| --- | --- | --- |",
    ]
    for claim in sorted(run.claims, key=_order):
        reason = (claim.reason or "").replace("|", "\\|")
        lines.append(f"| {LABELS[claim.status]} | `{claim.claim}` | {reason} |")
    if run.leftovers:
        lines += ["", "Fixtures left behind:", ""] + [f"- `{path}` ({why})" for path, why in run.leftovers]
    return "\n".join(lines) + "\n"


def write(run: Run, junit_path: Path | None, markdown_path: Path | None) -> None:
    for path, text in ((junit_path, junit_xml(run)), (markdown_path, markdown(run))):
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
