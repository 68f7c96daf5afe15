"""Scoring word and term representations on every dataset biosem builds and on standard benchmarks.

Modules (docs/design.md § Evaluation):

* :mod:`biosem.evaluate.models`: word vectors through gensim ``KeyedVectors`` (word2vec text/binary,
  fastText, GloVe), deterministic word2vec training, phrase vectors (multi-word = mean of word
  vectors), an optional sentence encoder.
* :mod:`biosem.evaluate.stats`: Spearman with ties, BCa bootstrap intervals, AUC, the
  accuracy-maximising threshold, McNemar's test.
* :mod:`biosem.evaluate.rated`: rated word pairs (SimLex-style): cosine, Spearman, coverage, OOV
  policy, frequency bands.
* :mod:`biosem.evaluate.benchmarks`: readers of the external rated datasets.
* :mod:`biosem.evaluate.termpairs`: term-pair similarity metrics (Schulz & Juric 2020), AUC,
  threshold accuracy, category separation.
* :mod:`biosem.evaluate.analogies`: 3CosAdd, PairwiseDistance, 3CosMul; AccR, MAP, MRR (BMASS).
* :mod:`biosem.evaluate.wic`: word-in-context baselines (BioWiC).
* :mod:`biosem.evaluate.results`: the tidy results table; :mod:`biosem.evaluate.families`: the table
  split per family (the report's pages); :mod:`biosem.evaluate.plots`: its report plots.
* :mod:`biosem.evaluate.suite`: one model (or several, as ``biosem evaluate`` scores them) on each family's
  datasets, with the workflow's parameters.
* :mod:`biosem.evaluate.catalogue`: which datasets there are to score, and which of them are built.
"""

FAMILIES = ("rated", "termpairs", "analogies", "wic")
"""The dataset families ``biosem evaluate`` scores (rated: the external benchmarks and biosem's rated datasets)."""

WORD_VECTOR_FORMATS = ("word2vec_binary", "word2vec_text", "glove", "fasttext")
"""The word-vector file formats :mod:`biosem.evaluate.models` reads (here, so that ``biosem evaluate --help``
lists them without importing gensim)."""

CASE_AUTO = "auto"
"""``lowercase: auto`` (config ``evaluate.models.<name>.lowercase``, the default; ``biosem evaluate`` without
``--lowercase`` or ``--case-sensitive``): a vocabulary without an upper-case letter is matched in lower case,
any other as written (:func:`biosem.evaluate.models.resolve_case`)."""

COVERAGE_WARNING = 0.5
"""A model that covers less than this share of a dataset's items gets a ``WARNING: <model> covers <x> of
<dataset>`` line (:func:`biosem.evaluate.results.coverage_warnings`): in ``biosem evaluate``'s output and the
evaluate rules' logs."""
