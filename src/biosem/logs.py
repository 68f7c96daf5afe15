"""Logging for workflow scripts: one log file per rule (``snakemake.log[0]``) plus stderr."""

from __future__ import annotations

import logging
import sys
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
