"""The guide's six scenarios, run end to end on the generated annual report.

Each scenario is an agent configuration plus a scripted model, run by the
runtime against a fresh workspace (the report uploaded to ``Meridian/content``,
part of the line-item dimensions already in the mesh). The scripted models are
procedures replayed against the context they are handed: each call re-runs
the procedure from the top, feeding it the tool results the context holds, and
returns its next step. So they decide only from what they are shown; what the
runtime drops at a round boundary they cannot use.

1. ``naive``: one round; per value a chunk search and chunk reads; one Create a turn.
2. ``reread``: two phases, but phase 2 reads the document again; one Create a turn.
3. ``worksheet``: two phases; one Get on the file path built from the Search row; the ContentCollection plugin not whitelisted;
   creates in batches of 10; the worksheet is the only input of phase 2.
4. ``bulk``: as 3 with ``BulkCreate`` (agentkit's extension, off by default; the framework has no bulk
   create, M14).
5. :func:`interrupted_sweep`: 3 killed after k creates for every k, then resumed.
6. :func:`prohibition`: a model that reaches for a chunk tool the prompt forbids.

The model's habits (reading a value per chunk, taking a label search's empty
answer as "missing", re-reading the document) are scripted: they reproduce
field observations, they are not measured. What is measured is what follows
from them: turns, tokens, cost, and what ends up in the mesh.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Callable, Generator, Iterable, Sequence

from agentkit._config import AgentConfiguration
from agentkit._cost import EXAMPLE_PRICES, ModelPrice, TokenUsage, cost_of
from agentkit._mesh import Mesh
from agentkit._messages import Context, Message, Reply, ToolCall, ToolResult
from agentkit._node import Node
from agentkit._paths import DOCUMENTS_SEGMENT, file_path_from_document, get_path_of_file
from agentkit._dotnet_json import dotnet_json_string
from agentkit._plugins import content_collection_plugin, mesh_plugin
from agentkit._runtime import DIED, Agent, Interrupt, Run
from agentkit._threads import Thread
from agentkit._tokens import item_tokens
from agentkit._usage import usage_report
from agentkit._wire import DEFAULT_WIRE, returned_text

from ._facts import (
    DIMENSIONS, FACTS, Grade, Reconciliation, Worksheet, WorksheetError, build_worksheet, checklist_text,
    dimension_node, dimension_path, fact_node, fact_path, grade, invented_key, parse_checklist, reconcile,
    register_types,
)
from ._models import DEFAULT_MODEL
from ._report import REPORT, STATEMENTS, upload_report

OWNER = "Meridian"
COLLECTION = f"{OWNER}/content"
DOCUMENTS = f"{COLLECTION}/_Documents"  # Search's basePath lists direct children only (M3)
THREAD = f"{OWNER}/_Thread/extract-2024"
BATCH = 10  # "every response in this step MUST contain at least 10 parallel create calls"
# Scenarios 1 and 2 run hundreds of one-call iterations in a round. Under the framework's default cap of 40
# (A7) their rounds would stop after 40 tool batches, so their agents set maxToolCallsPerRound in the agent
# node's JSON (A8: front matter cannot) high enough for the whole round.
LONG_ROUND_CAP = 1000
CHUNK_HITS = 5
# Dimensions already in the mesh before any run: the income statement and the balance sheet.
# Two carry the labels another system gave them, so a search for the report's wording misses them.
SEEDED_LABELS = {"ebit": "EBIT", "np": "Net income"}
SEEDED_STATEMENTS = ("income", "balance")

TASK = (f"Extract the values the annual report in {COLLECTION} (Document nodes under {DOCUMENTS}) states for "
        f"{' and '.join(REPORT.periods)} "
        f"and write them under {OWNER}: one LineItem dimension per line item in {OWNER}/{DIMENSIONS} (id = its "
        f"short key) and one Fact per value in {OWNER}/{FACTS} "
        "(id = {shortKey}-{period}-{position}). Line items:\n" + checklist_text())
APPROVE = "Worksheet reviewed and approved. Write it now."
RESUME = "continue"

PROTOCOL_INSTRUCTIONS = (
    "Phase 1 (reading): find the report with one Search. A row's path is {node}/{collection}/_Documents/{slug} "
    "and its name the file's name: Get the file once for the full text, at {node}/content/{name} in the "
    "collection content, at {node}/content/{collection}/{name} in a named collection. If that answers an error, "
    "Get the row's path and use its filePath for the name; if a Get returned only metadata you fetched the wrong "
    "node. List all LineItem dimensions in one Search and match key and name. End phase 1 with the complete "
    "worksheet as your answer, including master data for every new dimension.\n"
    "Phase 2 (writing): write strictly from the worksheet. Re-check dimension existence once, immediately "
    "before creating them, with a Get on each new dimension's path. Every response in this step MUST contain "
    "at least 10 parallel Create calls. Verify from the Create answers and read back one node per type with "
    "Get, never by a search count or a listing, and reconcile against the worksheet.")
NAIVE_INSTRUCTIONS = "Extract each requested value from the report and create a node for it."
PROHIBITION = "Never call SearchChunks or GetChunk: read the whole file with one Get on its file path."


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


# -- scripted models: procedures replayed against their context ----------------------

Procedure = Generator[list[ToolCall], tuple[ToolResult, ...], str]


@dataclass(frozen=True)
class View:
    """What a procedure may look at: the instructions, the offered tool names and the text messages."""

    instructions: str
    offered: tuple[str, ...]
    messages: tuple[Message, ...]

    @property
    def task(self) -> str:
        users = [m.text for m in self.messages if m.role == "user"]
        return users[0] if users else ""

    @property
    def periods(self) -> tuple[str, ...]:
        """The periods the task's first line names (``FY2024``, ...)."""
        return tuple(re.findall(r"FY\d{4}", self.task.splitlines()[0]))

    @property
    def rounds(self) -> int:
        """How many user messages the context holds (the round number)."""
        return sum(1 for m in self.messages if m.role == "user")

    def worksheet_text(self) -> str | None:
        """The newest assistant answer that holds a worksheet."""
        for message in reversed(self.messages):
            if message.role == "assistant" and "# Worksheet: " in message.text:
                return message.text
        return None


