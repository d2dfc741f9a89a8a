"""Chunk and Document claims (page: Architecture/ContentChunkNavigation.md), observed through upload, get,
search, search_chunks and get_chunk on files the suite uploads to `{namespace}/content/conformance/`."""

from __future__ import annotations

import hashlib
import json

import pytest

from conformance.checks.paths import PIXEL_PNG
from conformance.fixtures import (
    CHUNK_OVERLAP, CHUNK_SIZE, CHUNK_STRIDE, PDF_PAGES, SEARCH_WORD, SNIPPET_LIMIT, expected_windows, long_text, pdf, pdf_chunk_pages,
    pdf_index_text, short_text, slug, workbook, workbook_text,
)
from conformance.suite import FIXTURE_FOLDER, Fixtures, check, decoded, encode, file_miss, short

CHUNK_TOOLS = {"upload", "get_chunk"}
DOCUMENT_FIELDS = {"name", "summary", "collectionPath", "filePath", "sizeBytes", "contentHash", "chunkCount", "indexedAt"}


async def long_file(fx: Fixtures) -> tuple[str, int]:
    """The long fixture, uploaded and indexed once per run: its file path and chunk count."""

    async def make() -> tuple[str, int]:
        file_path = await fx.upload("windows.md", long_text().encode("utf-8"))
        return file_path, await fx.indexed_chunks(file_path)

    return await fx.once("long-file", make)


async def chunk(fx: Fixtures, file_path: str, index: int) -> dict:
    return await fx.call_json("get_chunk", {"collectionPath": fx.collection, "filePath": file_path, "chunkIndex": index})


async def document(fx: Fixtures, file_path: str, data: bytes | None = None) -> dict:
    """The file's Document node, once indexing wrote it (for exactly `data`, by its contentHash, when given: a
    Document an earlier upload of the file left does not count); skip on a host that writes none (no summarizer, D6)."""
    path = f"{fx.collection}/_Documents/{slug(file_path)}"
    digest = hashlib.sha256(data).hexdigest() if data is not None else None

    async def probe():
        text = await fx.get(path)
        node = json.loads(text) if text.lstrip().startswith("{") else None
        content = (node or {}).get("content") or {}
        return node if content.get("filePath") == file_path and digest in (None, content.get("contentHash")) else None

    return await fx.eventually(probe, f"the Document node {path} of {file_path} (a host without a summarizer writes none; "
                                      "on an AzureBlob content store Get answers [] there, chunks.document-node-has-no-text)")


def _windows_differ(text: str, got: list, expected: list[str]) -> str:
    lengths = [len(t or "") for t in got]
    if len(got) != len(expected):
        return (f"{len(text)} characters gave {len(got)} chunks of lengths {lengths}; "
                f"expected {len(expected)} windows of {CHUNK_SIZE} every {CHUNK_STRIDE}")
    index = next(i for i, (a, b) in enumerate(zip(got, expected)) if a != b)
    return f"chunk {index} starts {str(got[index])[:24]!r}, expected {expected[index][:24]!r} (windows of {CHUNK_SIZE} every {CHUNK_STRIDE})"


@check("chunks.window-and-overlap", needs=CHUNK_TOOLS)
async def windows_overlap(fx: Fixtures) -> None:
    file_path, total = await long_file(fx)
    short_path = await fx.file("short.md", short_text())
    got = [(await chunk(fx, file_path, index)).get("text") for index in range(total)]
    expected = expected_windows(long_text())
    # verifies: chunks.window-and-overlap
    assert got == expected, _windows_differ(long_text(), got, expected)
    short_total = await fx.indexed_chunks(short_path)
    only = await chunk(fx, short_path, 0)
    # verifies: chunks.window-and-overlap
    assert (short_total, only.get("chunkIndex"), only.get("text")) == (1, 0, short_text()), \
        f"a file of {len(short_text())} characters gave {short_total} chunks"


@check("chunks.chunks-reread-overlap", needs=CHUNK_TOOLS)
async def chunks_repeat_overlap(fx: Fixtures) -> None:
    file_path, total = await long_file(fx)
    texts = [(await chunk(fx, file_path, index)).get("text") or "" for index in range(total)]
    # verifies: chunks.chunks-reread-overlap
    assert sum(map(len, texts)) - len(long_text()) == CHUNK_OVERLAP * (total - 1) and \
        all(a[-CHUNK_OVERLAP:] == b[:CHUNK_OVERLAP] for a, b in zip(texts, texts[1:])), \
        f"{total} chunks hold {sum(map(len, texts))} characters of a {len(long_text())}-character text"


