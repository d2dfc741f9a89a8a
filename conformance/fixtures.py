"""The fixture files the checks upload, and the framework's figures they are compared with.

The figures are the framework's (facts K1, K3 of the guide's framework-facts file); a
target that behaves otherwise fails the claim that states them.
"""

from __future__ import annotations

CHUNK_SIZE = 1000  # K1: 1,000-character windows ...
CHUNK_OVERLAP = 150  # ... that overlap by 150
CHUNK_STRIDE = CHUNK_SIZE - CHUNK_OVERLAP
SNIPPET_LIMIT = 160  # K3: a snippet longer than 160 characters is cut to 160 + '…'
SEARCH_WORD = "zephyrquill"  # a word no real document holds, so a search finds the fixture

WORDS = ("amber", "falcon", "quartz", "river", "cobalt", "meadow", "lantern", "harbor", "thistle", "copper")


def long_text() -> str:
    """About 2,700 characters of numbered lines: three windows, with the search word in the second."""
    lines = []
    for number in range(1, 61):
        word = SEARCH_WORD if number == 25 else WORDS[number % len(WORDS)]
        lines.append(f"Line {number:03d}: {word} {WORDS[(number * 3) % len(WORDS)]} {WORDS[(number * 7) % len(WORDS)]}.")
    return "\n".join(lines) + "\n"


def short_text() -> str:
    """Well under one window: indexed as a single chunk."""
    return "# Conformance note\n\nA short Markdown file that fits one chunk.\n"


def expected_windows(text: str) -> list[str]:
    """The chunk texts the framework's TextChunker cuts from `text` (K1): the last window stops at the end."""
    if len(text) <= CHUNK_SIZE:
        return [text]
    windows, start = [], 0
    while True:
        window = text[start:start + CHUNK_SIZE]
        windows.append(window)
        if start + len(window) >= len(text):
            return windows
        start += CHUNK_STRIDE


def slug(file_path: str) -> str:
    """The Document node's last segment for a file (D2, DocumentPaths.Slug): the suite needs it to find the node."""
    out, last_was_dash = [], False
    for ch in file_path.strip():
        if (ch.isascii() and ch.isalnum()) or ch in "-_.":
            out.append(ch)
            last_was_dash = False
        elif not last_was_dash:
            out.append("-")
            last_was_dash = True
    return "".join(out).strip("-") or "document"
