"""BioWiC splits (quotas, uniqueness, disjointness, sentence cap, balance, determinism) and the validator."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import REPO

from biosem.errors import SourceFormatError
from biosem.seeds import generator
from biosem.wic import GROUPS
from biosem.wic.io import write_released_json
from biosem.wic.schemas import RELEASED_COLUMNS
from biosem.wic.splits import (
    QuotaError,
    SplitParams,
    counts_table,
    greedy_unique,
    sentence_cap,
    split_candidates,
    split_records,
    term_pair_keys,
)
from biosem.wic.validate import load_left_out, load_quotas, load_splits, report, validate_splits
from biosem.wic.validate import main as validate_main
from biosem.workflow.wic import Wic

QUOTAS = {"test": {g: 20 for g in GROUPS}, "dev": {g: 10 for g in GROUPS}}


def _data(n_sentences: int = 600, n_terms: int = 120, n_candidates: int = 20_000, seed: int = 0):
    """Synthetic selected sentences (unique texts, lemma = term) and candidates of all 8 strata."""
    rng = np.random.default_rng(seed)
    term_of = rng.integers(0, n_terms, n_sentences)
    terms = [f"term{t}" for t in term_of]
    sentences = [f"Sentence {k} mentions {t} once." for k, t in enumerate(terms)]
    start = [s.index(t) for s, t in zip(sentences, terms)]
    selected = pd.DataFrame(
        {
            "sentence_key": np.arange(n_sentences),
            "corpus": "c",
            "document_id": [str(k // 10) for k in range(n_sentences)],
            "sentence_id": np.arange(n_sentences) % 10,
            "sentence": sentences,
            "mention_id": 0,
            "term": terms,
            "start": start,
            "end": [a + len(t) for a, t in zip(start, terms)],
            "term_lower": terms,
            "lemma": terms,
            "concept_id": [f"C{t % 40}" for t in term_of],
            "type": None,
        }
    )
    a = rng.integers(0, n_sentences, n_candidates)
    b = rng.integers(0, n_sentences, n_candidates)
    keep = a != b
    s1, s2 = np.minimum(a, b)[keep], np.maximum(a, b)[keep]
    cand = pd.DataFrame(
        {
            "sentence1": s1,
            "sentence2": s2,
            "group": np.array(GROUPS, dtype=object)[rng.integers(0, 4, s1.size)],
            "label": rng.integers(0, 2, s1.size),
        }
    ).drop_duplicates(["sentence1", "sentence2"])
    return selected, cand.reset_index(drop=True)


def _params(**kw) -> SplitParams:
    base = {
        "test_quotas": QUOTAS["test"],
        "dev_quotas": QUOTAS["dev"],
        "quota_policy": "error",
        "train_sentence_cap": 5,
    }
    return SplitParams(**{**base, **kw})


def _splits(selected, cand, params, seed=1):
    result = split_candidates(cand, selected, params, generator(seed, "split"))
    return result, {k: split_records(cand, selected, v) for k, v in result.indices.items()}


def _records(frame: pd.DataFrame) -> list[dict]:
    cols = [
        "term1",
        "term2",
        "sentence1",
        "sentence2",
        "start1",
        "end1",
        "start2",
        "end2",
        "cat",
        "label",
    ]
    return [
        dict(zip(cols, (int(x) if isinstance(x, np.integer) else x for x in row)))
        for row in frame[cols].itertuples(index=False)
    ]


def test_split_invariants_hold() -> None:
    selected, cand = _data()
    result, splits = _splits(selected, cand, _params())
    test, dev, train = splits["test"], splits["dev"], splits["train"]
    # quotas, half per label
    for frame, q in ((test, QUOTAS["test"]), (dev, QUOTAS["dev"])):
        per = frame.groupby(["cat", "label"]).size()
        for g in GROUPS:
            assert per[(g, 0)] == per[(g, 1)] == q[g] // 2
    # test: no sentence twice, no term pair twice
    test_sentences = pd.concat([test["sentence1"], test["sentence2"]])
    assert not test_sentences.duplicated().any()
    pairs = {tuple(sorted(p)) for p in zip(test["term1"], test["term2"])}
    assert len(pairs) == len(test)
    # nothing of test in train or dev
    for frame in (train, dev):
        assert not set(frame["sentence1"]).union(frame["sentence2"]) & set(test_sentences)
        assert not {tuple(sorted(p)) for p in zip(frame["term1"], frame["term2"])} & pairs
    # sentence cap (train and dev together, as the reference) and balance
    uses = pd.concat([train["sentence1"], train["sentence2"], dev["sentence1"], dev["sentence2"]]).value_counts()
    assert uses.max() <= 5
    per = train.groupby(["cat", "label"]).size()
    for g in GROUPS:
        assert per[(g, 0)] == per[(g, 1)] > 0
    # offsets and the validator agree
    recs = {k: _records(v) for k, v in splits.items()}
    assert validate_splits(recs, result.quotas, train_cap=5) == []


def test_split_is_deterministic_and_seeded() -> None:
    selected, cand = _data()
    a, _ = _splits(selected, cand, _params(), seed=1)
    b, _ = _splits(selected, cand.sample(frac=1.0, random_state=3), _params(), seed=1)  # input order does not matter
    c, _ = _splits(selected, cand, _params(), seed=2)
    for k in ("train", "dev", "test"):
        assert np.array_equal(a.indices[k], b.indices[k])
    assert not np.array_equal(a.indices["test"], c.indices["test"])


def test_greedy_with_cut_pools_equals_one_full_pass() -> None:
    selected, cand = _data(n_candidates=30_000)
    cand = cand.sort_values(["group", "sentence1", "sentence2"]).reset_index(drop=True)
    s1, s2 = cand["sentence1"].to_numpy(), cand["sentence2"].to_numpy()
    stratum = cand["group"].map({g: i for i, g in enumerate(GROUPS)}).to_numpy() * 2 + cand["label"].to_numpy()
    tp = term_pair_keys(selected, s1, s2)
    order = np.random.default_rng(5).permutation(len(cand))
    quota = np.array([40, 3, 80, 10, 2, 200, 7, 1])
    got = greedy_unique(order, stratum, s1, s2, tp, quota)
    left, used_s, used_t, want = quota.copy(), set(), set(), []
    for i in order:  # the reference's loop, over everything
        if left[stratum[i]] and s1[i] not in used_s and s2[i] not in used_s and tp[i] not in used_t:
            left[stratum[i]] -= 1
            used_s |= {s1[i], s2[i]}
            used_t.add(tp[i])
            want.append(i)
    assert got.tolist() == want


def test_sentence_cap_is_greedy_in_order() -> None:
    s1 = np.array([0, 0, 0, 1, 0])
    s2 = np.array([1, 2, 3, 2, 4])
    assert sentence_cap(np.arange(5), s1, s2, cap=2, n_sentences=5).tolist() == [0, 1, 3]


def test_unfillable_quota_raises_with_details() -> None:
    selected, cand = _data()
    cand = cand[~((cand["group"] == "abbreviations") & (cand["label"] == 0))]
    few = cand[(cand["group"] == "synonyms") & (cand["label"] == 1)].head(3)
    cand = pd.concat([cand[~((cand["group"] == "synonyms") & (cand["label"] == 1))], few], ignore_index=True)
    with pytest.raises(QuotaError) as err:
        _splits(selected, cand, _params())
    msg = str(err.value)
    assert "test abbreviations label 0: needed 10, available 0 (0 candidates" in msg
    assert "test synonyms label 1: needed 10, available " in msg and "(3 candidates, 3 distinct term pairs)" in msg


def _with_fresh_pairs(selected: pd.DataFrame, cand: pd.DataFrame, group: str, label: int, n: int):
    """Replace the (group, label) candidates by ``n`` pairs of fresh sentences with distinct terms."""
    k0 = len(selected)
    rows = []
    for k in range(2 * n):
        term = f"fresh{k}"
        sentence = f"Fresh sentence {k} with {term}."
        a = sentence.index(term)
        fresh = {
            "sentence_key": k0 + k,
            "sentence": sentence,
            "term": term,
            "start": a,
            "end": a + len(term),
        }
        rows.append(dict(selected.iloc[0]) | fresh | {"term_lower": term, "lemma": term})
    selected = pd.concat([selected, pd.DataFrame(rows)], ignore_index=True)
    fresh = pd.DataFrame(
        {
            "sentence1": k0 + 2 * np.arange(n),
            "sentence2": k0 + 2 * np.arange(n) + 1,
            "group": group,
            "label": label,
        }
    )
    keep = ~((cand["group"] == group) & (cand["label"] == label))
    return selected, pd.concat([cand[keep], fresh], ignore_index=True)


def test_scale_policy_shrinks_quotas_per_group_and_stays_valid() -> None:
    selected, cand = _data()
    selected, cand = _with_fresh_pairs(selected, cand, "synonyms", 1, 8)
    result, splits = _splits(selected, cand, _params(quota_policy="scale", heldout_share=0.5))
    # 8 distinct synonym label-1 term pairs; test + dev may take half: per label (10 + 5) x 4/15
    assert result.quotas["test"]["synonyms"] == 2 * 2 and result.quotas["dev"]["synonyms"] == 2 * 1
    assert result.quotas["test"]["term_identity"] == 20  # plentiful groups keep the configured quotas
    recs = {k: _records(v) for k, v in splits.items()}
    assert validate_splits(recs, result.quotas, train_cap=5) == []
    table = counts_table(splits, result.quotas).set_index(["split", "cat", "label"])
    assert table.loc[("test", "synonyms", 1), "n"] == 2 and table.loc[("test", "synonyms", 1), "paper_quota"] == 400
    assert table.loc[("train", "synonyms", 1), "n"] == table.loc[("train", "synonyms", 0), "n"] == 5


def test_scale_policy_lowers_quotas_to_what_greedy_fills() -> None:
    selected, cand = _data()
    # three synonym label-1 pairs that all share one sentence: test can take only one of them
    fresh = pd.DataFrame({"sentence1": [0, 0, 0], "sentence2": [1, 2, 3], "group": "synonyms", "label": 1})
    cand = pd.concat([cand[~((cand["group"] == "synonyms") & (cand["label"] == 1))], fresh], ignore_index=True)
    result, splits = _splits(selected, cand, _params(quota_policy="scale", heldout_share=1.0))
    assert result.quotas["test"]["synonyms"] == 2  # one per label
    assert result.quotas["dev"]["synonyms"] == 0  # the other two pairs share the test sentence
    recs = {k: _records(v) for k, v in splits.items()}
    assert validate_splits(recs, result.quotas, train_cap=5) == []


def test_json_output_is_the_released_schema(tmp_path: Path) -> None:
    selected, cand = _data()
    result, splits = _splits(selected, cand, _params())
    for name, frame in splits.items():
        write_released_json(frame, tmp_path / f"{name}.json")
    (tmp_path / "quotas.json").write_text(json.dumps(result.quotas))
    test = json.loads((tmp_path / "test.json").read_text())
    assert list(test[0]) == [
        "term1",
        "term2",
        "sentence1",
        "sentence2",
        "start1",
        "start2",
        "end1",
        "end2",
        "cat",
        "label",
    ]  # the published files' order
    assert list(test[0]) == list(RELEASED_COLUMNS)
    assert {r["cat"] for r in test} == set(GROUPS) and {r["label"] for r in test} == {0, 1}
    assert validate_main([str(tmp_path), "--train-cap", "5"]) == 0


# --------------------------------------------------------------------------------------------------
# validator: each kind of violation is caught
# --------------------------------------------------------------------------------------------------
def _rec(t1: str, t2: str, cat: str, label: int, s1: str | None = None, s2: str | None = None) -> dict:
    s1 = s1 or f"We saw {t1} in one patient."
    s2 = s2 or f"Another {t2} case was reported."
    a, b = s1.index(t1), s2.index(t2)
    return {
        "term1": t1,
        "term2": t2,
        "sentence1": s1,
        "sentence2": s2,
        "start1": a,
        "end1": a + len(t1),
        "start2": b,
        "end2": b + len(t2),
        "cat": cat,
        "label": label,
    }


def _valid_set() -> tuple[dict[str, list[dict]], dict[str, dict[str, int]]]:
    splits: dict[str, list[dict]] = {"train": [], "dev": [], "test": []}
    for split, tag in (("test", "t"), ("dev", "d"), ("train", "r")):
        for g in GROUPS:
            for label in (1, 0):
                splits[split].append(_rec(f"{tag}{g[:4]}{label}a", f"{tag}{g[:4]}{label}b", g, label))
    quotas = {"test": {g: 2 for g in GROUPS}, "dev": {g: 2 for g in GROUPS}}
    return splits, quotas


def _kinds(splits, quotas, cap=100) -> list[str]:
    return sorted({v.kind for v in validate_splits(splits, quotas, cap)})


def test_validator_accepts_a_valid_set() -> None:
    splits, quotas = _valid_set()
    assert validate_splits(splits, quotas) == []


def test_validator_catches_schema_and_offsets() -> None:
    splits, quotas = _valid_set()
    bad = copy.deepcopy(splits)
    del bad["train"][0]["label"]
    bad["train"][1]["cat"] = "hypernyms"
    assert _kinds(bad, quotas) == ["schema"]  # both term_identity rows left out: still balanced
    bad = copy.deepcopy(splits)
    bad["dev"][2]["end1"] += 1
    violations = validate_splits(bad, quotas)
    assert [v.kind for v in violations] == ["offsets"] and violations[0].split == "dev" and violations[0].record == 2


def test_validator_catches_quota_and_balance() -> None:
    splits, quotas = _valid_set()
    bad = copy.deepcopy(splits)
    bad["test"].append(_rec("extra1", "extra2", "synonyms", 1))
    bad["test"].append(_rec("extra3", "extra4", "synonyms", 0))
    assert _kinds(bad, quotas) == ["quota"]
    bad = copy.deepcopy(splits)
    bad["train"][0]["label"] = 0  # term_identity now 0 vs 2
    assert _kinds(bad, quotas) == ["balance"]


def test_validator_catches_test_duplicates() -> None:
    splits, quotas = _valid_set()
    bad = copy.deepcopy(splits)
    bad["test"][1]["sentence1"] = bad["test"][0]["sentence1"]
    bad["test"][1]["term1"] = bad["test"][0]["term1"]
    bad["test"][1]["end1"] = bad["test"][0]["end1"]
    bad["test"][1]["start1"] = bad["test"][0]["start1"]
    assert _kinds(bad, quotas) == ["test_duplicate_sentence"]
    bad = copy.deepcopy(splits)
    # the same term pair (swapped, other case) with other sentences
    t1, t2 = bad["test"][0]["term1"], bad["test"][0]["term2"]
    bad["test"][1] = _rec(t2.upper(), t1, bad["test"][1]["cat"], bad["test"][1]["label"])
    assert _kinds(bad, quotas) == ["test_duplicate_term_pair"]


def test_validator_catches_test_leaking_into_train_and_dev() -> None:
    splits, quotas = _valid_set()
    bad = copy.deepcopy(splits)
    bad["train"][0]["sentence1"] = bad["test"][3]["sentence2"]
    bad["train"][0]["term1"] = bad["test"][3]["term2"]
    bad["train"][0]["start1"], bad["train"][0]["end1"] = (
        bad["test"][3]["start2"],
        bad["test"][3]["end2"],
    )
    assert _kinds(bad, quotas) == ["shared_sentence"]
    bad = copy.deepcopy(splits)
    t = bad["test"][4]
    bad["dev"][4] = _rec(
        t["term1"],
        t["term2"],
        bad["dev"][4]["cat"],
        bad["dev"][4]["label"],
        s1=f"Dev {t['term1']}.",
        s2=f"Dev {t['term2']}.",
    )
    assert _kinds(bad, quotas) == ["shared_term_pair"]


def test_validator_catches_train_sentence_cap(tmp_path: Path) -> None:
    splits, quotas = _valid_set()
    bad = copy.deepcopy(splits)
    s = "The drug was given twice."
    for k in range(4):
        bad["train"].append(_rec("drug", f"x{k}", "label_similarity", k % 2, s1=s))
    assert _kinds(bad, quotas, cap=3) == ["train_sentence_cap"]
    assert _kinds(bad, quotas, cap=4) == []
    # command line: lists every violation and exits 1
    for name, recs in bad.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(recs))
    (tmp_path / "quotas.json").write_text(json.dumps(quotas))
    assert validate_main([str(tmp_path), "--train-cap", "3"]) == 1
    assert validate_main([str(tmp_path), "--train-cap", "4"]) == 0
    assert validate_main([str(tmp_path / "missing")]) == 2


def test_validator_on_a_folder_without_train(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The published BioWiC dev and test files alone: checked, and the checks needing train listed as not run."""
    splits, _ = _valid_set()
    paper_like = {"test": {g: 2 for g in GROUPS}, "dev": {g: 2 for g in GROUPS}}
    for split in ("dev", "test"):
        (tmp_path / f"{split}.json").write_text(json.dumps(splits[split]))
    (tmp_path / "quotas.json").write_text(json.dumps(paper_like))
    assert validate_main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "train:" not in out and "test: 8 instances" in out and "dev: 8 instances" in out
    assert "not run: all checks of train (no train.json)" in out
    assert "not run: shared_sentence / shared_term_pair (test vs train)" in out
    assert "not run: train_sentence_cap" in out
    assert "(test vs dev)" not in out and out.splitlines()[-1] == "OK: no violations"
    # a dev sentence shared with test is still caught without train
    bad = [
        dict(
            splits["dev"][0],
            sentence1=splits["test"][0]["sentence1"],
            start1=splits["test"][0]["start1"],
            end1=splits["test"][0]["end1"],
            term1=splits["test"][0]["term1"],
        )
    ] + splits["dev"][1:]
    (tmp_path / "dev.json").write_text(json.dumps(bad))
    assert validate_main([str(tmp_path)]) == 1
    assert "shared_sentence: dev[0]" in capsys.readouterr().out
    empty = tmp_path / "empty"
    empty.mkdir()
    assert validate_main([str(empty)]) == 2


