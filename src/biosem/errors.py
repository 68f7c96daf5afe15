"""Errors raised by biosem on bad input."""

from __future__ import annotations

from pathlib import Path


class SourceFormatError(ValueError):
    """A source file does not have the format its reader expects.

    Attributes:
        path: the offending file.
        line: 1-based physical line number, or ``None`` when the problem concerns the whole file
            (e.g. an empty file or a missing member).
        expected: what the reader expected, in words (e.g. ``"9 tab-separated columns"``).
        found: what it found instead (a short, truncated excerpt).
    """

    def __init__(self, path: str | Path, line: int | None, expected: str, found: str) -> None:
        self.path = Path(path)
        self.line = line
        self.expected = expected
        self.found = found if len(found) <= 200 else found[:197] + "..."
        where = f"{self.path}:{line}" if line is not None else str(self.path)
        super().__init__(f"{where}: expected {expected}; found {self.found!r}")


class SourceIntegrityError(SourceFormatError):
    """A fetched source no longer has the content sha256 pinned when it was fetched (edited or
    corrupted in ``resources/`` since). The message names the file, both digests and the fix.

    Attributes (besides :class:`SourceFormatError`'s): ``expected_sha256``, ``found_sha256``.
    """

    def __init__(self, path: str | Path, expected_sha256: str, found_sha256: str, fix: str) -> None:
        super().__init__(path, None, f"content sha256 {expected_sha256}", f"sha256 {found_sha256}")
        self.expected_sha256 = expected_sha256
        self.found_sha256 = found_sha256
        self.args = (f"{self.args[0]}. {fix}",)


class SourceNotFoundError(FileNotFoundError):
    """A configured source could not be located or failed its checksum."""


class EmptyDatasetError(ValueError):
    """A step would write a dataset without rows; the message names the input and why it is empty."""


class IncompleteExportsError(ValueError):
    """The survey exports of a rating set do not cover the survey's design: a group has fewer raters than
    the design asks for. The message names the survey, the files and each short group with its rater ids.

    Attributes:
        survey: the survey id (``<survey>-<digest>``).
        paths: the exports given.
        short: the short groups, as rows of :func:`biosem.agreement.forms.export_coverage`.
    """

    def __init__(self, message: str, survey: str, paths: list[Path], short: list[dict[str, object]]) -> None:
        super().__init__(message)
        self.survey = survey
        self.paths = paths
        self.short = short