@check("chunks.get-chunk-shape", needs=CHUNK_TOOLS)
async def get_chunk_shape(fx: Fixtures) -> None:
    file_path, total = await long_file(fx)
    first, last = await chunk(fx, file_path, 0), await chunk(fx, file_path, total - 1)
    keys = {"found", "collectionPath", "filePath", "chunkIndex", "text", "prevIndex", "nextIndex", "totalChunks"}
    # verifies: chunks.get-chunk-shape
    assert set(first) == keys, f"get_chunk on a Markdown file answered the keys {sorted(first)}"
    # verifies: chunks.get-chunk-shape
    assert (first["found"], first["collectionPath"], first["filePath"], first["chunkIndex"]) == (True, fx.collection, file_path, 0), \
        f"get_chunk echoes {first['collectionPath']!r}, {first['filePath']!r}, {first['chunkIndex']!r}"
    # verifies: chunks.get-chunk-shape
    assert (first["prevIndex"], first["nextIndex"], last["prevIndex"], last["nextIndex"]) == (None, 1, total - 2, None), \
        f"prev/next at 0: {first['prevIndex']}/{first['nextIndex']}, at {total - 1}: {last['prevIndex']}/{last['nextIndex']}"


@check("chunks.out-of-range-is-an-answer", needs=CHUNK_TOOLS)
async def chunk_misses(fx: Fixtures) -> None:
    file_path, total = await long_file(fx)
    for index in (total, -1):
        miss = await chunk(fx, file_path, index)
        expected = {"found": False, "collectionPath": fx.collection, "filePath": file_path, "chunkIndex": index,
                    "totalChunks": total, "message": f"No chunk at index {index}; valid range is 0..{total - 1}."}
        # verifies: chunks.out-of-range-is-an-answer
        assert miss == expected, f"get_chunk({index}) answered {miss}"
    never = f"conformance/never-uploaded-{fx.run_id}.md"
    miss = await chunk(fx, never, 0)
    # verifies: chunks.out-of-range-is-an-answer
    assert miss.get("found") is False and miss.get("message") == f"No chunks indexed for '{never}' in '{fx.collection}'.", \
        f"get_chunk on a file never uploaded answered {miss}"
    blank = await fx.call_json("get_chunk", {"collectionPath": fx.collection, "filePath": " ", "chunkIndex": 0})
    # verifies: chunks.out-of-range-is-an-answer
    assert blank == {"count": 0, "results": [], "message": "'filePath' is required."}, f"get_chunk with a blank filePath answered {blank}"


async def search_chunks(fx: Fixtures, **arguments) -> dict:
    return await fx.call_json("search_chunks", arguments)


@check("chunks.search-chunks-shape", needs=CHUNK_TOOLS | {"search_chunks"})
async def search_chunks_shape(fx: Fixtures) -> None:
    file_path, _ = await long_file(fx)
    answer = await search_chunks(fx, query=f"namespace:{fx.collection} {SEARCH_WORD}")
    results = answer.get("results", [])
    hits = [hit for hit in results if hit.get("filePath") == file_path]
    # verifies: chunks.search-chunks-shape
    assert hits and answer.get("count") == len(results) and set(answer) <= {"count", "results", "message"}, \
        f"search_chunks for {SEARCH_WORD!r} answered {str(answer)[:200]}"
    hit = hits[0]
    # verifies: chunks.search-chunks-shape
    assert set(hit) == {"documentPath", "collectionPath", "filePath", "chunkIndex", "rank", "snippet"} and \
        (hit["collectionPath"], hit["documentPath"]) == (fx.collection, f"{fx.collection}/_Documents/{slug(file_path)}"), \
        f"a hit on a Markdown file is {hit}"
    # verifies: chunks.search-chunks-shape
    assert [h["rank"] for h in results] == list(range(len(results))), f"ranks are {[h['rank'] for h in results]}"
    # verifies: chunks.search-chunks-shape
    assert all("\n" not in h["snippet"] and (len(h["snippet"]) <= SNIPPET_LIMIT or
                                            (len(h["snippet"]) == SNIPPET_LIMIT + 1 and h["snippet"].endswith("…")))
               for h in results), f"a snippet is one line of at most {SNIPPET_LIMIT} characters + '…': {hit['snippet']!r}"
    several = await search_chunks(fx, query=f"namespace:{fx.collection} line", limit=3)
    capped = [len((await search_chunks(fx, query=f"namespace:{fx.collection} line", limit=limit))["results"]) for limit in (0, 500)]
    same_file = [h["chunkIndex"] for h in several["results"] if h["filePath"] == file_path]
    # verifies: chunks.search-chunks-shape
    assert len(several["results"]) == 3 and len(same_file) >= 2 and capped[0] == 1 and capped[1] <= 200, \
        f"limit 3 gave {len(several['results'])} hits ({len(same_file)} of one file); limits 0 and 500 gave {capped}"


