"""The workflow's wiring: output paths, input functions and target lists of every stage.

``workflow/rules/common.smk`` builds one :class:`biosem.workflow.plan.Plan` from the validated config;
the rule files read paths from :mod:`biosem.layout.paths` and input functions and params from the plan
(``plan.<stage>``; keys picked with :func:`biosem.workflow.params.pick`).
"""
