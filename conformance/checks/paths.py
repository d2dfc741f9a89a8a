"""Unified-path claims (page: DataMesh/UnifiedPath.md), observed through get on files the suite uploads."""

from __future__ import annotations

import base64
import json
import unicodedata

import pytest

from conformance.fixtures import DOCX_HEADING, DOCX_PARAGRAPH, docx, workbook, workbook_text
from conformance.suite import FIXTURE_FOLDER, Fixtures, check, encode, file_miss, short

NOTE = "Größe: 5 €\nA note the conformance suite uploads and reads back.\n"
CSV = "name;value\nrevenue;1,234.5\n"


async def note(fx: Fixtures) -> str:
    """`conformance/note.md` in the namespace's collection: its file path there."""
    return await fx.file("note.md", NOTE)


@check("unified-path.other-words-are-node-paths", needs={"get", "upload"})
async def other_words(fx: Fixtures) -> None:
    await note(fx)
    path = f"{fx.namespace}/conformance/note.md"  # 'conformance' is no reserved word: a node path
    answer = await fx.get(path)
    # verifies: unified-path.other-words-are-node-paths
    assert answer == f"Not found: {path}", f"get {path!r} answered {answer[:100]!r}"


@check("unified-path.reserved-prefixes", needs={"get", "upload"})
async def reserved_word_any_case(fx: Fixtures) -> None:
    file_path = await note(fx)
    answers = [await fx.read(f"{fx.namespace}/{word}/{file_path}") for word in ("content", "Content", "CONTENT")]
    # verifies: unified-path.reserved-prefixes
    assert answers == [NOTE] * 3, f"content/Content/CONTENT read {[a[:40] for a in answers]}"


async def lists_missing_folders(fx: Fixtures) -> bool:
    """Does the content store list a missing folder as empty (Azure Blob storage) instead of failing (a file-system
    store, fact S1)? Get on a nested path that names nothing answers `[]` on the first and the file's error on the
    second."""
    async def probe() -> bool:
        await note(fx)
        answer = await fx.get(f"{fx.collection}/conformance/absent-{fx.run_id}/x.md")
        empty = answer == "[]"
        fx.note("the content store lists a missing folder as empty (Azure Blob storage)" if empty
                else "the content store refuses a missing folder (file-system storage)")
        return empty
    return await fx.once("lists-missing-folders", probe)


@check("unified-path.content-listing", needs={"get", "upload"})
async def content_listing(fx: Fixtures) -> None:
    await note(fx)
    root = await fx.get(f"{fx.collection}/")
    items = json.loads(root) if root.lstrip().startswith("[") else None
    # verifies: unified-path.content-listing
    assert isinstance(items, list) and all(isinstance(i, dict) and str(i.get("path", "")).startswith("/") for i in items), \
        f"get {fx.collection}/ answered {root[:160]!r}: expected an array of items with a path from the root"
    kinds = [bool(item.get("isFolder")) for item in items]
    # verifies: unified-path.content-listing
    assert {"path": "/conformance", "name": "conformance", "isFolder": True} in items and kinds == sorted(kinds, reverse=True) \
        and all(item["path"].count("/") == 1 for item in items), \
        f"the root listing {root[:200]!r}: expected folder /conformance, folders before files, no nested entry"
    bare = await fx.get(fx.collection)
    # verifies: unified-path.content-listing
    assert bare != root, f"get {fx.collection} (no trailing /) answered the listing {bare[:120]!r}"


@check("unified-path.folder-listing", needs={"get", "upload"})
async def folder_listing(fx: Fixtures) -> None:
    file_path = await note(fx)
    folder = await fx.get(f"{fx.collection}/content/conformance")
    if await lists_missing_folders(fx):
        # verifies: unified-path.folder-listing
        assert folder == "[]", f"get {fx.collection}/content/conformance answered {folder[:120]!r} on a store that " \
                               "lists a missing folder as empty: expected []"
    else:
        entries = {item.get("path"): item for item in json.loads(folder)} if folder.lstrip().startswith("[") else {}
        entry = entries.get(f"/{file_path}", {})
        # verifies: unified-path.folder-listing
        assert entry.get("name") == "note.md" and "lastModified" in entry and "isFolder" not in entry, \
            f"get {fx.collection}/content/conformance answered {folder[:200]!r}: expected the entry /{file_path}"


@check("unified-path.forms-before-the-split", needs={"get", "upload"})
async def forms_before_the_split(fx: Fixtures) -> None:
    """The old colon form (a ':' after a '/', split at that '/', its word in any case) and the area route (the last
    `area` segment, taken before the split at `content`), both on files the suite uploads."""
    file_path = await note(fx)
    colon_form = f"{fx.namespace}/Content:{file_path}"
    read = await fx.read(colon_form)
    # verifies: unified-path.forms-before-the-split
    assert read == NOTE, f"get {colon_form!r} (the old colon form) answered {read[:120]!r}"
    area_file = await fx.file("area/in-area.md", NOTE)
    answer = await fx.get(f"{fx.collection}/{area_file}")
    # verifies: unified-path.forms-before-the-split
    assert answer == f"Not found: {fx.collection}/{area_file.split('/area/')[0]}", \
        f"get on a file below a folder 'area' answered {answer[:120]!r}: expected the area route's answer"


