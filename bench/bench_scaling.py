"""Print how agentkit's time grows with its input: path parsing, Search, search_chunks and upload.

    python bench/bench_scaling.py [--write]   (from the repository root; --write records the figures in bench/README.md)

Each entry point runs on today's largest input (the guide's workspace: paths of
8 segments, 25 nodes, the report's 172 chunks, the 88 KB report) and on inputs
10x and 100x larger, measured in this process's CPU time (other people's
load on the shared machine inflates wall time, not CPU time), and prints how
much longer each 10x step took: near 10
is linear, near 100 quadratic (a tiny first figure inflates the first step;
the second step is the reliable one), and how much longer 100x took than 1x.
The figures are printed, never asserted (tests/test_fuzz.py asserts linear
growth on small inputs). The 10x and 100x PDFs are read once each (the 100x
one, 6,200 pages and 8.7 MB, in about half a minute on an idle machine); the
whole bench takes under a minute there.
"""

from __future__ import annotations

import base64
import io
import json
import time

from _figures import Figures
from _venv import use_venv

use_venv("pypdf")

import agentkit  # noqa: E402
import agentkit.guide  # noqa: E402
from agentkit._chunks import split_chunks  # noqa: E402

SCALES = (1, 10, 100)
RUNS = 3
PATH_SEGMENTS = 8  # the longest tool paths the guide uses: 'Meridian/content/content/Sub/...' and the like


