"""Print how long uploading and indexing the generated annual report takes (extract, summarise, chunk, index).

    python bench/bench_upload.py [--write]   (from the repository root)

Target: under 2 s. The figures are printed, never asserted; --write records them in bench/README.md.
"""

from __future__ import annotations

import statistics
import time

from _figures import Figures
from _venv import use_venv

use_venv("fpdf", "pypdf")

from agentkit import Mesh, SearchIndex, extractive_summary, index_text  # noqa: E402
from agentkit.guide import REPORT, report_pdf_bytes  # noqa: E402
from agentkit._chunks import split_chunks  # noqa: E402

RUNS = 5


def timed(function):
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


def one_upload(data: bytes) -> dict[str, float]:
    """Time each stage on its own, then the whole upload and indexing as the collection does it."""
    extracted, extract_s = timed(lambda: index_text(REPORT.file_name, data))
    _, summary_s = timed(lambda: extractive_summary(extracted.text))
    _, chunk_s = timed(lambda: split_chunks(extracted, collection_path="Acme/content", file_path=REPORT.file_name))
    mesh = Mesh(node_types={"Company"}, index=SearchIndex(summarizer=extractive_summary))
    mesh.create({"id": "Acme", "name": "Acme", "nodeType": "Company"})
    collection = mesh.add_collection("Acme")

    def upload_and_index():
        collection.upload(REPORT.file_name, data, index=True)
        mesh.refresh_index()
        return collection.document_node(REPORT.file_name)

    node, total_s = timed(upload_and_index)
    return {"extract": extract_s, "summarise": summary_s, "chunk": chunk_s, "upload+index": total_s,
            "chunks": node.content["chunkCount"]}


def main() -> None:
    figures = Figures("bench_upload.py")
    data, generate_s = timed(report_pdf_bytes)
    figures.say(f"report: {REPORT.file_name!r}, {len(data):,} bytes (generate or read cache: {generate_s:.2f} s)")
    runs = [one_upload(data) for _ in range(RUNS)]
    figures.say(f"chunks: {runs[0]['chunks']}; {RUNS} runs, median (best) in seconds:")
    for stage in ("extract", "summarise", "chunk", "upload+index"):
        times = [run[stage] for run in runs]
        figures.say(f"  {stage:<13} {statistics.median(times):7.3f}  ({min(times):.3f})")
    verdict = "under" if statistics.median(run["upload+index"] for run in runs) < 2.0 else "OVER"
    figures.say(f"upload of the report: {verdict} the 2 s target")
    figures.record()


if __name__ == "__main__":
    main()
