"""The arguments of the checks that have two command lines, declared once.

``biosem validate-wic`` and ``python -m biosem.wic.validate`` take the arguments of
:func:`add_validate_wic_arguments`; ``biosem check-release`` and ``python -m biosem.release.check`` those of
:func:`add_check_release_arguments`. Each check's ``run`` reads them (:func:`biosem.wic.validate.run`,
:func:`biosem.release.check.run`).

This module imports only the standard library and :mod:`biosem.layout.paths`, so that :mod:`biosem.cli`
builds its parser (``biosem --help``) without importing the checks (pandas, pyarrow and mlcroissant take
seconds to import); a default held by a check's package is None here, resolved by the check's ``run``.
"""

from __future__ import annotations

import argparse

from biosem.layout import paths


def add_validate_wic_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of the BioWiC split-set check to ``parser``: ``folder``, ``--quotas FILE`` and
    ``--train-cap N`` (None: :data:`biosem.wic.TRAIN_SENTENCE_CAP`, resolved by :func:`biosem.wic.validate.run`)."""
    parser.add_argument("folder", help="folder with any of train.json, dev.json, test.json")
    parser.add_argument(
        "--quotas", metavar="FILE", help="quotas JSON (default: FOLDER/quotas.json if present, else the paper's)"
    )
    parser.add_argument(
        "--train-cap",
        type=int,
        default=None,
        metavar="N",
        help="max uses of a sentence in train (default: the reference's cap)",
    )


def add_check_release_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of the release check to ``parser``: ``folders``, one or more."""
    parser.add_argument(
        "folders",
        nargs="+",
        help=(
            f"release roots ({paths.release('0.1.0')}), release folders ({paths.release('0.1.0', 'public')}, "
            "under any name) or dataset folders"
        ),
    )
