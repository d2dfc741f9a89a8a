"""claimcheck._notebook and the plugin's serve-time reuse: a notebook runs again only when its inputs changed."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from claimcheck._notebook import inputs_digest, reuse_while_unchanged
from claimcheck.mkdocs_plugin import ClaimsPlugin


def _notebook_page(runs: list[str]):
    """A page whose render stands for mkdocs-jupyter's: it 'executes' (counted in `runs`) and sets the content."""
    page = SimpleNamespace(file=SimpleNamespace(src_uri="notebooks/n.py"), content=None, toc=None, title=None)

    def render(config, files):
        runs.append("run")
        page.content, page.toc, page.title = f"<p>run {len(runs)}</p>", ["toc"], "N"

    page.render = render
    return page


def test_the_digest_follows_the_notebook_and_every_watched_file(tmp_path: Path):
    notebook, library = tmp_path / "n.py", tmp_path / "lib"
    notebook.write_text("x = 1\n")
    (library / "sub").mkdir(parents=True)
    (library / "sub" / "model.py").write_text("A = 1\n")
    first = inputs_digest(str(notebook), [str(library)])
    assert inputs_digest(str(notebook), [str(library)]) == first
    (library / "sub" / "model.py").write_text("A = 2\n")
    changed_library = inputs_digest(str(notebook), [str(library)])
    notebook.write_text("x = 2\n")
    assert len({first, changed_library, inputs_digest(str(notebook), [str(library)])}) == 3


def test_an_unchanged_notebook_is_shown_as_last_run_and_a_changed_one_runs_again():
    runs: list[str] = []
    rendered: dict = {}
    for digest in ("a", "a", "b"):
        page = _notebook_page(runs)
        reuse_while_unchanged(page, digest, rendered)
        page.render(None, None)
    assert runs == ["run", "run"] and page.content == "<p>run 2</p>"
    again = _notebook_page(runs)
    reuse_while_unchanged(again, "b", rendered)
    again.render(None, None)
    assert (again.content, again.toc, again.title, len(runs)) == ("<p>run 2</p>", ["toc"], "N", 2)


def test_only_serve_reuses_a_build_always_executes(tmp_path: Path):
    notebook = tmp_path / "n.py"
    notebook.write_text("x = 1\n")
    for command, expected_runs in (("build", 2), ("serve", 1)):
        plugin, runs = ClaimsPlugin(), []
        plugin.on_startup(command=command, dirty=False)
        for _ in range(2):
            page = _notebook_page(runs)
            page.file.abs_src_path = str(notebook)
            plugin.on_pre_page(page, SimpleNamespace(watch=[]), None)
            page.render(None, None)
        assert len(runs) == expected_runs, command
