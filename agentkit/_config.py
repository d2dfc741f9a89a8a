"""AgentConfiguration: which tools an agent is offered, and its tool-call budget.

The enforcement surface of the framework, modelled as it behaves:

* ``plugins`` entries read ``"Name"`` (the whole plugin) or
  ``"Name:Method1,Method2"`` (only those methods): split on the first ``:``,
  then on ``,``, each part trimmed, methods matched case-insensitively. A
  non-empty list offers only those tools; an empty or absent list offers the
  read-only Mesh tools (``Get``, ``Search``, ``NavigateTo``), because write
  access is an explicit grant. An unknown plugin name only warns.
* ``store_plan`` and ``load_skill`` are always offered; the delegation tool is
  offered when the agent has delegations.
* ``max_tool_calls_per_round`` caps model *iterations* in a round (one
  iteration may carry several parallel calls), appends the framework's budget
  text to the instructions, and offers no tools on the last allowed iteration,
  so the model must answer in text. Nothing is thrown when the cap is reached.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ._errors import ConfigurationError, UnknownPluginWarning
from ._plugins import MESH_PLUGIN

READ_ONLY_MESH_METHODS = ("Get", "Search", "NavigateTo")
ALWAYS_OFFERED = ("store_plan", "load_skill")
DELEGATION_TOOL = "delegate_to_agent"
BUDGET_TEXT = (
    "Tool-call budget: you may issue at most {n} tool calls in this turn. If you reach this "
    "budget before finishing, stop, briefly summarise what you accomplished, and ask the user "
    'to reply "continue" to run the next batch.'
)

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_ENTRY_FORMS = "write 'Name' for a whole plugin or 'Name:Method1,Method2' for some of its methods"


@dataclass(frozen=True)
class PluginGrant:
    """One parsed ``plugins`` entry: a plugin and, optionally, the methods it is limited to."""

    plugin: str
    methods: tuple[str, ...] | None = None  # None: every method of the plugin

    def allows(self, method: str) -> bool:
        return self.methods is None or method.casefold() in {m.casefold() for m in self.methods}


def parse_plugin_entry(entry: object, position: int = 0) -> PluginGrant:
    """Parse one ``plugins`` entry; a malformed one raises ConfigurationError saying why."""
    where = f"plugins[{position}] = {entry!r}"
    if not isinstance(entry, str):
        raise ConfigurationError(f"{where}: an entry must be a string; {_ENTRY_FORMS}")
    name, colon, methods_text = entry.partition(":")
    name = name.strip()
    if not name:
        raise ConfigurationError(f"{where}: the plugin name is empty; {_ENTRY_FORMS}")
    if not _NAME.match(name):
        raise ConfigurationError(
            f"{where}: plugin name {name!r} must be letters, digits and '_'; {_ENTRY_FORMS}")
    if not colon:
        return PluginGrant(name)
    methods = tuple(part.strip() for part in methods_text.split(","))
    for index, method in enumerate(methods, start=1):
        if not method:
            raise ConfigurationError(
                f"{where}: method {index} after ':' is empty; {_ENTRY_FORMS}")
        if not _NAME.match(method):
            raise ConfigurationError(
                f"{where}: method {method!r} must be letters, digits and '_'; {_ENTRY_FORMS}")
    return PluginGrant(name, methods)


def _check_cap(cap: object) -> None:
    if cap is None:
        return
    if isinstance(cap, bool) or not isinstance(cap, int):
        raise ConfigurationError(
            f"max_tool_calls_per_round must be a whole number >= 1 or None (no cap), got {cap!r}")
    if cap < 1:
        raise ConfigurationError(
            f"max_tool_calls_per_round must be >= 1, got {cap}: a cap of {cap} would leave the model "
            "no iteration to answer in; leave it unset for no cap")


@dataclass(frozen=True)
class AgentConfiguration:
    """An agent as the framework configures it. Validated when built; nothing is half-set.

    ``model`` is the model key the agent bills under (a key of the price table);
    ``delegations`` name the agents it may hand work to; ``skills`` are texts
    ``load_skill`` returns by name.
    """

    id: str
    instructions: str = ""
    plugins: Sequence[str] | None = None
    max_tool_calls_per_round: int | None = None
    delegations: Sequence[str] = ()
    skills: Mapping[str, str] = field(default_factory=dict)
    model: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not re.match(r"^[A-Za-z0-9-]+$", self.id):
            raise ConfigurationError(
                f"agent id {self.id!r} must be a slug: letters, digits and hyphens")
        if isinstance(self.plugins, str):
            raise ConfigurationError(
                f"plugins must be a list of entries, got the string {self.plugins!r}; "
                f"write [{self.plugins!r}]")
        grants = tuple(parse_plugin_entry(entry, i) for i, entry in enumerate(self.plugins or ()))
        _check_cap(self.max_tool_calls_per_round)
        object.__setattr__(self, "plugins", None if self.plugins is None else tuple(self.plugins))
        object.__setattr__(self, "delegations", tuple(self.delegations))
        object.__setattr__(self, "skills", dict(self.skills))
        object.__setattr__(self, "_grants", grants)

    @property
    def grants(self) -> tuple[PluginGrant, ...]:
        """The parsed ``plugins`` entries, in order."""
        return self._grants  # type: ignore[attr-defined]

    def round_instructions(self) -> str:
        """The instructions the model is shown: with the budget text when a cap is set."""
        if self.max_tool_calls_per_round is None:
            return self.instructions
        budget = BUDGET_TEXT.format(n=self.max_tool_calls_per_round)
        return f"{self.instructions}\n\n{budget}" if self.instructions else budget

    def offered_tools(self, available: Sequence[Any], builtins: Sequence[Any] = ()) -> tuple[Any, ...]:
        """The tools offered to the model, from ``available`` plugin tools and the runtime's ``builtins``.

        ``available`` holds every plugin tool the host has (each with ``.name``
        and ``.plugin``); ``builtins`` the always-offered tools and the
        delegation tool, which are kept when their condition holds. Unknown
        plugins and methods warn (UnknownPluginWarning) and offer nothing.
        """
        if self.grants:
            chosen = [tool for tool in available if self._granted(tool)]
            self._warn_unknown(available)
        else:
            chosen = [tool for tool in available
                      if tool.plugin == MESH_PLUGIN and tool.name in READ_ONLY_MESH_METHODS]
        wanted = set(ALWAYS_OFFERED) | ({DELEGATION_TOOL} if self.delegations else set())
        chosen += [tool for tool in builtins if tool.name in wanted]
        return tuple(chosen)

    def _granted(self, tool: Any) -> bool:
        return any(grant.plugin == tool.plugin and grant.allows(tool.name) for grant in self.grants)

    def _warn_unknown(self, available: Sequence[Any]) -> None:
        methods: dict[str, set[str]] = {}
        for tool in available:
            methods.setdefault(tool.plugin, set()).add(tool.name.casefold())
        for grant in self.grants:
            if grant.plugin not in methods:
                known = ", ".join(sorted(methods)) or "none"
                warnings.warn(UnknownPluginWarning(
                    f"agent {self.id!r}: unknown plugin {grant.plugin!r} in plugins; it offers "
                    f"nothing (known plugins: {known})"), stacklevel=3)
                continue
            for method in grant.methods or ():
                if method.casefold() not in methods[grant.plugin]:
                    warnings.warn(UnknownPluginWarning(
                        f"agent {self.id!r}: plugin {grant.plugin!r} has no method {method!r}; "
                        "it offers nothing"), stacklevel=3)