@check("chunks.search-chunks-scope", needs=CHUNK_TOOLS | {"search_chunks"})
async def search_chunks_anchoring(fx: Fixtures) -> None:
    file_path, _ = await long_file(fx)
    in_collection = await search_chunks(fx, query=SEARCH_WORD, scope=fx.collection)
    at_node = await search_chunks(fx, query=SEARCH_WORD, scope=fx.namespace)
    # verifies: chunks.search-chunks-scope
    assert any(hit.get("filePath") == file_path for hit in in_collection.get("results", [])), \
        f"scope={fx.collection!r} did not find the fixture: {str(in_collection)[:200]}"
    # verifies: chunks.search-chunks-scope
    assert at_node.get("count") == 0, f"scope={fx.namespace!r} (a node path) found {at_node.get('count')} chunks"


@check("chunks.namespace-wins-over-scope", needs=CHUNK_TOOLS | {"search_chunks"})
async def namespace_wins_over_scope(fx: Fixtures) -> None:
    file_path, _ = await long_file(fx)
    namespace_wins = await search_chunks(fx, query=f"namespace:{fx.collection} {SEARCH_WORD}", scope=fx.namespace)
    # verifies: chunks.namespace-wins-over-scope
    assert any(hit.get("filePath") == file_path for hit in namespace_wins.get("results", [])), \
        "a namespace: in the query did not win over the scope"


@check("chunks.scope-clean-up", needs=CHUNK_TOOLS | {"search_chunks"})
async def scope_clean_up(fx: Fixtures) -> None:
    file_path, _ = await long_file(fx)
    scopes = (f"@@{fx.collection}", f" /{fx.collection}/ ")
    found = [any(hit.get("filePath") == file_path for hit in (await search_chunks(fx, query=SEARCH_WORD, scope=scope)).get(
        "results", [])) for scope in scopes]
    # verifies: chunks.scope-clean-up
    assert found == [True, True], f"search_chunks with the scopes {scopes} found the fixture: {found}"


@check("chunks.descriptions-say-get-the-document", needs={"search_chunks"})
async def search_chunks_says_get_the_document(fx: Fixtures) -> None:
    description = fx.mcp.tools["search_chunks"].description or ""
    # verifies: chunks.descriptions-say-get-the-document
    assert "for whole-document reads (e.g. table extraction) use `Get` on the Document" in description, \
        f"search_chunks' description: {description[:200]!r}"


@check("chunks.plugin-and-tools", needs={"search_chunks", "get_chunk"})
async def chunk_tools_listed(fx: Fixtures) -> None:
    names = set(fx.mcp.tools)
    # verifies: chunks.plugin-and-tools
    assert {"search_chunks", "get_chunk"} <= names and not names & {"search_documents", "content_chunks", "search_chunk"}, \
        f"the chunk tools over MCP are {sorted(n for n in names if 'chunk' in n or 'document' in n)}"


@check("chunks.upload-content-does-not-index", needs=CHUNK_TOOLS)
async def mcp_upload_indexes(fx: Fixtures) -> None:
    file_path, total = await long_file(fx)  # uploaded through MCP; waits until get_chunk finds it
    # verifies: chunks.upload-content-does-not-index
    assert total == len(expected_windows(long_text())), f"after an MCP upload the file has {total} chunks"


ACTIVITY_TOOLS = CHUNK_TOOLS | {"search", "get"}


async def activity_paths(fx: Fixtures, file_name: str) -> set[str]:
    """The paths of the Activity nodes named `Index {file_name}` that search lists under the namespace node."""
    found = await fx.call_json("search", {"query": f"namespace:{fx.namespace}/_Activity", "limit": 200})
    rows = found.get("results", []) if isinstance(found, dict) else []
    return {row.get("path") for row in rows if row.get("name") == f"Index {file_name}"}


async def ended_activity(fx: Fixtures, file_name: str, before: set[str]) -> dict:
    """The Activity node of an upload made after `before` was listed, once Get shows it ended (a status other
    than Running, which the framework's JSON leaves out as ActivityStatus' default)."""

    async def probe():
        for path in sorted(await activity_paths(fx, file_name) - before):
            text = await fx.get(path)
            node = json.loads(text) if text.lstrip().startswith("{") else {}
            if ((node.get("content") or {}).get("status") or "Running") != "Running":
                return node
        return None

    return await fx.eventually(probe, f"an ended Activity node 'Index {file_name}' under {fx.namespace}/_Activity "
                                      "(a host without an indexing pipeline starts none)")


