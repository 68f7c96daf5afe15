"""Biomedical vs general words by relative frequency (Chiu et al. 2018, § Word selection).

The paper compares each word's frequency in the biomedical corpus with its frequency in general
English (the BNC) and has an expert review the split. biosem uses ``wordfreq`` (English, "large"
list: a balanced mix of subtitles, news, books, web text, Wikipedia and social media) as the
general-English reference and emits a review sheet; a reviewed file overrides the automatic split.

* ``corpus_per_million`` = lemma tokens of the POS / corpus word tokens x 10^6.
* ``general_per_million`` = the summed ``wordfreq`` frequency of the lemma's forms (the lemma and
  its inflections for the POS from lemminflect: *tumor*, *tumors*; *induce*, *induces*, *induced*,
  *inducing*) x 10^6. wordfreq counts a form whatever its POS, so *increase* (noun) gets the
  frequency of the verb uses too; the log ratio is robust to that factor at the thresholds used.
* ``log_ratio`` = log10(corpus_per_million / max(general_per_million, floor)); words wordfreq does
  not know get the floor (default 0.01 per million, wordfreq's smallest reported value).
* ``auto_domain``: ``biomedical`` if log_ratio >= ``biomedical_min_log_ratio``, ``general`` if
  log_ratio <= ``general_max_log_ratio``, else ``ambiguous`` (excluded from both).
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from lemminflect import getAllInflections, getAllInflectionsOOV
from scipy.stats import spearmanr
from wordfreq import word_frequency

from biosem.errors import SourceFormatError
from biosem.simlex.schemas import POS_NAMES

REVIEW_DOMAINS = ("biomedical", "general", "excluded")
"""Values a reviewer may give in the reviewed domain file."""


@dataclass(frozen=True)
class DomainParams:
    """Domain split thresholds (config ``simlex.domain``)."""

    biomedical_min_log_ratio: float = 1.0
    general_max_log_ratio: float = 0.0
    general_floor_per_million: float = 0.01
    wordfreq_list: str = "large"


def lemma_forms(lemma: str, pos: str) -> tuple[str, ...]:
    """The lemma and its inflected forms for ``pos`` (noun|verb) from lemminflect, sorted, distinct."""
    upos = "NOUN" if pos == "noun" else "VERB"
    inflections = getAllInflections(lemma, upos=upos) or getAllInflectionsOOV(lemma, upos=upos)
    forms = {lemma}
    for values in inflections.values():
        forms.update(v.lower() for v in values)
    return tuple(sorted(forms))


def general_per_million(lemma: str, pos: str, wordlist: str = "large") -> float:
    """Summed wordfreq English frequency of the lemma's forms, per million tokens (0 when unknown)."""
    return 1e6 * sum(word_frequency(form, "en", wordlist=wordlist) for form in lemma_forms(lemma, pos))


def domain_table(word_counts: pd.DataFrame, word_tokens: int, params: DomainParams) -> pd.DataFrame:
    """Relative frequencies, log ratio and automatic domain of every (lemma, POS) of ``word_counts``.

    Args:
        word_counts: columns ``lemma, pos, count, document_count`` (the ``word_counts`` table).
        word_tokens: corpus size in word tokens (``filters.tsv`` row ``all/word_tokens``).
        params: thresholds.

    Returns:
        The ``word_domains`` columns; ``domain`` = ``auto_domain`` and ``reviewed`` = False.

    Raises:
        ValueError: ``word_tokens`` is not positive or the thresholds are inverted.
    """
    if word_tokens <= 0:
        raise ValueError(f"corpus size must be positive, got {word_tokens} word tokens")
    if params.general_max_log_ratio > params.biomedical_min_log_ratio:
        raise ValueError(
            "simlex.domain.general_max_log_ratio must not exceed biomedical_min_log_ratio "
            f"({params.general_max_log_ratio} > {params.biomedical_min_log_ratio})"
        )
    out = word_counts[["lemma", "pos", "count", "document_count"]].copy()
    out["corpus_per_million"] = out["count"].to_numpy(dtype=float) / word_tokens * 1e6
    out["general_per_million"] = [
        general_per_million(lemma, pos, params.wordfreq_list)
        for lemma, pos in zip(out["lemma"], out["pos"], strict=True)
    ]
    general = np.maximum(out["general_per_million"].to_numpy(), params.general_floor_per_million)
    out["log_ratio"] = np.log10(out["corpus_per_million"].to_numpy() / general)
    ratio = out["log_ratio"].to_numpy()
    out["auto_domain"] = np.where(
        ratio >= params.biomedical_min_log_ratio,
        "biomedical",
        np.where(ratio <= params.general_max_log_ratio, "general", "ambiguous"),
    )
    out["domain"] = out["auto_domain"]
    out["reviewed"] = False
    return out.sort_values(["pos", "lemma"], kind="stable", ignore_index=True)