def test_validator_reads_per_label_quotas() -> None:
    splits, quotas = _valid_set()
    unbalanced = {k: dict(v) for k, v in quotas.items()}
    unbalanced["test"]["synonyms"] = {"1": 1, "0": 0}
    test = [r for r in splits["test"] if not (r["cat"] == "synonyms" and r["label"] == 0)]
    got = validate_splits({**splits, "test": test}, unbalanced)
    assert got == []  # no balance violation for a group given per label
    got = validate_splits({**splits, "test": test}, quotas)
    assert sorted({v.kind for v in got}) == ["balance", "quota"]


def test_fill_policy_keeps_full_strata_and_bounds_the_short_ones() -> None:
    """fill: the paper's quota where the data allow; a short stratum shares its term pairs 2:1 between test
    and dev and the counts table names the candidate count that bounds it."""
    selected, cand = _data()
    scarce = (cand["group"] == "synonyms") & (cand["label"] == 0)
    cand = pd.concat([cand[~scarce], cand[scarce].head(6)], ignore_index=True)
    params = _params(quota_policy="fill")
    result, splits = _splits(selected, cand, params)
    stats = result.stats
    table = counts_table(splits, result.quotas, stats).set_index(["split", "cat", "label"])
    for group in GROUPS:
        for label in (1, 0):
            row = table.loc[("test", group, label)]
            want = params.test_quotas[group] // 2
            assert row["candidate_term_pairs"] == stats[f"term_pairs_{group}_{label}"]
            if row["candidate_term_pairs"] >= want + params.dev_quotas[group] // 2:
                assert row["n"] == want  # filled without scaling
            else:
                assert row["n"] <= -(-row["candidate_term_pairs"] * 2 // 3) and row["bound"] == "term_pairs"
    assert table.loc[("test", "synonyms", 0), "bound"] == "term_pairs"
    assert 0 < table.loc[("test", "synonyms", 0), "n"] < table.loc[("test", "synonyms", 1), "n"] == 10
    assert result.quotas["test"]["term_identity"] == 20 and isinstance(result.quotas["test"]["synonyms"], dict)
    recs = {name: _records(frame) for name, frame in splits.items()}
    assert validate_splits(recs, result.quotas, train_cap=5) == []


def test_validator_names_a_truncated_file_and_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = [{"term1": "a", "sentence1": "x" * 10}, {"term1": "b", "sentence1": "y" * 10}]
    text = json.dumps(records, indent=1)
    cut = text.index('"yyyy') + 3  # inside the second record's sentence
    path = tmp_path / "test.json"
    path.write_text(text[:cut])

    with pytest.raises(SourceFormatError) as err:
        load_splits(tmp_path, required=())
    assert err.value.path == path
    assert err.value.line == text[:cut].count("\n") + 1
    assert "Unterminated string" in err.value.found

    assert validate_main([str(tmp_path)]) == 2
    message = capsys.readouterr().err
    assert f"{path}:{err.value.line}" in message and "Unterminated string" in message


def test_validator_names_a_bad_quotas_file(tmp_path: Path) -> None:
    path = tmp_path / "quotas.json"
    path.write_text('{"test": {"a": 1,}}\n')
    with pytest.raises(SourceFormatError) as err:
        load_quotas(path)
    assert (err.value.path, err.value.line) == (path, 1)
    assert "column 18" in err.value.found


# --------------------------------------------------------------------------------------------------
# quota_policy balanced (issue 37): equal labels in every split x group, short groups left out
# --------------------------------------------------------------------------------------------------
def test_balanced_policy_gives_equal_labels_per_split_and_group() -> None:
    """A scarce label lowers its group's other label to the same count (bound ``other_label``)."""
    selected, cand = _data()
    selected, cand = _with_fresh_pairs(selected, cand, "synonyms", 0, 12)
    params = _params(quota_policy="balanced", heldout_share=0.5, min_stratum=2)
    result, splits = _splits(selected, cand, params)
    # 12 distinct synonym label-0 term pairs, test + dev may take 6, 2:1 -> 4 and 2, both labels alike
    assert result.quotas["test"]["synonyms"] == 2 * 4 and result.quotas["dev"]["synonyms"] == 2 * 2
    assert result.quotas["test"]["term_identity"] == 20 and result.left_out == {}
    for frame in splits.values():
        per = frame.groupby(["cat", "label"]).size()
        for group in GROUPS:
            assert per.get((group, 0), 0) == per.get((group, 1), 0) > 0, group
    table = counts_table(splits, result.quotas, result.stats, result.left_out, "balanced")
    table = table.set_index(["split", "cat", "label"])
    assert table.loc[("test", "synonyms", 0), "bound"] == "term_pairs"
    assert table.loc[("test", "synonyms", 1), "bound"] == "other_label"
    assert (table["left_out"] == "").all()
    recs = {k: _records(v) for k, v in splits.items()}
    assert validate_splits(recs, result.quotas, train_cap=5) == []


def test_balanced_policy_leaves_a_group_short_of_min_stratum_out_with_its_reason(tmp_path: Path) -> None:
    selected, cand = _data()
    selected, cand = _with_fresh_pairs(selected, cand, "synonyms", 0, 8)
    params = _params(quota_policy="balanced", heldout_share=0.3, min_stratum=4)
    result, splits = _splits(selected, cand, params)
    # test + dev may take 2 of the 8 pairs (test 2, dev 0): below min_stratum 4 and the quotas 10 / 5
    assert result.quotas["test"]["synonyms"] == result.quotas["dev"]["synonyms"] == 0
    assert set(result.left_out) == {"test", "dev"}
    assert result.left_out["test"]["synonyms"].startswith("quota 2 per label < min_stratum 4")
    assert result.left_out["dev"]["synonyms"].startswith("quota 0 per label < min_stratum 4")
    for name in ("test", "dev"):
        assert not (splits[name]["cat"] == "synonyms").any()
    train = splits["train"].groupby(["cat", "label"]).size()
    assert train[("synonyms", 0)] == train[("synonyms", 1)] == 8  # every pair left for train, balanced
    table = counts_table(splits, result.quotas, result.stats, result.left_out, "balanced")
    rows = table[(table["cat"] == "synonyms") & (table["split"] != "train")]
    assert (rows["n"] == 0).all() and (rows["bound"] == "min_stratum").all()
    assert rows["left_out"].str.contains("< min_stratum 4").all()
    assert (table.loc[table["cat"] != "synonyms", "left_out"] == "").all()
    # the validator explains the left-out group and finds no violation
    for name, frame in splits.items():
        write_released_json(frame, tmp_path / f"{name}.json")
    quotas = {**result.quotas, "left_out": result.left_out}
    (tmp_path / "quotas.json").write_text(json.dumps(quotas))
    assert load_left_out(tmp_path / "quotas.json") == result.left_out
    recs = load_splits(tmp_path)
    assert validate_splits(recs, load_quotas(tmp_path / "quotas.json"), 5, result.left_out) == []
    text = report([], recs, result.left_out)
    assert "left out: test synonyms: quota 2 per label < min_stratum 4" in text and text.endswith("OK: no violations\n")
    # a left-out group with instances is a violation
    bad = {**recs, "test": recs["test"] + [r for r in recs["train"] if r["cat"] == "synonyms"][:1]}
    assert "left_out" in {v.kind for v in validate_splits(bad, None, 5, result.left_out)}


def test_balanced_policy_leaves_a_thin_train_group_out() -> None:
    selected, cand = _data()
    selected, cand = _with_fresh_pairs(selected, cand, "synonyms", 0, 8)
    result, splits = _splits(selected, cand, _params(quota_policy="balanced", min_stratum=10))
    assert not (splits["train"]["cat"] == "synonyms").any()
    assert result.left_out["train"]["synonyms"].startswith("8 per label < min_stratum 10 (train candidates")
    per = splits["train"].groupby(["cat", "label"]).size()
    for group in ("term_identity", "abbreviations", "label_similarity"):
        assert per[(group, 0)] == per[(group, 1)] >= 10


def test_balanced_policy_needs_a_balanced_train() -> None:
    selected, cand = _data()
    with pytest.raises(ValueError, match="balance_train"):
        _splits(selected, cand, _params(quota_policy="balanced", balance_train=False))
    # the workflow refuses the combination when the plan is built, before any rule runs
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    wic = Wic(config)
    assert config["wic"]["quota_policy"] == "balanced" and wic.split_params["min_stratum"] == 30
    assert wic.candidate_params["negative_links"] == ["record", "ancestor", "synonym", "variant", "gene_family"]
    assert wic.candidate_params["record_column"] == "module"  # MeSH: the descriptor or SCR of a concept
    config["wic"]["balance_train"] = False
    with pytest.raises(ValueError, match="wic.balance_train"):
        Wic(config)
