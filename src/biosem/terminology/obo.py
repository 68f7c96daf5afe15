"""OBO adapter: an OBO flat file (plain or gzipped) -> the five terminology intermediates.

Parsing is done by pronto (which parses OBO through fastobo); this module only validates the bytes
(gzip, UTF-8, non-empty), maps pronto's exceptions to :class:`~biosem.errors.SourceFormatError` and
turns the ontology into the tables of :mod:`biosem.terminology.schemas` (docs/design.md § Intermediates).

Spec: OBO flat file format 1.4, https://owlcollab.github.io/oboformat/doc/obo-syntax.html (and the
OBO 1.2 guide it extends, https://owlcollab.github.io/oboformat/doc/GO.format.obo-1_2.html).
"""

from __future__ import annotations

import collections
import graphlib
import gzip
import logging
import re
import tempfile
import time
import warnings
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pronto
import pyarrow as pa
import pyarrow.compute as pc

from biosem.errors import SourceFormatError
from biosem.io import TableSpec, to_arrow
from biosem.terminology.schemas import ASSOCIATIONS, CONCEPTS, MAPPINGS, RELATIONS, TERMS

log = logging.getLogger(__name__)

SYNONYM_SCOPES = ("EXACT", "RELATED", "BROAD", "NARROW")

ASSOCIATION_KIND_OF_TAG: dict[str, str] = {
    "replaced_by": "replaced_by",
    "consider": "possibly_equivalent_to",
}
"""OBO obsoletion tag -> association kind (the SNOMED CT historical association it stands for).

``replaced_by`` names the term to use instead (SNOMED REPLACED BY); ``consider`` names candidates
that need a curator's look (SNOMED POSSIBLY EQUIVALENT TO). OBO has no SAME AS: an ``alt_id`` is a
merged id without a name of its own, so it yields no association; it is kept in ``mappings`` under
:data:`ALT_ID_CODE_SYSTEM` (:mod:`biosem.terminology.resolve` follows it).
"""

ALT_ID_CODE_SYSTEM = "alt_id"
"""The ``code_system`` of the ``mappings`` rows that hold a term's ``alt_id`` s (code = the alternative
id as written, ``"GO:0019952"``; concept_id = the term that carries it). The OBO 1.2 guide: ``alt_id``
"defines an alternate id for this term. A term may have any number of alternate ids" (in practice the
ids of terms merged into it)."""

_GZIP_MAGIC = b"\x1f\x8b"
_URL_XREF = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_LINE_COLUMN = re.compile(r"(\d+):(\d+)")
_MALFORMED_XREF = re.compile(
    r"^xref:[ \t]+(?:\S+[ \t]+[^\s\"{!][^\n]*|[A-Za-z][A-Za-z0-9+.-]*://[^\s\\]*\\[^\n]*)$", re.MULTILINE
)
"""An ``xref:`` line whose id runs on past a space into text that is no quoted description, ``{``
qualifier list or ``!`` comment (GO 2021-12-15 line 195244: ``xref: EC 2.7.1.190``; DOID 2019-03-01
line 116523: ``xref: JA:Epilepsy Genetics Kiel``), or whose id is a URL with an OBO escape in it,
which no IRI may hold (UBERON 2015-04-23 line 78225: ``xref: http://en.wikipedia.org/wiki/File\\:Gray793.png``;
SO 2015-11-24 line 8534). URL xrefs give no mapping anyway (:func:`split_xref`)."""
_XREF_ITEM = r'[^\s,"\]]+(?:[ \t]+"(?:[^"\\]|\\.)*")?'
_WELL_FORMED_XREF_LIST = re.compile(rf"\[[ \t]*(?:{_XREF_ITEM}(?:[ \t]*,[ \t]*{_XREF_ITEM})*)?[ \t]*\]")
_SYNONYM_XREF_LIST = re.compile(
    r'^(synonym:[ \t]+"(?:[^"\\]|\\.)*"[^\[\n"]*)(\[[^\n]*?\])([ \t]*(?:\{[^\n]*\})?[ \t]*(?:![^\n]*)?)$', re.MULTILINE
)
"""A ``synonym:`` line: (text, scope and type), the xref list, (qualifiers and comment). Its list is
emptied when it is not a comma-separated list of ``<id> ["description"]`` (UBERON 2015-04-23 line
197476: ``[TAO:Bird and Mabee 2003]``; line 217222 ``[:ISBN 3-89937-052-X [Goujet and Young 2004\\]]``):
biosem reads no synonym xrefs."""
_TYPEDEF_STANZA = re.compile(r"^\[Typedef\][ \t]*\n(.*?)(?=^\[|\Z)", re.MULTILINE | re.DOTALL)
_RELATIONSHIP_TYPE = re.compile(r"^(relationship:[ \t]+)([^\s!{]+)", re.MULTILINE)
_DEFINITION = re.compile(r"^def:[^\n]*$", re.MULTILINE)
"""A ``def:`` clause: never read (no intermediate holds definitions)."""


