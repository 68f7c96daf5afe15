"""The workflow config: its files merged in order (as ``snakemake --configfile`` merges them) and validated
against ``workflow/schemas/config.schema.yaml`` with its defaults set, with one short message when it does not
validate.

``snakemake.utils.validate`` reports a failure with the whole schema and the whole config (about 1,100 lines
for a misspelt top-level key); :func:`validate_config` turns the first error into a few lines: the key, the
config file (or ``--config`` item) that set it, and what is allowed there (the keys of that section, with
the closest one to a misspelt key, the type or the values). ``workflow/rules/common.smk`` and
``biosem info`` / ``biosem evaluate`` (:mod:`biosem.cli`) validate through it.
"""

from __future__ import annotations

import copy
import difflib
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

CONFIG_FILE = "config/config.yaml"
"""The embedded default, relative to the repository root (Snakefile ``configfile:``)."""
CONFIG_SCHEMA = "workflow/schemas/config.schema.yaml"
"""The config's schema, relative to the repository root."""
README = "config/README.md"
MAX_MESSAGE = 160
"""Characters of a validator's own message kept in the summary (the rest is the instance, repeated)."""


class ConfigError(ValueError):
    """A config that does not validate; the message (a few lines) names the key, where it was set and what
    is allowed."""


def read_config_files(files: Sequence[str | Path]) -> list[tuple[str, dict[str, Any]]]:
    """``(file, its YAML mapping)`` of each config file, in order (an empty file is ``{}``).

    Raises:
        OSError: a file cannot be read (``FileNotFoundError`` names it).
        yaml.YAMLError: a file is not YAML.
        ConfigError: a file does not hold a mapping at its top level.
    """
    import yaml

    layers = []
    for path in files:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        path = shown_path(path)
        if not isinstance(data, dict):
            raise ConfigError(
                f"config file {path}: expected a mapping of keys at the top level, found {type(data).__name__}"
            )
        layers.append((str(path), data))
    return layers


def shown_path(path: str | Path) -> str:
    """``path`` as messages show it: relative to the current folder when it lies under it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def merge_config(layers: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, Any]:
    """The layers merged key by key in order, later ones winning (``snakemake.utils.update_config``)."""
    from snakemake.utils import update_config

    config: dict[str, Any] = {}
    for _, data in layers:
        update_config(config, copy.deepcopy(dict(data)))
    return config


def validate_config(
    config: dict[str, Any],
    schema: str | Path,
    files: Sequence[str | Path] = (),
    config_args: Sequence[str] = (),
) -> None:
    """Validate ``config`` against ``schema`` (a path; relative ``$ref`` s resolve beside it), setting the
    schema's defaults in place (``snakemake.utils.validate(set_default=True)``).

    Args:
        files: the config files merged into ``config``, in order (read again only to say which one set a
            key that fails).
        config_args: ``--config`` items (``key=value``), applied after the files.

    Raises:
        ConfigError: the config does not validate (:func:`describe_error`).
    """
    import jsonschema
    from snakemake.utils import validate
    from snakemake_interface_common.exceptions import WorkflowError

    try:
        validate(config, str(schema), set_default=True)
    except WorkflowError as exc:
        # snakemake raises its WorkflowError while handling jsonschema's error (its context).
        error = exc.__cause__ or exc.__context__
        if not isinstance(error, jsonschema.ValidationError):
            raise
        raise ConfigError(describe_error(error, _layers_or_none(files), config_args)) from None


def _layers_or_none(files: Sequence[str | Path]) -> list[tuple[str, dict[str, Any]]]:
    """The config files' contents, or none if one cannot be read (the message then names no file)."""
    try:
        return read_config_files(files)
    except Exception:  # noqa: BLE001 - only used to say where a key came from
        return []


