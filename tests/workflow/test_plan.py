"""The workflow plan (biosem.workflow): one authority for paths, targets from the stages themselves,
params restricted to the keys a rule reads (no needless reruns)."""

from __future__ import annotations

import ast
import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from conftest import CONFIG_FILES, REPO, SHARED_DATA, copy_workflow, run_workflow, workflow_config

from biosem.corpora.formats import FORMATS
from biosem.layout import outputs, paths
from biosem.termpairs import DATASETS
from biosem.workflow.corpora import INGEST_KEYS as CORPUS_KEYS
from biosem.workflow.plan import FAMILIES, Plan
from biosem.workflow.terminologies import INGEST_KEYS as TERMINOLOGY_KEYS


def config() -> dict:
    cfg = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    cfg.setdefault(
        "agreement",
        {
            "ratings": {},
            "filled_sheets": {"termpairs": {}, "wic": {}},
            "termpair_study": {"terminologies": None, "n_pos": 1, "n_neg": 1},
        },
    )
    return cfg


@pytest.fixture(scope="module")
def plan() -> Plan:
    return Plan(config())


def test_targets_of_the_default(plan: Plan) -> None:
    targets = plan.targets()
    cfg = config()
    assert len(targets) == len(set(targets))
    assert all(t.startswith(f"{paths.RESULTS}/") for t in targets)
    for name in cfg["termpairs"]["terminologies"]:
        assert {outputs.termpair_dataset.path(terminology=name, dataset=d) for d in DATASETS} <= set(targets)
        assert outputs.termpair_counts.path(terminology=name) in targets
    for name in cfg["terminologies"]:  # every configured terminology is read by some stage
        assert paths.intermediate("mappings", name) in targets
    assert outputs.wic_split_json.path(split="test") in targets and outputs.evaluation_results_csv.template in targets
    # the evaluate stage is given the built datasets, not regexes over target strings
    assert set(plan.evaluate.termpair_datasets.values()) <= set(targets)
    assert set(plan.evaluate.analogy_datasets.values()) <= set(targets)
    assert set(plan.evaluate.built_rated.values()) <= set(targets)
    assert len(plan.evaluate.termpair_datasets) == 20 * len(cfg["termpairs"]["terminologies"])


def test_default_builds_the_open_terminologies_and_the_test_overlay_keeps_one(plan: Plan) -> None:
    """The default builds the 20 datasets of MeSH, GO, DOID and CL; the tests' overlay keeps the full Cell
    Ontology beside HPO and leaves the term pairs of the large ones out."""
    assert {"hpo", "mesh", "go", "doid", "cl"} <= set(config()["termpairs"]["terminologies"])
    tested = workflow_config()
    assert {"hpo", "cl"} <= set(tested["termpairs"]["terminologies"])
    targets = set(Plan(tested).targets())
    assert outputs.termpair_counts.path(terminology="cl") in targets and paths.intermediate("terms", "cl") in targets
    for name in ("mesh", "go", "doid"):
        assert not any(t.startswith(f"{paths.DATASETS}/termpairs/{name}/") for t in targets), name


def test_rule_all_ingests_only_terminologies_a_stage_reads() -> None:
    cfg = config()
    cfg["terminologies"]["unused"] = {"format": "obo", "source": "go"}
    targets = Plan(cfg).targets()
    assert paths.intermediate("terms", "go") in targets  # read by termpairs and analogies
    assert paths.intermediate("terms", "go_slim") in targets  # read by analogies and simlex
    assert not any("/unused." in t for t in targets)


def test_unknown_termpairs_terminology_stops_with_the_key_to_set() -> None:
    cfg = config()
    cfg["termpairs"]["terminologies"] = ["hpo", "nope"]
    with pytest.raises(ValueError, match="termpairs.terminologies lists nope"):
        Plan(cfg)


