"""Where the workflow's files are: :mod:`~biosem.layout.paths` spells every folder (and the paths of sources,
intermediates, logs and releases); :mod:`~biosem.layout.outputs` declares every file a stage writes under
``results/``, once. Neither imports anything else from biosem, so any module (the workflow's wiring, the
release, the sources) may read them.
"""
