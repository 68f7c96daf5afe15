"""Concept unification of corpus mentions and the choice of one mention per sentence.

BioWiC (Rouhizadeh et al. 2024, § Methods "Data collection"; reference ``step1_sentence_extraction.py``)
links every mention to a UMLS CUI: MedMentions mentions carry CUIs, BC5CDR and NCBI Disease mentions
carry MeSH (and OMIM) codes that are mapped to CUIs only where the code belongs to exactly one CUI.
Each sentence with at least one linked mention then contributes one mention, chosen at random.

biosem does this with or without a UMLS terminology (config ``wic.terminology``):

* **with UMLS** (an ``rrf`` terminology): ``MESH:<code>`` and ``OMIM:<code>`` are looked up in the
  terminology's ``mappings`` (code systems MSH / OMIM, configurable) and replaced by the CUI if exactly
  one CUI has that code; ``UMLS:<CUI>`` is kept if the CUI is a concept of the terminology. Otherwise
  the mention is dropped and counted (``unmapped_code``, ``ambiguous_code``, ``not_in_terminology``,
  ``unknown_namespace``).
* **without UMLS**: the corpus' own namespaced id (``MESH:D014262``, ``OMIM:608089``,
  ``UMLS:C0011849``) is the concept id.

Either way a mention without an id (BC5CDR ``-1``; ``no_concept``) or with several ids (NCBI Disease
composite mentions ``D001|D002`` / ``D001+D002``, BC5CDR ``|`` lists; ``composite``) names no single
concept and is dropped, as the reference does (it skips ``|`` lists and its ``+`` strings never map).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

import numpy as np
import pandas as pd

from biosem.seeds import generator
from biosem.wic.lexical import lemmas

log = logging.getLogger(__name__)

DEFAULT_CODE_SYSTEMS: dict[str, str] = {"MESH": "MSH", "OMIM": "OMIM"}
"""Corpus id namespace -> code system (UMLS SAB) of the terminology's ``mappings``."""
CUI_NAMESPACE = "UMLS"
NOCODE = "NOCODE"
DROP_REASONS = (
    "no_concept",
    "composite",
    "unknown_namespace",
    "unmapped_code",
    "ambiguous_code",
    "not_in_terminology",
)


def unify_concepts(
    mentions: pd.DataFrame,
    mappings: pd.DataFrame | None = None,
    concepts: pd.DataFrame | None = None,
    code_systems: Mapping[str, str] = DEFAULT_CODE_SYSTEMS,
) -> pd.DataFrame:
    """Give each mention one concept id or a drop reason.

    Args:
        mentions: the corpora ``mentions`` intermediate (``concept_ids``: list of namespaced ids).
        mappings: the UMLS terminology's ``mappings`` (concept_id = CUI, code_system = SAB, code), or
            ``None`` to use the corpus ids as they are. Codes ``""`` and ``NOCODE`` are ignored.
        concepts: the terminology's ``concepts`` (needed with ``mappings``; CUIs given directly by a
            corpus must be among them).
        code_systems: corpus namespace -> code system, e.g. ``{"MESH": "MSH", "OMIM": "OMIM"}``.

    Returns:
        A copy of ``mentions`` with ``concept_id`` (str or None) and ``drop_reason`` (None where kept,
        else one of :data:`DROP_REASONS`).

    Raises:
        ValueError: ``mappings`` given without ``concepts``.
    """
    out = mentions.copy()
    ids = [sorted(set(x)) if x is not None else [] for x in out["concept_ids"]]
    n_ids = np.fromiter((len(x) for x in ids), dtype=np.int64, count=len(ids))
    single = pd.Series([x[0] if len(x) == 1 else None for x in ids], index=out.index, dtype=object)
    reason = pd.Series(
        np.where(n_ids == 0, "no_concept", np.where(n_ids > 1, "composite", None)),
        index=out.index,
        dtype=object,
    )
    if mappings is None:
        out["concept_id"] = single.where(reason.isna(), None)
        out["drop_reason"] = reason
        return out
    if concepts is None:
        raise ValueError("unify_concepts: mappings given without the terminology's concepts")
    parts = single.fillna("").str.partition(":")
    namespace, local = parts[0].str.upper(), parts[2]
    concept = pd.Series(None, index=out.index, dtype=object)

    cuis = set(concepts["concept_id"])
    direct = reason.isna() & (namespace == CUI_NAMESPACE)
    known = direct & local.isin(cuis)
    concept[known] = local[known]
    reason[direct & ~known] = "not_in_terminology"

    usable = mappings[~mappings["code"].isin(["", NOCODE])]
    per_code = usable.groupby(["code_system", "code"], sort=True)["concept_id"].agg(["nunique", "first"])
    coded = reason.isna() & namespace.isin(list(code_systems))
    if coded.any():
        keys = pd.MultiIndex.from_arrays([namespace[coded].map(code_systems), local[coded]])
        found = per_code.reindex(keys)
        n_cui = found["nunique"].fillna(0).to_numpy()
        idx = coded[coded].index
        reason[idx[n_cui == 0]] = "unmapped_code"
        reason[idx[n_cui > 1]] = "ambiguous_code"
        concept[idx[n_cui == 1]] = found["first"].to_numpy()[n_cui == 1]
    reason[reason.isna() & ~direct & ~coded] = "unknown_namespace"
    out["concept_id"] = concept.where(reason.isna(), None)
    out["drop_reason"] = reason
    return out


