"""A reconnect's repeat of the table's recent chat is told once: only lines said while the
screen was away are new (the tmux evening showed a line twice after the host moved)."""

from __future__ import annotations

from tui.models.chat_history import ChatHistory


def test_a_reconnect_repeats_nothing_and_keeps_what_was_said_while_away():
    chat = ChatHistory[str](kept=50, recent=3)
    assert [chat.add(line, past=True) for line in ("a", "b")] == [True, True]  # on joining
    assert [chat.add(line) for line in ("c", "d", "e")] == [True, True, True]
    chat.reconnected()
    # The host's last three: two held already, one said while away.
    assert [chat.add(line, past=True) for line in ("d", "e", "f")] == [False, False, True]
    assert chat.add("g") is True
    assert chat.lines == ["a", "b", "c", "d", "e", "f", "g"]


def test_a_line_said_again_after_a_reconnect_is_new():
    chat = ChatHistory[str](kept=50, recent=5)
    for line in ("ok", "cut Bob", "ok"):
        chat.add(line)
    chat.reconnected()
    assert [chat.add(line, past=True) for line in ("ok", "cut Bob", "ok", "ok")] == \
        [False, False, False, True]
    assert chat.lines == ["ok", "cut Bob", "ok", "ok"]


def test_only_the_last_lines_are_kept():
    chat = ChatHistory[str](kept=2, recent=2)
    for line in "xyz":
        chat.add(line)
    assert chat.lines == ["y", "z"]
