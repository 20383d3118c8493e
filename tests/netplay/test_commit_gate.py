"""The commit gate: no frame leaves before what it shows is durable, and none waits longer."""

from __future__ import annotations

from netplay.store import CommitGate


class FakeStore:
    """The counters a gate reads, moved by hand: `committed` as the writer thread moves it."""

    def __init__(self) -> None:
        self.appended = 0
        self.committed = 0
        self.failure: BaseException | None = None
        self.on_commit = None

    @property
    def pending(self) -> bool:
        return self.committed < self.appended


class Sink:
    def __init__(self, got: list) -> None:
        self.got = got

    def enqueue(self, frame: bytes | None) -> None:
        self.got.append(frame)


def test_a_frame_waits_for_the_commit_of_what_was_appended_before_it():
    store, got = FakeStore(), []
    gate = CommitGate(store, on_failure=lambda: None)
    store.appended = 1  # a move is recorded, not yet committed
    gate.send(Sink(got), b"view 1")
    assert got == []
    store.committed = 1
    store.on_commit()
    assert got == [b"view 1"]


def test_frames_held_by_a_commit_that_ended_go_with_the_next_frame_in_order():
    # The writer thread counts a commit as soon as it returns; the loop, still building the
    # move's other views, hears of it only later. Those views must not wait for that.
    store, got = FakeStore(), []
    gate = CommitGate(store, on_failure=lambda: None)
    store.appended = 1
    gate.send(Sink(got), b"seat 0")
    gate.send(Sink(got), b"seat 1")
    assert got == []
    store.committed = 1  # the writer's commit returned; on_commit has not run yet
    gate.send(Sink(got), b"seat 2")
    assert got == [b"seat 0", b"seat 1", b"seat 2"]
    store.appended = 2  # the next move: its views wait again
    gate.send(Sink(got), b"seat 0 again")
    assert got == [b"seat 0", b"seat 1", b"seat 2"]


def test_a_failed_store_drops_what_it_held_and_lets_nothing_through():
    store, got, failed = FakeStore(), [], []
    gate = CommitGate(store, on_failure=lambda: failed.append(True))
    store.appended = 1
    gate.send(Sink(got), b"view 1")
    store.failure = OSError("disk full")
    store.on_commit()
    gate.send(Sink(got), b"view 2")
    assert got == [] and failed == [True]
