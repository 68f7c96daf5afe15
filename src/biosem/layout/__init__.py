"""Where the workflow's files are: :mod:`~biosem.layout.paths` spells every folder and path. It imports
nothing else from biosem, so any module (the workflow's wiring, the release, the sources) may read it.
"""
