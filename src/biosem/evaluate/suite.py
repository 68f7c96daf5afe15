"""Scoring one model on each family's datasets: the steps the evaluate rules' scripts and ``biosem evaluate``
share (config section -> parameters, dataset files -> frames, seeded generators), so both give the same rows;
and :func:`evaluate_models`, ``biosem evaluate``'s scoring of several models on a catalogue of built datasets.

Config sections: ``evaluate.rated``, ``evaluate.termpairs``, ``evaluate.analogies``, ``evaluate.wic``
(config/README.md § evaluate); datasets as the workflow names them (``simlex999``, ``simlex/<name>``,
``termpairs/<t>/<dataset>``, ``analogies/<t>/<setting>``, ``wic/dev``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from biosem.evaluate import COVERAGE_WARNING
from biosem.evaluate.analogies import AnalogyParams, analogy_phrases, candidate_key, evaluate_analogy_datasets
from biosem.evaluate.benchmarks import read_rated_pairs
from biosem.evaluate.catalogue import Catalogue
from biosem.evaluate.encoders import EmbeddingTable, encode_distinct
from biosem.evaluate.models import Representation, SentenceEncoder, load_representation
from biosem.evaluate.rated import METRIC, RatedParams, evaluate_rated_datasets
from biosem.evaluate.results import collect, coverage_summary, coverage_warnings, dataset_coverage, results_frame
from biosem.evaluate.schemas import ANALOGY_PREDICTIONS
from biosem.evaluate.termpairs import CategoryParams, TermPairEvalParams, category_terms, evaluate_termpair_datasets
from biosem.evaluate.wic import context_strings, evaluate_context_cosine
from biosem.io import ParquetTables, read_table
from biosem.report.tables import text_table
from biosem.seeds import generator

log = logging.getLogger(__name__)

ANALOGY_COLUMNS = ["relation", "a_term", "b_terms", "c_term", "d_terms"]
"""The columns of an analogy dataset Parquet the scoring reads."""


def rated_params(cfg: Mapping[str, Any]) -> RatedParams:
    """:class:`RatedParams` from config ``evaluate.rated``."""
    return RatedParams(**{**cfg, "frequency_bands": tuple(cfg["frequency_bands"])})


def termpair_params(cfg: Mapping[str, Any]) -> TermPairEvalParams:
    """:class:`TermPairEvalParams` from config ``evaluate.termpairs`` (its ``categories`` are read apart)."""
    return TermPairEvalParams(
        similarities=tuple(cfg["similarities"]),
        require_all_words=cfg["require_all_words"],
        n_resamples=cfg["n_resamples"],
        confidence_level=cfg["confidence_level"],
    )


def analogy_params(cfg: Mapping[str, Any]) -> AnalogyParams:
    """:class:`AnalogyParams` from config ``evaluate.analogies``."""
    return AnalogyParams(
        methods=tuple(cfg["methods"]),
        top_k=cfg["top_k"],
        block_mb=cfg["block_mb"],
        candidate_min_count=cfg["candidate_min_count"],
        require_all_words=cfg["require_all_words"],
    )


def read_rated_datasets(
    benchmarks: Iterable[tuple[Mapping[str, Any], str | Path]], built: Iterable[tuple[str, str | Path]]
) -> dict[str, pd.DataFrame]:
    """Rated pairs by dataset name: external benchmarks (``(spec, file)``, spec of config
    ``evaluate.benchmarks`` with its ``name``) and biosem's rated datasets (``(name, Parquet)``).

    Raises:
        SourceFormatError: see :func:`biosem.evaluate.benchmarks.read_rated_pairs`.
    """
    datasets = {spec["name"]: read_rated_pairs(path, spec["format"], spec.get("member")) for spec, path in benchmarks}
    datasets.update({name: read_rated_pairs(path, "parquet") for name, path in built})
    for name, pairs in sorted(datasets.items()):
        log.info("%s: %d pairs", name, len(pairs))
    return datasets


def read_token_counts(path: str | Path) -> dict[str, int]:
    """Token -> count of a frequency-band corpus's token table (``token, count``; rule count_frequency_tokens)."""
    table = read_table(path, columns=["token", "count"])
    return dict(zip(table["token"], table["count"].astype(int)))


