"""A bench's figures: printed as measured and, with --write, recorded in bench/README.md.

    from _figures import Figures
    figures = Figures("bench_gate.py")        # takes --write out of sys.argv
    figures.say("gate: median 27.9 s")        # printed, and kept for the record
    print("gate run 1: 28.1 s")               # printed only
    figures.record()                          # with --write: rewrites the bench's section

Each bench owns one generated section of bench/README.md, between the lines
`<!-- begin figures: NAME ... -->` and `<!-- end figures: NAME -->`; `record`
replaces what stands between them with the date, the machine (nproc) and the
lines kept, and leaves the rest of the file alone. Nobody edits a section by hand.
"""

from __future__ import annotations

import datetime
import os
import platform
import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parent / "README.md"


def begin_marker(name: str) -> str:
    return f"<!-- begin figures: {name} (written by `python3 dev.py bench --write`; do not edit) -->"


def end_marker(name: str) -> str:
    return f"<!-- end figures: {name} -->"


def section(name: str, command: str, lines: list[str], today: datetime.date, cores: int) -> str:
    """The generated text between a bench's markers, markers included."""
    return "\n".join([
        begin_marker(name),
        f"`{command}`, measured {today.isoformat()} on {cores} cores (`nproc`), Python {platform.python_version()}:",
        "",
        "```text",
        *lines,
        "```",
        end_marker(name),
    ])


def replace_section(text: str, name: str, new: str) -> str:
    """``text`` with the section of ``name`` replaced by ``new``; a file without its markers is an error."""
    pattern = re.compile(re.escape(f"<!-- begin figures: {name} ") + r".*?" + re.escape(end_marker(name)), re.S)
    if len(pattern.findall(text)) != 1:
        raise SystemExit(f"{README}: no single section for {name} (between `{begin_marker(name)}` and "
                         f"`{end_marker(name)}`); add one where its figures belong")
    return pattern.sub(lambda _: new, text)


class Figures:
    def __init__(self, name: str):
        self.name = name
        self.write = "--write" in sys.argv
        if self.write:
            sys.argv.remove("--write")
        self.command = " ".join(["python3", f"bench/{name}", *sys.argv[1:]])
        self.lines: list[str] = []

    def say(self, line: str) -> None:
        print(line, flush=True)
        self.lines.extend(line.splitlines())

    def record(self) -> None:
        if not self.write:
            return
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1  # as nproc counts
        today = datetime.datetime.now(datetime.timezone.utc).date()
        new = section(self.name, self.command, self.lines, today, cores)
        README.write_text(replace_section(README.read_text(encoding="utf-8"), self.name, new), encoding="utf-8")
        print(f"wrote its figures to {README.relative_to(README.parents[1])}", flush=True)
