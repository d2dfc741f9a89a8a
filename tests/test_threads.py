"""Tests for agentkit/_threads.py beyond the pages: thread paths, forks and unanswered rounds. The history budget
and its cut (T2) are checked by snippets/agent_design_02_rounds.py."""

from __future__ import annotations

import pytest

from agentkit import ThreadError
from agentkit._messages import Message
from agentkit._threads import Thread, delegation_depth, message_chars, rebuild_history


def test_rebuild_keeps_stored_texts_ordered_by_timestamp_and_maps_roles():
    """T1: by timestamp; 'user' in any case is user, every other role assistant."""
    stored = [Message("assistant", "second", 2), Message("system", "note", 0), Message("USER", "first", 1),
              Message("tool", "result", 5), Message("user", "third", 3)]
    # verifies: agent.history-rebuild-rules
    assert [(m.role, m.text) for m in rebuild_history(stored)] == [
        ("assistant", "note"), ("user", "first"), ("assistant", "second"), ("user", "third"),
        ("assistant", "result")]


def test_one_empty_earlier_message_leaves_the_round_no_history():
    """T1: an empty text is waited for, not skipped; the whole load's own limit runs out first: no history."""
    stored = [Message("user", "first", 1), Message("assistant", "", 2), Message("user", "third", 3)]
    # verifies: agent.history-lost-after-empty-message
    assert rebuild_history(stored) == () and rebuild_history([Message("assistant", "", 1)]) == ()
    # verifies: agent.history-lost-after-empty-message
    assert rebuild_history(stored[:1] + stored[2:]) == (Message("user", "first", 1), Message("user", "third", 3))
    # a blank text is a text: only an empty one is waited for
    assert rebuild_history([Message("assistant", " ", 1)]) == (Message("assistant", " ", 1),)


def test_each_message_counts_its_length_plus_64():
    # verifies: agent.history-budget
    assert message_chars(Message("user", "x" * 100)) == 164  # the 64 000 budget: snippets/agent_design_02_rounds.py


def test_unanswered_rounds_counts_user_messages_without_a_reply():
    """A user message followed by another user message (or nothing) is a round that recorded no end."""
    thread = Thread("T")
    for role in ("user", "assistant", "user", "user", "assistant", "user"):
        thread.append(role, role)
    assert thread.unanswered_rounds() == 2
    thread.append("assistant", "")  # an empty answer is no answer; it does not hide the rounds before it
    assert thread.unanswered_rounds() == 2


def test_subthreads_live_under_the_response_message_and_share_the_step_clock():
    """A4 (its paths at depth one and two: snippets/agent_design_23_delegation.py)."""
    parent = Thread("Acme/_Thread/t1")
    parent.append("user", "go")
    child = parent.subthread("reader", "response-1")
    child.append("user", "read it")
    grandchild = child.subthread("reader", "response-2")
    assert [delegation_depth(t.path) for t in (parent, child, grandchild)] == [0, 1, 2]
    assert delegation_depth("Acme/t1/r/x") == 0  # no _Thread partition: not a delegation path
    assert [t.path for t in parent.walk()] == [parent.path, child.path, grandchild.path]
    assert child.messages[0].timestamp == 2


@pytest.mark.parametrize("path", ["", "Acme//t1", "Acme/my thread", "Acme/t1/"])
def test_malformed_thread_path_is_refused(path):
    with pytest.raises(ThreadError, match="is malformed: segment"):
        Thread(path)


def test_a_fork_continues_the_steps_and_leaves_the_original_unchanged():
    """A fork holds the stored messages and plan, stamps its next message after them, and writes nothing back."""
    thread = Thread("Acme/_Thread/t1")
    thread.append("user", "read")
    thread.append("assistant", "worksheet")
    thread.plan = "1. read 2. write"
    fork = thread.fork()
    added = fork.append("user", "write it")
    assert (fork.path, fork.plan, added.timestamp) == (thread.path, thread.plan, 3)
    assert [m.text for m in fork.messages] == ["read", "worksheet", "write it"]
    assert [m.text for m in thread.messages] == ["read", "worksheet"]
    assert thread.append("user", "again").timestamp == 3