def exchanges(context: Context) -> list[tuple[tuple[ToolCall, ...], tuple[ToolResult, ...]]]:
    """This round's iterations as (calls, results) pairs, read from the context after the last user message."""
    items = context.items
    start = max((i for i, item in enumerate(items) if isinstance(item, Message) and item.role == "user"), default=-1)
    pairs: list[tuple[list[ToolCall], list[ToolResult]]] = []
    for item in items[start + 1:]:
        if isinstance(item, ToolCall):
            if not pairs or pairs[-1][1]:
                pairs.append(([], []))
            pairs[-1][0].append(item)
        elif isinstance(item, ToolResult) and pairs:
            pairs[-1][1].append(item)
    return [(tuple(calls), tuple(results)) for calls, results in pairs]


@dataclass
class ProcedureModel:
    """A model whose every reply is the next step of ``procedure(view)``, replayed against the context.

    Replaying from the top on every call is quadratic in the turns of a
    round, so the running procedure is kept while each new context extends
    the one before it (same view, earlier iterations unchanged): the reply is
    the one a full replay gives, only computed once.
    """

    procedure: Callable[[View], Procedure]
    key: str | None = DEFAULT_MODEL

    def __post_init__(self) -> None:
        self._live: tuple[View, Procedure, list, list[ToolCall]] | None = None

    def respond(self, context: Context) -> Reply:
        view = View(context.instructions, context.tool_names, context.messages())
        pairs = exchanges(context)
        if self._live and self._live[0] == view and pairs[:len(self._live[2])] == self._live[2]:
            _, steps, fed, batch = self._live
        else:
            steps, fed, batch = self.procedure(view), [], None
        try:
            if batch is None:
                batch = next(steps)
            for calls, results in pairs[len(fed):]:
                if [(c.name, dict(c.arguments)) for c in batch] != [(c.name, dict(c.arguments)) for c in calls]:
                    raise RuntimeError("the context holds calls this procedure would not have made")
                batch = steps.send(results)
                fed.append((calls, results))
        except StopIteration as finished:
            self._live = None
            return Reply(text=finished.value or "")
        self._live = (view, steps, fed, batch)
        return Reply(tool_calls=tuple(batch))


