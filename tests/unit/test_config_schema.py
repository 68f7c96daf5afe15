"""config.schema.yaml is the single home of config defaults (workflow/rules/common.smk validates the
config once with set_default=True; the code reads keys without fallbacks).

(a) config/config.yaml, alone and with every preset merged on it, validates; (b) a minimal config
gets every section's defaults, also inside the referenced section schemas and nested objects; (c) the
dataclasses that mirror a config section (``params_from_config``) default to the schema's defaults.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml
from conftest import MINIMAL_CONFIG, REPO, config_with_defaults, validated_config
from snakemake_interface_common.exceptions import WorkflowError

from biosem.agreement import ratings
from biosem.analogies import construct
from biosem.simlex import domain, pairs, resources, survey, vocabulary
from biosem.termpairs import TermPairParams
from biosem.termpairs import params_from_config as termpair_params
from biosem.wic import candidates, splits

CONFIG = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
PRESETS = sorted((REPO / "config" / "presets").glob("*.yaml"))


# (a) -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", [None, *PRESETS], ids=lambda p: "config.yaml" if p is None else p.name)
def test_config_and_presets_validate(preset: Path | None) -> None:
    layers = [CONFIG] if preset is None else [CONFIG, yaml.safe_load(preset.read_text())]
    config = validated_config(*layers)
    # the embedded default sets every key itself: validation adds nothing to it
    if preset is None:
        assert config == CONFIG


def test_config_yaml_sets_what_defaults_would() -> None:
    """Dropping a section the schema defaults ({}) leaves the agreement defaults equal to the file's."""
    without = {k: v for k, v in CONFIG.items() if k != "agreement"}
    config = validated_config(without)
    assert config["agreement"]["termpair_study"] == CONFIG["agreement"]["termpair_study"]
    assert config["agreement"]["wic_study"] == CONFIG["agreement"]["wic_study"]


def test_unknown_top_level_key_is_rejected() -> None:
    with pytest.raises(WorkflowError, match="'sede' was unexpected"):
        validated_config(MINIMAL_CONFIG, {"sede": 7})


def test_invalid_config_is_rejected() -> None:
    with pytest.raises(WorkflowError):
        validated_config(MINIMAL_CONFIG, {"wic": {"quota_policy": "maybe"}})
    with pytest.raises(WorkflowError):
        validated_config({k: v for k, v in MINIMAL_CONFIG.items() if k != "wic"})
    # a source's attribution names at least a title and a creator (biosem.release.licence.Attribution)
    source = {"filename": "go.obo", "sha256": "0" * 64, "licence": "CC BY 4.0"}
    validated_config(MINIMAL_CONFIG, {"sources": {"go": {**source, "attribution": {"title": "GO", "creator": "c"}}}})
    for attribution in ({"title": "Gene Ontology"}, {"title": "GO", "creator": "c", "licence": "x"}):
        with pytest.raises(WorkflowError):
            validated_config(MINIMAL_CONFIG, {"sources": {"go": {**source, "attribution": attribution}}})


def test_obo_exclude_synonym_types() -> None:
    """A list of synonym type ids or null; not an empty list, a bare string, a repeated or spaced id."""
    spec = {"format": "obo", "source": "so"}
    for types in (["VAR"], ["VAR", "BS", "OMO:0003000"], None):
        c = config_with_defaults(terminologies={"so": {**spec, "exclude_synonym_types": types}})
        assert c["terminologies"]["so"]["exclude_synonym_types"] == types
    for bad in ([], "VAR", ["VAR", "VAR"], ["variant annotation term"]):
        with pytest.raises(WorkflowError):
            config_with_defaults(terminologies={"so": {**spec, "exclude_synonym_types": bad}})


