"""Wiring of the report stage (biosem.workflow.report): a page for every built table the report shows,
the datasets' plots among the stages' targets."""

from __future__ import annotations

from collections import defaultdict

import pytest
import yaml
from conftest import REPO, validated_config

from biosem.layout import outputs, paths
from biosem.workflow.plan import Plan


def config() -> dict:
    """The embedded default with the schema's defaults filled in."""
    return validated_config(yaml.safe_load((REPO / "config" / "config.yaml").read_text()))


@pytest.fixture(scope="module")
def plan() -> Plan:
    return Plan(config())


def test_a_page_is_named_after_the_file_it_shows() -> None:
    built = outputs.Built(outputs.termpair_counts, {"terminology": "hpo"})
    assert built.path == "results/datasets/termpairs/hpo/counts.tsv"
    assert built.page == "results/report/pages/datasets/termpairs/hpo/counts.tsv.html"
    assert outputs.wic_counts.page == paths.report_page(outputs.wic_counts.template)
    assert outputs.wic_counts.page.endswith("/report/pages/datasets/wic/counts.tsv.html")


def test_every_built_table_gets_a_page(plan: Plan) -> None:
    cfg = config()
    targets = set(plan.targets())
    pages: dict[str, list[dict]] = defaultdict(list)
    for built in plan.report.pages:
        pages[built.output.name].append(dict(built.wildcards))
    assert {w["terminology"] for w in pages["termpair_counts"]} == set(cfg["termpairs"]["terminologies"])
    assert {w["terminology"] for w in pages["analogy_counts"]} == set(cfg["analogies"]["terminologies"])
    texts = pages["analogy_dataset_text"]
    assert {w["terminology"] for w in texts} == set(cfg["analogies"]["terminologies"])
    assert {w["setting"] for w in texts} == {"single_answer", "multi_answer", "all_info"}  # not the unigram_*
    assert {w["corpus"] for w in pages["corpus_counts"]} == set(cfg["corpora"]["build"])
    assert {w["ratings"] for w in pages["rating_agreement"]} == set(cfg["agreement"]["ratings"])
    assert {w["dataset"] for w in pages["simlex_survey_instructions"]} == {"nouns", "verbs"}
    # only the scores of filled study sheets wait for sheets the default does not list
    assert {o.name for o in outputs.PAGES} - set(pages) == {"termpair_study_scores", "wic_study_scores"}
    for built in plan.report.pages:
        assert built.path in targets  # the page shows a file rule all builds
        assert built.page in targets
    # every built file the report shows has its page
    shown = [b for b in plan.built if b.output.has_page and b.output.shows(b.wildcards)]
    assert [b.page for b in shown] == plan.report.targets()


def test_dataset_plots_are_targets(plan: Plan) -> None:
    targets = set(plan.targets())
    plots = {b.path for b in plan.built if b.output.kind == outputs.PLOT}
    terminologies = config()["termpairs"]["terminologies"]
    assert {outputs.termpair_plot.path(terminology=t) for t in terminologies} <= plots
    assert {
        outputs.wic_plot.template,
        outputs.analogy_plot.template,
        outputs.simlex_plot.template,
        outputs.evaluation_plot_wic.template,
    } <= plots
    assert plots <= targets