def _call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall(name, arguments)


def _json(result: ToolResult) -> Any:
    return json.loads(returned_text(result))  # the model reads through the wire's encoding


def read_phase(view: View, *, chunk_detour: bool = False) -> Procedure:
    """Phase 1 of the protocol: find the report and list the dimensions, then Get the file's text directly."""
    if chunk_detour:  # the habit scenario 6 shows: a chunk tool that is offered gets used
        yield [_call("SearchChunks", query=parse_checklist(view.task)[0].name, scope=COLLECTION, limit=CHUNK_HITS)]
    found, listed = yield [_call("Search", query="nodeType:Document annual report", basePath=DOCUMENTS),
                           _call("Search", query="nodeType:LineItem", basePath=f"{OWNER}/{DIMENSIONS}", limit=200)]
    hits = _json(found)["results"]
    if not hits:
        return f"Cannot read: Search found no Document node under {COLLECTION}; nothing was read or written."
    # The row has no collectionPath or filePath (M3), but its path holds the collection (D1) and its name is the
    # file's name (D4): for a file at the collection's root that is the file's Get path (C1), with no call on the
    # Document node, which has no text.
    collection_path = hits[0]["path"].split(f"/{DOCUMENTS_SEGMENT}/")[0]
    path = get_path_of_file(collection_path, hits[0]["name"])
    (text,) = yield [_call("Get", path=path)]
    if not returned_text(text).startswith('"'):  # not the text (R7): a file in a folder; its Document node names the path
        (document,) = yield [_call("Get", path=hits[0]["path"])]
        path = file_path_from_document(_json(document)["content"])
        (text,) = yield [_call("Get", path=path)]
    worksheet = build_worksheet(OWNER, path, _json(text), parse_checklist(view.task), _json(listed)["results"],
                                view.periods)
    return worksheet.to_text()


def create_outcomes(pairs: Iterable[tuple[Sequence[ToolCall], Sequence[ToolResult]]]) -> dict[str, str]:
    """Path -> the result text its Create (or BulkCreate line) got; a later result for a path wins."""
    outcomes: dict[str, str] = {}
    for calls, results in pairs:
        for call, result in zip(calls, results):
            if call.name == "Create":
                outcomes[_node_path(json.loads(call.arguments["node"]))] = returned_text(result)
            elif call.name == "BulkCreate":
                for node, line in zip(json.loads(call.arguments["nodes"]), returned_text(result).splitlines()):
                    outcomes[_node_path(node)] = line
    return outcomes


def _node_path(node: dict[str, Any]) -> str:
    return f"{node['namespace']}/{node['id']}"


