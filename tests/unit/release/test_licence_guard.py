"""The licence guard against bypass attempts: a licence set in config, empty restriction lists,
sources that state no licence (and, with the build and check, symlinks and hidden files)."""

from __future__ import annotations

import copy
from types import SimpleNamespace

import pytest
import yaml
from conftest import REPO

from biosem.release.licence import RestrictedLicenceError, classify, hub_licence, restricted_notice
from biosem.release.registry import Source, terminology_sources
from biosem.workflow.release import ReleasePlan

PUBLIC = SimpleNamespace(visibility="public")


def default_config() -> dict:
    return yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def plan(config: dict, stages: tuple[str, ...] = ("termpairs",)) -> ReleasePlan:
    return ReleasePlan(config, list(stages), str(REPO), ["config/config.yaml"])


def public_ids(p: ReleasePlan) -> list[str]:
    return [d.id for d in p.members("public")]


def test_a_terminology_licence_never_replaces_its_source_licence() -> None:
    config = default_config()
    config["sources"]["sct_obo"] = {
        **config["sources"]["hpo"],
        "licence": "SNOMED CT Affiliate Licence",
        "attribution": {"title": "SNOMED CT as OBO", "creator": "SNOMED International"},
    }
    config["terminologies"]["sct"] = {"format": "obo", "source": "sct_obo", "licence": "CC0"}
    config["termpairs"]["terminologies"] = ["hpo", "sct"]
    (source,) = terminology_sources(config, "sct")
    assert (source.licence, source.extra_licences) == ("SNOMED CT Affiliate Licence", ("CC0",))
    p = plan(config)
    assert public_ids(p) == ["termpairs/hpo"]
    assert p.status["termpairs/sct"].reasons == ("sct_obo: licence SNOMED CT Affiliate Licence",)
    assert hub_licence(p.status["termpairs/sct"])["license_name"] == "snomed-ct-affiliate-licence"
    # A restricted terminology licence over an open file restricts too.
    config["terminologies"]["hpo"]["licence"] = "UMLS Metathesaurus License"
    assert public_ids(plan(config)) == []


def test_empty_restriction_lists_lift_nothing() -> None:
    config = default_config()
    config["release"]["restricted_formats"] = []
    config["release"]["restricted_licences"] = []
    config["terminologies"]["umls_sample"]["licence"] = "CC0"
    config["terminologies"]["snomed_sample"]["licence"] = "CC0"
    p = plan(config)
    assert not {"termpairs/umls_sample", "termpairs/snomed_sample"} & set(public_ids(p))
    assert p.status["termpairs/umls_sample"].reasons == ("umls_sample: format rrf",)
    assert p.status["termpairs/snomed_sample"].reasons == ("snomed_sample: format rf2",)
    # The lists add restrictions; a licence naming SNOMED or UMLS is restricted in any format.
    config["release"]["restricted_formats"] = ["obo"]
    assert all(d.id == "termpairs/mesh" for d in plan(config).members("public"))
    unrelated = Source("x", "public", "terminology", "Licensed from SNOMED International", format="obo")
    assert classify([unrelated]).reasons == ("x: licence Licensed from SNOMED International",)


def test_a_source_stating_no_licence_is_not_public_until_asserted(tmp_path) -> None:
    from biosem.release.build import render_release
    from biosem.release.card import licence_section
    from biosem.release.provenance import Provenance

    config = default_config()
    p = plan(config, ("agreement",))
    assert public_ids(p) == []
    (withheld,) = p.withheld("public")
    status = p.status[withheld.id]
    assert withheld.id == "simlex/rated_simverb3500"
    assert status.reasons == (
        "simverb3500_data: no licence stated (expected a licence in its config, or 'simverb3500_data' "
        "in release.assert_licences)",
    )
    assert status.unstated == ("simverb3500_data",)
    assert hub_licence(status) == {"license": "unknown"}
    assert "state no licence (simverb3500_data)" in restricted_notice(status)
    explicit = copy.deepcopy(config)
    explicit["release"]["datasets"] = ["simlex"]
    with pytest.raises(RestrictedLicenceError, match="simlex/rated_simverb3500: simverb3500_data: no licence"):
        plan(explicit, ("agreement",)).public_target(PUBLIC)
    # Asserting the licence releases it; the card and RELEASE.md say it is asserted, not open.
    config["release"]["assert_licences"] = ["simverb3500_data"]
    p = plan(config, ("agreement",))
    assert public_ids(p) == ["simlex/rated_simverb3500"]
    (dataset,) = p.members("public")
    status = p.status[dataset.id]
    assert not status.restricted and status.asserted == ("simverb3500_data",)
    assert "state no licence: the release's configuration asserts that it may be published" in licence_section(
        dataset, status
    )
    prov = Provenance("0.1.0", "public", "0.1.0", "unknown", "unknown", "snakemake", ())
    text = render_release([(dataset, status, {("default", "test"): 3})], [], prov, {}, "0" * 64)
    assert "licence asserted (unknown; simverb3500_data state none)" in text
    assert "| open (" not in text
    # An asserted licence never lifts SNOMED CT / UMLS, and a name of no source is an error.
    assert classify([Source("umls", "licensed", "t", None, format="rrf")], asserted=["umls"]).restricted
    config["release"]["assert_licences"] = ["simverb"]
    with pytest.raises(ValueError, match=r"assert_licences: simverb name no source .*one of: simverb3500_data"):
        plan(config, ("agreement",))