def score_rated(
    model: Representation,
    datasets: Mapping[str, pd.DataFrame],
    cfg: Mapping[str, Any],
    seed: int,
    token_counts: Mapping[str, int] | None = None,
    band_corpus: str | None = None,
) -> list[dict[str, object]]:
    """Result rows of ``model`` on rated datasets (:func:`biosem.evaluate.rated.evaluate_rated_datasets`);
    ``band_corpus`` names the corpus of ``token_counts`` in the frequency-band rows' ``corpus`` column."""
    return evaluate_rated_datasets(model, datasets, rated_params(cfg), seed, token_counts, band_corpus=band_corpus)


def analogy_inputs(
    datasets: Mapping[str, str | Path], term_counts: Mapping[str, str | Path], candidate_min_count: int
) -> Iterator[tuple[str, dict[str, pd.DataFrame], list[str]]]:
    """Per terminology of ``term_counts`` (terminology -> its ``term_counts`` Parquet): its analogy datasets
    (``analogies/<t>/<setting>`` -> frame, from ``datasets`` name -> Parquet) and its candidate terms, those
    counted at least ``candidate_min_count`` times (sorted)."""
    for terminology, counts_path in term_counts.items():
        counts = read_table(counts_path, columns=["term", "count"])
        candidates = sorted(set(counts.loc[counts["count"] >= candidate_min_count, "term"]))
        log.info("%s: %d terms with count >= %d", terminology, len(candidates), candidate_min_count)
        frames = {
            name: read_table(path, columns=ANALOGY_COLUMNS)
            for name, path in datasets.items()
            if name.split("/")[1] == terminology
        }
        yield terminology, frames, candidates


def score_analogies(
    model: Representation,
    datasets: Mapping[str, str | Path],
    term_counts: Mapping[str, str | Path],
    params: AnalogyParams,
    workers: int = 1,
) -> tuple[list[dict[str, object]], pd.DataFrame]:
    """Rows and top-k predictions of ``model`` on analogy datasets (``analogies/<t>/<setting>`` -> Parquet),
    per terminology of ``term_counts`` (:func:`analogy_inputs`); every term of the analogies is a candidate too."""
    rows: list[dict[str, object]] = []
    predictions = [pd.DataFrame(columns=ANALOGY_PREDICTIONS.schema.names)]
    for _, frames, candidates in analogy_inputs(datasets, term_counts, params.candidate_min_count):
        r, p = evaluate_analogy_datasets(model, frames, candidates, params, workers=workers)
        rows += r
        predictions.append(p)
    return rows, pd.concat(predictions, ignore_index=True)


def category_samples(
    cfg: Mapping[str, Any],
    tables: Iterable[tuple[str, str | Path, str | Path, str | Path]],
    seed: int,
    termpair_config: Mapping[str, Any],
) -> list[tuple[str, pd.DataFrame, CategoryParams]]:
    """Per terminology of ``tables`` (``(terminology, concepts, terms, relations)`` Parquets): the category
    sample (:func:`biosem.evaluate.termpairs.category_terms`, generator (seed, "evaluate", "categories",
    terminology)) and its :class:`CategoryParams` (config ``evaluate.termpairs.categories.<t>`` as ``cfg[t]``)."""
    out = []
    for terminology, concepts, terms, relations in tables:
        params = CategoryParams(**{**cfg[terminology], "parent_rels": tuple(cfg[terminology]["parent_rels"])})
        sample = category_terms(
            read_table(concepts),
            read_table(terms),
            read_table(relations),
            params,
            generator(seed, "evaluate", "categories", terminology),
            termpair_config,
        )
        out.append((terminology, sample, params))
    return out


