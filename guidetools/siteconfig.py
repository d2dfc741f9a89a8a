"""Read mkdocs.yml as data, for the tests and tools that need the site's settings (nav, site_url)."""

from __future__ import annotations

from pathlib import Path

import yaml

from guidetools.project import REPO_ROOT
from guidetools.sitelinks import served_root_path

MKDOCS_YML = REPO_ROOT / "mkdocs.yml"


class _TolerantLoader(yaml.SafeLoader):
    """Reads mkdocs.yml even when it holds tags such as !!python/name or !ENV, which these readers never need."""


_TolerantLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def load(path: Path = MKDOCS_YML) -> dict:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_TolerantLoader) or {}


def markdown_extensions(path: Path = MKDOCS_YML) -> tuple[list[str], dict[str, dict]]:
    """mkdocs.yml's `markdown_extensions` as MkDocs hands them to Python-Markdown: the names, in order, and the
    settings of those that have any."""
    names, settings = [], {}
    for entry in load(path).get("markdown_extensions", []):
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
        names.append(name)
        if options:
            settings[name] = dict(options)
    return names, settings


def site_url(path: Path = MKDOCS_YML) -> str | None:
    return load(path).get("site_url")


def root_path(path: Path = MKDOCS_YML) -> str:
    """Where the built site is served: the path of site_url ("/" without one)."""
    return served_root_path(site_url(path))
