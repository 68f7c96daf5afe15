# Bio-SimLex / Bio-SimVerb vocabulary, pairs and survey (Chiu et al. 2018).


def simlex_targets():
    """Outputs of this stage requested by `rule all`."""
    return []
