"""What a claim states, read from its page, for checks that compare a claim's own numbers with code.

    from claimcheck import stated
    # verifies: chunks.window-and-overlap
    assert stated.numbers("chunks.window-and-overlap") == [CHUNK_SIZE, CHUNK_OVERLAP, CHUNK_SIZE - CHUNK_OVERLAP]

A check written this way fails when someone edits a number in the prose, which a check that only
compares code with a typed-in literal cannot do.

The pages are the site's (claimcheck/site.py): the one the running snippet belongs to, or the one whose
pyproject.toml is above the working directory.
"""

from __future__ import annotations

import functools
from pathlib import Path

from claimcheck import numbers as _numbers
from claimcheck.page import Marker
from claimcheck.site import Site, current


def text(claim_id: str, site: Site | None = None) -> str:
    """The paragraph or list item the claim's marker closes, as one line."""
    for marker in markers(site):
        if marker.id == claim_id:
            return marker.text
    raise KeyError(f"no page marks the claim {claim_id!r}")


def numbers(claim_id: str, site: Site | None = None) -> list[int | float]:
    """The numbers the claim states, in order, digits and number words alike (`three` is 3)."""
    return [int(number.value) if number.value == number.value.to_integral_value() else float(number.value)
            for number in _numbers.stated(text(claim_id, site))]


def markers(site: Site | None = None) -> tuple[Marker, ...]:
    """Every claim marker of the site's pages, in page order; read once per process and site."""
    return _markers(site or current() or Site.enclosing(Path.cwd()))


@functools.cache
def _markers(site: Site) -> tuple[Marker, ...]:
    # Read once per run and site (a tuple: no caller changes what the next one reads); a mutation run starts
    # a fresh process for every change, and a test that edits a tree reads it under a root of its own.
    return tuple(marker for page in site.pages for marker in page.markers)
