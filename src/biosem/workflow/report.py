"""Wiring of the report stage: every table and text file shown in ``snakemake --report`` as an HTML
page, and the plots of the datasets themselves. Rules: ``workflow/rules/report.smk``.

Snakemake's report shows images, PDF and HTML inline and offers other files as downloads only, so
each table below is rendered to a page (:func:`biosem.report.tables.render_page`) registered under
the category, labels and caption the table itself had. A page is built for every file the other
stages build that its ``source`` template matches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from biosem.layout import paths
from biosem.workflow.analogies import REPORTED as ANALOGY_SETTINGS


@dataclass(frozen=True)
class Page:
    """One kind of report page: ``source`` is a path template with Snakemake wildcards
    (``{terminology}``), ``caption`` the caption file relative to ``workflow/rules``, ``labels``
    the report labels (wildcards allowed)."""

    name: str
    source: str
    caption: str
    category: str
    labels: Mapping[str, str] = field(default_factory=dict)

    @property
    def page(self) -> str:
        """The page's path template (:func:`biosem.layout.paths.report_page`)."""
        return paths.report_page(self.source)

    @property
    def log_name(self) -> str:
        """The page's log name: its source under ``results/`` (wildcards kept)."""
        return self.source.removeprefix(paths.RESULTS + "/")

    def matches(self, path: str) -> dict[str, str] | None:
        """The wildcards of ``path`` if the source template matches it, else ``None``."""
        pattern = "".join(
            f"(?P<{part[1:-1]}>[^/]+)" if part.startswith("{") else re.escape(part)
            for part in re.split(r"(\{\w+\})", self.source)
            if part
        )
        found = re.fullmatch(pattern, path)
        return found.groupdict() if found else None


def _caption(name: str) -> str:
    return f"../report/{name}.rst"


