# Scores of word/term representations on every built dataset and the external benchmarks.


def evaluate_targets():
    """Outputs of this stage requested by `rule all`."""
    return []
