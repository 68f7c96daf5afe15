"""Logging for workflow scripts: one log file per rule (``snakemake.log[0]``) plus stderr, and
:class:`Progress` for the long loops (share done, rate, time left, at a bounded rate)."""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable
from typing import Any


def configure_logging(snakemake: Any | None = None, level: int = logging.INFO) -> None:
    """Send ``logging`` output to the rule's log file (if any) and stderr; capture warnings."""
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if snakemake is not None and len(snakemake.log):
        handlers.append(logging.FileHandler(snakemake.log[0], mode="w", encoding="utf-8"))
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        handlers=handlers,
        force=True,
    )
    logging.captureWarnings(True)


def format_duration(seconds: float) -> str:
    """``"42 s"``, ``"3 min 05 s"`` or ``"2 h 07 min"`` (whole seconds; minutes under one hour)."""
    total = max(0, int(round(seconds)))
    if total < 60:
        return f"{total} s"
    if total < 3600:
        return f"{total // 60} min {total % 60:02d} s"
    return f"{total // 3600} h {total % 3600 // 60:02d} min"


class Progress:
    """Log the progress of a long loop at a bounded rate: share done, rate and estimated time left.

    A message is logged when the share done has crossed a multiple of ``step`` since the last
    message and at least ``min_seconds`` have passed, or when ``max_seconds`` have passed without one (a slow
    stretch still shows life); :meth:`finish` logs the final 100 % line once. So a loop logs at
    most ``1 / step + duration / max_seconds + 1`` messages, however many items it advances by.
    Without a ``total`` (a stream of unknown size) a message gives the amount done and the rate,
    every ``max_seconds``. Thread-safe (threads may :meth:`advance` concurrently).

    Message: ``"<what>: 45% (4,500/10,000 <unit>), 120 <unit>/s, about 46 s left"``.

    Args:
        logger: where the messages go (INFO).
        what: what is being done (``"hpo hard: Levenshtein scan"``).
        total: the amount when done (items, bytes, ...), or ``None`` when unknown.
        unit: the amount's unit in messages.
        step: share between messages (0.05: every 5 %).
        min_seconds, max_seconds: the least and the most time between messages.
        clock: seconds, monotonic (a fake clock in tests).
        scale: shown amounts are divided by it (``1e6`` with ``unit="MB"`` for bytes).
        finish_after: the final line is left out when the loop took less than this many seconds and
            logged nothing before (a step repeated many times on small inputs stays quiet).
    """

    def __init__(
        self,
        logger: logging.Logger,
        what: str,
        total: float | None,
        unit: str = "items",
        step: float = 0.05,
        min_seconds: float = 10.0,
        max_seconds: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        scale: float = 1.0,
        finish_after: float = 0.0,
    ) -> None:
        if total is not None and total < 0:
            raise ValueError(f"progress {what!r}: total must be >= 0 or None, found {total}")
        self.logger, self.what, self.total, self.unit = logger, what, total, unit
        self.step, self.min_seconds, self.max_seconds = step, min_seconds, max_seconds
        self.clock, self.scale, self.finish_after = clock, scale, finish_after
        self._logged = False
        self.done = 0.0
        self.start = clock()
        self._last_time = self.start
        self._last_share = 0.0
        self._finished = False
        self._lock = threading.Lock()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, exc_type: object, *_: object) -> None:
        if exc_type is None:
            self.finish()

    def advance(self, amount: float = 1) -> None:
        """Add ``amount`` done; log when a message is due (see the class docstring)."""
        with self._lock:
            self.done += amount
            now = self.clock()
            since = now - self._last_time
            if self.total:
                share = min(self.done / self.total, 1.0)
                crossed = int(share / self.step + 1e-9) > int(self._last_share / self.step + 1e-9)
                due = (crossed and since >= self.min_seconds) or since >= self.max_seconds
                if due and share < 1.0:
                    self._log(now, share)
            elif since >= self.max_seconds:
                self._log(now, None)

    def finish(self) -> None:
        """Log the final line (100 % with a total), once."""
        with self._lock:
            if not self._finished:
                self._finished = True
                if self.total is not None:
                    self.done = max(self.done, float(self.total))
                now = self.clock()
                if self._logged or now - self.start >= self.finish_after:
                    self._log(now, 1.0 if self.total is not None else None, final=True)

    def _amount(self, value: float) -> str:
        shown = value / self.scale
        return f"{shown:,.0f}" if self.scale == 1 or shown >= 10 else f"{shown:.1f}"

    def _log(self, now: float, share: float | None, final: bool = False) -> None:
        self._logged = True
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        shown = rate / self.scale
        speed = f"{shown:,.0f} {self.unit}/s" if shown >= 10 else f"{shown:.2g} {self.unit}/s"
        if share is None:
            tail = f"in {format_duration(elapsed)}" if final else speed
            self.logger.info("%s: %s %s done, %s", self.what, self._amount(self.done), self.unit, tail)
        else:
            amounts = f"{self._amount(self.done)}/{self._amount(float(self.total or 0))} {self.unit}"
            if final:
                tail = f"{speed}, done in {format_duration(elapsed)}"
            elif rate > 0:
                tail = f"{speed}, about {format_duration((float(self.total or 0) - self.done) / rate)} left"
            else:
                tail = speed
            self.logger.info("%s: %d%% (%s), %s", self.what, int(100 * share), amounts, tail)  # floor: 100 % once
            self._last_share = share
        self._last_time = now
