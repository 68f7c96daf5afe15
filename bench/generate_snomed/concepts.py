"""Concepts, descriptions, associations and relationships of the synthetic release, in memory.

:func:`build_tables` draws, from one seed, everything the RF2 files hold except the description and
relationship ids and dates (:mod:`.writer`):

* the fixed concepts (root, hierarchies, attributes, metadata) and their is-a rows;
* active concepts with a semantic tag drawn by SNOMED CT's proportions, a name from the tag's templates
  (a calibrated share of them a one-word sibling of an earlier name), a few metadata markers and
  parenthesised abbreviations, made unique per tag;
* per active concept an FSN ("name (tag)"), a preferred synonym (sometimes an edit of the name), a
  Poisson number of acceptable synonyms (real HPO/WordNet synonyms first, then edits), and sometimes an
  inactive synonym;
* ~8 % inactive concepts, each a reworded copy of an active concept's name with one POSSIBLY EQUIVALENT
  TO / REPLACED BY / SAME AS association to it;
* is-a rows (1-3 parents within the tag; siblings share their base's first parent) and attribute rows
  (finding site, morphology, causative agent, procedure site, method, ingredient, dose form,
  component) with Pareto-skewed targets;
* concept SCTIDs (core and model-component ranges) and effectiveTime dates.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from .rf2 import (
    ASSOCIATED_MORPHOLOGY,
    ASSOCIATION_KINDS,
    CAUSATIVE_AGENT,
    COMPONENT,
    CORE_MODULE,
    DEFINED,
    FINDING_SITE,
    FIXED_CONCEPTS,
    HAS_ACTIVE_INGREDIENT,
    HAS_DOSE_FORM,
    IS_A,
    METHOD,
    MODEL_MODULE,
    MODEL_TAGS,
    PRIMITIVE,
    PROCEDURE_SITE_DIRECT,
    TAGS,
    draw_dates,
    sctids,
)
from .terms import Editor, cap, render_names
from .vocabulary import Vocabulary

# One-word names stay one word when made unique: the pool another word is drawn from, per tag.
SINGLE_WORD_POOL = {
    "substance": "CHEMX",
    "disorder": "DIS1",
    "organism": "ORG1",
    "physical object": "ART1",
    "qualifier value": "QUAL1",
    "procedure": "PROC1",
}
# Share of concepts named as a one-word edit of an earlier concept of the same tag. Calibrated so that
# the mean distance of the Levenshtein negatives approaches Schulz & Juric's Table 2 (FSN-SYN 7.97,
# SYN-SYN 8.00): real SNOMED CT is dense in near-identical sibling names.
SIBLING_FRACTION = {
    "disorder": 0.58,
    "finding": 0.48,
    "procedure": 0.58,
    "body structure": 0.6,
    "clinical drug": 0.7,
    "product": 0.6,
    "medicinal product form": 0.48,
    "organism": 0.2,
    "substance": 0.2,
    "observable entity": 0.48,
}
SIBLING_DEFAULT = 0.25

# Edit kinds and their weights: for the extra synonyms, the preferred term, and inactive concepts.
SYN_EDIT_WEIGHTS = {
    "case": 0.045,
    "plural": 0.015,
    "spelling": 0.04,
    "hyphen": 0.006,
    "drop": 0.09,
    "add": 0.07,
    "reorder": 0.22,
    "comma": 0.04,
    "synonym": 0.065,
    "swap": 0.05,
    "abbrev": 0.09,
    "paren": 0.02,
    "replace": 0.16,
    "combo": 0.09,
}
PT_EDIT_WEIGHTS = {
    "reorder": 0.35,
    "drop": 0.2,
    "synonym": 0.2,
    "abbrev": 0.05,
    "replace": 0.1,
    "spelling": 0.05,
    "add": 0.05,
}
INACTIVE_EDIT_WEIGHTS = {
    "same_as": {
        "spelling": 0.15,
        "plural": 0.15,
        "hyphen": 0.1,
        "synonym": 0.2,
        "reorder": 0.2,
        "case": 0.05,
        "comma": 0.1,
        "drop": 0.05,
    },
    "replaced_by": {"drop": 0.25, "add": 0.2, "synonym": 0.2, "swap": 0.2, "reorder": 0.15},
    "possibly_equivalent_to": {"drop": 0.3, "add": 0.3, "reorder": 0.15, "swap": 0.15, "combo": 0.1},
}
# Extra synonyms per concept: Poisson. Schulz & Juric's Table 2 has FSN-SYN 451,256 and SYN-SYN
# 726,158 pairs over ~350,000 concepts: with n non-FSN terms per concept, E[n] ~ 1.3 and
# E[n(n + 1) / 2] ~ 2.1, so Var[n] ~ 1.2, close to Poisson (a negative binomial with many 5+ concepts
# doubled SYN-SYN). About 92 % of the drawn edits apply to a name.
EXTRA_SYNONYMS_MEAN = 1.5
PT_DIFFERS = 0.15
INACTIVE_SHARE = 0.08
INACTIVE_DESCRIPTION_SHARE = 0.04
MARKER_SHARE = {"finding": 0.012, "situation": 0.03, "disorder": 0.006}
PAREN_ABBREV_SHARE = 0.01
MAX_NAME = 250


class _Kinds:
    """Draw edit kinds by weight with the editor's ``random.Random``."""

    def __init__(self, weights: dict[str, float], rr: random.Random) -> None:
        self.kinds = list(weights)
        w = np.array([weights[k] for k in self.kinds], dtype=np.float64)
        self.cdf = list(np.cumsum(w / w.sum()))
        self.rr = rr

    def draw(self) -> str:
        u = self.rr.random()
        for k, c in zip(self.kinds, self.cdf):
            if u <= c:
                return k
        return self.kinds[-1]


