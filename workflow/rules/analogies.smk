# BMASS analogies from terminology relations (Newman-Griffis et al. 2017).


def analogies_targets():
    """Outputs of this stage requested by `rule all`."""
    return []