@check("unified-path.area-folder-unreadable", needs={"get", "upload"})
async def area_folder_unreadable(fx: Fixtures) -> None:
    file_path = await fx.file("area/in-area.md", NOTE)
    answer = await fx.get(f"{fx.collection}/{file_path}")
    folder = f"{fx.collection}/{file_path.split('/area/')[0]}"
    # verifies: unified-path.area-folder-unreadable
    assert answer == f"Not found: {folder}", f"get on a file below a folder 'area' answered {answer[:120]!r}"
    colon_form = f"{fx.namespace}/content:{file_path}"
    read = await fx.read(colon_form)
    # verifies: unified-path.area-folder-unreadable
    assert read == NOTE, f"get {colon_form!r} (the old colon form) answered {read[:120]!r}"


@check("unified-path.colon-name-unreadable", needs={"get", "upload"})
async def colon_name_unreadable(fx: Fixtures) -> None:
    file_path = await fx.file("Q1: notes.md", NOTE)
    answer = await fx.read_file(file_path)
    # verifies: unified-path.colon-name-unreadable
    assert answer != NOTE, f"get read {file_path!r}, whose name holds a ':'"
    colon_form = f"{fx.namespace}/content:{file_path}"
    read = await fx.read(colon_form)
    # verifies: unified-path.colon-name-unreadable
    assert read == NOTE, f"get {colon_form!r} (the old colon form) answered {read[:120]!r}"


@check("unified-path.nested-both-forms", needs={"get", "upload"})
async def nested_both_forms(fx: Fixtures) -> None:
    file_path = await note(fx)
    forms = [f"{fx.collection}/{file_path}", f"{fx.collection}/content/{file_path}"]
    answers = [await fx.read(form) for form in forms]
    doubled = "[]" if await lists_missing_folders(fx) else NOTE  # Azure Blob storage lists the missing folder first
    # verifies: unified-path.nested-both-forms
    assert answers == [NOTE, doubled], f"{forms} answered {[a[:60] for a in answers]}; expected the note, then {doubled[:20]!r}"


@check("unified-path.not-found-messages", needs={"get", "upload"})
async def not_found_messages(fx: Fixtures) -> None:
    await note(fx)
    node = f"{fx.namespace}/conformance-missing-{fx.run_id}"
    missing_node = await fx.get(node)
    # verifies: unified-path.not-found-messages
    assert missing_node == f"Not found: {node}", f"get {node!r} answered {missing_node[:120]!r}"
    file_path = f"conformance/absent-{fx.run_id}.md"
    missing_file = await fx.get(f"{fx.collection}/{file_path}")
    # verifies: unified-path.not-found-messages
    assert missing_file == file_miss(file_path), f"get on a missing nested file answered {missing_file[:160]!r}"


@check("unified-path.tool-paths-lose-quotes", needs={"get", "upload"})
async def quotes_and_at_removed(fx: Fixtures) -> None:
    file_path = await note(fx)
    spelled = [f"  @{fx.collection}/{file_path} ", f"\"{fx.collection}/{file_path}\"", f"'{fx.collection}'/{file_path}"]
    answers = [await fx.read(path) for path in spelled]
    # verifies: unified-path.tool-paths-lose-quotes
    assert answers == [NOTE] * 3, f"{spelled} answered {[a[:50] for a in answers]}"


@check("mesh.agent-paths-context", needs={"get_chunk", "upload"})
async def get_chunk_cleans_only_the_collection_path(fx: Fixtures) -> None:
    """The MCP rows of the path table for get_chunk: `collectionPath` loses blanks, a leading `@` and quotes;
    `filePath` is compared as sent (fact N7)."""
    file_path = await note(fx)
    await fx.indexed_chunks(file_path)
    decorated = await fx.call_json("get_chunk", {"collectionPath": f' @"{fx.collection}" ', "filePath": file_path,
                                                 "chunkIndex": 0})
    quoted_file = f'"{file_path}"'
    as_sent = await fx.call_json("get_chunk", {"collectionPath": fx.collection, "filePath": quoted_file, "chunkIndex": 0})
    # verifies: mesh.agent-paths-context
    assert isinstance(decorated, dict) and decorated.get("found") is True and decorated.get("collectionPath") == fx.collection, \
        f"get_chunk with collectionPath ' @\"{fx.collection}\" ' answered {short(decorated)}"
    # verifies: mesh.agent-paths-context
    assert isinstance(as_sent, dict) and as_sent.get("found") is False and as_sent.get("filePath") == quoted_file, \
        f"get_chunk with filePath {quoted_file!r} answered {short(as_sent)}"