@check("chunks.upload-answers-before-indexing", needs=ACTIVITY_TOOLS)
async def upload_activity_tells_apart(fx: Fixtures) -> None:
    await long_file(fx)  # the collection takes uploads and indexes them (else the check skips)
    before = await activity_paths(fx, "activity.md")
    file_path = await fx.upload("activity.md", short_text().encode("utf-8"))
    await fx.indexed_chunks(file_path)
    readable = await ended_activity(fx, "activity.md", before)
    # verifies: chunks.upload-answers-before-indexing
    assert readable["content"]["status"] == "Succeeded", \
        f"the Activity of a readable upload ended {readable['content']['status']!r}"
    _, damaged = await fx.once("damaged-activity", lambda: damaged_upload(fx))
    # verifies: chunks.upload-answers-before-indexing
    assert damaged["content"]["status"] == "Failed", f"the Activity of a damaged PDF ended {damaged['content']['status']!r}"


DAMAGED_PDF = b"%PDF-1.7\n% cut off after its header"  # no PDF reader can open it


async def damaged_upload(fx: Fixtures) -> tuple[str, dict]:
    """Upload the damaged PDF once per run; return its answer and, once it ended, its Activity node."""
    path = f"{fx.collection}/{FIXTURE_FOLDER}/damaged.pdf"
    before = await activity_paths(fx, "damaged.pdf")
    answer = await fx.call("upload", {"path": path, "base64Content": encode(DAMAGED_PDF)})
    fx.uploaded_files[path] = None
    return answer, await ended_activity(fx, "damaged.pdf", before)


@check("chunks.unreadable-upload-stored", needs=ACTIVITY_TOOLS)
async def unreadable_upload(fx: Fixtures) -> None:
    await long_file(fx)  # the collection takes uploads (else the check skips), so the answer below is the PDF's
    path = f"{fx.collection}/{FIXTURE_FOLDER}/damaged.pdf"
    answer, activity = await fx.once("damaged-activity", lambda: damaged_upload(fx))
    # verifies: chunks.unreadable-upload-stored
    assert answer == json.dumps({"status": "Uploaded", "path": path, "bytes": len(DAMAGED_PDF)}, separators=(",", ":")), \
        f"uploading a PDF indexing cannot read answered {short(answer)}"
    await long_file(fx)  # indexing has had time to run (and fail) for the damaged file, too
    found = await chunk(fx, f"{FIXTURE_FOLDER}/damaged.pdf", 0)
    # verifies: chunks.unreadable-upload-stored
    assert found.get("found") is False and found.get("totalChunks") == 0, f"the damaged PDF has chunks: {short(json.dumps(found))}"
    last = (activity["content"].get("messages") or [{}])[-1]
    # verifies: chunks.unreadable-upload-stored
    assert activity["path"].startswith(f"{fx.namespace}/_Activity/") and activity["name"] == "Index damaged.pdf" and \
        activity["content"]["status"] == "Failed" and last.get("logLevel") == "Error" and last.get("message"), \
        f"the damaged PDF's Activity: {short(json.dumps(activity))}"


async def document_row(fx: Fixtures, path: str) -> dict:
    """The search row of the Document node at `path`, once the index shows it."""

    async def row():
        found = await fx.call_json("search", {"query": "nodeType:Document", "basePath": path.rsplit("/", 1)[0], "limit": 200})
        return next((r for r in found.get("results", []) if r.get("path") == path), None)

    return await fx.eventually(row, f"{path} in search (a host without a summarizer writes no Document node)")


@check("chunks.document-node-has-no-text", needs=CHUNK_TOOLS | {"get", "search"})
async def document_node(fx: Fixtures) -> None:
    file_path, total = await long_file(fx)
    path = f"{fx.collection}/_Documents/{slug(file_path)}"
    if await fx.get(path) == "[]":  # an AzureBlob store lists the folder _Documents/{slug} first
        row = await document_row(fx, path)
        pytest.skip(f"Get answers [] at the Document path {path}, whose node exists ({short(json.dumps(row))}): an AzureBlob "
                   "content store, where chunks.document-node-on-azureblob holds instead")
    node = await document(fx, file_path)
    content = node.get("content") or {}
    # verifies: chunks.document-node-has-no-text
    assert node.get("nodeType") == "Document" and set(content) - {"$type"} == DOCUMENT_FIELDS, \
        f"the Document node is a {node.get('nodeType')!r} with content keys {sorted(content)}"
    # verifies: chunks.document-node-has-no-text
    assert (content["name"], content["collectionPath"], content["filePath"], content["chunkCount"], content["sizeBytes"]) == \
        ("windows.md", fx.collection, file_path, total, len(long_text().encode("utf-8"))), f"the Document says {content}"


@check("chunks.document-node-path", needs=CHUNK_TOOLS | {"get"})
async def document_node_path(fx: Fixtures) -> None:
    name = "Slug (draft) #2.md"
    file_path = await fx.file(name, short_text())
    node = await document(fx, file_path)
    # verifies: chunks.document-node-path
    assert node.get("path") == f"{fx.collection}/_Documents/conformance-Slug-draft-2.md", \
        f"the Document of {file_path!r} is at {node.get('path')!r}"


