# Human-judgement studies and agreement statistics (IAA-1/IAA-2, Krippendorff's alpha, kappa).


def agreement_targets():
    """Outputs of this stage requested by `rule all`."""
    return []