def best_of(function, runs: int = RUNS) -> float:
    """The least CPU time of ``runs`` calls: this process's CPU seconds, which other people's load on the
    machine's two cores does not inflate the way it inflates wall time."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


def mcp(mesh: agentkit.Mesh, name: str) -> agentkit.Tool:
    return agentkit.tools_by_name(agentkit.mcp_tools(mesh))[name]


def path_parsing(scale: int) -> dict[str, float]:
    segments = ["Meridian"] + ["Sub"] * (PATH_SEGMENTS * scale - 2) + ["x.md"]
    node_path = "/".join(segments)
    file_path = "/".join(["Meridian", "content", *segments[1:]])
    mesh = agentkit.guide.workspace()
    mesh.register_node_type("Markdown")
    get, create = mcp(mesh, "get"), mcp(mesh, "create")
    ids = iter(range(10**9))
    return {
        "parse_path (x100)": best_of(lambda: [agentkit.parse_path(p) for p in (node_path, file_path) for _ in range(50)]),
        "get, a missing node and file (x40)": best_of(lambda: [get.call({"path": p}) for p in (node_path, file_path) for _ in range(20)]),
        "create, a deep namespace (x20)": best_of(lambda: [create.call({"node": json.dumps(
            {"id": f"{node_path[:-5]}/n{next(ids)}", "name": "Deep", "nodeType": "Markdown"})}) for _ in range(20)]),
    }


def search(scale: int) -> dict[str, float]:
    mesh = agentkit.guide.workspace()
    mesh.register_node_type("Markdown")
    extra = 25 * scale - len(mesh.nodes())
    for number in range(max(0, extra)):
        mesh.create({"id": f"Meridian/Notes/note-{number}", "name": f"Revenue note {number}", "nodeType": "Markdown"})
    mesh.refresh_index()
    tool, get = mcp(mesh, "search"), mcp(mesh, "get")
    return {
        f"search, a word (x20; {len(mesh.nodes())} nodes)": best_of(lambda: [tool.call({"query": "revenue", "limit": 200}) for _ in range(20)]),
        "search nodeType:Markdown (x20)": best_of(lambda: [tool.call({"query": "nodeType:Markdown", "limit": 200}) for _ in range(20)]),
        "get Meridian/Notes/* (x20)": best_of(lambda: [get.call({"path": "Meridian/Notes/*"}) for _ in range(20)]),
    }


def search_chunks(scale: int, text: str) -> dict[str, float]:
    mesh = agentkit.guide.workspace()
    collection = mesh.collections["Meridian/content"]
    for copy in range(scale - 1):  # the report itself is the first copy
        collection.upload(f"copies/report-{copy}.md", text.encode(), index=True)
    mesh.refresh_index()
    tool = mcp(mesh, "search_chunks")
    chunks = len(mesh.index.visible_chunks())
    return {
        f"search_chunks (x5; {chunks} chunks)": best_of(lambda: [tool.call({"query": "namespace:Meridian/content revenue growth", "limit": 20}) for _ in range(5)]),
        "search_chunks, scope:subtree (x5)": best_of(lambda: [tool.call({"query": "namespace:Meridian scope:subtree margin", "limit": 200}) for _ in range(5)]),
    }


def pdf_pages_repeated(data: bytes, times: int) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for _ in range(times):
        writer.append(PdfReader(io.BytesIO(data)))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def upload(scale: int, text: str, pdf: bytes) -> dict[str, float]:
    def upload_and_index(name: str, data: bytes) -> None:
        mesh = agentkit.Mesh(node_types={"Company"})
        mesh.create({"id": "Meridian", "name": "Meridian", "nodeType": "Company"})
        mesh.add_collection("Meridian")
        answer = mcp(mesh, "upload").call({"path": f"Meridian/content/{name}", "base64Content": base64.b64encode(data).decode()})
        assert answer.startswith('{"status":"Uploaded"'), answer
        mesh.refresh_index()

    figures = {"upload+index .md (the report's text)": best_of(lambda: upload_and_index("report.md", text.encode() * scale))}
    # The 100x PDF (6,200 pages) takes half a minute to read: the larger PDFs are measured once.
    runs = RUNS if scale == 1 else 1
    data = pdf if scale == 1 else pdf_pages_repeated(pdf, scale)
    figures[f"upload+index .pdf ({len(data) // 1024} KB)"] = best_of(lambda: upload_and_index("report.pdf", data), runs)
    indexed = agentkit.index_text("report.pdf", data)  # the words the upload extracted
    figures["  of which: chunking the PDF's words"] = best_of(lambda: split_chunks(
        indexed, collection_path="Meridian/content", file_path="report.pdf"), runs)
    return figures


def main() -> None:
    figures = Figures("bench_scaling.py")
    started = time.perf_counter()
    pdf = agentkit.guide.report_pdf_bytes()
    text = agentkit.get_text("report.pdf", pdf)
    figures.say(f"today's largest: paths of {PATH_SEGMENTS} segments, 25 nodes, 172 chunks, a {len(pdf) // 1024} KB report "
          f"({len(text):,} characters of text); best of {RUNS} runs, CPU seconds")
    for label, measure in (("path parsing", path_parsing), ("Search", search),
                           ("search_chunks", lambda s: search_chunks(s, text)), ("upload", lambda s: upload(s, text, pdf))):
        results = {scale: measure(scale) for scale in SCALES}
        figures.say(f"\n{label}")
        for key in results[1]:
            times = [results[s][k] for s in SCALES if (k := _same(results[s], key))]
            steps = " ".join(f"{later / max(earlier, 1e-9):6.1f}" for earlier, later in zip(times, times[1:]))
            overall = f"   100x took {times[-1] / max(times[0], 1e-9):7.1f}x" if len(times) == len(SCALES) else ""
            figures.say(f"  {key:<50} {' '.join(f'{t:8.4f}' for t in times)}   each 10x step took: {steps}{overall}")
    figures.say(f"\nthe bench took {time.perf_counter() - started:.0f} s ({time.process_time():.0f} s CPU)")
    figures.record()


def _same(figures: dict[str, float], key: str) -> str | None:
    """The key of ``figures`` that measures what ``key`` measures (labels carry their sizes)."""
    stem = key.split(" (")[0]
    return next((k for k in figures if k.split(" (")[0] == stem), None)


if __name__ == "__main__":
    main()