def write_phase(view: View, *, batch_size: int | None = BATCH, bulk: bool = False, reread: bool = False,
                random_ids: int | None = None) -> Procedure:
    """Phase 2: write strictly from the worksheet in the history, verify by Get, reconcile.

    ``reread`` reads the document again first (scenario 2's misreading of
    "load the document once"); ``random_ids`` (a seed) gives facts random ids
    instead of deterministic ones, fresh in every round.
    """
    text = view.worksheet_text()
    if text is None:
        return "Cannot write: there is no worksheet in this conversation. Run the reading phase first."
    try:
        worksheet = Worksheet.from_text(text)
        worksheet.validate()
    except WorksheetError as refused:
        return f"Cannot write: {refused}"
    if reread:
        yield [_call("Search", query="nodeType:Document annual report", basePath=DOCUMENTS)]
        yield [_call("Get", path=worksheet.source)]
    # The one re-check, right before creating: Get each new dimension's path. A listing ('.../*') would not
    # do: it is a query and lags like Search (M2); a single-path Get reads the live node.
    new = worksheet.new_dimensions
    answers = (yield [_call("Get", path=dimension_path(OWNER, row.key)) for row in new]) if new else ()
    existing = [row.key for row, answer in zip(new, answers) if _is_node(answer)]
    nodes = worksheet.nodes_to_create(existing)
    if random_ids is not None:
        rng = random.Random(f"{random_ids}-{view.rounds}")
        nodes = [node | {"id": f"{node['id'].split('-')[0]}-{rng.getrandbits(32):08x}"}
                 if node["nodeType"] == "Fact" else node for node in nodes]
    pairs = []
    if bulk:
        calls = [_call("BulkCreate", nodes=json.dumps(nodes))]
        pairs.append((calls, (yield calls)))
    else:
        size = batch_size or len(nodes) or 1
        for start in range(0, len(nodes), size):
            calls = [_call("Create", node=json.dumps(node)) for node in nodes[start:start + size]]
            pairs.append((calls, (yield calls)))
    # Verification, never through a count (Search and a '.../*' listing lag, M2): every Create answered
    # 'Created: {path}' or found the node already there (M9), and one node per type reads back as written.
    outcomes = create_outcomes(pairs)
    absent = sorted(path for path, answer in outcomes.items()
                    if not answer.startswith("Created: ") and "already exists" not in answer)
    spot = [fact_path(OWNER, worksheet.writable_facts[0].id)] if worksheet.writable_facts and random_ids is None else []
    spot += [dimension_path(OWNER, new[0].key)] if new else []
    read_back = (yield [_call("Get", path=path) for path in spot]) if spot else ()
    absent += [path for path, answer in zip(spot, read_back) if not _is_node(answer)]
    recon = reconcile(worksheet, outcomes, existing)
    verdict = ("every create answered, and the read-back found its nodes" if not absent
               else f"MISSING after writing: {', '.join(absent)}")
    return f"Written from the worksheet; verification: {verdict}.\n{recon.to_text()}"


def _is_node(result: ToolResult) -> bool:
    # Get answers a node as a JSON object, a miss as a line of text.
    try:
        return isinstance(json.loads(returned_text(result)), dict)
    except ValueError:
        return False


def protocol(view: View, **write_options: Any) -> Procedure:
    """The two-phase protocol: read and answer with the worksheet; after approval, write from it."""
    if view.worksheet_text() is None:
        return (yield from read_phase(view))
    return (yield from write_phase(view, **write_options))


def _lenient_amount(token: str) -> float | None:
    # The careless reading: strip brackets and commas and take whatever float() makes of it ("356." is 356.0).
    try:
        number = float(token.strip("()").replace(",", ""))
    except ValueError:
        return None
    return -number if token.startswith("(") else number


