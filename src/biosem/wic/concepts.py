"""Concept unification of corpus mentions and the choice of one mention per sentence.

BioWiC (Rouhizadeh et al. 2024, § Methods "Data collection"; reference ``step1_sentence_extraction.py``)
links every mention to a UMLS CUI: MedMentions mentions carry CUIs, BC5CDR and NCBI Disease mentions
carry MeSH (and OMIM) codes that are mapped to CUIs only where the code belongs to exactly one CUI.
Each sentence with at least one linked mention then contributes one mention, chosen at random.

biosem does this with any ingested terminology whose ``mappings`` cover the corpus namespaces, or
without one (config ``wic.terminology``):

* **with a terminology**: a corpus id ``<NS>:<code>`` whose namespace has a code system
  (``wic.code_systems.<terminology>``: ``{MESH: MSH, OMIM: OMIM}`` for UMLS, ``{MESH: MESH}`` for
  MeSH) is looked up in the terminology's ``mappings`` and replaced by the concept if exactly one
  concept has that code (``unmapped_code``, ``ambiguous_code`` otherwise). With MeSH a descriptor
  ``MESH:D…`` maps to its preferred concept and a supplementary record ``MESH:C…`` (read with
  ``terminologies.<mesh>.supplementary``) to its own concept, or, with ``supplementary_records:
  heading``, to the concept of the one heading it is mapped to (relation ``mapped_to``; an SCR mapped
  to several headings is ``ambiguous_heading``). ``UMLS:<CUI>`` ids are kept if the CUI is a concept
  of the terminology (``own_namespace`` = ``UMLS`` for an RRF terminology; ``not_in_terminology``).
  A mention the terminology cannot unify (another namespace: ``unknown_namespace``, or an unmapped
  code) is dropped, unless its namespace is listed in ``keep_unmapped``: then its namespaced corpus
  id (``OMIM:608089``, a retired ``MESH:C…``) is its concept, and it is never paired as a negative
  with a terminology concept (:mod:`biosem.wic.prune`, ``cross_namespace``). Either way it is counted
  (``unified`` = ``terminology``, ``heading`` or ``kept_unmapped``).
* **without a terminology**: the corpus' own namespaced id (``MESH:D014262``, ``OMIM:608089``,
  ``UMLS:C0011849``) is the concept id (``unified`` = ``corpus``).

Either way a mention without an id (BC5CDR ``-1``; ``no_concept``) or with several ids (NCBI Disease
composite mentions ``D001|D002`` / ``D001+D002``, BC5CDR ``|`` lists, BioRED ``,`` lists;
``composite``) names no single concept and is dropped, as the reference does (it skips ``|`` lists and
its ``+`` strings never map). Mentions of types a corpus is not used for (``wic.mention_types``: BioRED's
genes, species, cell lines and variants, whose ids no MeSH-based terminology covers) are dropped first
(``mention_type``). A discontinuous mention (several spans, CRAFT's "agenesis of ... corpus callosum":
its text is the extent of its spans, words between them included) is never a target (``discontinuous``).

A PMID found in several corpora (BioRED re-annotates ~200 BC5CDR and NCBI Disease abstracts) is kept
in the first corpus of ``wic.corpora`` that has it (:func:`deduplicate_documents`), so one abstract
never contributes sentences twice, with two annotations, to different splits.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from biosem.seeds import generator
from biosem.wic.lexical import lemmas

log = logging.getLogger(__name__)

DEFAULT_CODE_SYSTEMS: dict[str, str] = {"MESH": "MSH", "OMIM": "OMIM"}
"""Corpus id namespace -> code system (UMLS SAB) of a UMLS terminology's ``mappings``."""
CUI_NAMESPACE = "UMLS"
NOCODE = "NOCODE"
MAPPED_TO = "mapped_to"
"""RELA of a MeSH supplementary concept record's link to the heading it is mapped to (MeSH and UMLS)."""
SUPPLEMENTARY_POLICIES = ("record", "heading")
DROP_REASONS = (
    "discontinuous",
    "mention_type",
    "no_concept",
    "composite",
    "unknown_namespace",
    "unmapped_code",
    "ambiguous_code",
    "ambiguous_heading",
    "not_in_terminology",
)
UNIFIED = ("corpus", "terminology", "heading", "kept_unmapped")
"""How a kept mention got its concept id (column ``unified``)."""


