"""ArUco markers: dictionary names, and detection (image -> markers with id and 4 corners)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .errors import MarkerError
from .images import to_gray

#: The dictionary of the table markers unless a profile or option says otherwise.
DEFAULT_DICTIONARY = "DICT_4X4_50"

#: Corner refinement window half-size in pixels (OpenCV's default is 5; markers in a table
#: view are 40-150 px wide, so a small window keeps it on the marker's own edge).
_REFINE_WINDOW_PX = 5
#: Stop corner refinement after this many iterations or when a step is below this (px).
_REFINE_MAX_ITER = 50
_REFINE_EPS_PX = 0.01


def dictionary(name: str) -> cv2.aruco.Dictionary:
    """Return OpenCV's predefined ArUco dictionary called ``name`` (e.g. ``"DICT_4X4_50"``).

    Raises
    ------
    MarkerError
        ``name`` is not one of OpenCV's predefined dictionaries.
    """
    code = getattr(cv2.aruco, name, None) if name.startswith("DICT_") else None
    if not isinstance(code, int):
        known = ", ".join(dictionary_names())
        raise MarkerError(f"unknown ArUco dictionary {name!r}: use one of {known}")
    return cv2.aruco.getPredefinedDictionary(code)


def dictionary_names() -> list[str]:
    """Names of OpenCV's predefined ArUco dictionaries, e.g. ``DICT_4X4_50``."""
    return sorted(n for n in dir(cv2.aruco) if n.startswith("DICT_") and isinstance(getattr(cv2.aruco, n), int))


def dictionary_size(name: str) -> int:
    """Number of markers (valid ids ``0..n-1``) in the dictionary called ``name``."""
    return int(dictionary(name).bytesList.shape[0])


@dataclass(frozen=True, eq=False)
class DetectedMarker:
    """One ArUco marker found in an image.

    Attributes
    ----------
    id : int
        The marker's id in its dictionary.
    corners : ndarray of shape (4, 2), float64, pixels
        Image positions of the marker's outer black square, in ArUco order: the printed
        marker's top-left, top-right, bottom-right, bottom-left corner.
    """

    id: int
    corners: np.ndarray

    def __post_init__(self) -> None:
        corners = np.array(self.corners, dtype=np.float64).reshape(-1, 2) if np.size(self.corners) == 8 else None
        if corners is None:
            raise MarkerError(f"a marker has 4 corners (4x2 numbers), got shape {np.shape(self.corners)}")
        if not np.all(np.isfinite(corners)):
            raise MarkerError(f"marker {self.id} has non-finite corners: {corners.tolist()}")
        corners.setflags(write=False)
        object.__setattr__(self, "corners", corners)
        object.__setattr__(self, "id", int(self.id))


def detect_markers(image: np.ndarray, dictionary_name: str = DEFAULT_DICTIONARY) -> list[DetectedMarker]:
    """Find the ArUco markers of one dictionary in an image, with sub-pixel corners.

    Pure: no file or camera access; the digital twin's ground-truth check calls it too.
    A marker id seen twice is returned twice (the caller decides what that means).

    Parameters
    ----------
    image : ndarray of shape (H, W, 3) BGR or (H, W) grey, uint8
        The camera image (distorted as it comes from the camera).
    dictionary_name : str
        An OpenCV predefined dictionary, e.g. ``"DICT_4X4_50"``.

    Returns
    -------
    list of DetectedMarker
        Sorted by id, corners in image pixels.
    """
    gray = to_gray(image)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = _REFINE_WINDOW_PX
    params.cornerRefinementMaxIterations = _REFINE_MAX_ITER
    params.cornerRefinementMinAccuracy = _REFINE_EPS_PX
    detector = cv2.aruco.ArucoDetector(dictionary(dictionary_name), params)
    corners, ids, _rejected = detector.detectMarkers(gray)
    if ids is None:
        return []
    found = [DetectedMarker(int(i), c.reshape(4, 2)) for i, c in zip(ids.ravel(), corners)]
    return sorted(found, key=lambda m: m.id)
