"""tableref: a camera referee for tabletop games."""

__version__ = "0.1.0"
