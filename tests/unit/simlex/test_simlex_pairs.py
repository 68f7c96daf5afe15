"""Pairs in quarters: criteria, exclusions, review overrides, shortfall policies, determinism."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from biosem.errors import SourceFormatError
from biosem.seeds import generator
from biosem.simlex.pairs import PairParams, QuarterShortfallError, build_pairs, read_accepted_pairs
from biosem.simlex.schemas import QUARTERS

BIO = [f"bio{c}" for c in "abcdefghijkl"]  # 12 biomedical nouns
GEN = [f"gen{c}" for c in "abcdefghijkl"]  # 12 general nouns, all normed in USF
EMPTY_ACCEPTED = pd.DataFrame(columns=["pos", "quarter", "word1", "word2", "decision"])


def _domains() -> pd.DataFrame:
    rows = [(w, "noun", "biomedical") for w in BIO] + [(w, "noun", "general") for w in GEN]
    rows += [("amb", "noun", "ambiguous"), ("bioverb", "verb", "biomedical")]
    return pd.DataFrame(rows, columns=["lemma", "pos", "domain"])


def _relations() -> pd.DataFrame:
    pairs = [
        ("bioa", "biob"),
        ("bioa", "bioc"),
        ("biod", "bioe"),
        ("biof", "biog"),
        ("bioa", "amb"),
    ]
    return pd.DataFrame(
        {
            "pos": "noun",
            "word1": [a for a, _ in pairs],
            "word2": [b for _, b in pairs],
            "relation": "sibling",
            "resource": "hpo",
            "term1": [a for a, _ in pairs],
            "term2": [b for _, b in pairs],
            "evidence": "HP:1",
            "via": "identity",
        }
    )


def _usf() -> pd.DataFrame:
    rows = [
        # cue, target, n_produced, fsg, bsg, qps, tps
        ("gena", "genb", 20, 0.2, 0.1, "N", "N"),  # associated
        ("genb", "gena", 15, 0.1, 0.2, "N", "N"),  # same pair, other direction: one pair
        ("genc", "gend", 11, 0.1, 0.05, "N", "N"),  # associated (11 > 10)
        (
            "gene",
            "genf",
            10,
            0.1,
            0.05,
            "N",
            "N",
        ),  # only 10 participants: not associated, but in USF
        ("geng", "genh", 30, 0.2, 0.0, "N", "N"),  # no backward strength
        ("geni", "genj", 30, 0.2, 0.1, "V", "N"),  # USF says the cue is a verb
        ("bioh", "bioi", 40, 0.3, 0.3, "N", "N"),  # biomedical words associated in USF
    ]
    usf = pd.DataFrame(rows, columns=["cue", "target", "n_produced", "fsg", "bsg", "qps", "tps"])
    cues = pd.DataFrame(
        {
            "cue": GEN,
            "target": "zzz",
            "n_produced": 2,
            "fsg": 0.01,
            "bsg": np.nan,
            "qps": "N",
            "tps": None,
        }
    )
    return pd.concat([usf, cues], ignore_index=True)


def _build(params: PairParams, accepted: pd.DataFrame = EMPTY_ACCEPTED, seed: int = 7):
    return build_pairs(
        "noun",
        _domains(),
        _relations(),
        _usf(),
        accepted,
        params,
        lambda q: generator(seed, "simlex_pairs", "noun", q),
    )


def _set(frame: pd.DataFrame, quarter: str) -> set[tuple[str, str]]:
    part = frame[frame["quarter"] == quarter]
    return {tuple(sorted(p)) for p in zip(part["word1"], part["word2"], strict=True)}


def test_quarters_follow_their_criteria() -> None:
    pairs, counts, review = _build(PairParams(quarter_size=3, on_shortfall="shrink", max_pairs_per_word=None))
    assert _set(pairs, "associated_biomedical") <= {
        ("bioa", "biob"),
        ("bioa", "bioc"),
        ("biod", "bioe"),
        ("biof", "biog"),
    }
    assert len(_set(pairs, "associated_biomedical")) == 3
    assert _set(pairs, "associated_general") == {("gena", "genb"), ("genc", "gend")}
    related = {
        ("bioa", "biob"),
        ("bioa", "bioc"),
        ("biod", "bioe"),
        ("biof", "biog"),
        ("bioh", "bioi"),
    }
    unassoc_bio = _set(pairs, "unassociated_biomedical")
    assert len(unassoc_bio) == 3 and not unassoc_bio & related
    assert all(a in BIO and b in BIO for a, b in unassoc_bio)
    in_usf = {tuple(sorted(p)) for p in zip(_usf()["cue"], _usf()["target"], strict=True)}
    unassoc_gen = _set(pairs, "unassociated_general")
    assert len(unassoc_gen) == 3 and not unassoc_gen & in_usf
    assert all(a in GEN and b in GEN for a, b in unassoc_gen)
    assert list(pairs["quarter"].unique()) == list(QUARTERS)
    assert pairs["pair_id"].tolist() == [f"N{i:04d}" for i in range(1, len(pairs) + 1)]
    general = pairs[pairs["quarter"] == "associated_general"].set_index("evidence")
    assert general.loc["gena->genb", "fsg"] == pytest.approx(0.2)  # the direction with more producers
    row = counts.set_index("quarter").loc["associated_general"]
    assert (row["candidates"], row["selected"], row["status"]) == (2, 2, "short")
    assert set(review) == {"associated_biomedical", "associated_general"}
    assert review["associated_biomedical"]["selected"].sum() == 3 and len(review["associated_biomedical"]) == 4


def test_shortfall_fails_by_default() -> None:
    with pytest.raises(QuarterShortfallError, match=r"associated_general: 2 of 3 \(candidates 2\)"):
        _build(PairParams(quarter_size=3, max_pairs_per_word=None))


def test_balance_cuts_every_quarter_to_the_smallest() -> None:
    pairs, counts, _ = _build(PairParams(quarter_size=3, on_shortfall="balance", max_pairs_per_word=None))
    assert pairs.groupby("quarter").size().tolist() == [2, 2, 2, 2]
    assert set(counts["status"]) == {"short", "balanced"}
    assert (counts["selected"] == 2).all()


def test_word_cap() -> None:
    pairs, _, _ = _build(PairParams(quarter_size=4, on_shortfall="shrink", max_pairs_per_word=1))
    words = pd.concat([pairs["word1"], pairs["word2"]])
    assert words.value_counts().max() == 1


def test_accepted_pairs_override(tmp_path: Path) -> None:
    path = tmp_path / "accepted.csv"
    path.write_text(
        "pos,quarter,word1,word2,decision\n"
        "noun,associated_biomedical,biob,bioa,reject\n"
        "noun,associated_biomedical,bioj,biok,accept\n"
        "noun,associated_general,genk,genl,accept\n"
    )
    accepted = read_accepted_pairs(path)
    assert accepted[["word1", "word2"]].values.tolist()[0] == [
        "bioa",
        "biob",
    ]  # unordered pair, sorted
    pairs, _, review = _build(PairParams(quarter_size=4, on_shortfall="shrink", max_pairs_per_word=None), accepted)
    bio = _set(pairs, "associated_biomedical")
    assert ("bioa", "biob") not in bio and ("bioj", "biok") in bio
    assert ("bioa", "biob") not in _set(pairs, "unassociated_biomedical")
    first = pairs[pairs["quarter"] == "associated_biomedical"].iloc[0]
    assert {first["word1"], first["word2"]} == {"bioj", "biok"} and first["reviewed"]
    assert ("genk", "genl") in _set(pairs, "associated_general")
    only, _, _ = _build(PairParams(quarter_size=4, on_shortfall="shrink", accepted_only=True), accepted)
    assert _set(only, "associated_biomedical") == {("bioj", "biok")}
    assert review["associated_biomedical"]["reviewed"].sum() == 1


@pytest.mark.parametrize(
    ("line", "match"),
    [
        ("noun,associated_biomedical,a,a,accept", "two different words"),
        (
            "noun,unassociated_general,a,b,accept",
            "quarter associated_biomedical or associated_general",
        ),
        ("noun,associated_general,a,b,maybe", "decision in"),
        ("adj,associated_general,a,b,accept", "pos in"),
    ],
)
def test_accepted_pairs_errors(tmp_path: Path, line: str, match: str) -> None:
    path = tmp_path / "accepted.csv"
    path.write_text("pos,quarter,word1,word2,decision\n" + line + "\n")
    with pytest.raises(SourceFormatError, match=match):
        read_accepted_pairs(path)


def test_seeded_and_deterministic() -> None:
    params = PairParams(quarter_size=3, on_shortfall="shrink", max_pairs_per_word=None)
    a, _, _ = _build(params, seed=7)
    b, _, _ = _build(params, seed=7)
    pd.testing.assert_frame_equal(a, b)
    others = [_build(params, seed=s)[0] for s in (1, 2, 3)]
    assert any(not o[["word1", "word2"]].equals(a[["word1", "word2"]]) for o in others)


def test_unassociated_general_words_have_the_pos_in_usf() -> None:
    """USF's POS code of a cue (QPS) decides whether a general word is a noun or a verb there."""
    usf = _usf()
    usf.loc[usf["cue"].isin(["gena", "genb", "genc"]), "qps"] = "V"  # USF has these as verbs
    pairs, _, _ = build_pairs(
        "noun",
        _domains(),
        _relations(),
        usf,
        EMPTY_ACCEPTED,
        PairParams(quarter_size=30, on_shortfall="shrink", max_pairs_per_word=None),
        lambda q: generator(7, "simlex_pairs", "noun", q),
    )
    words = set(pairs.loc[pairs["quarter"] == "unassociated_general", ["word1", "word2"]].stack())
    assert words and not words & {"gena", "genb", "genc"}
