"""What a check is and the fixtures it works with.

A check is an async function marked with `@check("claim.id", needs={tools})`: a test the conformance plugin
(conformance/plugin.py) collects from conformance/checks/ and runs with pytest. It receives a
`Fixtures` (the connection, the namespace, what the run made), made once per run, and states its expectation in
asserts, each under `# verifies: claim.id`. A failing assert fails the claim with its message; `pytest.skip`
(when a fixture cannot be set up, or a behaviour needs what the target does not have) skips it with a reason,
never counted as a pass.
"""

from __future__ import annotations

import base64
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
import pytest

from conformance.session import Connection, short

# Fixture files go to this folder of the namespace's `content` collection; their names are fixed, so
# repeated runs overwrite the same files (an upload is an upsert) instead of piling up new ones.
FIXTURE_FOLDER = "conformance"
# How long a check waits for the target's index to show what a fixture wrote (the framework indexes
# uploads in the background and its queries lag behind writes).
SETTLE_TIMEOUT_SECONDS = 20.0
SETTLE_INTERVAL_SECONDS = 0.05


def check(claim: str, *, needs: set[str] | frozenset[str] = frozenset()) -> Callable[[Callable], Callable]:
    """Make an async function the check of `claim` that calls the tools in `needs`, both kept as its attributes
    (`claim`, `needs`): the plugin collects it as a test marked `claim`. Nothing is registered anywhere."""

    def mark(function: Callable) -> Callable:
        function.claim, function.needs = claim, frozenset(needs)  # type: ignore[attr-defined]
        return function

    return mark


def is_check(value: object, module_name: str) -> bool:
    """Whether `value` is a `@check` function defined in the module named `module_name` (not one it imported)."""
    return hasattr(value, "claim") and getattr(value, "__module__", None) == module_name


