"""Time to simulate every scenario of the agent-design guide, reading the report included (target: under 5 s).

    python bench/bench_scenarios.py [--write]   (--write records the figures in bench/README.md)
"""

from __future__ import annotations

import time
import warnings

from _figures import Figures
from _venv import use_venv

use_venv("pypdf")  # the venv's python, with the checkout on sys.path

figures = Figures("bench_scenarios.py")

started = time.perf_counter()
from agentkit.guide import _scenarios as scenarios  # noqa: E402  (the import is part of what is timed)
from agentkit import UnknownPluginWarning  # noqa: E402

# A configuration naming a plugin the host lacks runs without it: here that would time another scenario.
warnings.simplefilter("error", UnknownPluginWarning)

laps = []


def lap(label: str, work) -> object:
    begin = time.perf_counter()
    value = work()
    laps.append((label, time.perf_counter() - begin))
    return value


lap("read the report (PDF to text, chunks, index)", scenarios.workspace)
results = lap("scenarios 1-4", scenarios.run_all)
lap("scenarios 1-4 with prompt caching", lambda: scenarios.run_all(caching=True))
sweep = lap("scenario 5: every k, deterministic ids", scenarios.interrupted_sweep)
lap("scenario 5: every k, random ids", lambda: scenarios.interrupted_sweep(random_ids=7))
lap("scenario 6: prompt-only, whitelist, insisting model", lambda: [
    scenarios.prohibition(["Mesh:Get,Search,Create", "ContentCollection"]),
    scenarios.prohibition(["Mesh:Get,Search,Create"]),
    scenarios.prohibition(["Mesh:Get,Search,Create"], insist=True)])
total = time.perf_counter() - started

for label, seconds in laps:
    figures.say(f"{seconds:7.3f} s  {label}")
figures.say(f"{total:7.3f} s  all scenarios, imports included ({len(sweep)} interruptions, target under 5 s)")
figures.record()
