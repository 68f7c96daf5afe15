"""British -> American spelling normalisation of lowercased words (Chiu et al. 2018, § Word selection).

Sources, in order of authority:

1. **SPECIALIST LRSPL** (when configured): every spelling variant maps to the lexicon's base form.
   When given, it replaces the breame table.
2. **breame** (PyPI ``breame``, Apache-2.0): a table of about 1,700 British spellings with their
   American forms, inflected forms included (``tumours`` -> ``tumors``, ``randomised`` ->
   ``randomized``, ``anaesthetic`` -> ``anesthetic``).
3. **Rules** (:data:`SPELLING_RULES`, optional): the biomedical British spellings that general
   tables miss (``oedema``, ``ischaemia``, ``leucocyte``, ``hydrolyse``, ``-ise``/``-isation`` verbs
   and nouns; ``-our`` words are left to the table, since ``four`` -> ``for`` would pass the
   check). A rule rewrites a word only when the rewritten form is *more frequent* in general
   English than the word itself (``wordfreq``, English): ``oedema`` (1.5e-7) -> ``edema`` (8.9e-7)
   is taken, ``advise`` -> ``advize`` (0) and ``leucine`` -> ``leukine`` (0) are not. The first rule
   that matches and passes the check wins.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from wordfreq import word_frequency

SPELLING_RULES: tuple[tuple[str, str], ...] = (
    (r"^haem", "hem"),  # haemorrhage, haematoma, haemoglobin
    (r"aem(ia|ias|ic)$", r"em\1"),  # anaemia, leukaemia, ischaemia, septicaemia, hypoxaemic
    (r"aemo", "emo"),  # hypoaemo-, -aemostatic
    (r"paed", "ped"),  # paediatric, orthopaedic
    (r"^oe(soph|dem|str|cyst)", r"e\1"),  # oesophagus, oedema, oestrogen, oestradiol
    (r"^foet", "fet"),  # foetus, foetal
    (r"^coel", "cel"),  # coeliac
    (r"^faec", "fec"),  # faecal, faeces
    (r"^aetiol", "etiol"),  # aetiology
    (r"gynaec", "gynec"),  # gynaecology
    (r"^caes", "ces"),  # caesarean
    (r"rrhoea(s|l)?$", r"rrhea\1"),  # diarrhoea, amenorrhoea, gonorrhoea
    (r"^leuc", "leuk"),  # leucocyte, leucaemia (not leucine: the check keeps it)
    (r"yse$", "yze"),  # analyse, hydrolyse, catalyse, dialyse, paralyse
    (r"yser$", "yzer"),  # analyser
    (r"isation$", "ization"),  # randomisation, immunisation
    (r"isations$", "izations"),
    (r"ise$", "ize"),  # randomise, characterise (not advise, comprise: the check keeps them)
    (r"iser$", "izer"),  # sensitiser
    (r"tre$", "ter"),  # centre, fibre, litre
    (r"tres$", "ters"),
)
"""(regex, replacement) pairs tried in order on a lowercased word; see the module docstring."""


class SpellingNormaliser:
    """Map lowercased British spellings to American ones; results are cached per word.

    Args:
        lrspl: SPECIALIST LRSPL mapping variant -> base form (see :func:`biosem.simlex.specialist.read_lrspl`);
            when given it replaces the breame table.
        use_table: use the breame table when no LRSPL mapping is given.
        use_rules: apply :data:`SPELLING_RULES` (gated by general-English frequency).
    """

    def __init__(self, lrspl: Mapping[str, str] | None = None, use_table: bool = True, use_rules: bool = True) -> None:
        if lrspl is not None:
            self._table: Mapping[str, str] = dict(lrspl)
            self._table_source = "specialist_lrspl"
        elif use_table:
            from breame.data.spelling_constants import BRITISH_ENGLISH_SPELLINGS

            self._table = BRITISH_ENGLISH_SPELLINGS
            self._table_source = "breame"
        else:
            self._table, self._table_source = {}, "none"
        self._rules = [(re.compile(p), r) for p, r in SPELLING_RULES] if use_rules else []
        self._cache: dict[str, tuple[str, str]] = {}

    def normalise(self, word: str) -> tuple[str, str]:
        """Return ``(american, source)``; source is ``"identity"`` when the word is unchanged.

        ``word`` must already be lowercased; words of other scripts pass through unchanged.
        """
        hit = self._cache.get(word)
        if hit is None:
            hit = self._normalise(word)
            self._cache[word] = hit
        return hit

    def __call__(self, word: str) -> str:
        return self.normalise(word)[0]

    def _normalise(self, word: str) -> tuple[str, str]:
        mapped = self._table.get(word)
        if mapped and mapped != word:
            return mapped, self._table_source
        if self._rules:
            own = None
            for pattern, replacement in self._rules:
                if not pattern.search(word):
                    continue
                candidate = pattern.sub(replacement, word, count=1)
                if candidate == word:
                    continue
                if own is None:
                    own = word_frequency(word, "en")
                if word_frequency(candidate, "en") > own:
                    return candidate, "spelling_rule"
        return word, "identity"
