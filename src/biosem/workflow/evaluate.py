"""Wiring of the evaluate stage: which models and datasets the DAG evaluates, and rule inputs.

One :class:`Evaluate` is made at parse time from the config and the other stages' built datasets
(:class:`biosem.workflow.plan.Plan`); its methods taking ``wildcards`` are input and params
functions of ``workflow/rules/evaluate.smk``. A family is evaluated only when its producing stage
builds datasets: trained models need the corpora stage's documents of the training corpora. A model
set to null in the config (``evaluate.models.sg_w2: null`` in an overlay) is not evaluated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from biosem.evaluate.catalogue import Catalogue
from biosem.evaluate.families import table_names
from biosem.layout import outputs, paths
from biosem.workflow.params import pick

WIC_SPLITS = ("dev", "test")
TRAINING = "training"  # evaluate.rated.frequency_corpus: the corpora of evaluate.training

TERMPAIR_TABLES = ("concepts", "terms", "relations")

TRAINING_KEYS = ("vector_size", "min_count", "epochs", "negative", "sample", "alpha", "min_alpha")
"""The keys of ``evaluate.training`` a trained model reads (:class:`biosem.evaluate.models.TrainingParams`;
``corpora`` is its input)."""
WIC_RANDOM_KEYS = ("n_resamples", "confidence_level")
"""The keys of ``evaluate.wic`` the random baseline reads (no vectors, so no ``window``)."""


def frequency_corpora(section: Mapping[str, Any]) -> list[str]:
    """The corpora whose token counts define the frequency bands (config ``evaluate``): those of
    ``training.corpora`` for ``rated.frequency_corpus: training``, else that one corpus. Joined by ``+``
    they name the band corpus in the results table's ``corpus`` column."""
    corpus = section["rated"]["frequency_corpus"]
    return list(section["training"]["corpora"]) if corpus == TRAINING else [corpus]


def check_config(config: Mapping[str, Any]) -> None:
    """Stop with the config key to set when ``evaluate`` names unknown sources or corpora, a reserved
    model, or removes every model.

    Raises:
        ValueError: a benchmark's source is not a key of ``sources``; a model is named ``random``;
            ``evaluate.models`` has entries and all are null (an overlay removed every model: nothing
            would be evaluated; a config without evaluation says ``models: {}``);
            ``evaluate.rated.frequency_corpus`` is neither ``training`` nor a key of ``corpora.specs``.
    """
    evaluate = config["evaluate"]
    for name, spec in evaluate["benchmarks"].items():
        if spec["source"] not in config["sources"]:
            raise ValueError(f"config evaluate.benchmarks.{name}.source: {spec['source']!r} is not a key of `sources`")
    models = evaluate["models"]
    if models.get("random") is not None:
        raise ValueError("config evaluate.models: 'random' is reserved for the WiC random baseline")
    if models and all(spec is None for spec in models.values()):
        removed = ", ".join(f"evaluate.models.{n}" for n in sorted(models))
        raise ValueError(
            f"config evaluate.models: every model is null (removed: {removed}); keep at least one model, "
            "or set `evaluate.models: {}` in the main config to evaluate nothing"
        )
    corpus = evaluate["rated"]["frequency_corpus"]
    if corpus != TRAINING and corpus not in config["corpora"]["specs"]:
        raise ValueError(
            f"config evaluate.rated.frequency_corpus: {corpus!r} is neither {TRAINING!r} nor a key of "
            f"`corpora.specs` ({', '.join(sorted(config['corpora']['specs']))})"
        )


