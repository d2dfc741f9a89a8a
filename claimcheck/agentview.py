"""The agent's view of a listing: the tool calls a snippet section makes and the answers, as the model sees them.

A page shows what a tool does first as the call the model issues (the tool's
name and its JSON arguments) and the text that comes back, and the Python that
made the call in a second tab. Both come from one run: the snippet wraps its
tools with `AgentView.wrap`, every call through them is recorded with the
snippet line that made it, and right after a named section the snippet captures
its calls (`capture("x.md", view.markdown("section"))`), so the committed
listing is checked against a fresh run like every other captured output.

A listing that configures an agent shows the agent node's JSON first, the
same way: the snippet builds its configurations with the class
`AgentView.configurations(AgentConfiguration)` returns, which records each one
with the snippet lines that built it, and `view.agent_nodes("section")` renders
the node JSON (`AgentConfiguration.node_json`) of the configurations those
lines built; `view.system_messages("section")` renders the system message each
of them sends first in every call (its instructions and the framework's guidance).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import traceback
from dataclasses import dataclass
from pathlib import Path

from claimcheck.pysource import read_sections

# A long text answer (a whole document) is cut after this many lines, a JSON answer after more; the
# listing says how many lines are left out.
MAX_ANSWER_LINES = 12
MAX_JSON_LINES = 25
# A single long line (a whole file as one JSON string literal) is cut after this many characters.
MAX_ANSWER_CHARS = 600


@dataclass(frozen=True)
class RecordedConfiguration:
    lines: tuple[int, ...]  # the snippet's lines on the stack when the configuration was built
    configuration: object   # an agentkit AgentConfiguration


@dataclass(frozen=True)
class RecordedStep:
    lines: tuple[int, ...]  # the snippet's lines on the stack when the step ran
    after: int              # how many calls were recorded before it: it stands between those and the next
    text: str               # what the listing says happened, in the model's absence


@dataclass(frozen=True)
class RecordedCall:
    lines: tuple[int, ...]  # the snippet's lines on the stack when the call was made, innermost first
    tool: str
    arguments: dict
    answer: str


class AgentView:
    """Records the calls made through wrapped tools, each with the line of `snippet` that made it."""

    def __init__(self, snippet: str | Path) -> None:
        self.snippet = Path(snippet).resolve()
        self.calls: list[RecordedCall] = []
        self.steps: list[RecordedStep] = []
        self.configurations_built: list[RecordedConfiguration] = []

    def configurations(self, base):
        """A subclass of `base` (agentkit's AgentConfiguration) that records every configuration built.

        It behaves as `base` and keeps its name; its class methods (`from_markdown`,
        `from_node_content`) build the subclass too, so their configurations are recorded.
        """
        view = self

        def __post_init__(config) -> None:
            base.__post_init__(config)
            view.configurations_built.append(RecordedConfiguration(view._caller_lines(), config))

        return type(base.__name__, (base,), {"__post_init__": __post_init__, "__qualname__": base.__qualname__,
                                             "__module__": base.__module__, "__doc__": base.__doc__})

    def wrap(self, tools):
        """The same tools (a name → Tool mapping, or a list of tools), each recording its calls."""
        if isinstance(tools, dict):
            return {name: dataclasses.replace(tool, call=self._recording(tool)) for name, tool in tools.items()}
        return [dataclasses.replace(tool, call=self._recording(tool)) for tool in tools]

    def plugin(self, factory):
        """A plugin factory (`mesh_plugin`, `content_collection_plugin`) whose tools record their calls."""
        return lambda *args, **kwargs: self.wrap(factory(*args, **kwargs))

    def step(self, function, text: str):
        """`function`, which the snippet calls between two tool calls, saying `text` in the listing when it runs.

        A step the model does not see (the host's indexing catching up, say) would otherwise leave two
        identical calls with different answers side by side, explained only in the Python tab.
        """
        def run(*args, **kwargs):
            self.steps.append(RecordedStep(self._caller_lines(), len(self.calls), text))
            return function(*args, **kwargs)
        return run

    def _recording(self, tool):
        def call(arguments: dict) -> str:
            answer = tool.call(arguments)
            self.calls.append(RecordedCall(self._caller_lines(), tool.name, arguments, answer))
            return answer
        return call

    def _caller_lines(self) -> tuple[int, ...]:
        # The lines of the snippet on the stack, innermost first: a helper function of the snippet may make
        # the call for a section's line, so every line counts.
        return tuple(line for frame, line in traceback.walk_stack(inspect.currentframe())
                     if _resolved(frame.f_code.co_filename) == self.snippet)

    def _made_in(self, *sections: str):
        """Whether a record's snippet lines fall inside one of the named sections."""
        found = read_sections(self.snippet)[0]
        spans = [found[section] for section in sections]
        return lambda record: any(span.start < line < span.end for span in spans for line in record.lines)

    def calls_in(self, section: str) -> list[RecordedCall]:
        """The calls made by the lines of one named section, in the order they were made."""
        return list(filter(self._made_in(section), self.calls))

    def configurations_in(self, *sections: str) -> list:
        """The configurations the lines of the sections built, in the order they were built."""
        return [built.configuration for built in filter(self._made_in(*sections), self.configurations_built)]

    def agent_nodes(self, *sections: str) -> str:
        """The agent node JSON of each configuration the sections built (the same node once), as JSON blocks."""
        shown = self._distinct(sections, lambda configuration: pretty_json(configuration.node_json()))
        return "\n\n".join(f"```json\n{text}\n```" for text in shown) + "\n"

    def system_messages(self, *sections: str) -> str:
        """The system message each configuration the sections built sends first in every call of its rounds
        (`AgentConfiguration.round_instructions`: its instructions, then the framework's guidance), as text blocks."""
        shown = self._distinct(sections, lambda configuration: configuration.round_instructions())
        return "\n\n".join(f"`system`, {len(text):,} characters:\n\n````text\n{text}\n````" for text in shown) + "\n"

    def _distinct(self, sections: tuple[str, ...], render) -> list[str]:
        """What `render` makes of each configuration the sections built, each text once, in the order built."""
        shown = list(dict.fromkeys(map(render, self.configurations_in(*sections))))
        if not shown:
            raise ValueError(f"sections {', '.join(sections)} of {self.snippet.name} built no agent configuration")
        return shown

    def markdown(self, section: str) -> str:
        """The section's calls as the model sees them: each call's JSON, then the answer's text; a step the
        section ran between two of its calls stands between them, in italics."""
        made_in = self._made_in(section)
        calls = [(position, call) for position, call in enumerate(self.calls) if made_in(call)]
        if not calls:
            raise ValueError(f"section {section!r} of {self.snippet.name} made no call through a wrapped tool")
        steps = list(filter(made_in, self.steps))
        parts = []
        for position, call in calls:
            parts += [f"*{step.text}*" for step in steps if step.after == position]
            parts.append(render_call(call))
        return "\n\n".join(parts) + "\n"


@functools.cache
def _resolved(filename: str) -> Path:
    """A code object's file as a resolved path: every recorded call walks the whole stack, so each file once."""
    return Path(filename).resolve()


def render_call(call: RecordedCall) -> str:
    """One call: the tool's name, its JSON arguments and the answer's text; short ones inline, long ones as blocks."""
    arguments = json.dumps(call.arguments, ensure_ascii=False)
    if _fits_inline(arguments):
        parts = [f"**`{call.tool}`** called with `{arguments}`"]
    else:
        if len(arguments) > 72:
            arguments = json.dumps(call.arguments, ensure_ascii=False, indent=2)
        parts = [f"**`{call.tool}`** called with", "", f"```json\n{arguments}\n```"]
    lines = call.answer.splitlines() or [""]
    if len(lines) == 1 and _fits_inline(lines[0]):
        answer = f"answers `{lines[0]}`"
        # After an inline call the answer continues its sentence; after a block it starts a paragraph.
        return "\n".join(parts + [answer] if len(parts) == 1 else parts + ["", answer])
    is_json = _is_json(call.answer)
    shown = "\n".join(lines[:MAX_JSON_LINES if is_json else MAX_ANSWER_LINES])
    note = ""
    if len(shown) > MAX_ANSWER_CHARS:
        shown = shown[:MAX_ANSWER_CHARS]
        note = f"(the first {MAX_ANSWER_CHARS:,} characters of {len(call.answer):,})"
    elif shown != call.answer.rstrip("\n"):
        note = f"(the first {shown.count(chr(10)) + 1} lines of {len(lines)})"
    # An answer that is JSON is highlighted as JSON; its text is shown exactly as the tool returned it.
    language = "json" if is_json and not note else "text"
    parts += ["", "answers", "", "```" + language + "\n" + shown + "\n```"]
    if note:
        parts += ["", note]
    return "\n".join(parts)


def pretty_json(value, indent: str = "", width: int = 88, lead: int = 0) -> str:
    """JSON indented by two spaces; an object or array that fits in `width` stays on one line, as people write it.

    `lead` is what stands before the value on its first line besides the indent (its key).
    """
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value or len(indent) + lead + len(flat) <= width:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            name = json.dumps(key, ensure_ascii=False) + ": "
            items.append(inner + name + pretty_json(item, inner, width, len(name)))
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    items = [inner + pretty_json(item, inner, width) for item in value]
    return "[\n" + ",\n".join(items) + "\n" + indent + "]"


def _fits_inline(text: str) -> bool:
    # Inline code cannot hold a backtick or keep leading and trailing blanks.
    return 0 < len(text) <= 60 and "`" not in text and text == text.strip()


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
