# Human-judgement studies and agreement statistics (IAA-1/IAA-2, Krippendorff's alpha, kappa):
# rating sets into rated datasets, expert study sheets for termpairs and wic, and their scoring
# once filled sheets are listed in the config (docs/design.md § simlex "Ratings", § termpairs).


rule aggregate_ratings:
    input:
        ratings=plan.agreement.ratings_input,
        checksums=plan.agreement.ratings_checksums,
        design=plan.agreement.ratings_design,
    output:
        txt=outputs.rated_dataset_text.template,
        parquet=outputs.rated_dataset.template,
        agreement=outputs.rating_agreement.template,
        raters=outputs.rater_agreement.template,
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
        sheet=outputs.termpair_study_sheet.template,
        xlsx=outputs.termpair_study_workbook.template,
        key=outputs.termpair_study_key.template,
        form=outputs.termpair_study_form.template,
        composition=outputs.termpair_study_composition.template,
    log:
        paths.log("write_termpair_study", "{terminology}"),
    conda:
        "../envs/biosem.yaml"
    params:
        seed=plan.agreement.seed,
        datasets=plan.agreement.termpair_datasets,
        n_pos=plan.agreement.termpair_n_pos,
        n_neg=plan.agreement.termpair_n_neg,
    script:
        "../scripts/write_termpair_study.py"


rule write_wic_study:
    input:
        test=outputs.wic_split_json.path(split="test"),
    output:
        sheet_a=outputs.wic_study_sheet.path(rater="a"),
        xlsx_a=outputs.wic_study_workbook.path(rater="a"),
        sheet_b=outputs.wic_study_sheet.path(rater="b"),
        xlsx_b=outputs.wic_study_workbook.path(rater="b"),
        key=outputs.wic_study_key.template,
        form_a=outputs.wic_study_form.path(rater="a"),
        form_b=outputs.wic_study_form.path(rater="b"),
        composition=outputs.wic_study_composition.template,
    log:
        paths.log("write_wic_study", "wic"),
    conda:
        "../envs/biosem.yaml"
    params:
        seed=plan.agreement.seed,
        per_rater=plan.agreement.wic_per_rater,
        shared=plan.agreement.wic_shared,
    script:
        "../scripts/write_wic_study.py"


rule score_termpair_study:
    input:
        key=outputs.termpair_study_key.template,
        distributed=outputs.termpair_study_sheet.template,
        sheets=plan.agreement.filled_termpair_sheets,
    output:
        scores=outputs.termpair_study_scores.template,
        votes=outputs.termpair_study_votes.template,
    log:
        paths.log("score_termpair_study", "{terminology}"),
    conda:
        "../envs/biosem.yaml"
    params:
        raters=plan.agreement.termpair_raters,
        formats=plan.agreement.termpair_sheet_formats,
        datasets=plan.agreement.termpair_datasets,
        dont_know=plan.agreement.dont_know,
    script:
        "../scripts/score_termpair_study.py"


rule score_wic_study:
    input:
        key=outputs.wic_study_key.template,
        distributed_a=outputs.wic_study_sheet.path(rater="a"),
        distributed_b=outputs.wic_study_sheet.path(rater="b"),
        sheets=plan.agreement.filled_wic_sheets,
    output:
        scores=outputs.wic_study_scores.template,
        answers=outputs.wic_study_answers.template,
    log:
        paths.log("score_wic_study", "wic"),
    conda:
        "../envs/biosem.yaml"
    params:
        raters=plan.agreement.wic_raters,
        formats=plan.agreement.wic_sheet_formats(),
        dont_know=plan.agreement.dont_know,
    script:
        "../scripts/score_wic_study.py"


rule write_labelstudio_termpairs:
    input:
        sheet=outputs.termpair_study_sheet.template,
    output:
        config=outputs.termpair_study_labelstudio_config.template,
        tasks=outputs.termpair_study_labelstudio_tasks.template,
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
        sheet_a=outputs.wic_study_sheet.path(rater="a"),
        sheet_b=outputs.wic_study_sheet.path(rater="b"),
    output:
        config=outputs.wic_study_labelstudio_config.template,
        tasks_a=outputs.wic_study_labelstudio_tasks.path(rater="a"),
        tasks_b=outputs.wic_study_labelstudio_tasks.path(rater="b"),
    log:
        paths.log("write_labelstudio_wic", "wic"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        kind="wic",
    script:
        "../scripts/write_labelstudio_tasks.py"