def read_obo(
    path: str | Path,
    source: str,
    *,
    id_prefixes: Sequence[str] | None = None,
    underscores_as_spaces: bool = False,
    exclude_synonym_types: Sequence[str] | None = None,
    allow_cycles: bool = False,
) -> dict[str, pa.Table]:
    """Read an OBO 1.4 file (``.obo`` or gzipped ``.obo.gz``) into the terminology tables.

    Only ``[Term]`` stanzas become concepts; ``[Typedef]`` stanzas only name relationship types and
    ``[Instance]`` stanzas are ignored (pronto warns; the warnings are counted in the log). Imports
    (``import:`` header tags) are not resolved. With ``id_prefixes``, only the terms whose id prefix
    (before the first ":") is listed are read: MOP 2014-09-03 carries 49 CHEBI and 4 BFO classes it
    imports, which CRAFT's README says to ignore; relationships and ``is_a`` edges of the kept terms
    to the others stay (their targets counted as outside). Columns are those of
    :mod:`biosem.terminology.schemas`; every table has ``source`` = ``source`` and is sorted by its
    key (:func:`biosem.io.to_arrow`).

    * ``concepts``: one row per term; ``concept_id`` = the term id (``"HP:0000118"``), ``active`` =
      not ``is_obsolete``, ``module`` = the term's ``namespace``, else the header's
      ``default-namespace`` (OBO 1.2 guide, ``namespace`` tag), else null.
    * ``terms``: the ``name`` as term_type ``"preferred"`` with term_id ``"<id>#name"`` (no row
      for a term without a name; names of obsolete terms are kept as they are, "obsolete " prefix
      included); each ``synonym`` as term_type ``"synonym"`` with ``scope``
      EXACT|RELATED|BROAD|NARROW and term_id ``"<id>#syn<k>"``, k the 0-based index after
      sorting the term's distinct (scope, text) pairs. ``tty`` = the synonym's type (the id of its
      ``synonymtypedef``: UBERON's ``ABBREVIATION``, ``LATIN``, ``PLURAL``; the first in sort order
      if one (scope, text) has several) or null. ``language`` "en", ``active`` as the concept;
      acceptability/sab null. With ``exclude_synonym_types``, the synonyms whose ``tty`` is listed
      are left out (:func:`without_synonym_types`; the other synonyms keep their term_id).
    * ``relations``: direct ``is_a`` (subject = child, object = parent, rel = rela = ``"is_a"``;
      not the transitive closure) and each ``relationship: <rel> <target>`` with rel = the
      relationship id and rela = its Typedef ``name`` (the id if the Typedef has no name); sab null.
      Targets of ``relationship`` need not be terms of the file. A relationship written with the
      ``name`` of a Typedef instead of its id (MOP 2014-09-03 line 328: ``relationship:
      has_participant`` for ``[Typedef] id: BFO:0000057 name: has_participant``) is read as that
      Typedef when exactly one has the name (logged; see :func:`resolve_relationship_names`).
    * ``associations``: for obsolete terms, ``replaced_by`` -> kind ``"replaced_by"`` and
      ``consider`` -> kind ``"possibly_equivalent_to"`` (see :data:`ASSOCIATION_KIND_OF_TAG`);
      only targets that are terms of the file. These tags on non-obsolete terms are ignored.
    * ``mappings``: each ``xref`` split on its first ":" into (code_system, code), e.g.
      ``"UMLS:C0000737"`` -> ("UMLS", "C0000737"); xrefs without ":" (or with an empty side) and
      URL xrefs are skipped and counted in the log. Each ``alt_id`` as (:data:`ALT_ID_CODE_SYSTEM`,
      the alternative id), e.g. GO:0006412's ``alt_id: GO:0006416`` -> ("alt_id", "GO:0006416").

    Two kinds of line are blanked before pronto parses the file, because fastobo rejects the slips
    that released files carry in them and they would give biosem nothing (see
    :func:`blank_unread_lines`): ``def:`` clauses, never read (DOID 2019-03-01 line 20253 has a
    malformed xref list), and malformed ``xref:`` lines, no mapping either way (GO 2021-12-15 line
    195244 ``xref: EC 2.7.1.190``; each is logged with its line). Line numbers are kept.

    The ontology files of the CRAFT corpus (UBERON 2015-04-23, SO 2015-11-24, MOP 2014-09-03, CL)
    read with these rules; ``tests/unit/terminology/test_obo_craft.py`` asserts their counts.

    Checks beyond the syntax (pronto would accept each of these and give wrong tables without a
    word): a ``[Term]`` id declared twice (pronto keeps the last stanza and drops the first's
    name), a file without ``[Term]`` stanzas (every table empty), a term without ``name:``, and a
    cycle of ``is_a`` / ``part_of`` edges (a self-loop included; an ontology's hierarchy is a DAG),
    unless ``allow_cycles`` (config ``terminologies.<name>.allow_cycles``), which logs each cycle.

    Args:
        path: the OBO file; gzip is detected from the magic bytes, not the name.
        source: the source label written into every row (e.g. ``"hpo"``).
        id_prefixes: keep only terms with these id prefixes (``["MOP"]``); ``None`` keeps all.
        underscores_as_spaces: write every "_" of names and synonyms as a space (:func:`spaces_for_underscores`:
            the Sequence Ontology's names).
        exclude_synonym_types: leave out the synonyms of these synonym types (``synonymtypedef`` ids,
            ``["VAR"]``: the Sequence Ontology's variant-annotation tool labels); ``None`` keeps all.
            How many per type is logged; a listed type that no synonym has is warned about.
        allow_cycles: accept ``is_a`` / ``part_of`` cycles (logged with their ids) instead of failing.

    Returns:
        ``{"concepts", "terms", "relations", "associations", "mappings"}`` -> Arrow tables with the
        schemas ``CONCEPTS``, ``TERMS``, ``RELATIONS``, ``ASSOCIATIONS``, ``MAPPINGS``.

    Raises:
        SourceFormatError: the file is missing, empty, not valid gzip, not UTF-8 (line of the first
            bad byte), not OBO, syntactically malformed (line reported by fastobo), has an ``is_a``
            to an id that is not declared in the file (pronto needs a closed is_a graph), or a
            ``relationship`` whose type has no ``[Typedef]`` stanza (OBO 1.2 guide:
            "must use the relationship ID defined in [Typedef]"); a ``[Term]`` or ``[Typedef]`` id
            declared twice (the second stanza's line; the first's in the message); no ``[Term]``
            stanza; a term without a name (its ``id:`` line); an ``is_a`` / ``part_of`` cycle
            without ``allow_cycles`` (the line of its first edge; the ids on the cycle).
    """
    path = Path(path)
    text = _read_text(path)
    stanzas = _scan_stanzas(path, text)
    started = time.perf_counter()
    for match in _MALFORMED_XREF.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        log.warning(
            "%s:%d: malformed xref skipped (OBO 1.4: '<prefix>:<id>' [\"description\"]): %r", path, line, match.group(0)
        )
    for match in _SYNONYM_XREF_LIST.finditer(text):
        if not _WELL_FORMED_XREF_LIST.fullmatch(match.group(2)):
            line = text.count("\n", 0, match.start()) + 1
            log.warning("%s:%d: malformed synonym xref list emptied (never read): %r", path, line, match.group(0))
    parsed, renamed = resolve_relationship_names(blank_unread_lines(text))
    for name, (typedef_id, n) in sorted(renamed.items()):
        log.warning(
            "%s: %d relationship(s) of type %r (not a Typedef id) read as [Typedef] %s, the one Typedef so named",
            path,
            n,
            name,
            typedef_id,
        )
    if parsed == text:
        ontology = _load_ontology(path, text)
    else:
        # Blank lines keep every line number, so errors from the copy still point into ``path``.
        with tempfile.TemporaryDirectory(prefix="biosem-obo-") as tmp:
            copy = Path(tmp) / path.name.removesuffix(".gz")
            copy.write_text(parsed, encoding="utf-8")
            ontology = _load_ontology(path, parsed, parse_path=copy)
    log.info("%s: parsed by pronto in %.1f s", path, time.perf_counter() - started)
    _check_terms(ontology, path, stanzas)
    _check_cycles(path, stanzas, allow_cycles)
    tables = _ontology_tables(ontology, source, path, text, id_prefixes)
    if exclude_synonym_types is not None:
        tables["terms"], excluded = without_synonym_types(tables["terms"], exclude_synonym_types)
        log.info(
            "%s (%s): synonyms of excluded types left out: %s",
            path,
            source,
            ", ".join(f"{synonym_type}: {n}" for synonym_type, n in excluded.items()),
        )
        for synonym_type in (synonym_type for synonym_type, n in excluded.items() if not n):
            log.warning("%s (%s): no synonym has the excluded synonym type %r", path, source, synonym_type)
    if underscores_as_spaces:
        tables["terms"], changed = spaces_for_underscores(tables["terms"])
        log.info("%s (%s): underscores written as spaces in %d terms", path, source, changed)
    return tables