def test_corpus_rules_by_format(plan: Plan) -> None:
    """Each corpus format has its ingest rule, constrained to the corpora of that format; CRAFT's own
    outputs (module counts, notices) are targets for CRAFT corpora only."""
    corpora = plan.corpora
    assert corpora.of_format("craft") == ["craft"]
    assert set(corpora.of_format("pubtator")) == set(corpora.specs) - {"craft"} - set(corpora.of_format("conll"))
    rules = (REPO / "workflow" / "rules" / "corpora.smk").read_text(encoding="utf-8")
    for fmt in FORMATS:
        assert f"rule ingest_{fmt}:" in rules and f'corpus=name_pattern(plan.corpora.of_format("{fmt}"))' in rules
        assert (REPO / "workflow" / "scripts" / f"ingest_{fmt}.py").is_file()
    assert corpora.inputs(SimpleNamespace(corpus="craft")) == {"archive": "resources/craft/CRAFT-5.0.2.tar.gz"}
    targets = set(plan.targets())
    assert {paths.intermediate("notices", "craft"), outputs.corpus_module_counts.path(corpus="craft")} <= targets
    assert not any(t.endswith(("notices/bc5cdr.parquet", "corpus_module_counts/bc5cdr.tsv")) for t in targets)
    assert corpora.format_tables("notices", ["bc5cdr", "craft"]) == [paths.intermediate("notices", "craft")]
    with pytest.raises(ValueError, match="expected one of"):
        corpora.of_format("brat")


def test_release_stages_follow_targets(plan: Plan) -> None:
    ids = {d.id for d in plan.release.datasets}
    assert {f"termpairs/{t}" for t in config()["termpairs"]["terminologies"]} <= ids
    cfg = config()
    cfg["termpairs"]["terminologies"] = []
    assert not any(d.family == "termpairs" for d in Plan(cfg).release.datasets)


def test_params_hold_only_the_keys_a_rule_reads(plan: Plan) -> None:
    assert "terminologies" not in plan.termpairs.construction
    assert "joint_search" not in plan.termpairs.construction
    assert "quotas" not in plan.wic.candidate_params and "quotas" in plan.wic.split_params
    assert "label_similarity_threshold" not in plan.wic.split_params
    # per-terminology keys reach the rules resolved for wic.terminology (MeSH by default)
    assert plan.wic.select_params["code_systems"] == {"MESH": "MESH"}
    assert plan.wic.select_params["own_namespace"] is None
    assert plan.wic.candidate_params["main_prune_relations"] == ["SY", "RB", "PAR"]
    assert plan.wic.candidate_params["abbreviation_ttys"] == ["ABB", "ACR"]
    # CRAFT's namespaces, each with its OBO terminology: the union of the RELs pruned, per-terminology entries
    assert plan.wic.candidate_params["prune_relations"] == ["SY", "RB", "PAR", "is_a", "part_of"]
    uberon = next(e for e in plan.wic.candidate_params["namespace_terminologies"] if e["namespace"] == "UBERON")
    assert uberon == {
        "namespace": "UBERON",
        "terminology": "uberon",
        "prune_relations": ["is_a", "part_of"],
        "abbreviation_ttys": ["ABBREVIATION"],
    }
    assert plan.wic.select_params["namespace_terminologies"]["GO"] == "go"
    assert "quotas" not in plan.wic.select_params and "code_systems" not in plan.wic.candidate_params
    # the random WiC baseline reads no window, the lexical relations two keys of simlex.vocabulary
    assert plan.evaluate.wic_random_params == {"n_resamples": 1000, "confidence_level": 0.95}
    assert plan.evaluate.wic_params["window"] == 5
    assert plan.simlex.spelling == {"spelling_table": True, "spelling_rules": True}
    assert len(plan.simlex.vocabulary) > len(plan.simlex.spelling)
    # a trained model reads its hyper-parameters, not the corpora (its input)
    training = plan.evaluate.training_params(SimpleNamespace(model="sg_w2"))
    assert "corpora" not in training and training["sg"] == 1 and training["window"] == 2
    # a released dataset reads the licence keys of `release` (its version, date and url are its provenance)
    assert plan.release.licence_params == {
        "restricted_formats": ["rf2", "rrf"],
        "restricted_licences": ["SNOMED CT", "UMLS"],
        "assert_licences": [],
    }


