"""claimcheck's MkDocs plugin on a site that is not the guide (tests/fixtures/claimcheck_site/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

SITE = Path(__file__).resolve().parents[1] / "fixtures" / "claimcheck_site"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("claimcheck_site")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NO_MKDOCS_2_WARNING", "1")
        build(load_config(str(SITE / "mkdocs.yml"), site_dir=str(out), strict=True))
    return out


def test_plugin_is_found_by_its_entry_point_and_labels_each_claim(built: Path):
    """`plugins: - claims` is all a site writes; the label's code is broken into words as all inline code is."""
    home = (built / "index.html").read_text(encoding="utf-8")
    assert home.count('class="claim-mark') == 1
    assert 'href="reference/claims/#claim-adder.adds"' in home
    assert "\u2713 guide's model \u00b7 <code><span class=\"code-word\">adder.adds</span></code></a>" in home


def test_the_claims_page_has_no_edit_link_and_the_others_keep_theirs(built: Path):
    """The claims page is generated: an edit there would be overwritten."""
    assert "https://example.org/edit/docs/index.md" in (built / "index.html").read_text(encoding="utf-8")
    assert "https://example.org/edit/docs/" not in (built / "reference" / "claims" / "index.html").read_text(encoding="utf-8")
