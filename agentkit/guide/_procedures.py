"""The scenarios' policy: the task, the agents' configurations and the scripted procedures they run.

1. ``naive``: one round; per value a chunk search and chunk reads; one Create a turn.
2. ``reread``: two phases, but phase 2 reads the document again; one Create a turn.
3. ``worksheet``: two phases; one Get on the file path built from the Search row; the ContentCollection plugin not whitelisted;
   creates in batches of 10; the worksheet is the only input of phase 2.
4. ``bulk``: as 3 with ``BulkCreate`` (agentkit's extension, off by default; the framework has no bulk
   create, M14).

The model's habits (reading a value per chunk, taking a label search's empty
answer as "missing", re-reading the document) are scripted: they reproduce
field observations, they are not measured.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any, Iterable, Sequence

from agentkit._config import AgentConfiguration
from agentkit._messages import ToolCall, ToolResult
from agentkit._paths import DOCUMENTS_SEGMENT, file_path_from_document, get_path_of_file
from agentkit._wire import returned_text

from ._checks import invented_key, reconcile
from ._facts import (
    DIMENSIONS, FACTS, Worksheet, WorksheetError, build_worksheet, checklist_text, dimension_node, dimension_path,
    fact_node, fact_path, parse_checklist,
)
from ._replay import Procedure, View
from ._report import REPORT

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

