# Public sources: from a mirror folder or their URL, verified against the pinned sha256, which is kept
# beside the file (<file>.sha256) for the rules reading it to re-check (biosem.sources.verify_fetched).


rule fetch_source:
    output:
        source=paths.source("{source}", "{filename}"),
        checksum=paths.source_checksum("{source}", "{filename}"),
    log:
        paths.log("fetch_source", "{source}/{filename}"),
    wildcard_constraints:
        filename=r"[^/]+(?<!\.sha256)",  # a sidecar is this rule's second output, not a source
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        spec=plan.sources.spec,
        mirror_dirs=plan.sources.mirror_dirs,
    script:
        "../scripts/fetch_source.py"
