"""Licence-correct cards for datasets from open terminologies: a MeSH-derived (NLM terms), a CC BY 4.0
(GO-like), a CC0 (DO-like) and an HPO-licensed dataset built on hand-made rows; the licence strings
of the config; the attribution guard; and the credits the default config gives its open sources."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml
from conftest import REPO

from biosem.release import registry
from biosem.release.build import build_dataset
from biosem.release.check import check_release
from biosem.release.families import ANALOGY_CHANGES, TERMPAIR_CHANGES
from biosem.release.licence import (
    AttributionError,
    croissant_licences,
    dataset_licence,
    hub_licence,
    identify_licence,
)
from biosem.release.provenance import Provenance
from biosem.release.registry import Paper, ReleaseDataset, Source

PAPER = Paper("Author 2020", "A. Author. 2020. A paper.", "@misc{a2020,\n  title = {A paper}\n}", "https://example.org")
NLM_TERMS = "https://www.nlm.nih.gov/databases/download/terms_and_conditions_mesh.html"
CC_BY = "https://creativecommons.org/licenses/by/4.0/"
MESH_2024 = {
    "title": "Medical Subject Headings",
    "creator": "the U.S. National Library of Medicine (NLM)",
    "version": "MeSH 2024",
    "url": "https://www.nlm.nih.gov/mesh/",
}


def mesh_sources(attribution: dict | None = MESH_2024) -> tuple[Source, ...]:
    return tuple(
        Source(
            f"mesh_{role}",
            "public",
            f"terminology mesh (MeSH {role})",
            "NLM Terms and Conditions (MeSH)",
            f"MeSH 2024 (mirror table {role})",  # the file's version differs from the credited one
            f"https://example.org/{role}.rds",
            str(i) * 64,
            "mesh",
            attribution=attribution,
        )
        for i, role in enumerate(("thesaurus", "trees", "pharmacological_actions"))
    )


GO = Source(
    "go",
    "public",
    "terminology go (OBO)",
    "CC BY 4.0",
    "2021-12-15",
    "https://example.org/go-basic.obo",
    "a" * 64,
    "obo",
    attribution={
        "title": "Gene Ontology",
        "creator": "the Gene Ontology Consortium",
        "url": "https://geneontology.org",
    },
)
DOID = Source(
    "doid",
    "public",
    "terminology doid (OBO)",
    "CC0",
    "2019-03-01",
    "https://example.org/doid.obo",
    "b" * 64,
    "obo",
    attribution={"title": "Human Disease Ontology", "creator": "the Disease Ontology team"},
)
HPO = Source(
    "hpo",
    "public",
    "terminology hpo (OBO)",
    "HPO licence",
    "2025-01-16",
    "https://example.org/hp.obo",
    "c" * 64,
    "obo",
    attribution={
        "title": "Human Phenotype Ontology",
        "creator": "the Human Phenotype Ontology Consortium",
        "url": "https://hpo.jax.org",
        "citation": "Gargano et al. 2024.",
    },
)
CORPUS = Source(
    "bc5cdr_test",
    "public",
    "corpus bc5cdr (test)",
    "NCBI public domain notice",
    "CDR.Corpus.v010516",
    "https://example.org/CDR_TestSet.PubTator.txt",
    "d" * 64,
)


def provenance() -> Provenance:
    return Provenance("1.2.3", "public", "0.1.0", "unknown", "unknown", "snakemake release_public", ())


def pairs_dataset(tmp_path: Path, name: str, sources: tuple[Source, ...], changes: str = TERMPAIR_CHANGES):
    table = pa.table({"term1": ["Fever", "Pyrexia"], "term2": ["Pyrexia", "Rash"], "label": pa.array([1, 0])})
    path = tmp_path / f"{name}.parquet"
    pq.write_table(table, path)
    return ReleaseDataset(
        family="termpairs",
        name=name,
        pretty_name=f"Term pairs from {name}",
        summary="Pairs of terms.",
        motivation="Testing.",
        configs={"fsn_syn_easy_random": {"test": str(path)}, "fsn_syn_hard_random": {"test": str(path)}},
        sources=sources,
        parameters={"seed": 1},
        paper=PAPER,
        label_column="label",
        changes=changes,
    )


def build(tmp_path: Path, dataset: ReleaseDataset) -> tuple[str, dict, dict]:
    """Build the dataset into <tmp>/release/public/<id>; return its card, YAML header and Croissant."""
    out = tmp_path / "release" / "public" / dataset.id
    build_dataset(dataset, out, dataset.licence_status(), provenance(), {})
    card = (out / "README.md").read_text()
    return card, yaml.safe_load(card.split("---\n")[1]), json.loads((out / "croissant.json").read_text())


def section(card: str) -> str:
    """The card's "Licence and attribution" section."""
    return card.split("## Licence and attribution\n", 1)[1].split("\n## ", 1)[0]


