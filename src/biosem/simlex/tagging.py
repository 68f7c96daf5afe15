"""Word tokenisation and POS tagging for the vocabulary, exact and fast.

Both give exactly what NLTK gives (tested on real abstracts), with less work per token:

* :class:`WordTokenizer` is NLTK's ``NLTKWordTokenizer`` (the tokenizer behind ``nltk.word_tokenize``)
  with its fixed substitution patterns compiled by the standard library's ``re`` instead of NLTK's
  ``redos`` wrapper, which runs each of the ~25 substitutions per sentence through the ``regex``
  engine under a wall-clock timeout, a guard meant for caller-supplied patterns.
* :class:`PerceptronTagger` is NLTK's averaged-perceptron tagger (``PerceptronTagger.tag``, model
  ``averaged_perceptron_tagger_eng``) with its weights held as a dense matrix, one row per feature
  and one column per tag: a token's score vector is the sum of its features' rows, added in NLTK's
  feature order (so every float sum is NLTK's), and ties go to the larger tag, as in NLTK's
  ``max(classes, key=(score, tag))``.

Source: NLTK 3.x ``nltk/tokenize/destructive.py`` and ``nltk/tag/perceptron.py`` (M. Honnibal's
averaged perceptron: features ``bias``, ``i suffix``, ``i pref1``, ``i-1 tag``, ``i-2 tag``,
``i tag+i-2 tag``, ``i word``, ``i-1 tag+i word``, ``i-1 word``, ``i-1 suffix``, ``i-2 word``,
``i+1 word``, ``i+1 suffix``, ``i+2 word``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import pandas as pd
from nltk import redos
from nltk.tag.perceptron import PerceptronTagger as NltkPerceptronTagger
from nltk.tokenize import NLTKWordTokenizer

_RE_FLAGS = re.IGNORECASE | re.UNICODE | re.MULTILINE | re.DOTALL | re.VERBOSE


def _plain(pattern: object) -> re.Pattern[str]:
    """A ``redos`` (or ``re``) pattern compiled by the standard library, with its flags."""
    compiled = pattern._rx if isinstance(pattern, redos.TimedPattern) else pattern  # type: ignore[attr-defined]
    return re.compile(compiled.pattern, compiled.flags & _RE_FLAGS)  # type: ignore[attr-defined]


class WordTokenizer(NLTKWordTokenizer):
    """NLTK's Treebank-style word tokenizer with its own patterns run by ``re`` (same tokens)."""

    STARTING_QUOTES = [(_plain(p), s) for p, s in NLTKWordTokenizer.STARTING_QUOTES]
    ENDING_QUOTES = [(_plain(p), s) for p, s in NLTKWordTokenizer.ENDING_QUOTES]
    PUNCTUATION = [(_plain(p), s) for p, s in NLTKWordTokenizer.PUNCTUATION]
    PARENS_BRACKETS = (_plain(NLTKWordTokenizer.PARENS_BRACKETS[0]), NLTKWordTokenizer.PARENS_BRACKETS[1])
    CONVERT_PARENTHESES = [(_plain(p), s) for p, s in NLTKWordTokenizer.CONVERT_PARENTHESES]
    DOUBLE_DASHES = (_plain(NLTKWordTokenizer.DOUBLE_DASHES[0]), NLTKWordTokenizer.DOUBLE_DASHES[1])
    CONTRACTIONS2 = [_plain(p) for p in NLTKWordTokenizer.CONTRACTIONS2]
    CONTRACTIONS3 = [_plain(p) for p in NLTKWordTokenizer.CONTRACTIONS3]