def without_synonym_types(terms: pa.Table, synonym_types: Sequence[str]) -> tuple[pa.Table, dict[str, int]]:
    """``terms`` without the synonyms whose type (column ``tty``) is one of ``synonym_types``, and how
    many were left out per type (in the order of ``synonym_types``; 0 for a type no synonym has).

    Names (``tty`` null) and synonyms without a type are always kept; the kept rows keep their order
    and their term_id. The Sequence Ontology records as synonyms of type ``VAR`` ("variant annotation
    term") the labels that variant-annotation programs print (SO 2015-11-24: 219, 218 of them with
    the program's name, ``"ANNOVAR:stopgain" EXACT VAR``, ``"snpEff:STOP_GAINED"``, ``"VEP:stop_gained"``):
    output codes of programs, not terms anyone writes, so a pair of one with the name is no synonym
    pair of the language.
    """
    drop = pc.is_in(terms.column("tty"), value_set=pa.array(list(synonym_types), pa.string()))  # null tty: False
    found = collections.Counter(terms.column("tty").filter(drop).to_pylist())
    return terms.filter(pc.invert(drop)), {synonym_type: found[synonym_type] for synonym_type in synonym_types}


def spaces_for_underscores(terms: pa.Table) -> tuple[pa.Table, int]:
    """``terms`` with every "_" of column ``term`` replaced by a space, and how many terms changed.

    The Sequence Ontology writes its names as identifiers, words joined by underscores
    (``five_prime_UTR``, ``gene_with_stop_codon_redefined_as_selenocysteine``; 2,111 of the 2,383
    names of SO 2015-11-24 and 342 synonyms), and the readable form again as an EXACT synonym
    (``five prime UTR``). Read as they are, name and synonym make a term pair that differs only
    in its separators, "hard" when the name has more than five of them. Written with spaces, the
    synonym equals the name and the pair is dropped as every case variant is (docs/design.md §
    termpairs); the spaced names are also what text contains (analogies, WiC).
    """
    column = terms.column("term")
    replaced = pc.replace_substring(column, "_", " ")
    changed = int(pc.sum(pc.not_equal(column, replaced)).as_py() or 0)
    return terms.set_column(terms.schema.get_field_index("term"), terms.schema.field("term"), replaced), changed


