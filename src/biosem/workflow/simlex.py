"""Input and target lists of the simlex rules, computed from the config (``workflow/rules/simlex.smk``).

Kept in the library so the rule file holds only rules; none of these depends on wildcards.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

DATASETS = ("nouns", "verbs")


def optional_file(cfg: Mapping[str, Any], *keys: str) -> list[str]:
    """The path at ``cfg[keys[0]][keys[1]]...`` as a one-element list, or ``[]`` when it is null/absent."""
    value: Any = cfg
    for key in keys:
        value = value.get(key) if isinstance(value, Mapping) else None
    return [str(value)] if value else []


def nltk_folders(cfg: Mapping[str, Any], mirror_dirs: Sequence[str]) -> list[str]:
    """Where the tagger and WordNet are looked for after $NLTK_DATA: ``simlex.nltk_data``, then <mirror>/nltk_data."""
    folders = [str(cfg["nltk_data"])] if cfg.get("nltk_data") else []
    return folders + [os.path.join(m, "nltk_data") for m in mirror_dirs]


def sentence_tables(cfg: Mapping[str, Any]) -> list[str]:
    """Sentence intermediates of the corpora the vocabulary is counted on."""
    return [f"results/intermediate/sentences/{c}.parquet" for c in cfg["corpora"]]


def terminology_tables(cfg: Mapping[str, Any], table: str) -> list[str]:
    """The ``table`` intermediates (terms, relations) of the terminologies the resources read."""
    return [f"results/intermediate/{table}/{t}.parquet" for t in cfg["resources"]["terminologies"]]


def synonym_tables(cfg: Mapping[str, Any]) -> list[str]:
    """The configured synonym tables, in name order."""
    tables = cfg["resources"].get("synonym_tables") or {}
    return [str(tables[k]) for k in sorted(tables)]


def targets(cfg: Mapping[str, Any]) -> list[str]:
    """What `rule all` asks of the simlex stage."""
    name = cfg["vocabulary_name"]
    out = [
        f"results/intermediate/word_counts/{name}.parquet",
        "results/datasets/simlex/review/domains.csv",
        "results/datasets/simlex/vocabulary/frequency_correlation.tsv",
        "results/intermediate/usf/usf.parquet",
    ]
    for dataset in DATASETS:
        out += [
            f"results/datasets/simlex/{dataset}/pairs.parquet",
            f"results/datasets/simlex/{dataset}/counts.tsv",
            f"results/datasets/simlex/survey/{dataset}/design.tsv",
        ]
    return out
