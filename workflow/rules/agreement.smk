# Human-judgement studies and agreement statistics (IAA-1/IAA-2, Krippendorff's alpha, kappa):
# rating sets into rated datasets, expert study sheets for termpairs and wic, and their scoring
# once filled sheets are listed in the config (docs/design.md § simlex "Ratings", § termpairs).


rule aggregate_ratings:
    input:
        ratings=plan.agreement.ratings_input,
        checksums=plan.agreement.ratings_checksums,
        design=plan.agreement.ratings_design,
    output:
        txt=paths.rated("{ratings}", "txt"),
        parquet=paths.rated("{ratings}", "parquet"),
        agreement=paths.rating_agreement("{ratings}"),
        raters=paths.rater_agreement("{ratings}"),
    log:
        paths.log("aggregate_ratings", "{ratings}"),
    benchmark:
        paths.benchmark("aggregate_ratings", "{ratings}")
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=3000,
    params:
        spec=plan.agreement.ratings_spec,
    script:
        "../scripts/aggregate_ratings.py"


rule write_termpair_study:
    input:
        datasets=plan.termpairs.datasets("{terminology}"),
    output:
        sheet=paths.study("termpairs/{terminology}", "sheets", "sheet.csv"),
        xlsx=paths.study("termpairs/{terminology}", "sheets", "sheet.xlsx"),
        key=paths.study("termpairs/{terminology}", "key.csv"),
        form=paths.study("termpairs/{terminology}", "forms", "sheet.html"),
        composition=paths.study("termpairs/{terminology}", "composition.tsv"),
    log:
        paths.log("write_termpair_study", "{terminology}"),
    conda:
        "../envs/biosem.yaml"
    params:
        seed=config["seed"],
        datasets=list(TERMPAIR_DATASETS),
        n_pos=config["agreement"]["termpair_study"]["n_pos"],
        n_neg=config["agreement"]["termpair_study"]["n_neg"],
    script:
        "../scripts/write_termpair_study.py"


rule write_wic_study:
    input:
        test=paths.wic("test", "json"),
    output:
        sheet_a=paths.study("wic", "sheets", "sheet_a.csv"),
        xlsx_a=paths.study("wic", "sheets", "sheet_a.xlsx"),
        sheet_b=paths.study("wic", "sheets", "sheet_b.csv"),
        xlsx_b=paths.study("wic", "sheets", "sheet_b.xlsx"),
        key=paths.study("wic", "key.csv"),
        form_a=paths.study("wic", "forms", "sheet_a.html"),
        form_b=paths.study("wic", "forms", "sheet_b.html"),
        composition=paths.study("wic", "composition.tsv"),
    log:
        paths.log("write_wic_study", "wic"),
    conda:
        "../envs/biosem.yaml"
    params:
        seed=config["seed"],
        per_rater=config["agreement"]["wic_study"]["per_rater"],
        shared=config["agreement"]["wic_study"]["shared"],
    script:
        "../scripts/write_wic_study.py"


rule score_termpair_study:
    input:
        key=paths.study("termpairs/{terminology}", "key.csv"),
        sheets=plan.agreement.filled_termpair_sheets,
    output:
        scores=paths.study("termpairs/{terminology}", "scores.tsv"),
        votes=paths.study("termpairs/{terminology}", "votes.csv"),
    log:
        paths.log("score_termpair_study", "{terminology}"),
    conda:
        "../envs/biosem.yaml"
    params:
        raters=plan.agreement.termpair_raters,
        formats=plan.agreement.termpair_sheet_formats,
        datasets=list(TERMPAIR_DATASETS),
        dont_know=config["agreement"]["dont_know"],
    script:
        "../scripts/score_termpair_study.py"


rule score_wic_study:
    input:
        key=paths.study("wic", "key.csv"),
        sheets=plan.agreement.filled_wic_sheets,
    output:
        scores=paths.study("wic", "scores.tsv"),
        answers=paths.study("wic", "answers.csv"),
    log:
        paths.log("score_wic_study", "wic"),
    conda:
        "../envs/biosem.yaml"
    params:
        raters=list(config["agreement"]["filled_sheets"]["wic"]),
        formats=plan.agreement.wic_sheet_formats(),
        dont_know=config["agreement"]["dont_know"],
    script:
        "../scripts/score_wic_study.py"


rule write_labelstudio_termpairs:
    input:
        sheet=paths.study("termpairs/{terminology}", "sheets", "sheet.csv"),
    output:
        config=paths.study("termpairs/{terminology}", "labelstudio", "config.xml"),
        tasks=paths.study("termpairs/{terminology}", "labelstudio", "sheet.json"),
    log:
        paths.log("write_labelstudio_termpairs", "{terminology}"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        kind="termpairs",
    script:
        "../scripts/write_labelstudio_tasks.py"


rule write_labelstudio_wic:
    input:
        sheet_a=paths.study("wic", "sheets", "sheet_a.csv"),
        sheet_b=paths.study("wic", "sheets", "sheet_b.csv"),
    output:
        config=paths.study("wic", "labelstudio", "config.xml"),
        tasks_a=paths.study("wic", "labelstudio", "sheet_a.json"),
        tasks_b=paths.study("wic", "labelstudio", "sheet_b.json"),
    log:
        paths.log("write_labelstudio_wic", "wic"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        kind="wic",
    script:
        "../scripts/write_labelstudio_tasks.py"
