# The Snakemake report's pages and dataset plots (docs/design.md § report). Snakemake's report shows
# images and HTML inline, other files as downloads only: every table and text file the report shows
# is rendered to an HTML page under the caption, category and labels declared with it.


# One rule per table or text declared with a caption (biosem.layout.outputs.PAGES).
for _shown in outputs.PAGES:

    rule:
        name:
            f"render_{_shown.name}"
        input:
            table=_shown.template,
        output:
            page=_shown.report(),
        log:
            paths.log("render_report_page", paths.under_results(_shown.template)),
        localrule: True
        conda:
            "../envs/biosem.yaml"
        params:
            all_rows=plan.report.all_rows(_shown),
        script:
            "../scripts/render_report_page.py"


rule plot_termpair_datasets:
    input:
        datasets=plan.termpairs.datasets("{terminology}"),
    output:
        plot=outputs.termpair_plot.report(),
    log:
        paths.log("plot_termpair_datasets", "{terminology}"),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=2000,
    script:
        "../scripts/plot_termpair_datasets.py"


rule plot_wic_composition:
    input:
        splits=plan.wic.splits("parquet"),
    output:
        plot=outputs.wic_plot.report(),
    log:
        paths.log("plot_wic_composition", "wic"),
    conda:
        "../envs/biosem.yaml"
    script:
        "../scripts/plot_wic_composition.py"


rule plot_analogy_relations:
    input:
        relations=outputs.analogy_relations.template,
    output:
        plot=outputs.analogy_plot.report(),
    log:
        paths.log("plot_analogy_relations", "relations"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    script:
        "../scripts/plot_analogy_relations.py"


rule plot_simlex_vocabulary:
    input:
        domains=paths.intermediate("word_domains", plan.simlex.name),
    output:
        plot=outputs.simlex_plot.report(),
    log:
        paths.log("plot_simlex_vocabulary", plan.simlex.name),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    script:
        "../scripts/plot_simlex_vocabulary.py"
