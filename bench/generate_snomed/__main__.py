"""Command line of the synthetic SNOMED CT RF2 generator: ``python -m bench.generate_snomed``.

Run from the repository root; writes ``<out>/Snapshot/`` with :func:`generate_rf2` and, unless
``--quiet``, prints the row counts and string statistics of the release.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __doc__ as PACKAGE_DOC
from .generate import DEFAULT_CONCEPTS, generate_rf2


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, generate the release and return the exit status (0)."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.generate_snomed",
        description=(PACKAGE_DOC or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--out", required=True, type=Path, help="output directory (gets Snapshot/)")
    parser.add_argument(
        "--concepts", type=int, default=DEFAULT_CONCEPTS, help=f"number of concepts (default {DEFAULT_CONCEPTS:,})"
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="source mirror with bc5cdr/, ncbi-disease/, nltk_data/, obo/ "
        "(default: $BIOSEM_DATA_DIR or ../shared/data)",
    )
    parser.add_argument(
        "--nn-sample", type=int, default=0, help="also report nearest-neighbour distances for this many FSNs"
    )
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)
    generate_rf2(
        args.out, args.concepts, args.seed, data_dir=args.data_dir, verbose=not args.quiet, nn_sample=args.nn_sample
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
