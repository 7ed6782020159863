"""Classical readings of the board's spaces on the rectified table: colour and card seams.

Every space is resampled to a small upright patch (:data:`PATCH` px a side, the space and
nothing around it). On it:

* **colour**: the strongly coloured pixels of a ring between the space's middle (where a
  token stands) and its edge (where a card's margin and border lie), named by the nearest
  reference hue: the profile's colour references when it has them, else the hues of the
  board's own spaces (so a set printed or lit differently calibrates itself);
* **same card or not**: between two neighbouring spaces, a card's own halves meet at a thin
  white split, two pieces side by side show a wide pale band (margins, ink, board): the share
  of pale pixels in a strip along the shared edge.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

#: Side (px) of the patch each space is resampled to.
PATCH = 24
#: Colour ring: from this share of the side from the middle (a token's radius is about 0.27
#: of a space) out to this share from the edge (a card's margin and border).
RING_INNER, RING_OUTER_INSET = 0.3, 0.14
#: Pixels whose saturation and value (HSV, 0-255) reach these count for the colour. VALUE was
#: 50 until 2026-12-04 (evening): a green space in a shadow (validation render 2000828: value
#: about 42, saturation 180) was left without a colour. At 35, boards exactly right 211 -> 215
#: of 2000750..2000999 (wrong spaces 117 -> 113), 2000300..2000449 and 2000450..2000749 as
#: before; 25 the same, 40 one board fewer.
COLOUR_SATURATION, COLOUR_VALUE = 110, 35
#: The strip along a shared edge: half-width as a share of the side; two pieces side by side
#: when at least SEAM_PALE of it is pale (see :func:`seam_pale`).
SEAM_HALF, SEAM_PALE = 0.15, 0.5
#: Pale: saturation (HSV, 0-255) below this (white card margins, ink, the board's base).
PALE_SATURATION = 80
#: Ink: value (HSV, 0-255) below this (a border's line blurred into the colour beside it).
INK_VALUE = 100


def cell_patches(rect: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Each space's quad (N, 4, 2) of ``rect`` (px, top-left first) resampled to a patch:
    (N, PATCH, PATCH, 3) uint8 BGR, one remap for all."""
    n = len(quads)
    t = (np.arange(PATCH) + 0.5) / PATCH
    u, v = np.meshgrid(t, t)  # u across, v down
    q = quads[:, None, None, :, :]
    top = q[..., 0, :] + (q[..., 1, :] - q[..., 0, :]) * u[None, ..., None]
    bottom = q[..., 3, :] + (q[..., 2, :] - q[..., 3, :]) * u[None, ..., None]
    pts = (top + (bottom - top) * v[None, ..., None]).astype(np.float32).reshape(n * PATCH, PATCH, 2)
    out = cv2.remap(rect, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(n, PATCH, PATCH, 3)


def _ring() -> np.ndarray:
    """The colour ring's mask of a patch, bool (PATCH, PATCH)."""
    c = (np.arange(PATCH) + 0.5) / PATCH - 0.5
    x, y = np.meshgrid(c, c)
    return (np.hypot(x, y) >= RING_INNER) & (np.maximum(np.abs(x), np.abs(y)) <= 0.5 - RING_OUTER_INSET)


RING = _ring()


def patch_hsv(patches: np.ndarray) -> np.ndarray:
    """HSV (N, PATCH, PATCH, 3) uint8 of BGR patches."""
    n = len(patches)
    return cv2.cvtColor(patches.reshape(n * PATCH, PATCH, 3), cv2.COLOR_BGR2HSV).reshape(patches.shape)


def reference_hues(colours_bgr: Mapping[str, tuple[float, float, float]]) -> dict[str, float]:
    """OpenCV hue (0-180) of each reference colour."""
    return {name: float(cv2.cvtColor(np.uint8([[np.clip(bgr, 0, 255)]]), cv2.COLOR_BGR2HSV)[0, 0, 0])
            for name, bgr in colours_bgr.items()}


def _hue_gap(a: np.ndarray, b: float) -> np.ndarray:
    d = np.abs(a - b)
    return np.minimum(d, 180.0 - d)


#: A ring pixel farther than this hue gap (OpenCV hue, 0-180) from every colour of the board
#: shows no colour of the board: a purple cup, a pink sleeve, a hand. Calibration takes for a
#: colour only the pixels within it of its current estimate, so that such things over a few
#: spaces do not drag red towards them (validation renders 2000129 and 2000252 of Ligretto:
#: red calibrated to hue 160 and 149, every red space read yellow); and a space's colour is read
#: only where its board colour is at least :data:`~.ligretto.MIN_COLOUR_SHARE` of all its
#: coloured ring pixels, those foreign ones included (:func:`colours_of`).
BOARD_REACH = 20.0


def _board_colour(gaps: np.ndarray, axis: int) -> np.ndarray:
    """The index of the board colour nearest each pixel, from its hue ``gaps`` to every colour
    along ``axis``; -1 where none lies within :data:`BOARD_REACH`."""
    return np.where(gaps.min(axis=axis) <= BOARD_REACH, np.argmin(gaps, axis=axis), -1)


def calibrate_hues(hsv: np.ndarray, start: Mapping[str, float], rounds: int = 2) -> dict[str, float]:
    """The board's own hue of each colour: the circular mean hue of the ring pixels nearest
    to each starting hue and within :data:`BOARD_REACH` of it (a k-means seeded by
    ``start`` that ignores far hues; a colour nobody shows keeps its start)."""
    ring = hsv[:, RING]
    good = (ring[..., 1] >= COLOUR_SATURATION) & (ring[..., 2] >= COLOUR_VALUE)
    h = ring[..., 0][good].astype(np.float64)
    names = list(start)
    centres = np.array([start[n] for n in names])
    for _ in range(rounds):
        if not len(h):
            break
        gaps = np.stack([_hue_gap(h, c) for c in centres])
        nearest = _board_colour(gaps, axis=0)
        for k in range(len(names)):
            mine = h[nearest == k]
            if len(mine):
                ang = mine * (2 * np.pi / 180.0)
                centres[k] = (np.degrees(np.arctan2(np.sin(ang).mean(), np.cos(ang).mean())) / 2.0) % 180.0
    return dict(zip(names, (float(c) for c in centres)))


def colours_of(hsv: np.ndarray, hues: Mapping[str, float]) -> tuple[list[str | None], np.ndarray]:
    """Each patch's colour name (None when its ring shows too little colour) and the share of
    its coloured ring pixels that agree (the confidence). A ring with too few strongly coloured
    pixels is read from its bright, paler ones (:data:`GLARE_SATURATION`): a lamp's glare; with
    too few of those, from its paler ones of any brightness (:data:`FADED_SATURATION`): a blur.

    Only pixels within :data:`BOARD_REACH` of a board colour vote; the others (a sleeve or a
    cup over part of the space) count against the share. Before, they voted for the nearest
    colour: a start mark's green space, its white ring leaving few green pixels, two fifths
    under a purple or magenta sleeve, read blue or red (validation renders 2000359 and
    2000399). On validation renders 2000300..2000449, 2000450..2000749 and 2000750..2000999,
    boards exactly right 133, 271, 221 -> 135, 272, 222 (wrong spaces 143, 75, 107 -> 141,
    74, 106), none lost; foreign pixels left out of the share instead: 135, 271, 222; a reach
    of 25: 135, 271, 222; of 15: 133 on the first."""
    names = list(hues)
    centres = np.array([hues[n] for n in names])
    ring = hsv[:, RING]
    good = (ring[..., 1] >= COLOUR_SATURATION) & (ring[..., 2] >= COLOUR_VALUE)
    washed = good.sum(axis=1) < MIN_COLOUR_PIXELS
    good[washed] = ((ring[..., 1] >= GLARE_SATURATION) & (ring[..., 2] >= GLARE_VALUE))[washed]
    faded = good.sum(axis=1) < MIN_COLOUR_PIXELS
    good[faded] = ((ring[..., 1] >= FADED_SATURATION) & (ring[..., 2] >= COLOUR_VALUE))[faded]
    gaps = np.stack([_hue_gap(ring[..., 0].astype(np.float64), c) for c in centres], axis=-1)
    nearest = _board_colour(gaps, axis=-1)
    votes = np.stack([((nearest == k) & good).sum(axis=1) for k in range(len(names))], axis=1)
    total = good.sum(axis=1)
    best = np.argmax(votes, axis=1)
    share = np.where(total > 0, votes[np.arange(len(best)), best] / np.maximum(total, 1), 0.0)
    enough = total >= MIN_COLOUR_PIXELS
    return [names[b] if ok else None for b, ok in zip(best, enough)], np.where(enough, share, 0.0)


#: A space shows its colour when at least this many ring pixels are strongly coloured.
MIN_COLOUR_PIXELS = 20
#: A space under a lamp's glare is bright and its colour paler (validation render 2000547: the
#: green and yellow spaces of a board's edge at saturation 90-108, value about 250): where too
#: few ring pixels are strongly coloured, those of at least this saturation and value count.
#: On validation renders 2000450..2000749 spaces whose colour was left unknown 21 -> 13, none
#: read a wrong colour (60 and 40 gave the same).
GLARE_SATURATION, GLARE_VALUE = 60, 200
#: Where neither shows enough, a blur has washed the colour out (a token's dark disc smeared
#: over a card's half, validation renders 2000623 and 2000792: green at saturation 60-117):
#: pixels of at least this saturation count. On validation renders 2000450..2000749 and
#: 2000750..2000999, boards exactly right 284 -> 285 and 228 -> 229, no colour misread (50 and
#: 90 the same).
FADED_SATURATION = 70


def seam_pale(rect: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Share of pale (unsaturated) or inked (dark) pixels in the strip along the edge that neighbouring
    quads ``a`` and ``b`` (4, 2) share (its inner 80 %, SEAM_HALF of a side to either side).

    A card's two halves meet at a thin white split; two pieces side by side show both their
    white margins, their borders' ink and the board between them: a band several times as wide."""
    ca, cb = a.mean(axis=0), b.mean(axis=0)
    side = float(np.linalg.norm(a[1] - a[0]))
    mid = (ca + cb) / 2
    across = (cb - ca) / max(np.linalg.norm(cb - ca), 1e-9)
    along = np.array([-across[1], across[0]])
    s = np.linspace(-0.4, 0.4, 17) * side
    t = np.linspace(-SEAM_HALF, SEAM_HALF, 7) * side
    pts = mid[None, None, :] + s[:, None, None] * along + t[None, :, None] * across
    strip = cv2.remap(rect, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32), cv2.INTER_LINEAR)
    hsv = cv2.cvtColor(strip, cv2.COLOR_BGR2HSV)
    return float(((hsv[..., 1] < PALE_SATURATION) | (hsv[..., 2] < INK_VALUE)).mean())