@check("chunks.slug-collision-last-wins", needs=CHUNK_TOOLS | {"get"})
async def slug_collision(fx: Fixtures) -> None:
    first = await fx.upload("same name.md", b"first of two files with one slug\n")
    await fx.indexed_chunks(first)
    second = await fx.upload("same-name.md", b"second of two files with one slug\n")
    node = await document(fx, second)
    texts = [await fx.read_file(path) for path in (first, second)]
    # verifies: chunks.slug-collision-last-wins
    assert node["content"]["filePath"] == second and texts == ["first of two files with one slug\n", "second of two files with one slug\n"], \
        f"the shared Document names {node['content']['filePath']!r}; the files read {texts}"


@check("chunks.string-rule-is-lossy", needs=CHUNK_TOOLS | {"get"})
async def string_rule_names_no_file(fx: Fixtures) -> None:
    file_path, _ = await long_file(fx)
    by_string_rule = f"{fx.collection}/{slug(file_path)}"
    answer = await fx.get(by_string_rule)
    # verifies: chunks.string-rule-is-lossy
    assert answer == file_miss(slug(file_path)), f"the string rule's path {by_string_rule!r} answered {answer[:100]!r}"


@check("unified-path.forms-before-the-split", needs={"upload", "get"})
async def area_folder_takes_the_area_route(fx: Fixtures) -> None:
    data = b"A file in a folder named area.\n"
    file_path = await fx.upload("area/map.md", data)  # upload splits {node}/{collection}/{filePath}: no area route
    by_fields = await fx.get(f"{fx.collection}/{file_path}")
    old_form = await fx.read(f"{fx.namespace}/content:{file_path}")
    # verifies: unified-path.forms-before-the-split
    assert decoded(by_fields) != data.decode("utf-8") and old_form == data.decode("utf-8"), \
        f"Get {fx.collection}/{file_path} answered {short(by_fields)}; the old form {fx.namespace}/content:{file_path} {short(old_form)}"


@check("chunks.colon-in-path-old-form", needs={"upload", "get"})
async def colon_takes_the_old_form(fx: Fixtures) -> None:
    data = b"A file whose name holds a colon.\n"
    file_path = await fx.upload("Q3: notes.md", data)
    by_fields = await fx.get(f"{fx.collection}/{file_path}")
    old_form = await fx.read(f"{fx.namespace}/content:{file_path}")
    # verifies: chunks.colon-in-path-old-form
    assert decoded(by_fields) != data.decode("utf-8") and old_form == data.decode("utf-8"), \
        f"Get {fx.collection}/{file_path} answered {short(by_fields)}; the old form {fx.namespace}/content:{file_path} {short(old_form)}"


@check("chunks.file-path-returns-text", needs=CHUNK_TOOLS | {"get"})
async def file_path_returns_text(fx: Fixtures) -> None:
    file_path, _ = await long_file(fx)
    text = await fx.read_file(file_path)
    # verifies: chunks.file-path-returns-text
    assert text == long_text(), f"Get on the file answered {len(text)} characters, not the {len(long_text())} uploaded"


@check("chunks.search-rows-lack-file-fields", needs=CHUNK_TOOLS | {"get", "search"})
async def search_rows_lack_file_fields(fx: Fixtures) -> None:
    file_path, _ = await long_file(fx)
    found = await document_row(fx, f"{fx.collection}/_Documents/{slug(file_path)}")
    # verifies: chunks.search-rows-lack-file-fields
    assert found.get("nodeType") == "Document" and not {"collectionPath", "filePath"} & set(found), f"the search row is {found}"


@check("chunks.xlsx-not-indexed", needs=CHUNK_TOOLS | {"get"})
async def workbook_not_indexed(fx: Fixtures) -> None:
    book = await fx.file("book.xlsx", workbook())
    # Indexing runs in upload order: once a file uploaded after the workbook is indexed, the workbook had its turn.
    after = await fx.upload("after-book.md", b"uploaded after the workbook\n")
    await fx.indexed_chunks(after)
    miss = await chunk(fx, book, 0)
    node = await fx.get(f"{fx.collection}/_Documents/{slug(book)}")
    text = await fx.read_file(book)
    # verifies: chunks.xlsx-not-indexed
    assert miss.get("found") is False and miss.get("message") == f"No chunks indexed for '{book}' in '{fx.collection}'.", \
        f"get_chunk on an uploaded workbook answered {miss}"
    # verifies: chunks.xlsx-not-indexed
    assert not node.lstrip().startswith("{") and text.replace("\r\n", "\n") == workbook_text(), \
        f"the workbook's Document path answered {node[:80]!r}; Get on the file {text[:80]!r}"


