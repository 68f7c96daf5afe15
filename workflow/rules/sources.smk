# Public sources: from a mirror folder or their URL, verified against the pinned sha256.


rule fetch_source:
    output:
        paths.source("{source}", "{filename}"),
    log:
        paths.log("fetch_source", "{source}/{filename}"),
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        spec=plan.fetch_spec,
        mirror_dirs=config["mirror_dirs"],
    script:
        "../scripts/fetch_source.py"
