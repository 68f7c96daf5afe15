# Human-judgement studies and agreement statistics (IAA-1/IAA-2, Krippendorff's alpha, kappa).
# Rules only; functions and config checks are in helpers/agreement.smk (included first).


rule aggregate_ratings:
    input:
        ratings=ratings_input,
    output:
        txt="results/datasets/simlex/rated/{ratings}.txt",
        parquet="results/datasets/simlex/rated/{ratings}.parquet",
        agreement=report(
            "results/agreement/ratings/{ratings}.tsv",
            caption="../report/agreement_ratings.rst",
            category="Agreement",
            labels={"ratings": "{ratings}", "table": "IAA-1 / IAA-2 / alpha"},
        ),
        raters="results/agreement/ratings/raters/{ratings}.tsv",
    log:
        "logs/aggregate_ratings/{ratings}.log",
    benchmark:
        "benchmarks/aggregate_ratings/{ratings}.tsv"
    wildcard_constraints:
        ratings=name_pattern(sorted(RATINGS)),
    conda:
        "../envs/biosem.yaml"
    resources:
        mem_mb=3000,
    params:
        spec=ratings_spec,
    script:
        "../scripts/aggregate_ratings.py"


rule write_termpair_study:
    input:
        datasets=expand(
            "results/datasets/termpairs/{{terminology}}/{dataset}.parquet",
            dataset=TERMPAIR_DATASETS,
        ),
    output:
        sheet=f"{STUDIES}/termpairs/{{terminology}}/sheets/sheet.csv",
        xlsx=f"{STUDIES}/termpairs/{{terminology}}/sheets/sheet.xlsx",
        key=f"{STUDIES}/termpairs/{{terminology}}/key.csv",
        composition=report(
            f"{STUDIES}/termpairs/{{terminology}}/composition.tsv",
            caption="../report/agreement_termpair_study.rst",
            category="Agreement",
            labels={"terminology": "{terminology}", "table": "term-pair study sheet"},
        ),
    log:
        "logs/write_termpair_study/{terminology}.log",
    conda:
        "../envs/biosem.yaml"
    params:
        seed=config["seed"],
        datasets=list(TERMPAIR_DATASETS),
        n_pos=AGREEMENT["termpair_study"]["n_pos"],
        n_neg=AGREEMENT["termpair_study"]["n_neg"],
    script:
        "../scripts/write_termpair_study.py"


rule write_wic_study:
    input:
        test="results/datasets/wic/test.json",
    output:
        sheet_a=f"{STUDIES}/wic/sheets/sheet_a.csv",
        xlsx_a=f"{STUDIES}/wic/sheets/sheet_a.xlsx",
        sheet_b=f"{STUDIES}/wic/sheets/sheet_b.csv",
        xlsx_b=f"{STUDIES}/wic/sheets/sheet_b.xlsx",
        key=f"{STUDIES}/wic/key.csv",
        composition=report(
            f"{STUDIES}/wic/composition.tsv",
            caption="../report/agreement_wic_study.rst",
            category="Agreement",
            labels={"study": "wic", "table": "wic study sheets"},
        ),
    log:
        "logs/write_wic_study/wic.log",
    conda:
        "../envs/biosem.yaml"
    params:
        seed=config["seed"],
        per_rater=AGREEMENT["wic_study"]["per_rater"],
        shared=AGREEMENT["wic_study"]["shared"],
    script:
        "../scripts/write_wic_study.py"


rule score_termpair_study:
    input:
        key=f"{STUDIES}/termpairs/{{terminology}}/key.csv",
        sheets=filled_termpair_sheets,
    output:
        scores=report(
            f"{STUDIES}/termpairs/{{terminology}}/scores.tsv",
            caption="../report/agreement_termpair_scores.rst",
            category="Agreement",
            labels={
                "terminology": "{terminology}",
                "table": "term-pair study (Table 3)",
            },
        ),
        votes=f"{STUDIES}/termpairs/{{terminology}}/votes.csv",
    log:
        "logs/score_termpair_study/{terminology}.log",
    conda:
        "../envs/biosem.yaml"
    params:
        raters=termpair_raters,
        datasets=list(TERMPAIR_DATASETS),
        dont_know=AGREEMENT["dont_know"],
    script:
        "../scripts/score_termpair_study.py"


rule score_wic_study:
    input:
        key=f"{STUDIES}/wic/key.csv",
        sheets=filled_wic_sheets,
    output:
        scores=report(
            f"{STUDIES}/wic/scores.tsv",
            caption="../report/agreement_wic_scores.rst",
            category="Agreement",
            labels={"study": "wic", "table": "wic expert check"},
        ),
        answers=f"{STUDIES}/wic/answers.csv",
    log:
        "logs/score_wic_study/wic.log",
    conda:
        "../envs/biosem.yaml"
    params:
        raters=list(AGREEMENT["filled_sheets"]["wic"]),
        dont_know=AGREEMENT["dont_know"],
    script:
        "../scripts/score_wic_study.py"
