# Public sources: from a mirror folder or their URL, verified against the pinned sha256.


rule fetch_source:
    output:
        "resources/{source}/{filename}",
    log:
        "logs/fetch_source/{source}/{filename}.log",
    localrule: True
    conda:
        "../envs/biosem.yaml"
    params:
        spec=source_spec,
        mirror_dirs=config["mirror_dirs"],
    script:
        "../scripts/fetch_source.py"
