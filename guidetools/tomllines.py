"""Where a TOML file's tables and keys stand, for messages that point at a line: tomllib reads the data
but keeps no line numbers, so the readers of citations.toml, errata.toml, review.toml and coverage.toml ask here.

`[facts.V1]` stands at ("facts", "V1"); `"agent.x" = "..."` under `[not-observable]` at ("not-observable",
"agent.x"); `id = "..."` under each `[[erratum]]` at ("erratum", "id"), once per entry. Lines inside
multi-line strings are not told apart, as the files these readers ask about keep none that look like a key.
"""

from __future__ import annotations

import re

_PART = r'"[^"]*"|\'[^\']*\'|[A-Za-z0-9_-]+'
_DOTTED = rf"(?:{_PART})(?:\s*\.\s*(?:{_PART}))*"
_HEADER = re.compile(rf"^\s*\[\[?\s*(?P<key>{_DOTTED})\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(rf"^\s*(?P<key>{_DOTTED})\s*=")


def _parts(key: str) -> tuple[str, ...]:
    return tuple(part.strip("\"'") if part[:1] in "\"'" else part for part in re.findall(_PART, key))


def header(line: str) -> tuple[str, ...] | None:
    """The dotted path a `[table]` or `[[array]]` header line names; None for any other line."""
    found = _HEADER.match(line)
    return _parts(found["key"]) if found else None


def key_lines(text: str) -> list[tuple[tuple[str, ...], int]]:
    """Each table header and each key, as its full dotted path, with its line (from 1), in file order."""
    found, table = [], ()
    for number, line in enumerate(text.split("\n"), start=1):
        if (named := header(line)) is not None:
            table = named
            found.append((table, number))
        elif key := _KEY.match(line):
            found.append((table + _parts(key["key"]), number))
    return found


def table_lines(text: str, table: str) -> dict[str, int]:
    """The line of each key of `table`, whether a `[table.key]` header or a `key = ` line under `[table]`;
    the first, when a key stands twice."""
    lines: dict[str, int] = {}
    for path, number in key_lines(text):
        if len(path) == 2 and path[0] == table:
            lines.setdefault(path[1], number)
    return lines
