"""What negatives exclude beyond the positives' similarity graph (issue 37): surface variants of a
term similar to the first term (each step of biosem.surface), other concepts of a MeSH descriptor,
and the counts of candidates each rule removed. Tables are hand-made, with the intermediates' columns."""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
from rapidfuzz.distance import Levenshtein

from biosem.seeds import generator
from biosem.surface import default_normaliser, variant_step
from biosem.terminology.schemas import ASSOCIATIONS, CONCEPTS, TERMS
from biosem.termpairs.exclusion import concept_groups, excluded_candidates
from biosem.termpairs.negatives import build_dataset, sample_levenshtein_negatives
from biosem.termpairs.params import ExclusionParams, exclusion_from_config
from biosem.termpairs.positives import (
    POSITIVE_COLUMNS,
    build_positive_pairs,
    levenshtein_lower,
    similarity_components,
)
from biosem.termpairs.summary import summarise


def positives_frame(rows: list[tuple[str, str, str, str]]) -> pd.DataFrame:
    """``(kind, term1, term2, concept_id)`` rows -> positives shaped like build_positive_pairs'."""
    df = pd.DataFrame(
        {
            "kind": [r[0] for r in rows],
            "term1": pd.Series([r[1] for r in rows], dtype=object),
            "term2": pd.Series([r[2] for r in rows], dtype=object),
            "concept_id1": [r[3] for r in rows],
            "concept_id2": [r[3] for r in rows],
        }
    )
    df["levenshtein"] = levenshtein_lower(df["term1"], df["term2"])
    df["difficulty"] = "hard"
    return df[POSITIVE_COLUMNS]


def negatives_of(dataset: pd.DataFrame, first: str) -> list[str]:
    neg = dataset[(dataset["label"] == 0) & (dataset["term1"] == first)]
    return neg["term2"].tolist()


# (step, query term, its surface variant in another concept): one planted variant per normaliser step.
PLANTED = [
    ("nfkc", "ﬁbrin clot", "fibrin clot"),  # the "fi" ligature
    ("case", "Strauß syndrome", "STRAUSS SYNDROME"),  # full case folding: ß -> ss
    ("hyphen_space", "CTLA-8", "CTLA8"),
    ("apostrophe_s", "Quincke's edema", "Quincke edema"),
    ("spelling", "Pancoast tumour", "Pancoast tumor"),
    ("inflection", "Pneumocystis infection", "Pneumocystis infections"),
]


def planted_positives(query: str, variant: str) -> pd.DataFrame:
    """Concept 1 holds ``query``; concept 2 its surface variant (a synonym, nearest to it); concept 3
    a decoy four characters from ``query``, the nearest valid term once the variant is excluded.
    Every other term lies far from ``query``."""
    return positives_frame(
        [
            ("fsn_syn", query, "qqqqqqqqqqqqqqqqqqqqqqqq one", "C1"),
            ("fsn_syn", "w", variant, "C2"),
            ("fsn_syn", query + " xyz", "ww", "C3"),  # "ww": the nearest valid term of "w"
        ]
    )