# --- licence strings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("CC-BY-4.0", "cc-by-4.0"),
        ("CC BY 4.0", "cc-by-4.0"),
        ("cc_by_4.0", "cc-by-4.0"),
        ("CC0", "cc0-1.0"),
        ("CC0 1.0", "cc0-1.0"),
        ("NLM Terms and Conditions (MeSH)", "nlm-mesh-terms"),
        ("HPO licence", "hpo-licence"),
        ("HPO License", "hpo-licence"),
        ("NCBI public domain notice", "us-government-public-domain"),
        ("SNOMED CT", "snomed-ct-affiliate-licence"),
        ("SNOMED CT Affiliate Licence", "snomed-ct-affiliate-licence"),
        ("UMLS", "umls-metathesaurus-licence"),
        ("BSD-2-Clause", "bsd-2-clause"),
        # By identity, never by a word inside a longer string: none of these names a licence.
        ("CC0 (MedMentions); Apache-2.0 (scispacy repository)", None),
        ("HPO licence (https://hpo.jax.org/license)", None),
        ("NLM Terms and Conditions", None),  # NLM's general terms: not MeSH's
        ("CC BY-SA 4.0", None),
        ("IHTSDO Affiliate Licence", None),
        ("Unified Medical Language System Metathesaurus License Agreement", None),
        ("NLM UTS licence (Metathesaurus)", None),
        ("Licensed from SNOMED International", None),
        (None, None),
    ],
)
def test_config_licence_strings_name_licences(text: str | None, key: str | None) -> None:
    found = identify_licence(text)
    assert (found.key if found else None) == key


# --- cards ----------------------------------------------------------------------------------------


def test_mesh_card_credits_nlm_names_the_version_and_marks_changes(tmp_path: Path) -> None:
    card, meta, croissant = build(tmp_path, pairs_dataset(tmp_path, "mesh", mesh_sources()))
    assert meta["license"] == "other"
    assert meta["license_name"] == "nlm-mesh-terms" and meta["license_link"] == NLM_TERMS
    credits = section(card)
    # one credit for the three files of MeSH 2024, before the datasheet
    assert credits.count("Courtesy of") == 1 and card.index("Courtesy of") < card.index("## Datasheet")
    assert "* `mesh_thesaurus`, `mesh_trees`, `mesh_pharmacological_actions`: " in credits
    assert (
        "Courtesy of the U.S. National Library of Medicine (NLM), MeSH 2024 "
        "([Medical Subject Headings](https://www.nlm.nih.gov/mesh/)). Modified by biosem: terms regrouped into pairs"
    ) in credits
    assert "one negative pair (label 0) per positive sampled by biosem" in credits
    assert "This dataset reflects MeSH 2024, not the most current MeSH data available from NLM." in credits
    assert "NLM has not endorsed this dataset, is not responsible for the derived data" in credits
    assert f"[NLM Terms and Conditions for MeSH]({NLM_TERMS})" in credits
    assert "Open sources only: no UMLS or SNOMED CT content." in credits
    assert "mirror table" not in credits  # the credit names the MeSH version, not the file's
    # Croissant: the terms' URL as licence; the credit as schema.org creditText, for each source too
    assert croissant["license"] == NLM_TERMS
    assert croissant["creditText"].startswith(
        "Courtesy of the U.S. National Library of Medicine (NLM), MeSH 2024 "
        "(Medical Subject Headings (https://www.nlm.nih.gov/mesh/))."
    )
    assert all(s["creditText"] == croissant["creditText"] for s in croissant["prov:wasDerivedFrom"])
    assert any("Changes to the sources: terms regrouped" in p for p in croissant["rai:dataPreprocessingProtocol"])


def test_cc_by_card_attributes_title_creator_licence_and_changes(tmp_path: Path) -> None:
    dataset = pairs_dataset(tmp_path, "go", (GO, CORPUS), changes=ANALOGY_CHANGES)
    card, meta, croissant = build(tmp_path, dataset)
    # the public-domain corpus adds no condition: the dataset is CC BY 4.0
    assert meta["license"] == "cc-by-4.0" and "license_name" not in meta
    credits = section(card)
    assert f"**Licence: [CC BY 4.0]({CC_BY})**" in credits
    assert "(no condition from the sources under: NCBI/NLM public-domain notice)" in credits
    assert (
        "* `go`: [Gene Ontology](https://geneontology.org), version 2021-12-15 by the Gene Ontology Consortium, "
        f"used under [CC BY 4.0]({CC_BY}). Changes: the terminology's relations filtered"
    ) in credits
    assert "The licensor provides it as is, without warranties" in credits
    # the courtesy credit of the public-domain corpus comes after the required one
    assert credits.index("`go`") < credits.index("`bc5cdr_test`")
    assert "a U.S. Government work in the public domain" in credits
    assert sorted(croissant["license"]) == ["NCBI public domain notice", "https://spdx.org/licenses/CC-BY-4.0.html"]


