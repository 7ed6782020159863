"""Typed errors of calibration: each says what is wrong and, where it helps, what to do."""


class CalibrationError(ValueError):
    """Base of every calibration error (bad pattern spec, too few views, bad profile...)."""


class PatternSpecError(CalibrationError):
    """A calibration pattern spec (``chessboard:9x6``, ``charuco:...``) that cannot be parsed."""


class TooFewViewsError(CalibrationError):
    """Fewer usable calibration views than needed; the message lists why each was rejected."""


class MarkerError(CalibrationError):
    """The table markers: an unknown dictionary, a bad layout, or too few markers visible."""


class ProfileError(CalibrationError):
    """A calibration profile that is missing, malformed, or of an unknown version.

    The message names the file and the field (``intrinsics.camera_matrix``) that is wrong.
    """


class ProfileMismatchError(CalibrationError):
    """A profile that does not fit the frame it is applied to (e.g. another image size)."""