@pytest.mark.parametrize(("step", "query", "variant"), PLANTED, ids=[p[0] for p in PLANTED])
def test_planted_surface_variant_is_removed_and_counted(step: str, query: str, variant: str) -> None:
    assert variant_step(query, variant) == step
    pos = planted_positives(query, variant)
    decoy = query + " xyz"
    assert Levenshtein.distance(query.lower(), variant.lower()) < Levenshtein.distance(query.lower(), decoy.lower())

    # The paper's rule: the variant is the Levenshtein negative.
    paper = similarity_components(pos, surface_variants=False)
    ds, stats = build_dataset(pos, paper, "fsn_syn", "hard", "levenshtein", generator(1, step))
    assert negatives_of(ds, query) == [variant]
    assert stats["excluded_surface_variant"] == 0

    # The default: the variant joins the query's component; the next-nearest valid term is taken.
    comps = similarity_components(pos)
    comp = dict(zip(comps["term_lower"], comps["component"]))
    assert comp[query.lower()] == comp[variant.lower()] != comp[decoy.lower()]
    ds, stats = build_dataset(pos, comps, "fsn_syn", "hard", "levenshtein", generator(1, step))
    assert negatives_of(ds, query) == [decoy]
    # Removed: query -> variant and query -> "w" (the variant's synonym), "w" -> query and "w" -> "qqq… one";
    # of those, only query -> variant is nearer than the query's negative (the decoy, 4 edits).
    assert stats["excluded_surface_variant"] == 4
    assert stats["excluded_surface_variant_nearer"] == 1
    assert stats["excluded_same_group"] == 0
    d = Levenshtein.distance(query.lower(), variant.lower())
    assert stats["excluded_examples"] == f"surface_variant: {query.lower()} -> {variant.lower()} (d={d})"
    neg = ds[ds["label"] == 0]
    keys = default_normaliser().key_array(neg["term1"]) == default_normaliser().key_array(neg["term2"])
    assert not keys.any()

    # Random negatives avoid the variant too, whatever the seed.
    for seed in range(8):
        ds, stats = build_dataset(pos, comps, "fsn_syn", "hard", "random", generator(seed, step))
        assert set(negatives_of(ds, query)) <= {decoy, "ww"}
        assert stats["excluded_surface_variant"] == 4 and "excluded_surface_variant_nearer" not in stats


def test_surface_variant_joins_the_variants_synonyms_too() -> None:
    # "Pneumocystis infections" is a variant of a term of C1: its synonym "PCP" is similar indirectly.
    pos = positives_frame(
        [
            ("syn_syn", "Pneumocystis infection", "Pneumocystosis", "C1"),
            ("syn_syn", "Pneumocystis infections", "PCP", "C2"),
            ("syn_syn", "Malaria", "Paludism", "C3"),
        ]
    )
    comps = similarity_components(pos)
    comp = dict(zip(comps["term_lower"], comps["component"]))
    assert comp["pcp"] == comp["pneumocystosis"] != comp["malaria"]
    assert (
        comps.set_index("term_lower")["synonym_component"]["pcp"]
        != (comps.set_index("term_lower")["synonym_component"]["pneumocystosis"])
    )
    assert comps.set_index("term_lower")["surface_key"]["pneumocystis infections"] == "pneumocystisinfection"


def test_similarity_components_without_surface_variants_has_no_keys() -> None:
    pos = planted_positives("CTLA-8", "CTLA8")
    comps = similarity_components(pos, surface_variants=False)
    assert comps["surface_key"].isna().all()
    assert (comps["component"] == comps["synonym_component"]).all()


# --------------------------------------------------------------------------------------------------
# MeSH descriptors
# --------------------------------------------------------------------------------------------------
def mesh_tables() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """A MeSH-shaped source: descriptor D1 (Fulvestrant) holds concept M1 (Fulvestrant, ICI-182780)
    and M2 (ZM 182780, a narrower concept); D2 and D3 one concept each. As biosem.terminology.mesh
    writes them: ``concepts.module`` = the descriptor."""
    concepts = pd.DataFrame(
        [("mesh", c, True, d) for c, d in [("M1", "D1"), ("M2", "D1"), ("M3", "D2"), ("M4", "D3")]],
        columns=CONCEPTS.schema.names,
    )
    rows = [
        ("M1", "T1", "Fulvestrant", "preferred"),
        ("M1", "T2", "ICI-182780", "synonym"),
        ("M2", "T3", "ZM 182780", "preferred"),
        ("M2", "T4", "ZM-182,780 compound", "synonym"),
        ("M3", "T5", "ICI 118551", "preferred"),
        ("M3", "T6", "beta blocker ICI", "synonym"),
        ("M4", "T7", "Tamoxifen", "preferred"),
        ("M4", "T8", "ICI 46474", "synonym"),
    ]
    terms = pd.DataFrame(
        [
            {
                **dict.fromkeys(TERMS.schema.names),
                **{"source": "mesh", "concept_id": c, "term_id": i, "term": s, "term_type": k},
                **{"language": "en", "active": True},
            }
            for c, i, s, k in rows
        ],
        columns=TERMS.schema.names,
    )
    return concepts, terms, pd.DataFrame(columns=ASSOCIATIONS.schema.names)


