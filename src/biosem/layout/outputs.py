"""Every file a stage writes under ``results/``, declared once: its path template (folder from
:mod:`biosem.layout.paths`, file name here, Snakemake wildcards), its kind and, when the Snakemake report
shows it, its caption, category and labels.

Everything else is derived from these declarations:

* a rule's ``output:``: ``counts=outputs.termpair_counts.template``, or ``outputs.termpair_plot.report()``
  for a plot the report shows (the template flagged with ``report(...)``);
* each stage's targets: :func:`expand` over the wildcard values the stage knows
  (``outputs.expand("termpairs", terminology=[...], dataset=[...])``);
* the report's pages: one ``render_<name>`` rule per table or text with a caption (:data:`PAGES`), one page
  per built file (:class:`biosem.workflow.report.Report`);
* the files the release reads: ``outputs.termpair_dataset.path(terminology="hpo", dataset="fsn_syn_easy_random")``.

A result's file name is spelled here and nowhere else (tests/workflow/test_plan.py greps the code for
each declared name). Adding a table that the report shows is one declaration, its caption
(``workflow/report/<caption>.rst``) and the rule that writes it::

    termpair_validity = Output(
        "termpairs",
        paths.TERMPAIRS + "/{terminology}/validity.tsv",
        TABLE,
        caption="termpairs_validity",
        labels={"terminology": "{terminology}", "table": "validity checks"},
    )

Not declared here: the intermediate tables (``paths.intermediate(<table>, <terminology|corpus>)``, named by
their schema and the config), the sources, logs, benchmarks and the folders of a release (laid out by
:mod:`biosem.release`). This module imports nothing from biosem but :mod:`biosem.layout.paths`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from biosem.layout import paths

# --- kinds of output -------------------------------------------------------------------------------

DATASET = "dataset"
"""A dataset file: what a family publishes and the evaluation reads (Parquet, or a reference format)."""
TABLE = "table"
"""A table of counts, checks or scores; with a caption (TSV or CSV) an HTML page of the report."""
TEXT = "text"
"""A text or Markdown file; with a caption an HTML page of the report."""
PLOT = "plot"
"""An image; with a caption shown in the report itself."""
FILE = "file"
"""Anything else a rule writes: work files, study sheets, forms, per-model scores."""

KINDS = (DATASET, TABLE, TEXT, PLOT, FILE)
PAGE_SUFFIXES = {TABLE: (".tsv", ".csv"), TEXT: (".txt", ".md")}
"""The files a kind's report page can show (biosem.report.tables renders these)."""

CATEGORIES = {
    "corpora": "Corpora",
    "termpairs": "Term pairs",
    "wic": "WiC",
    "analogies": "Analogies",
    "simlex": "Simlex",
    "agreement": "Agreement",
    "evaluate": "Evaluation",
}
"""The report category of each stage's shown outputs (unless an output names its own)."""

_WILDCARD = re.compile(r"\{(\w+)\}")