def test_corpus_specs_take_the_keys_of_their_format() -> None:
    """One if/then block per corpus format: a spec takes its format's keys, gets its format's defaults,
    and refuses the keys of another format."""
    pubtator = {"format": "pubtator", "namespace": "MESH", "files": {"train": "t"}}
    c = config_with_defaults(
        corpora={"build": [], "specs": {"craft": {"format": "craft", "archive": "a"}, "p": pubtator}}
    )
    assert c["corpora"]["specs"]["craft"] == {
        "format": "craft",
        "archive": "a",
        "annotation_set": "proper",
        "modules": ["CHEBI", "CL", "GO_BP", "GO_CC", "GO_MF", "MONDO", "MOP", "NCBITaxon", "PR", "SO", "UBERON"],
    }
    assert c["corpora"]["specs"]["p"] == pubtator  # no CRAFT defaults on a PubTator corpus
    for bad in (
        {"format": "craft"},  # no archive
        {"format": "craft", "archive": "a", "namespace": "MESH"},  # a PubTator key
        {"format": "craft", "archive": "a", "modules": ["GO"]},  # not a module
        {"format": "craft", "archive": "a", "annotation_set": "both"},
        {**pubtator, "archive": "a"},  # a CRAFT key
        {"format": "conll", "archive": "a", "files": {"train": "t"}, "document_unit": "medline"},  # a CRAFT key
    ):
        with pytest.raises(WorkflowError):
            config_with_defaults(corpora={"build": [], "specs": {"x": bad}})


def test_corpus_specs_by_format() -> None:
    """A conll corpus takes files per split and a document unit (with its size for sentence blocks),
    never a namespace; a PubTator corpus takes a namespace, never a document unit."""

    def specs(**spec: object) -> dict:
        return {"corpora": {"build": [], "specs": {"c": spec}}}

    files = {"train": "a", "test": "b"}
    validated_config(MINIMAL_CONFIG, specs(format="conll", files=files, document_unit="medline"))
    validated_config(
        MINIMAL_CONFIG, specs(format="conll", files=files, document_unit="sentences", sentences_per_document=10)
    )
    validated_config(MINIMAL_CONFIG, specs(format="pubtator", namespace="MESH", files=files))
    for bad in (
        specs(format="conll", files=files),  # no document unit
        specs(format="conll", files=files, document_unit="sentences"),  # no block size
        specs(format="conll", files=files, document_unit="medline", namespace="MESH"),
        specs(format="conll", file="a", split_lists=files, document_unit="medline"),  # one file + PMID lists
        specs(format="pubtator", namespace="MESH", files=files, document_unit="medline"),
        specs(format="pubtator", files=files),  # no namespace
    ):
        with pytest.raises(WorkflowError):
            validated_config(MINIMAL_CONFIG, bad)


@pytest.mark.parametrize("filename", ["..", ".", "a/b", "a\\b", ""])
def test_a_source_filename_is_a_plain_file_name(filename: str) -> None:
    """resources/<source>/<filename>: no folder, not "." or ".." (".." once failed with EBUSY in the fetch)."""
    source = {"filename": filename, "sha256": "0" * 64}
    with pytest.raises(WorkflowError, match="does not match"):
        validated_config(MINIMAL_CONFIG, {"sources": {"go": source}})
    validated_config(MINIMAL_CONFIG, {"sources": {"go": {**source, "filename": "..go.obo"}}})


