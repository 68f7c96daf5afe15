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

**Namespace terminologies** (``wic.namespace_terminologies``: ``{GO: go, CL: cl, UBERON: uberon, SO:
so, MOP: mop}`` in the default). Each unifies the ids of its own namespace, beside the main terminology
and whether or not there is one: a corpus id ``GO:0010467`` (CRAFT) is looked up in the ``go``
terminology with :func:`biosem.terminology.resolve.resolve_ids` (a current id as it is; an ``alt_id``
to the term it was merged into; an obsolete term through ``replaced_by`` to its replacement) and the
current id is the concept (``unified`` = ``namespace_terminology``; column ``resolution`` says how). An
id that reaches no current term is dropped: ``obsolete_id``, ``ambiguous_id`` or ``unresolved_id``
(CRAFT v5.0.2 annotates GO 2017 and CL 2016 ids; the mirror's GO and CL are newer). The namespaces stay
apart: a GO concept and a MeSH concept never share an id, and a pair of them is never a negative
(:mod:`biosem.wic.prune`, ``cross_namespace``). Namespaces without a terminology (CRAFT's CHEBI, PR,
NCBITaxon, MONDO) are ``keep_unmapped`` namespaces, as OMIM is.

Either way a mention without an id (BC5CDR ``-1``; ``no_concept``) or with several ids (NCBI Disease
composite mentions ``D001|D002`` / ``D001+D002``, BC5CDR ``|`` lists, BioRED ``,`` lists;
``composite``) names no single concept and is dropped, as the reference does (it skips ``|`` lists and
its ``+`` strings never map). Mentions of types a corpus is not used for (``wic.mention_types``: BioRED's
genes, species, cell lines and variants, whose ids no MeSH-based terminology covers) are dropped first
(``mention_type``). A discontinuous mention (several spans, CRAFT's "agenesis of ... corpus callosum":
its text is the extent of its spans, words between them included) is never a target (``discontinuous``).

Articles whose open-access notice does not permit redistribution (``wic.permitted_notices``; classes of
:mod:`biosem.corpora.notices`: CRAFT's five Oxford University Press articles are "All rights
reserved") contribute no sentence (:func:`exclude_by_notice`), since every released sentence must be
one its article's notice lets biosem redistribute.

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
from biosem.terminology.resolve import resolve_ids
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
    "obsolete_id",
    "ambiguous_id",
    "unresolved_id",
    "inside_word",
)
UNIFIED = ("corpus", "terminology", "heading", "namespace_terminology", "kept_unmapped")
"""How a kept mention got its concept id (column ``unified``)."""


UNRESOLVED_REASONS = {"obsolete": "obsolete_id", "ambiguous": "ambiguous_id", "unresolved": "unresolved_id"}
"""Drop reason of a namespace-terminology id by its :func:`biosem.terminology.resolve.resolve_ids` resolution."""


def exclude_by_notice(
    sentences: pd.DataFrame, mentions: pd.DataFrame, notices: pd.DataFrame, permitted: Sequence[str]
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Leave out the documents whose open-access notice is not of a ``permitted`` class.

    Only corpora that have a notice table are filtered (CRAFT); PubTator abstracts carry no
    per-document notice and are kept.

    Args:
        sentences, mentions: the corpora intermediates, concatenated.
        notices: the ``notices`` intermediates of the corpora that have one, concatenated, with
            ``notice_class`` (:func:`biosem.corpora.notices.classify_notices`).
        permitted: the notice classes whose articles may contribute sentences
            (``wic.permitted_notices``).

    Returns:
        ``(sentences, mentions, counts)``; counts (corpus, step, n): ``documents_excluded_notice_<class>``
        per excluded class, ``sentences_excluded_notice``, ``mentions_excluded_notice``.

    Raises:
        ValueError: a document of a corpus with notices has no notice (the corpus contract: one
            notice per article).
    """
    noticed = set(notices["corpus"])
    docs = sentences.loc[sentences["corpus"].isin(noticed), ["corpus", "document_id"]].drop_duplicates()
    merged = docs.merge(notices[["corpus", "document_id", "notice_class"]], on=["corpus", "document_id"], how="left")
    missing = merged[merged["notice_class"].isna()]
    if len(missing):
        shown = ", ".join(f"{r.corpus}/{r.document_id}" for r in missing.head(5).itertuples())
        raise ValueError(f"{len(missing)} document(s) of corpora with notices have no notice: {shown}")
    out = merged[~merged["notice_class"].isin(list(permitted))]
    counts: list[tuple[str, str, int]] = []
    for (corpus, kind), n in out.groupby(["corpus", "notice_class"], sort=True).size().items():
        counts.append((corpus, f"documents_excluded_notice_{kind}", int(n)))
    keys = ["corpus", "document_id"]
    drop_s = sentences[keys].merge(out[keys].assign(_x=True), on=keys, how="left")["_x"].fillna(False).to_numpy(bool)
    drop_m = mentions[keys].merge(out[keys].assign(_x=True), on=keys, how="left")["_x"].fillna(False).to_numpy(bool)
    for corpus in sorted(out["corpus"].unique()):
        counts.append((corpus, "sentences_excluded_notice", int((drop_s & (sentences["corpus"] == corpus)).sum())))
        counts.append((corpus, "mentions_excluded_notice", int((drop_m & (mentions["corpus"] == corpus)).sum())))
    return (
        sentences[~drop_s].reset_index(drop=True),
        mentions[~drop_m].reset_index(drop=True),
        pd.DataFrame(counts, columns=["corpus", "step", "n"]),
    )


def namespace_ids(mentions: pd.DataFrame, namespaces: Sequence[str]) -> dict[str, list[str]]:
    """The distinct single ids of each of ``namespaces`` (upper-case namespace -> sorted ids) in the
    mentions' ``concept_ids`` (composite mentions left out: they are dropped anyway)."""
    wanted = {ns.upper() for ns in namespaces}
    out: dict[str, set[str]] = {ns: set() for ns in wanted}
    for ids in mentions["concept_ids"]:
        if ids is not None and len(ids) == 1:
            ns = str(ids[0]).partition(":")[0].upper()
            if ns in wanted:
                out[ns].add(str(ids[0]))
    return {ns: sorted(v) for ns, v in sorted(out.items())}


def resolve_namespace_ids(
    ids: Mapping[str, Sequence[str]],
    terminologies: Mapping[str, tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]],
) -> pd.DataFrame:
    """Resolve the corpus ids of each namespace against its terminology (``unify_concepts(resolved=...)``).

    Args:
        ids: upper-case namespace -> ids (:func:`namespace_ids`).
        terminologies: upper-case namespace -> the terminology's ``(concepts, associations, mappings)``
            intermediates (mappings: at least the ``alt_id`` rows).

    Returns:
        :func:`biosem.terminology.resolve.resolve_ids` rows (``id, concept_id, resolution, steps``)
        with ``namespace``, namespaces in sorted order.

    Raises:
        KeyError: a namespace of ``ids`` has no terminology.
    """
    frames = []
    for ns in sorted(ids):
        concepts, associations, mappings = terminologies[ns]
        frames.append(resolve_ids(ids[ns], concepts, associations, mappings).assign(namespace=ns))
    if not frames:
        return pd.DataFrame(columns=["id", "concept_id", "resolution", "steps", "namespace"])
    return pd.concat(frames, ignore_index=True)


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
    resolved: pd.DataFrame | None = None,
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
        resolved: the ids of the namespace terminologies, resolved
            (:func:`biosem.terminology.resolve.resolve_ids` rows: ``id, concept_id, resolution``)
            with ``namespace`` (upper case, e.g. ``GO``): a mention whose id is in a namespace of this
            table gets the resolved concept, or is dropped (:data:`UNRESOLVED_REASONS`). ``None``: no
            namespace terminology.

    Returns:
        A copy of ``mentions`` with ``concept_id`` (str or None), ``drop_reason`` (None where kept,
        else one of :data:`DROP_REASONS`), ``unified`` (None where dropped, else one of
        :data:`UNIFIED`) and ``resolution`` (the namespace terminology's resolution of the id, else None).

    Raises:
        ValueError: ``mappings`` given without ``concepts``; a namespace-terminology id missing
            from ``resolved``.
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
    parts = single.fillna("").str.partition(":")
    namespace, local = parts[0].str.upper(), parts[2]
    concept = pd.Series(None, index=out.index, dtype=object)
    how = pd.Series(None, index=out.index, dtype=object)
    resolution = pd.Series(None, index=out.index, dtype=object)
    by_namespace = pd.Series(False, index=out.index)
    if resolved is not None:
        by_namespace = namespace.isin(set(resolved["namespace"]))
        todo = by_namespace & reason.isna()
        table = resolved.drop_duplicates("id").set_index("id")
        missing = sorted(set(single[todo]) - set(table.index))
        if missing:
            raise ValueError(
                f"unify_concepts: {len(missing)} namespace-terminology id(s) not resolved, e.g. {missing[:5]}"
            )
        got = table.reindex(single[todo].to_numpy())
        resolution[todo] = got["resolution"].to_numpy()
        current = got["concept_id"].notna().to_numpy()
        idx = todo[todo].index
        concept[idx[current]] = got["concept_id"].to_numpy()[current]
        how[idx[current]] = "namespace_terminology"
        reason[idx[~current]] = got["resolution"].map(UNRESOLVED_REASONS).to_numpy()[~current]
    if mappings is None:
        rest = reason.isna() & ~by_namespace
        concept[rest] = single[rest]
        how[rest] = "corpus"
        out["concept_id"] = concept.where(reason.isna(), None)
        out["drop_reason"] = reason
        out["unified"] = how.where(reason.isna(), None)
        out["resolution"] = resolution
        return out
    if concepts is None:
        raise ValueError("unify_concepts: mappings given without the terminology's concepts")

    direct = (
        reason.isna() & ~by_namespace & (namespace == own_namespace)
        if own_namespace
        else pd.Series(False, index=out.index)
    )
    if direct.any():
        known = direct & local.isin(set(concepts["concept_id"]))
        concept[known] = local[known]
        how[known] = "terminology"
        reason[direct & ~known] = "not_in_terminology"

    usable = mappings[~mappings["code"].isin(["", NOCODE])]
    per_code = usable.groupby(["code_system", "code"], sort=True)["concept_id"].agg(["nunique", "first"])
    coded = reason.isna() & ~direct & ~by_namespace & namespace.isin(list(code_systems))
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
    out["resolution"] = resolution
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


def inside_word(mentions: pd.DataFrame) -> np.ndarray:
    """Whether each mention starts or ends inside a word of its sentence: a letter or digit on both sides
    of its start or of its end (CRAFT annotates "expression" in "overexpression", "natal" in "postnatal",
    the gene symbol "Mtf1" in the allele "Mtf1Mx-cre": 3.7 % of its mentions, 0.3 % of BioRED's).

    Args:
        mentions: ``sentence, sentence_start, sentence_end`` (:func:`check_mention_offsets` output).
    """
    out = np.zeros(len(mentions), dtype=bool)
    for i, (text, a, b) in enumerate(zip(mentions["sentence"], mentions["sentence_start"], mentions["sentence_end"])):
        out[i] = (0 < a < len(text) and text[a - 1].isalnum() and text[a].isalnum()) or (
            0 < b < len(text) and text[b].isalnum() and text[b - 1].isalnum()
        )
    return out


def select_mentions(
    sentences: pd.DataFrame, unified: pd.DataFrame, seed: int, *, word_boundaries: bool = False
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """One eligible mention per sentence, chosen with a seeded generator per corpus.

    Args:
        sentences: the corpora ``sentences`` intermediates, concatenated.
        unified: :func:`unify_concepts` output for the same corpora.
        seed: config ``seed``; the draw for corpus ``c`` uses ``generator(seed, "wic", "select", c)``.
        word_boundaries: a mention that starts or ends inside a word (:func:`inside_word`) is not
            eligible (``inside_word``; config ``wic.word_boundary_targets``): a part of a word is not a
            word in context.

    Sentences are ordered by (corpus, document_id, sentence_id). A sentence text that occurs more than
    once (PMIDs repeated within or across corpora) is kept once: its first occurrence that has an
    eligible mention (``duplicate_sentence`` in the counts). A mention is eligible if it has a concept
    id and a non-blank text.

    Returns:
        ``(selected, corpus_terms, counts)``: ``selected`` in the :data:`biosem.wic.schemas.SELECTED`
        layout; ``corpus_terms`` (concept_id, term_lower, mentions, documents) over every eligible
        mention (documents: distinct PMIDs, so a PMID repeated across corpora counts once);
        ``counts`` (corpus, step, n) for the log and report (drop reasons, how mentions were unified,
        ``mentions_resolved_<NS>_<resolution>`` for the ids of namespace terminologies).

    Raises:
        ValueError: see :func:`check_mention_offsets`.
    """
    sent_keys = ["corpus", "document_id", "sentence_id"]
    merged = check_mention_offsets(unified, sentences)
    if word_boundaries:
        merged.loc[merged["drop_reason"].isna().to_numpy() & inside_word(merged), "drop_reason"] = "inside_word"
        merged.loc[merged["drop_reason"].notna(), "unified"] = None
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
    if "resolution" in merged:
        res = merged[merged["resolution"].notna()]
        ns = res["concept_ids"].map(lambda x: str(x[0]).partition(":")[0])
        for (corpus, space, how), n in res.groupby([res["corpus"], ns, res["resolution"]], sort=True).size().items():
            counts.append((corpus, f"mentions_resolved_{space}_{how}", int(n)))
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
