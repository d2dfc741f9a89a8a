"""Tests for agentkit/_threads.py: stored messages, history rebuild and the character budget."""

from __future__ import annotations

import pytest

from agentkit import ThreadError
from agentkit._messages import Message
from agentkit._threads import HISTORY_BUDGET_CHARS, Thread, message_chars, rebuild_history, trim_history


def test_rebuild_keeps_user_and_assistant_texts_ordered_by_timestamp():
    """Stored out of order, the history comes back in timestamp order, without system messages."""
    stored = [Message("assistant", "second", 2), Message("system", "note", 0),
              Message("user", "first", 1), Message("user", "third", 3)]
    assert [m.text for m in rebuild_history(stored)] == ["first", "second", "third"]


def test_each_message_counts_its_length_plus_64():
    """The budget charges 64 characters of framing per message."""
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
    """System messages survive the cut and use up budget before the newest messages do."""
    messages = [Message("system", "s" * 936, 0)] + [Message("user", "u" * 936, i) for i in range(1, 6)]
    kept = trim_history(messages, budget=3_000)  # system 1,000, then two users of 1,000
    assert [m.timestamp for m in kept] == [0, 4, 5]


def test_thread_history_drops_nothing_under_budget():
    """A short thread's history is every stored text, in order."""
    thread = Thread("Acme/_Threads/t1")
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


def test_subthreads_form_a_tree_and_share_the_step_clock():
    """A delegation sub-thread lives under its parent's path and continues its timestamps."""
    parent = Thread("Acme/_Threads/t1")
    parent.append("user", "go")
    child = parent.subthread("reader")
    child.append("user", "read it")
    grandchild = child.subthread("reader")
    assert child.path == "Acme/_Threads/t1/reader-1"
    assert grandchild.path == "Acme/_Threads/t1/reader-1/reader-1"
    assert parent.subthread("reader").path == "Acme/_Threads/t1/reader-2"
    assert [t.path for t in parent.walk()] == [parent.path, child.path, grandchild.path,
                                                "Acme/_Threads/t1/reader-2"]
    assert child.messages[0].timestamp == 2


@pytest.mark.parametrize("path", ["", "Acme//t1", "Acme/my thread", "Acme/t1/"])
def test_malformed_thread_path_is_refused(path):
    """An empty segment or a space in a thread path raises ThreadError naming the segment."""
    with pytest.raises(ThreadError, match="is malformed: segment"):
        Thread(path)


def test_a_fork_continues_the_steps_and_leaves_the_original_unchanged():
    """A fork holds the stored messages and plan, stamps its next message after them, and writes nothing back."""
    thread = Thread("Acme/_Threads/t1")
    thread.append("user", "read")
    thread.append("assistant", "worksheet")
    thread.plan = "1. read 2. write"
    fork = thread.fork()
    added = fork.append("user", "write it")
    assert (fork.path, fork.plan, added.timestamp) == (thread.path, thread.plan, 3)
    assert [m.text for m in fork.messages] == ["read", "worksheet", "write it"]
    assert [m.text for m in thread.messages] == ["read", "worksheet"]
    assert thread.append("user", "again").timestamp == 3