def encode(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def decoded(answer: str) -> str:
    """The text Get answers for a file. The framework serializes it as one JSON string literal (fact R7);
    an error or anything else that is not one comes back as it is."""
    if answer.startswith('"'):
        try:
            value = json.loads(answer)
        except ValueError:
            return answer
        if isinstance(value, str):
            return value
    return answer


def file_miss(file_path: str) -> str:
    """Get's answer for a file path that names no file of the `content` collection."""
    return f"Error: File '{file_path}' not found in collection 'content'"


@dataclass
class Fixtures:
    """What a check works with: the connection, the namespace, and what the run made there."""

    mcp: Connection
    namespace: str
    run_id: str = field(default_factory=lambda: secrets.token_hex(3))
    created_nodes: list[str] = field(default_factory=list)
    uploaded_files: dict[str, None] = field(default_factory=dict)  # in upload order, each once
    notes: list[str] = field(default_factory=list)  # what the running check found, shown beside its PASS
    _memo: dict[str, Any] = field(default_factory=dict)

    def note(self, text: str) -> None:
        """Report what the target does where the claim leaves it to the host (a probe's finding); a pass shows it."""
        self.notes.append(text)

    @property
    def collection(self) -> str:
        """The collection fixtures are uploaded to: the namespace node's `content` collection."""
        return f"{self.namespace}/content"

    @property
    def node_root(self) -> str:
        """The node this run creates its nodes under; deleting it removes them all."""
        return f"{self.namespace}/conformance-{self.run_id}"

    async def call(self, tool: str, arguments: dict[str, Any]) -> str:
        return await self.mcp.call(tool, arguments)

    async def call_json(self, tool: str, arguments: dict[str, Any]) -> Any:
        return await self.mcp.call_json(tool, arguments)

    async def get(self, path: str) -> str:
        return await self.call("get", {"path": path})

    async def get_json(self, path: str) -> Any:
        return await self.call_json("get", {"path": path})

    async def read(self, path: str) -> str:
        """Get on a file path: the file's text (decoded from Get's JSON string), or Get's answer when it is an error."""
        return decoded(await self.get(path))

    async def read_file(self, file_path: str) -> str:
        """`read` of a file path in the namespace's collection."""
        return await self.read(f"{self.collection}/{file_path}")

    async def file(self, name: str, data: bytes | str, *, at_root: bool = False) -> str:
        """`upload` of a fixture file once per run (a later call with its name reuses it): its file path."""
        data = data.encode("utf-8") if isinstance(data, str) else data
        return await self.once(f"file {name}", lambda: self.upload(name, data, at_root=at_root))

    async def once(self, key: str, make: Callable[[], Awaitable[Any]]) -> Any:
        """Set a fixture up once per run; a setup that skipped skips every later check that needs it."""
        if key not in self._memo:
            try:
                self._memo[key] = ("ok", await make())
            except pytest.skip.Exception as skip:
                self._memo[key] = ("skip", skip.msg)
        kind, value = self._memo[key]
        if kind == "skip":
            pytest.skip(value)
        return value

    async def upload(self, name: str, data: bytes, *, at_root: bool = False) -> str:
        """Upload `data` as `conformance/{name}` (or `{name}` at the root) into the namespace's collection;
        return its file path there. A file at the root keeps a fixed name that starts with `conformance-`."""
        file_path = name if at_root else f"{FIXTURE_FOLDER}/{name}"
        path = f"{self.collection}/{file_path}"
        answer = await self.call("upload", {"path": path, "base64Content": encode(data)})
        try:
            uploaded = json.loads(answer)
        except ValueError:
            uploaded = None
        if not isinstance(uploaded, dict) or uploaded.get("status") != "Uploaded":
            pytest.skip(f"cannot upload the fixture {path}: upload answered {short(answer)}")
        self.uploaded_files[path] = None
        return file_path

    async def indexed_chunks(self, file_path: str) -> int:
        """Wait until the target has indexed `file_path`; return its number of chunks."""
        arguments = {"collectionPath": self.collection, "filePath": file_path, "chunkIndex": 0}

        async def probe() -> int | None:
            text = await self.call("get_chunk", arguments)
            try:
                answer = json.loads(text)
            except ValueError:  # e.g. a host without a chunk store answers that in words
                pytest.skip(f"get_chunk cannot read the fixture {file_path}: it answered {short(text)}")
            return answer.get("totalChunks") if isinstance(answer, dict) and answer.get("found") is True else None

        return await self.eventually(probe, f"chunks of {self.collection}/{file_path}")

    async def searchable(self, path: str) -> None:
        """Wait until `path` shows in `search` under its parent: Search, Move and Copy read the lagging index."""
        parent = path.rsplit("/", 1)[0]

        async def probe() -> bool | None:
            found = await self.call_json("search", {"query": "", "basePath": parent, "limit": 200})
            rows = found.get("results", []) if isinstance(found, dict) else []
            return True if any(row.get("path") == path for row in rows) else None

        await self.eventually(probe, f"{path} in search")

    async def root_node(self) -> str:
        """Create the run's root node (once): `{namespace}/conformance-{run}`."""

        async def make() -> str:
            answer = await self.call("create", {"node": json.dumps({
                "id": f"conformance-{self.run_id}", "namespace": self.namespace,
                "name": "Conformance fixtures", "nodeType": "Markdown"})})
            if not answer.startswith("Created"):
                pytest.skip(f"cannot create the fixture node {self.node_root}: create answered {short(answer)}")
            self.created_nodes.append(self.node_root)
            return self.node_root

        return await self.once("root-node", make)

    def release(self, path: str) -> None:
        """The check removed the node at `path` itself (or indexing took the path over): clean-up leaves it alone."""
        if path in self.created_nodes:
            self.created_nodes.remove(path)

    async def eventually(self, probe: Callable[[], Awaitable[Any]], what: str,
                         timeout: float = SETTLE_TIMEOUT_SECONDS) -> Any:
        """Poll `probe` until it returns something other than None; skip when the target never settles."""
        deadline = time.monotonic() + timeout
        while True:
            value = await probe()
            if value is not None:
                return value
            if time.monotonic() >= deadline:
                pytest.skip(f"the target did not show {what} within {timeout:.0f} s")
            await anyio.sleep(SETTLE_INTERVAL_SECONDS)

    async def clean_up(self) -> list[tuple[str, str]]:
        """Delete what the run created; return what is left, each with why."""
        leftovers = []
        # Delete is recursive: a node under another one the run created goes with it.
        tops = [path for path in self.created_nodes if not any(path.startswith(f"{other}/") for other in self.created_nodes)]
        if tops:
            answer = await self.call("delete", {"paths": json.dumps(tops)})
            for path in self.created_nodes:
                top = next(top for top in tops if path == top or path.startswith(f"{top}/"))
                if f"Deleted: {top}" not in answer.splitlines():
                    leftovers.append((path, f"delete answered {short(answer, 80)}"))
        # No MCP tool of the framework deletes a file from a collection; the fixture files keep fixed
        # names, so the next run overwrites them.
        leftovers += [(path, "no MCP tool deletes a file; the next run overwrites it") for path in self.uploaded_files]
        return leftovers