def read_reviewed_domains(path: str | Path) -> pd.DataFrame:
    """A reviewed domain file: CSV with header ``lemma,pos,domain`` (extra columns ignored).

    ``pos`` is noun|verb, ``domain`` biomedical|general|excluded. A header-only file overrides nothing.

    Raises:
        SourceFormatError: a missing column, an unknown pos or domain, an empty lemma, or the same
            (lemma, pos) twice with different decisions; the line is reported.
    """
    path = Path(path)
    rows = []
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = {"lemma", "pos", "domain"} - set(reader.fieldnames or ())
        if missing:
            raise SourceFormatError(
                path, 1, "a header with columns lemma,pos,domain", ",".join(reader.fieldnames or ())
            )
        seen: dict[tuple[str, str], str] = {}
        for row in reader:
            line = reader.line_num
            lemma = (row["lemma"] or "").strip().lower()
            pos = (row["pos"] or "").strip().lower()
            domain = (row["domain"] or "").strip().lower()
            if not lemma:
                raise SourceFormatError(path, line, "a lemma", str(row))
            if pos not in POS_NAMES:
                raise SourceFormatError(path, line, f"pos in {POS_NAMES}", pos)
            if domain not in REVIEW_DOMAINS:
                raise SourceFormatError(path, line, f"domain in {REVIEW_DOMAINS}", domain)
            if seen.get((lemma, pos), domain) != domain:
                raise SourceFormatError(
                    path,
                    line,
                    f"one decision per (lemma, pos); {lemma}/{pos} already {seen[(lemma, pos)]}",
                    domain,
                )
            seen[(lemma, pos)] = domain
            rows.append((lemma, pos, domain))
    return pd.DataFrame(rows, columns=["lemma", "pos", "domain"]).drop_duplicates(ignore_index=True)


def apply_review(table: pd.DataFrame, reviewed: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, int]]:
    """Override ``domain`` with the reviewed decisions; returns (table, counts).

    Decisions for (lemma, POS) not in the vocabulary are ignored and counted (``unknown``).
    """
    decisions = reviewed.set_index(["lemma", "pos"])["domain"]
    keys = pd.MultiIndex.from_frame(table[["lemma", "pos"]])
    hit = decisions.reindex(keys)
    mask = hit.notna().to_numpy()
    table = table.copy()
    table.loc[mask, "domain"] = hit.to_numpy()[mask]
    table.loc[mask, "reviewed"] = True
    changed = int((table.loc[mask, "domain"] != table.loc[mask, "auto_domain"]).sum())
    counts = {
        "decisions": len(reviewed),
        "applied": int(mask.sum()),
        "changed": changed,
        "unknown": len(reviewed) - int(mask.sum()),
    }
    return table, counts


def frequency_correlation(table: pd.DataFrame) -> pd.DataFrame:
    """Spearman rho between corpus and general-English frequency rankings, per POS and overall.

    Words unknown to wordfreq count with frequency 0 (tied at the bottom). Paper: rho = 0.39 between
    the biomedical corpus and the BNC. Columns ``pos, words, spearman_rho, p_value, unknown_to_wordfreq``.
    """
    rows: list[dict[str, Any]] = []
    for pos in (*POS_NAMES, "all"):
        part = table if pos == "all" else table[table["pos"] == pos]
        if len(part) >= 3:
            res = spearmanr(part["corpus_per_million"], part["general_per_million"])
            rho, p = float(res.statistic), float(res.pvalue)
        else:
            rho, p = math.nan, math.nan
        rows.append(
            {
                "pos": pos,
                "words": len(part),
                "spearman_rho": rho,
                "p_value": p,
                "unknown_to_wordfreq": int((part["general_per_million"] == 0).sum()),
            }
        )
    return pd.DataFrame(rows)


def review_sheet(table: pd.DataFrame) -> pd.DataFrame:
    """The expert review sheet: every word with its evidence and an empty ``reviewed_domain`` column.

    Sorted by POS, then log ratio (most biomedical first), then lemma. A reviewer fills
    ``reviewed_domain`` (biomedical|general|excluded) and saves the rows as the reviewed file
    (columns lemma,pos,domain).
    """
    sheet = table.sort_values(["pos", "log_ratio", "lemma"], ascending=[True, False, True], kind="stable")
    sheet = sheet[
        [
            "lemma",
            "pos",
            "count",
            "document_count",
            "corpus_per_million",
            "general_per_million",
            "log_ratio",
            "auto_domain",
            "domain",
            "reviewed",
        ]
    ].copy()
    sheet["reviewed_domain"] = ""
    return sheet.reset_index(drop=True)


def params_from_config(cfg: dict[str, Any]) -> DomainParams:
    """DomainParams from config ``simlex.domain`` (keys other than the thresholds are ignored)."""
    known = set(DomainParams.__dataclass_fields__)
    return DomainParams(**{k: v for k, v in cfg.items() if k in known})
