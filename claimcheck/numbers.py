"""The numbers a sentence states, as a reviewer reads them: `1,000`, `0.25`, `64`, and number words
(`three`, `a tenth`), each with the value code would compare it to.

Numbers inside code spans are names (`rev-FY2023-1`, `limit=50` in a signature), so they are left
to the name check; so are numbers glued to letters (`FY2024`, `Q3`), link targets, dates, and
references (`#369`, `RFC 7396`, `rule 6`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from claimcheck.inline import read_inline

# "one" is left out: in prose it is mostly a pronoun ("one per file", "the one it found"); so are
# "double", which mostly names quotes.
WORDS = {
    "zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "hundred": 100, "thousand": 1000,
    "twice": 2, "half": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10,
}
DIGITS = re.compile(r"(?<![\w.,/-])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w-])|(?<![\w.,/-])\d+(?:\.\d+)?(?![\w-])")
WORD = re.compile(r"\b(" + "|".join(WORDS) + r")\b", re.I)
RANGE_DOTS = re.compile(r"(?<=\d)\.\.(?=\d)")
# References, not quantities: an issue (#369), a standard (RFC 7396), a numbered rule of a list (rule 6).
REFERENCE = re.compile(r"#\d+\b|\bRFC \d+\b|\brule \d+\b", re.I)
# Numeric literals in code or in output: 1_000, 1000, 0.25, 1e3.
LITERAL = re.compile(r"(?<![\w.])\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])")


@dataclass(frozen=True)
class Stated:
    """One number as written in prose: its text, where it starts in the text, and its value."""

    text: str
    start: int
    value: Decimal
    is_word: bool


def prose(text: str) -> str:
    """The text with code spans, link targets and references blanked out (same length, so offsets hold)."""
    blank = lambda match: " " * len(match.group(0))  # noqa: E731
    visible = REFERENCE.sub(blank, read_inline(text).prose)
    # A range: "1..200" states 1 and 200.
    return RANGE_DOTS.sub("  ", visible)


def stated(text: str, words: bool = True) -> list[Stated]:
    """Every number the prose of `text` states, in order."""
    visible = prose(text)
    found = [Stated(m.group(0), m.start(), _value(m.group(0)), False) for m in DIGITS.finditer(visible)]
    if words:
        found += [Stated(m.group(0), m.start(), Decimal(WORDS[m.group(0).lower()]), True) for m in WORD.finditer(visible)]
    # "a number in a sentence" ends with the sentence: "…at 75." is 75.
    return sorted(found, key=lambda number: number.start)


def numbers_in(text: str) -> list[str]:
    """The digit numbers of a text as written (for diffs: words are not compared)."""
    return [number.text for number in stated(text, words=False)]


def values_in_code(text: str) -> set[Decimal]:
    """Every numeric literal in code or output, as a value."""
    values = set()
    for match in LITERAL.finditer(text):
        value = _value(match.group(0).replace("_", ""))
        if value is not None:
            values.add(value)
    return values


def _value(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", "")).normalize()
    except InvalidOperation:
        return None