class PerceptronTagger:
    """NLTK's averaged-perceptron tagger on a dense weight matrix; ``tag`` returns NLTK's tags.

    Args:
        model: a loaded NLTK ``PerceptronTagger`` (its ``model.weights``, ``tagdict`` and
            ``classes`` are read once; it is not changed).
    """

    def __init__(self, model: NltkPerceptronTagger) -> None:
        # Columns in descending tag order: argmax takes the first maximum, NLTK the largest tag.
        self.classes = sorted(model.classes, reverse=True)
        column = {tag: j for j, tag in enumerate(self.classes)}
        weights = model.model.weights
        self._row = {feature: i for i, feature in enumerate(weights)}
        self._zero = len(weights)  # an all-zero row for features the model does not have
        matrix = np.zeros((len(weights) + 1, len(self.classes)), dtype=np.float64)
        rows, cols, values = [], [], []
        for i, per_tag in enumerate(weights.values()):
            for tag, weight in per_tag.items():
                rows.append(i)
                cols.append(column[tag])
                values.append(weight)
        matrix[rows, cols] = values
        self._weights = matrix
        self._tagdict = dict(model.tagdict)
        self._start, self._end = list(model.START), list(model.END)
        self._normalize = model.normalize
        self._normal: dict[str, str] = {}
        self._word_rows: dict[str, tuple[int, int]] = {}
        self._context_rows: dict[str, tuple[int, ...]] = {}
        self._tag_rows: dict[tuple[str, str], tuple[int, int, int]] = {}

    def _get(self, feature: str) -> int:
        return self._row.get(feature, self._zero)

    def _normalised(self, word: str) -> str:
        hit = self._normal.get(word)
        if hit is None:
            hit = self._normal[word] = self._normalize(word)
        return hit

    def _rows_of_word(self, word: str) -> tuple[int, int]:
        """Rows of a token's ``i suffix`` and ``i pref1`` features."""
        hit = self._word_rows.get(word)
        if hit is None:
            hit = self._word_rows[word] = (self._get(f"i suffix {word[-3:]}"), self._get(f"i pref1 {word[:1]}"))
        return hit

    def _rows_of_context(self, normal: str) -> tuple[int, ...]:
        """Rows of a normalised context word as ``i word``, ``i-1 word``, ``i-1 suffix``, ``i-2 word``,
        ``i+1 word``, ``i+1 suffix``, ``i+2 word``."""
        hit = self._context_rows.get(normal)
        if hit is None:
            get = self._get
            hit = (
                get(f"i word {normal}"),
                get(f"i-1 word {normal}"),
                get(f"i-1 suffix {normal[-3:]}"),
                get(f"i-2 word {normal}"),
                get(f"i+1 word {normal}"),
                get(f"i+1 suffix {normal[-3:]}"),
                get(f"i+2 word {normal}"),
            )
            self._context_rows[normal] = hit
        return hit

    def _rows_of_tags(self, prev: str, prev2: str) -> tuple[int, int, int]:
        """Rows of the ``i-1 tag``, ``i-2 tag`` and ``i tag+i-2 tag`` features."""
        key = (prev, prev2)
        hit = self._tag_rows.get(key)
        if hit is None:
            get = self._get
            hit = (get(f"i-1 tag {prev}"), get(f"i-2 tag {prev2}"), get(f"i tag+i-2 tag {prev} {prev2}"))
            self._tag_rows[key] = hit
        return hit

    def tag(self, tokens: Sequence[str]) -> list[str]:
        """Penn Treebank tags of one tokenised sentence, as ``nltk``'s ``PerceptronTagger.tag``."""
        prev, prev2 = self._start
        context = [*self._start, *(self._normalised(w) for w in tokens), *self._end]
        rows = [self._rows_of_context(c) for c in context]
        bias = self._get("bias")
        weights = self._weights
        classes = self.classes
        tagdict = self._tagdict
        out = []
        for i, word in enumerate(tokens):
            tag = tagdict.get(word)
            if not tag:
                k = i + 2
                suffix, pref1 = self._rows_of_word(word)
                tag1, tag2, tags = self._rows_of_tags(prev, prev2)
                here = context[k]
                index = [
                    bias,
                    suffix,
                    pref1,
                    tag1,
                    tag2,
                    tags,
                    rows[k][0],
                    self._get(f"i-1 tag+i word {prev} {here}"),
                    rows[k - 1][1],
                    rows[k - 1][2],
                    rows[k - 2][3],
                    rows[k + 1][4],
                    rows[k + 1][5],
                    rows[k + 2][6],
                ]
                tag = classes[int(np.argmax(weights[index].sum(axis=0)))]
            out.append(tag)
            prev2 = prev
            prev = tag
        return out


def tag_agreement(
    sentences: Iterable[tuple[Sequence[str], Sequence[str]]],
    tag: Callable[[Sequence[str]], Sequence[str]],
    tag_class: Callable[[str], str],
) -> pd.DataFrame:
    """How often a tagger gives the gold Penn Treebank tags of pre-tokenised sentences (GENIA-pos).

    Args:
        sentences: ``(tokens, gold tags)`` per sentence.
        tag: the tagger (tokens -> tags), e.g. :meth:`biosem.simlex.vocabulary.Analyser.tag`.
        tag_class: tag -> class (:func:`biosem.simlex.vocabulary.tag_class`: noun, verb, ...).

    Returns:
        One row per gold class (sorted) and ``all``: ``class``, ``tokens`` (gold tokens of the
        class), ``same_tag`` (tagged with the gold tag), ``accuracy`` (same_tag / tokens),
        ``tagged`` (tokens the tagger put in the class), ``same_class`` (tokens of the class the
        tagger put in it), ``recall`` (same_class / tokens) and ``precision`` (same_class / tagged);
        for ``all``, tagged = same_class = tokens.

    Raises:
        ValueError: a sentence whose tokens and gold tags differ in number.
    """
    gold_n: Counter[str] = Counter()
    same_tag: Counter[str] = Counter()
    tagged_n: Counter[str] = Counter()
    same_class: Counter[str] = Counter()
    for tokens, gold in sentences:
        if len(tokens) != len(gold):
            raise ValueError(f"{len(tokens)} tokens but {len(gold)} gold tags: {' '.join(tokens)[:80]!r}")
        for want, got in zip(gold, tag(tokens), strict=True):
            cls, got_cls = tag_class(want), tag_class(got)
            gold_n[cls] += 1
            tagged_n[got_cls] += 1
            same_tag[cls] += want == got
            same_class[cls] += cls == got_cls
    rows = [(c, gold_n[c], same_tag[c], tagged_n[c], same_class[c]) for c in sorted(gold_n | tagged_n)]
    total = sum(gold_n.values())
    rows.append(("all", total, sum(same_tag.values()), total, total))
    frame = pd.DataFrame(rows, columns=["class", "tokens", "same_tag", "tagged", "same_class"])
    frame.insert(3, "accuracy", frame["same_tag"] / frame["tokens"].where(frame["tokens"] > 0))
    frame["recall"] = frame["same_class"] / frame["tokens"].where(frame["tokens"] > 0)
    frame["precision"] = frame["same_class"] / frame["tagged"].where(frame["tagged"] > 0)
    return frame