def _truncate(name: str) -> str:
    while len(name) > MAX_NAME and " " in name:
        name = name.rsplit(" ", 1)[0]
    return name[:MAX_NAME]


@dataclass
class Tables:
    """The release as parallel column lists; concepts, descriptions, relationships and associations
    refer to concepts by their index."""

    # concepts (index = position)
    c_id: list[str] = field(default_factory=list)
    c_time: list[int] = field(default_factory=list)
    c_active: list[bool] = field(default_factory=list)
    c_module: list[str] = field(default_factory=list)
    c_defstatus: list[str] = field(default_factory=list)
    c_tag: list[str] = field(default_factory=list)
    c_name: list[str] = field(default_factory=list)
    # descriptions
    d_concept: list[int] = field(default_factory=list)
    d_term: list[str] = field(default_factory=list)
    d_fsn: list[bool] = field(default_factory=list)
    d_active: list[bool] = field(default_factory=list)
    d_preferred: list[bool] = field(default_factory=list)
    # relationships (source index, destination index, group, type id)
    r_src: list[int] = field(default_factory=list)
    r_dst: list[int] = field(default_factory=list)
    r_group: list[int] = field(default_factory=list)
    r_type: list[str] = field(default_factory=list)
    # associations (inactive index, target index, kind)
    a_src: list[int] = field(default_factory=list)
    a_dst: list[int] = field(default_factory=list)
    a_kind: list[str] = field(default_factory=list)

    def add_description(self, concept: int, term: str, fsn: bool, preferred: bool, active: bool = True) -> None:
        """Append one description row."""
        self.d_concept.append(concept)
        self.d_term.append(term)
        self.d_fsn.append(fsn)
        self.d_preferred.append(preferred)
        self.d_active.append(active)


def log_progress(verbose: bool, t0: float, msg: str) -> None:
    """With ``verbose``, print ``msg`` to stderr after the seconds since ``t0``."""
    if verbose:
        print(f"[{time.perf_counter() - t0:6.1f}s] {msg}", file=sys.stderr, flush=True)