def resolve_relationship_names(text: str) -> tuple[str, dict[str, tuple[str, int]]]:
    """``text`` with each ``relationship:`` type that is no ``[Typedef]`` id but the ``name`` of
    exactly one Typedef replaced by that Typedef's id, and what was replaced.

    OBO 1.2 files converted from OWL name some relation types by label: MOP 2014-09-03 writes
    ``relationship: has_participant CHEBI:51870`` four times beside sixteen ``relationship:
    BFO:0000057 ...``, and declares only ``[Typedef] id: BFO:0000057 name: has_participant``. A
    type that names no Typedef, or several, is left as it is (:func:`read_obo` then stops at it).
    The line count is unchanged.

    Returns:
        ``(text, {name: (typedef id, lines rewritten)})``.
    """
    ids: set[str] = set()
    by_name: dict[str, set[str]] = collections.defaultdict(set)
    for stanza in _TYPEDEF_STANZA.finditer(text):
        body = stanza.group(1)
        found_id = re.search(r"^id:[ \t]*(\S+)", body, re.MULTILINE)
        found_name = re.search(r"^name:[ \t]*(.*?)[ \t]*$", body, re.MULTILINE)
        if found_id:
            ids.add(found_id.group(1))
            if found_name:
                by_name[found_name.group(1)].add(found_id.group(1))
    renamed: dict[str, tuple[str, int]] = {}

    def replace(match: re.Match[str]) -> str:
        rel = match.group(2)
        targets = by_name.get(rel, set())
        if rel in ids or len(targets) != 1:
            return match.group(0)
        (typedef_id,) = targets
        renamed[rel] = (typedef_id, renamed.get(rel, (typedef_id, 0))[1] + 1)
        return match.group(1) + typedef_id

    if not by_name:
        return text, renamed
    return _RELATIONSHIP_TYPE.sub(replace, text), renamed