D1_TERMS = {"fulvestrant", "ici-182780", "zm 182780", "zm-182,780 compound"}


def test_concept_groups_descriptor_only_in_mesh() -> None:
    concepts, _, _ = mesh_tables()
    groups = concept_groups(concepts, "descriptor", "mesh")
    assert groups is not None and groups.to_dict() == {"M1": "D1", "M2": "D1", "M3": "D2", "M4": "D3"}
    assert concept_groups(concepts, "descriptor", "obo") is None
    assert concept_groups(concepts, None, "mesh") is None
    with pytest.raises(ValueError, match="unknown concept grouping"):
        concept_groups(concepts, "tree", "mesh")
    with pytest.raises(ValueError, match="exclude_same_group"):
        ExclusionParams(exclude_same_group="tree")
    assert exclusion_from_config({"exclude_surface_variants": False, "exclude_same_group": None}) == ExclusionParams(
        False, None
    )


def test_mesh_descriptor_sibling_is_not_a_negative() -> None:
    concepts, terms, assoc = mesh_tables()
    pos, _ = build_positive_pairs(concepts, terms, assoc)
    assert set(pos.loc[pos["kind"] == "fsn_syn", "difficulty"]) == {"hard"}
    # Without descriptors, the nearest term of "ZM 182780" is "ICI-182780", a term of its descriptor.
    plain = similarity_components(pos)
    ds, stats = build_dataset(pos, plain, "fsn_syn", "hard", "levenshtein", generator(3, "mesh"))
    assert negatives_of(ds, "ZM 182780") == ["ICI-182780"]
    assert stats["excluded_same_group"] == 0

    comps = similarity_components(pos, concept_groups(concepts, "descriptor", "mesh"))
    table = comps.set_index("term_lower")
    assert table.loc["zm 182780", "group_component"] == table.loc["fulvestrant", "group_component"]
    assert table.loc["zm 182780", "synonym_component"] != table.loc["fulvestrant", "synonym_component"]
    assert (table["group_component"] == table["component"]).all()  # no surface variants here
    ds, stats = build_dataset(pos, comps, "fsn_syn", "hard", "levenshtein", generator(3, "mesh"))
    (partner,) = negatives_of(ds, "ZM 182780")
    outside = [x for x in table.index if x not in D1_TERMS]
    assert Levenshtein.distance("zm 182780", partner.lower()) == min(
        Levenshtein.distance("zm 182780", x) for x in outside
    )
    # fulvestrant -> zm 182780, zm-182,780 compound; zm 182780 -> fulvestrant, ici-182780.
    assert stats["excluded_same_group"] == 4 and stats["excluded_same_group_nearer"] >= 1
    assert stats["excluded_surface_variant"] == 0
    for strategy in ("random", "levenshtein"):
        for seed in range(6):
            ds, _ = build_dataset(pos, comps, "syn_syn", "hard", strategy, generator(seed, "mesh", strategy))
            neg = ds[ds["label"] == 0]
            for a, b in zip(neg["term1"].str.lower(), neg["term2"].str.lower()):
                assert not (a in D1_TERMS and b in D1_TERMS), (strategy, seed, a, b)


