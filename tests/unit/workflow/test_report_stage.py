"""Wiring of the report stage (biosem.workflow.report): a page for every built table, the dataset plots."""

from __future__ import annotations

import pytest
import yaml
from conftest import REPO, validated_config

from biosem.layout import paths
from biosem.workflow.plan import Plan
from biosem.workflow.report import PAGES, Page


def config() -> dict:
    """The embedded default with the schema's defaults filled in."""
    return validated_config(yaml.safe_load((REPO / "config" / "config.yaml").read_text()))


@pytest.fixture(scope="module")
def plan() -> Plan:
    return Plan(config())


def test_page_template_matches_one_path_segment_per_wildcard() -> None:
    page = Page("termpair_counts", paths.termpairs("{terminology}", "counts", "tsv"), "x.rst", "Term pairs")
    assert page.matches(paths.termpairs("hpo", "counts", "tsv")) == {"terminology": "hpo"}
    assert page.matches(paths.termpairs("hpo/x", "counts", "tsv")) is None
    assert page.matches(paths.termpairs("hpo", "fsn_syn_easy_random", "tsv")) is None
    assert page.page == paths.report_page(page.source)
    assert paths.report_page(paths.wic("counts", "tsv")).endswith("/report/pages/datasets/wic/counts.tsv.html")


def test_every_built_table_gets_a_page(plan: Plan) -> None:
    cfg = config()
    targets = set(plan.targets())
    pages = plan.report.pages
    assert {w["terminology"] for w in pages["termpair_counts"]} == set(cfg["termpairs"]["terminologies"])
    for setting in ("analogies_single_answer", "analogies_multi_answer", "analogies_all_info", "analogies_counts"):
        assert {w["terminology"] for w in pages[setting]} == set(cfg["analogies"]["terminologies"])
    assert {w["corpus"] for w in pages["corpus_counts"]} == set(cfg["corpora"]["build"])
    assert {w["ratings"] for w in pages["rating_agreement"]} == set(cfg["agreement"]["ratings"])
    assert {w["dataset"] for w in pages["simlex_instructions"]} == {"nouns", "verbs"}
    # only the scores of filled study sheets wait for sheets the default does not list
    assert {name for name, found in pages.items() if not found} == {"termpair_study_scores", "wic_study_scores"}
    for kind in PAGES:
        for wildcards in pages[kind.name]:
            assert kind.source.format(**wildcards) in targets  # the page shows a file rule all builds
            assert kind.page.format(**wildcards) in targets


def test_dataset_plots_are_targets(plan: Plan) -> None:
    targets = set(plan.targets())
    plots = plan.report.plots()
    assert {paths.report_plot("termpairs", t) for t in config()["termpairs"]["terminologies"]} <= set(plots)
    assert {
        paths.report_plot("wic", "composition"),
        paths.report_plot("analogies", "relations"),
        paths.report_plot("simlex", "vocabulary"),
    } <= set(plots)
    assert set(plots) <= targets
