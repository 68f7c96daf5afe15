"""Real-word vocabulary of the generator, read from the public sources of the mirror.

:func:`load_vocabulary` reads, at generation time (nothing from the sources is stored in the
repository):

* BC5CDR and NCBI Disease (PubTator): title and abstract tokens with their frequencies, and chemical and
  disease mentions;
* WordNet 3.0 (``nltk_data``): nouns by lexical file and hypernym subtree (body parts, diseases,
  organisms, substances, procedures, devices, persons, locations), pertainym adjectives ("renal" ->
  "kidney"), adjectives and verbs with their sense-tagged counts, and synonyms within a synset;
* HPO (``obo/hp.obo*.gz``): phenotype names and their exact synonyms.

These fill weighted :class:`Pool` objects (one per template slot, most frequent first, drawn with a
Zipf-Mandelbrot law), merged with the skeleton word lists of :mod:`.wordlists`, plus the synonym,
pertainym and word-class tables that the name edits use.
"""

from __future__ import annotations

import functools
import gzip
import os
import random
import re
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .wordlists import (
    ANATOMY_CORE,
    APPROACHES,
    CELL_PARTS,
    CELL_WORDS,
    CHANGE,
    CHEMICAL_PREFIXES,
    CURATED_SYNONYMS,
    DISORDER_HEADS,
    DOSE_FORMS,
    ENV_QUALS,
    ENV_WORDS,
    EVENT_VERBS,
    EXTRA_POOLS,
    FINDING_HEADS,
    FLUIDS,
    FUNCTION_WORDS,
    IMAGING,
    LATERALITY,
    MEASURES,
    MODIFIERS,
    MORPHOLOGIES,
    NUMBERS,
    PERSONS_CORE,
    POSITION,
    PROC_HEADS,
    PROC_QUALIFIERS,
    PROPERTIES,
    RELATIVES,
    ROMAN,
    ROUTES,
    SALTS,
    SCALE_WORDS,
    SITUATION_PREFIXES,
    SITUATION_SUFFIXES,
    THERAPY_WORDS,
    UNIT_ABBR,
    UNITS,
)

CHEMICAL_SUFFIX_RE = re.compile(
    r"(ine|ol|ide|ate|one|ium|ane|ene|yl|cin|mycin|pam|pril|olol|sartan|azole|statin|mab|vir|"
    r"amide|azine|oxin|ase|gen|en)$"
)
TOKEN_RE = re.compile(r"[A-Za-z][A-Za-z'\-]*[A-Za-z]")
CLEAN_MENTION_RE = re.compile(r"^[A-Za-z][A-Za-z0-9 '\-]*[A-Za-z0-9]$")


class Pool:
    """Words or phrases with Zipf(-Mandelbrot) weights by rank: ``p(rank r) ~ 1 / (r + q)^s``."""

    def __init__(self, items: Iterable[str], exponent: float = 1.0, offset: float = 2.7) -> None:
        unique = list(dict.fromkeys(i for i in items if i))
        if not unique:
            raise ValueError("empty vocabulary pool")
        self.items = np.array(unique, dtype=object)
        ranks = np.arange(1, len(unique) + 1, dtype=np.float64)
        cdf = np.cumsum(1.0 / (ranks + offset) ** exponent)
        self.cdf = cdf / cdf[-1]

    def __len__(self) -> int:
        return len(self.items)

    def draw(self, rng: np.random.Generator, k: int) -> np.ndarray:
        """``k`` items drawn with replacement by weight (vectorised, from ``rng``)."""
        idx = np.searchsorted(self.cdf, rng.random(k), side="right")
        return self.items[np.minimum(idx, len(self.items) - 1)]

    def draw1(self, rr: random.Random) -> str:
        """One item drawn by weight with a scalar ``random.Random``."""
        idx = int(np.searchsorted(self.cdf, rr.random(), side="right"))
        return str(self.items[min(idx, len(self.items) - 1)])


