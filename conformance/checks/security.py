"""Security probes: what a deployment does with input an attacker would try, found without harming it.

Each probe sends only calls the deployment refuses or answers without writing (reads of paths that name
nothing, malformed arguments), and reports one of three findings: PASS (the behaviour is safe and it says
what it saw), FAIL (the unsafe behaviour, with the call and answer that show it), or SKIP with "cannot tell
on this host" and why. Each confirms the guide's claim it is registered for; beside the `..` probe of
paths.py (`unified-path.dot-dot-in-tool-paths`), they are:

- encoded separators: `%2e%2e`, `%2F` and `%5C` in a Get path reach the store as typed (no layer decodes
  them into `..`, `/` or `\\`): unified-path.no-decoding;
- error details: a refused or failing call answers no stack trace, exception type or server-side file path:
  mesh.errors-are-text;
- the read-only surface: no tool the server annotates read-only (the tools a read-only agent or token may
  call) writes: mesh.tool-table.
"""

from __future__ import annotations

import re
from typing import Any

import mcp_types as types
import pytest

from conformance.session import BadTarget
from conformance.suite import FIXTURE_FOLDER, Fixtures, check, file_miss, short

CANNOT_TELL = "cannot tell on this host: "

# -- encoded separators ------------------------------------------------------------------------------

ENCODED_SENTINEL = "The conformance suite's encoded-path sentinel.\n"


def encoded_forms(file_path: str) -> list[tuple[str, str]]:
    """(a file path as sent, what it names once percent-decoded) for the sentinel at `file_path` (folder/name)."""
    folder, name = file_path.split("/", 1)
    return [
        (f"{folder}/%2e%2e/{file_path}", f"{folder}/../{file_path}"),  # an encoded '..' segment
        (f"{folder}/%2E%2E%2F{file_path}", f"{folder}/../{file_path}"),  # '..' and its separator, upper case
        (f"{folder}%2f{name}", file_path),  # an encoded '/': decoded, it names the sentinel itself
        (f"{folder}%5C{name}", f"{folder}\\{name}"),  # an encoded '\\', a separator on Windows hosts
    ]


@check("unified-path.no-decoding", needs={"get", "upload"})
async def encoded_separators_reach_the_store_as_typed(fx: Fixtures) -> None:
    """A probe: is a path with `%2e%2e` or an encoded separator decoded anywhere on Get's way to the store? Decoded,
    it reads the sentinel (the store resolves `..`, or `%2f` became `/`) or the store's miss names the decoded
    form. As typed, the store's miss names the file as sent (C6: Get decodes nothing)."""
    file_path = await fx.file("encoded-sentinel.md", ENCODED_SENTINEL)
    as_typed, unclear = [], []
    for sent, decoded in encoded_forms(file_path):
        answer = await fx.read_file(sent)
        # verifies: unified-path.no-decoding
        assert answer != ENCODED_SENTINEL and f"'{decoded}'" not in answer, \
            f"get {fx.collection}/{sent} was decoded on its way to the store (to {decoded!r}): it answered {short(answer)}"
        if answer == file_miss(sent):
            as_typed.append(sent)
        else:
            unclear.append(f"{sent} answered {short(answer, 60)}")
    if not as_typed:
        pytest.skip(CANNOT_TELL + "no answer named the file as sent, so none shows what reached the store: " + "; ".join(unclear))
    fx.note(f"the store received {', '.join(as_typed)} as typed (nothing decoded them)"
            + (f"; unclear: {'; '.join(unclear)}" if unclear else ""))


# -- error details -------------------------------------------------------------------------------------

LEAKS = {
    "a stack trace": re.compile(
        r"Traceback \(most recent call last\)|^\s*at [\w.`<>$+\[\]]+\(.*\)|--- End of (?:inner exception )?stack trace"
        r"|\bFile \"[^\"]+\", line \d+", re.MULTILINE),
    "an exception type": re.compile(r"\b(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Exception|Error)\b"),
    "a server-side file path": re.compile(
        r"(?<![\w/.%-])/(?:home|root|app|src|usr|var|tmp|opt|srv|mnt|data|work|workspace|Users|private|build)/[^\s'\"]+"
        r"|\b[A-Za-z]:\\[^\s'\"]+|\.(?:cs|py|java|go|js|ts):line \d+"),
}
REFUSED = re.compile(r"^(?:Error\b|Invalid\b|An error occurred)")


