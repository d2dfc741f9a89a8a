"""claimcheck._templates and the plugin's on_env: serve compiles each theme template once, a build as before."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from claimcheck.mkdocs_plugin import ClaimsPlugin


class CountingEnvironment(jinja2.Environment):
    compiled: list[str]

    def _compile(self, source, filename):
        self.compiled.append(filename)
        return super()._compile(source, filename)


def rebuild_env(plugin: ClaimsPlugin, templates: Path) -> CountingEnvironment:
    # What each build does: a new environment (MkDocs' theme.get_env), given to the plugins' on_env.
    env = CountingEnvironment(loader=jinja2.FileSystemLoader(str(templates)), auto_reload=False)
    env.compiled = []
    return plugin.on_env(env, None, None)


@pytest.mark.parametrize("command, compiled", [("serve", (1, 0)), ("build", (1, 1))])
def test_serve_compiles_a_template_once_and_again_when_it_changes_and_a_build_compiles_as_it_always_did(
        tmp_path: Path, command: str, compiled: tuple[int, int]):
    (tmp_path / "main.html").write_text("<p>{{ page }}</p>")
    plugin = ClaimsPlugin()
    plugin.on_startup(command=command, dirty=False)
    first, second = rebuild_env(plugin, tmp_path), rebuild_env(plugin, tmp_path)
    assert first.get_template("main.html").render(page="a") == "<p>a</p>"
    assert second.get_template("main.html").render(page="b") == "<p>b</p>"
    assert (len(first.compiled), len(second.compiled)) == compiled
    assert (first.bytecode_cache is None) is (command == "build")
    (tmp_path / "main.html").write_text("<div>{{ page }}</div>")
    edited = rebuild_env(plugin, tmp_path)
    assert edited.get_template("main.html").render(page="c") == "<div>c</div>"
    assert len(edited.compiled) == 1