def blank_unread_lines(text: str) -> str:
    """``text`` with its ``def:`` lines and its malformed ``xref:`` lines replaced by empty lines, and
    the malformed xref lists of its ``synonym:`` lines emptied (``[]``).

    biosem reads no definitions, and a malformed xref would give no mapping that means anything;
    fastobo, though, stops at a malformed definition xref list, at ``xref: EC 2.7.1.190`` and at
    ``xref: JA:Epilepsy Genetics Kiel`` (OBO 1.4: ``<prefix>:<id>``, then an optional quoted
    description). The line count is unchanged, so the line numbers of errors in the
    remaining clauses are those of the original file.
    """
    text = _MALFORMED_XREF.sub("", _DEFINITION.sub("", text))
    return _SYNONYM_XREF_LIST.sub(_empty_malformed_xref_list, text)


def _empty_malformed_xref_list(match: re.Match[str]) -> str:
    if _WELL_FORMED_XREF_LIST.fullmatch(match.group(2)):
        return match.group(0)
    return f"{match.group(1)}[]{match.group(3)}"


def split_xref(xref: str) -> tuple[str, str] | None:
    """Split an OBO xref id on its first ":" into (code_system, code); ``None`` if it has no code.

    ``"UMLS:C0000737"`` -> ``("UMLS", "C0000737")``; ``"ICD-10:Q87.1"`` -> ``("ICD-10", "Q87.1")``.
    Returns ``None`` for an xref without ":", with an empty prefix or code, or a URL
    (``"https://..."``), whose "prefix" would be the URL scheme.
    """
    if _URL_XREF.match(xref):
        return None
    prefix, sep, code = xref.partition(":")
    if not sep or not prefix or not code:
        return None
    return prefix, code


# --- stanza checks --------------------------------------------------------------------------------

HIERARCHY_RELATIONS = ("is_a", "part_of", "BFO:0000050")
"""Edges whose cycles :func:`read_obo` refuses: ``is_a`` and ``part_of`` (by name, or by its OBO
Relations Ontology id ``BFO:0000050``)."""
_TAG = re.compile(r"^([A-Za-z_-]+):\s*(.*)$")


@dataclass
class Stanzas:
    """What :func:`_scan_stanzas` found: the line of each ``[Term]`` id, and the ``is_a`` /
    ``part_of`` edges of the terms as ``(child, relation, parent, line)``."""

    term_lines: dict[str, int] = field(default_factory=dict)
    edges: list[tuple[str, str, str, int]] = field(default_factory=list)


def _scan_stanzas(path: Path, text: str) -> Stanzas:
    """Index the stanzas of ``text`` by line (for the checks pronto does not make).

    Raises:
        SourceFormatError: a ``[Term]`` (or ``[Typedef]``) id declared a second time.
    """
    found = Stanzas()
    seen: dict[str, dict[str, int]] = collections.defaultdict(dict)
    kind, current = "", ""
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if line.startswith("["):
            kind, current = line, ""
            continue
        match = _TAG.match(line)
        if match is None or kind not in ("[Term]", "[Typedef]"):
            continue
        tag, value = match.group(1), _first_token(match.group(2))
        if tag == "id" and not current:
            current = value
            first = seen[kind].get(value)
            if first is not None:
                raise SourceFormatError(
                    path, number, f"each {kind} id once ({value} is declared at line {first} already)", raw
                )
            seen[kind][value] = number
            if kind == "[Term]":
                found.term_lines[value] = number
        elif kind == "[Term]" and current and tag == "is_a":
            found.edges.append((current, "is_a", value, number))
        elif kind == "[Term]" and current and tag == "relationship":
            relation, _, target = match.group(2).partition(" ")
            if relation in HIERARCHY_RELATIONS:
                found.edges.append((current, relation, _first_token(target), number))
    return found