def naive(view: View) -> Procedure:
    """Scenario 1: per item a label search for its dimension; per value a chunk search, chunk reads, one Create."""
    periods, created = view.periods, 0
    for item in parse_checklist(view.task):
        (found,) = yield [_call("Search", query=f"nodeType:LineItem {item.name}", basePath=f"{OWNER}/{DIMENSIONS}")]
        hits = _json(found)["results"]
        dimension = hits[0]["path"] if hits else None
        for index, period in enumerate(periods):
            # The scope names the collection: anchored at the bare node (the chat context) it finds nothing (K4).
            (chunks,) = yield [_call("SearchChunks", query=item.name, scope=COLLECTION, limit=CHUNK_HITS)]
            value, unit = None, ""
            for hit in _json(chunks)["results"]:
                (chunk,) = yield [_call("GetChunk", collectionPath=hit["collectionPath"], filePath=hit["filePath"],
                                        chunkIndex=hit["chunkIndex"])]
                # A chunk's text is the indexer's, words joined by spaces (D5): the row is the label, the unit
                # and the figures that follow it, wherever the chunk happens to end.
                words = " ".join(_json(chunk)["text"].split())
                for found_row in re.finditer(rf"(?:^|(?<= )){re.escape(item.name)} (EUR m|EUR) ((?:\S+ ?){{1,2}})",
                                             words):
                    tokens = found_row.group(2).split()
                    if len(tokens) > index and _lenient_amount(tokens[index]) is not None:
                        value, unit = _lenient_amount(tokens[index]), found_row.group(1)
                        break
                if value is not None:
                    break
            if value is None:
                continue
            if dimension is None:  # the label search said "missing": create one under a name-made id
                key = invented_key(item.name)
                yield [_call("Create", node=json.dumps(dimension_node(OWNER, key, item.name, "", unit)))]
                dimension = dimension_path(OWNER, key)
            created += 1
            node = fact_node(OWNER, f"{dimension.rsplit('/', 1)[-1]}-{period}", f"{item.name} {period}", dimension,
                             period, value, unit)
            yield [_call("Create", node=json.dumps(node))]
    return f"Done: created {created} facts."


# -- running scenarios ------------------------------------------------------------------


@dataclass(frozen=True)
class ScenarioResult:
    """One scenario run end to end: its rounds, tokens, cost and what it left in the mesh.

    A scenario runs once per process and every caller gets a result of its own (:meth:`handed_out`): the
    rounds and the mesh, the mutable things a run leaves, are read from :attr:`runs` and :attr:`mesh`,
    this result's own copies, made when first read.
    """

    key: str
    title: str
    _runs: tuple[Run, ...] = field(repr=False)  # shared by every result of this run: never handed out
    grade: Grade
    reconciliation: Reconciliation | None
    recorded: TokenUsage  # what the thread's _Usage satellites hold
    price: ModelPrice
    _mesh: Mesh = field(repr=False, compare=False, default=None)  # the mesh the scenario ran on, shared likewise

    def handed_out(self) -> ScenarioResult:
        """A result of its own for one caller: same figures, its own copies of the rounds and the mesh."""
        return replace(self)

    @functools.cached_property
    def runs(self) -> tuple[Run, ...]:
        """The rounds, in order: this result's own copy, which the caller may change."""
        return copy.deepcopy(self._runs)

    @functools.cached_property
    def mesh(self) -> Mesh:
        """The mesh the scenario left: this result's own copy, which the caller may change."""
        return copy_mesh(self._mesh)

    @property
    def turns(self) -> int:
        return sum(len(run.turns) for run in self._runs)

    @property
    def usage(self) -> TokenUsage:
        """What the provider billed, died rounds included."""
        return sum((run.usage for run in self._runs), TokenUsage())

    @property
    def cost(self) -> Decimal:
        return cost_of(self.usage, self.price)

    @property
    def recorded_cost(self) -> Decimal:
        return cost_of(self.recorded, self.price)

    def context_sizes(self) -> list[tuple[int, int]]:
        """(round, input tokens) of every model call, in order: the context shown at each turn."""
        return [(number, turn.context.total) for number, run in enumerate(self._runs, start=1) for turn in run.turns]


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


PROTOCOL_PLUGINS = ("Mesh:Get,Search,Create,Update,Patch",)  # the request's whitelist: no chunk tools
TITLES = {
    "naive": "1. Naive",
    "reread": "2. Re-read",
    "worksheet": "3. Worksheet protocol",
    "bulk": "4. Bulk create",
}


