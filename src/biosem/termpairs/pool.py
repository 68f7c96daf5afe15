"""The terms a dataset's negatives are drawn from: its pool (shared by both negative strategies)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass
class TermPool:
    """Distinct lowercased terms with one original spelling each and their component ids."""

    lower: np.ndarray  # object array, sorted unique
    original: np.ndarray  # object array, first original spelling in sorted order
    component: np.ndarray  # int64

    @classmethod
    def from_terms(cls, terms: pd.Series, components: pd.Series) -> TermPool:
        df = pd.DataFrame({"original": terms.to_numpy(dtype=object)})
        df["lower"] = df["original"].str.lower()
        df = df.sort_values(["lower", "original"], kind="stable").drop_duplicates("lower")
        comp = components.reindex(df["lower"]).to_numpy()
        if np.isnan(comp.astype(float)).any():
            raise ValueError("every pool term must belong to a similarity component")
        return cls(df["lower"].to_numpy(dtype=object), df["original"].to_numpy(dtype=object), comp.astype(np.int64))

    def __len__(self) -> int:
        return int(self.lower.size)

    def find(self, lower: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.lower, lower)


def term_lengths(strings: np.ndarray) -> np.ndarray:
    return np.fromiter((len(x) for x in strings), dtype=np.int64, count=len(strings))
