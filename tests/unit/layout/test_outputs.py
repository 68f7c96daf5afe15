"""The declared outputs (biosem.layout.outputs): one declaration per file, captions that exist, targets and
report flags derived from them."""

from __future__ import annotations

import pytest
from conftest import REPO

from biosem.layout import outputs, paths

CAPTIONS = REPO / "workflow" / "report"
NOT_DECLARED_CAPTIONS = {"workflow", "release_manifest"}  # the report's front page; the release's manifest


def test_each_output_is_declared_once_under_results() -> None:
    templates = [o.template for o in outputs.OUTPUTS.values()]
    assert len(templates) == len(set(templates))
    assert all(t.startswith(f"{paths.RESULTS}/") for t in templates)
    for name, output in outputs.OUTPUTS.items():
        assert output.name == name and getattr(outputs, name) is output


def test_captions_exist_and_every_caption_is_declared() -> None:
    declared = {o.caption for o in outputs.OUTPUTS.values() if o.caption}
    for output in outputs.OUTPUTS.values():
        if output.caption:
            assert (REPO / "workflow" / "rules" / output.caption_file).resolve().is_file(), output.name
    assert {p.stem for p in CAPTIONS.glob("*.rst")} - declared == NOT_DECLARED_CAPTIONS


def test_pages_are_the_shown_tables_and_texts() -> None:
    assert outputs.PAGES == tuple(
        o for o in outputs.OUTPUTS.values() if o.caption and o.kind in (outputs.TABLE, outputs.TEXT)
    )
    assert all(o.category in outputs.CATEGORIES.values() for o in outputs.OUTPUTS.values() if o.caption)
    assert outputs.termpair_counts.category == "Term pairs"


def test_the_results_table_is_shown_in_parts_with_every_row() -> None:
    """The whole results table has no page (it would show its first rows only); each part's has, whole."""
    assert not outputs.evaluation_results_csv.has_page
    part = outputs.evaluation_results_table
    assert part.has_page and part.all_rows and part.wildcards == ("results_table",)
    assert [o.name for o in outputs.PAGES if o.all_rows] == ["evaluation_results_table"]
    built = outputs.expand("evaluate", results_table=["rated", "termpairs/hpo"])
    assert [(b.path, b.page) for b in built if b.output is part] == [
        ("results/evaluation/tables/rated.csv", "results/report/pages/evaluation/tables/rated.csv.html"),
        (
            "results/evaluation/tables/termpairs/hpo.csv",
            "results/report/pages/evaluation/tables/termpairs/hpo.csv.html",
        ),
    ]


def test_path_fills_every_wildcard_or_fails() -> None:
    dataset = outputs.termpair_dataset
    assert dataset.wildcards == ("terminology", "dataset")
    assert dataset.path(terminology="hpo", dataset="fsn_syn_easy_random") == (
        "results/datasets/termpairs/hpo/fsn_syn_easy_random.parquet"
    )
    # a rule may spell a wildcard by its parts
    assert dataset.path(terminology="{terminology}", dataset="{kind}_{difficulty}_{strategy}").endswith(
        "/{terminology}/{kind}_{difficulty}_{strategy}.parquet"
    )
    with pytest.raises(ValueError, match="termpair_dataset: wildcards"):
        dataset.path(terminology="hpo")
    with pytest.raises(ValueError, match="termpair_dataset: wildcards"):
        dataset.path(terminology="hpo", dataset="x", extra="y")


def test_expand_gives_a_stages_targets_over_its_wildcard_values() -> None:
    built = outputs.expand("wic", split=["train", "test"])
    names = [b.output.name for b in built]
    assert "wic_selected" not in names and "wic_quotas" not in names  # read by rules, not asked by rule all
    assert [b.path for b in built if b.output is outputs.wic_split] == [
        "results/datasets/wic/train.parquet",
        "results/datasets/wic/test.parquet",
    ]
    assert outputs.wic_counts.template in [b.path for b in built]
    assert outputs.expand("termpairs", terminology=[], dataset=["x"]) == []
    with pytest.raises(ValueError, match="no values for wildcard"):
        outputs.expand("termpairs", terminology=["hpo"])
    # a part is expanded on its own (the study scores of terminologies with filled sheets only)
    scores = outputs.expand("agreement", "termpair_study_filled", terminology=["hpo"])
    assert {b.output.name for b in scores} == {"termpair_study_scores", "termpair_study_votes"}


def test_a_shown_output_is_flagged_for_the_report() -> None:
    plot = outputs.termpair_plot.report()
    assert str(plot) == outputs.termpair_plot.template
    flag = plot.flags["report"]
    assert flag.caption == "../report/termpairs_plot.rst"
    assert flag.category == "Term pairs" and flag.labels["terminology"] == "{terminology}"
    page = outputs.wic_counts.report()  # a table: its page is shown
    assert str(page) == outputs.wic_counts.page and page.flags["report"].caption == "../report/wic_counts.rst"
    with pytest.raises(ValueError, match="no caption"):
        outputs.wic_quotas.report()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "nope"}, "kind 'nope'"),
        ({"stage": "nope"}, "stage 'nope'"),
        ({"kind": outputs.DATASET, "caption": "x"}, "not shown in the report"),
        ({"kind": outputs.TABLE, "caption": "x", "template": "results/x.parquet"}, "page shows .tsv or .csv"),
        ({"kind": outputs.TABLE, "caption": "x", "target": False}, "targets only"),
        ({"kind": outputs.TABLE, "all_rows": True}, "all_rows without a caption"),
        ({"kind": outputs.PLOT, "caption": "x", "all_rows": True, "template": "results/x.png"}, "all_rows is for"),
    ],
)
def test_declarations_the_report_cannot_show_are_refused(kwargs: dict, message: str) -> None:
    fields = {"stage": "wic", "template": "results/datasets/wic/x.tsv", "kind": outputs.TABLE} | kwargs
    with pytest.raises(ValueError, match=message):
        outputs.Output(**fields)
