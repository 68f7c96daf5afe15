"""Survey design: composition invariants of groups and pages, roles, determinism, instructions."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from biosem.seeds import generator
from biosem.simlex.schemas import QUARTERS
from biosem.simlex.survey import SurveyParams, design_survey, design_table, instructions


def _pairs(sizes: tuple[int, int, int, int]) -> pd.DataFrame:
    quarters = np.repeat(QUARTERS, sizes)
    n = len(quarters)
    return pd.DataFrame(
        {
            "pair_id": [f"N{i:04d}" for i in range(1, n + 1)],
            "word1": [f"w{i}a" for i in range(n)],
            "word2": [f"w{i}b" for i in range(n)],
            "quarter": quarters,
        }
    )


def _check_invariants(pairs: pd.DataFrame, items: pd.DataFrame, params: SurveyParams) -> None:
    quarter = pairs.set_index("pair_id")["quarter"]
    consistency = set(items.loc[items["role"] == "consistency", "pair_id"])
    unique = items[items["role"] == "unique"]
    assert len(consistency) == params.consistency_pairs
    # every pair is either in the consistency set or unique to exactly one group, shown once
    assert not consistency & set(unique["pair_id"])
    assert unique["pair_id"].is_unique
    assert set(unique["pair_id"]) | consistency == set(pairs["pair_id"])
    for group, sheet in items.groupby("group"):
        cons = sheet[sheet["role"] == "consistency"]
        assert sorted(cons["pair_id"]) == sorted(consistency)  # everyone rates the whole set once
        uniq = sheet[sheet["role"] == "unique"].set_index("pair_id")["page"]
        dups = sheet[sheet["role"] == "duplicate"]
        assert dups["pair_id"].isin(uniq.index).all()  # duplicates repeat this group's unique pairs
        pages = sheet["page"].nunique()
        if pages > 1:
            assert (uniq.loc[dups["pair_id"]].to_numpy() != dups["page"].to_numpy()).all()
        assert dups["pair_id"].is_unique
        for _, page in sheet.groupby("page"):
            assert list(page["position"]) == list(range(1, len(page) + 1))
            assert (page["role"] == "unique").sum() <= params.unique_per_page
            assert (page["role"] == "duplicate").sum() <= params.duplicates_per_page
        # the groups get the same mix of quarters (within one pair per quarter)
    mix = (
        unique.assign(quarter=quarter.loc[unique["pair_id"]].to_numpy()).groupby(["quarter", "group"]).size().unstack()
    )
    assert (mix.max(axis=1) - mix.min(axis=1) <= 1).all()
    assert items["item_id"].is_unique
    ids = items["pair_id"].map(pairs.set_index("pair_id")["word1"])
    assert (ids == items["word1"]).all()


def test_paper_design_gives_pages_of_120() -> None:
    params = SurveyParams()
    pairs = _pairs((263, 263, 262, 262))  # 1,050 = 2 x 500 unique + 50 consistency
    items = design_survey(pairs, "nouns", params, generator(1, "simlex_survey", "nouns"))
    _check_invariants(pairs, items, params)
    design = design_table(items)
    assert (design[["unique", "consistency", "duplicate", "items"]].to_numpy() == [100, 10, 10, 120]).all()
    assert design.groupby("group")["items"].sum().tolist() == [600, 600]
    assert len(design) == 10


@pytest.mark.parametrize("sizes", [(250, 250, 250, 250), (225, 250, 68, 250), (43, 250, 23, 250), (20, 20, 10, 20)])
def test_invariants_for_other_sizes(sizes: tuple[int, int, int, int]) -> None:
    params = SurveyParams()
    pairs = _pairs(sizes)
    items = design_survey(pairs, "verbs", params, generator(1, "simlex_survey", "verbs"))
    _check_invariants(pairs, items, params)
    consistency = items[items["role"] == "consistency"]
    q = pairs.set_index("pair_id")["quarter"].loc[consistency.drop_duplicates("pair_id")["pair_id"]]
    share = q.value_counts().reindex(QUARTERS, fill_value=0).to_numpy()
    expected = np.array(sizes) / sum(sizes) * params.consistency_pairs
    assert (np.abs(share - expected) < 1).all()  # drawn across quarters in proportion


def test_deterministic_and_seeded() -> None:
    pairs = _pairs((100, 100, 100, 100))
    a = design_survey(pairs, "nouns", SurveyParams(), generator(5, "simlex_survey", "nouns"))
    b = design_survey(pairs, "nouns", SurveyParams(), generator(5, "simlex_survey", "nouns"))
    c = design_survey(pairs, "nouns", SurveyParams(), generator(6, "simlex_survey", "nouns"))
    pd.testing.assert_frame_equal(a, b)
    assert not a["pair_id"].equals(c["pair_id"])


def test_too_few_pairs() -> None:
    with pytest.raises(ValueError, match="consistency_pairs"):
        design_survey(_pairs((10, 10, 10, 10)), "nouns", SurveyParams(), generator(1, "x"))


def test_instructions_state_the_protocol() -> None:
    text = instructions("verbs", SurveyParams(), page_items=120)
    assert "## Similarity, not relatedness" in text and "Rate\nsuch pairs **low**" in text
    assert "from 0" in text and "to 6" in text
    assert "10 pairs in a row" in text and "up to 120" in text