def _first_token(value: str) -> str:
    """A tag's value without its trailing qualifiers (``{...}``) and comment (``! ...``)."""
    return re.split(r"[\s!{]", value.strip(), maxsplit=1)[0]


def _check_terms(ontology: pronto.Ontology, path: Path, stanzas: Stanzas) -> None:
    """Refuse a file without terms, and a term without a name (naming its ``id:`` line)."""
    if not stanzas.term_lines:
        typedefs = len(list(ontology.relationships()))
        raise SourceFormatError(path, None, "at least one [Term] stanza", f"none ({typedefs} [Typedef] stanzas)")
    for term in sorted(ontology.terms(), key=lambda t: stanzas.term_lines.get(t.id, 0)):
        if not term.name:
            line = stanzas.term_lines.get(term.id)
            raise SourceFormatError(path, line, f"a 'name:' in [Term] {term.id}", "a term without a name")


def _check_cycles(path: Path, stanzas: Stanzas, allow: bool) -> None:
    """Refuse (or, with ``allow``, log) cycles of the terms' ``is_a`` / ``part_of`` edges."""
    graph: dict[str, set[str]] = collections.defaultdict(set)
    first_edge: dict[tuple[str, str], tuple[str, int]] = {}
    for child, relation, parent, line in stanzas.edges:
        graph[child].add(parent)
        first_edge.setdefault((child, parent), (relation, line))
    cycles = []
    while True:
        try:
            graphlib.TopologicalSorter(graph).prepare()
            break
        except graphlib.CycleError as err:
            cycle = list(err.args[1])  # [a, b, ..., a]: each node is a predecessor of the next one
            cycle.reverse()  # child first: a is_a b is_a ... a
            cycles.append(cycle)
            if not allow:
                break
            graph[cycle[0]].discard(cycle[1])  # break it and look for another
    if not cycles:
        return
    described = []
    for cycle in cycles:
        steps = [cycle[0]]
        for child, parent in zip(cycle, cycle[1:]):
            steps += [first_edge[(child, parent)][0], parent]
        described.append((" ".join(steps), min(first_edge[(c, p)][1] for c, p in zip(cycle, cycle[1:]))))
    if not allow:
        text, line = described[0]
        raise SourceFormatError(
            path,
            line,
            "no is_a / part_of cycle (set terminologies.<name>.allow_cycles: true to accept them)",
            f"the cycle {text}",
        )
    for text, line in described:
        log.warning("%s:%d: is_a / part_of cycle accepted (allow_cycles): %s", path, line, text)
    log.warning("%s: %d is_a / part_of cycle(s) accepted (allow_cycles)", path, len(described))


# --- reading and parsing --------------------------------------------------------------------------


def _read_text(path: Path) -> str:
    """Return the decoded text of ``path`` (gunzipped if gzip), checking it is non-empty UTF-8."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError) as err:
        raise SourceFormatError(path, None, "an OBO file", f"{type(err).__name__}: {err}") from err
    if data.startswith(_GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as err:
            raise SourceFormatError(path, None, "a complete gzip stream", str(err)) from err
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        start = data.rfind(b"\n", 0, err.start) + 1
        end = data.find(b"\n", err.start)
        excerpt = data[start : end if end >= 0 else len(data)]
        raise SourceFormatError(path, line, "UTF-8 text", f"byte {data[err.start]:#04x} in {excerpt!r}") from err
    if not text.strip():
        raise SourceFormatError(path, None, "an OBO document", "an empty file")
    if not _looks_like_obo(text):
        line, found = _first_content_line(text)
        raise SourceFormatError(path, line, "an OBO header ('format-version: ...') or a [Term]/[Typedef] stanza", found)
    return text


def _looks_like_obo(text: str) -> bool:
    """Apply pronto's own test for OBO (``OboParser.can_parse``), so pronto picks its OBO parser."""
    return text.lstrip("\ufeff").lstrip().startswith(("format-version:", "[Term", "[Typedef"))


def _first_content_line(text: str) -> tuple[int, str]:
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            return number, line
    return 1, ""