def score_wic(
    model: Representation, dev: pd.DataFrame, test: pd.DataFrame, cfg: Mapping[str, Any], seed: int
) -> list[dict[str, object]]:
    """Rows of ``model`` on WiC dev/test (:func:`biosem.evaluate.wic.evaluate_context_cosine`, config
    ``evaluate.wic``); bootstrap generators seeded from (seed, "evaluate", "wic", model, key)."""
    log.info("WiC dev %d, test %d instances", len(dev), len(test))
    return evaluate_context_cosine(
        model,
        dev,
        test,
        cfg["window"],
        lambda key: generator(seed, "evaluate", "wic", model.name, key),
        cfg["n_resamples"],
        cfg["confidence_level"],
    )


def encoder_strings(
    encoder: Representation,
    rated: Mapping[str, pd.DataFrame] | None = None,
    termpairs: Mapping[str, pd.DataFrame] | None = None,
    categories: Iterable[pd.DataFrame] = (),
    analogies: Iterable[tuple[Mapping[str, pd.DataFrame], Sequence[str]]] = (),
    wic: Iterable[pd.DataFrame] = (),
    wic_window: int = 0,
) -> set[str]:
    """Every string a sentence encoder is asked to encode when scored on these datasets (what its
    ``phrase_vectors`` receives): rated items (``word1``, ``word2``), term-pair terms (``term1``, ``term2``),
    category sample terms (``term``), analogy candidate keys (:func:`biosem.evaluate.analogies.candidate_key` of
    :func:`biosem.evaluate.analogies.analogy_phrases`, from ``(frames, candidates)`` per terminology) and WiC
    contexts (:func:`biosem.evaluate.wic.context_strings` with ``wic_window``) of each split."""
    strings: set[str] = set()
    for pairs in (rated or {}).values():
        strings.update(pairs["word1"], pairs["word2"])
    for name in termpairs or {}:
        pairs = termpairs[name]
        strings.update(pairs["term1"], pairs["term2"])
    for sample in categories:
        strings.update(sample["term"])
    for frames, candidates in analogies:
        keys = {candidate_key(encoder, p) for p in analogy_phrases(frames, candidates)}
        strings.update(k for k in keys if k)
    for split in wic:
        for contexts in context_strings(split, wic_window):
            strings.update(contexts)
    return strings


def log_coverage(rows: Iterable[Mapping[str, object]] | pd.DataFrame, threshold: float = COVERAGE_WARNING) -> None:
    """Log what each model scored of each dataset of result ``rows`` (result-row dicts or a results table):
    one line per (model, dataset) with its family, the items scored and the coverage
    (:func:`biosem.evaluate.results.dataset_coverage`), then a WARNING line ``WARNING: <model> covers <x> of
    <dataset>`` per dataset covered below ``threshold`` (:func:`biosem.evaluate.results.coverage_warnings`),
    the lines ``biosem evaluate`` prints."""
    frame = rows if isinstance(rows, pd.DataFrame) else results_frame(rows)
    for r in dataset_coverage(frame).itertuples(index=False):
        log.info("%s on %s (%s): %d items scored, coverage %.3f", r.model, r.dataset, r.family, r.n, r.coverage)
    for line in coverage_warnings(frame, threshold):
        log.warning("%s", line)


