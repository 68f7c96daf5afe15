"""The CRAFT corpus (v5.0.2) into documents / sentences / mentions / notices tables.

CRAFT, the Colorado Richly Annotated Full-Text corpus (Bada et al., BMC Bioinformatics 2012; Cohen et
al. 2017), is 97 full-text articles of the PubMed Central Open Access subset with concept annotations to
eleven ontology modules. It is read straight from its release tarball (Python :mod:`tarfile`, one
streaming pass, nothing unpacked to disk). Layout inside the tarball's one top folder
(``CRAFT-5.0.2/``; CRAFT ``README.md``, ``articles/ids/README.txt``, ``concept-annotation/README.md``)::

    articles/ids/craft-ids-{train,dev,test}.txt        the 2019 shared task's splits (60 / 7 / 30 PMIDs)
    articles/ids/craft-idmappings.txt                  "#Format: [FILE NAME] <tab> [PMCID] <tab> [PMID]"
    articles/txt/<PMID>.txt                            the article, UTF-8; offsets count its characters
    articles/txt/<PMID>.copyright                      its open-access notice, with the article URL
    concept-annotation/<M>/<M>/knowtator/<PMID>.txt.knowtator.xml             proper classes
    concept-annotation/<M>/<M>+extensions/knowtator/<PMID>.txt.knowtator.xml  with extension classes
    concept-annotation/MONDO/MONDO_without_genotype_annotations/knowtator-2/<PMID>.xml

for the modules ``M`` of :data:`MODULES` (Knowtator XML) and MONDO (Knowtator-2 XML only, one set: no
extension classes are used for MONDO). Readers: :mod:`biosem.corpora.knowtator`.

The rules, each counted (:class:`CraftStats`) and logged by rule ``ingest_craft``:

* **Annotation set** ``proper`` (default) or ``extensions``: the proper set uses only classes of the
  real ontologies; the extensions set adds CRAFT's extension classes (``GO_EXT:…``, ``CL_GO_EXT:cell``,
  ``PR_EXT:…``), which have no terms in the real ontologies. An extension class in a proper set is an
  error.
* **Mentions**: one per annotation, ``type`` = the module, ``concept_ids`` = ``[class id]``. Spans are
  sorted and overlapping or touching spans joined (``spans_joined``: GO_BP+extensions and SO+extensions
  each have one annotation with a repeated or overlapping span); a mention whose joined spans are
  several is *discontinuous* (counted; never a WiC target). Its ``start``/``end`` are the extent of its
  spans. Whitespace at the edges of a span is trimmed (``spans_trimmed``: one MONDO span ends in two
  line breaks); an empty span (``start == end``; one in MONDO) is left out (``empty_spans``); an
  annotation without a non-empty span (one in GO_BP+extensions) is dropped and counted
  (``dropped_no_span``).
  The same span annotated in two modules is two mentions (the modules are independent annotation
  layers; the README's per-module counts count both).
* **Documents**: the PMIDs of the three split lists (a PMID in two lists, or an article in none, is an
  error), in PMID order. ``title`` is the article's first line, ``abstract`` ``""``, ``text`` the whole
  ``.txt``. Sentences: pysbd line by line (:class:`biosem.corpora.sentences.Segmenter` with
  ``split_lines``), mention extents protected as for PubTator.
* **Notices**: each article's ``.copyright`` (citation line, ``PubMed ID: <PMID>`` line, authors,
  affiliations, the article URL on a line of its own, then the copyright statement), kept verbatim in
  the ``notices`` table with its URL and PMC id, so that any released sentence can carry its article's
  notice (the BMC and PLoS notices ask for the notice and the URL to be kept with the text).

Bad input stops with a :class:`~biosem.errors.SourceFormatError` naming the member (``<archive>/
CRAFT-5.0.2/…``) and, for an annotation, the XML line and the annotation id: a span outside the text, a
``spannedText`` that is not the text at its offsets, an annotation file of an unknown module, malformed
XML, a missing member (a listed article's ``.txt`` or ``.copyright``, a module's annotation file, a split
list), a notice without exactly one URL line or whose PMID or PMC id disagree. Nothing is written then.
"""

from __future__ import annotations

