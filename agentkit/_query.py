"""The framework's QueryParser, the one query grammar of Search and of the chunk search (MQ3, K4).

:func:`terms` tokenizes a query as QueryParser.Tokenize does; :func:`reserved` reads the reserved
qualifiers of its terms as ExtractReservedQualifiers does: one location that ``path:`` and ``namespace:`` both
set (the later one winning), the scope, and what is left for matching. :func:`search_query` is the query the
Search tool runs for a ``basePath``. The readers interpret the result as their framework counterparts do:
``Mesh.search`` as the query providers, ``parse_content_query`` as ContentChunkSearch.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ._paths import resolve_tool_path as resolve_path  # MeshOperations.ResolvePath (N4)

_NET_BLANKS = frozenset("\t\n\v\f\r \x85")


def net_blank(char: str) -> bool:
    """.NET's char.IsWhiteSpace: the space separators, line and paragraph separators, U+0009..U+000D, U+0085
    (Python's ``isspace`` also counts U+001C..U+001F, which .NET does not)."""
    return char in _NET_BLANKS or unicodedata.category(char) in ("Zs", "Zl", "Zp")


def net_trim(text: str) -> str:
    """.NET's string.Trim(): blanks off both ends, as :func:`net_blank` counts them."""
    start, end = 0, len(text)
    while start < end and net_blank(text[start]):
        start += 1
    while end > start and net_blank(text[end - 1]):
        end -= 1
    return text[start:end]


_FIELD_EXTRA = "_.-/$"  # besides letters and digits, what a field name may hold (IsValidFieldChar)
SCOPE_WORDS = {  # QueryParser's scope words (an unknown word is Exact) ...
    "exact": "exact", "children": "children", "descendants": "descendants", "ancestors": "ancestors",
    "hierarchy": "hierarchy", "subtree": "subtree", "ancestorsandself": "ancestorsandself",
    "selfandancestors": "ancestorsandself", "myselfandancestors": "ancestorsandself",
    "selfanddescendants": "subtree", "nextlevel": "nextlevel", "populated": "nextlevel",
}


def _letter_or_digit(char: str) -> bool:
    """.NET's char.IsLetterOrDigit on one UTF-16 unit: an astral character is two surrogates, neither."""
    if ord(char) > 0xFFFF:
        return False
    category = unicodedata.category(char)
    return category[0] == "L" or category == "Nd"


def _field_char(char: str) -> bool:
    return _letter_or_digit(char) or char in _FIELD_EXTRA


@dataclass(frozen=True)
class Term:
    """One token of QueryParser.Tokenize: free text, or ``field:value`` (``values``, ``op`` as the parser sets them)."""
    text: str | None = None
    field: str = ""
    values: tuple[str, ...] = ()
    op: str = "eq"  # eq | ne | in | notin | like | cmp

    @property
    def value(self) -> str:
        return self.values[0] if self.values else ""


def _single_value(query: str, i: int, stop_at_parens: bool) -> tuple[str, int]:
    """QueryParser.ParseSingleValue: a quoted value up to its closing quote, else up to a blank (or a paren)."""
    n = len(query)
    while i < n and net_blank(query[i]):
        i += 1
    if i >= n:
        return "", i
    if query[i] in "\"'":
        quote, i = query[i], i + 1
        start = i
        while i < n and query[i] != quote:
            i += 1
        return query[start:i], min(i + 1, n)
    start, depth = i, 0
    while i < n:
        char = query[i]
        if net_blank(char) or (stop_at_parens and char in "()"):
            break
        if not stop_at_parens and char == "(":
            depth += 1
        elif not stop_at_parens and char == ")":
            if depth == 0:
                break
            depth -= 1
        i += 1
    return query[start:i], i


def _field_value(field: str, query: str, i: int, negated: bool) -> tuple[Term, int]:
    """QueryParser.ParseFieldValue: the value after ``field:`` (an operator, a ``(A OR B)`` list, ``|`` alternation)."""
    n = len(query)
    equal = "ne" if negated else "eq"
    if i >= n or net_blank(query[i]):
        return Term(field=field, values=("",), op=equal), i
    op = equal
    if query.startswith((">=", "<="), i):
        op, i = "cmp", i + 2
    elif query[i] in "<>":
        op, i = "cmp", i + 1
    elif query[i] == "(":
        i, values = i + 1, []
        while i < n and query[i] != ")":
            while i < n and net_blank(query[i]):
                i += 1
            if i >= n or query[i] == ")":
                break
            if query[i:i + 2].lower() == "or":
                i += 2
                continue
            value, after = _single_value(query, i, True)
            if after == i:
                # The framework's ParseListValues loops here for ever (a '(' inside a list, as in `x:((`): the
                # call never answers. agentkit cannot hang a tool call, so it ends the list instead.
                break
            i = after
            if value:
                values.append(value)
        if i < n and query[i] == ")":
            i += 1
        return Term(field=field, values=tuple(values), op="notin" if negated else "in"), i
    value, i = _single_value(query, i, False)
    if op in ("eq", "ne") and i < n and query[i] == "|":
        parts = [value] if value else []
        while i < n and query[i] == "|":
            following, i = _single_value(query, i + 1, False)
            if following:
                parts.append(following)
        if len(parts) > 1:
            return Term(field=field, values=tuple(parts), op="notin" if negated else "in"), i
    if op in ("eq", "ne") and "*" not in value and "|" in value:
        parts = [part for part in value.split("|") if part]
        if len(parts) > 1:
            return Term(field=field, values=tuple(parts), op="notin" if negated else "in"), i
    if not negated and op in ("eq", "ne") and "*" in value:
        op = "like"
    return Term(field=field, values=(value,), op=op), i


def terms(query: str) -> list[Term]:
    """QueryParser.Tokenize: blanks, parentheses and the words OR and AND are skipped, a quoted string is free
    text, ``field:value`` a term, a bare word free text; any other character is skipped (so ``@`` before a word)."""
    terms: list[Term] = []
    i, n = 0, len(query)
    while i < n:
        char = query[i]
        if net_blank(char) or char in "()":
            i += 1
            continue
        if query[i:i + 2].lower() == "or" and (i + 2 >= n or not _letter_or_digit(query[i + 2])):
            i += 2
            continue
        if query[i:i + 3].lower() == "and" and (i + 3 >= n or not _letter_or_digit(query[i + 3])):
            i += 3
            continue
        start, negated = i, char == "-"
        if negated:
            i += 1
            if i >= n:
                i = start + 1
                continue
        if query[i] in "\"'":
            quote, i = query[i], i + 1
            text_start = i
            while i < n and query[i] != quote:
                i += 1
            terms.append(Term(text=query[text_start:i]))
            i = min(i + 1, n)
            continue
        field_start = i
        while i < n and _field_char(query[i]):
            i += 1
        if i == field_start or (negated and not (i < n and query[i] == ":")):
            i = start + 1  # no term here: the character is skipped
            continue
        field = query[field_start:i]
        if i < n and query[i] == ":":
            term, i = _field_value(field, query, i + 1, negated)
            terms.append(term)
        else:
            terms.append(Term(text=field))
    return terms


@dataclass(frozen=True)
class Qualifiers:
    """What ExtractReservedQualifiers reads of a query's terms.

    ``path``: the value of the last ``path:`` or ``namespace:`` term (``by_namespace`` says which), as written (``None``: none; a
    ``namespace:`` value with ``*`` sets none, an alternation ``A|B`` clears it and sets ``alternation``).
    ``scope``: the last ``scope:`` word as the parser reads it (an unknown word is ``exact``); without a
    ``scope:`` term it is ``children`` after a ``namespace:``, else ``exact``; a ``namespace:`` with the
    subtree scope is ``descendants`` (the namespace's subtree without itself). ``rest``: every other term.
    """

    path: str | None
    namespace_used: bool
    by_namespace: bool  # the location was last set by a `namespace:` term
    scoped: bool
    scope: str
    alternation: bool
    rest: tuple[Term, ...]

    @property
    def text(self) -> str:
        """The free text: the text terms joined by one blank."""
        return " ".join(term.text for term in self.rest if term.text is not None)


def reserved(query: str) -> Qualifiers:
    """The reserved qualifiers of ``query`` (see :class:`Qualifiers`)."""
    path: str | None = None
    scope, scoped, namespace_used, alternation, by_namespace = "exact", False, False, False, False
    rest: list[Term] = []
    for term in terms(query):
        field = term.field.lower() if term.text is None else ""
        many = term.op in ("in", "notin") and len(term.values) > 1
        if field == "path":
            path, by_namespace = term.values[0] if many else term.value, False
        elif field == "namespace":
            if many:
                alternation = namespace_used = True
            elif "*" not in term.value:
                path, namespace_used, by_namespace = term.value, True, True
        elif field == "scope":
            scoped, scope = True, SCOPE_WORDS.get(term.value.lower(), "exact")
        else:
            rest.append(term)
    if namespace_used and not scoped:
        scope = "children"
    if namespace_used and scope == "subtree":
        scope = "descendants"
    if alternation:
        path, scope = None, "exact"
    return Qualifiers(path, namespace_used, by_namespace, scoped, scope, alternation, tuple(rest))


def search_query(query: str | None, base_path: str | None) -> str:
    """The query Search runs (M3, Q1): with a ``basePath``, every ``namespace:`` is deleted from the query (its
    value stays, as free text) and ``namespace:{basePath}`` is put in front; without one, the query as sent."""
    base = resolve_path(base_path) if isinstance(base_path, str) else None
    if not base:
        return query or ""
    return f"namespace:{base} {(query or '').replace('namespace:', '').strip()}".strip()
