"""The synthetic SNOMED CT RF2 generator (bench/generate_snomed/): layout, consistency, determinism,
data files and command line."""

from __future__ import annotations

import csv
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pandas as pd
import pytest
from conftest import REPO

from biosem.levenshtein.kernels import KERNEL

ROOT = REPO
PACKAGE = ROOT / "bench" / "generate_snomed"
N_CONCEPTS = 2_000
SEED = 7


def _load_module() -> ModuleType:
    """The package bench/generate_snomed/ by its path (bench/ is not installed nor on sys.path)."""
    spec = importlib.util.spec_from_file_location(
        "bench_generate_snomed", PACKAGE / "__init__.py", submodule_search_locations=[str(PACKAGE)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its relative imports and dataclasses look the package up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def gen() -> ModuleType:
    module = _load_module()
    data = module.default_data_dir()
    if not (data / "bc5cdr").is_dir() or not (data / "nltk_data" / "corpora" / "wordnet").is_dir():
        pytest.skip(f"source mirror not found at {data}")
    return module


@pytest.fixture(scope="module")
def release(gen: ModuleType, tmp_path_factory: pytest.TempPathFactory):
    first = tmp_path_factory.mktemp("release_a")
    second = tmp_path_factory.mktemp("release_b")
    counts_a = gen.generate_rf2(first, N_CONCEPTS, SEED)
    counts_b = gen.generate_rf2(second, N_CONCEPTS, SEED)
    return first, second, counts_a, counts_b


def _read(gen: ModuleType, root: Path, kind: str) -> pd.DataFrame:
    return pd.read_csv(
        root / gen.RELATIVE_PATHS[kind],
        sep="\t",
        dtype=str,
        quoting=csv.QUOTE_NONE,
        keep_default_na=False,
        encoding="utf-8",
    )


@pytest.fixture(scope="module")
def tables(gen: ModuleType, release) -> dict[str, pd.DataFrame]:
    root = release[0]
    return {kind: _read(gen, root, kind) for kind in gen.RELATIVE_PATHS}


def test_same_seed_gives_identical_bytes(gen: ModuleType, release) -> None:
    first, second, counts_a, counts_b = release
    assert counts_a == counts_b
    for rel in gen.RELATIVE_PATHS.values():
        assert (first / rel).read_bytes() == (second / rel).read_bytes(), rel


def test_command_line_writes_the_same_release(release, tmp_path: Path) -> None:
    """``python -m bench.generate_snomed`` from the repository root writes the bytes that
    generate_rf2 writes for the same arguments."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.generate_snomed",
            "--out",
            str(tmp_path),
            "--concepts",
            str(N_CONCEPTS),
            "--seed",
            str(SEED),
            "--quiet",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    first = release[0]
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert written == sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    for rel in written:
        assert (tmp_path / rel).read_bytes() == (first / rel).read_bytes(), rel


def test_word_lists_and_templates_are_read_from_the_package(gen: ModuleType) -> None:
    """The data files are found beside the package (not in the working directory) and are clean:
    no empty, padded or duplicate entries, and every template slot names a vocabulary pool."""
    wordlists = sys.modules[f"{gen.__name__}.wordlists"]
    data = PACKAGE / "data"
    for path in sorted((data / "words").glob("*.txt")):
        entries = wordlists.words(path.stem)
        assert entries, path.name
        assert all(e and e == e.strip() and "\t" not in e for e in entries), path.name
        assert len(set(entries)) == len(entries), path.name
    for path in sorted((data / "pairs").glob("*.tsv")):
        assert all(a and b and a != b for a, b in wordlists.pairs(path.stem)), path.name
    voc = gen.load_vocabulary(str(gen.default_data_dir()))
    tags = {tag for tag, _, _ in gen.TAGS}
    assert set(wordlists.TEMPLATES) == tags
    assert set(wordlists.ELABORATIONS) <= tags
    terms = sys.modules[f"{gen.__name__}.terms"]
    specs = [spec for rows in wordlists.TEMPLATES.values() for spec in rows]
    specs += [spec for _, rows in wordlists.ELABORATIONS.values() for spec in rows]
    for template, weight in specs:
        assert weight > 0
        assert set(terms.SLOT_RE.findall(template)) <= set(voc.pools), template
    assert all(clause.startswith(" ") for _, rows in wordlists.ELABORATIONS.values() for clause, _ in rows)


def test_other_seed_differs(gen: ModuleType, release, tmp_path: Path) -> None:
    gen.generate_rf2(tmp_path, N_CONCEPTS, SEED + 1)
    rel = gen.RELATIVE_PATHS["description"]
    assert (tmp_path / rel).read_bytes() != (release[0] / rel).read_bytes()


def test_layout_headers_and_line_format(gen: ModuleType, release) -> None:
    root = release[0]
    expected_paths = {
        "Snapshot/Terminology/sct2_Concept_Snapshot_INT_20190131.txt",
        "Snapshot/Terminology/sct2_Description_Snapshot-en_INT_20190131.txt",
        "Snapshot/Terminology/sct2_Relationship_Snapshot_INT_20190131.txt",
        "Snapshot/Refset/Language/der2_cRefset_LanguageSnapshot-en_INT_20190131.txt",
        "Snapshot/Refset/Content/der2_cRefset_AssociationSnapshot_INT_20190131.txt",
    }
    assert set(gen.RELATIVE_PATHS.values()) == expected_paths
    headers = {
        "concept": ["id", "effectiveTime", "active", "moduleId", "definitionStatusId"],
        "description": [
            "id",
            "effectiveTime",
            "active",
            "moduleId",
            "conceptId",
            "languageCode",
            "typeId",
            "term",
            "caseSignificanceId",
        ],
        "relationship": [
            "id",
            "effectiveTime",
            "active",
            "moduleId",
            "sourceId",
            "destinationId",
            "relationshipGroup",
            "typeId",
            "characteristicTypeId",
            "modifierId",
        ],
        "language": [
            "id",
            "effectiveTime",
            "active",
            "moduleId",
            "refsetId",
            "referencedComponentId",
            "acceptabilityId",
        ],
        "association": [
            "id",
            "effectiveTime",
            "active",
            "moduleId",
            "refsetId",
            "referencedComponentId",
            "targetComponentId",
        ],
    }
    for kind, cols in headers.items():
        raw = (root / gen.RELATIVE_PATHS[kind]).read_bytes()
        assert b"\r" not in raw, kind
        assert raw.endswith(b"\n"), kind
        lines = raw.decode("utf-8").split("\n")[:-1]
        assert lines[0].split("\t") == cols, kind
        assert len(lines) > 1, kind
        assert all(line.count("\t") == len(cols) - 1 for line in lines), kind
        for line in lines[1:]:
            fields = line.split("\t")
            assert len(fields[1]) == 8 and fields[1].isdigit() and fields[1] <= "20190131"
            assert fields[2] in ("0", "1")


def test_identifiers(gen: ModuleType, tables: dict[str, pd.DataFrame]) -> None:
    concepts, descriptions = tables["concept"], tables["description"]
    relationships = tables["relationship"]
    for frame, partition in ((concepts, "00"), (descriptions, "01"), (relationships, "02")):
        ids = frame["id"]
        assert ids.is_unique
        assert ids.str.fullmatch(r"[1-9][0-9]{5,17}").all()
        assert (ids.str[-3:-1] == partition).all()
        assert all(gen.verhoeff_valid(x) for x in ids)
        assert list(ids.astype("int64")) == sorted(ids.astype("int64"))  # sorted output
    assert not set(concepts["id"]) & set(descriptions["id"])
    for kind in ("language", "association"):
        assert (
            tables[kind]["id"]
            .str.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
            .all()
        )
        assert tables[kind]["id"].is_unique


def test_counts_are_consistent(gen: ModuleType, release, tables: dict[str, pd.DataFrame]) -> None:
    counts = release[2]
    concepts, descriptions = tables["concept"], tables["description"]
    assert len(concepts) == counts["concepts"] == N_CONCEPTS
    active = concepts["active"] == "1"
    assert counts["concepts_active"] == active.sum()
    assert 0.06 <= (~active).mean() <= 0.10
    assert len(descriptions) == counts["descriptions"]
    assert (descriptions["typeId"] == gen.FSN_TYPE).sum() == counts["descriptions_fsn"]
    assert (descriptions["typeId"] == gen.SYN_TYPE).sum() == counts["descriptions_synonym"]
    assert len(tables["language"]) == counts["language_rows"] == len(descriptions)
    assert len(tables["association"]) == counts["associations"] == (~active).sum()
    assert len(tables["relationship"]) == counts["relationships"]
    kinds = tables["association"]["refsetId"].value_counts()
    assert kinds.get(gen.POSSIBLY_EQUIVALENT_TO, 0) == counts["association_possibly_equivalent_to"]
    assert kinds.get(gen.REPLACED_BY, 0) == counts["association_replaced_by"]
    assert kinds.get(gen.SAME_AS, 0) == counts["association_same_as"]
    assert set(concepts["moduleId"]) == {gen.CORE_MODULE, gen.MODEL_MODULE}
    assert (concepts["moduleId"] == gen.MODEL_MODULE).sum() == counts["concepts_model_component"]
    assert set(descriptions["languageCode"]) == {"en"}
    # on average ~3.7 descriptions per active concept (FSN + PT + ~1.7 more synonyms)
    per_active = descriptions[descriptions["active"] == "1"].shape[0] / active.sum()
    assert 3.0 <= per_active <= 4.5


def test_language_refset(gen: ModuleType, tables: dict[str, pd.DataFrame]) -> None:
    concepts, descriptions, language = tables["concept"], tables["description"], tables["language"]
    assert set(language["refsetId"]) == {gen.US_LANG_REFSET}
    assert set(language["acceptabilityId"]) <= {gen.PREFERRED, gen.ACCEPTABLE}
    assert language["referencedComponentId"].is_unique
    merged = descriptions.merge(
        language, left_on="id", right_on="referencedComponentId", suffixes=("", "_lang"), validate="one_to_one"
    )
    assert len(merged) == len(descriptions)
    live = merged[(merged["active"] == "1") & (merged["active_lang"] == "1")]
    fsn = live[(live["typeId"] == gen.FSN_TYPE) & (live["acceptabilityId"] == gen.PREFERRED)]
    pt = live[(live["typeId"] == gen.SYN_TYPE) & (live["acceptabilityId"] == gen.PREFERRED)]
    active_ids = set(concepts.loc[concepts["active"] == "1", "id"])
    # exactly one preferred FSN and one preferred synonym per concept (inactive ones included)
    assert (fsn["conceptId"].value_counts() == 1).all()
    assert (pt["conceptId"].value_counts() == 1).all()
    assert active_ids <= set(fsn["conceptId"])
    assert active_ids <= set(pt["conceptId"])
    # every FSN is "name (semantic tag)"; every active FSN is unique among active concepts
    fsn_terms = descriptions.loc[descriptions["typeId"] == gen.FSN_TYPE]
    assert fsn_terms["term"].str.fullmatch(r".+ \([^()]+\)").all()
    active_fsn = fsn_terms[fsn_terms["conceptId"].isin(active_ids)]["term"]
    assert active_fsn.is_unique
    # inactive descriptions only carry inactive language rows
    dead = merged[merged["active"] == "0"]
    assert (dead["active_lang"] == "0").all()
    assert (dead["typeId"] == gen.SYN_TYPE).all()


def test_associations(gen: ModuleType, tables: dict[str, pd.DataFrame]) -> None:
    concepts, assoc, descriptions = tables["concept"], tables["association"], tables["description"]
    status = dict(zip(concepts["id"], concepts["active"]))
    assert set(assoc["refsetId"]) <= {gen.POSSIBLY_EQUIVALENT_TO, gen.REPLACED_BY, gen.SAME_AS}
    assert assoc["refsetId"].nunique() == 3
    assert (assoc["referencedComponentId"].map(status) == "0").all()
    assert (assoc["targetComponentId"].map(status) == "1").all()
    inactive = set(concepts.loc[concepts["active"] == "0", "id"])
    assert set(assoc["referencedComponentId"]) == inactive
    assert assoc["referencedComponentId"].is_unique
    share = assoc["refsetId"].value_counts(normalize=True)
    assert share[gen.POSSIBLY_EQUIVALENT_TO] > share[gen.SAME_AS] > share[gen.REPLACED_BY]
    # each inactive concept keeps an active FSN, similar to (but not the same as) its target's
    fsn = descriptions[(descriptions["typeId"] == gen.FSN_TYPE) & (descriptions["active"] == "1")]
    fsn_of = dict(zip(fsn["conceptId"], fsn["term"]))
    assert all(c in fsn_of for c in inactive)
    same = sum(
        fsn_of[s].lower() == fsn_of[t].lower()
        for s, t in zip(assoc["referencedComponentId"], assoc["targetComponentId"])
    )
    assert same <= 0.05 * len(assoc)


def test_relationships(gen: ModuleType, tables: dict[str, pd.DataFrame]) -> None:
    concepts, rels = tables["concept"], tables["relationship"]
    status = dict(zip(concepts["id"], concepts["active"]))
    assert (rels["sourceId"].map(status) == "1").all()
    assert (rels["destinationId"].map(status) == "1").all()
    isa = rels[rels["typeId"] == gen.IS_A]
    active_ids = set(concepts.loc[concepts["active"] == "1", "id"])
    assert set(isa["sourceId"]) == active_ids - {gen.ROOT}
    per_concept = isa.groupby("sourceId").size()
    assert per_concept.max() <= 3
    assert not (isa["sourceId"] == isa["destinationId"]).any()
    attrs = rels[rels["typeId"] != gen.IS_A]
    assert gen.FINDING_SITE in set(attrs["typeId"])
    assert set(rels["characteristicTypeId"]) == {gen.INFERRED}


def test_term_statistics(gen: ModuleType, tables: dict[str, pd.DataFrame]) -> None:
    concepts, descriptions = tables["concept"], tables["description"]
    active_core = set(concepts.loc[(concepts["active"] == "1") & (concepts["moduleId"] == gen.CORE_MODULE), "id"])
    fsn = descriptions[(descriptions["typeId"] == gen.FSN_TYPE) & descriptions["conceptId"].isin(active_core)]
    names = fsn["term"].str.replace(r" \([^()]+\)$", "", regex=True)
    assert 30 <= names.str.len().mean() <= 50
    assert names.str.len().min() >= 3 and names.str.len().max() <= 250
    assert 0.85 <= names.str.contains(" ").mean() <= 0.98
    tags = fsn["term"].str.extract(r"\(([^()]+)\)$")[0].value_counts(normalize=True)
    assert tags.index[0] == "disorder"
    assert {"procedure", "finding", "body structure", "organism", "substance"} <= set(tags.index)
    # synonyms differ from their FSN name, with some case-only variants that termpairs must drop
    syn = descriptions[
        (descriptions["typeId"] == gen.SYN_TYPE)
        & descriptions["conceptId"].isin(active_core)
        & (descriptions["active"] == "1")
    ]
    name_of = dict(zip(fsn["conceptId"], names))
    differs = [t.lower() != name_of[c].lower() for c, t in zip(syn["conceptId"], syn["term"])]
    case_only = [t != name_of[c] and t.lower() == name_of[c].lower() for c, t in zip(syn["conceptId"], syn["term"])]
    assert 0.3 <= sum(differs) / len(active_core) <= 2.5
    assert sum(case_only) > 0


def test_benchmark_builds_the_chosen_datasets(release, tmp_path: Path) -> None:
    """bench/bench_termpairs.py on a small generated release: only the datasets asked for, balanced,
    and the exact search agrees with brute force on the subset (the script raises otherwise)."""
    spec = importlib.util.spec_from_file_location("bench_termpairs", ROOT / "bench" / "bench_termpairs.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = tmp_path / "termpairs.json"
    chosen = ["fsn_syn_hard_levenshtein", "same_as_easy_random"]
    code = bench.main(
        [
            "--release",
            str(release[0] / "Snapshot"),
            "--workers",
            "2",
            "--subset-terms",
            "400",
            "--subset-queries",
            "200",
            "--out",
            str(out),
            "--datasets",
            *chosen,
        ]
    )
    assert code == 0
    # One run (the release on this machine's kernel), in its own process.
    (report,) = json.loads(out.read_text(encoding="utf-8"))["runs"]
    assert report["status"] == "ok" and report["complete"]
    assert sorted(report["datasets"]) == sorted(chosen)
    for stats in report["datasets"].values():
        assert stats["positives"] == stats["negatives"] > 0
    assert report["subset"]["subset_queries"] == 200 and report["subset"]["pairs_brute"] == 400 * 200
    assert report["concepts"] == N_CONCEPTS
    # fsn_syn_hard_levenshtein took its first search from the joint FSN-SYN + SYN-SYN hard search.
    joint = report["joint_search"]["hard"]
    assert list(report["joint_search"]) == ["hard"]
    assert joint["queries_syn_syn"] <= joint["queries"] < joint["queries_fsn_syn"] + joint["queries_syn_syn"]
    assert joint["pairs_verified"] > 0 and report["joint_search_total_s"] >= 0
    with pytest.raises(SystemExit):
        bench.main(["--release", str(release[0] / "Snapshot"), "--datasets", "fsn_syn_medium_random"])


def test_kernel_benchmark_agrees_with_rapidfuzz(release, tmp_path: Path) -> None:
    """bench/bench_kernel.py on a small generated release: the kernel's distances equal cdist's (the
    script raises otherwise) for short, one-word and multi-word term lengths, and the report has them."""
    spec = importlib.util.spec_from_file_location("bench_kernel", ROOT / "bench" / "bench_kernel.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = tmp_path / "kernel.json"
    code = bench.main(
        ["--release", str(release[0] / "Snapshot"), "--lengths", "20", "40", "70", "--queries", "8", "--out", str(out)]
    )
    assert code == 0
    rows = json.loads(out.read_text(encoding="utf-8"))["rows"]
    assert [row["query_length"] for row in rows] == [20, 40, 70]
    for row in rows:
        assert row["pairs"] == 8 * row["pool_strings"] > 0
        assert row["kernel_ns_per_pair"] > 0 and row["ratio_cdist_over_kernel"] > 0
        # The screened pairs as the scan asks for them, on each kernel the machine has (same rows).
        assert row["screened_limit"] == row["query_length"] // 4 + 2
        assert 0 < row["screened_share_computed"] <= 1 and row["numba_screened_ns_per_pair"] > 0
        assert ("ratio_numba_over_avx512" in row) == (KERNEL == "avx512")