def build_tables(n_concepts: int, seed: int, voc: Vocabulary, verbose: bool, t0: float) -> Tables:
    """Draw the release of ``n_concepts`` concepts (fixed ones included) from ``seed``; the same
    arguments and vocabulary give the same tables."""
    n_fixed = len(FIXED_CONCEPTS)
    if n_concepts < n_fixed + 100:
        raise ValueError(f"--concepts must be at least {n_fixed + 100}, got {n_concepts}")
    rng = np.random.default_rng(seed)
    rr = random.Random(int(rng.integers(2**62)))
    ed = Editor(voc, rr, rng)
    tb = Tables()

    # -- fixed concepts --------------------------------------------------------------------------
    index_of: dict[str, int] = {}
    for cid, fsn, module, _parent in FIXED_CONCEPTS:
        index_of[cid] = len(tb.c_id)
        tb.c_id.append(cid)
        tb.c_time.append(20020131)
        tb.c_active.append(True)
        tb.c_module.append(module)
        tb.c_defstatus.append(PRIMITIVE)
        name, _, tag = fsn.rpartition(" (")
        tb.c_tag.append(tag[:-1])
        tb.c_name.append(name)
    for cid, _fsn, _module, parent in FIXED_CONCEPTS:
        if parent:
            tb.r_src.append(index_of[cid])
            tb.r_dst.append(index_of[parent])
            tb.r_group.append(0)
            tb.r_type.append(IS_A)

    # -- active generated concepts: tags, names, siblings ------------------------------------------
    n_gen = n_concepts - n_fixed
    n_inactive = round(INACTIVE_SHARE * n_concepts)
    n_active = n_gen - n_inactive
    tag_names = [t for t, _, _ in TAGS]
    tag_w = np.array([w for _, w, _ in TAGS], dtype=np.float64)
    tag_of = rng.choice(len(TAGS), size=n_active, p=tag_w / tag_w.sum())
    names: list[str] = [""] * n_active
    sib_base = np.full(n_active, -1, dtype=np.int64)
    groups: dict[str, np.ndarray] = {}
    lay: dict[str, list[str]] = {}
    for t, tag in enumerate(tag_names):
        idx = np.flatnonzero(tag_of == t)
        groups[tag] = idx
        k = len(idx)
        if k == 0:
            continue
        base = render_names(tag, k, rng, voc)
        lay[tag] = render_names(tag, min(20000, max(50, k // 4)), rng, voc)
        is_sib = rng.random(k) < SIBLING_FRACTION.get(tag, SIBLING_DEFAULT)
        is_sib[0] = False
        earlier = np.floor(rng.random(k) * np.arange(k)).astype(np.int64)
        for s in np.flatnonzero(is_sib).tolist():
            base[s] = ed.mutate(base[earlier[s]], tag)
            sib_base[idx[s]] = idx[earlier[s]]
        marker = MARKER_SHARE.get(tag, 0.0)
        if marker:
            for s in np.flatnonzero(rng.random(k) < marker).tolist():
                r = rr.random()
                base[s] = (
                    f"[D]{base[s]}"
                    if r < 0.6
                    else f"{base[s]} [D]"
                    if r < 0.7
                    else f"[X]{base[s]}"
                    if r < 0.9
                    else f"[V]{base[s]}"
                )
        for s in np.flatnonzero(rng.random(k) < PAREN_ABBREV_SHARE).tolist():
            base[s] = ed.edit(base[s], "paren", tag) or base[s]
        for s, at in enumerate(idx.tolist()):
            names[at] = _truncate(base[s])
    # unique FSNs among active concepts
    seen: set[str] = set()
    for j in range(n_active):
        tag = tag_names[tag_of[j]]
        tries = 0
        original = names[j]
        single = SINGLE_WORD_POOL.get(tag) if " " not in original else None
        while f"{names[j]} ({tag})" in seen:
            tries += 1
            if single and tries <= 6:  # keep one-word names one word: draw another word
                names[j] = cap(voc.pools[single].draw1(rr))
                continue
            names[j] = _truncate(ed.mutate(names[j], tag) if tries <= 14 else f"{original} {tries - 14}")
        seen.add(f"{names[j]} ({tag})")
    log_progress(verbose, t0, f"named {n_active:,} active concepts")
    # lay names ("replace" synonyms) never equal another concept's name
    names_lower = {n.lower() for n in names}
    ed.set_lay_names({t: [n for n in v if n.lower() not in names_lower] for t, v in lay.items()})

    first_gen = len(tb.c_id)
    times = draw_dates(rng, n_active)
    defined = rng.random(n_active) < 0.28
    for j in range(n_active):
        tag = tag_names[tag_of[j]]
        tb.c_time.append(int(times[j]))
        tb.c_active.append(True)
        tb.c_module.append(MODEL_MODULE if tag in MODEL_TAGS else CORE_MODULE)
        tb.c_defstatus.append(DEFINED if defined[j] and tag not in MODEL_TAGS else PRIMITIVE)
        tb.c_tag.append(tag)
        tb.c_name.append(names[j])
    tb.c_id.extend([""] * n_active)

    # -- descriptions of active concepts ---------------------------------------------------------------
    extra = np.minimum(rng.poisson(EXTRA_SYNONYMS_MEAN, size=n_active), 12)
    pt_differs = rng.random(n_active) < PT_DIFFERS
    inactive_desc = rng.random(n_active) < INACTIVE_DESCRIPTION_SHARE
    used_lower = set(names_lower)
    syn_kinds = _Kinds(SYN_EDIT_WEIGHTS, rr)
    pt_kinds = _Kinds(PT_EDIT_WEIGHTS, rr)
    for cid, fsn, _module, _parent in FIXED_CONCEPTS:
        c = index_of[cid]
        tb.add_description(c, fsn, True, True)
        tb.add_description(c, tb.c_name[c], False, True)
    for j in range(n_active):
        c = first_gen + j
        tag = tb.c_tag[c]
        name = names[j]
        tb.add_description(c, f"{name} ({tag})", True, True)
        terms = {name}
        pt = name
        if pt_differs[j]:
            pt = ed.edit(name, pt_kinds.draw(), tag) or name
        tb.add_description(c, pt, False, True)
        terms.add(pt)
        n_extra = 0 if tag in MODEL_TAGS else int(extra[j])
        native = list(voc.native_synonyms.get(name.lower(), ()))
        for _ in range(n_extra):
            syn = None
            for _try in range(4):
                if native:
                    syn = cap(native.pop(0))
                else:
                    syn = ed.edit(name, syn_kinds.draw(), tag)
                if syn and syn not in terms and len(syn) <= 255:
                    low = syn.lower()
                    # terms of other concepts are rarely reused (ambiguous terms exist, but few)
                    if low == name.lower() or low not in used_lower or rr.random() < 0.1:
                        used_lower.add(low)
                        break
                syn = None
            if syn:
                terms.add(syn)
                tb.add_description(c, syn, False, False)
        if inactive_desc[j]:
            old = ed.edit(name, syn_kinds.draw(), tag)
            if old and old not in terms:
                tb.add_description(c, old, False, False, active=False)
    log_progress(verbose, t0, f"{len(tb.d_term):,} descriptions for active concepts")

    # -- inactive concepts with one association each --------------------------------------------------
    clinical = np.flatnonzero(~np.isin(tag_of, [tag_names.index(t) for t in MODEL_TAGS]))
    targets = clinical[rng.integers(0, len(clinical), size=n_inactive)]
    kind_w = np.array([w for _, _, w in ASSOCIATION_KINDS], dtype=np.float64)
    kinds = rng.choice(len(ASSOCIATION_KINDS), size=n_inactive, p=kind_w / kind_w.sum())
    kind_draw = {k: _Kinds(w, rr) for k, w in INACTIVE_EDIT_WEIGHTS.items()}
    inactive_times = draw_dates(rng, n_inactive, start=6)
    first_inactive = len(tb.c_id)
    for m in range(n_inactive):
        target = int(targets[m])
        tag = tag_names[tag_of[target]]
        kind = ASSOCIATION_KINDS[kinds[m]][0]
        tname = names[target]
        edited: str | None = None
        for _try in range(5):
            edited = ed.edit(tname, kind_draw[kind].draw(), tag)
            if edited and f"{edited} ({tag})" not in seen:
                break
            edited = None
        name = _truncate(edited or f"{tname} NOS")
        c = len(tb.c_id)
        tb.c_id.append("")
        tb.c_time.append(int(inactive_times[m]))
        tb.c_active.append(False)
        tb.c_module.append(CORE_MODULE)
        tb.c_defstatus.append(PRIMITIVE)
        tb.c_tag.append(tag)
        tb.c_name.append(name)
        tb.add_description(c, f"{name} ({tag})", True, True)
        tb.add_description(c, name, False, True)
        tb.a_src.append(c)
        tb.a_dst.append(first_gen + target)
        tb.a_kind.append(kind)
    assert len(tb.c_id) == n_concepts == first_inactive + n_inactive
    log_progress(verbose, t0, f"{n_inactive:,} inactive concepts with associations")

    # -- relationships ----------------------------------------------------------------------------
    top_of = {t: index_of[top] for t, _, top in TAGS}
    parent0 = np.full(n_active, -1, dtype=np.int64)
    for tag, idx in groups.items():
        k = len(idx)
        if k == 0:
            continue
        rank = np.arange(k)
        pick = idx[np.floor(rng.random(k) * rank).astype(np.int64)]
        to_top = (rank == 0) | (rng.random(k) < 0.12)
        parent0[idx] = np.where(to_top, -1, pick)
        n_more = rng.choice(3, size=k, p=[0.62, 0.28, 0.10])
        more1 = idx[np.floor(rng.random(k) * rank).astype(np.int64)]
        more2 = idx[np.floor(rng.random(k) * rank).astype(np.int64)]
        for n, j in enumerate(idx.tolist()):
            p0 = int(parent0[sib_base[j]]) if sib_base[j] >= 0 else int(parent0[j])
            parent0[j] = p0
            parents = [first_gen + p0 if p0 >= 0 else top_of[tag]]
            if n > 0 and n_more[n] >= 1:
                parents.append(first_gen + int(more1[n]))
            if n > 0 and n_more[n] >= 2:
                parents.append(first_gen + int(more2[n]))
            for p in dict.fromkeys(parents):
                if p != first_gen + j:
                    tb.r_src.append(first_gen + j)
                    tb.r_dst.append(p)
                    tb.r_group.append(0)
                    tb.r_type.append(IS_A)
    attr_rules = {
        "disorder": [
            (FINDING_SITE, "body structure", 0.75),
            (ASSOCIATED_MORPHOLOGY, "morphologic abnormality", 0.6),
            (CAUSATIVE_AGENT, "organism", 0.08),
        ],
        "finding": [(FINDING_SITE, "body structure", 0.6)],
        "procedure": [(PROCEDURE_SITE_DIRECT, "body structure", 0.6), (METHOD, "qualifier value", 0.7)],
        "medicinal product": [(HAS_ACTIVE_INGREDIENT, "substance", 0.95)],
        "medicinal product form": [(HAS_ACTIVE_INGREDIENT, "substance", 0.95), (HAS_DOSE_FORM, "dose form", 0.9)],
        "clinical drug": [(HAS_ACTIVE_INGREDIENT, "substance", 0.95), (HAS_DOSE_FORM, "dose form", 0.9)],
        "observable entity": [(COMPONENT, "substance", 0.4)],
    }
    for tag, rules in attr_rules.items():
        src = groups.get(tag, np.empty(0, dtype=np.int64))
        for type_id, dst_tag, share in rules:
            dst = groups.get(dst_tag, np.empty(0, dtype=np.int64))
            if len(src) == 0 or len(dst) == 0:
                continue
            has = src[rng.random(len(src)) < share]
            chosen = dst[np.minimum((rng.pareto(1.2, len(has)) * len(dst) / 50).astype(np.int64), len(dst) - 1)]
            grp = np.where(rng.random(len(has)) < 0.7, 1, 0)
            tb.r_src.extend((first_gen + has).tolist())
            tb.r_dst.extend((first_gen + chosen).tolist())
            tb.r_group.extend(grp.tolist())
            tb.r_type.extend([type_id] * len(has))
    log_progress(verbose, t0, f"{len(tb.r_src):,} relationships")

    # -- identifiers ------------------------------------------------------------------------------
    fixed_items = [int(cid) // 1000 for cid, *_ in FIXED_CONCEPTS]
    gen_modules = np.array(tb.c_module[first_gen:], dtype=object)
    is_model = gen_modules == MODEL_MODULE
    n_regular = int((~is_model).sum())
    regular = sctids(rng, n_regular, 0, 10**4, 10**7, fixed_items)
    model = sctids(rng, int(is_model.sum()), 0, 900_000_000_001_000, 900_000_000_100_000, fixed_items)
    ids = np.empty(n_concepts - first_gen, dtype=np.int64)
    ids[~is_model] = regular
    ids[is_model] = model
    tb.c_id[first_gen:] = [str(i) for i in ids.tolist()]
    return tb
