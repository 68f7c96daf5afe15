"""Wiring of the wic stage: BioWiC word-in-context splits (Rouhizadeh et al., Scientific Data 2024).

select mentions -> candidate pairs by blocking -> test/dev/train -> validation (docs/design.md § wic).
Rules: ``workflow/rules/wic.smk``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from biosem.corpora.formats import NOTICE_TABLE, has_notices
from biosem.corpora.schemas import SPLITS
from biosem.layout import outputs, paths
from biosem.workflow.params import pick

OWN_NAMESPACE = {"rrf": "UMLS"}
"""Corpus id namespace whose ids are the concept ids of a terminology format (UMLS CUIs in MedMentions)."""

RECORD_COLUMN = {"mesh": "module"}
"""Column of a terminology format's ``concepts`` that names the record holding a concept (MeSH: the
descriptor or supplementary record UI), for the ``record`` link test of ``wic.negative_links``."""

# The keys of ``wic`` each rule reads (its params), so that editing another key reruns nothing. Keys
# configured per terminology (code_systems, prune_relations, abbreviation_ttys) are passed resolved: the
# entry of ``wic.terminology`` only.
SELECT_KEYS = (
    "corpora",
    "terminology",
    "keep_unmapped",
    "supplementary_records",
    "permitted_notices",
    "abbreviation_definitions",
    "word_boundary_targets",
)
CANDIDATE_KEYS = (
    "terminology",
    "synonym_scopes",
    "corpus_synonym_min_documents",
    "abbreviation_min_tokens",
    "label_similarity_threshold",
    "max_pairs_per_block",
    "prune_shared_codes",
    "negative_links",
    "gene_family_namespaces",
)
SPLIT_KEYS = ("quotas", "quota_policy", "min_stratum", "heldout_share", "train_sentence_cap", "balance_train")
PER_TERMINOLOGY_KEYS = ("code_systems", "prune_relations")
"""Keys that need an entry for ``wic.terminology`` (``abbreviation_ttys`` defaults to none); a namespace
terminology (``wic.namespace_terminologies``) needs one in ``prune_relations``."""


class Wic:
    """The wic stage under ``config["wic"]``.

    Raises:
        ValueError: on construction, when ``wic.corpora`` names a corpus without a
            ``corpora.specs`` entry, or ``wic.terminology`` a terminology that is not configured or has no entry in
            ``wic.code_systems`` / ``wic.prune_relations``, or ``wic.namespace_terminologies`` a
            terminology that is not configured, has no ``wic.prune_relations`` entry, or a namespace the
            main terminology already unifies (its ``code_systems``, or its own namespace), or
            ``quota_policy: balanced`` is set with ``balance_train: false``.
    """

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.section: Mapping[str, Any] = config["wic"]
        self.corpora: list[str] = list(self.section["corpora"])
        self.seed: int = config["seed"]
        self.train_sentence_cap: int = self.section["train_sentence_cap"]
        """Params of ``validate_wic``: the times a sentence may appear in train."""
        self.mirror_dirs: list[str] = list(config["mirror_dirs"])
        specs = config["corpora"]["specs"]
        unknown = [c for c in self.corpora if c not in specs]
        if unknown:
            raise ValueError(
                f"config wic.corpora lists {', '.join(unknown)}, which have no entry in corpora.specs "
                f"(configured: {', '.join(sorted(specs))})."
            )
        if self.section["quota_policy"] == "balanced" and not self.section["balance_train"]:
            raise ValueError(
                "config wic.quota_policy balanced balances every split per group, train included: "
                "set wic.balance_train: true, or choose another quota_policy (config/README.md § wic)"
            )
        # entries for corpora not in wic.corpora are ignored (a preset with other corpora keeps the default's)
        mention_types = {c: list(t) for c, t in self.section["mention_types"].items() if c in self.corpora}
        name = self.section["terminology"]
        self.terminology: str | None = name
        self.terminology_format: str | None = None
        resolved: dict[str, Any] = {"code_systems": {}, "prune_relations": [], "abbreviation_ttys": []}
        if name is not None:
            if name not in config["terminologies"]:
                raise ValueError(
                    f"config wic.terminology: {name!r} is not a configured terminology "
                    f"(configured: {', '.join(sorted(config['terminologies']))}), or set it to null"
                )
            self.terminology_format = config["terminologies"][name]["format"]
            for key in PER_TERMINOLOGY_KEYS:
                if name not in self.section[key]:
                    raise ValueError(
                        f"config wic.{key} has no entry for the terminology {name!r} (wic.terminology); "
                        f"add wic.{key}.{name} (config/README.md § wic)"
                    )
                resolved[key] = self.section[key][name]
            resolved["abbreviation_ttys"] = list(self.section["abbreviation_ttys"].get(name, []))
        own_namespace = OWN_NAMESPACE.get(self.terminology_format)
        self.namespaces: dict[str, str] = self._namespace_terminologies(
            config, set(resolved["code_systems"]) | ({own_namespace} if own_namespace else set())
        )
        namespace_entries = [
            {
                "namespace": namespace,
                "terminology": terminology,
                "prune_relations": list(self.section["prune_relations"][terminology]),
                "abbreviation_ttys": list(self.section["abbreviation_ttys"].get(terminology, [])),
            }
            for namespace, terminology in self.namespaces.items()
        ]
        self.notice_corpora: list[str] = [c for c in self.corpora if has_notices(specs[c])]
        self.select_params = {
            **pick(self.section, SELECT_KEYS),
            "mention_types": mention_types,
            "code_systems": dict(resolved["code_systems"]),
            "own_namespace": own_namespace,
            "namespace_terminologies": dict(self.namespaces),
            "notice_corpora": list(self.notice_corpora),
        }
        union = list(resolved["prune_relations"])
        for entry in namespace_entries:
            union += [r for r in entry["prune_relations"] if r not in union]
        self.candidate_params = {
            **pick(self.section, CANDIDATE_KEYS),
            "main_prune_relations": list(resolved["prune_relations"]),
            "prune_relations": union,
            "abbreviation_ttys": resolved["abbreviation_ttys"],
            "record_column": RECORD_COLUMN.get(self.terminology_format),
            "namespace_terminologies": namespace_entries,
        }
        self.split_params = pick(self.section, SPLIT_KEYS)

    def _namespace_terminologies(self, config: Mapping[str, Any], taken: set[str]) -> dict[str, str]:
        """``wic.namespace_terminologies`` with upper-case namespaces, in sorted order, checked."""
        out: dict[str, str] = {}
        for namespace, name in sorted((self.section.get("namespace_terminologies") or {}).items()):
            key = namespace.upper()
            if name not in config["terminologies"]:
                raise ValueError(
                    f"config wic.namespace_terminologies.{namespace}: {name!r} is not a configured terminology "
                    f"(configured: {', '.join(sorted(config['terminologies']))})"
                )
            if name not in self.section["prune_relations"]:
                raise ValueError(
                    f"config wic.prune_relations has no entry for the terminology {name!r} "
                    f"(wic.namespace_terminologies.{namespace}); add wic.prune_relations.{name} "
                    "(config/README.md § wic)"
                )
            if key in taken or key in out:
                raise ValueError(
                    f"config wic.namespace_terminologies.{namespace}: namespace {key} is already unified "
                    f"(by wic.terminology {self.terminology!r} or another entry); one terminology per namespace"
                )
            out[key] = name
        return out

    def _namespace_tables(self, prefix: str, *tables: str) -> dict[str, list[str]]:
        """``{<prefix>_<table>: [intermediate of each namespace terminology]}`` in namespace order."""
        if not self.namespaces:
            return {}
        return {
            f"{prefix}_{table}": [paths.intermediate(table, name) for name in self.namespaces.values()]
            for table in tables
        }

    def _terminology_tables(self, *tables: str) -> dict[str, str]:
        """The terminology's intermediates by table name (none without a terminology)."""
        if self.terminology is None:
            return {}
        return {table: paths.intermediate(table, self.terminology) for table in tables}

    def select_inputs(self, wildcards: Any) -> dict[str, Any]:
        tables = ["concepts", "mappings"]
        if self.section["supplementary_records"] == "heading":
            tables.append("relations")
        return {
            "sentences": [paths.intermediate("sentences", c) for c in self.corpora],
            "mentions": [paths.intermediate("mentions", c) for c in self.corpora],
            "notices": [paths.intermediate(NOTICE_TABLE, c) for c in self.notice_corpora],
            **self._terminology_tables(*tables),
            **self._namespace_tables("namespace", "concepts", "associations", "mappings"),
        }

    def candidate_inputs(self, wildcards: Any) -> dict[str, Any]:
        return {
            "selected": outputs.wic_selected.template,
            "corpus_terms": outputs.wic_corpus_terms.template,
            "definitions": outputs.wic_abbreviation_definitions.template,
            **self._terminology_tables("terms", "relations", "mappings", "concepts"),
            **self._namespace_tables("namespace", "terms", "relations", "mappings"),
        }

    def nltk_folders(self) -> list[str]:
        """Where WordNet is looked for after $NLTK_DATA: ``wic.nltk_data``, then <mirror>/nltk_data."""
        folders = [self.section["nltk_data"]] if self.section["nltk_data"] else []
        return folders + [os.path.join(m, "nltk_data") for m in self.mirror_dirs]

    @staticmethod
    def splits(ext: str, splits: tuple[str, ...] = SPLITS) -> list[str]:
        """The split files in format ``ext`` (json: the published format; parquet)."""
        output = {"json": outputs.wic_split_json, "parquet": outputs.wic_split}[ext]
        return [output.path(split=split) for split in splits]

    def built(self) -> list[outputs.Built]:
        """The declared outputs of the stage (:mod:`biosem.layout.outputs`)."""
        return outputs.expand("wic", split=SPLITS)

    def targets(self) -> list[str]:
        return [b.path for b in self.built()]
