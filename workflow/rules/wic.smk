# BioWiC word-in-context splits (Rouhizadeh et al., Scientific Data 2024).


def wic_targets():
    """Outputs of this stage requested by `rule all`."""
    return []
