"""The guide's six scenarios, run end to end on the generated annual report.

Each scenario is an agent configuration (``_procedures``) plus a scripted model (``_replay``), run by the
runtime against a fresh workspace (the report uploaded to ``Meridian/content``, part of the line-item
dimensions already in the mesh). Scenarios 1 to 4 are ``_procedures``'s; then

5. :func:`interrupted_sweep`: 3 killed after k creates for every k, then resumed.
6. :func:`prohibition`: a model that reaches for a chunk tool the prompt forbids.

What is measured is what follows from the scripted habits: turns, tokens, cost (``_scenario_cost``), and what
ends up in the mesh; ``_tables`` renders them. Every call runs its scenario: only the report's reading, a
second of PDF parsing, is done once per process (each workspace is a copy).
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable, Sequence

from agentkit._config import AgentConfiguration
from agentkit._cost import EXAMPLE_PRICES, ModelPrice, TokenUsage, cost_of
from agentkit._dotnet_json import dotnet_json_string
from agentkit._mesh import Mesh
from agentkit._messages import ToolResult
from agentkit._node import Node
from agentkit._plugins import content_collection_plugin, mesh_plugin
from agentkit._runtime import DIED, Agent, Interrupt, Run
from agentkit._threads import Thread
from agentkit._tokens import item_tokens
from agentkit._usage import usage_report
from agentkit._wire import DEFAULT_WIRE

from ._checks import Grade, Reconciliation, grade, reconcile
from ._facts import DIMENSIONS, FACTS, Worksheet, dimension_node, dimension_path, register_types
from ._models import DEFAULT_MODEL
from ._procedures import (
    APPROVE, COLLECTION, OWNER, PROHIBITION, PROTOCOL_INSTRUCTIONS, PROTOCOL_PLUGINS, RESUME, TASK, THREAD, TITLES,
    create_outcomes, naive, protocol, read_phase, scenario_config,
)
from ._replay import Procedure, ProcedureModel, View
from ._report import REPORT, STATEMENTS, upload_report

# Dimensions already in the mesh before any run: the income statement and the balance sheet.
# Two carry the labels another system gave them, so a search for the report's wording misses them.
SEEDED_LABELS = {"ebit": "EBIT", "np": "Net income"}
SEEDED_STATEMENTS = ("income", "balance")

# -- the workspace -----------------------------------------------------------------


@functools.cache
def _pristine() -> Mesh:
    # The upload and indexing of the report, done once per process; this mesh is never handed out, only copies.
    mesh = Mesh(node_types={"Folder"})
    register_types(mesh)
    upload_report(mesh, OWNER)
    for folder in (DIMENSIONS, FACTS):
        mesh.put_node(Node(folder, OWNER, folder, "Folder"))
    for item in REPORT.line_items:
        if item.statement in SEEDED_STATEMENTS:
            name = SEEDED_LABELS.get(item.key, item.name)
            content = dimension_node(OWNER, item.key, name, STATEMENTS[item.statement], item.unit)["content"]
            mesh.put_node(Node(item.key, f"{OWNER}/{DIMENSIONS}", name, "LineItem", content, typed=True))
    mesh.refresh_index()
    return mesh


def workspace() -> Mesh:
    """A fresh mesh: the report uploaded and indexed, the income and balance dimensions already there."""
    return copy_mesh(_pristine())


def copy_mesh(mesh: Mesh) -> Mesh:
    """An independent copy of ``mesh`` that shares what is frozen: nodes, index entries and chunks.

    The mesh replaces a node on every write and never changes one in place,
    so a shared node cannot leak a write from one copy into another. A stored
    file is a new record holding the same bytes, so nothing large is copied.
    """
    frozen = [*mesh.nodes(), *mesh.index.visible_nodes(), *mesh.index.visible_chunks()]
    return copy.deepcopy(mesh, {id(item): item for item in frozen})


def report_text(mesh: Mesh) -> str:
    """The full text of the report, as Get on its file path returns it."""
    return mesh.fetch(f"{COLLECTION}/{REPORT.file_name}").value


def report_answer(mesh: Mesh) -> str:
    """The report as one Get on its file answers it: the text as a JSON string literal (R7)."""
    return dotnet_json_string(report_text(mesh))


@functools.cache
def report_tokens() -> int:
    """The report as the result of one Get, in tokens: what reading it once adds to the context.

    A deterministic number, computed once per process: each read of the report is a second of PDF reading.
    """
    return item_tokens(ToolResult("", "Get", report_answer(_pristine())))


# -- running scenarios ------------------------------------------------------------------


@dataclass(frozen=True)
class ScenarioResult:
    """One scenario run end to end: its rounds, tokens, cost and what it left in the mesh (the caller's own)."""

    key: str
    title: str
    runs: tuple[Run, ...] = field(repr=False)
    grade: Grade
    reconciliation: Reconciliation | None
    recorded: TokenUsage  # what the thread's _Usage satellites hold
    price: ModelPrice
    mesh: Mesh = field(repr=False, compare=False, default=None)  # the mesh the scenario left

    @property
    def turns(self) -> int:
        return sum(len(run.turns) for run in self.runs)

    @property
    def usage(self) -> TokenUsage:
        """What the provider billed, died rounds included."""
        return sum((run.usage for run in self.runs), TokenUsage())

    @property
    def cost(self) -> Decimal:
        return cost_of(self.usage, self.price)

    @property
    def recorded_cost(self) -> Decimal:
        return cost_of(self.recorded, self.price)

    def context_sizes(self) -> list[tuple[int, int]]:
        """(round, input tokens) of every model call, in order: the context shown at each turn."""
        return [(number, turn.context.total) for number, run in enumerate(self.runs, start=1) for turn in run.turns]


def _agent(config: AgentConfiguration, procedure: Callable[[View], Procedure], mesh: Mesh, *,
           bulk: bool = False, caching: bool = False, wire: str = DEFAULT_WIRE) -> Agent:
    # The host's plugins, in the chat context of the thread's main node (N4, K4); BulkCreate is the extension.
    tools = mesh_plugin(mesh, context=OWNER, bulk_create=bulk) + content_collection_plugin(mesh, context=OWNER)
    return Agent(config, ProcedureModel(procedure), mesh, tools=tools, caching=caching, wire=wire)


def _finish(key: str, title: str, mesh: Mesh, before: set[str], runs: Sequence[Run], thread: Thread,
            worksheet: Worksheet | None) -> ScenarioResult:
    pairs = [(turn.reply.tool_calls, turn.results) for run in runs for turn in run.turns]
    recon = None
    if worksheet:
        outcomes = create_outcomes(pairs)
        standing = [row.key for row in worksheet.new_dimensions
                    if dimension_path(OWNER, row.key) not in outcomes and mesh.exists(dimension_path(OWNER, row.key))]
        recon = reconcile(worksheet, outcomes, standing)
    price = EXAMPLE_PRICES[DEFAULT_MODEL]
    return ScenarioResult(key, title, tuple(runs), grade(mesh, OWNER, before), recon,
                          usage_report(mesh, thread).usage, price, mesh)


def _worksheet_of(runs: Sequence[Run]) -> Worksheet | None:
    for run in runs:
        if "# Worksheet: " in run.answer:
            return Worksheet.from_text(run.answer)
    return None


def run_scenario(key: str, *, caching: bool = False, wire: str = DEFAULT_WIRE) -> ScenarioResult:
    """Run scenario ``naive``, ``reread``, ``worksheet`` or ``bulk`` on a fresh workspace, on ``wire``."""
    config = scenario_config(key)
    mesh = workspace()
    before = {node.path for node in mesh.nodes()}
    thread = Thread(THREAD)
    if key == "naive":
        runs = [_agent(config, naive, mesh, caching=caching, wire=wire).start(thread, TASK)]
    else:
        options = {"reread": dict(batch_size=1, reread=True), "worksheet": {}, "bulk": dict(bulk=True)}[key]
        agent = _agent(config, lambda view: protocol(view, **options), mesh, bulk=key == "bulk", caching=caching,
                       wire=wire)
        runs = [agent.start(thread, TASK), agent.start(thread, APPROVE)]
    return _finish(key, TITLES[key], mesh, before, runs, thread, _worksheet_of(runs))


def run_all(caching: bool = False, wire: str = DEFAULT_WIRE) -> list[ScenarioResult]:
    """Scenarios 1 to 4, in order, on ``wire``."""
    return [run_scenario(key, caching=caching, wire=wire) for key in TITLES]


# -- 5: interrupted and resumed ------------------------------------------------------------


@dataclass(frozen=True)
class Interrupted:
    """Scenario 3 killed after ``killed_after`` creates, then resumed with "continue"."""

    killed_after: int
    result: ScenarioResult

    @property
    def duplicates(self) -> int:
        return self.result.grade.duplicates

    @property
    def missing(self) -> int:
        return len(self.result.grade.missing)


def creates_in_scenario_3() -> int:
    """How many Create calls scenario 3's writing phase issues (new dimensions plus facts)."""
    return len(reading_worksheet().nodes_to_create())


def reading_worksheet() -> Worksheet:
    """The worksheet scenario 3's reading round answers."""
    return _phase_one()[2]


def _phase_one() -> tuple[Mesh, Thread, Worksheet, Run]:
    """Scenario 3 after its reading round: its mesh, its thread and the round, and the worksheet it answered."""
    mesh = workspace()
    thread = Thread(THREAD)
    config = AgentConfiguration("extractor", PROTOCOL_INSTRUCTIONS, plugins=list(PROTOCOL_PLUGINS))
    run = _agent(config, protocol, mesh).start(thread, TASK)
    return mesh, thread, Worksheet.from_text(run.answer), run


def interrupted(killed_after: int, *, random_ids: int | None = None) -> Interrupted:
    """Scenario 3 whose writing round dies after ``killed_after`` creates, resumed by a "continue" round.

    ``random_ids`` (a seed) makes the model invent fact ids.
    """
    return _interrupted(_phase_one(), killed_after, random_ids)


def _interrupted(phase_one: tuple[Mesh, Thread, Worksheet, Run], killed_after: int,
                 random_ids: int | None) -> Interrupted:
    mesh, thread0, worksheet, reading = phase_one
    thread = thread0.fork()
    before = {node.path for node in _pristine().nodes()}
    config = AgentConfiguration("extractor", PROTOCOL_INSTRUCTIONS, plugins=list(PROTOCOL_PLUGINS))
    agent = _agent(config, lambda view: protocol(view, random_ids=random_ids), mesh)
    killed = agent.start(thread, APPROVE, interrupt=Interrupt(killed_after, DIED, tool="Create"))
    resumed = agent.start(thread, RESUME)
    result = _finish("interrupted", f"5. Killed after {killed_after} creates, resumed", mesh, before,
                     [reading, killed, resumed], thread, worksheet)
    return Interrupted(killed_after, result)


def interrupted_sweep(*, random_ids: int | None = None) -> list[Interrupted]:
    """:func:`interrupted` for every k from 0 to all creates; the reading round runs once, each k on a copy of it."""
    mesh, thread, worksheet, reading = _phase_one()
    sweep = []
    for killed_after in range(len(worksheet.nodes_to_create()) + 1):
        thread_copy, reading_copy = copy.deepcopy((thread, reading))
        sweep.append(_interrupted((copy_mesh(mesh), thread_copy, worksheet, reading_copy), killed_after, random_ids))
    return sweep


# -- 6: a prohibition in the prompt against a tool in the whitelist ---------------------------


@dataclass(frozen=True)
class ProhibitionOutcome:
    """What happened to the forbidden chunk tool under one configuration."""

    plugins: tuple[str, ...]
    offered: bool
    executed: int  # forbidden calls that ran
    refused: int   # forbidden calls the runtime refused


def prohibition(plugins: Sequence[str], *, insist: bool = False,
                configuration: type[AgentConfiguration] = AgentConfiguration) -> ProhibitionOutcome:
    """Run phase 1 with the prohibition in the instructions and a model that reaches for ``SearchChunks``.

    The model calls it when it is offered (it ignores the prompt); with
    ``insist`` it calls it even when it is not offered. ``configuration`` is the
    class that builds the agent's configuration (a page's listing passes one
    that records it, to show the agent node).
    """
    def reader(view: View) -> Procedure:
        return (yield from read_phase(view, chunk_detour=insist or "SearchChunks" in view.offered))

    config = configuration("extractor", f"{PROHIBITION}\n{PROTOCOL_INSTRUCTIONS}", plugins=list(plugins))
    agent = _agent(config, reader, workspace())
    offered = "SearchChunks" in {tool.name for tool in agent.offered}
    run = agent.start(Thread(THREAD), TASK)
    forbidden = [result for turn in run.turns for result in turn.results if result.name == "SearchChunks"]
    return ProhibitionOutcome(tuple(plugins), offered, sum(not r.refused for r in forbidden),
                              sum(r.refused for r in forbidden))
