# The Snakemake report's pages and dataset plots (docs/design.md § report). Snakemake's report shows
# images and HTML inline, other files as downloads only: every table and text file of plan.report is
# rendered to an HTML page under the category, labels and caption it belongs to.


# One rule per kind of page (its source template, caption, category and labels: plan.report).
for _page in plan.report.page_kinds:

    rule:
        name:
            f"render_{_page.name}"
        input:
            table=_page.source,
        output:
            page=report(
                _page.page,
                caption=_page.caption,
                category=_page.category,
                labels=_page.labels,
            ),
        log:
            paths.log("render_report_page", _page.log_name),
        localrule: True
        conda:
            "../envs/biosem.yaml"
        script:
            "../scripts/render_report_page.py"


rule plot_termpair_datasets:
    input:
        datasets=plan.termpairs.datasets("{terminology}"),
    output:
        plot=report(
            paths.report_plot("termpairs", "{terminology}"),
            caption="../report/termpairs_plot.rst",
            category="Term pairs",
            labels={
                "terminology": "{terminology}",
                "plot": "dataset sizes and distances",
            },
        ),
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
        plot=report(
            paths.report_plot("wic", "composition"),
            caption="../report/wic_plot.rst",
            category="WiC",
            labels={"plot": "instances per split, group and label"},
        ),
    log:
        paths.log("plot_wic_composition", "wic"),
    conda:
        "../envs/biosem.yaml"
    script:
        "../scripts/plot_wic_composition.py"


rule plot_analogy_relations:
    input:
        relations=paths.analogies_summary("relations"),
    output:
        plot=report(
            paths.report_plot("analogies", "relations"),
            caption="../report/analogies_plot.rst",
            category="Analogies",
            labels={"plot": "relations, instances and Amb"},
        ),
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
        plot=report(
            paths.report_plot("simlex", "vocabulary"),
            caption="../report/simlex_plot.rst",
            category="Simlex",
            labels={"plot": "vocabulary frequency and domains"},
        ),
    log:
        paths.log("plot_simlex_vocabulary", plan.simlex.name),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    script:
        "../scripts/plot_simlex_vocabulary.py"
