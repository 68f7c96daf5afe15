"""Human judgements: agreement statistics, rating aggregation and expert study sheets.

:mod:`~biosem.agreement.statistics` (IAA-1/IAA-2, Krippendorff's alpha, Cohen's and Fleiss' kappa),
:mod:`~biosem.agreement.ratings` (rating matrices into rated datasets, Hill et al. 2015; Chiu et al.
2018), :mod:`~biosem.agreement.studies` (blinded term-pair and WiC study sheets and their scoring) and
:mod:`~biosem.agreement.sheets` (the sheets' cells: answers, formula neutralising, reading a filled sheet).
"""
