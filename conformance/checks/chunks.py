"""Chunk claims (page: Content chunk navigation), observed through upload, get_chunk and search_chunks."""

from __future__ import annotations

import json

from conformance.fixtures import (
    CHUNK_SIZE,
    CHUNK_STRIDE,
    SEARCH_WORD,
    SNIPPET_LIMIT,
    expected_windows,
    long_text,
    short_text,
    slug,
)
from conformance.suite import Fixtures, check

CHUNK_TOOLS = {"upload", "get_chunk"}


async def long_file(fx: Fixtures) -> tuple[str, int]:
    """The long fixture, uploaded and indexed once per run: its file path and chunk count."""

    async def make() -> tuple[str, int]:
        file_path = await fx.upload("windows.md", long_text().encode("utf-8"))
        return file_path, await fx.indexed_chunks(file_path)

    return await fx.once("long-file", make)


async def chunk(fx: Fixtures, file_path: str, index: int) -> dict:
    return await fx.call_json("get_chunk", {"collectionPath": fx.collection, "filePath": file_path, "chunkIndex": index})


def _windows_differ(text: str, got: list[str | None], expected: list[str]) -> str:
    lengths = [len(t or "") for t in got]
    if len(got) != len(expected):
        return f"{len(text)} characters gave {len(got)} chunks of lengths {lengths}; expected {len(expected)} windows of {CHUNK_SIZE} every {CHUNK_STRIDE}"
    index = next(i for i, (a, b) in enumerate(zip(got, expected)) if a != b)
    return f"chunk {index} starts {str(got[index])[:24]!r}, expected {expected[index][:24]!r} (windows of {CHUNK_SIZE} every {CHUNK_STRIDE})"


@check("chunks.window-and-overlap", needs=CHUNK_TOOLS)
async def windows_overlap(fx: Fixtures) -> None:
    file_path, total = await long_file(fx)
    text = long_text()
    got = [(await chunk(fx, file_path, index)).get("text") for index in range(total)]
    expected = expected_windows(text)
    # verifies: chunks.window-and-overlap
    assert got == expected, _windows_differ(text, got, expected)


@check("chunks.window-and-overlap", needs=CHUNK_TOOLS)
async def short_file_is_one_chunk(fx: Fixtures) -> None:
    file_path = await fx.once("short-file", lambda: fx.upload("short.md", short_text().encode("utf-8")))
    total = await fx.indexed_chunks(file_path)
    only = await chunk(fx, file_path, 0)
    # verifies: chunks.window-and-overlap
    assert total == 1 and only.get("text") == short_text(), f"a file of {len(short_text())} characters gave {total} chunks"


@check("chunks.get-chunk-shape", needs=CHUNK_TOOLS)
async def get_chunk_shape(fx: Fixtures) -> None:
    file_path, total = await long_file(fx)
    first, last = await chunk(fx, file_path, 0), await chunk(fx, file_path, total - 1)
    keys = {"found", "collectionPath", "filePath", "chunkIndex", "text", "prevIndex", "nextIndex", "totalChunks"}
    # verifies: chunks.get-chunk-shape
    assert keys <= set(first), f"get_chunk lacks {sorted(keys - set(first))}: {sorted(first)}"
    # verifies: chunks.get-chunk-shape
    assert (first["found"], first["collectionPath"], first["filePath"], first["chunkIndex"]) == (True, fx.collection, file_path, 0), \
        f"get_chunk echoes {first['collectionPath']!r}, {first['filePath']!r}, {first['chunkIndex']!r}"
    # verifies: chunks.get-chunk-shape
    assert (first["prevIndex"], first["nextIndex"], last["prevIndex"], last["nextIndex"]) == (None, 1, total - 2, None), \
        f"prev/next at 0: {first['prevIndex']}/{first['nextIndex']}, at {total - 1}: {last['prevIndex']}/{last['nextIndex']}"


