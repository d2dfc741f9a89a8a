"""The pytest plugin `claims` (entry point `pytest11`): a project's executable documentation as tests.

Two ini settings switch it on; a project that sets neither is left alone:

    claims_snippets = "snippets"   each .py file there runs as one test: its asserts are its checks,
                                   what it prints must match its `#>` lines, and the captured output
                                   it declares must match the committed files (in snippets/output/);
    claims_pages = "docs"          every ```pycon example of the Markdown pages there runs as a doctest.

A failing test then names the claims it breaks, with where each is stated and checked. A third,
`claims_site = "module:attr"`, names a project's own `claimcheck.site.Site` (claimcheck/site.py).

The readers are imported when a hook first needs them, not with the plugin: a run that collects
no snippet or page never pays for them. The `claims_site` module is imported the same way, when first
needed: it must come from the project's `pythonpath`, which pytest puts first only after it loads entry
points, so a copy of the project (the guide's mutation runs) uses its own.
"""

from __future__ import annotations

import importlib.util
import types
from collections.abc import Callable
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("claims_snippets", "folder (from the rootdir) whose .py files each run as one test", default="")
    parser.addini("claims_pages", "folder (from the rootdir) whose Markdown pages' pycon examples run as doctests", default="")
    parser.addini("claims_site", "the project's claimcheck.site.Site, as module:attr called with the rootdir", default="")


# xdist's modes that ignore groups. Under them a page's examples would run on whichever worker is free, so the
# plugin runs them as `loadgroup`, which is `load` plus the groups.
_GROUPLESS_MODES = ("load", "worksteal")


def pytest_configure(config: pytest.Config) -> None:
    # Named here too for runs without xdist (-p no:xdist), where --strict-markers would refuse it.
    config.addinivalue_line("markers", "xdist_group(name): run these tests in one xdist worker (--dist loadgroup)")
    if not (_folder(config, "claims_pages") or _folder(config, "claims_snippets")):
        return
    if getattr(config, "workerinput", {}).get("claims_loadgroup"):
        # A worker names each grouped item by its group (xdist's remote.py) only when it runs as loadgroup.
        config.option.loadgroup = True
    elif getattr(config.option, "dist", "no") in _GROUPLESS_MODES and getattr(config.option, "numprocesses", None):
        config.option.dist = "loadgroup"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """Each worker learns that the run is a loadgroup one: it re-reads the command line, which may say otherwise."""
    if node.config.option.dist == "loadgroup":
        node.workerinput["claims_loadgroup"] = True


def _folder(config: pytest.Config, name: str) -> Path | None:
    value = config.getini(name)
    return config.rootpath / value if value else None


def _is_snippet(config: pytest.Config, path: Path) -> bool:
    return path.suffix == ".py" and path.parent == _folder(config, "claims_snippets")


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    config = parent.config
    pages = _folder(config, "claims_pages")
    # Only the pages' folder: pytest offers every Markdown file beside the paths it collects (the README too).
    if file_path.suffix == ".md" and pages and file_path.is_relative_to(pages):
        page = _pycon_collector(config)(file_path, parent)
        if page is not None:
            # A page's examples share one namespace: xdist sends the whole page to one worker, in page order.
            page.add_marker(pytest.mark.xdist_group(f"page:{file_path.relative_to(config.rootpath).as_posix()}"))
        return page
    if _is_snippet(config, file_path) and not parent.session.isinitpath(file_path):
        return SnippetFile.from_parent(parent, path=file_path)
    return None


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector):
    # A snippet named on the command line reaches the Python plugin, which would import it as a test module.
    if _is_snippet(parent.config, module_path):
        return SnippetFile.from_parent(parent, path=module_path)
    return None


# What the plugin reads once per session lives in the session's config, not in this module: a second
# session in the same process (pytester's in-process runs) starts afresh.
_PYCON_COLLECTOR = pytest.StashKey[Callable]()
_SITE = pytest.StashKey[object]()
_MARKERS = pytest.StashKey[list]()


def _site(config: pytest.Config):
    if _SITE not in config.stash:
        from claimcheck.site import configured

        config.stash[_SITE] = configured(config.rootpath, config.getini("claims_pages"), config.getini("claims_snippets"),
                                         config.getini("claims_site"))
    return config.stash[_SITE]