@dataclass(eq=False)
class Output:
    """One file (pattern) a stage writes.

    Attributes:
        stage: the stage whose ``targets()`` name the file (``termpairs``, ``wic``, ...; see :func:`expand`).
        template: the path with Snakemake wildcards (``results/datasets/termpairs/{terminology}/counts.tsv``).
        kind: :data:`DATASET`, :data:`TABLE`, :data:`TEXT`, :data:`PLOT` or :data:`FILE`.
        caption: the report caption ``workflow/report/<caption>.rst``; the report shows the output only
            when it has one (a plot as itself, a table or text as an HTML page).
        labels: the report labels (wildcards allowed, e.g. ``{"terminology": "{terminology}"}``).
        category: the report category (default: the stage's, :data:`CATEGORIES`).
        part: a part of the stage built for its own wildcard values (the agreement stage scores the
            study sheets of the terminologies with filled sheets only); None for the stage's main part.
        target: whether the stage's targets name the file (False: rules read it, ``rule all`` does not ask).
        pages_for: wildcard values whose files get a report page (default: every built file).
        all_rows: whether the report page shows every row of the table (default: its head,
            :data:`biosem.report.tables.MAX_ROWS` rows, and its size).
        name: the module attribute the output is declared as (set when the module loads): the key of
            :data:`OUTPUTS` and the name of its ``render_<name>`` rule.

    Raises:
        ValueError: an unknown kind or stage, or a caption on an output the report cannot show (a
            dataset, a file, a table or text whose suffix no page renders, a non-target), ``all_rows``
            on an output without a page.
    """

    stage: str
    template: str
    kind: str
    caption: str | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    category: str | None = None
    part: str | None = None
    target: bool = True
    pages_for: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    all_rows: bool = False
    name: str = field(default="", init=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"{self.template}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.stage not in CATEGORIES:
            raise ValueError(f"{self.template}: stage {self.stage!r} is not one of {', '.join(CATEGORIES)}")
        if self.caption is None:
            if self.all_rows:
                raise ValueError(f"{self.template}: all_rows without a caption (no page)")
            return
        if self.kind not in (*PAGE_SUFFIXES, PLOT):
            raise ValueError(f"{self.template}: a {self.kind} is not shown in the report (no caption)")
        if self.all_rows and self.kind not in PAGE_SUFFIXES:
            raise ValueError(f"{self.template}: all_rows is for a table or text page, not a {self.kind}")
        if self.kind in PAGE_SUFFIXES and not self.template.endswith(PAGE_SUFFIXES[self.kind]):
            raise ValueError(f"{self.template}: a {self.kind} page shows {' or '.join(PAGE_SUFFIXES[self.kind])}")
        if not self.target:
            raise ValueError(f"{self.template}: the report shows targets only")
        if self.category is None:
            self.category = CATEGORIES[self.stage]

    @property
    def filename(self) -> str:
        """The file name: the template's last part (``counts.tsv``)."""
        return self.template.rsplit("/", 1)[-1]

    @property
    def wildcards(self) -> tuple[str, ...]:
        """The template's wildcards, in order of first appearance."""
        return tuple(dict.fromkeys(_WILDCARD.findall(self.template)))

    def path(self, **wildcards: Any) -> str:
        """The template with every wildcard replaced (a value may itself be a wildcard pattern, e.g.
        ``dataset="{kind}_{difficulty}_{strategy}"`` in a rule, or a glob ``"*"``).

        Raises:
            ValueError: a wildcard of the template is not given, or a name given is not one.
        """
        if set(wildcards) != set(self.wildcards):
            raise ValueError(
                f"{self.name or self.template}: wildcards {sorted(wildcards)} given, {sorted(self.wildcards)} expected"
            )
        return self.template.format(**wildcards)

    # --- the report -------------------------------------------------------------------------------

    @property
    def has_page(self) -> bool:
        """Whether the report shows the output as an HTML page (a table or text with a caption)."""
        return self.caption is not None and self.kind in PAGE_SUFFIXES

    @property
    def page(self) -> str:
        """The template of the output's report page (:func:`biosem.layout.paths.report_page`)."""
        return paths.report_page(self.template)

    @property
    def caption_file(self) -> str:
        """The caption's path relative to ``workflow/rules`` (where ``report(...)`` resolves it)."""
        return f"../report/{self.caption}.rst"

    def shows(self, wildcards: Mapping[str, str]) -> bool:
        """Whether the built file with these wildcard values gets a report page."""
        return self.has_page and all(wildcards[k] in values for k, values in self.pages_for.items())

    def report(self) -> Any:
        """The rule output the report shows, flagged with Snakemake's ``report(...)`` under the caption,
        category and labels declared here: the plot itself, or the page of a table or text.

        Raises:
            ValueError: the output has no caption.
        """
        from snakemake.io import report

        if self.caption is None:
            raise ValueError(f"{self.name}: the report does not show it (no caption)")
        shown = self.page if self.has_page else self.template
        return report(shown, caption=self.caption_file, category=self.category, labels=dict(self.labels))


@dataclass(frozen=True)
class Built:
    """A declared output with its wildcard values: one file a stage builds."""

    output: Output
    wildcards: Mapping[str, str]

    @property
    def path(self) -> str:
        return self.output.path(**self.wildcards)

    @property
    def page(self) -> str:
        """The path of the file's report page."""
        return paths.report_page(self.path)


def expand(stage: str, part: str | None = None, **values: Iterable[Any]) -> list[Built]:
    """The files a stage (or a ``part`` of it) builds: each of its outputs with ``target``, in declaration
    order, expanded over the product of the values of its wildcards (like Snakemake's ``expand``).

    Raises:
        ValueError: an output of the stage has a wildcard ``values`` does not give.
    """
    given = {name: [str(v) for v in vals] for name, vals in values.items()}
    out: list[Built] = []
    for output in OUTPUTS.values():
        if output.stage != stage or output.part != part or not output.target:
            continue
        missing = [w for w in output.wildcards if w not in given]
        if missing:
            raise ValueError(f"outputs.{output.name}: no values for wildcard(s) {', '.join(missing)} of stage {stage}")
        names = output.wildcards
        for combination in itertools.product(*(given[w] for w in names)):
            out.append(Built(output, dict(zip(names, combination, strict=True))))
    return out


# === corpora ======================================================================================

corpus_counts = Output(
    "corpora",
    paths.intermediate("corpus_counts", "{corpus}", "tsv"),
    TABLE,
    caption="corpora_counts",
    labels={"corpus": "{corpus}", "table": "counts per split"},
)
corpus_module_counts = Output(
    "corpora",
    paths.intermediate("corpus_module_counts", "{corpus}", "tsv"),
    TABLE,
    caption="corpora_module_counts",
    labels={"corpus": "{corpus}", "table": "counts per split and module"},
    part="craft",  # the corpora in format craft (biosem.workflow.corpora.Corpora.built)
)

# === termpairs (Schulz & Juric 2020) ===============================================================

termpair_positives = Output("termpairs", paths.TERMPAIRS + "/{terminology}/positives.parquet", FILE, target=False)
termpair_components = Output("termpairs", paths.TERMPAIRS + "/{terminology}/components.parquet", FILE, target=False)
termpair_neighbours = Output(
    "termpairs", paths.INTERMEDIATE + "/termpair_neighbours/{terminology}/{difficulty}.parquet", FILE, target=False
)
termpair_dataset = Output("termpairs", paths.TERMPAIRS + "/{terminology}/{dataset}.parquet", DATASET)
termpair_dataset_tsv = Output("termpairs", paths.TERMPAIRS + "/{terminology}/{dataset}.tsv", DATASET, target=False)
termpair_stats = Output("termpairs", paths.TERMPAIRS + "/{terminology}/stats/{dataset}.json", FILE, target=False)
termpair_counts = Output(
    "termpairs",
    paths.TERMPAIRS + "/{terminology}/counts.tsv",
    TABLE,
    caption="termpairs_counts",
    labels={"terminology": "{terminology}", "table": "counts (Table 2)"},
)
termpair_validity = Output(
    "termpairs",
    paths.TERMPAIRS + "/{terminology}/validity.tsv",
    TABLE,
    caption="termpairs_validity",
    labels={"terminology": "{terminology}", "table": "validity checks"},
)
termpair_plot = Output(
    "termpairs",
    paths.REPORT_PLOTS + "/termpairs/{terminology}.png",
    PLOT,
    caption="termpairs_plot",
    labels={"terminology": "{terminology}", "plot": "dataset sizes and distances"},
)

# === wic (BioWiC) ==================================================================================

wic_selected = Output("wic", paths.INTERMEDIATE + "/wic/selected.parquet", FILE, target=False)
wic_corpus_terms = Output("wic", paths.INTERMEDIATE + "/wic/corpus_terms.parquet", FILE, target=False)
wic_abbreviation_definitions = Output(
    "wic", paths.INTERMEDIATE + "/wic/abbreviation_definitions.parquet", FILE, target=False
)
wic_candidates = Output("wic", paths.INTERMEDIATE + "/wic/candidates.parquet", FILE, target=False)
wic_split_json = Output("wic", paths.WIC + "/{split}.json", DATASET)
wic_split = Output("wic", paths.WIC + "/{split}.parquet", DATASET)
wic_quotas = Output("wic", paths.WIC + "/quotas.json", FILE, target=False)
wic_counts = Output(
    "wic",
    paths.WIC + "/counts.tsv",
    TABLE,
    caption="wic_counts",
    labels={"table": "instances per split, group and label"},
)
wic_validity = Output(
    "wic",
    paths.WIC + "/validity.tsv",
    TABLE,
    caption="wic_validity",
    labels={"table": "validity checks"},
)
wic_candidate_counts = Output(
    "wic",
    paths.WIC + "/candidate_counts.tsv",
    TABLE,
    caption="wic_candidates",
    labels={"table": "candidate pairs per group"},
)
wic_selection_counts = Output(
    "wic",
    paths.WIC + "/selection_counts.tsv",
    TABLE,
    caption="wic_selection",
    labels={"table": "mentions and sentences per step"},
)
wic_validation = Output(
    "wic", paths.WIC + "/validation.txt", TEXT, caption="wic_validation", labels={"table": "validation"}
)
wic_plot = Output(
    "wic",
    paths.REPORT_PLOTS + "/wic/composition.png",
    PLOT,
    caption="wic_plot",
    labels={"plot": "instances per split, group and label"},
)

# === analogies (BMASS) =============================================================================

analogy_dataset_text = Output(
    "analogies",
    paths.ANALOGIES + "/{terminology}/{setting}.txt",
    TEXT,
    caption="analogies_dataset",
    labels={"terminology": "{terminology}", "dataset": "{setting}"},
    pages_for={"setting": ("single_answer", "multi_answer", "all_info")},  # not the unigram subsets
)
analogy_dataset = Output("analogies", paths.ANALOGIES + "/{terminology}/{setting}.parquet", DATASET)
analogy_counts = Output(
    "analogies",
    paths.ANALOGIES + "/{terminology}/counts.tsv",
    TABLE,
    caption="analogies_counts",
    labels={"terminology": "{terminology}", "table": "counts (Table 2)"},
)
analogy_validity = Output(
    "analogies",
    paths.ANALOGIES + "/{terminology}/validity.tsv",
    TABLE,
    caption="analogies_validity",
    labels={"terminology": "{terminology}", "table": "validity checks"},
)
analogy_summary = Output(
    "analogies",
    paths.ANALOGIES + "/summary.tsv",
    TABLE,
    caption="analogies_summary",
    labels={"table": "summary over terminologies"},
)
analogy_relations = Output(
    "analogies",
    paths.ANALOGIES + "/relations.tsv",
    TABLE,
    caption="analogies_relations",
    labels={"table": "relations of every terminology"},
)
analogy_plot = Output(
    "analogies",
    paths.REPORT_PLOTS + "/analogies/relations.png",
    PLOT,
    caption="analogies_plot",
    labels={"plot": "relations, instances and Amb"},
)

# === simlex (Bio-SimLex / Bio-SimVerb) =============================================================

simlex_filters = Output(
    "simlex",
    paths.SIMLEX + "/vocabulary/filters.tsv",
    TABLE,
    caption="simlex_filters",
    labels={"table": "vocabulary filters"},
)
simlex_domains = Output(
    "simlex",
    paths.SIMLEX + "/review/domains.csv",
    TABLE,
    caption="simlex_domains",
    labels={"table": "domain review sheet"},
)
simlex_correlation = Output(
    "simlex",
    paths.SIMLEX + "/vocabulary/frequency_correlation.tsv",
    TABLE,
    caption="simlex_correlation",
    labels={"table": "corpus vs general-English frequency"},
)
simlex_pairs = Output("simlex", paths.SIMLEX + "/{dataset}/pairs.parquet", DATASET)
simlex_pairs_tsv = Output("simlex", paths.SIMLEX + "/{dataset}/pairs.tsv", DATASET, target=False)
simlex_counts = Output(
    "simlex",
    paths.SIMLEX + "/{dataset}/counts.tsv",
    TABLE,
    caption="simlex_counts",
    labels={"dataset": "{dataset}", "table": "pairs per quarter"},
)
simlex_validity = Output(
    "simlex",
    paths.SIMLEX + "/{dataset}/validity.tsv",
    TABLE,
    caption="simlex_validity",
    labels={"dataset": "{dataset}", "table": "validity checks"},
)
simlex_review_biomedical = Output(
    "simlex", paths.SIMLEX + "/{dataset}/review_associated_biomedical.csv", FILE, target=False
)
simlex_review_general = Output("simlex", paths.SIMLEX + "/{dataset}/review_associated_general.csv", FILE, target=False)
simlex_survey_items = Output("simlex", paths.SIMLEX + "/survey/{dataset}/items.parquet", FILE, target=False)
simlex_survey_sheet = Output("simlex", paths.SIMLEX + "/survey/{dataset}/group{group}.csv", FILE, target=False)
simlex_survey_design = Output(
    "simlex",
    paths.SIMLEX + "/survey/{dataset}/design.tsv",
    TABLE,
    caption="simlex_survey",
    labels={"dataset": "{dataset}", "table": "survey design"},
)
simlex_survey_instructions = Output(
    "simlex",
    paths.SIMLEX + "/survey/{dataset}/instructions.md",
    TEXT,
    caption="simlex_instructions",
    labels={"dataset": "{dataset}", "table": "annotator instructions"},
)
simlex_survey_form = Output("simlex", paths.SIMLEX + "/survey/{dataset}/forms/group{group}.html", FILE)
simlex_crowdsourcing_batch = Output("simlex", paths.SIMLEX + "/survey/{dataset}/crowdsourcing/batch.csv", FILE)
simlex_crowdsourcing_task = Output("simlex", paths.SIMLEX + "/survey/{dataset}/crowdsourcing/task.html", FILE)
simlex_plot = Output(
    "simlex",
    paths.REPORT_PLOTS + "/simlex/vocabulary.png",
    PLOT,
    caption="simlex_plot",
    labels={"plot": "vocabulary frequency and domains"},
)

# === agreement =====================================================================================
# Parts: "ratings" (per rating set), "termpair_study" / "wic_study" (the sheets), and their "_filled"
# parts, scored once filled sheets are listed in the config.

rated_dataset_text = Output("agreement", paths.SIMLEX + "/rated/{ratings}.txt", DATASET, part="ratings")
rated_dataset = Output("agreement", paths.SIMLEX + "/rated/{ratings}.parquet", DATASET, part="ratings")
rating_agreement = Output(
    "agreement",
    paths.AGREEMENT + "/ratings/{ratings}.tsv",
    TABLE,
    caption="agreement_ratings",
    labels={"ratings": "{ratings}", "table": "IAA-1 / IAA-2 / alpha"},
    part="ratings",
)
rater_agreement = Output("agreement", paths.AGREEMENT + "/ratings/raters/{ratings}.tsv", TABLE, part="ratings")

_TERMPAIR_STUDY = paths.STUDIES + "/termpairs/{terminology}"
termpair_study_sheet = Output("agreement", _TERMPAIR_STUDY + "/sheets/sheet.csv", FILE, part="termpair_study")
termpair_study_workbook = Output("agreement", _TERMPAIR_STUDY + "/sheets/sheet.xlsx", FILE, part="termpair_study")
termpair_study_key = Output("agreement", _TERMPAIR_STUDY + "/key.csv", FILE, part="termpair_study")
termpair_study_composition = Output(
    "agreement",
    _TERMPAIR_STUDY + "/composition.tsv",
    TABLE,
    caption="agreement_termpair_study",
    labels={"terminology": "{terminology}", "table": "term-pair study sheet"},
    part="termpair_study",
)
termpair_study_form = Output("agreement", _TERMPAIR_STUDY + "/forms/sheet.html", FILE, part="termpair_study")
termpair_study_labelstudio_config = Output(
    "agreement", _TERMPAIR_STUDY + "/labelstudio/config.xml", FILE, part="termpair_study"
)
termpair_study_labelstudio_tasks = Output(
    "agreement", _TERMPAIR_STUDY + "/labelstudio/sheet.json", FILE, part="termpair_study"
)
termpair_study_scores = Output(
    "agreement",
    _TERMPAIR_STUDY + "/scores.tsv",
    TABLE,
    caption="agreement_termpair_scores",
    labels={"terminology": "{terminology}", "table": "term-pair study (Table 3)"},
    part="termpair_study_filled",
)
termpair_study_votes = Output("agreement", _TERMPAIR_STUDY + "/votes.csv", FILE, part="termpair_study_filled")

_WIC_STUDY = paths.STUDIES + "/wic"
wic_study_sheet = Output("agreement", _WIC_STUDY + "/sheets/sheet_{rater}.csv", FILE, part="wic_study")
wic_study_workbook = Output("agreement", _WIC_STUDY + "/sheets/sheet_{rater}.xlsx", FILE, part="wic_study")
wic_study_key = Output("agreement", _WIC_STUDY + "/key.csv", FILE, part="wic_study")
wic_study_composition = Output(
    "agreement",
    _WIC_STUDY + "/composition.tsv",
    TABLE,
    caption="agreement_wic_study",
    labels={"study": "wic", "table": "wic study sheets"},
    part="wic_study",
)
wic_study_form = Output("agreement", _WIC_STUDY + "/forms/sheet_{rater}.html", FILE, part="wic_study")
wic_study_labelstudio_config = Output("agreement", _WIC_STUDY + "/labelstudio/config.xml", FILE, part="wic_study")
wic_study_labelstudio_tasks = Output(
    "agreement", _WIC_STUDY + "/labelstudio/sheet_{rater}.json", FILE, part="wic_study"
)
wic_study_scores = Output(
    "agreement",
    _WIC_STUDY + "/scores.tsv",
    TABLE,
    caption="agreement_wic_scores",
    labels={"study": "wic", "table": "wic expert check"},
    part="wic_study_filled",
)
wic_study_answers = Output("agreement", _WIC_STUDY + "/answers.csv", FILE, part="wic_study_filled")

# === evaluate ======================================================================================

model_vectors = Output("evaluate", paths.EVALUATION + "/models/{model}.bin", FILE, target=False)
token_counts = Output("evaluate", paths.EVALUATION + "/models/token_counts.parquet", FILE, target=False)
model_embeddings = Output("evaluate", paths.EVALUATION + "/embeddings/{model}.parquet", FILE, target=False)
rated_scores = Output("evaluate", paths.EVALUATION + "/rated/{model}.parquet", FILE, target=False)
termpair_scores = Output("evaluate", paths.EVALUATION + "/termpairs/{model}.parquet", FILE, target=False)
termpair_predictions = Output(
    "evaluate", paths.EVALUATION + "/termpairs/{model}.predictions.parquet", FILE, target=False
)
termpair_model_comparison = Output("evaluate", paths.EVALUATION + "/termpairs/mcnemar.parquet", FILE, target=False)
analogy_scores = Output("evaluate", paths.EVALUATION + "/analogies/{model}.parquet", FILE, target=False)
analogy_predictions = Output(
    "evaluate", paths.EVALUATION + "/analogies/{model}.predictions.parquet", FILE, target=False
)
wic_scores = Output("evaluate", paths.EVALUATION + "/wic/{model}.parquet", FILE, target=False)
wic_random_scores = Output("evaluate", paths.EVALUATION + "/baselines/wic_random.parquet", FILE, target=False)
evaluation_results = Output("evaluate", paths.EVALUATION + "/results.parquet", TABLE)
evaluation_results_csv = Output("evaluate", paths.EVALUATION + "/results.csv", TABLE)
evaluation_results_table = Output(
    "evaluate",
    paths.EVALUATION + "/tables/{results_table}.csv",
    TABLE,
    caption="evaluate_results",
    labels={"table": "results: {results_table}"},
    all_rows=True,  # the whole table is split by family and terminology (biosem.evaluate.families)
)
evaluation_plot_analogies = Output(
    "evaluate",
    paths.EVALUATION + "/plots/analogies.png",
    PLOT,
    caption="evaluate_analogies",
    labels={"plot": "MAP per relation, method and model"},
)
evaluation_plot_frequency_bands = Output(
    "evaluate",
    paths.EVALUATION + "/plots/frequency_bands.png",
    PLOT,
    caption="evaluate_frequency_bands",
    labels={"plot": "Spearman's rho per corpus-frequency band"},
)
evaluation_plot_rated = Output(
    "evaluate",
    paths.EVALUATION + "/plots/rated.png",
    PLOT,
    caption="evaluate_rated",
    labels={"plot": "Spearman's rho per rated dataset (95% BCa)"},
)
evaluation_plot_termpairs = Output(
    "evaluate",
    paths.EVALUATION + "/plots/termpairs.png",
    PLOT,
    caption="evaluate_termpairs",
    labels={"plot": "AUC per term-pair dataset and model"},
)
evaluation_plot_wic = Output(
    "evaluate",
    paths.EVALUATION + "/plots/wic.png",
    PLOT,
    caption="evaluate_wic",
    labels={"plot": "WiC accuracy per group and model"},
)

# === the registry =================================================================================

OUTPUTS: dict[str, Output] = {}
"""Every declaration above by its name, in declaration order."""
for _name, _value in list(globals().items()):
    if isinstance(_value, Output):
        _value.name = _name
        OUTPUTS[_name] = _value

PAGES: tuple[Output, ...] = tuple(o for o in OUTPUTS.values() if o.has_page)
"""The tables and texts the report shows as HTML pages (one ``render_<name>`` rule each)."""