def scenario_config(key: str) -> AgentConfiguration:
    """The agent configuration scenario ``key`` runs with (as its agent node's JSON would carry it)."""
    if key not in TITLES:
        raise ValueError(f"unknown scenario {key!r}; choose one of {', '.join(TITLES)}")
    plugins = {"naive": ["Mesh", "ContentCollection"], "reread": ["Mesh", "ContentCollection"],
               "worksheet": list(PROTOCOL_PLUGINS), "bulk": [PROTOCOL_PLUGINS[0] + ",BulkCreate"]}[key]
    return AgentConfiguration("extractor", NAIVE_INSTRUCTIONS if key == "naive" else PROTOCOL_INSTRUCTIONS,
                              plugins=plugins,
                              max_tool_calls_per_round=LONG_ROUND_CAP if key in ("naive", "reread") else None)


def run_scenario(key: str, *, caching: bool = False, wire: str = DEFAULT_WIRE) -> ScenarioResult:
    """Run scenario ``naive``, ``reread``, ``worksheet`` or ``bulk`` on a fresh workspace, on ``wire``.

    The run is deterministic, so it runs once per process (the pages and the tests ask for the same
    scenarios again and again); each call gets its own copy of the rounds and of the mesh the scenario
    left, which the caller may go on changing.
    """
    return _run_scenario(key, caching, wire).handed_out()


@functools.cache
def _run_scenario(key: str, caching: bool, wire: str) -> ScenarioResult:
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
    return len(_reading()[2].nodes_to_create())


@functools.cache
def _reading() -> tuple[Mesh, Thread, Worksheet, Run]:
    # Scenario 3's reading round, run once per process and never handed out: _phase_one hands out copies.
    mesh = workspace()
    thread = Thread(THREAD)
    config = AgentConfiguration("extractor", PROTOCOL_INSTRUCTIONS, plugins=list(PROTOCOL_PLUGINS))
    run = _agent(config, protocol, mesh).start(thread, TASK)
    return mesh, thread, Worksheet.from_text(run.answer), run


def _phase_one() -> tuple[Mesh, Thread, Worksheet, Run]:
    """Scenario 3 after its reading round: copies of its mesh, thread and round, and the worksheet it answered."""
    mesh, thread, worksheet, run = _reading()
    thread, run = copy.deepcopy((thread, run))
    return copy_mesh(mesh), thread, worksheet, run


def interrupted(killed_after: int, *, random_ids: int | None = None) -> Interrupted:
    """Scenario 3 whose writing round dies after ``killed_after`` creates, resumed by a "continue" round.

    Phase 1 is run once and its state copied, so every k starts from the same
    worksheet. ``random_ids`` (a seed) makes the model invent fact ids.
    The run is deterministic, so it runs once per process (about 2 s of CPU for a sweep); each call gets
    its own copy of the rounds and of the mesh, which the caller may change.
    """
    run = _interrupted(killed_after, random_ids)
    return replace(run, result=run.result.handed_out())


@functools.cache
def _interrupted(killed_after: int, random_ids: int | None) -> Interrupted:
    mesh, thread0, worksheet, reading = _phase_one()
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
    """:func:`interrupted` for every k from 0 to all creates."""
    return [interrupted(k, random_ids=random_ids) for k in range(creates_in_scenario_3() + 1)]


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


@dataclass(frozen=True)
class WritePhaseSizes:
    """The sizes of a scenario's create calls, as the closed forms take them."""

    prefix: int   # P: the context of the first create call
    calls: int    # N: how many Create calls
    call: int     # the average tokens of one call item
    result: int   # the average tokens of its result item