@check("chunks.pdf-chunks-have-pages", needs=CHUNK_TOOLS)
async def pdf_chunk_pages_and_boxes(fx: Fixtures) -> None:
    file_path = await fx.file("pages.pdf", pdf())
    total = await fx.indexed_chunks(file_path)
    chunks = [await chunk(fx, file_path, index) for index in range(total)]
    # verifies: chunks.pdf-chunks-have-pages
    assert [c.get("page") for c in chunks] == pdf_chunk_pages(), \
        f"the chunks of a two-page PDF start on pages {[c.get('page') for c in chunks]}, not {pdf_chunk_pages()}"
    boxes = [c.get("bbox") or {} for c in chunks]
    # verifies: chunks.pdf-chunks-have-pages
    assert all(set(box) == {"x", "y", "w", "h"} and all(0 <= box[k] <= 1 for k in box) and box["w"] > 0 and box["h"] > 0
               for box in boxes), f"the chunks' boxes are {boxes}"


@check("chunks.string-rule-works-for-slug-safe-names", needs=CHUNK_TOOLS | {"get"})
async def string_rule_for_slug_safe_name(fx: Fixtures) -> None:
    text = "A slug-safe name at the root of the collection content.\n"
    file_path = await fx.file("conformance-slug-safe.md", text, at_root=True)
    node = await document(fx, file_path)
    by_string_rule = node["path"].replace("/_Documents/", "/")
    answer = await fx.read(by_string_rule)
    # verifies: chunks.string-rule-works-for-slug-safe-names
    assert answer == text, f"the string rule's path {by_string_rule!r} answered {answer[:80]!r}"


@check("chunks.get-answers-a-json-string", needs={"get", "upload"})
async def get_answers_a_json_string(fx: Fixtures) -> None:
    text = 'Größe: "5 €"\nsecond line\n'
    file_path = await fx.file("quoted.md", text)
    answer = await fx.get(f"{fx.collection}/{file_path}")
    # verifies: chunks.get-answers-a-json-string
    assert answer.startswith('"') and json.loads(answer) == text, f"Get on a file answered {answer[:80]!r}, not one JSON string"
    # verifies: chunks.get-answers-a-json-string
    assert answer.isascii() and "\n" not in answer and "\\n" in answer and "\\u0022" in answer, \
        f"the JSON string does not escape line breaks, quotes and non-ASCII as the framework does: {answer!r}"


@check("chunks.pdf-index-text-differs", needs=CHUNK_TOOLS | {"get"})
async def pdf_index_text_differs(fx: Fixtures) -> None:
    file_path = await fx.file("pages.pdf", pdf())
    total = await fx.indexed_chunks(file_path)
    texts = [(await chunk(fx, file_path, index)).get("text") for index in range(total)]
    expected = expected_windows(pdf_index_text())
    # verifies: chunks.pdf-index-text-differs
    assert texts == expected, "the chunks of a PDF are not its words joined by spaces, pages by one newline: " + \
        _windows_differ(pdf_index_text(), texts, expected)
    got = await fx.read_file(file_path)
    # verifies: chunks.pdf-index-text-differs
    assert got != pdf_index_text() and all(line in got.replace("\r\n", "\n") for page in PDF_PAGES for line in page[:1]), \
        f"Get on the PDF answered the indexed text itself, or lost its lines: {got[:120]!r}"


@check("chunks.get-pdf-loses-table-structure", needs={"get", "upload"})
async def get_pdf_runs_strings_together(fx: Fixtures) -> None:
    got = (await fx.read_file(await fx.file("pages.pdf", pdf()))).replace("\r\n", "\n")
    # Each line is one Tj and T* draws no space: PdfPig's page.Text runs the lines together, pages by "\n" (C9).
    expected = "\n".join("".join(lines) for lines in PDF_PAGES)
    # verifies: chunks.get-pdf-loses-table-structure
    assert got == expected, f"Get on the PDF did not run its lines together with nothing inserted: {got[:160]!r}"


@check("chunks.get-pdf-inserts-nothing", needs={"get", "upload"})
async def get_pdf_inserts_nothing(fx: Fixtures) -> None:
    file_path = await fx.file("pages.pdf", pdf())
    pages = (await fx.read_file(file_path)).replace("\r\n", "\n").split("\n")
    # Each line is one string the PDF draws, without a trailing space: within a page they run together.
    # verifies: chunks.get-pdf-inserts-nothing
    assert pages == ["".join(lines) for lines in PDF_PAGES], f"Get inserted a break or a space within a page: {pages!r}"[:240]


async def image_document(fx: Fixtures) -> tuple[str, str | None]:
    """The image fixture's file path and the Get answer at its Document path, or None on a host that wrote no
    Document for it (no image describer, D5/D6). Indexing runs in upload order: once a file uploaded after the
    image is indexed, the image had its turn."""
    file_path = await fx.file("pixel.png", PIXEL_PNG)
    after = await fx.upload("after-pixel.md", b"uploaded after the image\n")
    await fx.indexed_chunks(after)
    answer = await fx.get(f"{fx.collection}/_Documents/{slug(file_path)}")
    return file_path, answer if answer.lstrip().startswith("{") else None


