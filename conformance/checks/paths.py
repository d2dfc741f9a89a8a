"""Unified-path claims (page: Unified path), observed through get and upload."""

from __future__ import annotations

import json

from conformance.suite import Fixtures, check, encode

NOTE = "Größe: 5 €\nA note the conformance suite uploads and reads back.\n"


async def note_file(fx: Fixtures) -> str:
    return await fx.once("note-file", lambda: fx.upload("note.md", NOTE.encode("utf-8")))


@check("unified-path.not-found-messages", needs={"get"})
async def missing_node(fx: Fixtures) -> None:
    path = f"{fx.namespace}/conformance-missing-{fx.run_id}"
    answer = await fx.call("get", {"path": path})
    # verifies: unified-path.not-found-messages
    assert answer == f"Not found: {path}", f"get {path!r} answered {answer[:120]!r}"


@check("unified-path.not-found-messages", needs={"get", "upload"})
async def missing_file(fx: Fixtures) -> None:
    await note_file(fx)  # the folder exists, the file does not
    file_path = f"conformance/absent-{fx.run_id}.md"
    answer = await fx.call("get", {"path": f"{fx.collection}/{file_path}"})
    # verifies: unified-path.not-found-messages
    assert answer == f"Error: File '{file_path}' not found in collection 'content'", \
        f"get on a missing file answered {answer[:160]!r}"


@check("unified-path.upload-refuses-empty-content", needs={"upload"})
async def upload_refuses_empty(fx: Fixtures) -> None:
    path = f"{fx.collection}/conformance/empty-{fx.run_id}.md"
    answer = await fx.call("upload", {"path": path, "base64Content": ""})
    # verifies: unified-path.upload-refuses-empty-content
    assert answer == "Error: base64Content is required.", f"upload with empty content answered {answer[:120]!r}"


@check("unified-path.upload-answer", needs={"upload"})
async def upload_answer(fx: Fixtures) -> None:
    path = f"{fx.collection}/conformance/note.md"
    answer = json.loads(await fx.call("upload", {"path": path, "base64Content": encode(NOTE.encode("utf-8"))}))
    fx.uploaded_files.append(path) if path not in fx.uploaded_files else None
    # verifies: unified-path.upload-answer
    assert answer.get("status") == "Uploaded", f"upload answered {answer}"
