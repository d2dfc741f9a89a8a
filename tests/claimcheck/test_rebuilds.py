"""claimcheck._rebuilds and the plugin's serve-time reuse: a page renders again only when its inputs changed."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace

from claimcheck._rebuilds import reuse_while_unchanged, site_inputs
from claimcheck.mkdocs_plugin import ClaimsPlugin


class _File:
    """What the plugin reads of MkDocs' File; hashable as a File is (a page's links are keyed by File)."""

    def __init__(self, src_uri: str, url: str, path: Path | None = None) -> None:
        self.src_uri, self.url, self.abs_src_path, self.edit_uri = src_uri, url, str(path) if path else None, "edit"


class _Files(list):
    def get_file_from_path(self, src_uri: str):
        return next((file for file in self if file.src_uri == src_uri), None)


def _page(path: Path, runs: list[str], *, warn: bool = False):
    """A page whose render, counted in `runs`, sets what MkDocs' (or a notebook plugin's) render sets."""
    page = SimpleNamespace(file=_File("page.md", "page/", path), markdown=path.read_text(), content=None, toc=None)

    def render(config, files):
        runs.append("run")
        if warn:
            logging.getLogger("mkdocs.structure.pages").warning("a link to a missing page")
        page.content, page.toc, page._title_from_render = f"<p>run {len(runs)}</p>", ["toc"], "Page"
        page.present_anchor_ids = {"top"}
        page.links_to_anchors = {files[0]: {"top": "index.md#top"}}

    page.render = render
    return page


def _rebuild(path: Path, site: bytes, rendered: dict, runs: list[str], **options) -> tuple[SimpleNamespace, _Files]:
    """One build of the page: its own list of files, as each build has."""
    page, files = _page(path, runs, **options), _Files([_File("index.md", "")])
    reuse_while_unchanged(page, site, rendered)
    page.render(None, files)
    return page, files


def test_the_site_digest_follows_the_configuration_every_watched_file_and_the_site_files(tmp_path: Path):
    config, library = tmp_path / "mkdocs.yml", tmp_path / "lib"
    config.write_text("site_name: x\n")
    (library / "sub").mkdir(parents=True)
    (library / "sub" / "model.py").write_text("A = 1\n")
    files = [_File("index.md", "")]
    digests = [site_inputs(str(config), [str(library)], files)]
    assert site_inputs(str(config), [str(library)], files) == digests[0]
    (library / "sub" / "model.py").write_text("A = 2\n")
    digests.append(site_inputs(str(config), [str(library)], files))
    config.write_text("site_name: y\n")
    digests.append(site_inputs(str(config), [str(library)], files))
    digests.append(site_inputs(str(config), [str(library)], [*files, _File("new.md", "new/")]))
    assert len(set(digests)) == 4


def test_an_unchanged_page_is_shown_as_last_rendered_and_a_changed_one_renders_again(tmp_path: Path):
    source = tmp_path / "page.md"
    source.write_text("# Page\n")
    runs: list[str] = []
    rendered: dict = {}
    for site in (b"a", b"a", b"b"):
        page, _ = _rebuild(source, site, rendered, runs)
    assert runs == ["run", "run"] and page.content == "<p>run 2</p>"
    source.write_text("# Page, edited\n")
    edited, _ = _rebuild(source, b"b", rendered, runs)
    assert (edited.content, len(runs)) == ("<p>run 3</p>", 3)
    again, files = _rebuild(source, b"b", rendered, runs)
    assert (again.content, again.toc, again._title_from_render, again.present_anchor_ids, len(runs)) == (
        "<p>run 3</p>", ["toc"], "Page", {"top"}, 3)
    # The anchors it links to are looked up among this build's pages.
    assert list(again.links_to_anchors) == [files[0]]


def test_a_render_that_warned_renders_again_and_warns_again(tmp_path: Path):
    source = tmp_path / "page.md"
    source.write_text("# Page\n")
    runs: list[str] = []
    rendered: dict = {}
    for _ in range(2):
        _rebuild(source, b"a", rendered, runs, warn=True)
    assert runs == ["run", "run"] and rendered == {}


def test_only_serve_reuses_a_build_always_renders(tmp_path: Path):
    source = tmp_path / "page.md"
    source.write_text("# Page\n")
    config = SimpleNamespace(watch=[], config_file_path=None)
    for command, expected_runs in (("build", 2), ("serve", 1)):
        plugin, runs = ClaimsPlugin(), []
        plugin.load_config({})
        plugin.on_startup(command=command, dirty=False)
        for _ in range(2):
            files = _Files([_File("index.md", ""), _File("reference/claims.md", "reference/claims/")])
            plugin.on_files(files, config)
            page = _page(source, runs)
            plugin.on_pre_page(page, config, files)
            page.render(None, files)
        assert len(runs) == expected_runs, command