# (b) -----------------------------------------------------------------------------------------------
def test_minimal_config_gets_every_default() -> None:
    c = config_with_defaults(
        terminologies={
            "s": {"format": "rf2", "path": "x"},
            "u": {"format": "rrf", "path": "y"},
            "o": {"format": "obo", "source": "z"},
        },
        agreement={
            "ratings": {
                "r": {"source": "s", "format": "wide"},
                "n": {"source": "s", "format": "wide", "bias_correction": None, "exclusion": None},
            }
        },
        evaluate={
            "models": {
                "st": {"format": "sentence_transformers", "model": "m"},
                "v": {"format": "glove", "path": "p"},
                "t": {"format": "train", "sg": 1, "window": 2},
            }
        },
    )
    assert c["termpairs"]["random_rounds"] == 30
    assert c["termpairs"]["joint_search"] == ["fsn_syn", "syn_syn"]
    assert c["termpairs"]["easy_max_distance"] == 5
    # format-specific terminology defaults, only on their format
    assert c["terminologies"]["s"] == {
        "format": "rf2",
        "path": "x",
        "release_type": "auto",
        "language_refsets": ["900000000000509007", "900000000000508004"],
    }
    assert c["terminologies"]["u"] == {
        "format": "rrf",
        "path": "y",
        "languages": ["ENG"],
        "sabs": None,
        "trailing_nullcols": False,
    }
    assert c["terminologies"]["o"] == {
        "format": "obo",
        "source": "z",
        "id_prefixes": None,
        "underscores_as_spaces": False,
        "exclude_synonym_types": None,
        "allow_cycles": False,
    }
    assert c["corpora"]["sentences"] == {"language": "en", "mask_mention_periods": True, "split_title": True}
    assert c["wic"]["quota_policy"] == "error" and c["wic"]["quotas"]["test"]["synonyms"] == 800
    assert c["analogies"]["min_frequency"] == 25 and c["analogies"]["overrides"] == {}
    simlex = c["simlex"]
    assert simlex["vocabulary"]["spelling_table"] is True and simlex["specialist"] == {
        "lrspl": None,
        "lragr": None,
        "lrnom": None,
    }
    assert simlex["pairs"]["quarter_size"] == 250 and simlex["survey"]["groups"] == 2
    assert simlex["resources"]["synonym_tables"] == {} and simlex["domain"]["reviewed"] is None
    assert simlex["usf"] == {"source": "usf", "expected_rows": None, "expected_cues": None}
    # agreement omitted: {} and every nested default; a rating entry's nested objects filled, nulls kept
    agreement = c["agreement"]
    assert agreement["wic_study"] == {"per_rater": 100, "shared": 50}
    assert agreement["filled_sheets"] == {"termpairs": {}, "wic": {}}
    assert agreement["ratings"]["r"]["bias_correction"] == {"threshold": 1.0, "shift": 1.0}
    assert agreement["ratings"]["r"]["exclusion"] == {"sd": 1.0, "raters": []}
    assert agreement["ratings"]["r"]["member"] is None and agreement["ratings"]["r"]["missing_value"] == -1
    assert agreement["ratings"]["n"]["bias_correction"] is None and agreement["ratings"]["n"]["exclusion"] is None
    models = c["evaluate"]["models"]
    assert models["st"] == {
        "format": "sentence_transformers",
        "model": "m",
        "device": "cpu",
        "batch_size": 64,
        "local_files_only": True,
    }
    assert models["v"] == {"format": "glove", "path": "p", "lowercase": "auto", "max_vocab": None}
    assert models["t"] == {"format": "train", "sg": 1, "window": 2}


def test_a_vector_models_lowercase_is_auto_true_or_false() -> None:
    """``evaluate.models.<name>.lowercase``: ``auto`` by default (the vocabulary's case decides), true or false
    as given; anything else is rejected naming the key."""
    for value in ("auto", True, False):
        c = config_with_defaults(evaluate={"models": {"v": {"format": "glove", "path": "p", "lowercase": value}}})
        assert c["evaluate"]["models"]["v"]["lowercase"] == value
    for wrong in ("yes", "Auto", 1, None):
        with pytest.raises(WorkflowError) as err:
            config_with_defaults(evaluate={"models": {"v": {"format": "glove", "path": "p", "lowercase": wrong}}})
        assert "lowercase" in str(err.value)