def check_mention_offsets(mentions: pd.DataFrame, sentences: pd.DataFrame) -> pd.DataFrame:
    """Attach each mention's sentence text and check ``sentence[sentence_start:sentence_end] == text``.

    Returns ``mentions`` with a ``sentence`` column.

    Raises:
        ValueError: a mention whose sentence is missing, or whose offsets do not select its text
            (the corpora contract is broken; the message names corpus, document and mention).
    """
    keys = ["corpus", "document_id", "sentence_id"]
    merged = mentions.merge(
        sentences[keys + ["text"]].rename(columns={"text": "sentence"}),
        on=keys,
        how="left",
        validate="m:1",
    )
    missing = merged["sentence"].isna()
    bad = missing.copy()
    ok_rows = ~missing
    got = [
        s[a:b]
        for s, a, b in zip(
            merged["sentence"][ok_rows],
            merged["sentence_start"][ok_rows],
            merged["sentence_end"][ok_rows],
        )
    ]
    bad[ok_rows] = np.asarray(got, dtype=object) != merged["text"][ok_rows].to_numpy(dtype=object)
    if bad.any():
        rows = merged[bad].head(5)
        detail = "; ".join(
            f"{r.corpus}/{r.document_id} mention {r.mention_id} {r.text!r} in sentence {r.sentence_id}"
            for r in rows.itertuples()
        )
        raise ValueError(f"{int(bad.sum())} mention(s) do not match their sentence offsets: {detail}")
    return merged