def _stable_hash(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def _ranked(scores: dict[str, float]) -> list[str]:
    """Items by descending score; ties broken by a fixed pseudo-random hash (not alphabetically)."""
    return sorted(scores, key=lambda w: (-scores[w], _stable_hash(w), w))


def default_data_dir() -> Path:
    """The source mirror: ``$BIOSEM_DATA_DIR``, else ``shared/data`` beside the repository."""
    env = os.environ.get("BIOSEM_DATA_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3] / "shared" / "data"


def _norm_mention(text: str) -> str | None:
    text = " ".join(text.split())
    if not (3 <= len(text) <= 60) or not CLEAN_MENTION_RE.match(text):
        return None
    words = text.split(" ")
    if len(words) == 1 and text.isupper():
        return None  # acronyms are not names
    if text[0].isupper() and text[1:] == text[1:].lower():
        text = text[0].lower() + text[1:]
    return text


@dataclass
class Vocabulary:
    """Weighted pools by slot name and the word tables of the edits (see :func:`load_vocabulary`)."""

    pools: dict[str, Pool]
    native_synonyms: dict[str, list[str]]  # lower-case phrase -> real synonyms (WordNet, HPO)
    word_synonyms: dict[str, list[str]]  # lower-case word -> synonyms
    adj_to_noun: dict[str, str]  # "renal" -> "kidney"
    noun_to_adj: dict[str, str]
    word_class: dict[str, str]  # lower-case single word -> pool name (for sibling substitutions)
    lower_words: frozenset[str]
    sources: dict[str, int] = field(default_factory=dict)


def _read_pubtator(
    paths: Sequence[Path], mention_types: dict[str, str]
) -> tuple[Counter[str], dict[str, Counter[str]]]:
    tokens: Counter[str] = Counter()
    mentions: dict[str, Counter[str]] = defaultdict(Counter)
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                head = line[:24]
                if "|t|" in head or "|a|" in head:
                    tokens.update(t.lower() for t in TOKEN_RE.findall(line.split("|", 2)[2]))
                    continue
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 5 and parts[4] in mention_types:
                    norm = _norm_mention(parts[3])
                    if norm:
                        mentions[mention_types[parts[4]]][norm] += 1
    return tokens, mentions


@dataclass
class _WordNet:
    lexfile: dict[int, int]
    words: dict[int, list[str]]
    hyponyms: dict[int, list[int]]
    noun_index: dict[str, tuple[list[int], int]]  # lemma -> (synset offsets, tagsense count)
    adj_index: dict[str, int]
    verb_index: dict[str, int]
    pertainyms: list[tuple[str, int]]  # (adjective, noun synset offset)


def _read_wordnet(wn: Path) -> _WordNet:
    lexfile: dict[int, int] = {}
    words: dict[int, list[str]] = {}
    hyponyms: dict[int, list[int]] = defaultdict(list)
    with open(wn / "data.noun", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("  "):
                continue
            f = line.split(" | ", 1)[0].split()
            off, lex, n = int(f[0]), int(f[1]), int(f[3], 16)
            lexfile[off] = lex
            words[off] = [w.replace("_", " ") for w in f[4 : 4 + 2 * n : 2]]
            i = 4 + 2 * n
            for j in range(int(f[i])):
                sym, tgt, pos = f[i + 1 + 4 * j], f[i + 2 + 4 * j], f[i + 3 + 4 * j]
                if pos == "n" and sym in ("~", "~i"):
                    hyponyms[off].append(int(tgt))

    def index(name: str) -> dict[str, tuple[list[int], int]]:
        out: dict[str, tuple[list[int], int]] = {}
        with open(wn / name, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("  "):
                    continue
                f = line.split()
                p_cnt = int(f[3])
                tagsense = int(f[5 + p_cnt])
                out[f[0].replace("_", " ")] = ([int(x) for x in f[6 + p_cnt :]], tagsense)
        return out

    noun_index = index("index.noun")
    adj_index = {k: v[1] for k, v in index("index.adj").items()}
    verb_index = {k: v[1] for k, v in index("index.verb").items()}
    pertainyms: list[tuple[str, int]] = []
    with open(wn / "data.adj", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("  "):
                continue
            f = line.split(" | ", 1)[0].split()
            if f[1] != "01":
                continue
            n = int(f[3], 16)
            adjs = [re.sub(r"\(.*\)$", "", w) for w in f[4 : 4 + 2 * n : 2]]
            i = 4 + 2 * n
            for j in range(int(f[i])):
                sym, tgt, pos = f[i + 1 + 4 * j], f[i + 2 + 4 * j], f[i + 3 + 4 * j]
                if sym == "\\" and pos == "n":
                    src = int(f[i + 4 + 4 * j][:2], 16)
                    for k, a in enumerate(adjs, start=1):
                        if src in (0, k):
                            pertainyms.append((a, int(tgt)))
    return _WordNet(lexfile, words, hyponyms, noun_index, adj_index, verb_index, pertainyms)


def _descendants(wn: _WordNet, roots: Iterable[int]) -> list[int]:
    seen: dict[int, None] = {}
    stack = list(roots)
    while stack:
        off = stack.pop()
        if off in seen:
            continue
        seen[off] = None
        stack.extend(wn.hyponyms.get(off, ()))
    return list(seen)


def _sense(wn: _WordNet, lemma: str, n: int = 1) -> int:
    return wn.noun_index[lemma][0][n - 1]


def _read_hpo(path: Path) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    name: str | None = None
    syns: list[str] = []
    obsolete = False
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(("[Term]", "[Typedef]")):
                if name and not obsolete:
                    out.append((name, syns))
                name, syns, obsolete = None, [], False
            elif line.startswith("name: "):
                name = line[6:].strip()
            elif line.startswith("synonym: ") and " EXACT" in line:
                m = re.match(r'synonym: "(.*)" EXACT', line)
                if m:
                    syns.append(m.group(1))
            elif line.startswith("is_obsolete: true"):
                obsolete = True
    if name and not obsolete:
        out.append((name, syns))
    return out


@functools.lru_cache(maxsize=4)
def load_vocabulary(data_dir: str) -> Vocabulary:
    """Read the real-word resources of the mirror ``data_dir`` into weighted pools (cached per
    process); raise ``FileNotFoundError`` when BC5CDR or WordNet is missing."""
    root = Path(data_dir)
    bc5 = sorted((root / "bc5cdr").glob("*.PubTator.txt"))
    ncbi = sorted((root / "ncbi-disease").glob("NCBI*_corpus.txt"))
    wn_dir = root / "nltk_data" / "corpora" / "wordnet"
    if not bc5 or not (wn_dir / "data.noun").exists():
        raise FileNotFoundError(
            f"{root}: expected bc5cdr/*.PubTator.txt and nltk_data/corpora/wordnet/data.noun "
            "(set --data-dir or BIOSEM_DATA_DIR to the source mirror)"
        )
    tokens, mentions = _read_pubtator(bc5, {"Chemical": "chemical", "Disease": "disease"})
    n_tokens, n_mentions = _read_pubtator(
        ncbi, {"SpecificDisease": "disease", "DiseaseClass": "disease", "CompositeMention": "disease"}
    )
    tokens.update(n_tokens)
    mentions["disease"].update(n_mentions["disease"])
    stop_path = root / "nltk_data" / "corpora" / "stopwords" / "english"
    stop = set(stop_path.read_text(encoding="utf-8").split()) if stop_path.exists() else set()
    wn = _read_wordnet(wn_dir)
    hpo_path = next(iter(sorted((root / "obo").glob("hp.obo*.gz"))), None)
    hpo = _read_hpo(hpo_path) if hpo_path else []

    def ok_lemma(w: str) -> bool:
        return 3 <= len(w) <= 40 and all(c.isalpha() or c in " -'" for c in w) and w.count(" ") < 4

    def score(w: str, corpus: bool = False) -> float:
        """WordNet sense-tagged frequency (plus corpus frequency where the corpus is on topic)."""
        tag = wn.noun_index.get(w, ((), 0))[1]
        return 10.0 * tag + (3.0 * tokens.get(w.lower(), 0) if corpus else 0.0)

    def lemmas(
        offsets: Iterable[int], *, lower_only: bool = False, corpus: bool = False, primary: bool = True
    ) -> dict[str, float]:
        """Lemmas of the synsets; with ``primary``, only where the synset is the lemma's first sense
        (so "hand" is not an organism and "line" not a device)."""
        out: dict[str, float] = {}
        for off in offsets:
            for w in wn.words.get(off, ()):
                if not ok_lemma(w) or (lower_only and w != w.lower()):
                    continue
                if primary and wn.noun_index.get(w.lower(), ([off], 0))[0][:1] != [off]:
                    continue
                out[w] = score(w, corpus)
        return out

    by_lex: dict[int, list[int]] = defaultdict(list)
    for off, lex in wn.lexfile.items():
        by_lex[lex].append(off)

    # Body: noun.body lemmas + the anatomy core list first.
    body = lemmas(
        _descendants(
            wn, [_sense(wn, "body part"), _sense(wn, "anatomical structure"), _sense(wn, "tissue"), _sense(wn, "organ")]
        ),
        lower_only=True,
        corpus=True,
    )
    anatomy = list(ANATOMY_CORE) + [w for w in _ranked(body) if w not in ANATOMY_CORE]
    # Pertainym adjectives of body parts ("renal" -> "kidney").
    adj_to_noun: dict[str, str] = {}
    for adj, off in wn.pertainyms:
        if wn.lexfile.get(off) == 8 and adj == adj.lower() and ok_lemma(adj):
            noun = wn.words[off][0]
            if noun == noun.lower() and adj not in adj_to_noun:
                adj_to_noun[adj] = noun
    anat_adj = _ranked({a: 3.0 * tokens.get(a, 0) + wn.adj_index.get(a, 0) for a in adj_to_noun})
    noun_to_adj: dict[str, str] = {}
    for a in anat_adj:
        noun_to_adj.setdefault(adj_to_noun[a], a)

    # Diseases: WordNet disease/symptom/injury subtrees + corpus mentions + HPO names.
    dis_roots = [
        _sense(wn, "disease"),
        _sense(wn, "symptom"),
        _sense(wn, "injury"),
        _sense(wn, "pathology", 2),
        _sense(wn, "abnormality"),
    ]
    wn_dis = lemmas(_descendants(wn, dis_roots))
    dis_scores = {m: 5.0 * c for m, c in mentions["disease"].items()}
    for w, s in wn_dis.items():
        dis_scores[w] = max(dis_scores.get(w, 0.0), s)
    diseases = _ranked(dis_scores)
    # Organisms.
    org_offsets = by_lex[5] + by_lex[20]
    genera: dict[str, float] = {}
    epithets: dict[str, float] = {}
    families: dict[str, float] = {}
    common_orgs: dict[str, float] = {}
    for off in org_offsets:
        for w in wn.words[off]:
            if not ok_lemma(w.replace("genus ", "").replace("family ", "")):
                continue
            if w.startswith("genus ") and w[6:7].isupper() and " " not in w[6:]:
                genera[w[6:]] = score(w)
            elif w.startswith("family ") and w[7:8].isupper() and " " not in w[7:]:
                families[w[7:]] = score(w)
            elif w[:1].isupper() and w.count(" ") == 1 and w.split(" ")[1].islower():
                g, e = w.split(" ")
                genera.setdefault(g, score(w))
                epithets[e] = epithets.get(e, 0.0) + 1.0
            elif w == w.lower() and ok_lemma(w) and wn.noun_index.get(w, ([0], 0))[0][0] == off:
                common_orgs[w] = score(w)
    microbes = lemmas(
        _descendants(wn, [_sense(wn, "microorganism"), _sense(wn, "bacteria"), _sense(wn, "virus")]), lower_only=True
    )
    # Substances: chemical mentions + noun.substance + drug subtree.
    sub_scores = {m: 5.0 * c for m, c in mentions["chemical"].items()}
    for w, s in lemmas(
        by_lex[27] + _descendants(wn, [_sense(wn, "drug"), _sense(wn, "medicine", 2)]), lower_only=True
    ).items():
        sub_scores[w] = max(sub_scores.get(w, 0.0), s)
    substances = _ranked(sub_scores)
    # Procedures: medical procedure subtree.
    proc_wn = lemmas(
        _descendants(wn, [_sense(wn, "medical procedure"), _sense(wn, "diagnostic procedure"), _sense(wn, "therapy")]),
        lower_only=True,
    )
    # Artifacts: devices and instruments, then all artifacts.
    dev = lemmas(
        _descendants(wn, [_sense(wn, "device"), _sense(wn, "instrument"), _sense(wn, "medical instrument")]),
        lower_only=True,
    )
    artifacts = _ranked(dev) + [w for w in _ranked(lemmas(by_lex[6], lower_only=True)) if w not in dev]
    persons = (
        list(PERSONS_CORE)
        + _ranked(lemmas(_descendants(wn, [_sense(wn, "health professional")]), lower_only=True))
        + _ranked(lemmas(by_lex[18], lower_only=True))
    )
    locations = _ranked({w: v for w, v in lemmas(by_lex[15]).items() if w[:1].isupper()})
    attributes = _ranked(lemmas(by_lex[7] + by_lex[23], lower_only=True))
    adjectives = _ranked(
        {a: float(c) for a, c in wn.adj_index.items() if ok_lemma(a) and " " not in a and a == a.lower()}
    )
    verbs = _ranked({v: float(c) for v, c in wn.verb_index.items() if ok_lemma(v) and " " not in v and v == v.lower()})
    general = [
        w
        for w, _ in sorted(tokens.items(), key=lambda kv: (-kv[1], kv[0]))
        if len(w) >= 3 and w not in stop and w.isalpha()
    ]
    hpo_names = [n for n, _ in hpo if 3 <= len(n) <= 120]
    hpo_rank = sorted(hpo_names, key=lambda n: (_stable_hash(n), n))

    # Single-word pools, flatter (fewer collisions) for the one-word names (~8 % in SNOMED CT).
    english = {w for w, (_, c) in wn.noun_index.items() if c > 0} | set(wn.verb_index) | set(wn.adj_index)
    chem_words = [
        w
        for w, c in sorted(tokens.items(), key=lambda kv: (-kv[1], kv[0]))
        if len(w) >= 6 and w.isalpha() and w not in stop and w not in english and CHEMICAL_SUFFIX_RE.search(w)
    ]
    hpo_tokens = Counter(t.lower() for n, _ in hpo for t in TOKEN_RE.findall(n))
    chem_words += [
        w
        for w, _ in sorted(hpo_tokens.items(), key=lambda kv: (-kv[1], kv[0]))
        if len(w) >= 6 and w.isalpha() and w not in english and w not in tokens and CHEMICAL_SUFFIX_RE.search(w)
    ]
    sub1 = (
        [w for w in substances if " " not in w]
        + chem_words
        + [w for w in _ranked(lemmas(by_lex[27], lower_only=True, primary=False)) if " " not in w]
    )
    dis1 = [w for w in diseases if " " not in w and w.isalpha()]
    org1 = [w for w in _ranked(common_orgs) if " " not in w] + [w for w in _ranked(microbes) if " " not in w]
    art1 = [w for w in artifacts if " " not in w]

    # Derivatives by chemical nomenclature ("hydroxy" + "progesterone"): real morphemes on real
    # substance names, as in SNOMED's many one-word substance names.
    bases = [w for w in sub1[:1500] if w.isalpha() and len(w) >= 5]
    chemx = [p + b for b in bases for p in CHEMICAL_PREFIXES if not b.startswith(p)]
    chemx = sorted(chemx, key=lambda w: (_stable_hash(w), w))

    pools: dict[str, Pool] = {
        "SUB1": Pool(sub1, 0.5, 10.0),
        "CHEMX": Pool(chemx, 0.3, 10.0),
        "DIS1": Pool(dis1, 0.5, 10.0),
        "ORG1": Pool(org1, 0.5, 10.0),
        "ART1": Pool(art1, 0.5, 10.0),
        "PROC1": Pool([w for w in _ranked(proc_wn) if " " not in w], 0.5, 10.0),
        "QUAL1": Pool(adjectives, 0.5, 10.0),
        "A": Pool(anatomy, 0.85, 8.0),
        "AA": Pool(anat_adj, 1.0, 3.0),
        "LAT": Pool(LATERALITY, 0.6, 0.0),
        "POS": Pool(POSITION, 1.0, 1.0),
        "MOD": Pool(MODIFIERS, 1.0, 2.0),
        "DH": Pool(DISORDER_HEADS, 1.0, 2.0),
        "DIS": Pool(diseases, 0.9, 5.0),
        "FH": Pool(FINDING_HEADS, 1.0, 1.5),
        "CHG": Pool(CHANGE, 1.0, 1.0),
        "PROP": Pool(PROPERTIES, 1.0, 1.0),
        "PH": Pool(PROC_HEADS, 1.0, 2.0),
        "PQ": Pool(PROC_QUALIFIERS, 1.0, 1.0),
        "PROCW": Pool(_ranked(proc_wn), 1.0, 3.0),
        "IMG": Pool(IMAGING, 1.0, 1.0),
        "APPR": Pool(APPROACHES, 1.0, 1.0),
        "MEAS": Pool(MEASURES, 1.0, 1.0),
        "FLUID": Pool(FLUIDS, 1.0, 1.0),
        "SALT": Pool(SALTS, 1.0, 1.0),
        "DOSE": Pool(DOSE_FORMS, 1.0, 1.0),
        "ROUTE": Pool(ROUTES, 1.0, 1.0),
        "UNIT": Pool(UNITS, 1.0, 0.5),
        "UABB": Pool(UNIT_ABBR, 1.0, 0.5),
        "NUM": Pool(NUMBERS, 0.9, 1.0),
        "MORPH": Pool(MORPHOLOGIES, 1.0, 2.0),
        "CELL": Pool(CELL_WORDS, 0.8, 2.0),
        "CPART": Pool(CELL_PARTS, 0.8, 1.0),
        "SUB": Pool(substances, 1.0, 10.0),
        "GEN": Pool(_ranked(genera), 0.8, 10.0),
        "EPI": Pool(_ranked(epithets), 0.8, 10.0),
        "FAM": Pool(_ranked(families), 0.8, 10.0),
        "ORGC": Pool(_ranked(common_orgs), 1.0, 10.0),
        "MICRO": Pool(_ranked(microbes), 1.0, 5.0),
        "ART": Pool(artifacts, 1.0, 10.0),
        "PERS": Pool(persons, 1.0, 5.0),
        "REL": Pool(RELATIVES, 1.0, 1.0),
        "GEO": Pool(locations, 0.8, 10.0),
        "ENV": Pool(ENV_WORDS, 1.0, 1.0),
        "ENVQ": Pool(ENV_QUALS, 1.0, 1.0),
        "SCALE": Pool(SCALE_WORDS, 1.0, 1.0),
        "EVT": Pool(EVENT_VERBS, 1.0, 1.0),
        "THER": Pool(THERAPY_WORDS, 1.0, 1.0),
        "ROMAN": Pool(ROMAN, 0.8, 2.0),
        "SITP": Pool(SITUATION_PREFIXES, 1.0, 0.5),
        "SITS": Pool(SITUATION_SUFFIXES, 1.0, 1.0),
        "QUAL": Pool(adjectives, 1.0, 10.0),
        "QN": Pool(attributes, 1.0, 10.0),
        "VERB": Pool(verbs, 1.0, 10.0),
        "W": Pool(general, 1.0, 10.0),
        "HPO": Pool(hpo_rank or diseases, 0.0, 1.0),
    }
    for key, items in EXTRA_POOLS.items():
        pools[key] = Pool(items, 1.0, 1.5)

    native: dict[str, list[str]] = defaultdict(list)
    for name, syns in hpo:
        for syn in syns:
            if syn.lower() != name.lower() and ok_lemma(syn.replace(",", "").replace("(", "").replace(")", "")[:40]):
                native[name.lower()].append(syn)
    for off in _descendants(wn, dis_roots) + _descendants(wn, [_sense(wn, "medical procedure")]):
        ws = [w for w in wn.words[off] if ok_lemma(w)]
        for w in ws:
            for syn in ws:
                if syn.lower() != w.lower():
                    native[w.lower()].append(syn)
    word_syn: dict[str, list[str]] = defaultdict(list)
    single = (
        set(anatomy) | set(DISORDER_HEADS) | set(PROC_HEADS) | set(FINDING_HEADS) | set(MODIFIERS) | set(MORPHOLOGIES)
    )
    for w in sorted(single):
        senses = wn.noun_index.get(w)
        if senses and senses[0]:
            for syn in wn.words[senses[0][0]]:
                if syn != w and syn == syn.lower() and ok_lemma(syn) and tokens.get(syn, 0) >= 2:
                    word_syn[w].append(syn)
    for a, b in CURATED_SYNONYMS:
        word_syn[a].append(b)
        word_syn[b].append(a)
    for adj, noun in adj_to_noun.items():
        word_syn[adj].append(noun)

    word_class: dict[str, str] = {}
    for cls in (
        "A",
        "AA",
        "POS",
        "MOD",
        "DH",
        "FH",
        "PH",
        "MORPH",
        "SUB",
        "ART",
        "PERS",
        "FLUID",
        "PROP",
        "MEAS",
        "CHG",
        "DOSE",
        "ORGC",
    ):
        for w in pools[cls].items[:4000]:
            if " " not in w:
                word_class.setdefault(w.lower(), cls)
    lower_words = (
        frozenset(
            w.lower()
            for p in pools.values()
            for item in p.items[:20000]
            for w in str(item).split(" ")
            if w == w.lower()
        )
        | FUNCTION_WORDS
    )
    sources = {
        "bc5cdr_ncbi_tokens": sum(tokens.values()),
        "disease_names": len(diseases),
        "substances": len(substances),
        "anatomy": len(anatomy),
        "hpo_terms": len(hpo),
        "genera": len(genera),
        "artifacts": len(artifacts),
    }
    return Vocabulary(pools, dict(native), dict(word_syn), adj_to_noun, noun_to_adj, word_class, lower_words, sources)
