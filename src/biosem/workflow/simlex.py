"""Wiring of the simlex stage: Bio-SimLex / Bio-SimVerb vocabulary, pairs and survey (Chiu et al.
2018). Rules: ``workflow/rules/simlex.smk``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from biosem.corpora.shards import expand_corpus_files
from biosem.layout import outputs, paths
from biosem.workflow.params import pick

DATASETS = ("nouns", "verbs")

VARIANT_KEYS = ("variant_stemmers", "variant_wordnet", "variant_min_prefix", "variant_prefix_share")
"""The keys of ``simlex.pairs`` that decide a variant pair (read again by the validity check)."""
SPELLING_KEYS = ("spelling_table", "spelling_rules")
"""The keys of ``simlex.vocabulary`` that ``collect_lexical_relations`` reads (British -> American)."""


class Simlex:
    """The simlex stage under ``config["simlex"]``.

    Raises:
        ValueError: on construction, when ``simlex.published`` names a source that is not configured,
            or when ``simlex.survey.scale_min`` is not below ``scale_max`` (JSON Schema cannot compare
            two values; this check runs right after the schema's, when the workflow is parsed).
    """

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.section: Mapping[str, Any] = config["simlex"]
        survey = self.section["survey"]
        if survey["scale_min"] >= survey["scale_max"]:
            raise ValueError(
                f"config simlex.survey: scale_min ({survey['scale_min']}) must be below scale_max "
                f"({survey['scale_max']}); the survey rates on the integers scale_min..scale_max (paper: 0..6)"
            )
        self.published: dict[str, str] = {}
        for dataset, source in sorted(self.section["published"].items()):
            if source is None:
                continue
            if source not in config["sources"]:
                raise ValueError(
                    f"config simlex.published.{dataset}: {source!r} is not a key of `sources` "
                    f"(configured: {', '.join(sorted(config['sources']))}); set it to null to skip the comparison"
                )
            self.published[dataset] = paths.source(source, config["sources"][source]["filename"])
        self.validity_params = {
            "min_tag_share": self.section["vocabulary"]["min_tag_share"],
            "variants": pick(self.section["pairs"], VARIANT_KEYS),
        }
        # The params of the rules, each the value its script reads: a sub-section passed whole is read by its
        # params class (its paths, domain.reviewed and pairs.accepted, are the rules' inputs as well).
        self.seed: int = config["seed"]
        self.vocabulary: Mapping[str, Any] = self.section["vocabulary"]
        self.deduplicate_documents: bool = self.section["deduplicate_documents"]
        self.domain: Mapping[str, Any] = self.section["domain"]
        self.usf_expected_rows: int | None = self.section["usf"]["expected_rows"]
        self.usf_expected_cues: int | None = self.section["usf"]["expected_cues"]
        self.resources: Mapping[str, Any] = self.section["resources"]
        self.spelling = pick(self.section["vocabulary"], SPELLING_KEYS)
        """Params of ``collect_lexical_relations`` beside ``resources``: the spelling keys only, so that
        editing another ``simlex.vocabulary`` key reruns no lexical relation."""
        self.pairs: Mapping[str, Any] = self.section["pairs"]
        self.survey: Mapping[str, Any] = survey
        self.scale_min: int = survey["scale_min"]
        self.scale_max: int = survey["scale_max"]
        self.dont_know: bool = survey["dont_know"]
        self.name: str = self.section["vocabulary_name"]
        self.groups: list[int] = list(range(1, self.section["survey"]["groups"] + 1))
        self.mirror_dirs: list[str] = list(config["mirror_dirs"])
        usf = self.section["usf"]["source"]
        self.usf_source = paths.source(usf, config["sources"][usf]["filename"])
        self.usf_checksums = paths.checksums([self.usf_source])

    def optional_file(self, *keys: str) -> list[str]:
        """The path at ``simlex.<keys[0]>.<keys[1]>...`` as a one-element list, or ``[]`` when null."""
        value: Any = self.section
        for key in keys:
            value = value[key]
        return [str(value)] if value else []

    def nltk_folders(self) -> list[str]:
        """Where the tagger and WordNet are looked for after $NLTK_DATA: ``simlex.nltk_data``,
        then <mirror>/nltk_data."""
        folders = [str(self.section["nltk_data"])] if self.section["nltk_data"] else []
        return folders + [os.path.join(m, "nltk_data") for m in self.mirror_dirs]

    def sentence_tables(self) -> list[str]:
        """Sentence intermediates of the corpora the vocabulary is counted on."""
        return [paths.intermediate("sentences", c) for c in self.section["corpora"]]

    def text_files(self) -> list[str]:
        """``simlex.text_files`` with globs expanded (:func:`biosem.corpora.shards.expand_corpus_files`)."""
        return expand_corpus_files(self.section["text_files"])

    def fragment_term_tables(self) -> list[str]:
        """The ``terms`` intermediates of ``simlex.vocabulary.fragment_terminologies`` (rule ``fragment``
        of :mod:`biosem.simlex.evidence`)."""
        names = self.section["vocabulary"]["fragment_terminologies"]
        return [paths.intermediate("terms", t) for t in names]

    def terminology_tables(self, table: str) -> list[str]:
        """The ``table`` intermediates (terms, relations) of the terminologies the resources read."""
        return [paths.intermediate(table, t) for t in self.section["resources"]["terminologies"]]

    def synonym_tables(self) -> list[str]:
        """The configured synonym tables, in name order."""
        tables = self.section["resources"]["synonym_tables"]
        return [str(tables[k]) for k in sorted(tables)]

    def survey_forms(self, dataset: str) -> list[str]:
        """The HTML rating form of each survey group of ``dataset``."""
        return [outputs.simlex_survey_form.path(dataset=dataset, group=g) for g in self.groups]

    def survey_sheets(self, dataset: str) -> list[str]:
        """The CSV sheet of each survey group of ``dataset``."""
        return [outputs.simlex_survey_sheet.path(dataset=dataset, group=g) for g in self.groups]

    def validity_inputs(self, wildcards: Any) -> dict[str, Any]:
        """Inputs of ``check_simlex_validity``: the dataset's pairs, the word counts (POS evidence) and
        the published set it is compared with, if any (with its checksum sidecar)."""
        published = [self.published[wildcards.dataset]] if wildcards.dataset in self.published else []
        return {
            "pairs": outputs.simlex_pairs.path(dataset=wildcards.dataset),
            "word_counts": paths.intermediate("word_counts", self.name),
            "published": published,
            "checksums": paths.checksums(published),
        }

    def built(self) -> list[outputs.Built]:
        """The declared outputs of the stage (:mod:`biosem.layout.outputs`) for nouns and verbs."""
        return outputs.expand("simlex", dataset=DATASETS, group=self.groups)

    def targets(self) -> list[str]:
        """The vocabulary's word counts, the parsed USF norms and the declared outputs."""
        intermediates = [paths.intermediate("word_counts", self.name), paths.intermediate("usf", "usf")]
        return intermediates + [b.path for b in self.built()]
