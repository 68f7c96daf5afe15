# Releases: dataset cards, Croissant, checksums, licence guard.


def release_targets():
    """Outputs of this stage requested by `rule all`."""
    return []