def test_cc0_card_gives_a_courtesy_credit(tmp_path: Path) -> None:
    card, meta, croissant = build(tmp_path, pairs_dataset(tmp_path, "doid", (DOID,)))
    assert meta["license"] == "cc0-1.0"
    credits = section(card)
    assert "**Licence: [CC0 1.0](https://creativecommons.org/publicdomain/zero/1.0/)**" in credits
    assert (
        "* `doid`: [Human Disease Ontology](https://example.org/doid.obo), version 2019-03-01 by the Disease "
        "Ontology team, dedicated to the public domain under [CC0 1.0]"
    ) in credits
    assert "credited as a courtesy (CC0 asks for no attribution)" in credits
    assert croissant["license"] == "https://spdx.org/licenses/CC0-1.0.html"
    # CC0 requires no attribution: a source without one is credited by its name
    bare = Source(**{**vars(DOID), "attribution": None})
    card, meta, _ = build(tmp_path / "bare", pairs_dataset(tmp_path, "doid", (bare,)))
    assert meta["license"] == "cc0-1.0"
    assert "* `doid`: [`doid`](https://example.org/doid.obo), version 2019-03-01, dedicated" in card


def test_hpo_card_carries_the_hpo_statement(tmp_path: Path) -> None:
    card, meta, _ = build(tmp_path, pairs_dataset(tmp_path, "hpo", (HPO,)))
    assert meta == {
        **meta,
        "license": "other",
        "license_name": "hpo-licence",
        "license_link": "https://hpo.jax.org/license",
    }
    credits = section(card)
    assert (
        "This dataset is using the Human Phenotype Ontology (version 2025-01-16) by the Human Phenotype Ontology "
        "Consortium. Find out more at https://hpo.jax.org."
    ) in credits
    assert "it does not redistribute HPO files" in credits and "Please cite: Gargano et al. 2024." in credits


def test_mixed_licences_list_every_credit(tmp_path: Path) -> None:
    card, meta, _ = build(tmp_path, pairs_dataset(tmp_path, "mixed", (*mesh_sources(), GO, DOID)))
    assert meta["license"] == "other" and meta["license_name"] == "biosem-derived-mixed"
    credits = section(card)
    assert "**Licence: the terms of each source apply**" in credits
    assert "Courtesy of the U.S. National Library of Medicine (NLM), MeSH 2024" in credits
    assert "used under [CC BY 4.0]" in credits and "CC0 asks for no attribution" in credits


def test_a_source_needing_attribution_without_one_is_refused(tmp_path: Path) -> None:
    bare_go = Source(**{**vars(GO), "attribution": None})
    dataset = pairs_dataset(tmp_path, "go", (bare_go, *mesh_sources(None), DOID))
    with pytest.raises(AttributionError, match=r"termpairs/go: .*\n  - go \(CC BY 4.0\)\n  - mesh_thesaurus") as err:
        build(tmp_path, dataset)
    assert err.value.sources == ["go", "mesh_thesaurus", "mesh_trees", "mesh_pharmacological_actions"]
    assert "sources.<name>.attribution" in str(err.value)
    assert not (tmp_path / "release").exists()  # nothing written


def test_check_reports_cards_without_credits(tmp_path: Path) -> None:
    from biosem.release.build import write_release

    root = tmp_path / "release" / "public"
    dataset = pairs_dataset(tmp_path, "mesh", mesh_sources())
    build(tmp_path, dataset)
    write_release(root, [(dataset, dataset.licence_status())], [], provenance(), {}, {"seed": 1})
    assert check_release(root) == []
    card = root / dataset.id / "README.md"
    text = card.read_text()
    card.write_text(text.replace("## Licence and attribution\n", "## Licence\n").replace("license_name:", "x_name:"))
    problems = check_release(root)
    assert "termpairs/mesh/README.md: `license: other` without `license_name`" in problems
    assert "termpairs/mesh/README.md: no '## Licence and attribution' section (source credits)" in problems


# --- the default config ---------------------------------------------------------------------------