def test_ingest_params_are_the_keys_each_script_reads() -> None:
    """Each format's ingest rule (its ``{terminology}`` or ``{corpus}`` constrained to the format) passes the
    keys of the entry that its script reads as ``spec``: INGEST_KEYS of the format, every format one."""
    schema = yaml.safe_load((REPO / "workflow" / "schemas" / "config.schema.yaml").read_text(encoding="utf-8"))
    entry = schema["properties"]["terminologies"]["additionalProperties"]["properties"]
    for smk, keys, formats in (
        ("ingest.smk", TERMINOLOGY_KEYS, entry["format"]["enum"]),
        ("corpora.smk", CORPUS_KEYS, list(FORMATS)),
    ):
        source = (REPO / "workflow" / "rules" / smk).read_text(encoding="utf-8")
        rules = dict(re.findall(r"^rule (\w+):.*?\bof_format\(\"(\w+)\"\)", source, flags=re.M | re.S))
        assert sorted(rules.values()) == sorted(keys) == sorted(formats), smk
        assert source.count("spec=plan.") == len(rules), smk
        for rule, fmt in rules.items():
            script = (REPO / "workflow" / "scripts" / f"{rule}.py").read_text(encoding="utf-8")
            read = re.findall(r"\bspec(?:\[|\.get\()\"(\w+)\"", script)
            assert read and set(read) == set(keys[fmt]), (rule, read)
    assert not {"licence", "format", "source", "sources", "files", "file", "archive"} & {
        key for keys in (*TERMINOLOGY_KEYS.values(), *CORPUS_KEYS.values()) for key in keys
    }


def test_unknown_names_stop_with_the_key_to_set() -> None:
    cfg = config()
    cfg["wic"]["corpora"] = ["nope"]
    with pytest.raises(ValueError, match="wic.corpora"):
        Plan(cfg)
    cfg = config()
    cfg["wic"]["terminology"] = "nope"
    with pytest.raises(ValueError, match="wic.terminology"):
        Plan(cfg)
    cfg = config()
    cfg["wic"]["terminology"] = "hpo"  # configured, but wic has no code systems for it
    with pytest.raises(ValueError, match="wic.code_systems.hpo"):
        Plan(cfg)
    cfg = config()
    cfg["analogies"]["terminologies"] = ["nope"]
    with pytest.raises(ValueError, match="config analogies"):
        Plan(cfg)


