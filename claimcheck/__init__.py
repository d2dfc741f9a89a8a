"""claimcheck: every behaviour a documentation page states is a claim, and every claim is checked.

Entry points (pyproject.toml), so installing the package is all a project does to use them:

- `pytest11`: `claims` (claimcheck.pytest_plugin), the snippets and the pages' pycon examples as
  tests, and the claims a failure breaks under it; on when pytest's ini names `claims_snippets` or
  `claims_pages`;
- `mkdocs.plugins`: `claims` (claimcheck.mkdocs_plugin.ClaimsPlugin), the claim labels on the site.

The modules whose names start with `_` are private; what they offer others is named here.
"""

from __future__ import annotations

from claimcheck._code_breaks import breakable_code
from claimcheck._marks import LABELS, spoken_name
from claimcheck.captures import CaptureError, capture

__all__ = ["LABELS", "CaptureError", "breakable_code", "capture", "spoken_name"]
