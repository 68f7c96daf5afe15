"""The workflow config's short validation message (biosem.workflow.config): the key, the file that set it and
what is allowed there, in a few lines instead of Snakemake's dump of the schema and the config."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import REPO

from biosem.workflow.config import ConfigError, load_config, origin

BASE = REPO / "config" / "config.yaml"
SCHEMA = REPO / "workflow" / "schemas" / "config.schema.yaml"


def _message(tmp_path: Path, overlay: dict) -> str:
    path = tmp_path / "overlay.yaml"
    path.write_text(yaml.safe_dump(overlay))
    with pytest.raises(ConfigError) as caught:
        load_config([path], BASE, SCHEMA)
    return str(caught.value)


def test_a_misspelt_top_level_key(tmp_path: Path) -> None:
    lines = _message(tmp_path, {"sede": 7}).splitlines()
    assert lines[0].startswith("config key sede is not allowed (set in ") and lines[0].endswith("overlay.yaml)")
    assert lines[1] == "did you mean seed?"
    assert lines[2].startswith("keys allowed at the top level: ") and "corpus_shards, evaluate" in lines[2]
    assert lines[-1] == "every config key is described in config/README.md"
    assert len(lines) == 4


def test_a_nested_value_of_the_wrong_type(tmp_path: Path) -> None:
    lines = _message(tmp_path, {"termpairs": {"easy_max_distance": "five"}}).splitlines()
    assert lines[0].startswith("config key termpairs.easy_max_distance must be of type integer, found 'five'")
    assert lines[1] == "every config key is described in config/README.md § termpairs"


def test_the_default_validates_and_the_origin_is_the_last_layer_setting_the_key() -> None:
    config = load_config([], BASE, SCHEMA)
    assert isinstance(config["seed"], int)
    layers = [("a.yaml", {"seed": 1, "wic": {"heldout_share": 0.5}}), ("b.yaml", {"seed": 2})]
    assert origin(["seed"], layers) == "b.yaml"
    assert origin(["wic", "heldout_share"], layers) == "a.yaml"
    assert origin(["seed"], layers, ["seed=3"]) == "--config seed=3"
    assert origin(["evaluate", "x"], layers) == "the schema's defaults"