SENTINEL = "The conformance suite's dot-dot sentinel.\n"


@check("unified-path.dot-dot-in-tool-paths", needs={"get", "upload"})
async def dot_dot_reaches_the_store(fx: Fixtures) -> None:
    """A probe: does this deployment let Get leave a collection's folder? It reports what it finds (or that it
    cannot tell) beside the claim's result. What it asserts: nothing between Get and the store refuses or rewrites
    `..` (fact N8): a path with `..` inside the collection reads the sentinel, or is a file of that very name."""
    file_path = await fx.file("dot-dot-sentinel.md", SENTINEL)
    inside = f"{FIXTURE_FOLDER}/../{file_path}"
    answer = await fx.read_file(inside)
    as_a_name = file_miss(inside)
    # verifies: unified-path.dot-dot-in-tool-paths
    assert answer in (SENTINEL, as_a_name), \
        f"get {fx.collection}/{inside} answered {answer[:120]!r}: neither the file nor the store's miss of that name"
    if answer == as_a_name:
        fx.note(f"Get stays in the collection's folder here: the store takes '..' as part of a name ('{inside}' named nothing)")
        return
    # The store resolves '..'. Climb out of the collection's folder and name it again from its parent, for the
    # layouts the probe knows: memex's `content/{Space}` and a per-node `{node}/{collection}` folder.
    names = dict.fromkeys((fx.namespace.rsplit("/", 1)[-1], fx.namespace.split("/", 1)[0], "content"))
    for name in names:
        outside = f"{fx.collection}/../{name}/{file_path}"
        if await fx.read(outside) == SENTINEL:
            fx.note(f"HAZARD: Get leaves the collection's folder here: {outside} climbed out of it and read the "
                    "sentinel back through the folder above, so a path with '..' reads files beside the collection")
            return
    fx.note("cannot tell whether Get leaves the collection's folder: the store resolves '..' inside it, but the "
            f"probe could not name the folder from its parent (tried {', '.join(names)})")


@check("unified-path.no-decoding", needs={"get", "upload"})
async def no_percent_decoding(fx: Fixtures) -> None:
    file_path = await fx.file("two%20words.md", NOTE)
    as_stored = await fx.read_file(file_path)
    decoded = file_path.replace("%20", " ")
    as_decoded = await fx.read_file(decoded)
    # verifies: unified-path.no-decoding
    assert as_stored == NOTE and as_decoded == file_miss(decoded), \
        f"'{file_path}' read {as_stored[:40]!r}; '{decoded}' read {as_decoded[:80]!r}"


@check("unified-path.nfd-unreachable", needs={"get", "upload"})
async def nfd_name_unreachable(fx: Fixtures) -> None:
    decomposed = unicodedata.normalize("NFD", "Übersicht.md")
    file_path = await fx.file(decomposed, NOTE)
    composed = unicodedata.normalize("NFC", file_path)
    as_stored = await fx.read_file(file_path)
    as_typed = await fx.read_file(composed)
    # verifies: unified-path.nfd-unreachable
    assert as_stored == NOTE and as_typed == file_miss(composed), \
        f"the decomposed name read {as_stored[:40]!r}; the composed one {as_typed[:80]!r}"


@check("unified-path.text-verbatim", needs={"get", "upload"})
async def text_verbatim(fx: Fixtures) -> None:
    markdown = await note(fx)
    csv = await fx.file("table.csv", CSV)
    answers = [await fx.read_file(path) for path in (markdown, csv)]
    # verifies: unified-path.text-verbatim
    assert answers == [NOTE, CSV], f".md and .csv read {answers}"
    marked = [await fx.file(name, data) for name, data in (("bom-utf8.csv", b"\xef\xbb\xbf" + CSV.encode("utf-8")),
                                                           ("bom-utf16.csv", CSV.encode("utf-16")))]
    answers = [await fx.read_file(path) for path in marked]
    # verifies: unified-path.text-verbatim
    assert answers == [CSV, CSV], f"a .csv with a UTF-8 and a UTF-16 byte-order mark read {answers}"


@check("unified-path.binaries-garbled", needs={"get", "upload"})
async def binaries_garbled(fx: Fixtures) -> None:
    answer = await fx.read_file(await fx.file("blob.bin", b"AB\xff\xfeCD"))
    # verifies: unified-path.binaries-garbled
    assert answer.startswith("AB") and answer.endswith("CD") and "\ufffd" in answer, \
        f"a binary read as {json.dumps(answer)}"


# The smallest PNG: one transparent pixel (70 bytes).
PIXEL_PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==")


