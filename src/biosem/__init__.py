"""biosem: regenerate biomedical semantic-evaluation datasets from their sources."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("biosem")  # the one version source: pyproject.toml [project] version
except PackageNotFoundError:  # imported from a checkout that was never installed
    __version__ = "0+unknown"
