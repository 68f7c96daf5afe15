"""biosem.logs.Progress with a fake clock: messages at a bounded rate, the final 100 % once."""

from __future__ import annotations

import logging
import re
import threading

import pytest

from biosem.logs import Progress, format_duration


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Messages:
    """The captured messages, read when compared (caplog.messages is a fresh list each time)."""

    def __init__(self, caplog: pytest.LogCaptureFixture) -> None:
        self.caplog = caplog

    def __len__(self) -> int:
        return len(self.caplog.messages)

    def __getitem__(self, i: int) -> str:
        return self.caplog.messages[i]

    def __iter__(self):  # noqa: ANN204
        return iter(self.caplog.messages)

    def __eq__(self, other: object) -> bool:
        return self.caplog.messages == other


@pytest.fixture
def messages(caplog: pytest.LogCaptureFixture) -> Messages:
    caplog.set_level(logging.INFO, logger="test.progress")
    return Messages(caplog)


LOG = logging.getLogger("test.progress")


def test_format_duration() -> None:
    assert [format_duration(s) for s in (0, 0.4, 42, 60, 185, 3599, 3600, 7625)] == [
        "0 s",
        "0 s",
        "42 s",
        "1 min 00 s",
        "3 min 05 s",
        "59 min 59 s",
        "1 h 00 min",
        "2 h 07 min",
    ]


def test_messages_every_step_at_most_every_min_seconds(messages: Messages) -> None:
    clock = FakeClock()
    with Progress(LOG, "scan", 1000, unit="queries", clock=clock) as progress:
        for _ in range(1000):  # one item per second: 5 % takes 50 s
            clock.now += 1
            progress.advance()
    # 5 %, 10 %, ... 95 % (19 messages), then the final line
    assert len(messages) == 20
    assert messages[0] == "scan: 5% (50/1,000 queries), 1 queries/s, about 15 min 50 s left"
    assert [int(re.search(r": (\d+)%", m).group(1)) for m in messages] == [*range(5, 100, 5), 100]
    assert messages[-1] == "scan: 100% (1,000/1,000 queries), 1 queries/s, done in 16 min 40 s"


def test_fast_loop_is_bounded_by_min_seconds(messages: Messages) -> None:
    clock = FakeClock()
    progress = Progress(LOG, "fast", 10**6, clock=clock, min_seconds=10, max_seconds=60)
    for _ in range(10**5):  # 100,000 calls, 10 % of the work, in 5 s: no message is due yet
        clock.now += 0.00005
        progress.advance(1)
    assert messages == []
    clock.now += 10  # 10 s later, 10 % done: one message, however many advances follow at once
    for _ in range(1000):
        progress.advance(1)
    assert len(messages) == 1 and messages[0].startswith("fast: 10% (")
    progress.finish()
    progress.finish()  # the final line is logged once
    assert len(messages) == 2 and messages[-1].startswith("fast: 100% (1,000,000/1,000,000 items)")


def test_slow_loop_reports_every_max_seconds(messages: Messages) -> None:
    clock = FakeClock()
    progress = Progress(LOG, "slow", 1000, clock=clock, max_seconds=60)
    for _ in range(5):
        clock.now += 61  # under 5 % each time, but a minute without a message
        progress.advance(1)
    assert len(messages) == 5
    assert messages[0] == "slow: 0% (1/1,000 items), 0.016 items/s, about 16 h 55 min left"


def test_unknown_total_gives_amount_and_rate(messages: Messages) -> None:
    clock = FakeClock()
    with Progress(LOG, "count", None, unit="MB", scale=1e6, clock=clock) as progress:
        for _ in range(3):
            clock.now += 30
            progress.advance(45e6)
    assert messages == ["count: 90 MB done, 1.5 MB/s", "count: 135 MB done, in 1 min 30 s"]


def test_no_final_line_after_an_error(messages: Messages) -> None:
    with pytest.raises(RuntimeError):
        with Progress(LOG, "broken", 10, clock=FakeClock()) as progress:
            progress.advance(3)
            raise RuntimeError("stop")
    assert messages == []


def test_threads_advance_concurrently(messages: Messages) -> None:
    clock = FakeClock()
    progress = Progress(LOG, "threads", 4000, clock=clock, min_seconds=0, step=0.25)

    def work() -> None:
        for _ in range(1000):
            progress.advance()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    progress.finish()
    assert progress.done == 4000
    assert [m.split(" (")[0] for m in messages] == ["threads: 25%", "threads: 50%", "threads: 75%", "threads: 100%"]


def test_quick_loop_without_messages_can_stay_quiet(messages: Messages) -> None:
    clock = FakeClock()
    with Progress(LOG, "quick", 10, clock=clock, finish_after=1.0) as progress:
        clock.now += 0.5
        progress.advance(10)
    assert messages == []
    with Progress(LOG, "long", 10, clock=clock, finish_after=1.0) as progress:
        clock.now += 2
        progress.advance(10)
    assert messages == ["long: 100% (10/10 items), 5 items/s, done in 2 s"]


def test_negative_total_is_refused() -> None:
    with pytest.raises(ValueError, match="total must be >= 0"):
        Progress(LOG, "x", -1)