def bad_calls(fx: Fixtures) -> list[tuple[str, dict[str, Any]]]:
    """Calls every framework host refuses or fails without writing: malformed or null arguments, a NUL in a path."""
    missing = f"{fx.namespace}/conformance-absent-{fx.run_id}"
    calls = [
        ("get", {"path": f"{fx.collection}/{FIXTURE_FOLDER}/\u0000absent.md"}),
        ("create", {"node": "{not JSON"}),
        ("create", {"node": None}),  # a null text argument makes the tool raise (mesh.mcp-arguments)
        ("update", {"nodes": "[not JSON"}),
        ("patch", {"path": missing, "fields": None}),  # raises before the node is looked at (MQ1)
        ("search", {"query": None, "basePath": fx.namespace}),  # raises before the query runs (MQ2)
        ("get_chunk", {"collectionPath": f"{missing}/content", "filePath": "absent.md", "chunkIndex": -1}),
    ]
    return [(tool, arguments) for tool, arguments in calls if tool in fx.mcp.tools]


@check("mesh.errors-are-text", needs={"get"})
async def error_answers_show_no_internals(fx: Fixtures) -> None:
    """A probe: does a refused or failing call answer a stack trace, an exception type or a server-side file path?
    The framework's tools answer refusals as text, and the MCP SDK answers a call that raised with
    `An error occurred invoking '{tool}'.` alone (mesh.mcp-arguments)."""
    refused = 0
    for tool, arguments in bad_calls(fx):
        text, is_error = await fx.mcp.call_flagged(tool, arguments)
        refused += bool(is_error or REFUSED.match(text))
        for kind, pattern in LEAKS.items():
            found = pattern.search(text)
            # verifies: mesh.errors-are-text
            assert found is None, f"{tool}({short(arguments, 60)}) answered {kind} ({found and found.group(0)!r}): {short(text)}"
    if not refused:
        pytest.skip(CANNOT_TELL + "it answered none of the probe's malformed calls with a refusal, so no error text was seen")
    fx.note(f"{refused} refused or failed calls answered no stack trace, exception type or server-side path")


# -- the read-only surface -------------------------------------------------------------------------------


def read_only_tools(fx: Fixtures) -> list[str]:
    return sorted(name for name, tool in fx.mcp.tools.items() if tool.annotations and tool.annotations.read_only_hint)


def probe_arguments(tool: types.Tool, target: str) -> dict[str, Any] | None:
    """Arguments that point every text parameter of `tool` at `target`; None when a required one cannot be filled."""
    schema = tool.input_schema or {}
    required = set(schema.get("required", []))
    fill = {"string": target, "integer": 0, "number": 0, "boolean": False}
    arguments = {}
    for name, spec in (schema.get("properties") or {}).items():
        kind = spec.get("type") if isinstance(spec, dict) else None
        if kind in fill:
            arguments[name] = fill[kind]
        elif name in required:
            return None
    return arguments


@check("mesh.tool-table", needs={"get"})
async def read_only_tools_write_nothing(fx: Fixtures) -> None:
    """A probe: does a tool the server annotates read-only (the surface a read-only agent or token may call) let a
    write through? Each is called with every text argument naming a node that does not exist; Get must still
    miss it after each call."""
    surface = read_only_tools(fx)
    if not surface:
        pytest.skip(CANNOT_TELL + "no tool it lists is annotated read-only")
    target = f"{fx.namespace}/conformance-read-only-{fx.run_id}"
    missing = f"Not found: {target}"
    before = await fx.get(target)
    if before != missing:
        pytest.skip(CANNOT_TELL + f"get {target} answered {short(before, 80)}, not its miss, so a write would not show")
    called = []
    for name in surface:
        arguments = probe_arguments(fx.mcp.tools[name], target)
        if arguments is None:
            continue
        try:
            await fx.mcp.call_result(name, arguments)
        except BadTarget:  # an MCP error refuses the call: nothing ran
            pass
        called.append(name)
        after = await fx.get(target)
        if after != missing:
            fx.created_nodes.append(target)  # the run's clean-up deletes what the tool wrote
        # verifies: mesh.tool-table
        assert after == missing, \
            f"{name}, annotated read-only, wrote: after {name}({short(arguments, 80)}) get {target} answered {short(after, 80)}"
    if not called:
        pytest.skip(CANNOT_TELL + f"the read-only tools ({', '.join(surface)}) take arguments the probe cannot fill")
    fx.note(f"the read-only tools ({', '.join(called)}) wrote nothing at a path they were all given")