PAGES: tuple[Page, ...] = (
    Page(
        "corpus_counts",
        paths.corpus_counts("{corpus}"),
        _caption("corpora_counts"),
        "Corpora",
        {"corpus": "{corpus}", "table": "counts per split"},
    ),
    Page(
        "termpair_counts",
        paths.termpairs("{terminology}", "counts", "tsv"),
        _caption("termpairs_counts"),
        "Term pairs",
        {"terminology": "{terminology}", "table": "counts (Table 2)"},
    ),
    Page(
        "wic_selection",
        paths.wic("selection_counts", "tsv"),
        _caption("wic_selection"),
        "WiC",
        {"table": "mentions and sentences per step"},
    ),
    Page(
        "wic_candidates",
        paths.wic("candidate_counts", "tsv"),
        _caption("wic_candidates"),
        "WiC",
        {"table": "candidate pairs per group"},
    ),
    Page(
        "wic_counts",
        paths.wic("counts", "tsv"),
        _caption("wic_counts"),
        "WiC",
        {"table": "instances per split, group and label"},
    ),
    Page("wic_validation", paths.wic("validation", "txt"), _caption("wic_validation"), "WiC", {"table": "validation"}),
    *(
        Page(
            f"analogies_{setting}",
            paths.analogies("{terminology}", setting, "txt"),
            _caption("analogies_dataset"),
            "Analogies",
            {"terminology": "{terminology}", "dataset": setting},
        )
        for setting in ANALOGY_SETTINGS
    ),
    Page(
        "analogies_counts",
        paths.analogies("{terminology}", "counts", "tsv"),
        _caption("analogies_counts"),
        "Analogies",
        {"terminology": "{terminology}", "table": "counts (Table 2)"},
    ),
    Page(
        "analogies_summary",
        paths.analogies_summary("summary"),
        _caption("analogies_summary"),
        "Analogies",
        {"table": "summary over terminologies"},
    ),
    Page(
        "analogies_relations",
        paths.analogies_summary("relations"),
        _caption("analogies_relations"),
        "Analogies",
        {"table": "relations of every terminology"},
    ),
    Page(
        "simlex_filters",
        paths.simlex("vocabulary", "filters.tsv"),
        _caption("simlex_filters"),
        "Simlex",
        {"table": "vocabulary filters"},
    ),
    Page(
        "simlex_domains",
        paths.simlex("review", "domains.csv"),
        _caption("simlex_domains"),
        "Simlex",
        {"table": "domain review sheet"},
    ),
    Page(
        "simlex_correlation",
        paths.simlex("vocabulary", "frequency_correlation.tsv"),
        _caption("simlex_correlation"),
        "Simlex",
        {"table": "corpus vs general-English frequency"},
    ),
    Page(
        "simlex_counts",
        paths.simlex("{dataset}", "counts.tsv"),
        _caption("simlex_counts"),
        "Simlex",
        {"dataset": "{dataset}", "table": "pairs per quarter"},
    ),
    Page(
        "simlex_survey",
        paths.simlex("survey", "{dataset}", "design.tsv"),
        _caption("simlex_survey"),
        "Simlex",
        {"dataset": "{dataset}", "table": "survey design"},
    ),
    Page(
        "simlex_instructions",
        paths.simlex("survey", "{dataset}", "instructions.md"),
        _caption("simlex_instructions"),
        "Simlex",
        {"dataset": "{dataset}", "table": "annotator instructions"},
    ),
    Page(
        "rating_agreement",
        paths.rating_agreement("{ratings}"),
        _caption("agreement_ratings"),
        "Agreement",
        {"ratings": "{ratings}", "table": "IAA-1 / IAA-2 / alpha"},
    ),
    Page(
        "termpair_study",
        paths.study("termpairs/{terminology}", "composition.tsv"),
        _caption("agreement_termpair_study"),
        "Agreement",
        {"terminology": "{terminology}", "table": "term-pair study sheet"},
    ),
    Page(
        "wic_study",
        paths.study("wic", "composition.tsv"),
        _caption("agreement_wic_study"),
        "Agreement",
        {"study": "wic", "table": "wic study sheets"},
    ),
    Page(
        "termpair_study_scores",
        paths.study("termpairs/{terminology}", "scores.tsv"),
        _caption("agreement_termpair_scores"),
        "Agreement",
        {"terminology": "{terminology}", "table": "term-pair study (Table 3)"},
    ),
    Page(
        "wic_study_scores",
        paths.study("wic", "scores.tsv"),
        _caption("agreement_wic_scores"),
        "Agreement",
        {"study": "wic", "table": "wic expert check"},
    ),
    Page(
        "evaluation_results",
        paths.evaluation("results.csv"),
        _caption("evaluate_results"),
        "Evaluation",
        {"table": "results (tidy)"},
    ),
)
"""Every table and text file the report shows, with the category, labels and caption the file was
registered with before it was rendered (docs/design.md § report)."""


class Report:
    """The report stage: pages of the files the other stages build (``built``), and the datasets' plots.

    Args:
        built: every path the other stages' targets name (their outputs a page may show).
        termpair_terminologies: terminologies whose term-pair datasets are plotted.
        analogies_built, wic_built: whether those families are built (each has one plot).
    """

    def __init__(
        self,
        built: Iterable[str],
        termpair_terminologies: Iterable[str],
        analogies_built: bool,
        wic_built: bool,
    ) -> None:
        built = sorted(set(built))
        self.page_kinds: tuple[Page, ...] = PAGES
        self.pages: dict[str, list[dict[str, str]]] = {
            page.name: [w for w in map(page.matches, built) if w is not None] for page in PAGES
        }
        self.termpair_terminologies = list(termpair_terminologies)
        self.analogies_built = analogies_built
        self.wic_built = wic_built

    def plots(self) -> list[str]:
        """The dataset plots ``rule all`` builds: one per term-pair terminology, WiC, analogies
        over every terminology, and the simlex vocabulary."""
        out = [paths.report_plot("termpairs", t) for t in self.termpair_terminologies]
        if self.wic_built:
            out.append(paths.report_plot("wic", "composition"))
        if self.analogies_built:
            out.append(paths.report_plot("analogies", "relations"))
        out.append(paths.report_plot("simlex", "vocabulary"))
        return out

    def targets(self) -> list[str]:
        """Every page of a built table, in :data:`PAGES` order, then the plots."""
        pages = [page.page.format(**w) for page in PAGES for w in self.pages[page.name]]
        return pages + self.plots()


__all__ = ["PAGES", "Page", "Report"]