@check("chunks.recovery-signature", needs=CHUNK_TOOLS | {"get"})
async def recovery_signature(fx: Fixtures) -> None:
    file_path, _ = await long_file(fx)
    node = await document(fx, file_path)
    content = node.get("content") or {}
    # verifies: chunks.recovery-signature
    assert content.get("$type") == "Document" and isinstance(content.get("summary"), str), \
        f"Get on a Document node answered content without the signature ($type Document, a summary): {short_keys(content)}"
    text = await fx.read(f"{content['collectionPath']}/{content['filePath']}")
    # verifies: chunks.recovery-signature
    assert text == long_text(), f"the path built from the Document's content answered {text[:80]!r}, not the file's text"
    # The image clause holds where the host writes an image's Document (an image describer); without one
    # the image's file path answers a placeholder, which unified-path.images-never-bytes checks.
    image_path, image_node = await image_document(fx)
    if image_node is not None:
        again = await fx.get(f"{fx.collection}/{image_path}")
        # verifies: chunks.recovery-signature
        assert json.loads(again).get("path") == json.loads(image_node).get("path"), \
            f"Get on an image's file path in content answered {again[:100]!r}, not its Document node"


def short_keys(content: dict) -> list[str]:
    return sorted(content)[:12]


@check("chunks.fields-give-the-get-path", needs=CHUNK_TOOLS | {"get", "search_chunks"})
async def text_lives_in_the_file(fx: Fixtures) -> None:
    file_path, _ = await long_file(fx)
    await document(fx, file_path)
    answer = await search_chunks(fx, query=f"namespace:{fx.collection} {SEARCH_WORD}")
    hit = next(hit for hit in answer["results"] if hit.get("filePath") == file_path)
    by_hit = await fx.read(f"{hit['collectionPath']}/{hit['filePath']}")
    # verifies: chunks.fields-give-the-get-path
    assert by_hit == long_text(), f"Get {hit['collectionPath']}/{hit['filePath']} answered {by_hit[:80]!r}"
    node_text = await fx.get(hit["documentPath"])
    content = (json.loads(node_text).get("content") or {}) if node_text.startswith("{") else {}
    # verifies: chunks.fields-give-the-get-path
    assert content.get("filePath") == file_path and SEARCH_WORD not in node_text, \
        f"Get on the hit's Document node {hit['documentPath']} answered {node_text[:120]!r}: not metadata without the text"
    text = await fx.read(f"{content['collectionPath']}/{content['filePath']}")
    # verifies: chunks.fields-give-the-get-path
    assert text == long_text(), f"Get on the path built from the Document's fields answered {text[:80]!r}"


# -- Document nodes are nodes like any other -------------------------------------------------------------
# Both checks write new bytes on every run: the framework's hash gate skips a file whose bytes it indexed
# before, so only changed bytes make it index (and write the Document node) again.


async def written_for(fx: Fixtures, file_path: str, data: bytes) -> dict | None:
    """The file's Document node as indexing wrote it for `data`, or None when indexing did not write it in time.
    Call only after the host has shown that it writes Document nodes (else None says nothing)."""
    try:
        return await document(fx, file_path, data)
    except pytest.skip.Exception:
        return None


@check("chunks.indexing-replaces-node-at-document-path", needs=CHUNK_TOOLS | {"get", "create", "delete"})
async def indexing_replaces_node_at_document_path(fx: Fixtures) -> None:
    await document(fx, (await long_file(fx))[0])  # skips on a host that writes no Document nodes (D6)
    file_path = "conformance/replaced.md"
    path = f"{fx.collection}/_Documents/{slug(file_path)}"
    await fx.call("delete", {"paths": json.dumps([path])})  # the Document node an earlier run's indexing wrote, if any
    namespace, node_id = path.rsplit("/", 1)
    created = await fx.call("create", {"node": json.dumps({
        "id": node_id, "namespace": namespace, "name": "Agent notes", "nodeType": "Markdown",
        "content": {"draft": "Ask about the order book."}})})
    # verifies: chunks.indexing-replaces-node-at-document-path
    assert created == f"Created: {path}", f"create at the Document path {path} answered {created[:120]!r}"
    fx.created_nodes.append(path)
    data = f"Replaced notes of run {fx.run_id}: the order book grew.\n".encode("utf-8")
    await fx.upload("replaced.md", data)
    node = await written_for(fx, file_path, data)
    now = node or await fx.get(path)
    # verifies: chunks.indexing-replaces-node-at-document-path
    assert node is not None, f"indexing {file_path} did not write its Document over the node at {path}: get answers {short(now, 200)}"
    fx.release(path)  # the file's Document node now, which stays as every fixture file's does
    content = node.get("content") or {}
    # verifies: chunks.indexing-replaces-node-at-document-path
    assert (node.get("nodeType"), node.get("name"), content.get("$type")) == ("Document", "replaced.md", "Document") and \
        "draft" not in content, f"the node at {path} after indexing is {short(node, 200)}"


