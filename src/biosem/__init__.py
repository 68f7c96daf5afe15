"""biosem: regenerate biomedical semantic-evaluation datasets from their sources."""

__version__ = "0.1.0"
