"""Wiring of the wic stage: BioWiC word-in-context splits (Rouhizadeh et al., Scientific Data 2024).

select mentions -> candidate pairs by blocking -> test/dev/train -> validation (DESIGN.md § wic).
Rules: ``workflow/rules/wic.smk``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from biosem.corpora.schemas import SPLITS
from biosem.workflow import paths
from biosem.workflow.terminologies import restrict

# The keys of ``wic`` each rule reads (its params), so that editing another key reruns nothing.
CANDIDATE_KEYS = (
    "terminology",
    "corpus_synonym_min_documents",
    "abbreviation_min_tokens",
    "label_similarity_threshold",
    "max_pairs_per_block",
    "prune_relations",
    "prune_shared_codes",
)
SPLIT_KEYS = ("quotas", "quota_policy", "heldout_share", "train_sentence_cap", "balance_train")


class Wic:
    """The wic stage under ``config["wic"]``.

    Raises:
        ValueError: on construction, when ``wic.corpora`` names a corpus without a
            ``corpora.specs`` entry, or ``wic.terminology`` is not a terminology of format rrf.
    """

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.section: Mapping[str, Any] = config["wic"]
        self.corpora: list[str] = list(self.section["corpora"])
        self.mirror_dirs: list[str] = list(config["mirror_dirs"])
        specs = config["corpora"]["specs"]
        unknown = [c for c in self.corpora if c not in specs]
        if unknown:
            raise ValueError(
                f"config wic.corpora lists {', '.join(unknown)}, which have no entry in corpora.specs "
                f"(configured: {', '.join(sorted(specs))})."
            )
        name = self.section["terminology"]
        if name is not None and config["terminologies"].get(name, {}).get("format") != "rrf":
            raise ValueError(
                f"config wic.terminology: {name!r} must name a terminology of format rrf (UMLS), or be null"
            )
        self.terminology: str | None = name
        self.candidate_params = restrict(self.section, CANDIDATE_KEYS)
        self.split_params = restrict(self.section, SPLIT_KEYS)

    def _terminology_tables(self, *tables: str) -> dict[str, str]:
        """The UMLS terminology's intermediates by table name (none without a terminology)."""
        if self.terminology is None:
            return {}
        return {table: paths.intermediate(table, self.terminology) for table in tables}

    def select_inputs(self, wildcards: Any) -> dict[str, Any]:
        return {
            "sentences": [paths.intermediate("sentences", c) for c in self.corpora],
            "mentions": [paths.intermediate("mentions", c) for c in self.corpora],
            **self._terminology_tables("concepts", "mappings"),
        }

    def candidate_inputs(self, wildcards: Any) -> dict[str, Any]:
        return {
            "selected": paths.wic_work("selected"),
            "corpus_terms": paths.wic_work("corpus_terms"),
            **self._terminology_tables("terms", "relations", "mappings"),
        }

    def nltk_folders(self) -> list[str]:
        """Where WordNet is looked for after $NLTK_DATA: ``wic.nltk_data``, then <mirror>/nltk_data."""
        folders = [self.section["nltk_data"]] if self.section["nltk_data"] else []
        return folders + [os.path.join(m, "nltk_data") for m in self.mirror_dirs]

    @staticmethod
    def splits(ext: str, splits: tuple[str, ...] = SPLITS) -> list[str]:
        """The split files in format ``ext`` (json: the published format; parquet)."""
        return [paths.wic(split, ext) for split in splits]

    def targets(self) -> list[str]:
        return [
            *(paths.wic(split, ext) for split in SPLITS for ext in ("json", "parquet")),
            paths.wic("counts", "tsv"),
            paths.wic("candidate_counts", "tsv"),
            paths.wic("selection_counts", "tsv"),
            paths.wic("validation", "txt"),
        ]