class Evaluate:
    """Models x datasets of this run, resolved once from the config and the producing stages.

    Args:
        config: the validated workflow config.
        corpora: names of the corpora the corpora stage ingests.
        termpair_datasets: ``"termpairs/<t>/<dataset>"`` -> Parquet of the built term-pair datasets.
        analogy_datasets: ``"analogies/<t>/<setting>"`` -> Parquet of the built analogy datasets.
        rated_datasets: ``"simlex/<name>"`` -> Parquet of the rated datasets aggregated here.
        wic_built: whether the wic stage builds its splits.

    Raises:
        ValueError: see :func:`check_config`; ``evaluate.rated.frequency_corpus`` names a corpus the
            corpora stage does not ingest.
    """

    def __init__(
        self,
        config: Mapping[str, Any],
        corpora: Sequence[str],
        termpair_datasets: Mapping[str, str],
        analogy_datasets: Mapping[str, str],
        rated_datasets: Mapping[str, str],
        wic_built: bool,
    ) -> None:
        check_config(config)
        section = config["evaluate"]
        self.section: Mapping[str, Any] = section
        self.seed = int(config["seed"])
        self.models: dict[str, dict[str, Any]] = {k: dict(v) for k, v in section["models"].items() if v is not None}
        self.training_corpora: list[str] = list(section["training"]["corpora"])
        self.training_documents = [paths.intermediate("documents", c) for c in self.training_corpora]
        self.training_available = all(c in set(corpora) for c in self.training_corpora)
        frequency_corpus = section["rated"]["frequency_corpus"]
        if frequency_corpus != TRAINING and frequency_corpus not in set(corpora):
            raise ValueError(
                f"config evaluate.rated.frequency_corpus: {frequency_corpus!r} is not ingested by the corpora "
                f"stage (corpora.build: {sorted(corpora)})"
            )
        # Corpora whose token counts define the frequency bands, and the name of that corpus in the table.
        self.frequency_corpora = frequency_corpora(section)
        self.frequency_documents = [paths.intermediate("documents", c) for c in self.frequency_corpora]
        self.frequency_available = all(c in set(corpora) for c in self.frequency_corpora)
        self.band_corpus = "+".join(self.frequency_corpora)
        self.trained = sorted(n for n, s in self.models.items() if s["format"] == "train")
        self.evaluated = sorted(n for n, s in self.models.items() if s["format"] != "train" or self.training_available)
        self.encoders = sorted(n for n, s in self.models.items() if s["format"] == "sentence_transformers")
        names = sorted(section["benchmarks"])
        self.benchmarks = [{"name": n, **section["benchmarks"][n]} for n in names]
        self.benchmark_files = [
            paths.source(s["source"], config["sources"][s["source"]]["filename"]) for s in self.benchmarks
        ]
        self.benchmark_checksums = paths.checksums(self.benchmark_files)  # re-checked by evaluate_rated_pairs
        self.built_rated = dict(sorted(rated_datasets.items()))
        self.termpair_datasets = dict(termpair_datasets)
        self.category_terminologies = sorted(
            t for t in section["termpairs"]["categories"] if t in config["terminologies"]
        )
        self.analogy_datasets = dict(sorted(analogy_datasets.items()))
        self.analogy_terminologies = sorted({name.split("/")[1] for name in self.analogy_datasets})
        self.wic_splits = [outputs.wic_split.path(split=s) for s in WIC_SPLITS] if wic_built else []
        # The category terminologies an encoder's strings are collected from (none when no term pairs are scored).
        self.encoded_categories = self.category_terminologies if self.termpair_datasets else []
        # The names of the built datasets, in the order of their input files.
        self.rated_names = list(self.built_rated)
        self.termpair_names = list(self.termpair_datasets)
        self.analogy_names = list(self.analogy_datasets)
        # The settings of each family's scores: the sub-sections their scripts read whole, and the keys the
        # random WiC baseline and the sentence encoder read.
        self.rated_params: Mapping[str, Any] = section["rated"]
        self.termpair_params: Mapping[str, Any] = section["termpairs"]
        self.analogy_params: Mapping[str, Any] = section["analogies"]
        self.wic_params: Mapping[str, Any] = section["wic"]
        self.wic_random_params = pick(section["wic"], WIC_RANDOM_KEYS)
        self.categories: Mapping[str, Any] = section["termpairs"]["categories"]
        self.candidate_min_count: int = section["analogies"]["candidate_min_count"]
        self.wic_window: int = section["wic"]["window"]

    def catalogue(self) -> Catalogue:
        """The datasets the evaluate rules score under this config, built or not (:meth:`Catalogue.built` keeps
        those that exist): the rated datasets of the rating sets, the term-pair datasets of the termpairs
        terminologies, the analogy datasets (with the term counts) of the analogies terminologies, the WiC dev
        and test splits when the wic stage builds them, and the token counts of the frequency bands."""
        return Catalogue(
            rated=self.built_rated,
            termpairs=dict(sorted(self.termpair_datasets.items())),
            analogies=self.analogy_datasets,
            term_counts={t: paths.intermediate("term_counts", t) for t in self.analogy_terminologies},
            wic={f"wic/{split}": path for split, path in zip(WIC_SPLITS, self.wic_splits)},
            token_counts=self.token_counts(),
            band_corpus=self.band_corpus,
        )

    # --- params ---------------------------------------------------------------------------------

    def training_params(self, wildcards: Any) -> dict[str, Any]:
        """word2vec hyper-parameters of one trained model (:class:`biosem.evaluate.models.TrainingParams`)."""
        spec = self.models[wildcards.model]
        params = pick(self.section["training"], TRAINING_KEYS)
        return {**params, "sg": spec["sg"], "window": spec["window"], "seed": self.seed}

    def model_spec(self, wildcards: Any) -> dict[str, Any]:
        return self.models[wildcards.model]

    # --- inputs ---------------------------------------------------------------------------------

    def model_input(self, wildcards: Any) -> str:
        """The vectors of a model: its vector file, or a sentence encoder's embedding table (rule encode_strings)."""
        spec = self.models[wildcards.model]
        if spec["format"] == "train":
            return outputs.model_vectors.path(model=wildcards.model)
        if spec["format"] == "sentence_transformers":
            return self.embeddings(wildcards.model)
        return str(spec["path"])

    def embeddings(self, model: str) -> str:
        """The embedding table of a sentence encoder: each distinct string of its datasets, encoded once."""
        return outputs.model_embeddings.path(model=model)

    def encode_inputs(self, wildcards: Any) -> dict[str, Any]:
        """Every dataset a sentence encoder is scored on (:meth:`parts`): the inputs of its evaluate rules but
        the model, named ``benchmarks``, ``built`` (rated), ``termpairs`` (+ ``concepts``, ``terms``,
        ``relations`` of the category terminologies), ``analogies`` (+ ``term_counts``), ``splits`` (WiC)."""
        rated = self.rated_inputs(wildcards)
        termpairs = self.termpair_inputs(wildcards) if self.termpair_datasets else {}
        analogies = self.analogy_inputs(wildcards) if self.analogy_datasets else {}
        return {
            "benchmarks": rated["benchmarks"],
            "built": rated["built"],
            "termpairs": termpairs.get("datasets", []),
            **{table: termpairs.get(table, []) for table in TERMPAIR_TABLES},
            "analogies": analogies.get("datasets", []),
            "term_counts": analogies.get("term_counts", []),
            "splits": self.wic_splits,
        }

    def token_counts(self) -> str:
        return outputs.token_counts.template

    def rated_inputs(self, wildcards: Any) -> dict[str, Any]:
        return {
            "model": self.model_input(wildcards),
            "benchmarks": self.benchmark_files,
            "built": list(self.built_rated.values()),
            "token_counts": [self.token_counts()] if self.frequency_available else [],
        }

    def termpair_inputs(self, wildcards: Any) -> dict[str, Any]:
        tables = {
            table: [paths.intermediate(table, t) for t in self.category_terminologies] for table in TERMPAIR_TABLES
        }
        return {
            "model": self.model_input(wildcards),
            "datasets": list(self.termpair_datasets.values()),
            **tables,
        }

    def analogy_inputs(self, wildcards: Any) -> dict[str, Any]:
        return {
            "model": self.model_input(wildcards),
            "datasets": list(self.analogy_datasets.values()),
            "term_counts": [paths.intermediate("term_counts", t) for t in self.analogy_terminologies],
        }

    def wic_inputs(self, wildcards: Any) -> dict[str, Any]:
        return {"model": self.model_input(wildcards), "splits": self.wic_splits}

    def termpair_predictions(self) -> list[str]:
        return [outputs.termpair_predictions.path(model=m) for m in self.evaluated]

    def parts(self) -> list[str]:
        """Every per-family, per-model results table collected into the final table."""
        models = self.evaluated
        out = [outputs.rated_scores.path(model=m) for m in models]
        if self.termpair_datasets:
            out += [outputs.termpair_scores.path(model=m) for m in models]
            if len(models) > 1:
                out.append(outputs.termpair_model_comparison.template)
        if self.analogy_datasets:
            out += [outputs.analogy_scores.path(model=m) for m in models]
        if self.wic_splits:
            out += [outputs.wic_scores.path(model=m) for m in models]
            out.append(outputs.wic_random_scores.template)
        return out

    @property
    def result_tables(self) -> list[str]:
        """The parts of the results table the report shows (:func:`biosem.evaluate.families.table_names`):
        rated, the term pairs (with category separation) and the analogies of each terminology scored, WiC."""
        termpairs = {name.split("/")[1] for name in self.termpair_datasets} | set(self.encoded_categories)
        return table_names(sorted(termpairs), self.analogy_terminologies, wic=bool(self.wic_splits))

    def result_table_files(self) -> list[str]:
        """Outputs of ``split_evaluation_results``, in :attr:`result_tables` order."""
        return [outputs.evaluation_results_table.path(results_table=t) for t in self.result_tables]

    def built(self) -> list[outputs.Built]:
        """The declared outputs ``rule all`` asks of the stage (:mod:`biosem.layout.outputs`: the results
        table, its parts for the report and its plots), none when no model can be evaluated."""
        return outputs.expand("evaluate", results_table=self.result_tables) if self.evaluated else []

    def targets(self) -> list[str]:
        """Outputs requested by ``rule all`` (none when no model can be evaluated)."""
        return [b.path for b in self.built()]
