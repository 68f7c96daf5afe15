"""Integration: corpus counts through the workflow with 1 and 3 shards give byte-identical outputs.

A small corpus keeps it short: the MedMentions sample's sentences, a token-per-line corpus (Ex-PTM,
366 blocks of 10 sentences), a plain text file of 100 NCBI Disease abstracts and a gzipped PubMed XML
file (given by a glob); HPO's terms for the term counts.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd
import pytest
import yaml
from conftest import CONFIG_FILES, SHARED_DATA, copy_workflow, run_workflow
from pubmed_fixture import write_pubmed

from biosem.corpora.pubtator import read_pubtator

pytestmark = pytest.mark.workflow

TARGETS = (
    "results/intermediate/word_counts/pubtator.parquet",
    "results/datasets/simlex/vocabulary/filters.tsv",
    "results/intermediate/term_counts/hpo.parquet",
)


def test_counts_identical_with_shards(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    docs = list(read_pubtator(SHARED_DATA / "ncbi-disease" / "NCBItestset_corpus.txt"))[:100]
    (corpus / "ncbi.txt").write_text("".join(d.text + "\n" for d in docs), encoding="utf-8")
    write_pubmed(corpus / "pubmed25n0001.xml.gz")
    files = [str(corpus / "*.txt"), str(corpus / "*.xml.gz")]
    overlay = {
        "simlex": {
            "corpora": ["medmentions_sample", "ex_ptm"],
            "text_files": files,
            "vocabulary": {"fragment_terminologies": ["hpo"]},  # in_term counts across shards too
        },
        "analogies": {"corpora": ["medmentions_sample", "ex_ptm"], "text_files": files},
    }
    digests = {}
    for n in (1, 3):
        workdir = copy_workflow(tmp_path / f"shards{n}")
        (workdir / "config" / "shards.yaml").write_text(yaml.safe_dump(overlay))
        result = run_workflow(
            workdir, 2, *TARGETS, "--configfile", *CONFIG_FILES, "config/shards.yaml", "--config", f"corpus_shards={n}"
        )
        assert result.returncode == 0, result.stderr[-5000:]
        shard_logs = sorted(p.name for p in (workdir / "logs" / "count_corpus_words_shard" / "pubtator").iterdir())
        assert shard_logs == [f"{k}-of-{n}.log" for k in range(1, n + 1)]
        assert not (workdir / "results" / "intermediate" / "word_counts_shards" / "pubtator").exists() or not list(
            (workdir / "results" / "intermediate" / "word_counts_shards" / "pubtator").iterdir()
        )  # partial counts are temporary
        digests[n] = {t: hashlib.sha256((workdir / t).read_bytes()).hexdigest() for t in TARGETS}
        filters = pd.read_csv(workdir / TARGETS[1], sep="\t").set_index(["pos", "step"])
        # MedMentions sample, Ex-PTM blocks, text lines, XML
        assert filters.loc[("all", "documents"), "tokens"] == 3 + 366 + 100 + 3
        hpo = pd.read_parquet(workdir / TARGETS[2])
        assert hpo["count"].sum() > 50
    assert digests[1] == digests[3]