def _string_literals(path: Path) -> list[tuple[int, str]]:
    """String constants of a Python file that are not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_paths_are_named_in_one_place() -> None:
    """No results/, logs/ or benchmarks/ path is spelled outside biosem.layout.paths."""
    pattern = re.compile(r"(^|[^\w.])(results|logs|benchmarks)/")
    found = []
    code = [*(REPO / "src" / "biosem").rglob("*.py"), *(REPO / "workflow" / "scripts").glob("*.py")]
    for path in code:
        if path == REPO / "src" / "biosem" / "layout" / "paths.py":
            continue
        found += [f"{path.relative_to(REPO)}:{line}: {s!r}" for line, s in _string_literals(path) if pattern.search(s)]
    for path in [REPO / "Snakefile", *(REPO / "workflow" / "rules").glob("*.smk")]:
        for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not text.lstrip().startswith("#") and re.search(r"[\"'](results|logs|benchmarks)/", text):
                found.append(f"{path.relative_to(REPO)}:{line}: {text.strip()}")
    assert not found, "\n".join(found)


def _declared_file_names() -> tuple[set[str], set[str]]:
    """The file names of the declared outputs (biosem.layout.outputs): whole names (``counts.tsv``) and, of
    names holding a wildcard, their fixed ending when it is more than an extension (``.predictions.parquet``)."""
    names, endings = set(), set()
    for output in outputs.OUTPUTS.values():
        name = output.filename
        if "{" not in name:
            names.add(name)
        elif (ending := name.rsplit("}", 1)[1]).count(".") > 1:
            endings.add(ending)
    return names, endings


def _spells_a_result(literals: list[str], names: set[str], endings: set[str]) -> list[str]:
    """The literals, and pairs of consecutive literals (a call's ``"counts", "tsv"``), that spell a declared
    file name: whole, as a path's last part, or as a name and its extension."""
    found = [
        s for s in literals if any(s == n or s.endswith(f"/{n}") for n in names) or any(s.endswith(e) for e in endings)
    ]
    found += [f"{a!r}, {b!r}" for a, b in itertools.pairwise(literals) if f"{a}.{b}" in names]
    return found


def _python_literals(source: str) -> list[tuple[int, list[str]]]:
    """Per call, its string arguments in order; then every other string constant (docstrings left out)."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            args = [*node.args, *(k.value for k in node.keywords)]
            strings = [a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            out.append((node.lineno, strings))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            out.append((node.lineno, [node.value]))
    return out


_QUOTED = re.compile(r"\"([^\"\\\n]*)\"|'([^'\\\n]*)'")


def _rule_file_literals(source: str) -> list[tuple[int, list[str]]]:
    """The quoted strings of each line of a rule file (comments left out), and the strings of each
    parenthesised argument list over lines."""
    code = "\n".join("" if line.lstrip().startswith("#") else line for line in source.splitlines())
    out = [(n, [a or b for a, b in _QUOTED.findall(line)]) for n, line in enumerate(code.splitlines(), 1)]
    for call in re.finditer(r"\(([^()]*)\)", code):
        out.append((code.count("\n", 0, call.start()) + 1, [a or b for a, b in _QUOTED.findall(call.group(1))]))
    return out


def _spelled_result_file_names(path: Path, source: str) -> list[str]:
    names, endings = _declared_file_names()
    read = _python_literals if path.suffix == ".py" else _rule_file_literals
    hits = [
        f"{path.name}:{line}: {hit}"
        for line, strings in read(source)
        for hit in _spells_a_result(strings, names, endings)
    ]
    return list(dict.fromkeys(hits))  # a call's argument is also a constant of its own


def test_result_file_names_are_declared_once() -> None:
    """No file name of a declared output (biosem.layout.outputs) is spelled in the rules, the scripts or the
    library outside its declaration: rules, targets, the report and the release read the declarations."""
    found = []
    code = [
        REPO / "Snakefile",
        *(REPO / "workflow" / "rules").glob("*.smk"),
        *(REPO / "workflow" / "scripts").glob("*.py"),
        *(REPO / "src" / "biosem").rglob("*.py"),
    ]
    for path in code:
        if path == REPO / "src" / "biosem" / "layout" / "outputs.py":
            continue
        found += [
            f"{path.parent.relative_to(REPO)}/{hit}" for hit in _spelled_result_file_names(path, path.read_text())
        ]
    assert not found, "\n".join(found)


def test_the_file_name_check_finds_the_spellings_it_forbids() -> None:
    python = '''
def targets(folder):
    """Docstrings may name counts.tsv."""
    return [paths.wic("selection_counts", "tsv"), paths.termpairs(t, "counts", ext="tsv"), f"{folder}/composition.tsv",
            "results/datasets/wic/validation.txt", paths.evaluation("termpairs", f"{m}.predictions.parquet")]
'''
    rules = """
# counts=paths.wic("candidate_counts", "tsv") in a comment is left alone
rule r:
    output:
        counts=paths.wic(
            "selection_counts",
            "tsv",
        ),
        sheet=paths.study("wic", "key.csv"),
"""
    found_py = _spelled_result_file_names(Path("x.py"), python)
    assert sorted(hit.split(": ", 1)[1] for hit in found_py) == sorted(
        [
            "'selection_counts', 'tsv'",
            "'counts', 'tsv'",
            "/composition.tsv",
            "results/datasets/wic/validation.txt",
            ".predictions.parquet",
        ]
    ), found_py
    found_smk = _spelled_result_file_names(Path("x.smk"), rules)
    assert {hit.split(": ", 1)[1] for hit in found_smk} == {"'selection_counts', 'tsv'", "key.csv"}, found_smk


_PARAMS_ENTRY = re.compile(r"^(\s+)(\w+)=(.*?),?$")


def _rule_params(source: str) -> list[tuple[int, str, str]]:
    """The entries of every ``params:`` block of a rule file: (line, name, value as written)."""
    out, indent = [], None
    for number, line in enumerate(source.splitlines(), 1):
        stripped = line.strip()
        if stripped == "params:":
            indent = len(line) - len(line.lstrip())
            continue
        if indent is None or not stripped or stripped.startswith("#"):
            continue
        if len(line) - len(line.lstrip()) <= indent:
            indent = None
            continue
        entry = _PARAMS_ENTRY.match(line)
        assert entry, f"{number}: a params entry on one line, name=value: {line!r}"
        out.append((number, entry.group(2), entry.group(3)))
    return out


def _params_not_from_the_plan(source: str) -> list[str]:
    """The rule file's reads of the config (``config[...]``, ``lookup(...)``) and the params entries that are
    neither a value of ``plan.<stage>`` nor a string literal."""
    code = [(n, line) for n, line in enumerate(source.splitlines(), 1) if not line.lstrip().startswith("#")]
    found = [f"{n}: {line.strip()}" for n, line in code if re.search(r"\bconfig\[|\blookup\(", line)]
    found += [
        f"{n}: {name}={value}"
        for n, name, value in _rule_params(source)
        if not re.fullmatch(r"plan\.\w+\.\w+(\(\w*\))?|\"[^\"]*\"", value)
    ]
    return found


def test_rule_params_come_from_the_plan() -> None:
    """Every rule's params are values of its stage in the plan (``plan.<stage>.<name>``, a value or a function of
    the wildcards) or a literal: no rule file reads the config itself."""
    found, entries = [], 0
    for path in [REPO / "Snakefile", *sorted((REPO / "workflow" / "rules").glob("*.smk"))]:
        source = path.read_text(encoding="utf-8")
        entries += len(_rule_params(source))
        found += [f"{path.relative_to(REPO)}:{hit}" for hit in _params_not_from_the_plan(source)]
    assert not found, "\n".join(found)
    assert entries > 90  # every params block was read


def test_the_params_check_finds_what_it_forbids() -> None:
    rules = """
