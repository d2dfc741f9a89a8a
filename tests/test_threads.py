"""Tests for agentkit/_threads.py: stored messages, history rebuild and the character budget."""

from __future__ import annotations

import pytest

from agentkit import ThreadError
from agentkit._messages import Message
from agentkit._threads import (
    HISTORY_BUDGET_CHARS, Thread, delegation_depth, message_chars, rebuild_history, trim_history,
)


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
    """T2: the budget charges 64 characters of framing per message."""
    # verifies: agent.history-budget
    assert message_chars(Message("user", "x" * 100)) == 164
    assert HISTORY_BUDGET_CHARS == 64_000


def test_trim_keeps_the_newest_tail_that_fits():
    """Older messages beyond the budget are dropped; the kept ones are the newest, in order."""
    messages = [Message("user" if i % 2 == 0 else "assistant", f"{i:02d}" + "x" * 9_934, i) for i in range(10)]
    kept = trim_history(messages)  # each counts 10,000: six fit in 64,000
    assert [m.timestamp for m in kept] == [4, 5, 6, 7, 8, 9]
    assert sum(message_chars(m) for m in kept) <= HISTORY_BUDGET_CHARS


def test_trim_always_keeps_the_newest_even_when_it_alone_is_over_budget():
    """A single newest message larger than the budget is still kept, and only it."""
    messages = [Message("user", "old", 1), Message("assistant", "x" * 70_000, 2)]
    assert trim_history(messages) == (messages[1],)


def test_trim_keeps_system_messages_and_counts_them_first():
    """T2: the system message survives the cut and uses up budget before the newest messages do."""
    messages = [Message("system", "s" * 936, 0)] + [Message("user", "u" * 936, i) for i in range(1, 6)]
    kept = trim_history(messages, budget=3_000)  # system 1,000, then two users of 1,000
    assert [m.timestamp for m in kept] == [0, 4, 5]


def test_trim_stops_at_the_first_message_that_does_not_fit():
    """T2: whole messages newest-first until one misses; an older, smaller one that would fit is not taken."""
    messages = [Message("user", "a" * 36, 1), Message("assistant", "b" * 2_936, 2), Message("user", "c" * 936, 3)]
    assert [m.timestamp for m in trim_history(messages, budget=2_000)] == [3]


def test_trim_drops_tool_messages_that_would_open_the_window():
    """T2: a kept window that starts on tool messages loses them (their calls were cut away)."""
    messages = [Message("user", "u" * 936, 1), Message("tool", "t" * 436, 2), Message("tool", "t" * 436, 3),
                Message("assistant", "a" * 936, 4)]
    assert [m.timestamp for m in trim_history(messages, budget=2_100)] == [4]
    assert trim_history(messages, budget=10_000) == tuple(messages)  # everything fits: unchanged


def test_trim_moves_the_system_message_first_only_when_it_cuts():
    """T2: under budget the input comes back as it is; cut, the system message leads."""
    messages = [Message("user", "x" * 936, 1), Message("system", "s" * 36, 0), Message("user", "y" * 936, 2)]
    assert trim_history(messages, budget=5_000) == tuple(messages)
    assert [m.timestamp for m in trim_history(messages, budget=1_500)] == [0, 2]


def test_thread_history_drops_nothing_under_budget():
    """A short thread's history is every stored text, in order."""
    thread = Thread("Acme/_Thread/t1")
    thread.append("user", "Read the report.")
    thread.append("assistant", "Worksheet: ...")
    thread.append("user", "continue")
    assert [(m.role, m.text) for m in thread.history()] == [
        ("user", "Read the report."), ("assistant", "Worksheet: ..."), ("user", "continue")]
    assert [m.timestamp for m in thread.messages] == [1, 2, 3]


def test_unanswered_rounds_counts_user_messages_without_a_reply():
    """A user message followed by another user message (or nothing) is a round that recorded no end."""
    thread = Thread("T")
    for role in ("user", "assistant", "user", "user", "assistant", "user"):
        thread.append(role, role)
    assert thread.unanswered_rounds() == 2
    thread.append("assistant", "")  # an empty answer is no answer; it does not hide the rounds before it
    assert thread.unanswered_rounds() == 2


def test_subthreads_live_under_the_response_message_and_share_the_step_clock():
    """A4: a delegation sub-thread lives at {threadPath}/{responseMessageId}/... and continues the timestamps."""
    parent = Thread("Acme/_Thread/t1")
    parent.append("user", "go")
    child = parent.subthread("reader", "response-1")
    child.append("user", "read it")
    grandchild = child.subthread("reader", "response-2")
    assert child.path == "Acme/_Thread/t1/response-1/reader-1"
    assert grandchild.path == "Acme/_Thread/t1/response-1/reader-1/response-2/reader-1"
    assert [delegation_depth(t.path) for t in (parent, child, grandchild)] == [0, 1, 2]
    assert delegation_depth("Acme/t1/r/x") == 0  # no _Thread partition: not a delegation path
    assert [t.path for t in parent.walk()] == [parent.path, child.path, grandchild.path]
    assert child.messages[0].timestamp == 2


@pytest.mark.parametrize("path", ["", "Acme//t1", "Acme/my thread", "Acme/t1/"])
def test_malformed_thread_path_is_refused(path):
    """An empty segment or a space in a thread path raises ThreadError naming the segment."""
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