def write_phase_sizes(result: ScenarioResult) -> WritePhaseSizes:
    """P, N and the average call and result sizes of the Create calls in ``result``'s last round."""
    turns = [t for t in result._runs[-1].turns if t.reply.tool_calls and t.reply.tool_calls[0].name == "Create"]
    if not turns:
        raise ValueError(f"scenario {result.key!r} issues no Create calls in its last round")
    calls = [item_tokens(c) for t in turns for c in t.reply.tool_calls]
    results = [item_tokens(r) for t in turns for r in t.results]
    return WritePhaseSizes(turns[0].context.total, len(calls), round(sum(calls) / len(calls)),
                           round(sum(results) / len(results)))


def stepwise_input_tokens(prefix: int, sizes: Sequence[int], batch_size: int | None = 1) -> int:
    """Input tokens of a round that issues calls of ``sizes`` tokens, ``batch_size`` per response, then answers.

    Response j is shown the prefix and every call before it, so the bill is
    ``(k+1)*P + sum over responses j of (sizes of the calls before j)``. With
    equal sizes d this is the closed form ``_cost.input_tokens``:
    sequential ``(N+1)*P + d*N(N+1)/2``, batched ``2*P + N*d``.
    """
    size = len(sizes) or 1 if batch_size is None else batch_size
    starts = range(0, len(sizes), size)
    return (len(starts) + 1) * prefix + sum(sum(sizes[:start]) for start in starts) + sum(sizes)


# -- the floor and the table ---------------------------------------------------------------


def floor_usage() -> TokenUsage:
    """The least any run can bill: the source read once, the worksheet written once, each node created once."""
    worksheet = _reading()[2]
    source = report_tokens()
    creates = sum(item_tokens(_call("Create", node=json.dumps(node))) for node in worksheet.nodes_to_create())
    return TokenUsage(input=source, output=item_tokens(Message("assistant", worksheet.to_text())) + creates)


def floor_cost() -> Decimal:
    return cost_of(floor_usage(), EXAMPLE_PRICES[DEFAULT_MODEL])


def scenario_table(results: Sequence[ScenarioResult], cached: Sequence[ScenarioResult] = ()) -> str:
    """The Markdown table the guide shows: one row per scenario, cost also as a multiple of the floor.

    ``cached`` are the same scenarios run with prompt caching; given, they add a column.
    """
    floor, usage = floor_cost(), floor_usage()
    caching = bool(cached)
    if caching and [r.key for r in cached] != [r.key for r in results]:
        raise ValueError("cached results must be the same scenarios, in the same order")
    head = "| scenario | turns | input tokens | output tokens | cost | × floor |"
    head += " with caching |" if caching else ""
    lines = [head + " nodes written | correct | rows not written (unexplained) |",
             "| --- | ---: | ---: | ---: | ---: | ---: |" + (" ---: |" if caching else "") + " ---: | ---: | ---: |"]
    for position, r in enumerate(results):
        explained = "—" if r.reconciliation is None else (
            f"{len(r.reconciliation.unwritten)} ({r.reconciliation.unexplained})")
        extra = f" ${cached[position].cost:.2f} |" if caching else ""
        lines.append(f"| {r.title} | {r.turns} | {r.usage.total_input:,} | {r.usage.output:,} | ${r.cost:.2f} | "
                     f"{r.cost / floor:.1f} |{extra} {r.grade.written} | {r.grade.correct} | {explained} |")
    lines.append(f"| Floor | | {usage.total_input:,} | "
                 f"{usage.output:,} | ${floor:.2f} | 1.0 |" + (" |" if caching else "") + " | | |")
    return "\n".join(lines) + "\n"


def caching_table(cached: Sequence[ScenarioResult]) -> str:
    """The scenarios billed with prompt caching: plain input, cache reads and writes, output and cost."""
    lines = ["| scenario (with caching) | plain input | cache read | cache write | output | cost |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in cached:
        u = r.usage
        lines.append(f"| {r.title} | {u.input:,} | {u.cache_read:,} | {u.cache_write:,} | {u.output:,} "
                     f"| ${r.cost:.2f} |")
    return "\n".join(lines) + "\n"