# config["seed"] in a comment is left alone
scattergather:
    corpus=config["corpus_shards"],


rule r:
    params:
        seed=config["seed"],
        root=lookup(dpath="terminologies/{terminology}/path", within=config),
        built=list(plan.evaluate.built_rated),
        spec=plan.sources.spec,
        nltk_data=plan.simlex.nltk_folders(),
        dataset=plan.release.dataset_params(_release_dataset),
        to_params=_release_dataset.to_params(),
        kind="wic",
    script:
        "x.py"
"""
    assert [(name, value) for _, name, value in _rule_params(rules)] == [
        ("seed", 'config["seed"]'),
        ("root", 'lookup(dpath="terminologies/{terminology}/path", within=config)'),
        ("built", "list(plan.evaluate.built_rated)"),
        ("spec", "plan.sources.spec"),
        ("nltk_data", "plan.simlex.nltk_folders()"),
        ("dataset", "plan.release.dataset_params(_release_dataset)"),
        ("to_params", "_release_dataset.to_params()"),
        ("kind", '"wic"'),
    ]
    found = [hit.split(": ", 1)[1] for hit in _params_not_from_the_plan(rules)]
    assert found == [
        'corpus=config["corpus_shards"],',
        'seed=config["seed"],',
        'root=lookup(dpath="terminologies/{terminology}/path", within=config),',
        'seed=config["seed"]',
        'root=lookup(dpath="terminologies/{terminology}/path", within=config)',
        "built=list(plan.evaluate.built_rated)",
        "to_params=_release_dataset.to_params()",
    ], found


def _dry_run(workdir: Path, overlay: dict, target: str) -> str:
    (workdir / "config" / "overlay.yaml").write_text(yaml.safe_dump(overlay))
    result = run_workflow(workdir, 1, "--configfile", *CONFIG_FILES, "config/overlay.yaml", "-n", target)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout + result.stderr


def _overlay(*layers: dict) -> dict:
    """The layers merged in order, as ``--configfile a b`` merges them (none is modified)."""
    import copy

    from snakemake.utils import update_config

    merged: dict = {}
    for layer in layers:
        update_config(merged, copy.deepcopy(layer))
    return merged


def _dry_run_of_rules(workdir: Path, overlay: dict, rules: tuple[str, ...], *targets: str) -> str:
    """A dry run of ``targets`` in which only ``rules`` may run (``--allowed-rules``): the files of other rules
    count as given, so a job of ``rules`` is rescheduled for its own params (or code), not for its inputs."""
    (workdir / "config" / "overlay.yaml").write_text(yaml.safe_dump(overlay))
    extra = ("--configfile", *CONFIG_FILES, "config/overlay.yaml", "-n", "--allowed-rules", *rules, "--", *targets)
    result = run_workflow(workdir, 1, *extra)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout + result.stderr


@pytest.mark.workflow
def test_unrelated_config_edits_rerun_nothing(tmp_path: Path) -> None:
    """Editing a key a rule does not read leaves its built outputs alone (Snakemake's params trigger)."""
    workdir = copy_workflow(tmp_path)
    cfg = config()
    positives = outputs.termpair_positives.path(terminology="hpo")
    candidates = outputs.wic_candidates.template
    split = outputs.wic_counts.template
    random_baseline = outputs.wic_random_scores.template
    lexical = paths.intermediate("lexical_relations", cfg["simlex"]["vocabulary_name"])
    base = {"simlex": {"corpora": ["ncbi_disease"]}}  # the vocabulary of one small corpus
    (workdir / "config" / "overlay.yaml").write_text(yaml.safe_dump(base))
    targets = (positives, split, random_baseline, lexical)
    result = run_workflow(workdir, 2, "--configfile", *CONFIG_FILES, "config/overlay.yaml", "--", *targets)
    assert result.returncode == 0, result.stderr[-5000:]
    edits = {
        "termpairs": {
            "terminologies": [t for t in cfg["termpairs"]["terminologies"] if t != "umls_sample"],
            "joint_search": ["fsn_syn"],
            "random_rounds": 7,
        },
        "wic": {"quota_policy": "scale", "heldout_share": 0.5},
        # what the release says about a source, not which file it is (fetch_source reads FETCH_KEYS)
        "sources": {
            "hpo": {
                "version": "2025-01-16 (edited)",
                "licence": "HPO License",  # another spelling of the same licence
                "attribution": {"title": "Human Phenotype Ontology", "creator": "edited"},
            }
        },
        # what the release says about a terminology or a corpus, not how it is read (an ingest rule reads its
        # format's INGEST_KEYS): the hpo ingestion under the positives, ncbi_disease's under the candidates
        "terminologies": {"hpo": {"licence": "HPO License"}},
        "corpora": {"specs": {"ncbi_disease": {"licence": "NCBI public domain notice"}}},  # was NLM's spelling
        # the random WiC baseline scores no vectors: the context window is not its param
        "evaluate": {"wic": {"window": 7}},
        # the lexical relations read two keys of simlex.vocabulary (spelling); the word counts read min_count
        "simlex": {"vocabulary": {"min_count": 6}},
    }
    overlay = _overlay(base, edits)
    for target in (positives, candidates):
        out = _dry_run(workdir, overlay, target)
        assert "Nothing to be done" in out, out[-3000:]
    out = _dry_run(workdir, _overlay(base, {"evaluate": edits["evaluate"]}), random_baseline)
    assert "Nothing to be done" in out, out[-3000:]
    # A key the rule does read is a change: the split is rescheduled for its params.
    out = _dry_run(workdir, overlay, split)
    assert "split_wic" in out and "build_wic_candidates" not in out, out[-3000:]
    # simlex.vocabulary.min_count is read by the word counts (rebuilt, and the relations after them for their
    # input), not by the lexical relations: neither baseline nor relations is rescheduled for its own params.
    out = _dry_run(workdir, overlay, lexical)
    assert re.search(r"^count_corpus_words\s+1$", out, flags=re.M) and "collect_lexical_relations" in out, out[-3000:]
    rules = ("evaluate_wic_random", "collect_lexical_relations")
    out = _dry_run_of_rules(workdir, overlay, rules, random_baseline, lexical)
    assert "Nothing to be done" in out, out[-3000:]
    # The keys the two rules read are their params.
    read = {"evaluate": {"wic": {"n_resamples": 999}}, "simlex": {"vocabulary": {"spelling_rules": False}}}
    out = _dry_run_of_rules(workdir, _overlay(base, read), rules, random_baseline, lexical)
    changed = re.search(r"params have changed since last execution:\s*\n\s*(.*)", out)
    assert changed and set(changed.group(1).split(", ")) == set(rules), out[-3000:]


@pytest.mark.workflow
def test_an_overlay_removes_a_model_and_names_the_band_corpus(tmp_path: Path) -> None:
    """`evaluate.models.sg_w2: null` plans no sg_w2 job (nor can one be requested); the frequency bands
    count the corpus of `evaluate.rated.frequency_corpus`."""
    workdir = copy_workflow(tmp_path)
    overlay = {"evaluate": {"models": {"sg_w2": None}, "rated": {"frequency_corpus": "biored"}}}
    out = _dry_run(workdir, overlay, "all")
    jobs = dict(re.findall(r"^(\w+)\s+(\d+)$", out, flags=re.M))
    assert jobs["train_word2vec"] == jobs["evaluate_rated_pairs"] == jobs["evaluate_termpairs"] == "3"
    assert jobs["count_frequency_tokens"] == "1"
    # The token counts read biored's documents only (the training corpora are two).
    out = _dry_run(workdir, overlay, outputs.token_counts.template)
    assert dict(re.findall(r"^(\w+)\s+(\d+)$", out, flags=re.M))["ingest_pubtator"] == "1"
    refused = run_workflow(
        workdir,
        1,
        "--configfile",
        *CONFIG_FILES,
        "config/overlay.yaml",
        "-n",
        outputs.rated_scores.path(model="sg_w2"),
    )
    assert refused.returncode != 0 and "MissingRuleException" in refused.stdout, refused.stdout[-2000:]


# Fetched sources are re-checked by every rule that reads them (biosem.sources.verify_fetched).
SOURCE_READERS = {
    "ingest_obo",
    "ingest_mesh",
    "ingest_pubtator",
    "ingest_craft",
    "ingest_conll",
    "parse_usf",
    "aggregate_ratings",
    "evaluate_rated_pairs",
    "encode_strings",
}


def test_one_ingest_rule_per_corpus_format(plan: Plan) -> None:
    """Every configured corpus is ingested by exactly one rule: the rule of its format, whose wildcard
    constraint lists the corpora of that format (``ingest_pubtator``, ``ingest_conll``)."""
    specs = config()["corpora"]["specs"]
    formats = {spec["format"] for spec in specs.values()}
    by_format = {fmt: plan.corpora.of_format(fmt) for fmt in formats}
    assert sorted(itertools.chain(*by_format.values())) == sorted(specs)
    assert by_format["conll"] == sorted(
        ["anatem", "bc2gm", "bionlp11epi", "bionlp11id", "bionlp13cg", "bionlp13pc", "ex_ptm", "genia_pos", "linnaeus"]
    )
    rules = (REPO / "workflow" / "rules" / "corpora.smk").read_text(encoding="utf-8")
    for fmt in formats:
        assert f'corpus=name_pattern(plan.corpora.of_format("{fmt}"))' in rules
        assert f"rule ingest_{fmt}:" in rules
    conll = plan.corpora.inputs(SimpleNamespace(corpus="genia_pos"))
    assert conll == {
        split: f"resources/mtl_genia_pos_{split}/{name}.tsv.gz"
        for split, name in (("train", "train"), ("dev", "devel"), ("test", "test"))
    }
    # the frequency corpora of the default: BC5CDR, NCBI Disease, CRAFT and the token-per-line corpora but
    # BioNLP13CG (its sentences are all in AnatEM)
    frequency = ["bc5cdr", "ncbi_disease", "craft", *(c for c in by_format["conll"] if c != "bionlp13cg")]
    for section in (config()["analogies"], config()["simlex"], config()["evaluate"]["training"]):
        assert section["corpora"] == frequency
    assert set(frequency) <= set(config()["corpora"]["build"])


def test_rules_reading_sources_take_their_checksums(plan: Plan) -> None:
    """Every input function that yields a fetched source has a sidecar list beside it, holding exactly
    the sidecars of the resources/ files (none for a local path)."""
    assert paths.checksums(["resources/go/go.obo", "local/ratings.csv"]) == ["resources/go/go.obo.sha256"]
    assert paths.source_checksum("go", "go.obo") == "resources/go/go.obo.sha256"

    def wc(**kw: str) -> SimpleNamespace:
        return SimpleNamespace(**kw)

    hpo, mesh, terms = wc(terminology="hpo"), wc(terminology="mesh"), plan.terminologies
    cases = [
        ([terms.obo_input(hpo)], terms.obo_checksums(hpo)),
        (terms.mesh_inputs(mesh).values(), terms.mesh_checksums(mesh)),
        (plan.corpora.inputs(wc(corpus="bc5cdr")).values(), plan.corpora.checksums(wc(corpus="bc5cdr"))),
        (plan.corpora.inputs(wc(corpus="craft")).values(), plan.corpora.checksums(wc(corpus="craft"))),
        (plan.corpora.inputs(wc(corpus="genia_pos")).values(), plan.corpora.checksums(wc(corpus="genia_pos"))),
        ([plan.simlex.usf_source], plan.simlex.usf_checksums),
        (
            plan.agreement.ratings_input(wc(ratings="simverb3500")),
            plan.agreement.ratings_checksums(wc(ratings="simverb3500")),
        ),
    ]
    rated = plan.evaluate.rated_inputs(wc(model=next(iter(plan.evaluate.models))))
    cases.append((rated["benchmarks"], plan.evaluate.benchmark_checksums))
    for files, sidecars in cases:
        files = list(files)
        assert files and all(f.startswith(f"{paths.RESOURCES}/") for f in files)
        assert sidecars == [f"{f}.sha256" for f in files]
    local = Plan(config() | {"agreement": {**config()["agreement"], "ratings": {"own": {"path": "r.csv"}}}})
    assert local.agreement.ratings_checksums(wc(ratings="own")) == []


def test_scripts_of_source_readers_verify_before_reading() -> None:
    """The rules with a ``checksums`` input are the source readers, and their scripts re-check first."""
    rules = {}
    for smk in (REPO / "workflow" / "rules").glob("*.smk"):
        for block in re.split(r"\n(?=rule )", smk.read_text(encoding="utf-8")):
            match = re.match(r"rule (\w+):", block)
            if match:
                rules[match.group(1)] = block
    readers = {name for name, block in rules.items() if "        checksums=" in block}
    assert readers == SOURCE_READERS
    for name in sorted(readers):
        script = re.search(r'"\.\./scripts/(\w+\.py)"', rules[name]).group(1)  # type: ignore[union-attr]
        body = (REPO / "workflow" / "scripts" / script).read_text(encoding="utf-8")
        main = body[body.index("def main") :]
        assert "verify_fetched(snakemake.input.checksums)" in main, script
        first_read = min(main.index(s) for s in ("snakemake.input.", "snakemake.input[") if s in main)
        assert main.index("verify_fetched(") <= first_read, script


_FAMILY_PROBE = """
import json
from pathlib import Path
from snakemake.api import SnakemakeApi
from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings, StorageSettings
from biosem.workflow.plan import Plan
files = [Path(f) for f in {files!r}]
with SnakemakeApi(OutputSettings()) as api:
    wf = api.workflow(resource_settings=ResourceSettings(cores=1), config_settings=ConfigSettings(configfiles=files),
                      storage_settings=StorageSettings(), snakefile=Path("Snakefile"))
    workflow = wf._workflow
    rules = {{name: [str(f) for f in workflow.get_rule(name).input] for name in Plan(workflow.config).family_targets}}
    print(json.dumps({{"rules": rules, "plan": Plan(workflow.config).family_targets}}))
"""


@pytest.mark.workflow
def test_each_family_has_a_target_rule_of_its_outputs(tmp_path: Path) -> None:
    """`snakemake termpairs` (wic, analogies, simlex, agreement, evaluate, report_pages) asks for that
    family's part of `rule all`: the rule's input is the plan's targets of the stage, and a dry run plans
    that family's jobs and no other's."""
    workdir = copy_workflow(tmp_path)
    env = dict(os.environ, NLTK_DATA=str(SHARED_DATA / "nltk_data"))
    probe = _FAMILY_PROBE.format(files=list(CONFIG_FILES))
    result = subprocess.run(
        [sys.executable, "-c", probe], check=False, cwd=workdir, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-3000:]
    found = json.loads(result.stdout.splitlines()[-1])
    assert set(found["rules"]) == {*FAMILIES, "report_pages"}
    assert found["rules"] == found["plan"]
    tested = Plan(workflow_config())
    assert found["plan"]["termpairs"] == [b.path for b in tested.termpairs.built()] != []
    assert found["plan"]["wic"] == [b.path for b in tested.wic.built()] != []
    assert found["plan"]["report_pages"] == tested.report.targets() != []
    everything = set(tested.targets())
    assert all(set(paths_of) <= everything for paths_of in found["plan"].values())
    for family, planned, absent in (
        ("termpairs", {"build_termpair_positives", "sample_termpair_negatives"}, {"split_wic", "train_word2vec"}),
        ("wic", {"select_wic_mentions", "split_wic"}, {"build_termpair_positives", "build_analogies"}),
    ):
        out = run_workflow(workdir, 1, family, "-n")
        assert out.returncode == 0, out.stderr[-3000:]
        jobs = dict(re.findall(r"^(\w+)\s+(\d+)$", out.stdout + out.stderr, flags=re.M))
        assert jobs[family] == "1" and planned <= set(jobs), jobs
        assert not absent & set(jobs), jobs
