"""The library's structure (issue 41): no import cycle in ``src/biosem``, no module over 1,000 lines.

The import graph is read from the source with the standard library's ``ast``: every ``import`` and
``from ... import`` of a biosem module counts, at module level and inside functions, methods and
``try`` blocks alike (an import inside a function only hides a cycle until the function runs); imports
under ``if TYPE_CHECKING:`` do not run and do not count. A cycle is a strongly connected component of
more than one module (``scipy.sparse.csgraph``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

SRC = Path(__file__).resolve().parents[2] / "src"
MAX_LINES = 1000
DATA_TABLES: frozenset[str] = frozenset()
"""Modules that only hold data tables, which may be longer (none today)."""


def module_files(src: Path, package: str) -> dict[str, Path]:
    """Module name -> file of every module of ``package`` under ``src``: ``*.py`` files (a package is its
    ``__init__.py``) and C extension sources (``*.c``, named as the module they build)."""
    found = {}
    for path in sorted((src / package).rglob("*")):
        if path.suffix not in (".py", ".c"):
            continue
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` blocks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and ast.unparse(child.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
                stack.extend(child.orelse)
                continue
            stack.append(child)


def imported_modules(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that module ``name`` (file ``path``) imports when it runs: ``import a.b``
    is ``a.b``; ``from a import b`` is ``a.b`` where that is a module, else ``a``; relative imports
    are resolved against ``name``'s package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, *([base] if base else [])])
            for alias in node.names:
                targets.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {t for t in targets if t in known and t != name}


def import_graph(src: Path, package: str) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (see :func:`imported_modules`)."""
    files = module_files(src, package)
    known = set(files)
    return {
        name: imported_modules(name, path, known) if path.suffix == ".py" else set() for name, path in files.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted, largest first."""
    names = sorted(graph)
    index = {n: i for i, n in enumerate(names)}
    rows = [index[a] for a, targets in graph.items() for _ in targets]
    cols = [index[b] for targets in graph.values() for b in targets]
    adjacency = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(names), len(names)))
    _, labels = connected_components(adjacency, directed=True, connection="strong")
    components = [sorted(n for n, label in zip(names, labels) if label == k) for k in np.unique(labels)]
    return sorted((c for c in components if len(c) > 1), key=lambda c: (-len(c), c))


def test_the_graph_is_read_from_the_source() -> None:
    """Known edges of the package (module level, a package's re-export, a C extension) are found."""
    graph = import_graph(SRC, "biosem")
    assert len(graph) > 120
    assert "biosem.terminology.rrf.reader" in graph["biosem.terminology.rrf.umls"]
    assert "biosem.terminology.rrf.umls" in graph["biosem.terminology.rrf"]
    assert "biosem.terminology.rrf._rrf" in graph["biosem.terminology.rrf.kernels"]
    assert "biosem.levenshtein._lev512" in graph["biosem.levenshtein.kernels"]
    assert "biosem.agreement.sheets" in graph["biosem.agreement.interchange"]


def test_no_import_cycle_in_biosem() -> None:
    assert cycles(import_graph(SRC, "biosem")) == []


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path: Path) -> None:
    """The detector on a made-up package: a <-> b through a function-level import, c -> a, TYPE_CHECKING
    imports ignored, a relative import resolved."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.b import x\n")
    (pkg / "b.py").write_text("x = 1\n\n\ndef f():\n    from pkg import a\n\n    return a\n")
    (pkg / "c.py").write_text(
        "from . import a\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.d\n"
    )
    (pkg / "d.py").write_text("import pkg.c\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}, "pkg.c": {"pkg.a"}, "pkg.d": {"pkg.c"}}
    assert cycles(graph) == [["pkg.a", "pkg.b"]]


def test_no_module_over_1000_lines() -> None:
    lengths = {
        ".".join(p.relative_to(SRC).with_suffix("").parts): len(p.read_text(encoding="utf-8").splitlines())
        for p in (SRC / "biosem").rglob("*.py")
    }
    assert len(lengths) > 120 and max(lengths.values()) > 500  # the files were read
    assert {name: n for name, n in lengths.items() if n > MAX_LINES and name not in DATA_TABLES} == {}
