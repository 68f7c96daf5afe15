"""Names and synonyms: SNOMED-style names from templates, and the string edits between terms.

:func:`render_names` fills the weighted templates of a semantic tag (:mod:`.wordlists`) with words
drawn from the vocabulary pools, and appends an optional clause to a share of them. :class:`Editor`
derives the other terms of the release from a name: one-word siblings (left/right, acute/chronic,
another bone: the small cross-concept distances), and synonyms by realistic rewordings (case,
plural/singular, British spelling, hyphenation, dropped, added or swapped words, reordering, commas,
WordNet/curated/HPO synonyms, abbreviations and expansions, lay names, and combinations).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

from .vocabulary import Vocabulary
from .wordlists import (
    ABBREVIATIONS,
    CLAUSE_WORDS,
    CONTRASTS,
    ELABORATIONS,
    FUNCTION_WORDS,
    LATERALITY,
    MODIFIERS,
    NUMBERS,
    POSITION,
    PROC_QUALIFIERS,
    SPELLINGS,
    TEMPLATES,
)

T = TypeVar("T")

# Pool of the word an "add" edit or a sibling puts in front of a name, per tag.
PREFIX_POOL = {
    "procedure": "PQ",
    "body structure": "POS",
    "observable entity": "CHG",
    "finding": "MOD",
    "disorder": "MOD",
    "morphologic abnormality": "MOD",
    "situation": "MOD",
    "event": "QUAL",
    "regime/therapy": "QUAL",
}
INNER_HYPHEN_RE = re.compile(r"(?<=\w)-(?=\w)")
CLINICAL_TAGS = frozenset(
    {
        "disorder",
        "finding",
        "procedure",
        "body structure",
        "situation",
        "morphologic abnormality",
        "observable entity",
        "event",
        "regime/therapy",
    }
)
# Where a one-word sibling edit inserts a word for the other tags: (pool, append at the end?).
TAG_INSERTS: dict[str, tuple[str, bool]] = {
    "substance": ("SALT", True),
    "organism": ("EPI", True),
    "product": ("DOSE", True),
    "medicinal product": ("SALT", True),
    "medicinal product form": ("ROUTE", False),
    "clinical drug": ("NUM", True),
    "qualifier value": ("QUAL", False),
    "physical object": ("QUAL", False),
    "occupation": ("QUAL", False),
}
SLOT_RE = re.compile(r"\{([A-Z0-9]+)\}")


def _decap(word: str, lower_words: frozenset[str]) -> str:
    """Lower-case the first letter of a sentence-case word that is not a proper name/acronym."""
    if word[:1].isupper() and word[1:2].islower():
        first = word.split(" ", 1)[0]
        if first.lower() in lower_words:
            return word[0].lower() + word[1:]
    return word


def cap(text: str) -> str:
    """``text`` with its first character upper-cased (sentence case)."""
    return text[:1].upper() + text[1:] if text else text


def _fill(specs: Sequence[tuple[str, float]], k: int, rng: np.random.Generator, voc: Vocabulary) -> np.ndarray:
    """``k`` strings from weighted templates, slots drawn from the vocabulary pools."""
    weights = np.array([w for _, w in specs], dtype=np.float64)
    choice = rng.choice(len(specs), size=k, p=weights / weights.sum())
    out = np.empty(k, dtype=object)
    for t, (tmpl, _) in enumerate(specs):
        idx = np.flatnonzero(choice == t)
        if len(idx) == 0:
            continue
        parts = SLOT_RE.split(tmpl)
        acc = np.full(len(idx), parts[0], dtype=object)
        for j in range(1, len(parts), 2):
            slot = parts[j]
            vals = voc.pools[slot].draw(rng, len(idx))
            if (j > 1 or parts[0]) and slot in ("HPO", "DIS", "SUB", "QUAL", "W"):
                vals = np.array([_decap(v, voc.lower_words) for v in vals], dtype=object)
            acc = acc + vals + parts[j + 1]
        out[idx] = acc
    return out


def render_names(tag: str, k: int, rng: np.random.Generator, voc: Vocabulary) -> list[str]:
    """``k`` names of semantic tag ``tag`` (sentence case, without the tag): templates of the tag drawn
    by weight, slots filled from the vocabulary pools, an elaboration clause appended to a share."""
    if k == 0:
        return []
    out = _fill(TEMPLATES[tag], k, rng, voc)
    share, specs = ELABORATIONS.get(tag, (0.0, []))
    if share:
        idx = np.flatnonzero(rng.random(k) < share)
        if len(idx):
            out[idx] = out[idx] + _fill(specs, len(idx), rng, voc)
    return [cap(" ".join(str(n).split())) for n in out]


# ---------------------------------------------------------------------------------------------------
# Edits: siblings (one-word differences) and synonyms (realistic rewordings)
# ---------------------------------------------------------------------------------------------------
def _pluralize(w: str) -> str:
    if w.endswith("is"):
        return w[:-2] + "es"
    if w.endswith("um") and len(w) > 4:
        return w[:-2] + "a"
    if w.endswith("us") and len(w) > 4:
        return w[:-2] + "i"
    if w.endswith("y") and len(w) > 2 and w[-2] not in "aeiou":
        return w[:-1] + "ies"
    if w.endswith(("s", "x", "ch", "sh")):
        return w + "es"
    return w + "s"


def _singularize(w: str) -> str | None:
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ses", "xes", "ches")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        return w[:-1]
    return None


def _initials(words: Sequence[str]) -> str:
    return "".join(w[0].upper() for w in words if w and w[0].isalpha())


class Editor:
    """String edits with a local ``random.Random`` (fast scalar draws, deterministic)."""

    SYN_KINDS = (
        "case",
        "plural",
        "spelling",
        "hyphen",
        "drop",
        "add",
        "reorder",
        "comma",
        "synonym",
        "swap",
        "abbrev",
        "paren",
        "replace",
        "combo",
    )

    def __init__(self, voc: Vocabulary, rr: random.Random, rng: np.random.Generator) -> None:
        self.v = voc
        self.rr = rr
        self.rng = rng
        self.contrast: dict[str, str] = {}
        for a, b in CONTRASTS:
            self.contrast.setdefault(a, b)
            self.contrast.setdefault(b, a)
        self.abbr = {p: a for p, a in ABBREVIATIONS}
        self.expand = {a.lower(): p for p, a in ABBREVIATIONS}
        self.spell_us = SPELLINGS
        self.lay_names: dict[str, list[str]] = {}
        self.droppable = (
            set(LATERALITY)
            | set(POSITION)
            | set(MODIFIERS)
            | set(PROC_QUALIFIERS)
            | {"entire", "structure", "the", "finding", "disorder", "procedure", "unspecified", "all", "part"}
        )

    # ---- helpers --------------------------------------------------------------------------------
    def _choice(self, seq: Sequence[T]) -> T:
        return seq[int(self.rr.random() * len(seq))]

    def _finish(self, toks: list[str], original: str) -> str | None:
        out = " ".join(t for t in toks if t)
        out = cap(out.strip(" ,"))
        if not out or out == original:
            return None
        return out

    def _lower_first(self, tok: str) -> str:
        return _decap(tok, self.v.lower_words)

    def set_lay_names(self, by_tag: dict[str, list[str]]) -> None:
        """Names per tag that a "replace" edit may use when no real synonym is known."""
        self.lay_names = by_tag

    # ---- sibling mutation -------------------------------------------------------------------------
    def mutate(self, name: str, tag: str = "disorder") -> str:
        """A sibling of ``name``: one word changed (a number, a contrast word, an inserted laterality,
        position or qualifier, or a word of the same class), else a stage numeral appended."""
        toks = name.split(" ")
        clinical = tag in CLINICAL_TAGS
        for _ in range(6):
            r = self.rr.random()
            nums = [i for i, t in enumerate(toks) if t in NUMBERS]
            if nums and r < 0.6:
                i = self._choice(nums)
                new = list(toks)
                new[i] = self.v.pools["NUM"].draw1(self.rr)
            elif r < 0.42:
                cands = [i for i, t in enumerate(toks) if t.lower() in self.contrast]
                if not cands:
                    continue
                i = self._choice(cands)
                new = list(toks)
                rep = self.contrast[toks[i].lower()]
                new[i] = cap(rep) if toks[i][:1].isupper() else rep
            elif r < 0.7:
                new = list(toks)
                ofs = [i for i, t in enumerate(toks) if t == "of" and i + 1 < len(toks)]
                if not clinical:
                    pool, at_end = TAG_INSERTS.get(tag, ("QUAL", False))
                    word = self.v.pools[pool].draw1(self.rr)
                    if at_end:
                        new.append(word)
                    else:
                        new[0] = self._lower_first(new[0])
                        new.insert(0, word)
                elif ofs and self.rr.random() < 0.75:
                    i = self._choice(ofs) + 1
                    if toks[i].lower() in self.contrast or toks[i].lower() in LATERALITY:
                        continue
                    pool = "LAT" if self.rr.random() < 0.6 else "POS"
                    new.insert(i, self.v.pools[pool].draw1(self.rr))
                else:
                    new[0] = self._lower_first(new[0])
                    new.insert(0, self.v.pools[PREFIX_POOL.get(tag, "MOD")].draw1(self.rr))
            else:
                cands = [
                    i for i, t in enumerate(toks) if t.lower() in self.v.word_class and t.lower() not in FUNCTION_WORDS
                ]
                if not cands:
                    continue
                i = self._choice(cands)
                new = list(toks)
                rep = self.v.pools[self.v.word_class[toks[i].lower()]].draw1(self.rr)
                new[i] = cap(rep) if i == 0 else rep
            out = self._finish(new, name)
            if out:
                return out
        return cap(f"{name} {self.v.pools['ROMAN'].draw1(self.rr)}")

    # ---- synonym edits --------------------------------------------------------------------------
    def edit(self, name: str, kind: str, tag: str) -> str | None:
        """``name`` reworded by the edit ``kind`` (one of :attr:`SYN_KINDS`), or None when the edit
        does not apply or changes nothing."""
        out = getattr(self, "_e_" + kind)(name, tag)
        if out:
            out = " ".join(out.split())
        return out if out and out != name else None

    def _e_case(self, name: str, tag: str) -> str | None:
        r = self.rr.random()
        if r < 0.6:
            out = name[:1].lower() + name[1:]
        elif r < 0.8:
            out = name.lower()
        elif r < 0.95:
            out = " ".join(cap(t) if t not in FUNCTION_WORDS else t for t in name.split(" "))
        else:
            out = name.upper()
        return out if out != name else None

    def _e_plural(self, name: str, tag: str) -> str | None:
        toks = name.split(" ")
        heads = [
            i for i, t in enumerate(toks) if t.isalpha() and t.islower() and len(t) > 3 and t not in FUNCTION_WORDS
        ]
        if not heads:
            return None
        of = toks.index("of") if "of" in toks else len(toks)
        i = max([h for h in heads if h < of], default=self._choice(heads))
        sing = _singularize(toks[i])
        toks[i] = sing if sing and self.rr.random() < 0.5 else _pluralize(toks[i])
        return self._finish(toks, name)

    def _e_spelling(self, name: str, tag: str) -> str | None:
        low = name.lower()
        order = list(self.spell_us)
        self.rr.shuffle(order)
        for us, gb in order:
            if gb in low:
                return self._sub_fragment(name, gb, us)
            if us in low:
                return self._sub_fragment(name, us, gb)
        return None

    @staticmethod
    def _sub_fragment(name: str, old: str, new: str) -> str | None:
        i = name.lower().find(old)
        if name[i : i + 1].isupper():
            new = cap(new)
        out = name[:i] + new + name[i + len(old) :]
        return out if out != name else None

    def _e_hyphen(self, name: str, tag: str) -> str | None:
        m = INNER_HYPHEN_RE.search(name)
        if m:
            i = m.start()
            return name[:i] + (" " if self.rr.random() < 0.6 else "") + name[i + 1 :]
        toks = name.split(" ")
        if len(toks) < 2:
            return None
        i = int(self.rr.random() * (len(toks) - 1))
        if toks[i] in FUNCTION_WORDS or toks[i + 1] in FUNCTION_WORDS:
            return None
        toks[i : i + 2] = [toks[i] + "-" + toks[i + 1]]
        return self._finish(toks, name)

    def _e_drop(self, name: str, tag: str) -> str | None:
        toks = name.split(" ")
        if len(toks) < 2:
            return None
        cands = [i for i, t in enumerate(toks) if t.lower() in self.droppable]
        if not cands:  # a modifier-like word: neither the first nor the last (the head) word
            cands = [
                i
                for i, t in enumerate(toks[:-1])
                if i > 0 and t.lower() not in FUNCTION_WORDS and toks[i + 1] not in FUNCTION_WORDS
            ]
            if not cands:
                return None
        i = self._choice(cands)
        new = toks[:i] + toks[i + 1 :]
        if new and new[-1] in FUNCTION_WORDS:
            new = new[:-1]
        if i == 0 and new:
            new[0] = cap(new[0])
        if new and new[0] in ("of", "Of"):
            new = new[1:]
        return self._finish(new, name) if new else None

    def _e_add(self, name: str, tag: str) -> str | None:
        toks = name.split(" ")
        r = self.rr.random()
        if r < 0.3:
            ofs = [i for i, t in enumerate(toks[:-1]) if t == "of" and toks[i + 1].lower() not in self.contrast]
            if not ofs:
                return None
            toks.insert(self._choice(ofs) + 1, self.v.pools["LAT" if r < 0.15 else "POS"].draw1(self.rr))
        elif r < 0.6:
            toks[0] = self._lower_first(toks[0])
            toks.insert(0, self.v.pools[PREFIX_POOL.get(tag, "MOD")].draw1(self.rr))
        elif r < 0.8:
            suffix = {
                "disorder": "disorder",
                "finding": "finding",
                "procedure": "procedure",
                "body structure": "structure",
                "substance": "substance",
            }.get(tag, "type")
            if suffix in name.lower():
                return None
            toks.append(suffix)
        else:
            toks.append(self._choice(["NOS", "unspecified", "- finding", "nos", "type", "of unknown cause", "- rare"]))
        return self._finish(toks, name)

    def _e_reorder(self, name: str, tag: str) -> str | None:
        """ "Fracture of femur" <-> "Femur fracture" (clauses after the "of" phrase stay put)."""
        toks = name.split(" ")
        if "of" in toks[1:-1]:
            i = toks.index("of")
            j = next((m for m in range(i + 2, len(toks)) if toks[m] in CLAUSE_WORDS), len(toks))
            head, rest, tail = toks[:i], toks[i + 1 : j], toks[j:]
            if rest and rest[0] == "the":
                rest = rest[1:]
            if not rest or len(rest) > 4:
                return None
            if len(rest) == 1 and rest[0] in self.v.noun_to_adj and self.rr.random() < 0.5:
                rest = [self.v.noun_to_adj[rest[0]]]
            head[0] = self._lower_first(head[0])
            return self._finish(rest + head + tail, name)
        if 2 <= len(toks) <= 4 and not any(t in CLAUSE_WORDS or t in FUNCTION_WORDS for t in toks):
            k = 1 if len(toks) == 2 else 1 + int(self.rr.random() * (len(toks) - 1))
            left, right = toks[:k], toks[k:]
            if len(left) == 1 and left[0].lower() in self.v.adj_to_noun:
                left = [self.v.adj_to_noun[left[0].lower()]]
            left[0] = self._lower_first(left[0])
            return self._finish(right + ["of"] + left, name)
        return None

    def _e_comma(self, name: str, tag: str) -> str | None:
        toks = name.split(" ")
        if len(toks) < 2:
            return None
        if "," in name:
            left, _, right = name.partition(", ")
            return self._finish([right] + [self._lower_first(left)], name)
        first = toks[0].lower()
        if first in FUNCTION_WORDS:
            return None
        rest = list(toks[1:])
        rest[0] = cap(rest[0])
        return self._finish(rest[:-1] + [rest[-1] + ","] + [first], name)

    def _e_synonym(self, name: str, tag: str) -> str | None:
        low = name.lower()
        # multi-word phrases first (curated), then single words
        for phrase, syns in (
            ("computed tomography", ["CT scan"]),
            ("malignant neoplasm", ["cancer", "malignant tumor"]),
            ("magnetic resonance imaging", ["MRI scan"]),
        ):
            if phrase in low and self.rr.random() < 0.5:
                return self._sub_fragment(name, phrase, self._choice(syns))
        toks = name.split(" ")
        cands = [i for i, t in enumerate(toks) if t.lower() in self.v.word_synonyms]
        if not cands:
            return None
        i = self._choice(cands)
        rep = self._choice(self.v.word_synonyms[toks[i].lower()])
        toks[i] = cap(rep) if i == 0 else rep
        return self._finish(toks, name)

    def _e_swap(self, name: str, tag: str) -> str | None:
        toks = name.split(" ")
        cands = [i for i, t in enumerate(toks) if t.lower() in self.v.word_class and t.lower() not in FUNCTION_WORDS]
        if not cands:
            return None
        i = self._choice(cands)
        rep = self.v.pools[self.v.word_class[toks[i].lower()]].draw1(self.rr)
        toks[i] = cap(rep) if i == 0 else rep
        return self._finish(toks, name)

    def _e_abbrev(self, name: str, tag: str) -> str | None:
        low = name.lower()
        for phrase, ab in ABBREVIATIONS:
            if len(phrase) > 5 and phrase in low:
                return self._sub_fragment(name, phrase, ab)
        toks = name.split(" ")
        for i, t in enumerate(toks):
            if t.lower() in self.expand and t.isupper():
                toks[i] = self.expand[t.lower()]
                return self._finish(toks, name)
        content = [t for t in toks if t.lower() not in FUNCTION_WORDS]
        if 2 <= len(content) <= 5 and "of" not in toks and self.rr.random() < 0.5:
            return _initials(content)
        if len(toks) >= 3:
            k = 2 if self.rr.random() < 0.7 else 3
            start = int(self.rr.random() * (len(toks) - k + 1))
            span = toks[start : start + k]
            if any(t.lower() in FUNCTION_WORDS for t in span):
                return None
            toks[start : start + k] = [_initials(span)]
            return self._finish(toks, name)
        return None

    def _e_paren(self, name: str, tag: str) -> str | None:
        content = [t for t in name.split(" ") if t.lower() not in FUNCTION_WORDS]
        if len(content) < 2 or "(" in name:
            return None
        return f"{name} ({_initials(content[:5])})"

    def _e_replace(self, name: str, tag: str) -> str | None:
        native = self.v.native_synonyms.get(name.lower())
        if native:
            return cap(self._choice(native))
        pool = self.lay_names.get(tag) or self.lay_names.get("disorder")
        if not pool:
            return None
        return self._choice(pool)

    def _e_combo(self, name: str, tag: str) -> str | None:
        first = self.edit(name, self._choice(("drop", "reorder", "synonym", "add", "swap", "plural", "spelling")), tag)
        if not first:
            return None
        second = self.edit(
            first, self._choice(("drop", "reorder", "synonym", "add", "plural", "spelling", "hyphen")), tag
        )
        return second or first
