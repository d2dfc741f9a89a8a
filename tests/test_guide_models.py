"""Tests for agentkit/guide/_models.py: the scripted models the guide plugs into the model seam."""

from __future__ import annotations

import pytest

from agentkit._messages import Context, Message, Reply, ToolCall, ToolDefinition, ToolResult
from agentkit.guide._models import PlannedCalls, ScriptedModel, progress_from, progress_marker

GET = ToolDefinition("Get", "Get(path)")
CALLS = [ToolCall("Get", {"path": f"A/{i}"}) for i in range(5)]


def _context(*items) -> Context:
    return Context("Work.", (GET,), items)


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


@pytest.mark.parametrize("misuse, error, message", [
    (lambda: PlannedCalls(CALLS, batch_size=0), ValueError, "batch_size must be >= 1"),
    (lambda: ScriptedModel(lambda context: "hello").respond(_context()), TypeError, "must return a Reply, got str"),
])
def test_a_batch_of_no_calls_and_a_reply_that_is_no_reply_are_refused(misuse, error, message):
    with pytest.raises(error, match=message):
        misuse()