@pytest.mark.parametrize("key", ["bias_correction", "exclusion"])
def test_rating_steps_switched_off_by_null_and_wrong_values_rejected(key: str) -> None:
    """null switches a step off; a value that is neither null nor an object (``off`` is false in YAML,
    ``--config`` gives the string "null") is a validation error naming the key, not a crash in the
    defaults filling (snakemake's set_default calls setdefault on what meets ``properties``)."""
    entry = {"source": "s", "format": "wide"}
    off = config_with_defaults(agreement={"ratings": {"r": {**entry, key: None}}})
    assert off["agreement"]["ratings"]["r"][key] is None
    for wrong in ("null", False, 1.0, ["x"]):
        with pytest.raises(WorkflowError) as err:
            config_with_defaults(agreement={"ratings": {"r": {**entry, key: wrong}}})
        assert key in str(err.value)
    with pytest.raises(WorkflowError):
        config_with_defaults(agreement={"ratings": {"r": {**entry, key: {"threshhold": 1}}}})
    partial = config_with_defaults(agreement={"ratings": {"r": {**entry, "exclusion": {"sd": 2}}}})
    assert partial["agreement"]["ratings"]["r"]["exclusion"] == {"sd": 2, "raters": []}


def test_agreement_section_may_be_omitted() -> None:
    assert "agreement" not in MINIMAL_CONFIG
    assert config_with_defaults()["agreement"]["termpair_study"] == {"terminologies": None, "n_pos": 30, "n_neg": 30}


# (c) -----------------------------------------------------------------------------------------------
DEFAULTS = config_with_defaults(agreement={"ratings": {"r": {"source": "s", "format": "wide"}}})


def _fields(obj: object, skip: tuple[str, ...] = ()) -> dict[str, object]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.name not in skip}  # type: ignore[arg-type]


def test_termpair_params() -> None:
    assert termpair_params(DEFAULTS["termpairs"]) == TermPairParams()


def test_rating_params() -> None:
    assert ratings.params_from_config(DEFAULTS["agreement"]["ratings"]["r"]) == ratings.RatingParams()


def test_analogy_params() -> None:
    assert construct.params_from_config(DEFAULTS["analogies"], "t", "obo", 0) == construct.AnalogyParams()


def test_wic_params() -> None:
    # prune_relations is configured per terminology; the plan passes the entry of wic.terminology
    resolved = {**DEFAULTS["wic"], "prune_relations": ["SY", "RB", "PAR"]}
    assert candidates.params_from_config(resolved) == candidates.CandidateParams()
    assert splits.split_params_from_config(DEFAULTS["wic"]) == splits.SplitParams()


def test_simlex_params() -> None:
    section = DEFAULTS["simlex"]
    assert vocabulary.params_from_config(section["vocabulary"]) == vocabulary.VocabularyParams()
    # the two thresholds are required (no default); the other fields follow the schema
    got = domain.params_from_config(section["domain"])
    assert _fields(got, ("biomedical_min_log_ratio", "general_max_log_ratio")) == _fields(
        domain.DomainParams(), ("biomedical_min_log_ratio", "general_max_log_ratio")
    )
    for pos in ("noun", "verb"):
        assert pairs.params_from_config(section["pairs"], pos) == pairs.PairParams()
    assert survey.params_from_config(section["survey"]) == survey.SurveyParams()
    res = resources.params_from_config(section["resources"])
    assert res == {
        "terminologies": [], "synonym_scopes": ["EXACT"], "parent_relation": "is_a", "roots": {},
        "wordnet_derivations": True, "suffix_rules": True, "wordnet_synonyms": True, "synonym_tables": {},
    }  # fmt: skip


def test_a_model_removed_by_null_and_wrong_values_rejected() -> None:
    models = config_with_defaults(evaluate={"models": {"t": {"format": "train", "sg": 1, "window": 2}, "gone": None}})
    assert models["evaluate"]["models"]["gone"] is None
    assert models["evaluate"]["rated"]["frequency_corpus"] == "training"
    for wrong in ("null", False, {"format": "train"}):
        with pytest.raises(WorkflowError):
            config_with_defaults(evaluate={"models": {"gone": wrong}})