import logging
import re
import tarfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from biosem.corpora.knowtator import KNOWTATOR, KNOWTATOR_2, READERS, Annotation
from biosem.corpora.schemas import SPLITS
from biosem.corpora.sentences import SegmentationStats, Segmenter, segment_documents
from biosem.errors import SourceFormatError

log = logging.getLogger(__name__)

MODULES: dict[str, str] = {
    "CHEBI": KNOWTATOR,
    "CL": KNOWTATOR,
    "GO_BP": KNOWTATOR,
    "GO_CC": KNOWTATOR,
    "GO_MF": KNOWTATOR,
    "MONDO": KNOWTATOR_2,
    "MOP": KNOWTATOR,
    "NCBITaxon": KNOWTATOR,
    "PR": KNOWTATOR,
    "SO": KNOWTATOR,
    "UBERON": KNOWTATOR,
}
"""The concept-annotation modules of CRAFT v5 (``concept-annotation/README.md``) and their XML dialect."""
ANNOTATION_SETS = ("proper", "extensions")
MONDO_SET = "MONDO_without_genotype_annotations"
"""MONDO's one annotation set in the tarball (Knowtator-2; no extension classes)."""
SPLIT_LISTS = {split: f"articles/ids/craft-ids-{split}.txt" for split in SPLITS}
ID_MAPPINGS = "articles/ids/craft-idmappings.txt"
ARTICLES = "articles/txt"
ANNOTATIONS = "concept-annotation"

_ANNOTATION_FILE = re.compile(rf"{ANNOTATIONS}/([^/]+)/([^/]+)/(knowtator|knowtator-2)/([^/]+)")
_ARTICLE_FILE = re.compile(rf"{ARTICLES}/([0-9]+)\.(txt|copyright)")
_PMID = re.compile(r"[0-9]+")
_URL_LINE = re.compile(r"https?://\S+")
_PMC_URL = re.compile(r".*/(PMC[0-9]+)/?")


def set_folder(module: str, annotation_set: str) -> str:
    """The folder of a module's annotation set (``GO_BP``, ``GO_BP+extensions``; MONDO: its one set)."""
    if module == "MONDO":
        return MONDO_SET
    return module if annotation_set == "proper" else f"{module}+extensions"


def annotation_member(module: str, annotation_set: str, pmid: str) -> str:
    """The path (inside the top folder) of a document's annotation file of one module and set."""
    folder = f"{ANNOTATIONS}/{module}/{set_folder(module, annotation_set)}"
    if MODULES[module] == KNOWTATOR_2:
        return f"{folder}/knowtator-2/{pmid}.xml"
    return f"{folder}/knowtator/{pmid}.txt.knowtator.xml"


@dataclass(frozen=True)
class Notice:
    """An article's open-access notice (``articles/txt/<PMID>.copyright``).

    Attributes:
        pmcid: the article's PMC id (``PMC31432``), from ``craft-idmappings.txt`` (checked against the URL).
        url: the article's URL (``http://www.ncbi.nlm.nih.gov/pmc/articles/PMC31432``).
        citation: the first line (``BMC Neuroscience. 2001; 2: 5.``).
        statement: the text after the URL line: the copyright and open-access terms.
        notice: the whole file, trailing whitespace removed.
    """

    pmcid: str
    url: str
    citation: str
    statement: str
    notice: str


@dataclass
class CraftDocument:
    """One article: its split, text, notice and annotations per module (in file order)."""

    pmid: str
    split: str
    text: str
    notice: Notice
    annotations: dict[str, list[Annotation]] = field(default_factory=dict)

    @property
    def title(self) -> str:
        """The article's first line."""
        return self.text.split("\n", 1)[0]


