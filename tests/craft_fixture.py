"""A tiny hand-written CRAFT release tarball (the v5.0.2 layout, three modules, two articles).

Article 1001 (train) has a title, section headings on lines of their own and a paragraph: a GO_BP
mention, a NCBITaxon mention with a period ("E. coli"), a MONDO mention in the title and a
discontinuous MONDO mention ("agenesis of ... corpus callosum", Knowtator-2) in the paragraph. Article
1002 (dev) has GO_BP mentions only (its MONDO and NCBITaxon files hold none). The ``+extensions`` sets
add an extension class to GO_BP and to NCBITaxon. :func:`write_craft` writes it, with members replaced
or removed (the bad-input tests), as ``CRAFT-5.0.2.tar.gz``.
"""

from __future__ import annotations

import io
import tarfile
from collections.abc import Mapping, Sequence
from pathlib import Path

TOP = "CRAFT-5.0.2"
TEXTS = {
    "1001": (
        "Agenesis of the corpus callosum in mice\n\nAbstract\n\n"
        "We studied agenesis of the corpus callosum in mice. Gene expression was low in E. coli cultures.\n"
    ),
    "1002": "Cell death in the retina\n\nApoptosis of retinal cells was observed.\n",
}
SPLITS = {"train": ["1001"], "dev": ["1002"], "test": []}
PMCIDS = {"1001": "PMC1001", "1002": "PMC1002"}

Ann = tuple[str, str, str, Sequence[tuple[int, int]]]
"""(annotation id, class id, label, spans)."""


def span_of(pmid: str, phrase: str, occurrence: int = 1) -> tuple[int, int]:
    """The offsets of the ``occurrence``-th ``phrase`` in article ``pmid``."""
    start = -1
    for _ in range(occurrence):
        start = TEXTS[pmid].index(phrase, start + 1)
    return start, start + len(phrase)


def knowtator_xml(pmid: str, annotations: Sequence[Ann], spanned: Mapping[str, str] | None = None) -> str:
    """A Knowtator XML file; ``spanned`` overrides the spannedText of annotation ids."""
    text = TEXTS[pmid]
    parts = [f'<?xml version="1.0" encoding="UTF-8"?>\n<annotations textSource="{pmid}.txt">']
    for aid, _, _, spans in annotations:
        parts.append(f'  <annotation>\n    <mention id="{aid}" />\n    <annotator id="A">Annotator</annotator>')
        parts += [f'    <span start="{s}" end="{e}" />' for s, e in spans]
        value = (spanned or {}).get(aid, " ... ".join(text[s:e] for s, e in spans))
        parts.append(f"    <spannedText>{value}</spannedText>\n  </annotation>")
    for aid, cid, label, _ in annotations:
        parts.append(
            f'  <classMention id="{aid}">\n    <mentionClass id="{cid}">{label}</mentionClass>\n  </classMention>'
        )
    parts.append("</annotations>\n")
    return "\n".join(parts)


def knowtator2_xml(pmid: str, annotations: Sequence[Ann]) -> str:
    """A Knowtator-2 XML file (class ids given as CURIEs, written as OBO PURLs)."""
    text = TEXTS[pmid]
    parts = [
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<knowtator-project>',
        f'    <document id="{pmid}" text-file="{pmid}.txt">',
    ]
    for aid, cid, label, spans in annotations:
        iri = "http://purl.obolibrary.org/obo/" + cid.replace(":", "_")
        parts.append(f'        <annotation annotator="Default" id="{aid}" motivation="" type="identity">')
        parts.append(f'            <class id="{iri}" label="{label}"/>')
        parts += [f'            <span end="{e}" id="{aid}-{s}" start="{s}">{text[s:e]}</span>' for s, e in spans]
        parts.append("        </annotation>")
    parts.append("    </document>\n</knowtator-project>\n")
    return "\n".join(parts)


def notice(pmid: str) -> str:
    return (
        f"J Test. 2001; 2: 5.\nPubMed ID: {pmid}\n\nA Author\nB Author\n\nA University\n\n"
        f"http://www.ncbi.nlm.nih.gov/pmc/articles/{PMCIDS[pmid]}\n\n"
        "Copyright © 2001 Author and Author. This is an Open Access article: verbatim copying and redistribution "
        "of this article are permitted in all media for any purpose, provided this notice is preserved along with "
        "the article's original URL.\n\n"
    )