@check("chunks.out-of-range-is-an-answer", needs=CHUNK_TOOLS)
async def chunk_out_of_range(fx: Fixtures) -> None:
    file_path, total = await long_file(fx)
    for index in (total, -1):
        miss = await chunk(fx, file_path, index)
        expected = {"found": False, "collectionPath": fx.collection, "filePath": file_path, "chunkIndex": index,
                    "totalChunks": total, "message": f"No chunk at index {index}; valid range is 0..{total - 1}."}
        # verifies: chunks.out-of-range-is-an-answer
        assert miss == expected, f"get_chunk({index}) answered {miss}"


@check("chunks.out-of-range-is-an-answer", needs=CHUNK_TOOLS)
async def chunk_of_unindexed_file(fx: Fixtures) -> None:
    file_path = f"conformance/never-uploaded-{fx.run_id}.md"
    miss = await chunk(fx, file_path, 0)
    # verifies: chunks.out-of-range-is-an-answer
    assert miss.get("found") is False and miss.get("message") == f"No chunks indexed for '{file_path}' in '{fx.collection}'.", \
        f"get_chunk on a file never uploaded answered {miss}"


async def search_hits(fx: Fixtures, **arguments) -> dict:
    return await fx.call_json("search_chunks", arguments)


@check("chunks.search-chunks-shape", needs=CHUNK_TOOLS | {"search_chunks"})
async def search_chunks_shape(fx: Fixtures) -> None:
    file_path, _ = await long_file(fx)
    answer = await search_hits(fx, query=f"namespace:{fx.collection} {SEARCH_WORD}")
    hits = [hit for hit in answer.get("results", []) if hit.get("filePath") == file_path]
    # verifies: chunks.search-chunks-shape
    assert hits and answer.get("count") == len(answer["results"]), f"search_chunks for {SEARCH_WORD!r} answered {answer}"
    hit = hits[0]
    keys = {"documentPath", "collectionPath", "filePath", "chunkIndex", "rank", "snippet"}
    # verifies: chunks.search-chunks-shape
    assert keys <= set(hit) and hit["collectionPath"] == fx.collection, f"a hit has {sorted(hit)}"
    # verifies: chunks.search-chunks-shape
    assert [h["rank"] for h in answer["results"]] == list(range(len(answer["results"]))), "ranks are not 0, 1, 2, …"
    # verifies: chunks.search-chunks-shape
    assert "\n" not in hit["snippet"] and len(hit["snippet"]) <= SNIPPET_LIMIT + 1, \
        f"a snippet is one line of at most {SNIPPET_LIMIT} characters (+ '…'): {hit['snippet']!r}"


@check("chunks.search-chunks-scope", needs=CHUNK_TOOLS | {"search_chunks"})
async def search_chunks_scope(fx: Fixtures) -> None:
    file_path, _ = await long_file(fx)
    in_collection = await search_hits(fx, query=SEARCH_WORD, scope=fx.collection)
    at_node = await search_hits(fx, query=SEARCH_WORD, scope=fx.namespace)
    # verifies: chunks.search-chunks-scope
    assert any(hit.get("filePath") == file_path for hit in in_collection.get("results", [])), \
        f"scope={fx.collection!r} did not find the fixture: {in_collection}"
    # verifies: chunks.search-chunks-scope
    assert at_node.get("count") == 0, f"scope={fx.namespace!r} (a bare node path) found {at_node.get('count')} chunks"


@check("chunks.document-node-has-no-text", needs=CHUNK_TOOLS | {"get"})
async def document_node(fx: Fixtures) -> None:
    file_path, total = await long_file(fx)
    path = f"{fx.collection}/_Documents/{slug(file_path)}"

    async def probe():
        text = await fx.call("get", {"path": path})
        return text if text.lstrip().startswith("{") else None

    node = json.loads(await fx.eventually(probe, f"the Document node {path} (a host without a summarizer writes none)"))
    content = node.get("content") or {}
    # verifies: chunks.document-node-has-no-text
    assert node.get("nodeType") == "Document" and "text" not in content and content.get("chunkCount") == total, \
        f"Get {path} answered nodeType {node.get('nodeType')!r}, content keys {sorted(content)}"