@dataclass
class CraftStats:
    """Counters of one split (``"all"``: the corpus) and one module (``"all"``: every module)."""

    corpus: str
    split: str
    module: str = "all"
    documents: int = 0  # documents (module rows: documents with a mention of the module)
    sentences: int = 0
    annotations: int = 0  # annotations read (the CRAFT README's per-module counts)
    mentions: int = 0  # annotations kept as mentions
    discontinuous: int = 0  # mentions of several spans
    dropped_no_span: int = 0  # annotations without a (non-empty) span
    empty_spans: int = 0  # empty spans (start == end) left out of a mention
    spans_trimmed: int = 0  # spans with edge whitespace, trimmed
    spans_joined: int = 0  # mentions with overlapping, repeated or touching spans joined
    extension_class: int = 0  # mentions of an extension class (extensions set only)
    segmentation: SegmentationStats = field(default_factory=SegmentationStats)

    def as_row(self, segmentation: bool) -> dict[str, object]:
        row = {k: v for k, v in self.__dict__.items() if k != "segmentation"}
        if segmentation:
            del row["module"]
            row.update(
                {
                    f"sentences_{k}": v
                    for k, v in self.segmentation.__dict__.items()
                    if k not in ("documents", "sentences")
                }
            )
        else:
            del row["sentences"]
        return row


@dataclass
class CraftTables:
    """The corpus intermediates of CRAFT (schemas: :mod:`biosem.corpora.schemas`) and its counts.

    ``counts``: one row per split and ``all`` (the ``corpus_counts`` table of every corpus);
    ``module_counts``: one row per split (and ``all``) and module.
    """

    documents: pd.DataFrame
    sentences: pd.DataFrame
    mentions: pd.DataFrame
    notices: pd.DataFrame
    counts: pd.DataFrame
    module_counts: pd.DataFrame


# --- the tarball -------------------------------------------------------------------------------------


def read_members(archive: str | Path, wanted: Callable[[str], bool]) -> tuple[str, list[str], dict[str, bytes]]:
    """The regular files of a tarball, and the bytes of those ``wanted(relative path)`` keeps, read in
    one streaming pass.

    Every member must lie in one top folder (``CRAFT-5.0.2/``); paths are returned relative to it.

    Returns:
        ``(top folder, every regular file's relative path, {wanted relative path: bytes})``.

    Raises:
        SourceFormatError: not a readable tar archive (plain or compressed), or members outside one top
            folder.
    """
    members: dict[str, bytes] = {}
    names: list[str] = []
    tops: set[str] = set()
    try:
        with tarfile.open(archive, "r|*") as tar:
            for member in tar:
                top, _, relative = member.name.strip("/").partition("/")
                tops.add(top)
                if len(tops) > 1:
                    raise SourceFormatError(archive, None, "members in one top folder", ", ".join(sorted(tops)))
                if member.isfile() and relative:
                    names.append(relative)
                if member.isfile() and relative and wanted(relative):
                    handle = tar.extractfile(member)
                    assert handle is not None  # a regular file
                    members[relative] = handle.read()
    except (tarfile.TarError, EOFError, OSError) as err:
        raise SourceFormatError(archive, None, "a complete tar archive (CRAFT release tarball)", str(err)) from None
    if not tops:
        raise SourceFormatError(archive, None, "a tar archive with the CRAFT folders", "no members")
    return tops.pop(), sorted(names), members


class _Archive:
    """The members read from the tarball, with errors naming ``<archive>/<top>/<member>``."""

    def __init__(self, path: str | Path, top: str, members: dict[str, bytes]) -> None:
        self.path = Path(path)
        self.top = top
        self.members = members

    def where(self, relative: str) -> Path:
        return self.path / self.top / relative

    def read(self, relative: str) -> bytes:
        if relative not in self.members:
            raise SourceFormatError(self.path, None, f"a member {self.top}/{relative}", "no such member")
        return self.members[relative]

    def text(self, relative: str) -> str:
        data = self.read(relative)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as err:
            line = data[: err.start].count(b"\n") + 1
            raise SourceFormatError(self.where(relative), line, "UTF-8 text", repr(data[err.start : err.end])) from None


def _pmid_list(archive: _Archive, relative: str) -> list[str]:
    """The PMIDs of a split list: one per line, decimal digits, each once; blank lines ignored."""
    pmids: list[str] = []
    for lineno, raw in enumerate(archive.text(relative).splitlines(), 1):
        value = raw.strip()
        if not value:
            continue
        if not _PMID.fullmatch(value) or value in pmids:
            expected = "one PMID of decimal digits per line" if not _PMID.fullmatch(value) else "each PMID once"
            raise SourceFormatError(archive.where(relative), lineno, expected, raw)
        pmids.append(value)
    return pmids


