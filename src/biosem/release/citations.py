"""BibTeX of the papers biosem's datasets follow or build on, and of the sources they derive from.

Paper entries are written out here once (the fields checked against the publishers' pages; a field
not checked is left out rather than guessed). A source's entry is made from its
``sources.<name>.attribution`` in the config (:func:`source_bibtex`): title, creator, version, URL and
the citation its publisher asks for, as given there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from biosem.release.licence import Attribution

PAPERS: dict[str, str] = {
    "schulz2020": (
        "@inproceedings{schulz2020,\n"
        "  title = {Can Embeddings Adequately Represent Medical Terminology? New Large-Scale Medical "
        "Term Similarity Datasets Have the Answer!},\n"
        "  author = {Schulz, Claudia and Juric, Damir},\n"
        "  booktitle = {Proceedings of the AAAI Conference on Artificial Intelligence},\n"
        "  volume = {34},\n"
        "  number = {05},\n"
        "  pages = {8775--8782},\n"
        "  year = {2020},\n"
        "  doi = {10.1609/aaai.v34i05.6404}\n"
        "}"
    ),
    "newmangriffis2017": (
        "@inproceedings{newmangriffis2017,\n"
        "  title = {Insights into Analogy Completion from the Biomedical Domain},\n"
        "  author = {Newman-Griffis, Denis and Lai, Albert M. and Fosler-Lussier, Eric},\n"
        "  booktitle = {BioNLP 2017},\n"
        "  pages = {19--28},\n"
        "  year = {2017}\n"
        "}"
    ),
    "rouhizadeh2024": (
        "@article{rouhizadeh2024,\n"
        "  title = {A Dataset for Evaluating Contextualized Representation of Biomedical Concepts in "
        "Language Models},\n"
        "  author = {Rouhizadeh, Hossein and Nikishina, Irina and Yazdani, Anthony and Bornet, Alban and "
        "Zhang, Boya and Ehrsam, Julien and Gaudet-Blavignac, Christophe and Naderi, Nona and Teodoro, "
        "Douglas},\n"
        "  journal = {Scientific Data},\n"
        "  volume = {11},\n"
        "  pages = {455},\n"
        "  year = {2024},\n"
        "  doi = {10.1038/s41597-024-03317-w}\n"
        "}"
    ),
    "chiu2018": (
        "@article{chiu2018,\n"
        "  title = {Bio-SimVerb and Bio-SimLex: wide-coverage evaluation sets of word similarity in "
        "biomedicine},\n"
        "  author = {Chiu, Billy and Pyysalo, Sampo and Vuli{\\'c}, Ivan and Korhonen, Anna},\n"
        "  journal = {BMC Bioinformatics},\n"
        "  volume = {19},\n"
        "  pages = {33},\n"
        "  year = {2018},\n"
        "  doi = {10.1186/s12859-018-2039-z}\n"
        "}"
    ),
    "hill2015": (
        "@article{hill2015,\n"
        "  title = {{SimLex-999}: Evaluating Semantic Models With (Genuine) Similarity Estimation},\n"
        "  author = {Hill, Felix and Reichart, Roi and Korhonen, Anna},\n"
        "  journal = {Computational Linguistics},\n"
        "  volume = {41},\n"
        "  number = {4},\n"
        "  pages = {665--695},\n"
        "  year = {2015},\n"
        "  doi = {10.1162/COLI_a_00237}\n"
        "}"
    ),
    "gerz2016": (
        "@inproceedings{gerz2016,\n"
        "  title = {{SimVerb-3500}: A Large-Scale Evaluation Set of Verb Similarity},\n"
        "  author = {Gerz, Daniela and Vuli{\\'c}, Ivan and Hill, Felix and Reichart, Roi and Korhonen, Anna},\n"
        "  booktitle = {Proceedings of the 2016 Conference on Empirical Methods in Natural Language Processing},\n"
        "  year = {2016},\n"
        "  doi = {10.18653/v1/D16-1235}\n"
        "}"
    ),
}
"""``{key: BibTeX entry}`` of the papers: Schulz & Juric (AAAI 2020), Newman-Griffis et al. (BioNLP
2017), Rouhizadeh et al. (Scientific Data 2024), Chiu et al. (BMC Bioinformatics 2018), Hill et al.
(SimLex-999, Computational Linguistics 2015), Gerz et al. (SimVerb-3500, EMNLP 2016)."""


def bibtex_key(name: str) -> str:
    """A BibTeX key from a source name (letters, digits, ``_`` and ``-``; others dropped)."""
    return re.sub(r"[^A-Za-z0-9_-]", "", name) or "source"


def _escape(text: str) -> str:
    """``text`` safe inside a braced BibTeX field (LaTeX specials escaped, braces balanced away)."""
    out = text.replace("\\", "\\textbackslash{}")
    for char in "&%$#_":
        out = out.replace(char, "\\" + char)
    return out.replace("{", "").replace("}", "")


def source_bibtex(name: str, attribution: Attribution, version: str | None = None, url: str | None = None) -> str:
    """A ``@misc`` entry for a source: title, creator (if any) as a corporate author, version, URL, and the
    publisher's requested citation as ``note`` (all from ``sources.<name>.attribution``; a version or
    URL it does not give falls back to the source's own ``version`` / ``url``)."""
    fields = [("title", "{" + _escape(attribution.title) + "}")]
    if attribution.creator:
        fields.append(("author", "{" + _escape(attribution.creator) + "}"))
    if attribution.version or version:
        fields.append(("version", _escape(attribution.version or version or "")))
    if attribution.url or url:
        fields.append(("url", attribution.url or url or ""))
    if attribution.citation:
        fields.append(("note", "Please cite: " + _escape(attribution.citation)))
    body = ",\n".join(f"  {key} = {{{value}}}" for key, value in fields)
    return f"@misc{{{bibtex_key(name)},\n{body}\n}}"


def papers(keys: Iterable[str]) -> list[str]:
    """The BibTeX entries of ``keys`` (in order, each once).

    Raises:
        KeyError: a key is not in :data:`PAPERS`.
    """
    out: list[str] = []
    for key in keys:
        entry = PAPERS[key]
        if entry not in out:
            out.append(entry)
    return out