def select_mentions(
    sentences: pd.DataFrame, unified: pd.DataFrame, seed: int
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """One eligible mention per sentence, chosen with a seeded generator per corpus.

    Args:
        sentences: the corpora ``sentences`` intermediates, concatenated.
        unified: :func:`unify_concepts` output for the same corpora.
        seed: config ``seed``; the draw for corpus ``c`` uses ``generator(seed, "wic", "select", c)``.

    Sentences are ordered by (corpus, document_id, sentence_id). A sentence text that occurs more than
    once (PMIDs repeated within or across corpora) is kept once: its first occurrence that has an
    eligible mention (``duplicate_sentence`` in the counts). A mention is eligible if it has a concept
    id and a non-blank text.

    Returns:
        ``(selected, corpus_terms, counts)``: ``selected`` in the :data:`biosem.wic.schemas.SELECTED`
        layout; ``corpus_terms`` (concept_id, term_lower, mentions, documents) over every eligible
        mention (documents: distinct PMIDs, so a PMID repeated across corpora counts once);
        ``counts`` (corpus, step, n) for the log and report.

    Raises:
        ValueError: see :func:`check_mention_offsets`.
    """
    sent_keys = ["corpus", "document_id", "sentence_id"]
    merged = check_mention_offsets(unified, sentences)
    eligible = merged[merged["drop_reason"].isna() & (merged["text"].str.strip() != "")]
    eligible = eligible.sort_values(sent_keys + ["mention_id"], kind="stable").reset_index(drop=True)

    counts: list[tuple[str, str, int]] = []
    for corpus, n in sentences.groupby("corpus", sort=True).size().items():
        counts.append((corpus, "sentences", int(n)))
    for corpus, n in merged.groupby("corpus", sort=True).size().items():
        counts.append((corpus, "mentions", int(n)))
    for (corpus, why), n in merged.groupby(["corpus", "drop_reason"], sort=True).size().items():
        counts.append((corpus, f"mentions_dropped_{why}", int(n)))
    blank = merged["drop_reason"].isna() & (merged["text"].str.strip() == "")
    for corpus, n in merged[blank].groupby("corpus", sort=True).size().items():
        counts.append((corpus, "mentions_dropped_blank", int(n)))
    for corpus, n in eligible.groupby("corpus", sort=True).size().items():
        counts.append((corpus, "mentions_eligible", int(n)))

    with_mention = eligible[sent_keys + ["sentence"]].drop_duplicates(sent_keys)
    for corpus, n in with_mention.groupby("corpus", sort=True).size().items():
        counts.append((corpus, "sentences_with_eligible_mention", int(n)))
    first = with_mention.drop_duplicates("sentence", keep="first")
    dup = with_mention[~with_mention.index.isin(first.index)]
    for corpus, n in dup.groupby("corpus", sort=True).size().items():
        counts.append((corpus, "sentences_dropped_duplicate_sentence", int(n)))
    kept = eligible.merge(first[sent_keys], on=sent_keys, how="inner")

    chosen_parts = []
    for corpus, part in kept.groupby("corpus", sort=True):
        part = part.reset_index(drop=True)
        sizes = part.groupby(sent_keys, sort=True).size().to_numpy()
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        rng = generator(seed, "wic", "select", str(corpus))
        pick = np.floor(rng.random(sizes.size) * sizes).astype(np.int64)
        chosen_parts.append(part.iloc[starts + np.minimum(pick, sizes - 1)])
        counts.append((corpus, "sentences_selected", int(sizes.size)))
    columns = sent_keys + [
        "sentence",
        "mention_id",
        "text",
        "sentence_start",
        "sentence_end",
        "concept_id",
        "type",
    ]
    chosen = (
        pd.concat(chosen_parts, ignore_index=True)[columns]
        if chosen_parts
        else pd.DataFrame({c: pd.Series(dtype=object) for c in columns})
    )
    chosen = chosen.sort_values(sent_keys, kind="stable").reset_index(drop=True)
    selected = pd.DataFrame(
        {
            "sentence_key": np.arange(len(chosen), dtype=np.int64),
            "corpus": chosen["corpus"],
            "document_id": chosen["document_id"],
            "sentence_id": chosen["sentence_id"],
            "sentence": chosen["sentence"],
            "mention_id": chosen["mention_id"],
            "term": chosen["text"],
            "start": chosen["sentence_start"],
            "end": chosen["sentence_end"],
            "term_lower": chosen["text"].str.lower(),
            "lemma": lemmas(chosen["text"].tolist()),
            "concept_id": chosen["concept_id"],
            "type": chosen["type"],
        }
    )
    corpus_terms = (
        eligible.assign(term_lower=eligible["text"].str.lower())
        .groupby(["concept_id", "term_lower"], sort=True)
        .agg(mentions=("mention_id", "size"), documents=("document_id", "nunique"))
        .reset_index()
    )
    table = pd.DataFrame(counts, columns=["corpus", "step", "n"])
    return selected, corpus_terms, table
