"""Strict readers of CRAFT's two Knowtator XML dialects (lxml), checked against the document text.

Both dialects give, per annotation, an id, one ontology class and one or more spans of character
offsets into the article's ``.txt`` (Python ``str`` indices: Unicode code points, end exclusive; CRAFT
README and ``concept-annotation/README.md``). Several spans make a *discontinuous* mention
("agenesis of ... corpus callosum").

**Knowtator XML** (Knowtator 1 export; CRAFT v5 CHEBI, CL, GO_BP, GO_CC, GO_MF, MOP, NCBITaxon, PR,
SO, UBERON: ``<PMID>.txt.knowtator.xml``)::

    <annotations textSource="11319941.txt">
      <annotation>
        <mention id="GO_BP_..._Instance_53537" />
        <annotator id="...">Mike Bada, ...</annotator>            (optional)
        <span start="23270" end="23284" />                       (one or more)
        <span start="23295" end="23304" />
        <spannedText>development of ... forebrain</spannedText>  (span texts joined by " ... ")
      </annotation>
      ...
      <classMention id="GO_BP_..._Instance_53537">              (id = the annotation's mention id)
        <mentionClass id="GO:0030900">forebrain development</mentionClass>
        <hasSlotMention id="..." />                              (optional; slots are not read)
      </classMention>
      <complexSlotMention id="...">...</complexSlotMention>      (not read)
    </annotations>

**Knowtator-2 XML** (Knowtator 2 project files; CRAFT v5 MONDO: ``<PMID>.xml``)::

    <knowtator-project>
      <document id="11319941" text-file="11319941.txt">
        <annotation annotator="Default" id="11319941-106" motivation="" type="identity">
          <class id="http://purl.obolibrary.org/obo/MONDO_0009022" label="..." />
          <span end="22265" id="11319941-107" start="22254">agenesis of</span>
          <span end="22285" id="11319941-108" start="22270">corpus callosum</span>
        </annotation>
      </document>
    </knowtator-project>

Class ids are returned as CURIEs: Knowtator XML's ``mentionClass/@id`` as written (``GO:0030900``,
``CL_GO_EXT:cell``, ``NCBITaxon:10090``); Knowtator-2's OBO PURLs ``http://purl.obolibrary.org/obo/
MONDO_0009022`` as ``MONDO:0009022``.

Two quirks of the real files are accepted and reported: an annotation without any ``<span>`` (CRAFT
v5.0.2 has one, in GO_BP+extensions 17696610) is returned with ``spans == ()``, and an empty span
(``start == end``; one in MONDO 16579849, beside the annotation's real span) is returned as it is; the
caller drops and counts them. Everything else that deviates stops the reader with a
:class:`~biosem.errors.SourceFormatError` naming the file, the XML line and the annotation id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from biosem.errors import SourceFormatError

KNOWTATOR = "knowtator"
"""Knowtator XML (``<annotations>``; spans plus ``spannedText``; classes in ``classMention``)."""
KNOWTATOR_2 = "knowtator-2"
"""Knowtator-2 XML (``<knowtator-project>``; the class and the spans inside each annotation)."""
DIALECTS = (KNOWTATOR, KNOWTATOR_2)

DISCONTINUOUS_SEPARATOR = " ... "
"""How Knowtator's ``spannedText`` joins the texts of a discontinuous mention's spans."""
OBO_PURL = "http://purl.obolibrary.org/obo/"

_OFFSET = re.compile(r"[0-9]+")
_CURIE = re.compile(r"[A-Za-z][A-Za-z0-9_]*:[^\s:]+")
_OBO_PURL = re.compile(re.escape(OBO_PURL) + r"([A-Za-z][A-Za-z0-9]*)_([A-Za-z0-9_]+)")
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)


@dataclass(frozen=True)
class Annotation:
    """One concept annotation of one document.

    Attributes:
        annotation_id: Knowtator's ``mention/@id`` (Knowtator XML) or ``annotation/@id`` (Knowtator-2).
        class_id: the ontology class as a CURIE (``GO:0030900``, ``CL_GO_EXT:cell``, ``MONDO:0009022``).
        spans: ``(start, end)`` character offsets into the document text, end exclusive, in file order
            (an empty span has ``start == end``); ``()`` for an annotation without a span.
        line: the XML line of the annotation (for messages).
    """

    annotation_id: str
    class_id: str
    spans: tuple[tuple[int, int], ...]
    line: int | None

    @property
    def extension_class(self) -> bool:
        """True for a CRAFT extension class (prefix ending ``_EXT``: ``GO_EXT:…``, ``CL_GO_EXT:cell``)."""
        return self.class_id.partition(":")[0].endswith("_EXT")


def _parse(data: bytes, path: Path, dialect: str) -> etree._Element:
    try:
        return etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as err:
        raise SourceFormatError(path, err.lineno, f"well-formed {dialect} XML", str(err)) from None


def _span(path: Path, element: etree._Element, aid: str, text: str) -> tuple[int, int]:
    """``(start, end)`` of a ``<span>``, checked: integers with ``0 <= start <= end <= len(text)`` (an
    empty span is returned; the caller drops it)."""
    start, end = element.get("start", ""), element.get("end", "")
    if not (_OFFSET.fullmatch(start) and _OFFSET.fullmatch(end)):
        raise SourceFormatError(
            path, element.sourceline, f"annotation {aid}: a span with integer start and end", f"{start!r}-{end!r}"
        )
    s, e = int(start), int(end)
    if not s <= e <= len(text):
        raise SourceFormatError(
            path,
            element.sourceline,
            f"annotation {aid}: a span within the document text (0 <= start <= end <= {len(text)})",
            f"{s}-{e}",
        )
    return s, e


def _check_document(path: Path, element: etree._Element, expected: str, found: str | None) -> None:
    if found != expected:
        raise SourceFormatError(path, element.sourceline, f"annotations of document {expected}", str(found))


def read_knowtator(data: bytes, path: str | Path, document_id: str, text: str) -> list[Annotation]:
    """The annotations of one Knowtator XML file (format: module docstring), in file order.

    Args:
        data: the file's bytes (XML, UTF-8 as declared).
        path: where the file is, for messages (a member of the CRAFT tarball:
            ``<archive>/CRAFT-5.0.2/concept-annotation/GO_BP/GO_BP/knowtator/11319941.txt.knowtator.xml``).
        document_id: the PMID the file must annotate (``textSource`` ``"<PMID>.txt"``).
        text: the document text the offsets index.

    Returns:
        :class:`Annotation` per ``<annotation>``; one without ``<span>`` has ``spans == ()``.

    Raises:
        SourceFormatError: malformed XML (with the parser's line); a root that is not
            ``<annotations textSource="<PMID>.txt">``; an annotation without ``mention/@id`` or whose id
            repeats; a span that is not integers or lies outside the text (``0 <= start <= end <=
            len(text)``; an empty span is returned); spans without ``spannedText``, or a ``spannedText``
            that is not the text at the offsets (the span texts joined by ``" ... "``); an annotation
            without exactly one
            ``classMention`` holding one ``mentionClass`` whose id is a CURIE. Each names the file, the
            line and the annotation id.
    """
    path = Path(path)
    root = _parse(data, path, "Knowtator")
    if root.tag != "annotations":
        raise SourceFormatError(path, root.sourceline, "a Knowtator XML root <annotations>", f"<{root.tag}>")
    _check_document(path, root, f"{document_id}.txt", root.get("textSource"))
    classes: dict[str, str] = {}
    for element in root.iterchildren("classMention"):
        cid = element.get("id", "")
        found = element.findall("mentionClass")
        value = found[0].get("id", "") if len(found) == 1 else ""
        if cid in classes or len(found) != 1 or not _CURIE.fullmatch(value):
            raise SourceFormatError(
                path,
                element.sourceline,
                f"annotation {cid}: one classMention with one mentionClass whose id is a CURIE (PREFIX:local)",
                f"{len(found)} mentionClass elements, id {value!r}" if cid not in classes else "a second classMention",
            )
        classes[cid] = value
    out: list[Annotation] = []
    seen: set[str] = set()
    for element in root.iterchildren("annotation"):
        mention = element.find("mention")
        aid = mention.get("id", "") if mention is not None else ""
        if not aid or aid in seen:
            raise SourceFormatError(
                path,
                element.sourceline,
                "an annotation with a <mention id> of its own",
                repr(aid) if aid else "no mention id",
            )
        seen.add(aid)
        spans = tuple(_span(path, s, aid, text) for s in element.iterchildren("span"))
        if aid not in classes:
            raise SourceFormatError(path, element.sourceline, f"annotation {aid}: a classMention with its id", "none")
        if spans:
            spanned = element.find("spannedText")
            expected = DISCONTINUOUS_SEPARATOR.join(text[s:e] for s, e in spans)
            if spanned is None or (spanned.text or "") != expected:
                raise SourceFormatError(
                    path,
                    element.sourceline if spanned is None else spanned.sourceline,
                    f"annotation {aid}: spannedText == the text at its spans {list(spans)} = {expected!r}",
                    "no spannedText" if spanned is None else (spanned.text or ""),
                )
        out.append(Annotation(aid, classes[aid], spans, element.sourceline))
    return out


def obo_curie(iri: str) -> str | None:
    """``http://purl.obolibrary.org/obo/MONDO_0009022`` -> ``MONDO:0009022``; None for any other IRI."""
    match = _OBO_PURL.fullmatch(iri)
    return f"{match.group(1)}:{match.group(2)}" if match else None


def read_knowtator2(data: bytes, path: str | Path, document_id: str, text: str) -> list[Annotation]:
    """The annotations of one Knowtator-2 XML file (format: module docstring), in file order.

    Args: as :func:`read_knowtator`; the file must hold one ``<document id="<PMID>">``.

    Returns:
        :class:`Annotation` per ``<annotation>`` (class ids as CURIEs, :func:`obo_curie`).

    Raises:
        SourceFormatError: malformed XML; a root that is not ``<knowtator-project>`` with one
            ``<document id="<PMID>">``; an annotation without an id or whose id repeats; not exactly one
            ``<class>`` whose id is an OBO PURL; a span that is not integers, lies outside the text, or
            whose element text is not the text at its offsets. Each names file, line and annotation id.
    """
    path = Path(path)
    root = _parse(data, path, "Knowtator-2")
    if root.tag != "knowtator-project":
        raise SourceFormatError(path, root.sourceline, "a Knowtator-2 XML root <knowtator-project>", f"<{root.tag}>")
    documents = root.findall("document")
    if len(documents) != 1:
        raise SourceFormatError(path, root.sourceline, "one <document>", f"{len(documents)} documents")
    document = documents[0]
    _check_document(path, document, document_id, document.get("id"))
    out: list[Annotation] = []
    seen: set[str] = set()
    for element in document.iterchildren("annotation"):
        aid = element.get("id", "")
        if not aid or aid in seen:
            raise SourceFormatError(
                path, element.sourceline, "an annotation with an id of its own", repr(aid) if aid else "no id"
            )
        seen.add(aid)
        classes = element.findall("class")
        curie = obo_curie(classes[0].get("id", "")) if len(classes) == 1 else None
        if curie is None:
            raise SourceFormatError(
                path,
                element.sourceline,
                f"annotation {aid}: one <class> whose id is an OBO PURL ({OBO_PURL}PREFIX_local)",
                ", ".join(c.get("id", "") for c in classes) or "no class",
            )
        spans = []
        for span in element.iterchildren("span"):
            s, e = _span(path, span, aid, text)
            if (span.text or "") != text[s:e]:
                raise SourceFormatError(
                    path,
                    span.sourceline,
                    f"annotation {aid}: span text == the text at {s}-{e} = {text[s:e]!r}",
                    span.text or "",
                )
            spans.append((s, e))
        out.append(Annotation(aid, curie, tuple(spans), element.sourceline))
    return out


READERS = {KNOWTATOR: read_knowtator, KNOWTATOR_2: read_knowtator2}
"""The reader of each dialect."""