def _id_mappings(archive: _Archive) -> dict[str, str]:
    """PMID -> PMCID from ``craft-idmappings.txt`` (``#`` lines are comments)."""
    out: dict[str, str] = {}
    for lineno, raw in enumerate(archive.text(ID_MAPPINGS).splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        cols = raw.split("\t")
        if len(cols) != 3 or not cols[1].startswith("PMC") or not _PMID.fullmatch(cols[2]):
            raise SourceFormatError(archive.where(ID_MAPPINGS), lineno, "FILE NAME<TAB>PMCID<TAB>PMID", raw)
        out[cols[2]] = cols[1]
    return out


def parse_notice(text: str, path: str | Path, pmid: str, pmcid: str | None) -> Notice:
    """An article's ``.copyright`` notice (layout: module docstring).

    Raises:
        SourceFormatError: no ``PubMed ID: <pmid>`` line on line 2, not exactly one line holding only a
            URL, or a URL that does not end in the article's PMC id (from ``craft-idmappings.txt``).
    """
    lines = text.rstrip().split("\n")
    if len(lines) < 2 or lines[1].strip() != f"PubMed ID: {pmid}":
        raise SourceFormatError(path, 2, f"'PubMed ID: {pmid}'", lines[1] if len(lines) > 1 else "end of file")
    urls = [i for i, line in enumerate(lines) if _URL_LINE.fullmatch(line.strip())]
    if len(urls) != 1:
        raise SourceFormatError(path, None, "one line holding the article's URL", f"{len(urls)} URL lines")
    url = lines[urls[0]].strip()
    match = _PMC_URL.fullmatch(url)
    found = match.group(1) if match else ""
    if pmcid is None or found != pmcid:
        raise SourceFormatError(path, urls[0] + 1, f"the URL of {pmcid or 'the PMC id of craft-idmappings.txt'}", url)
    statement = "\n".join(lines[urls[0] + 1 :]).strip()
    return Notice(pmcid, url, lines[0].strip(), statement, "\n".join(lines))


def _check_modules(modules: Iterable[str], annotation_set: str) -> list[str]:
    unknown = sorted(set(modules) - set(MODULES))
    if unknown or annotation_set not in ANNOTATION_SETS:
        raise ValueError(
            f"CRAFT modules {unknown or list(modules)} / annotation set {annotation_set!r}: expected modules "
            f"of {', '.join(MODULES)} and a set of {', '.join(ANNOTATION_SETS)}"
        )
    return [m for m in MODULES if m in set(modules)]


def read_craft(
    archive: str | Path, annotation_set: str = "proper", modules: Sequence[str] = tuple(MODULES)
) -> list[CraftDocument]:
    """The documents of the CRAFT tarball ``archive`` with their notices and annotations, checked.

    Args:
        archive: the release tarball (``CRAFT-5.0.2.tar.gz``; any compression :mod:`tarfile` reads).
        annotation_set: ``proper`` or ``extensions`` (module docstring).
        modules: the modules to read (:data:`MODULES`; read in that order).

    Returns:
        The documents in PMID order; each one's ``annotations`` holds every module asked for.

    Raises:
        ValueError: an unknown module or annotation set asked for.
        SourceFormatError: see the module docstring (missing member, unknown module folder, bad
            annotation, bad notice, a document in no split list or in two).
    """
    modules = _check_modules(modules, annotation_set)
    needed = {annotation_member(m, annotation_set, "").rsplit("/", 1)[0] for m in modules}

    def wanted(relative: str) -> bool:
        return (
            relative in SPLIT_LISTS.values()
            or relative == ID_MAPPINGS
            or _ARTICLE_FILE.fullmatch(relative) is not None
            or (_ANNOTATION_FILE.fullmatch(relative) is not None and relative.rsplit("/", 1)[0] in needed)
        )

    top, names, members = read_members(archive, wanted)
    tar = _Archive(archive, top, members)
    for relative in names:
        match = _ANNOTATION_FILE.fullmatch(relative)
        if match and match.group(1) not in MODULES:
            raise SourceFormatError(
                tar.where(relative),
                None,
                f"an annotation file of a CRAFT module ({', '.join(MODULES)})",
                match.group(1),
            )
    split_of: dict[str, str] = {}
    for split, relative in SPLIT_LISTS.items():
        for pmid in _pmid_list(tar, relative):
            if pmid in split_of:
                raise SourceFormatError(tar.where(relative), None, f"PMID {pmid} in one split list", split_of[pmid])
            split_of[pmid] = split
    articles = sorted({m.group(1) for r in members if (m := _ARTICLE_FILE.fullmatch(r))})
    unlisted = [pmid for pmid in articles if pmid not in split_of]
    if unlisted:
        raise SourceFormatError(
            tar.where(f"{ARTICLES}/{unlisted[0]}.txt"), None, "an article listed in a split list", unlisted[0]
        )
    pmcids = _id_mappings(tar)
    documents = []
    for pmid in sorted(split_of):
        text = tar.text(f"{ARTICLES}/{pmid}.txt")
        relative = f"{ARTICLES}/{pmid}.copyright"
        notice = parse_notice(tar.text(relative), tar.where(relative), pmid, pmcids.get(pmid))
        doc = CraftDocument(pmid, split_of[pmid], text, notice)
        for module in modules:
            relative = annotation_member(module, annotation_set, pmid)
            annotations = READERS[MODULES[module]](tar.read(relative), tar.where(relative), pmid, text)
            if annotation_set == "proper" and module != "MONDO":
                extension = next((a for a in annotations if a.extension_class), None)
                if extension is not None:
                    raise SourceFormatError(
                        tar.where(relative),
                        extension.line,
                        f"annotation {extension.annotation_id}: a proper class (no extension classes in a proper set)",
                        extension.class_id,
                    )
            doc.annotations[module] = annotations
        documents.append(doc)
    log.info(
        "%s: %d articles (%s), modules %s, annotation set %s; %d of %d files read",
        archive,
        len(documents),
        ", ".join(f"{s} {sum(1 for d in documents if d.split == s)}" for s in SPLITS),
        ", ".join(modules),
        annotation_set,
        len(members),
        len(names),
    )
    return documents


# --- tables ------------------------------------------------------------------------------------------


def trim_span(text: str, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` without the whitespace at the edges of ``text[start:end]`` (empty if all blank)."""
    piece = text[start:end]
    core = piece.strip()
    if not core:
        return start, start
    lead = len(piece) - len(piece.lstrip())
    return start + lead, start + lead + len(core)


def join_spans(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans sorted, with overlapping, repeated or touching spans joined (end exclusive)."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out


@dataclass(frozen=True)
class Mention:
    """One mention of a document: the extent of its (joined) spans, its module and class."""

    start: int
    end: int
    module_order: int
    order: int
    module: str
    class_id: str
    spans: tuple[tuple[int, int], ...]
    extension_class: bool

    @property
    def discontinuous(self) -> bool:
        """Several spans once joined."""
        return len(self.spans) > 1


def document_mentions(doc: CraftDocument, modules: Sequence[str], stats: Mapping[str, CraftStats]) -> list[Mention]:
    """The document's mentions sorted by (start, end, module, file order), counting into ``stats``
    (one :class:`CraftStats` per module): spans trimmed of edge whitespace, empty spans left out,
    overlapping spans joined, annotations without a span dropped (module docstring)."""
    out = []
    for module_order, module in enumerate(modules):
        st = stats[module]
        annotations = doc.annotations[module]
        st.annotations += len(annotations)
        kept = 0
        for order, ann in enumerate(annotations):
            trimmed = [trim_span(doc.text, s, e) for s, e in ann.spans]
            st.spans_trimmed += sum(t != (s, e) and s < e for t, (s, e) in zip(trimmed, ann.spans, strict=True))
            given = [(s, e) for s, e in trimmed if s < e]
            if len(given) < len(ann.spans):
                st.empty_spans += len(ann.spans) - len(given)
                log.info("%s %s: annotation %s has an empty span; left out", doc.pmid, module, ann.annotation_id)
            if not given:
                st.dropped_no_span += 1
                log.info("%s %s: annotation %s has no span; dropped", doc.pmid, module, ann.annotation_id)
                continue
            spans = join_spans(given)
            st.spans_joined += len(spans) != len(given)
            st.discontinuous += len(spans) > 1
            st.extension_class += ann.extension_class
            kept += 1
            out.append(
                Mention(
                    spans[0][0],
                    spans[-1][1],
                    module_order,
                    order,
                    module,
                    ann.class_id,
                    tuple(spans),
                    ann.extension_class,
                )
            )
        st.mentions += kept
        st.documents += kept > 0
    out.sort(key=lambda m: (m.start, m.end, m.module_order, m.order))
    return out


def ingest_craft(
    name: str,
    archive: str | Path,
    segmenter: Segmenter,
    annotation_set: str = "proper",
    modules: Sequence[str] = tuple(MODULES),
    processes: int = 1,
) -> CraftTables:
    """Read, check and segment CRAFT (docs/design.md § corpora; rules: module docstring).

    Args:
        name: corpus name (the ``corpus`` column).
        archive: the CRAFT release tarball.
        segmenter: the sentence segmenter; it is used with ``split_lines`` (a line break ends a
            sentence in a full text), its other settings as configured.
        annotation_set: ``proper`` or ``extensions``.
        modules: the modules read (default all of :data:`MODULES`).
        processes: worker processes for sentence segmentation (output does not depend on it).

    Returns:
        :class:`CraftTables`: DOCUMENTS, SENTENCES, MENTIONS and NOTICES frames (rows in reading order;
        ``write_table`` sorts them) and the counts per split and per split and module.

    Raises:
        ValueError, SourceFormatError: see :func:`read_craft`.
    """
    modules = _check_modules(modules, annotation_set)
    documents = read_craft(archive, annotation_set, modules)
    segmenter = Segmenter(segmenter.language, segmenter.mask_mention_periods, segmenter.split_title, True)
    per_module = {(s, m): CraftStats(name, s, m) for s in SPLITS for m in modules}
    per_split = {s: CraftStats(name, s) for s in SPLITS}
    mentions = [document_mentions(d, modules, {m: per_module[(d.split, m)] for m in modules}) for d in documents]
    segmented = segment_documents(
        segmenter,
        [(d.text, [(m.start, m.end) for m in ms], len(d.title)) for d, ms in zip(documents, mentions, strict=True)],
        processes,
    )
    doc_rows, notice_rows = [], []
    sent_cols: dict[str, list] = {k: [] for k in ("document_id", "sentence_id", "start", "end", "text")}
    ment_cols: dict[str, list] = {
        k: []
        for k in (
            "document_id",
            "mention_id",
            "start",
            "end",
            "text",
            "type",
            "concept_ids",
            "sentence_id",
            "sentence_start",
            "sentence_end",
            "spans",
            "discontinuous",
        )
    }
    for doc, doc_mentions, (spans, seg_stats) in zip(documents, mentions, segmented, strict=True):
        st = per_split[doc.split]
        st.segmentation.add(seg_stats)
        st.documents += 1
        st.sentences += len(spans)
        doc_rows.append((doc.pmid, doc.split, doc.title, "", doc.text))
        n = doc.notice
        notice_rows.append((doc.pmid, n.pmcid, n.url, n.citation, n.statement, n.notice))
        for sid, (s, e) in enumerate(spans):
            sent_cols["document_id"].append(doc.pmid)
            sent_cols["sentence_id"].append(sid)
            sent_cols["start"].append(s)
            sent_cols["end"].append(e)
            sent_cols["text"].append(doc.text[s:e])
        starts = np.array([s for s, _ in spans], dtype=np.int64)
        ms = np.array([m.start for m in doc_mentions], dtype=np.int64)
        sids = np.searchsorted(starts, ms, side="right") - 1
        for mid, (m, sid) in enumerate(zip(doc_mentions, sids.tolist(), strict=True)):
            s, e = spans[sid]
            if not (s <= m.start and m.end <= e):  # merge_crossing guarantees this; a bug if not
                raise AssertionError(f"{doc.pmid}: mention {m.start}-{m.end} outside its sentence {s}-{e}")
            ment_cols["document_id"].append(doc.pmid)
            ment_cols["mention_id"].append(mid)
            ment_cols["start"].append(m.start)
            ment_cols["end"].append(m.end)
            ment_cols["text"].append(doc.text[m.start : m.end])
            ment_cols["type"].append(m.module)
            ment_cols["concept_ids"].append([m.class_id])
            ment_cols["sentence_id"].append(sid)
            ment_cols["sentence_start"].append(m.start - s)
            ment_cols["sentence_end"].append(m.end - s)
            ment_cols["spans"].append([{"start": a, "end": b} for a, b in m.spans])
            ment_cols["discontinuous"].append(m.discontinuous)
    for (split, _), mst in per_module.items():
        st = per_split[split]
        for key in (
            "annotations",
            "mentions",
            "discontinuous",
            "dropped_no_span",
            "empty_spans",
            "spans_trimmed",
            "spans_joined",
            "extension_class",
        ):
            setattr(st, key, getattr(st, key) + getattr(mst, key))
    frames = {
        "documents": pd.DataFrame(doc_rows, columns=["document_id", "split", "title", "abstract", "text"]),
        "sentences": pd.DataFrame(sent_cols),
        "mentions": pd.DataFrame(ment_cols),
        "notices": pd.DataFrame(
            notice_rows, columns=["document_id", "pmcid", "url", "citation", "statement", "notice"]
        ),
    }
    for frame in frames.values():
        frame.insert(0, "corpus", name)
    return CraftTables(
        **frames,
        counts=counts_frame(list(per_split.values()), segmentation=True),
        module_counts=counts_frame(list(per_module.values()), segmentation=False),
    )


def counts_frame(rows: Sequence[CraftStats], segmentation: bool) -> pd.DataFrame:
    """Counts as a table: the rows given (split order), then their sums per module with split ``all``.

    ``segmentation``: the per-split table (with sentence and segmentation columns, no module);
    otherwise the per-split-and-module table (no sentence columns).
    """
    frame = pd.DataFrame([r.as_row(segmentation) for r in rows])
    keys = ["corpus", "split"] if segmentation else ["corpus", "split", "module"]
    ints = [c for c in frame.columns if c not in keys]
    group = ["corpus"] if segmentation else ["corpus", "module"]
    total = frame.groupby(group, sort=False)[ints].sum().reset_index().assign(split="all")
    frame = pd.concat([frame, total[frame.columns]], ignore_index=True)
    frame[ints] = frame[ints].astype("int64")
    return frame


def log_counts(tables: CraftTables, logger: logging.Logger = log) -> None:
    """Log the counts per split, then per module (the corpus row of each)."""
    for row in tables.counts.itertuples(index=False):
        logger.info(
            "%s %s: %d documents, %d sentences (%d recovered from pysbd, %d merged over %d crossing mentions, "
            "%d masked mentions), %d annotations read -> %d mentions (%d discontinuous; %d with spans joined; "
            "%d of extension classes; %d spans trimmed of edge whitespace, %d empty spans left out); "
            "dropped: %d without a span",
            row.corpus,
            row.split,
            row.documents,
            row.sentences,
            row.sentences_recovered,
            row.sentences_merged,
            row.sentences_crossing_mentions,
            row.sentences_masked_mentions,
            row.annotations,
            row.mentions,
            row.discontinuous,
            row.spans_joined,
            row.extension_class,
            row.spans_trimmed,
            row.empty_spans,
            row.dropped_no_span,
        )
    for row in tables.module_counts[tables.module_counts["split"] == "all"].itertuples(index=False):
        logger.info(
            "%s %s: %d annotations read -> %d mentions in %d documents (%d discontinuous; %d of extension "
            "classes); dropped: %d without a span",
            row.corpus,
            row.module,
            row.annotations,
            row.mentions,
            row.documents,
            row.discontinuous,
            row.extension_class,
            row.dropped_no_span,
        )


def class_counts(mentions: pd.DataFrame) -> Counter[str]:
    """Mentions per ontology prefix of their class (``GO``, ``GO_EXT``, ``CL_GO_EXT``): for logs."""
    return Counter(ids[0].partition(":")[0] for ids in mentions["concept_ids"])