async def chunk_text_is(fx: Fixtures, file_path: str, data: bytes) -> bool | None:
    """True once the file's first chunk holds `data` (an earlier upload's chunks do not count), else None."""
    return True if (await chunk(fx, file_path, 0)).get("text") == data.decode("utf-8") else None


@check("chunks.reupload-poll-content-hash", needs=CHUNK_TOOLS | {"get"})
async def reupload_waits_for_content_hash(fx: Fixtures) -> None:
    await document(fx, (await long_file(fx))[0])  # skips on a host that writes no Document nodes (D6)
    first = f"Revised notes of run {fx.run_id}, first take.\n".encode("utf-8")
    file_path = await fx.upload("revised.md", first)
    await document(fx, file_path, first)
    second = f"Revised notes of run {fx.run_id}, second take.\n".encode("utf-8")
    await fx.upload("revised.md", second)
    # Whether chunk 0 still holds the first take right after this answer is a race (a fast host may have
    # indexed already); what holds on every host is the order: the Document node's contentHash is the SHA-256
    # of the second take only after indexing replaced the chunks.
    await document(fx, file_path, second)
    got = await chunk(fx, file_path, 0)
    # verifies: chunks.reupload-poll-content-hash
    assert got.get("text") == second.decode("utf-8"), \
        f"the Document node of {file_path} has the second take's contentHash, but chunk 0 is {short(got, 120)}"


DANGLING_WORD = "vellumfinch"  # a word only the dangling fixture holds


@check("chunks.deleted-document-node-dangles", needs=CHUNK_TOOLS | {"get", "delete", "search_chunks"})
async def deleted_document_node_dangles(fx: Fixtures) -> None:
    await document(fx, (await long_file(fx))[0])  # skips on a host that writes no Document nodes (D6)
    data = f"Dangling note of run {fx.run_id}: {DANGLING_WORD} marks this file.\n".encode("utf-8")
    file_path = await fx.upload("dangling.md", data)
    await fx.eventually(lambda: chunk_text_is(fx, file_path, data), f"this run's chunk of {file_path}")
    node = await document(fx, file_path, data)
    path = node["path"]
    deleted = await fx.call("delete", {"paths": json.dumps([path])})
    answer = await fx.get(path)
    # verifies: chunks.deleted-document-node-dangles
    assert deleted == f"Deleted: {path}" and (answer.startswith(("Error", "Not found")) or answer == "[]"), \
        f"delete of the Document node answered {deleted[:100]!r}; get on its path then {answer[:100]!r}"
    found = await search_chunks(fx, query=f"namespace:{fx.collection} {DANGLING_WORD}")
    hits = [hit for hit in found.get("results", []) if hit.get("filePath") == file_path]
    got = await chunk(fx, file_path, 0)
    text = await fx.read_file(file_path)
    # verifies: chunks.deleted-document-node-dangles
    assert hits and all(hit.get("documentPath") == path for hit in hits) and \
        (got.get("found"), got.get("text"), text) == (True, data.decode(), data.decode()), \
        f"after the delete: hits {short(hits, 160)}, chunk 0 {short(got, 100)}, the file {text[:60]!r}"
    again = data + b"Indexed again.\n"
    await fx.upload("dangling.md", again)
    rewritten = await written_for(fx, file_path, again)
    # verifies: chunks.deleted-document-node-dangles
    assert rewritten is not None and rewritten.get("path") == path, f"indexing {file_path} again wrote no Document node at {path}"


@check("chunks.chunk-paths-case-sensitive", needs=CHUNK_TOOLS | {"get"})
async def chunk_paths_compared_exactly(fx: Fixtures) -> None:
    file_path, _ = await long_file(fx)
    upper_collection = f"{fx.namespace}/Content"
    text = await fx.read(f"{upper_collection}/{file_path}")
    by_case = [await fx.call_json("get_chunk", {"collectionPath": collection, "filePath": name, "chunkIndex": 0})
               for collection, name in ((upper_collection, file_path), (fx.collection, file_path.upper()),
                                        (fx.collection, file_path))]
    found = [answer.get("found") if isinstance(answer, dict) else answer for answer in by_case]
    # verifies: chunks.chunk-paths-case-sensitive
    assert text == long_text(), f"get {upper_collection}/{file_path} answered {short(text)}"
    # verifies: chunks.chunk-paths-case-sensitive
    assert found == [False, False, True], f"get_chunk by {upper_collection!r}, by {file_path.upper()!r}, as hit: {found}"
