# Helpers of the agreement stage (functions, config checks); its rules are in ../agreement.smk.

# Human-judgement studies and agreement statistics (IAA-1/IAA-2, Krippendorff's alpha, kappa).
# Ratings -> rated datasets (simlex family), expert study sheets for termpairs and wic, and their
# scoring once filled sheets are listed in config (DESIGN.md § simlex "Ratings", § termpairs).
from biosem.termpairs import DATASETS as TERMPAIR_DATASETS

AGREEMENT = config["agreement"]
RATINGS = AGREEMENT["ratings"]
STUDIES = "results/agreement/studies"


def ratings_input(wildcards):
    """The ratings file of one rating set: a fetched public source or a local path."""
    spec = RATINGS[wildcards.ratings]
    return source_file(spec["source"]) if "source" in spec else spec["path"]


def ratings_spec(wildcards):
    return RATINGS[wildcards.ratings]


def termpair_study_terminologies():
    """Terminologies that get a term-pair study sheet (default: every termpairs terminology)."""
    chosen = AGREEMENT["termpair_study"]["terminologies"]
    built = config["termpairs"]["terminologies"]
    return sorted(built if chosen is None else [t for t in chosen if t in built])


def filled_termpair_sheets(wildcards):
    return list(AGREEMENT["filled_sheets"]["termpairs"][wildcards.terminology].values())


def termpair_raters(wildcards):
    return list(AGREEMENT["filled_sheets"]["termpairs"][wildcards.terminology])


def filled_wic_sheets(wildcards):
    return list(AGREEMENT["filled_sheets"]["wic"].values())


def ratings_targets(name):
    return [
        f"results/datasets/simlex/rated/{name}.txt",
        f"results/datasets/simlex/rated/{name}.parquet",
        f"results/agreement/ratings/{name}.tsv",
        f"results/agreement/ratings/raters/{name}.tsv",
    ]


def termpair_study_targets(terminology):
    folder = f"{STUDIES}/termpairs/{terminology}"
    targets = [
        f"{folder}/sheets/sheet.csv",
        f"{folder}/sheets/sheet.xlsx",
        f"{folder}/key.csv",
        f"{folder}/composition.tsv",
    ]
    if terminology in AGREEMENT["filled_sheets"]["termpairs"]:
        targets += [f"{folder}/scores.tsv", f"{folder}/votes.csv"]
    return targets


def wic_study_targets():
    folder = f"{STUDIES}/wic"
    targets = expand(
        f"{folder}/sheets/sheet_{{rater}}.{{ext}}",
        rater=["a", "b"],
        ext=["csv", "xlsx"],
    )
    targets += [f"{folder}/key.csv", f"{folder}/composition.tsv"]
    if AGREEMENT["filled_sheets"]["wic"]:
        targets += [f"{folder}/scores.tsv", f"{folder}/answers.csv"]
    return targets


def agreement_targets():
    """Outputs of this stage requested by `rule all`."""
    targets = []
    for name in sorted(RATINGS):
        targets += ratings_targets(name)
    for terminology in termpair_study_terminologies():
        targets += termpair_study_targets(terminology)
    if wic_targets():
        targets += wic_study_targets()
    return targets
