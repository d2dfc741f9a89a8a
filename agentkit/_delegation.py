"""Which agents a delegation reaches, and which build of its agent a round runs (DL6, DL7), on a host's chat."""

from __future__ import annotations

import re
from typing import Sequence

from ._config import AgentConfiguration, _last_segment


def delegation_targets(configs: Sequence[AgentConfiguration],
                       by_name: bool = False) -> dict[str, tuple[str, ...]]:
    """For each agent of a hierarchy, the agents its ``delegate_to_agent`` can resolve on a host's chat (DL6).

    The batch build (``by_name=False``): AgentChatClient builds the agents in order, those without
    delegations first, then those with delegations, the default agent last (OrderAgentsForCreation), each
    given only the agents built before it. An agent in a delegation cycle of two (itself included: a
    self-delegation) is built again at the end, seeing every agent. Three kinds of round run these agents
    (:func:`round_build`): one with no selection on a fresh AgentChatClient (a thread hub's first, or its
    first after the hub is recreated), one an ``@agent`` reference picks, and a handoff's target.

    ``by_name=True``: a round whose agent is chosen by name (a picked agent, every delegated sub-thread,
    a later round on the same thread hub) gets it from ResolveSelectedAgent, which rebuilds it with the complete
    agent map, since its composed instructions never equal the configuration's: every agent resolves every
    agent, itself included. A name the caller cannot resolve gets no answer (DL3).
    """
    plain = [c for c in configs if not c.delegations and not c.is_default]
    delegating = [c for c in configs if c.delegations and not c.is_default]
    ordered = plain + delegating + [c for c in configs if c.is_default]
    every = tuple(c.id for c in ordered)
    if by_name:
        return {config.id: every for config in configs}
    by_id = {c.id: c for c in configs if c.delegations}
    cyclic = {c.id for c in configs if c.delegations for path in c.delegations
              if _last_segment(path) in by_id
              and c.id in {_last_segment(back) for back in by_id[_last_segment(path)].delegations}}
    targets: dict[str, tuple[str, ...]] = {}
    for position, config in enumerate(ordered):
        targets[config.id] = every[:position]
    for config in configs:
        if config.id in cyclic:
            targets[config.id] = every
    return targets


BATCH_BUILD, BY_NAME = "batch", "by name"


def round_build(selected: str | None, message: str, loaded: Sequence[str], handoff: bool = False) -> str:
    """Which build of its agent a round runs (DL6, DL7): ``BATCH_BUILD`` or ``BY_NAME`` (see delegation_targets).

    A handoff's target is read from the published batch map (AgentChatClient.cs:861, 1159). Otherwise
    SelectAgent tries the message's ``@agent/Name`` and first ``@`` agent reference (both answer the batch
    agent), then the explicit selection (``selected``: a picked agent, a sub-thread's AgentName, the name the
    previous round on the same client left), which ResolveSelectedAgent rebuilds; with none, the default
    agent or the first loaded one, from the batch map. ``selected`` is None on a fresh AgentChatClient; a
    selection no loaded agent matches runs no agent at all (it answers an error; not modelled)."""
    if handoff or named_agent(message, loaded) is not None:
        return BATCH_BUILD
    return BY_NAME if selected else BATCH_BUILD


# AgentChatClient.SelectAgent's first two steps, which a round's last message (a delegated sub-thread's: the
# task) takes before any selection (DL7): an `@agent/{Name}` match, then the first `@` reference whose last
# segment is a loaded agent's name, both ignoring case. MarkdownReferenceExtractor takes `@(path)`, `@("path")`
# and `@"path"` before the direct `@path` form, skipping an overlapping match and a direct `agent/…` or `model/…`.
AGENT_REFERENCE = re.compile(r"@agent/(\w+)", re.IGNORECASE)
_PARENTHESES_REFERENCE = re.compile(r'@\((?:"([^"]+)"|([^)]+))\)')
_QUOTED_REFERENCE = re.compile(r'@"([^"]+)"')
_DIRECT_REFERENCE = re.compile(r"@([a-zA-Z0-9_/\-.:]+)")


def _references(text: str) -> list[str]:
    found: list[tuple[int, str]] = []
    used: list[tuple[int, int]] = []
    for pattern in (_PARENTHESES_REFERENCE, _QUOTED_REFERENCE, _DIRECT_REFERENCE):
        for match in pattern.finditer(text):
            if any(start < match.end() and match.start() < end for start, end in used):
                continue
            path = next((group for group in match.groups() if group is not None), "")
            if pattern is _DIRECT_REFERENCE and (path.startswith("agent/") or path.casefold().startswith("model/")):
                continue
            if path.strip():
                found.append((match.start(), path.strip() if pattern is not _DIRECT_REFERENCE else path))
                used.append((match.start(), match.end()))
    return [path for _, path in sorted(found)]


def named_agent(text: str, loaded: Sequence[str]) -> str | None:
    """The loaded agent a message's text names, which runs instead of the selected one (DL7), or None."""
    by_fold = {name.casefold(): name for name in reversed(loaded)}
    match = AGENT_REFERENCE.search(text)
    if match and match.group(1).casefold() in by_fold:
        return by_fold[match.group(1).casefold()]
    for path in _references(text):
        if path.split("/")[-1].casefold() in by_fold:
            return by_fold[path.split("/")[-1].casefold()]
    return None
