"""Typed errors of the vision package."""


class VisionError(ValueError):
    """Base of every vision error."""


class ImageError(VisionError):
    """An image that cannot be used: missing file, not an image, truncated, empty."""


class SourceError(VisionError):
    """A frame source that cannot be opened or has failed for good."""


class SourceLost(SourceError):
    """A live source (camera, stream) that was working and stopped; it may come back."""