def _load_ontology(path: Path, text: str, parse_path: Path | None = None) -> pronto.Ontology:
    """Parse ``parse_path`` (default ``path``) with pronto, counting its warnings and mapping its errors
    to ours; errors name ``path``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            # A path (not a handle) so that pronto honours ``encoding`` and does not guess it with
            # chardet; one thread keeps parsing deterministic; imports are never fetched.
            ontology = pronto.Ontology(parse_path or path, import_depth=0, threads=1, encoding="utf-8")
        except SyntaxError as err:
            raise SourceFormatError(
                path, _syntax_error_line(err), f"OBO 1.4 syntax ({err.msg})", err.text or ""
            ) from err
        except KeyError as err:
            # pronto.parsers.base.symmetrize_lineage: an is_a target that no stanza declares.
            missing = str(err.args[0]) if err.args else ""
            line, found = _find_line(text, r"is_a:\s*([^\s!{]+)", lambda match: match.group(1) == missing)
            raise SourceFormatError(
                path, line, f"an is_a target declared in the file ({missing} is not)", found
            ) from err
        except (ValueError, OSError) as err:
            raise SourceFormatError(path, None, "a well-formed OBO 1.4 document", str(err)) from err
    if caught:
        by_category = collections.Counter(w.category.__name__ for w in caught)
        log.warning(
            "%s: %d pronto warnings silenced (%s); first: %s",
            path,
            len(caught),
            ", ".join(f"{name}: {n}" for name, n in sorted(by_category.items())),
            caught[0].message,
        )
    return ontology


def _syntax_error_line(err: SyntaxError) -> int | None:
    """The 1-based line of a fastobo syntax error: ``err.lineno`` or ``"<line>:<col>"`` in it."""
    if err.lineno:
        return err.lineno
    match = _LINE_COLUMN.search(str(err))
    return int(match.group(1)) if match else None


def _find_line(text: str, pattern: str, accept: Callable[[re.Match[str]], bool]) -> tuple[int | None, str]:
    """The first line (1-based) of ``text`` that starts with ``pattern`` and is accepted, and it."""
    regex = re.compile(pattern)
    for number, line in enumerate(text.split("\n"), start=1):
        match = regex.match(line)
        if match and accept(match):
            return number, line
    return None, ""


# --- ontology -> tables ---------------------------------------------------------------------------


def _ontology_tables(
    ontology: pronto.Ontology, source: str, path: Path, text: str, id_prefixes: Sequence[str] | None = None
) -> dict[str, pa.Table]:
    """Build the five tables from a parsed ontology (see :func:`read_obo`)."""
    default_namespace = ontology.metadata.default_namespace
    typedefs = sorted(ontology.relationships(), key=lambda rel: rel.id)
    terms = sorted(ontology.terms(), key=lambda term: term.id)
    dropped: collections.Counter[str] = collections.Counter()
    if id_prefixes is not None:
        wanted = set(id_prefixes)
        dropped.update(term.id.partition(":")[0] for term in terms if term.id.partition(":")[0] not in wanted)
        terms = [term for term in terms if term.id.partition(":")[0] in wanted]
    term_ids = {term.id for term in terms}

    concept_rows: list[dict[str, object]] = []
    term_rows: list[dict[str, object]] = []
    relation_rows: list[dict[str, object]] = []
    association_rows: list[dict[str, object]] = []
    mappings: set[tuple[str, str, str]] = set()
    counts: collections.Counter[str] = collections.Counter()

    for term in terms:
        active = not term.obsolete
        counts["obsolete"] += not active
        concept_rows.append(
            {
                "source": source,
                "concept_id": term.id,
                "active": active,
                "module": term.namespace or default_namespace,
            }
        )
        term_rows.extend(_term_rows(term, source, active, counts))
        relation_rows.extend(_relation_rows(term, source, typedefs, term_ids, path, text, counts))
        association_rows.extend(_association_rows(term, source, term_ids, counts))
        for xref in term.xrefs:
            counts["xrefs"] += 1
            split = split_xref(xref.id)
            if split is None:
                counts["xrefs skipped (no 'prefix:code')"] += 1
            else:
                mappings.add((term.id, *split))
        for alt_id in sorted(term.alternate_ids):
            counts["alt_ids"] += 1
            counts["alt_ids that are term ids too"] += alt_id in term_ids
            mappings.add((term.id, ALT_ID_CODE_SYSTEM, alt_id))

    mapping_rows = [
        {"source": source, "concept_id": concept_id, "code_system": system, "code": code}
        for concept_id, system, code in mappings
    ]
    tables = {
        "concepts": _table(concept_rows, CONCEPTS),
        "terms": _table(term_rows, TERMS),
        "relations": _table(relation_rows, RELATIONS),
        "associations": _table(association_rows, ASSOCIATIONS),
        "mappings": _table(mapping_rows, MAPPINGS),
    }
    counts["terms"] = len(terms)
    counts["mappings"] = len(mapping_rows)
    for prefix, n in dropped.items():
        counts[f"terms outside id_prefixes (dropped): {prefix}"] = n
    log.info(
        "%s (%s): %s",
        path,
        source,
        ", ".join(f"{key}: {value}" for key, value in sorted(counts.items())),
    )
    return tables


def _term_rows(
    term: pronto.Term, source: str, active: bool, counts: collections.Counter[str]
) -> Iterable[dict[str, object]]:
    common = {
        "source": source,
        "concept_id": term.id,
        "language": "en",
        "active": active,
        "acceptability": None,
        "sab": None,
        "tty": None,
    }
    if term.name:
        yield {
            **common,
            "term_id": f"{term.id}#name",
            "term": term.name,
            "term_type": "preferred",
            "scope": None,
        }
    else:
        counts["terms without a name"] += 1
    # pronto keeps one synonym per (text, scope); sorting makes the #syn<k> ids reproducible.
    types: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    for syn in term.synonyms:
        kinds = types[(syn.scope or "", syn.description)]
        if syn.type is not None:
            kinds.add(syn.type.id)
    for k, (scope, description) in enumerate(sorted(types)):
        counts[f"synonyms {scope or 'without scope'}"] += 1
        synonym_type = min(types[(scope, description)], default=None)
        if synonym_type is not None:
            counts[f"synonym type {synonym_type}"] += 1
        yield {
            **common,
            "term_id": f"{term.id}#syn{k}",
            "term": description,
            "term_type": "synonym",
            "scope": scope or None,
            "tty": synonym_type,
        }


def _relation_rows(
    term: pronto.Term,
    source: str,
    typedefs: list[pronto.Relationship],
    term_ids: set[str],
    path: Path,
    text: str,
    counts: collections.Counter[str],
) -> Iterable[dict[str, object]]:
    for parent in term.superclasses(distance=1, with_self=False):
        counts["is_a edges"] += 1
        yield {
            "source": source,
            "subject_id": term.id,
            "rel": "is_a",
            "rela": "is_a",
            "object_id": parent.id,
            "sab": None,
        }
    declared = 0
    if len(term.relationships):
        for typedef in typedefs:
            targets = term.relationships.get(typedef)
            if targets is None:
                continue
            declared += 1
            for target_id in sorted(targets.ids):
                counts[f"relationships {typedef.id}"] += 1
                counts["relationship targets outside the file"] += target_id not in term_ids
                yield {
                    "source": source,
                    "subject_id": term.id,
                    "rel": typedef.id,
                    "rela": typedef.name or typedef.id,
                    "object_id": target_id,
                    "sab": None,
                }
    if declared != len(term.relationships):
        known = {typedef.id for typedef in typedefs}
        line, found = _find_line(text, r"relationship:\s*(\S+)", lambda match: match.group(1) not in known)
        raise SourceFormatError(path, line, f"a relationship type declared in a [Typedef] stanza (in {term.id})", found)


def _association_rows(
    term: pronto.Term, source: str, term_ids: set[str], counts: collections.Counter[str]
) -> Iterable[dict[str, object]]:
    for tag, kind in ASSOCIATION_KIND_OF_TAG.items():
        targets: pronto.TermSet = getattr(term, tag)
        if not targets.ids:
            continue
        if not term.obsolete:
            counts[f"{tag} on active terms (ignored)"] += len(targets.ids)
            continue
        for target_id in sorted(targets.ids):
            if target_id in term_ids:
                counts[f"associations {kind}"] += 1
                yield {
                    "source": source,
                    "inactive_id": term.id,
                    "target_id": target_id,
                    "kind": kind,
                }
            else:
                counts[f"{tag} targets outside the file (dropped)"] += 1


def _table(rows: Sequence[Mapping[str, object]], spec: TableSpec) -> pa.Table:
    """Rows -> Arrow table of ``spec`` (built nullable, then checked and sorted by ``to_arrow``)."""
    loose = pa.schema([field.with_nullable(True) for field in spec.schema])
    return to_arrow(pa.Table.from_pylist(rows, schema=loose), spec)
