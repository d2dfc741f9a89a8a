"""bench/_figures.py: `--write` rewrites exactly its bench's section of bench/README.md, and every bench has one."""

from __future__ import annotations

import datetime
import sys

import pytest

from bench import _figures as figures
from guidetools.project import REPO_ROOT

BENCH = REPO_ROOT / "bench"

TEXT = f"""# bench

Hand-written: where the time goes.

{figures.begin_marker("bench_a.py")}
Not measured yet.
{figures.end_marker("bench_a.py")}

Between the sections.

{figures.begin_marker("bench_b.py")}
b's old figures
{figures.end_marker("bench_b.py")}
"""


def test_a_section_is_replaced_and_nothing_else_and_a_bench_without_one_is_refused():
    new = figures.section("bench_a.py", "python3 bench/bench_a.py 5", ["a: median 1.5 s"], datetime.date(2026, 12, 1), 2)
    written = figures.replace_section(TEXT, "bench_a.py", new)
    assert "Not measured yet." not in written
    assert "`python3 bench/bench_a.py 5`, measured 2026-12-01 on 2 cores (`nproc`)" in written
    assert "```text\na: median 1.5 s\n```\n" in written
    # Everything outside a's section stands as it was, b's section included; a second write replaces the first.
    before, after = TEXT.split(figures.begin_marker("bench_a.py"))[0], TEXT.split(figures.end_marker("bench_a.py"))[1]
    assert written == before + new + after
    again = figures.section("bench_a.py", "python3 bench/bench_a.py", ["a: median 1.4 s"], datetime.date(2026, 12, 2), 4)
    assert figures.replace_section(written, "bench_a.py", again) == written.replace(new, again)
    # A bench without its section is refused.
    with pytest.raises(SystemExit, match="no single section for bench_c.py"):
        figures.replace_section(TEXT, "bench_c.py", "anything")


def test_every_bench_has_one_section_in_the_readme():
    readme = (BENCH / "README.md").read_text(encoding="utf-8")
    benches = sorted(script.name for script in BENCH.glob("bench_*.py"))
    for name in benches:
        assert readme.count(figures.begin_marker(name)) == 1 and readme.count(figures.end_marker(name)) == 1, name
        assert f"Figures(\"{name}\")" in (BENCH / name).read_text(encoding="utf-8"), f"{name} does not record its figures"
    assert readme.count("<!-- begin figures: ") == len(benches)


def test_write_is_taken_out_of_the_arguments(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["bench/bench_a.py", "5", "--write"])
    recorder = figures.Figures("bench_a.py")
    assert recorder.write and sys.argv == ["bench/bench_a.py", "5"]
    assert recorder.command == "python3 bench/bench_a.py 5"
