"""Scoring one model on each family's datasets: the steps the evaluate rules' scripts and ``biosem evaluate``
share (config section -> parameters, dataset files -> frames, seeded generators), so both give the same rows.

Config sections: ``evaluate.rated``, ``evaluate.termpairs``, ``evaluate.analogies``, ``evaluate.wic``
(config/README.md § evaluate); datasets as the workflow names them (``simlex999``, ``simlex/<name>``,
``termpairs/<t>/<dataset>``, ``analogies/<t>/<setting>``, ``wic/dev``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from biosem.evaluate.analogies import AnalogyParams, evaluate_analogy_datasets
from biosem.evaluate.benchmarks import read_rated_pairs
from biosem.evaluate.models import Representation
from biosem.evaluate.rated import RatedParams, evaluate_rated_datasets
from biosem.evaluate.schemas import ANALOGY_PREDICTIONS
from biosem.evaluate.termpairs import TermPairEvalParams
from biosem.evaluate.wic import evaluate_context_cosine
from biosem.io import read_table
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
    """Token -> count of the training corpora's token table (``token, count``)."""
    table = read_table(path, columns=["token", "count"])
    return dict(zip(table["token"], table["count"].astype(int)))


def score_rated(
    model: Representation,
    datasets: Mapping[str, pd.DataFrame],
    cfg: Mapping[str, Any],
    seed: int,
    token_counts: Mapping[str, int] | None = None,
) -> list[dict[str, object]]:
    """Result rows of ``model`` on rated datasets (:func:`biosem.evaluate.rated.evaluate_rated_datasets`)."""
    return evaluate_rated_datasets(model, datasets, rated_params(cfg), seed, token_counts)


def score_analogies(
    model: Representation,
    datasets: Mapping[str, str | Path],
    term_counts: Mapping[str, str | Path],
    params: AnalogyParams,
    workers: int = 1,
) -> tuple[list[dict[str, object]], pd.DataFrame]:
    """Rows and top-k predictions of ``model`` on analogy datasets (``analogies/<t>/<setting>`` -> Parquet),
    per terminology of ``term_counts`` (terminology -> its ``term_counts`` Parquet): the candidates are its
    terms counted at least ``candidate_min_count`` times, plus every term of its analogies."""
    rows: list[dict[str, object]] = []
    predictions = [pd.DataFrame(columns=ANALOGY_PREDICTIONS.schema.names)]
    for terminology, counts_path in term_counts.items():
        counts = read_table(counts_path, columns=["term", "count"])
        candidates = sorted(set(counts.loc[counts["count"] >= params.candidate_min_count, "term"]))
        log.info("%s: %d terms with count >= %d", terminology, len(candidates), params.candidate_min_count)
        frames = {
            name: read_table(path, columns=ANALOGY_COLUMNS)
            for name, path in datasets.items()
            if name.split("/")[1] == terminology
        }
        r, p = evaluate_analogy_datasets(model, frames, candidates, params, workers=workers)
        rows += r
        predictions.append(p)
    return rows, pd.concat(predictions, ignore_index=True)


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
