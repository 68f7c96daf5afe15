# Helpers of the simlex stage (functions, config checks); its rules are in ../simlex.smk.

# Bio-SimLex / Bio-SimVerb vocabulary, pairs and survey (Chiu et al. 2018).


import biosem.workflow.simlex as simlex_workflow

SIMLEX = config["simlex"]
SIMLEX_NAME = SIMLEX["vocabulary_name"]
SIMLEX_GROUPS = list(range(1, SIMLEX["survey"]["groups"] + 1))
SIMLEX_NLTK = simlex_workflow.nltk_folders(SIMLEX, config["mirror_dirs"])


def simlex_targets():
    """Outputs of this stage requested by `rule all`."""
    return simlex_workflow.targets(SIMLEX)