def evaluate_models(
    models: Mapping[str, Mapping[str, Any]],
    catalogue: Catalogue,
    benchmarks: Sequence[tuple[Mapping[str, Any], str | Path]],
    section: Mapping[str, Any],
    seed: int,
) -> pd.DataFrame:
    """Score each model (name -> spec, as config ``evaluate.models``) on the external rated benchmarks
    (``(spec with its "name", file)``, :func:`biosem.evaluate.catalogue.find_benchmarks`) and the datasets of
    ``catalogue`` (those built: :meth:`Catalogue.built`), with the parameters of config ``evaluate`` (``section``)
    and ``seed``, as the evaluate rules score them; term-pair category separation is not scored. A sentence
    encoder encodes each distinct string of these datasets once (:func:`encoders.encode_distinct`, as rule
    encode_strings does).

    Returns the tidy results table (:data:`biosem.evaluate.results.RESULTS`, sorted).

    Raises:
        ValueError: a model cannot be loaded (a sentence encoder without sentence-transformers or weights).
        SourceFormatError, FileNotFoundError: a vector or dataset file cannot be read.
    """
    rated = read_rated_datasets(benchmarks, catalogue.rated.items())
    token_counts = read_token_counts(catalogue.token_counts) if rated and catalogue.token_counts else None
    termpairs = ParquetTables(catalogue.termpairs, columns=["term1", "term2", "label"])
    analogies = list(
        analogy_inputs(catalogue.analogies, catalogue.term_counts, section["analogies"]["candidate_min_count"])
    )
    wic = [read_table(catalogue.wic[f"wic/{s}"]) for s in ("dev", "test")] if catalogue.wic else []
    frames = []
    for name, spec in models.items():
        model = load_representation(name, spec)
        if model is None:
            raise ValueError(f"model {name}: the sentence encoder {spec['model']} could not be loaded (logged above)")
        if isinstance(model, SentenceEncoder):  # each distinct string encoded once, as rule encode_strings does
            strings = encoder_strings(
                model, rated, termpairs, (), [(f, c) for _, f, c in analogies], wic, section["wic"]["window"]
            )
            model = EmbeddingTable.from_arrow(name, encode_distinct(model, strings))
        rows: list[dict[str, object]] = []
        if rated:
            rows += score_rated(model, rated, section["rated"], seed, token_counts, catalogue.band_corpus)
        if termpairs:
            rows += evaluate_termpair_datasets(model, termpairs, termpair_params(section["termpairs"]), seed)[0]
        for _, datasets, candidates in analogies:
            rows += evaluate_analogy_datasets(model, datasets, candidates, analogy_params(section["analogies"]))[0]
        if wic:
            rows += score_wic(model, wic[0], wic[1], section["wic"], seed)
        frames.append(results_frame(rows))
    return collect(frames)


def format_summary(results: pd.DataFrame) -> str:
    """What each model scored, for every family, as ``biosem evaluate`` prints it (aligned text,
    :func:`biosem.report.tables.text_table`): per model and family the datasets scored, the items scored (the sum
    of their ``n``) and the range of their coverage (:func:`biosem.evaluate.results.dataset_coverage`); the same
    per model and group of datasets outside the rated family (a terminology's term pairs or analogies, the
    category separation, the WiC splits); then Spearman's rho, n and coverage of every rated dataset (subset
    ``all``). ``"no results\\n"`` for an empty table."""
    if results.empty:
        return "no results\n"
    coverage = dataset_coverage(results)
    coverage["group"] = coverage["dataset"].str.rsplit("/", n=1).str[0]

    def rows(frame: pd.DataFrame, by: list[str]) -> list[tuple[object, ...]]:
        return [
            (*(getattr(r, c) for c in by), r.datasets, f"{r.n:,}", _coverage_range(r.coverage_min, r.coverage_max))
            for r in coverage_summary(frame, by).itertuples(index=False)
        ]

    header = ("datasets", "items scored", "coverage")
    lines = text_table([("model", "family", *header), *rows(coverage, ["model", "family"])])
    grouped = coverage[coverage["family"] != "rated"]
    if len(grouped):
        lines += ["", *text_table([("model", "datasets of", *header), *rows(grouped, ["model", "group"])])]
    rated = results[(results["metric"] == METRIC) & (results["subset"] == "all")]
    if len(rated):
        lines += [""]
        lines += text_table(
            [("model", "dataset", "rho", "n", "coverage")]
            + [(r.model, r.dataset, f"{r.value:.4f}", r.n, f"{r.coverage:.3f}") for r in rated.itertuples(index=False)]
        )
    return "\n".join(lines) + "\n"


def _coverage_range(low: float, high: float) -> str:
    """A coverage range as the summary prints it: ``1.000``, or ``0.065-0.118``."""
    return f"{low:.3f}" if f"{low:.3f}" == f"{high:.3f}" else f"{low:.3f}-{high:.3f}"
