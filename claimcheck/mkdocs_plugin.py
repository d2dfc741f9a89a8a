"""The MkDocs plugin `claims` (`plugins: - claims` in mkdocs.yml): what a reader sees of the claims.

One small function per event:

- `on_files`: the claims page, which `dev.py regen` writes, gets no "edit this page" link
  (an edit there is overwritten by the next regen), and its address is noted;
- `on_config` and `on_page_markdown`: every claim gets a label linking to its row on the claims page,
  added by a Markdown extension (claimcheck/_marks.py) that is told each page's address;
- `on_page_content`: inline code breaks only after a `/`; a notebook page folds the code that only
  draws a figure;
- `on_startup`, `on_files` and `on_pre_page`: while `mkdocs serve` runs, a page whose source, watched
  files (`watch:` in mkdocs.yml), configuration and site files are unchanged is shown as it was last
  rendered, so editing one page renders that page alone, and a notebook's kernel runs again only
  when its inputs changed. A build (and so every test) always renders and executes everything;
- `on_env`: while `mkdocs serve` runs, the theme's templates are compiled once, not on every rebuild.

ProperDocs loads it unchanged: it reads `mkdocs.plugins` entry points and maps `mkdocs.*` imports
to its own modules.
"""

from __future__ import annotations

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.utils import get_relative_url

from claimcheck._code_breaks import break_code
from claimcheck._marks import ClaimLabels
from claimcheck._notebook import fold_plotting_code
from claimcheck._rebuilds import reuse_while_unchanged, site_inputs
from claimcheck._templates import CompiledTemplates

NOTEBOOK_SUFFIXES = (".py", ".ipynb")
CLAIMS_PAGE = "reference/claims.md"


class ClaimsConfig(Config):
    # The generated page that lists every claim with its checks (docs-relative); each label links to it.
    claims_page = config_options.Type(str, default=CLAIMS_PAGE)


class ClaimsPlugin(BasePlugin[ClaimsConfig]):
    claims_url: str = ""
    serving: bool = False
    # Defining on_startup keeps this plugin object for the whole `mkdocs serve`: the pages as last rendered,
    # by page, with the digest of what they were rendered from.
    rendered: dict
    labels: ClaimLabels
    site: bytes = b""
    templates: CompiledTemplates

    def on_startup(self, *, command, dirty):
        self.serving = command == "serve"
        self.rendered = {}
        self.templates = CompiledTemplates()

    def on_env(self, env, config, files):
        if self.serving:
            env.bytecode_cache = self.templates
        return env

    @event_priority(-100)  # after mkdocs-jupyter's on_pre_page, which gives the page its executing render
    def on_pre_page(self, page, config, files):
        if self.serving:
            reuse_while_unchanged(page, self.site, self.rendered)
        return page

    def on_config(self, config):
        self.labels = ClaimLabels()
        config.markdown_extensions.append(self.labels)
        return config

    def on_files(self, files, config):
        claims_page = next((file for file in files if file.src_uri == self.config.claims_page), None)
        if claims_page is None:
            raise PluginError(f"claims: the claims page {self.config.claims_page!r} is not among the site's pages")
        # MkDocs and ProperDocs build a page's edit link from `edit_uri`; None means no link.
        claims_page.edit_uri = None
        self.claims_url = claims_page.url
        if self.serving:
            self.site = site_inputs(config.config_file_path, config.watch, files)
        return files

    def on_page_markdown(self, markdown, page, config, files):
        # The page is rendered next: its labels link to the claims page relative to it.
        self.labels.claims_url = get_relative_url(self.claims_url, page.url)
        return markdown

    def on_page_content(self, html, page, config, files):
        html = break_code(html)
        if page.file.src_uri.endswith(NOTEBOOK_SUFFIXES):
            html = fold_plotting_code(html)
        return html