@check("unified-path.images-never-bytes", needs={"get", "upload"})
async def images_never_bytes(fx: Fixtures) -> None:
    answer = await fx.read_file(await fx.file("pixel.png", PIXEL_PNG))
    described = answer.lstrip().startswith("{") and json.loads(answer).get("nodeType") == "Document"
    # verifies: unified-path.images-never-bytes
    assert described or answer.startswith(f"[image: pixel.png (image/png, {len(PIXEL_PNG)} bytes)] "), \
        f"get on a PNG answered {answer[:100]!r}"


@check("unified-path.xlsx-sheets", needs={"get", "upload"})
async def workbook_as_tables(fx: Fixtures) -> None:
    answer = await fx.read_file(await fx.file("book.xlsx", workbook()))
    # verifies: unified-path.xlsx-sheets
    assert answer.replace("\r\n", "\n") == workbook_text(), f"get on a one-sheet workbook answered {answer[:200]!r}"


@check("unified-path.xls-goes-to-the-xlsx-reader", needs={"get", "upload"})
async def xls_read_as_workbook(fx: Fixtures) -> None:
    # Workbook bytes under an .xls name: the workbook reader opens them by content, where a UTF-8 read
    # would answer the zip's bytes. (A real BIFF .xls is another matter: unified-path.xls-likely-fails.)
    answer = await fx.read_file(await fx.file("book.xls", workbook()))
    # verifies: unified-path.xls-goes-to-the-xlsx-reader
    assert answer.replace("\r\n", "\n") == workbook_text(), f"get on workbook bytes named .xls answered {answer[:120]!r}"


@check("unified-path.docx-markdown", needs={"get", "upload"})
async def docx_as_markdown(fx: Fixtures) -> None:
    answer = await fx.read_file(await fx.file("memo.docx", docx()))
    # Converters differ in blank lines and trailing blanks; the Markdown is the heading and the paragraph.
    lines = [line.strip() for line in answer.splitlines() if line.strip()]
    # verifies: unified-path.docx-markdown
    assert lines == [f"# {DOCX_HEADING}", DOCX_PARAGRAPH], f"get on a .docx with a Heading 1 answered {answer[:160]!r}"


ROOT_NOTE = "A note at the root of the collection.\n"


async def root_note(fx: Fixtures) -> str:
    return await fx.file("conformance-root-note.md", ROOT_NOTE, at_root=True)


@check("unified-path.content-root-file", needs={"get", "upload"})
async def content_root_file(fx: Fixtures) -> None:
    file_path = await root_note(fx)
    answer = await fx.read_file(file_path)
    # verifies: unified-path.content-root-file
    assert answer == ROOT_NOTE, f"get {fx.collection}/{file_path} answered {answer[:80]!r}"


@check("unified-path.first-match-wins", needs={"get", "upload"})
async def transformer_by_lower_cased_extension(fx: Fixtures) -> None:
    answer = await fx.read_file(await fx.file("BOOK.XLSX", workbook()))
    # verifies: unified-path.first-match-wins
    assert answer.replace("\r\n", "\n") == workbook_text(), f"a workbook named .XLSX read as {answer[:80]!r}"


@check("unified-path.upload-answer", needs={"upload"})
async def upload_answers(fx: Fixtures) -> None:
    data = NOTE.encode("utf-8")
    path = f"{fx.collection}/conformance/uploaded.md"
    text = await fx.call("upload", {"path": path, "base64Content": encode(data)})
    if not text.startswith("{"):  # e.g. the namespace has no editable content collection
        pytest.skip(f"cannot upload the fixture {path}: upload answered {short(text)}")
    answer = json.loads(text)
    fx.uploaded_files[path] = None
    refused = await fx.call("upload", {"path": path, "base64Content": ""})
    # verifies: unified-path.upload-answer
    assert isinstance(answer, dict) and (answer.get("status"), answer.get("bytes")) == ("Uploaded", len(data)), \
        f"upload of {len(data)} bytes answered {answer}"
    # verifies: unified-path.upload-answer
    assert refused == "Error: base64Content is required.", f"upload without content answered {refused[:100]!r}"


@check("unified-path.upload-refuses-empty-content", needs={"upload", "get"})
async def empty_upload_stores_nothing(fx: Fixtures) -> None:
    await note(fx)  # the collection takes uploads (else the check skips), so a miss below is the empty upload's
    file_path = f"conformance/empty-{fx.run_id}.md"
    refused = await fx.call("upload", {"path": f"{fx.collection}/{file_path}", "base64Content": ""})
    after = await fx.get(f"{fx.collection}/{file_path}")
    # verifies: unified-path.upload-refuses-empty-content
    assert refused.startswith("Error") and after == file_miss(file_path), \
        f"an empty upload answered {refused[:60]!r}; get on its path then answered {after[:80]!r}"
