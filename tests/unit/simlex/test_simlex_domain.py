"""Domain split: log ratio against wordfreq, thresholds, reviewed overrides, rank correlation."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from scipy.stats import spearmanr
from wordfreq import word_frequency

from biosem.errors import SourceFormatError
from biosem.simlex.domain import (
    DomainParams,
    apply_review,
    domain_table,
    frequency_correlation,
    lemma_forms,
    read_reviewed_domains,
    review_sheet,
)

COUNTS = pd.DataFrame(
    {
        "lemma": ["phosphorylate", "patient", "house", "xyzzyqvocab", "induce"],
        "pos": ["verb", "noun", "noun", "noun", "verb"],
        "count": [50, 5000, 5, 40, 800],
        "document_count": [10, 900, 5, 3, 400],
    }
)
TOKENS = 1_000_000


def test_log_ratio_against_wordfreq_forms() -> None:
    params = DomainParams(biomedical_min_log_ratio=1.0, general_max_log_ratio=0.0)
    table = domain_table(COUNTS, TOKENS, params).set_index(["lemma", "pos"])
    assert lemma_forms("house", "noun") == ("house", "houses")
    general = sum(word_frequency(f, "en") for f in ("house", "houses")) * 1e6
    row = table.loc[("house", "noun")]
    assert row["corpus_per_million"] == pytest.approx(5.0)
    assert row["general_per_million"] == pytest.approx(general)
    assert row["log_ratio"] == pytest.approx(math.log10(5.0 / general))
    assert row["auto_domain"] == "general"
    assert table.loc[("phosphorylate", "verb"), "auto_domain"] == "biomedical"
    unknown = table.loc[("xyzzyqvocab", "noun")]
    assert unknown["general_per_million"] == 0
    assert unknown["log_ratio"] == pytest.approx(math.log10(40 / 0.01))  # the floor
    ratio = table["log_ratio"]
    band = (ratio > 0.0) & (ratio < 1.0)
    assert (table.loc[band, "auto_domain"] == "ambiguous").all()
    assert (table["domain"] == table["auto_domain"]).all() and not table["reviewed"].any()


def test_inverted_thresholds_fail() -> None:
    with pytest.raises(ValueError, match="general_max_log_ratio"):
        domain_table(COUNTS, TOKENS, DomainParams(biomedical_min_log_ratio=0.0, general_max_log_ratio=1.0))


def test_reviewed_file_overrides(tmp_path: Path) -> None:
    table = domain_table(COUNTS, TOKENS, DomainParams())
    path = tmp_path / "reviewed.csv"
    path.write_text("lemma,pos,domain,note\nhouse,noun,excluded,\nInduce,verb,biomedical,x\nabsent,noun,general,\n")
    reviewed = read_reviewed_domains(path)
    out, counts = apply_review(table, reviewed)
    out = out.set_index(["lemma", "pos"])
    assert out.loc[("house", "noun"), "domain"] == "excluded" and out.loc[("house", "noun"), "reviewed"]
    assert out.loc[("induce", "verb"), "domain"] == "biomedical"
    induce_auto = table.set_index(["lemma", "pos"]).loc[("induce", "verb"), "auto_domain"]
    assert counts == {
        "decisions": 3,
        "applied": 2,
        "changed": 1 + (induce_auto != "biomedical"),
        "unknown": 1,
    }
    path.write_text("lemma,pos,domain\n")
    assert read_reviewed_domains(path).empty


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("lemma,pos\nhouse,noun\n", "columns lemma,pos,domain"),
        ("lemma,pos,domain\nhouse,adj,general\n", r"reviewed.csv:2: expected pos"),
        ("lemma,pos,domain\nhouse,noun,medical\n", "domain in"),
        (
            "lemma,pos,domain\nhouse,noun,general\nhouse,noun,excluded\n",
            r"reviewed.csv:3: expected one decision",
        ),
    ],
)
def test_reviewed_file_errors(tmp_path: Path, text: str, match: str) -> None:
    path = tmp_path / "reviewed.csv"
    path.write_text(text)
    with pytest.raises(SourceFormatError, match=match):
        read_reviewed_domains(path)


def test_frequency_correlation_and_sheet() -> None:
    table = domain_table(COUNTS, TOKENS, DomainParams())
    corr = frequency_correlation(table).set_index("pos")
    expected = spearmanr(table["corpus_per_million"], table["general_per_million"]).statistic
    assert corr.loc["all", "spearman_rho"] == pytest.approx(expected)
    assert corr.loc["all", "words"] == 5 and corr.loc["all", "unknown_to_wordfreq"] == 1
    assert math.isnan(corr.loc["verb", "spearman_rho"])  # two verbs: undefined
    sheet = review_sheet(table)
    assert list(sheet["reviewed_domain"].unique()) == [""]
    nouns = sheet[sheet["pos"] == "noun"]
    assert nouns["log_ratio"].is_monotonic_decreasing