GO_BP = {
    "1001": [("GO_BP_1", "GO:0010467", "gene expression", [span_of("1001", "Gene expression")])],
    "1002": [
        ("GO_BP_2", "GO:0008219", "cell death", [span_of("1002", "Cell death")]),
        ("GO_BP_3", "GO:0006915", "apoptotic process", [span_of("1002", "Apoptosis")]),
    ],
}
GO_BP_EXTENSIONS = {
    "1001": GO_BP["1001"],
    "1002": [*GO_BP["1002"], ("GO_BP_4", "GO_EXT:observation", "observation", [span_of("1002", "observed")])],
}
NCBITAXON = {"1001": [("Taxon_1", "NCBITaxon:562", "Escherichia coli", [span_of("1001", "E. coli")])], "1002": []}
NCBITAXON_EXTENSIONS = {
    "1001": [
        *NCBITAXON["1001"],
        ("Taxon_2", "NCBITaxon_EXT:mouse", "mouse", [span_of("1001", "mice")]),
        ("Taxon_3", "NCBITaxon_EXT:mouse", "mouse", [span_of("1001", "mice", 2)]),
    ],
    "1002": [],
}
MONDO = {
    "1001": [
        (
            "1001-1",
            "MONDO:0009022",
            "corpus callosum, agenesis of",
            [span_of("1001", "Agenesis of the corpus callosum")],
        ),
        (
            "1001-2",
            "MONDO:0009022",
            "corpus callosum, agenesis of",
            [span_of("1001", "agenesis of"), span_of("1001", "corpus callosum", 2)],
        ),
    ],
    "1002": [],
}
MODULES = ("GO_BP", "MONDO", "NCBITaxon")


def members() -> dict[str, str]:
    """Every member of the tiny tarball (paths inside the top folder) and its text."""
    out = {f"articles/ids/craft-ids-{s}.txt": "".join(f"{p}\n" for p in pmids) for s, pmids in SPLITS.items()}
    out["articles/ids/craft-idmappings.txt"] = "#Format: [FILE NAME] <tab> [PMCID] <tab> [PMID]\n" + "".join(
        f"J Test-{p}.nxml\t{pmc}\t{p}\n" for p, pmc in PMCIDS.items()
    )
    out["concept-annotation/README.md"] = "# Concept Annotations\n"
    for pmid, text in TEXTS.items():
        out[f"articles/txt/{pmid}.txt"] = text
        out[f"articles/txt/{pmid}.copyright"] = notice(pmid)
        for folder, anns in (
            ("GO_BP/GO_BP", GO_BP),
            ("GO_BP/GO_BP+extensions", GO_BP_EXTENSIONS),
            ("NCBITaxon/NCBITaxon", NCBITAXON),
            ("NCBITaxon/NCBITaxon+extensions", NCBITAXON_EXTENSIONS),
        ):
            out[f"concept-annotation/{folder}/knowtator/{pmid}.txt.knowtator.xml"] = knowtator_xml(pmid, anns[pmid])
        mondo = f"concept-annotation/MONDO/MONDO_without_genotype_annotations/knowtator-2/{pmid}.xml"
        out[mondo] = knowtator2_xml(pmid, MONDO[pmid])
    out["concept-annotation/GO_BP/GO_BP/GO_BP_stub.obo.zip"] = "not read"
    return out


def write_craft(folder: Path, replace: Mapping[str, str | bytes | None] | None = None) -> Path:
    """Write the tarball (``folder/CRAFT-5.0.2.tar.gz``): :func:`members`, with ``replace`` applied (a
    member's new text or bytes; ``None`` removes it; a new path adds it). Members are in sorted order."""
    files = dict(members())
    for name, value in (replace or {}).items():
        if value is None:
            files.pop(name, None)
        else:
            files[name] = value
    path = folder / f"{TOP}.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for name in sorted(files):
            data = files[name] if isinstance(files[name], bytes) else files[name].encode("utf-8")
            info = tarfile.TarInfo(f"{TOP}/{name}")
            info.size = len(data)
            info.mtime = 0
            tar.addfile(info, io.BytesIO(data))
    return path
