"""Wiring of the evaluate stage: which models and datasets the DAG evaluates, and rule inputs.

``workflow/rules/evaluate.smk`` builds one :class:`EvaluationPlan` at parse time from the config and
the other stages' target lists (every stage file is included before evaluate.smk), then binds the
input functions below with :func:`functools.partial`. A family is evaluated only when its producing
stage builds datasets: trained models need the corpora stage's documents of the training corpora;
analogy, WiC and biosem's own rated datasets are taken from the analogies, wic and agreement stages'
targets; term pairs from ``termpairs.terminologies``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

OUT = "results/evaluation"
ANALOGY_DATASET_PATH = re.compile(r"results/datasets/analogies/([^/]+)/([^/]+)\.parquet")
RATED_DATASET_PATH = re.compile(r"results/datasets/simlex/rated/([^/]+)\.parquet")
WIC_SPLITS = ("dev", "test")
PLOTS = {
    "analogies": "MAP per relation, method and model",
    "frequency_bands": "Spearman's rho per corpus-frequency band",
    "rated": "Spearman's rho per rated dataset and model (95% BCa intervals)",
    "termpairs": "AUC per term-pair dataset and model",
    "wic": "WiC accuracy per group and model",
}


def check_config(config: Mapping[str, Any]) -> None:
    """Stop with the config key to set when ``evaluate`` names unknown sources or a reserved model.

    Raises:
        ValueError: a benchmark's source is not a key of ``sources``, or a model is named ``random``.
    """
    evaluate = config["evaluate"]
    for name, spec in evaluate["benchmarks"].items():
        if spec["source"] not in config["sources"]:
            raise ValueError(f"config evaluate.benchmarks.{name}.source: {spec['source']!r} is not a key of `sources`")
    if "random" in evaluate["models"]:
        raise ValueError("config evaluate.models: 'random' is reserved for the WiC random baseline")


@dataclass(frozen=True)
class EvaluationPlan:
    """Everything the evaluate rules need, resolved once from the config and the other stages."""

    models: dict[str, dict[str, Any]]  # every configured model
    evaluated: list[str]  # models evaluated (trained ones only when their corpora are built)
    trained: list[str]
    training_documents: list[str]
    training_available: bool
    benchmarks: list[dict[str, Any]]  # name, source, format, member (sorted by name)
    benchmark_files: list[str]
    built_rated: dict[str, str]  # "simlex/<name>" -> Parquet
    termpair_datasets: dict[str, str]  # "termpairs/<t>/<dataset>" -> Parquet
    category_terminologies: list[str]
    analogy_datasets: dict[str, str]  # "analogies/<t>/<setting>" -> Parquet
    analogy_terminologies: list[str]
    wic_splits: list[str]  # dev, test Parquet (empty without a wic stage)
    seed: int


def evaluation_plan(
    config: Mapping[str, Any],
    source_file: Callable[[str], str],
    termpair_dataset_names: Sequence[str],
    corpora_targets: Sequence[str],
    analogies_targets: Sequence[str],
    agreement_targets: Sequence[str],
    wic_targets: Sequence[str],
) -> EvaluationPlan:
    """Resolve the plan (see the module docstring)."""
    evaluate = config["evaluate"]
    models = {k: dict(v) for k, v in evaluate["models"].items()}
    documents = [f"results/intermediate/documents/{c}.parquet" for c in evaluate["training"]["corpora"]]
    available = set(corpora_targets)
    can_train = all(d in available for d in documents)
    evaluated = sorted(n for n, s in models.items() if s["format"] != "train" or can_train)
    names = sorted(evaluate["benchmarks"])
    built_rated = {f"simlex/{m.group(1)}": p for p in agreement_targets if (m := RATED_DATASET_PATH.fullmatch(p))}
    analogy = {f"analogies/{m.group(1)}/{m.group(2)}": p for p in analogies_targets if (m := ANALOGY_DATASET_PATH.fullmatch(p))}
    wic = [f"results/datasets/wic/{s}.parquet" for s in WIC_SPLITS]
    return EvaluationPlan(
        models=models,
        evaluated=evaluated,
        trained=sorted(n for n, s in models.items() if s["format"] == "train"),
        training_documents=documents,
        training_available=can_train,
        benchmarks=[{"name": n, **evaluate["benchmarks"][n]} for n in names],
        benchmark_files=[source_file(evaluate["benchmarks"][n]["source"]) for n in names],
        built_rated=dict(sorted(built_rated.items())),
        termpair_datasets={
            f"termpairs/{t}/{d}": f"results/datasets/termpairs/{t}/{d}.parquet"
            for t in config["termpairs"]["terminologies"]
            for d in termpair_dataset_names
        },
        category_terminologies=sorted(t for t in evaluate["termpairs"]["categories"] if t in config["terminologies"]),
        analogy_datasets=dict(sorted(analogy.items())),
        analogy_terminologies=sorted({name.split("/")[1] for name in analogy}),
        wic_splits=wic if all(p in set(wic_targets) for p in wic) else [],
        seed=int(config["seed"]),
    )


def training_params(plan: EvaluationPlan, config: Mapping[str, Any], wildcards: Any) -> dict[str, Any]:
    """word2vec hyper-parameters of one trained model (:class:`biosem.evaluate.models.TrainingParams`)."""
    spec = plan.models[wildcards.model]
    params = {k: v for k, v in config["evaluate"]["training"].items() if k != "corpora"}
    return {**params, "sg": spec["sg"], "window": spec["window"], "seed": plan.seed}


def model_spec(plan: EvaluationPlan, wildcards: Any) -> dict[str, Any]:
    return plan.models[wildcards.model]


def model_input(plan: EvaluationPlan, wildcards: Any) -> str | list[str]:
    """The vector file of a model (nothing for a sentence encoder: it loads by name)."""
    spec = plan.models[wildcards.model]
    if spec["format"] == "train":
        return f"{OUT}/models/{wildcards.model}.bin"
    if spec["format"] == "sentence_transformers":
        return []
    return str(spec["path"])


def rated_inputs(plan: EvaluationPlan, wildcards: Any) -> dict[str, Any]:
    return {
        "model": model_input(plan, wildcards),
        "benchmarks": plan.benchmark_files,
        "built": list(plan.built_rated.values()),
        "token_counts": [f"{OUT}/models/token_counts.parquet"] if plan.training_available else [],
    }


def termpair_inputs(plan: EvaluationPlan, wildcards: Any) -> dict[str, Any]:
    tables = {
        table: [f"results/intermediate/{table}/{t}.parquet" for t in plan.category_terminologies]
        for table in ("concepts", "terms", "relations")
    }
    return {"model": model_input(plan, wildcards), "datasets": list(plan.termpair_datasets.values()), **tables}


def analogy_inputs(plan: EvaluationPlan, wildcards: Any) -> dict[str, Any]:
    return {
        "model": model_input(plan, wildcards),
        "datasets": list(plan.analogy_datasets.values()),
        "term_counts": [f"results/intermediate/term_counts/{t}.parquet" for t in plan.analogy_terminologies],
    }


def wic_inputs(plan: EvaluationPlan, wildcards: Any) -> dict[str, Any]:
    return {"model": model_input(plan, wildcards), "splits": plan.wic_splits}


def termpair_predictions(plan: EvaluationPlan) -> list[str]:
    return [f"{OUT}/termpairs/{m}.predictions.parquet" for m in plan.evaluated]


def evaluation_parts(plan: EvaluationPlan) -> list[str]:
    """Every per-family, per-model results table collected into the final table."""
    models = plan.evaluated
    parts = [f"{OUT}/rated/{m}.parquet" for m in models]
    if plan.termpair_datasets:
        parts += [f"{OUT}/termpairs/{m}.parquet" for m in models]
        if len(models) > 1:
            parts.append(f"{OUT}/termpairs/mcnemar.parquet")
    if plan.analogy_datasets:
        parts += [f"{OUT}/analogies/{m}.parquet" for m in models]
    if plan.wic_splits:
        parts += [f"{OUT}/wic/{m}.parquet" for m in models]
        parts.append(f"{OUT}/baselines/wic_random.parquet")
    return parts


def evaluation_targets(plan: EvaluationPlan) -> list[str]:
    """Outputs of the stage requested by ``rule all`` (none when no model can be evaluated)."""
    if not plan.evaluated:
        return []
    return [f"{OUT}/results.parquet", f"{OUT}/results.csv", *(f"{OUT}/plots/{p}.png" for p in sorted(PLOTS))]