def test_default_config_credits_its_open_sources() -> None:
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    config["termpairs"]["terminologies"] = ["hpo", "mesh"]
    config["analogies"]["terminologies"] = ["go_slim", "mesh"]
    # CC BY 4.0 corpora only (the default's CRAFT adds CC BY 3.0: test_default_analogies_credit_every_corpus)
    config["analogies"]["corpora"] = ["bc5cdr", "ncbi_disease", "anatem", "genia_pos"]
    offered = {d.id: d for d in registry.registered_datasets(config, ["termpairs", "analogies"])}
    mesh = offered["termpairs/mesh"]
    assert [s.attribution.version for s in mesh.sources] == ["MeSH 2024"] * 3
    status = mesh.licence_status(config["release"])
    assert not status.restricted and dataset_licence(status).key == "nlm-mesh-terms"
    (credit,) = mesh.credits()
    assert credit.text.startswith("Courtesy of the U.S. National Library of Medicine (NLM), MeSH 2024 (")
    # analogies also derive from the corpora: beside public-domain ones (BC5CDR, NCBI Disease) the
    # terminology's licence decides; the MTL corpora (CC BY 4.0) bind too, so the default's card names both
    assert hub_licence(offered["analogies/mesh"].licence_status())["license_name"] == "biosem-derived-mixed"
    assert {"CC-BY-4.0", "NLM Terms and Conditions (MeSH)"} <= set(
        offered["analogies/mesh"].licence_status().source_licences
    )
    public_domain = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    public_domain["analogies"] |= {"terminologies": ["mesh"], "corpora": ["bc5cdr", "ncbi_disease"]}
    (pd_mesh,) = registry.registered_datasets(public_domain, ["analogies"])
    assert hub_licence(pd_mesh.licence_status())["license_name"] == "nlm-mesh-terms"
    assert hub_licence(offered["analogies/go_slim"].licence_status()) == {"license": "cc-by-4.0"}
    assert hub_licence(offered["termpairs/hpo"].licence_status())["license_name"] == "hpo-licence"
    assert NLM_TERMS in croissant_licences(status)
    # every open dataset of the default can be credited (no attribution missing)
    for dataset in registry.registered_datasets(config, ["termpairs", "analogies", "wic", "simlex", "agreement"]):
        assert dataset.credits(), dataset.id


def test_default_analogies_credit_every_corpus() -> None:
    """The default counts term frequencies in CRAFT (annotations CC BY 3.0) and the MTL corpora (CC BY 4.0)
    besides public-domain abstracts: an analogy dataset credits each of them and its licence says both
    apply (no corpus text is released, but the counts derive from it)."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    (go_slim,) = [d for d in registry.registered_datasets(config, ["analogies"]) if d.name == "go_slim"]
    roles = {s.role.split(" (")[0] for s in go_slim.sources}
    assert {"corpus craft", "corpus anatem", "corpus genia_pos", "corpus bc5cdr"} <= roles
    meta = hub_licence(go_slim.licence_status(config["release"]))
    assert meta["license"] == "other" and meta["license_name"] == "biosem-derived-mixed"
    assert go_slim.credits()


def test_default_config_credits_the_craft_ontologies() -> None:
    """UBERON (CC BY 3.0), SO and MOP (CC BY 4.0) as CRAFT ships them: public, credited under their
    licences with citation, and what biosem's reading changed (SO's VAR synonyms and underscores, MOP's
    imports) named."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    offered = {d.id: d for d in registry.registered_datasets(config, ["termpairs"])}
    expected = {"uberon": "cc-by-3.0", "so": "cc-by-4.0", "mop": "cc-by-4.0"}
    for name, hub_id in expected.items():
        dataset = offered[f"termpairs/{name}"]
        status = dataset.licence_status(config["release"])
        assert not status.restricted, status.reasons
        assert hub_licence(status) == {"license": hub_id}
        (credit,) = dataset.credits()
        assert credit.licence is not None and credit.licence.key == hub_id
        assert "The licensor provides it as is" in credit.text
    uberon, so, mop = (offered[f"termpairs/{n}"].credits()[0].text for n in ("uberon", "so", "mop"))
    assert uberon.startswith("[Uberon multi-species anatomy ontology (basic edition)](http://uberon.org)")
    assert "Please cite: Mungall, Torniai, Gkoutos, Lewis and Haendel." in uberon
    assert (
        "Changes: synonyms of OBO synonym type VAR left out; underscores in names and synonyms written as spaces "
        "(five_prime_UTR as five prime UTR); then terms" in so
    )
    assert "Changes: only the classes with id prefix MOP read" in mop
    assert "synonym type" not in mop
    assert "underscores" not in uberon and "id prefix" not in uberon and "synonym type" not in uberon
