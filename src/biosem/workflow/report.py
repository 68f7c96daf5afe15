"""Wiring of the report stage: every table and text file shown in ``snakemake --report`` as an HTML
page. Rules: ``workflow/rules/report.smk``.

Snakemake's report shows images, PDF and HTML inline and offers other files as downloads only, so
each table or text file the report shows (declared with a caption in :mod:`biosem.layout.outputs`) is
rendered to a page (:func:`biosem.report.tables.render_page`) registered under its caption, category
and labels. A page is built for every such file the other stages build. The plots of the datasets are
their stages' own outputs, flagged for the report where they are declared.
"""

from __future__ import annotations

from collections.abc import Iterable

from biosem.layout import outputs


class Report:
    """The report stage: a page of every shown table and text file the other stages build.

    Args:
        built: the declared outputs the other stages build (their ``built()``).
    """

    def __init__(self, built: Iterable[outputs.Built]) -> None:
        self.pages: list[outputs.Built] = [b for b in built if b.output.shows(b.wildcards)]
        """The built files that get a page, in the order built."""

    def targets(self) -> list[str]:
        """Every page of a built table or text file."""
        return [b.page for b in self.pages]

    @staticmethod
    def all_rows(shown: outputs.Output) -> bool:
        """Param ``all_rows`` of the rule rendering ``shown``'s pages: whether a page shows every row of its table
        (the parts of the results table) rather than the first :data:`biosem.report.tables.MAX_ROWS`."""
        return bool(shown.all_rows)


__all__ = ["Report"]
