"""Typed errors of calibration: each says what is wrong and, where it helps, what to do."""


class CalibrationError(ValueError):
    """Base of every calibration error (bad pattern spec, too few views, bad profile...)."""
