# Corpus ingestion (PubTator: BC5CDR, NCBI Disease, MedMentions) into documents/mentions/sentences.


def corpora_targets():
    """Outputs of this stage requested by `rule all`."""
    return []