def _pycon_collector(config: pytest.Config) -> Callable:
    if _PYCON_COLLECTOR not in config.stash:
        from claimcheck.doctests import make_sybil

        config.stash[_PYCON_COLLECTOR] = make_sybil(path=str(_folder(config, "claims_pages")), patterns=["*.md"]).pytest()
    return config.stash[_PYCON_COLLECTOR]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Name the claims a failure breaks, with where each is stated and checked, under the failure."""
    report = yield
    configured = _folder(item.config, "claims_snippets") or _folder(item.config, "claims_pages")
    if report.failed and call.excinfo is not None and configured:
        from claimcheck.page import PageNotText

        try:
            broken = _broken_claims(item.config, call.excinfo)
        except (OSError, PageNotText) as error:  # a page that cannot be read: the failure is still reported
            broken = [f"the claims it breaks cannot be named: {error}"]
        if broken:
            report.sections.append(("broken claims", "\n".join(broken)))
    return report


def _broken_claims(config: pytest.Config, excinfo: pytest.ExceptionInfo) -> list[str]:
    from sybil.example import SybilFailure

    from claimcheck.site import broken_by

    if isinstance(excinfo.value, SybilFailure):
        places = [(Path(excinfo.value.example.path), excinfo.value.example.line)]
    else:
        places = [(Path(entry.path), entry.lineno + 1) for entry in excinfo.traceback]
    site = _site(config)
    # Read once per session, on its first failure: passing runs never pay for it. The report needs only
    # where each claim is stated; the checks it names are read where the failure is.
    if _MARKERS not in config.stash:
        config.stash[_MARKERS] = [marker for page in site.pages for marker in page.markers]
    broken: list[str] = []
    for path, line in places:
        if path.resolve().is_relative_to(site.root.resolve()):
            broken += [text for text in broken_by(site, config.stash[_MARKERS], path, line) if text not in broken]
    return broken


class SnippetFile(pytest.File):
    def collect(self):
        yield SnippetRun.from_parent(self, name="run")


class SnippetRun(pytest.Item):
    """Run one snippet file as a script and compare its captured output with the committed files."""

    def runtest(self) -> None:
        from claimcheck import captures, outputs

        root = self.config.rootpath
        site = _site(self.config)
        ran = captures.run_snippet(self.path, execute=self._execute_rewritten, site=site)
        difference = outputs.output_mismatch(self.path, ran.printed.getvalue())
        if difference:
            # Run again, one top-level statement at a time, to tell which statement printed what.
            writes = captures.run_snippet(self.path, site=site).printed.writes
            located = outputs.mismatch_report(site, site.relative(self.path), outputs.attribute(self.path, writes))
            raise SnippetOutputStale(
                f"{located or difference}\n"
                "Show the real output below each print: 'python3 dev.py regen --outputs' rewrites the '#>' lines; review the diff."
            )
        outdated = captures.stale(captures.render(ran.captured, site))
        if outdated:
            names = ", ".join(str(path.relative_to(root)) for path in outdated)
            raise SnippetOutputStale(f"{self.path.relative_to(root)}: captured output is stale: {names}; run 'python3 dev.py regen' and review the diff")

    def _execute_rewritten(self, module: types.ModuleType) -> None:
        """Run the snippet's code in `module` with the assertion rewriting pytest applies to test modules,
        so a failing check prints its values: its import hook rewrites the modules registered with it."""
        name = ".".join(self.path.relative_to(self.config.rootpath).with_suffix("").parts)
        pytest.register_assert_rewrite(name)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or Path(spec.origin or "") != self.path:
            # Not importable by that name (the rootdir is not on the path): run it as it is.
            exec(compile(self.path.read_bytes(), str(self.path), "exec"), module.__dict__)
            return
        module.__spec__ = spec
        spec.loader.exec_module(module)

    def repr_failure(self, excinfo):
        from claimcheck.captures import CaptureError

        if isinstance(excinfo.value, SnippetOutputStale):
            return str(excinfo.value)
        if isinstance(excinfo.value, CaptureError) and not any(Path(entry.path) == self.path for entry in excinfo.traceback):
            return f"{self.path.relative_to(self.config.rootpath)}: {excinfo.value}"
        # A snippet is one module-level frame: the long style would print the whole file.
        return super().repr_failure(excinfo, style="short")

    def _traceback_filter(self, excinfo: pytest.ExceptionInfo):
        # Show the snippet and agentkit frames, not pytest's and runpy's plumbing.
        own = excinfo.traceback.filter(lambda entry: Path(entry.path) == self.path or "agentkit" in Path(entry.path).parts)
        return own or excinfo.traceback

    def reportinfo(self):
        return self.path, 0, f"snippet {self.path.relative_to(self.config.rootpath)}"


class SnippetOutputStale(AssertionError):
    """A snippet's shown or captured output differs from what it produces now."""
