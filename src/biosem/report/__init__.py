"""Pages and plots for ``snakemake --report``: tables rendered to self-contained HTML
(:mod:`biosem.report.tables`) and plots of the datasets themselves (:mod:`biosem.report.plots`)."""