def key_name(path: Sequence[Any]) -> str:
    """A config key path as written in the docs: ``evaluate.models.glove.lowercase``; ``[2]`` for list items."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def origin(
    path: Sequence[Any], layers: Sequence[tuple[str, Mapping[str, Any]]], config_args: Sequence[str] = ()
) -> str:
    """Where the value at ``path`` was set: the last ``--config`` item or config file holding it (the deepest
    prefix of ``path`` any of them holds), or ``the schema's defaults``."""
    for depth in range(len(path), 0, -1):
        prefix = list(path[:depth])
        for item in reversed(list(config_args)):
            if item.split("=", 1)[0].strip() == str(prefix[0]):
                return f"--config {item}"
        for name, data in reversed(list(layers)):
            node: Any = data
            for part in prefix:
                if isinstance(node, Mapping) and part in node:
                    node = node[part]
                elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                    node = node[part]
                else:
                    break
            else:
                return name
    return layers[-1][0] if layers and not path else "the schema's defaults"


def _allowed_keys(schema: Mapping[str, Any]) -> list[str]:
    """The keys a subschema's ``properties`` names."""
    return sorted(schema.get("properties", {}))


def _extra_keys(instance: Mapping[str, Any], schema: Mapping[str, Any]) -> list[str]:
    """The keys of ``instance`` the subschema neither names nor matches by ``patternProperties``."""
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    allowed = set(schema.get("properties", {}))
    return sorted(str(k) for k in instance if k not in allowed and not any(p.search(str(k)) for p in patterns))


def describe_error(
    error: Any, layers: Sequence[tuple[str, Mapping[str, Any]]] = (), config_args: Sequence[str] = ()
) -> str:
    """A jsonschema ``ValidationError`` of the config as a few lines: the key, where it was set, what is
    allowed there, and where the keys are described.

    * an unknown key (``additionalProperties``): the key, the file that set it, the allowed keys of its
      section and the closest of them (``seed`` for ``sede``);
    * a wrong type or value (``type``, ``enum``, ``const``): the expected type or values and the value found;
    * anything else: the validator's own message, cut to :data:`MAX_MESSAGE` characters.
    """
    path = list(error.absolute_path)
    section = key_name(path) or "the top level"
    where = f"in {section}" if path else "at the top level"
    lines: list[str]
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        extra = _extra_keys(error.instance, error.schema) or ["?"]
        allowed = _allowed_keys(error.schema)
        key = key_name([*path, extra[0]])
        lines = [f"config key {key} is not allowed (set in {origin([*path, extra[0]], layers, config_args)})"]
        close = difflib.get_close_matches(extra[0], allowed, n=1)
        if close:
            lines.append(f"did you mean {key_name([*path, close[0]])}?")
        lines.append(f"keys allowed {where}: {', '.join(allowed) if allowed else 'none'}")
        if len(extra) > 1:
            lines.append(f"also not allowed there: {', '.join(extra[1:])}")
    elif error.validator == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        lines = [
            f"config key {section} must be of type {expected}, found {_short(error.instance)} "
            f"(set in {origin(path, layers, config_args)})"
        ]
    elif error.validator in ("enum", "const"):
        values = error.validator_value if error.validator == "enum" else [error.validator_value]
        lines = [
            f"config key {section} must be one of {', '.join(_short(v) for v in values)}, found "
            f"{_short(error.instance)} (set in {origin(path, layers, config_args)})"
        ]
    else:
        message = error.message if len(error.message) <= MAX_MESSAGE else error.message[: MAX_MESSAGE - 1] + "…"
        lines = [f"config key {section}: {message} (set in {origin(path, layers, config_args)})"]
    chapter = f" § {path[0]}" if path and isinstance(path[0], str) else ""
    lines.append(f"every config key is described in {README}{chapter}")
    return "\n".join(lines)


def _short(value: Any, limit: int = 60) -> str:
    """A value as YAML-ish text, cut to ``limit`` characters."""
    text = repr(value) if not isinstance(value, bool) else str(value).lower()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def load_config(
    configfiles: Sequence[str | Path] = (), base: str | Path = CONFIG_FILE, schema: str | Path = CONFIG_SCHEMA
) -> dict[str, Any]:
    """``base`` with each of ``configfiles`` merged on it key by key (as ``snakemake --configfile``), validated
    against ``schema`` with its defaults set (:func:`validate_config`).

    Raises:
        OSError: a config file cannot be read.
        yaml.YAMLError: a config file is not YAML.
        ConfigError: the merged config does not validate.
    """
    files = [base, *configfiles]
    config = merge_config(read_config_files(files))
    validate_config(config, schema, files)
    return config