def deduplicate_documents(
    sentences: pd.DataFrame, mentions: pd.DataFrame, corpora: Sequence[str]
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Keep each PMID in one corpus only: the first of ``corpora`` (config ``wic.corpora`` order) that has it.

    BioRED re-annotates abstracts of BC5CDR and NCBI Disease; their texts and annotations differ in
    detail, so sentence-text deduplication alone could leave one abstract's sentences, annotated
    twice, in test and in train.

    Returns:
        ``(sentences, mentions, counts)`` without the later copies; counts (corpus, step, n) with
        ``documents`` and ``documents_dropped_in_<earlier corpus>`` per corpus.

    Raises:
        ValueError: a corpus of the tables is not in ``corpora``.
    """
    rank = {c: i for i, c in enumerate(corpora)}
    unknown = sorted(set(sentences["corpus"]) - set(rank))
    if unknown:
        raise ValueError(f"deduplicate_documents: corpora {unknown} are not in the priority list {list(corpora)}")
    docs = sentences[["corpus", "document_id"]].drop_duplicates()
    docs = docs.assign(rank=docs["corpus"].map(rank)).sort_values(["document_id", "rank"], kind="stable")
    owner = docs.drop_duplicates("document_id", keep="first").set_index("document_id")["corpus"]
    docs["owner"] = docs["document_id"].map(owner)
    counts: list[tuple[str, str, int]] = []
    for corpus in corpora:
        mine = docs[docs["corpus"] == corpus]
        if mine.empty:
            continue
        counts.append((corpus, "documents", len(mine)))
        for other, n in mine[mine["owner"] != corpus].groupby("owner", sort=True).size().items():
            counts.append((corpus, f"documents_dropped_in_{other}", int(n)))
    keep = docs.loc[docs["owner"] == docs["corpus"], ["corpus", "document_id"]]
    sentences = sentences.merge(keep, on=["corpus", "document_id"], how="inner")
    mentions = mentions.merge(keep, on=["corpus", "document_id"], how="inner")
    return sentences, mentions, pd.DataFrame(counts, columns=["corpus", "step", "n"])


def unify_concepts(
    mentions: pd.DataFrame,
    mappings: pd.DataFrame | None = None,
    concepts: pd.DataFrame | None = None,
    code_systems: Mapping[str, str] = DEFAULT_CODE_SYSTEMS,
    *,
    own_namespace: str | None = CUI_NAMESPACE,
    keep_unmapped: Sequence[str] = (),
    headings: pd.DataFrame | None = None,
    mention_types: Mapping[str, Sequence[str]] | None = None,
) -> pd.DataFrame:
    """Give each mention one concept id or a drop reason (rules: module docstring).

    Args:
        mentions: the corpora ``mentions`` intermediate (``corpus``, ``type``, ``concept_ids``: list of
            namespaced ids).
        mappings: the terminology's ``mappings`` (concept_id, code_system, code), or ``None`` to use
            the corpus ids as they are. Codes ``""`` and ``NOCODE`` are ignored.
        concepts: the terminology's ``concepts`` (needed with ``mappings``; ids of ``own_namespace``
            given directly by a corpus must be among them).
        code_systems: corpus namespace -> code system, e.g. ``{"MESH": "MSH", "OMIM": "OMIM"}``.
        own_namespace: the corpus namespace whose ids are the terminology's concept ids (``UMLS`` for
            an RRF terminology; ``None`` for MeSH, whose concept ids no corpus uses).
        keep_unmapped: corpus namespaces whose ids the terminology does not unify (unmapped code,
            or no code system) are kept as their own namespaced concept ids instead of dropped.
        headings: ``concept_id, heading_id`` (a MeSH SCR's concept -> the concept of a heading it is
            mapped to): ``MESH:C…`` codes are followed to their heading when it is exactly one.
            ``None``: an SCR is its own concept.
        mention_types: corpus -> the mention types used; corpora not listed use every type.

    Returns:
        A copy of ``mentions`` with ``concept_id`` (str or None), ``drop_reason`` (None where kept,
        else one of :data:`DROP_REASONS`) and ``unified`` (None where dropped, else one of
        :data:`UNIFIED`).

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
    if "discontinuous" in out:
        reason[out["discontinuous"].fillna(False).astype(bool).to_numpy()] = "discontinuous"
    if mention_types:
        allowed = pd.Series(True, index=out.index)
        for corpus, types in mention_types.items():
            in_corpus = out["corpus"] == corpus
            allowed &= ~in_corpus | out["type"].isin(list(types))
        reason[~allowed] = "mention_type"
    if mappings is None:
        out["concept_id"] = single.where(reason.isna(), None)
        out["drop_reason"] = reason
        out["unified"] = pd.Series("corpus", index=out.index, dtype=object).where(reason.isna(), None)
        return out
    if concepts is None:
        raise ValueError("unify_concepts: mappings given without the terminology's concepts")
    parts = single.fillna("").str.partition(":")
    namespace, local = parts[0].str.upper(), parts[2]
    concept = pd.Series(None, index=out.index, dtype=object)
    how = pd.Series(None, index=out.index, dtype=object)

    direct = reason.isna() & (namespace == own_namespace) if own_namespace else pd.Series(False, index=out.index)
    if direct.any():
        known = direct & local.isin(set(concepts["concept_id"]))
        concept[known] = local[known]
        how[known] = "terminology"
        reason[direct & ~known] = "not_in_terminology"

    usable = mappings[~mappings["code"].isin(["", NOCODE])]
    per_code = usable.groupby(["code_system", "code"], sort=True)["concept_id"].agg(["nunique", "first"])
    coded = reason.isna() & ~direct & namespace.isin(list(code_systems))
    if coded.any():
        keys = pd.MultiIndex.from_arrays([namespace[coded].map(dict(code_systems)), local[coded]])
        found = per_code.reindex(keys)
        n_concepts = found["nunique"].fillna(0).to_numpy()
        idx = coded[coded].index
        reason[idx[n_concepts == 0]] = "unmapped_code"
        reason[idx[n_concepts > 1]] = "ambiguous_code"
        one = idx[n_concepts == 1]
        concept[one] = found["first"].to_numpy()[n_concepts == 1]
        how[one] = "terminology"
        if headings is not None and len(one):
            scr = pd.Index(one[(namespace[one] == "MESH").to_numpy() & local[one].str.startswith("C").to_numpy()])
            per_scr = headings.groupby("concept_id", sort=True)["heading_id"].agg(["nunique", "first"])
            got = per_scr.reindex(concept[scr].to_numpy())
            n_head = got["nunique"].fillna(0).to_numpy()
            reason[scr[n_head > 1]] = "ambiguous_heading"
            concept[scr[n_head == 1]] = got["first"].to_numpy()[n_head == 1]
            how[scr[n_head == 1]] = "heading"
    reason[reason.isna() & how.isna() & ~coded & ~direct] = "unknown_namespace"
    keep = reason.isin(["unmapped_code", "unknown_namespace"]) & namespace.isin([ns.upper() for ns in keep_unmapped])
    concept[keep] = single[keep]
    how[keep] = "kept_unmapped"
    reason[keep] = None
    out["concept_id"] = concept.where(reason.isna(), None)
    out["drop_reason"] = reason
    out["unified"] = how.where(reason.isna(), None)
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
    if "unified" in eligible:
        for (corpus, how), n in eligible.groupby(["corpus", "unified"], sort=True).size().items():
            counts.append((corpus, f"mentions_unified_{how}", int(n)))
        kept = eligible[eligible["unified"] == "kept_unmapped"]
        by_ns = kept["concept_id"].str.partition(":")[0] if len(kept) else pd.Series(dtype=object)
        for (corpus, ns), n in kept.groupby([kept["corpus"], by_ns], sort=True).size().items():
            counts.append((corpus, f"mentions_kept_unmapped_{ns}", int(n)))
    lost = merged[merged["drop_reason"].isin(["unmapped_code", "unknown_namespace"])]
    if len(lost):
        ns = lost["concept_ids"].map(lambda x: x[0].partition(":")[0])
        for (corpus, why, space), n in (
            lost.groupby([lost["corpus"], lost["drop_reason"], ns], sort=True).size().items()
        ):
            counts.append((corpus, f"mentions_dropped_{why}_{space}", int(n)))

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