# --------------------------------------------------------------------------------------------------
# Exactness of the nearest valid term with variants planted
# --------------------------------------------------------------------------------------------------
def test_levenshtein_negatives_exact_with_surface_variants() -> None:
    """Each first term's partners are its k nearest valid terms (outside its component, which joins
    surface variants), ties and pairs taken in reverse handled as for the paper's rule."""
    rng = np.random.default_rng(11)
    stems = ["cardi", "hepat", "nephr", "gastr", "arthr", "neur"]
    suffixes = ["itis", "osis", "oma", "opathy"]
    base = [s + x for s in stems for x in suffixes]
    # Plurals and hyphenated spellings of some terms, as terms of other concepts.
    variants = [w + "s" for w in base[::3]] + [w[:3] + "-" + w[3:] for w in base[1::5]]
    vocab = sorted(set(base + variants))
    rng.shuffle(vocab)
    rows = []
    for c in range(0, len(vocab) - 2, 3):
        members = vocab[c : c + 3]
        rows += [("syn_syn", a, b, str(c)) for a, b in itertools.combinations(members, 2)]
    pos = positives_frame(rows)
    comps = similarity_components(pos)
    comp = dict(zip(comps["term_lower"], comps["component"]))
    assert (comps["component"] != comps["synonym_component"]).any()  # some variants were joined
    source = pd.concat([pos["term1"], pos["term2"]], ignore_index=True)
    norm = default_normaliser()
    for seed in range(4):
        neg, counts = sample_levenshtein_negatives(pos, comps, source, generator(seed, "exact"))
        assert counts["fallback"] == 0
        assert not (norm.key_array(neg["term1"]) == norm.key_array(neg["term2"])).any()
        partners: dict[str, list[str]] = defaultdict(list)
        for a, b in zip(neg["term1"], neg["term2"]):
            partners[a.lower()].append(b.lower())
        pool = sorted(set(source.str.lower()))
        for a, chosen in partners.items():
            taken_by_earlier = {c for c, ps in partners.items() if a in ps and c < a}
            valid = [x for x in pool if comp[x] != comp[a] and x not in taken_by_earlier]
            assert set(chosen) <= set(valid), (a, chosen)
            best = sorted(Levenshtein.distance(a, x) for x in valid)[: len(chosen)]
            assert sorted(Levenshtein.distance(a, x) for x in chosen) == best, (a, chosen)


# --------------------------------------------------------------------------------------------------
# Counts
# --------------------------------------------------------------------------------------------------
def test_excluded_candidates_counts_each_rule_once() -> None:
    concepts, terms, assoc = mesh_tables()
    pos, _ = build_positive_pairs(concepts, terms, assoc)
    comps = similarity_components(pos, concept_groups(concepts, "descriptor", "mesh"))
    sel = pos[(pos["kind"] == "fsn_syn") & (pos["difficulty"] == "hard")]
    counts, shown = excluded_candidates(sel, comps)
    assert counts == {"excluded_same_group": 4, "excluded_surface_variant": 0}
    assert shown["same_group"] == [
        "zm 182780 -> ici-182780 (d=4)",
        "fulvestrant -> zm 182780 (d=11)",
        "zm 182780 -> fulvestrant (d=11)",
    ]
    no_stages = comps[["term_lower", "component"]]
    assert excluded_candidates(sel, no_stages)[0] == {"excluded_same_group": 0, "excluded_surface_variant": 0}


def test_counts_table_reports_removed_candidates() -> None:
    pos = pd.concat([planted_positives("CTLA-8", "CTLA8")], ignore_index=True)
    comps = similarity_components(pos)
    stats = []
    for strategy in ("random", "levenshtein"):
        for difficulty in ("easy", "hard"):
            _, s = build_dataset(pos, comps, "fsn_syn", difficulty, strategy, generator(0, strategy, difficulty))
            stats.append(s)
    for kind in ("syn_syn", "possibly_equivalent_to", "replaced_by", "same_as"):
        for strategy in ("random", "levenshtein"):
            for difficulty in ("easy", "hard"):
                _, s = build_dataset(pos, comps, kind, difficulty, strategy, generator(0, kind, strategy, difficulty))
                stats.append(s)
    table = summarise(stats).set_index(["kind", "difficulty"])
    row = table.loc[("fsn_syn", "hard")]
    assert row["excluded_surface_variant"] == 4 and row["excluded_surface_variant_nearer"] == 1
    assert row["excluded_same_group"] == 0
    assert table.loc[("fsn_syn", "all"), "excluded_surface_variant"] == 4
    assert table.loc[("syn_syn", "hard"), "excluded_surface_variant"] == 0
