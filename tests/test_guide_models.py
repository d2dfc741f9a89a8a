"""Tests for agentkit/guide/_models.py: the scripted models the guide plugs into the model seam."""

from __future__ import annotations

import pytest

from agentkit._messages import Context, Message, Reply, ToolCall, ToolDefinition, ToolResult
from agentkit.guide._models import PlannedCalls, ScriptedModel, TextModel, progress_from, progress_marker

GET = ToolDefinition("Get", "Get(path)")
CALLS = [ToolCall("Get", {"path": f"A/{i}"}) for i in range(5)]


def _context(*items, tools=(GET,)) -> Context:
    return Context("Work.", tools, tuple(items))


def test_planned_calls_reads_its_position_from_the_context_only():
    """Equal contexts give equal replies; the position is the number of results shown."""
    model = PlannedCalls(CALLS, batch_size=2)
    start = _context(Message("user", "go"))
    assert model.respond(start) == model.respond(start) == Reply(tool_calls=tuple(CALLS[:2]))
    two_done = _context(Message("user", "go"), *CALLS[:2], ToolResult("a", "Get", "{}"), ToolResult("b", "Get", "{}"))
    assert model.respond(two_done).tool_calls == tuple(CALLS[2:4])


def test_progress_is_read_from_the_newest_assistant_text():
    """A new round resumes from the progress line of the latest answer that has one."""
    context = _context(Message("assistant", progress_marker(1, 5)), Message("assistant", progress_marker(3, 5)),
                       Message("assistant", "no marker"), Message("user", "continue"))
    assert progress_from(context) == 3
    assert PlannedCalls(CALLS).respond(context).tool_calls == (CALLS[3],)


def test_batch_size_must_be_positive():
    """A batch of zero calls is refused."""
    with pytest.raises(ValueError, match="batch_size must be >= 1"):
        PlannedCalls(CALLS, batch_size=0)


def test_scripted_model_must_return_a_reply():
    """A decide function that returns a bare string is a bug, reported as such."""
    with pytest.raises(TypeError, match="must return a Reply, got str"):
        ScriptedModel(lambda context: "hello").respond(_context())


def test_text_model_never_calls_a_tool():
    """TextModel answers the same text whatever it is offered."""
    assert TextModel("42").respond(_context(Message("user", "?"))) == Reply("42")
