"""Drawing the scene into the camera image: flat parts by ray lookup, solids by projection.

A :class:`Canvas` holds the (unlit) camera image, a label image (which object each pixel
shows) and the camera. Flat parts are drawn exactly, distortion included: each pixel of
the part's bounding box looks up its ray's meeting point with the part's plane in the
part's texture (one ``cv2.remap``). Solids are drawn as shaded polygons whose corners are
projected with the camera.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from .camera import NEAR_MM, Camera
from .draw import SHIFT_BITS

_ONE = 1 << SHIFT_BITS
#: Extra pixels around a projected bounding box (bilinear reach and anti-aliasing).
_BOX_PAD_PX = 2
#: Texture alpha above which a pixel counts as the part's own (label image, masks).
_ALPHA_OWN = 128
#: Longest polygon edge (ideal normalised units) before it is split, so edges bend with the lens.
_EDGE_STEP = 0.01
#: Clipping box around the image's field of view (fraction of its span added each side).
_CLIP_MARGIN = 0.05
#: A wide shadow blur runs on a copy shrunk by one step per this many pixels of sigma.
_SOFT_SIGMA_PER_STEP = 3.0
#: Shading of a face turned away from the light, and the share that follows the light.
AMBIENT, DIFFUSE = 0.55, 0.5


@dataclass(eq=False)
class Drawn:
    """Where one object landed: its label, bounding box and its own (unoccluded) mask."""

    label: int
    box: tuple[int, int, int, int]  # y0, y1, x0, x1
    mask: np.ndarray  # bool (y1-y0, x1-x0)

    @cached_property
    def area(self) -> int:
        """Number of the object's own pixels."""
        return int(np.count_nonzero(self.mask))

    @cached_property
    def bbox(self) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) of its own pixels, x1 and y1 exclusive."""
        ys, xs = np.nonzero(self.mask)
        y0, _, x0, _ = self.box
        return (int(x0 + xs.min()), int(y0 + ys.min()), int(x0 + xs.max() + 1), int(y0 + ys.max() + 1))

    def visibility(self, labels: np.ndarray) -> float:
        """Share of the object's own pixels that still show it in ``labels``."""
        if self.area == 0:
            return 0.0
        y0, y1, x0, x1 = self.box
        return float(np.count_nonzero((labels[y0:y1, x0:x1] == self.label) & self.mask)) / self.area

    def occluders(self, labels: np.ndarray) -> list[int]:
        """Labels drawn over this object's own pixels."""
        y0, y1, x0, x1 = self.box
        seen = labels[y0:y1, x0:x1][self.mask]
        return sorted(int(v) for v in np.unique(seen) if v != self.label)


@dataclass(frozen=True)
class Face:
    """One polygon of a solid: corners (N, 3) in the table frame (mm), colour, outward normal."""

    points: np.ndarray
    colour: tuple[int, int, int]
    normal: np.ndarray | None = None
    outline: tuple[int, int, int] | None = None


@dataclass(eq=False)
class Solid:
    """A 3-D object as faces; ``convex`` solids cull faces turned away from the camera."""

    label: int
    faces: list[Face]
    convex: bool
    shadow: list[np.ndarray] = field(default_factory=list)  # polygons (N, 3) casting shadows
    centre: np.ndarray = field(default_factory=lambda: np.zeros(3))


@dataclass(eq=False)
class Canvas:
    """The image being drawn, its label image, and the camera."""

    camera: Camera
    image: np.ndarray  # (H, W, 3) uint8
    labels: np.ndarray  # (H, W) int32, 0 = table
    dirty: list[tuple[int, int, int, int]] = field(default_factory=list)
    drawn: dict[int, Drawn] = field(default_factory=dict)

    # -- geometry ------------------------------------------------------------------------------
    def clip_box(self) -> tuple[float, float, float, float]:
        """The image's field in ideal normalised coordinates, with a margin."""
        x0, x1, y0, y1 = self.camera.field_box
        mx, my = (x1 - x0) * _CLIP_MARGIN, (y1 - y0) * _CLIP_MARGIN
        return x0 - mx, x1 + mx, y0 - my, y1 + my

    def project_polygon(self, points: np.ndarray) -> np.ndarray | None:
        """Project a 3-D polygon (N, 3) to image pixels, clipped to the field of view and with
        long edges split so they bend with the lens; None when nothing of it is in view."""
        pc = self.camera.to_camera(points)
        if np.any(pc[:, 2] <= NEAR_MM):
            return None
        poly = pc[:, :2] / pc[:, 2:3]
        box = self.clip_box()
        inside = (poly[:, 0] >= box[0]) & (poly[:, 0] <= box[1]) & (poly[:, 1] >= box[2]) & (poly[:, 1] <= box[3])
        if not inside.all():
            for axis, bound, keep_above in zip((0, 0, 1, 1), box, (True, False, True, False)):
                poly = _clip(poly, axis, bound, keep_above)
                if len(poly) < 3:
                    return None
        poly = _densify(poly)
        return self.camera.distort(poly[:, 0], poly[:, 1])

    def _box(self, pts: np.ndarray, pad: int = _BOX_PAD_PX) -> tuple[int, int, int, int] | None:
        w, h = self.camera.size
        x0 = max(0, int(math.floor(pts[:, 0].min())) - pad)
        x1 = min(w, int(math.ceil(pts[:, 0].max())) + pad + 1)
        y0 = max(0, int(math.floor(pts[:, 1].min())) - pad)
        y1 = min(h, int(math.ceil(pts[:, 1].max())) + pad + 1)
        return (y0, y1, x0, x1) if x1 > x0 and y1 > y0 else None

    # -- flat parts ----------------------------------------------------------------------------
    def flat(self, texture: np.ndarray, px_per_mm: float, size_mm: tuple[float, float],
             pose: tuple[float, float, float, float], label: int) -> Drawn | None:
        """Draw a printed part lying flat.

        Parameters
        ----------
        texture : ndarray (h, w, 4) uint8, BGRA; row 0 is the part's top (+y) edge
        px_per_mm : float, the texture's resolution
        size_mm : (width, depth) of the part
        pose : (x, y, rotation_deg, z): centre and turn in the table frame, z of its printed face
        label : int, written into the label image where the part is opaque
        """
        x, y, rot, z = pose
        corners = footprint(size_mm, x, y, rot)
        outline = self.project_polygon(np.column_stack([corners, np.full(4, z)]))
        if outline is None:
            return None
        box = self._box(outline)
        if box is None:
            return None
        y0, y1, x0, x1 = box
        xn, yn = self.camera.rays
        xn, yn = xn[y0:y1, x0:x1], yn[y0:y1, x0:x1]
        t = _texture_from_table(size_mm, x, y, rot, px_per_mm) @ self.camera.plane_homography(z)
        u, v = apply_homography(t, xn, yn)
        rgba = cv2.remap(texture, u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        alpha = rgba[..., 3]
        mask = alpha >= _ALPHA_OWN
        if not mask.any():
            return None
        roi = self.image[y0:y1, x0:x1]
        a = alpha.astype(np.float32)[..., None] / 255.0
        roi[:] = (roi * (1.0 - a) + rgba[..., :3] * a + 0.5).astype(np.uint8)
        self.labels[y0:y1, x0:x1][mask] = label
        self.dirty.append(box)
        self.drawn[label] = Drawn(label, box, mask)
        return self.drawn[label]

    # -- solids --------------------------------------------------------------------------------
    def shadows(self, polygons: list[np.ndarray], light_direction: np.ndarray, opacity: float,
                softness_px: float, ground_mm: float = 0.0) -> None:
        """Darken the image where the polygons' shadows fall on the plane z = ``ground_mm``."""
        if opacity <= 0 or not polygons:
            return
        ld = np.asarray(light_direction, np.float64)
        projected = []
        for poly in polygons:
            lift = (poly[:, 2] - ground_mm) / ld[2]
            ground = poly - lift[:, None] * ld
            ground[:, 2] = ground_mm
            px = self.project_polygon(ground)
            if px is not None:
                projected.append(px)
        if not projected:
            return
        pad = int(math.ceil(3 * softness_px)) + _BOX_PAD_PX
        box = self._box(np.vstack(projected), pad)
        if box is None:
            return
        y0, y1, x0, x1 = box
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for px in projected:
            cv2.fillPoly(mask, [_fixed(px - [x0, y0])], 255, cv2.LINE_AA, SHIFT_BITS)
        if softness_px > 0.3:
            mask = _soft(mask, softness_px)
        factor = 1.0 - opacity * (mask.astype(np.float32) / 255.0)
        roi = self.image[y0:y1, x0:x1]
        roi[:] = (roi * factor[..., None]).astype(np.uint8)
        self.dirty.append(box)

    def solid(self, solid: Solid, light_direction: np.ndarray) -> Drawn | None:
        """Draw a solid's faces, shaded by the light; returns where it landed."""
        eye = self.camera.centre
        drawn = []
        for face in solid.faces:
            if solid.convex and face.normal is not None and \
                    float(np.dot(face.normal, eye - face.points.mean(0))) <= 0:
                continue
            px = self.project_polygon(face.points)
            if px is None:
                continue
            shade = 1.0 if face.normal is None else AMBIENT + DIFFUSE * max(0.0, float(np.dot(face.normal, light_direction)))
            drawn.append((px, tuple(min(255, int(c * shade)) for c in face.colour), face.outline))
        if not drawn:
            return None
        box = self._box(np.vstack([d[0] for d in drawn]))
        if box is None:
            return None
        y0, y1, x0, x1 = box
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        roi = self.image[y0:y1, x0:x1]
        for px, colour, outline in drawn:
            pts = _fixed(px - [x0, y0])
            cv2.fillPoly(roi, [pts], colour, cv2.LINE_AA, SHIFT_BITS)
            cv2.fillPoly(mask, [pts], 1, cv2.LINE_8, SHIFT_BITS)
            if outline is not None:
                cv2.polylines(roi, [pts], True, outline, 1, cv2.LINE_AA, SHIFT_BITS)
        own = mask.astype(bool)
        self.labels[y0:y1, x0:x1][own] = solid.label
        self.dirty.append(box)
        self.drawn[solid.label] = Drawn(solid.label, box, own)
        return self.drawn[solid.label]


def _soft(mask: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur of a mask; wide blurs run on a smaller copy (same look, far cheaper)."""
    factor = int(sigma // _SOFT_SIGMA_PER_STEP)
    if factor < 2:
        return cv2.GaussianBlur(mask, (0, 0), sigma)
    h, w = mask.shape
    small = cv2.resize(mask, (max(1, w // factor), max(1, h // factor)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / factor)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def apply_homography(h: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Apply a homography (3, 3) to coordinate arrays; float32 in, float32 maps out (for remap)."""
    m = [float(v) for v in np.asarray(h).ravel()]
    den = m[6] * x + m[7] * y + m[8]
    return ((m[0] * x + m[1] * y + m[2]) / den).astype(np.float32), ((m[3] * x + m[4] * y + m[5]) / den).astype(np.float32)


def footprint(size_mm: tuple[float, float], x: float, y: float, rotation_deg: float) -> np.ndarray:
    """Corners (4, 2) of a part in the table frame: its top-left, top-right, bottom-right,
    bottom-left as printed (top = the edge that faces +y before turning)."""
    w, d = size_mm
    local = np.array([[-w / 2, d / 2], [w / 2, d / 2], [w / 2, -d / 2], [-w / 2, -d / 2]])
    return local @ _rotation(rotation_deg).T + [x, y]


def _rotation(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def _texture_from_table(size_mm, x, y, rot, ppm) -> np.ndarray:
    """Homography (3, 3): table point (x, y, 1) -> texture pixel (u, v, 1) of a placed part."""
    w, d = size_mm
    r = _rotation(-rot)
    to_local = np.eye(3)
    to_local[:2, :2] = r
    to_local[:2, 2] = -r @ np.array([x, y])
    to_tex = np.array([[ppm, 0, w / 2 * ppm - 0.5], [0, -ppm, d / 2 * ppm - 0.5], [0, 0, 1]])
    return to_tex @ to_local


def _fixed(px: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(px) * _ONE).astype(np.int32)


def _clip(poly: np.ndarray, axis: int, bound: float, keep_above: bool) -> np.ndarray:
    """Sutherland-Hodgman: keep the part of a 2-D polygon on one side of an axis line."""
    out = []
    n = len(poly)
    for k in range(n):
        a, b = poly[k], poly[(k + 1) % n]
        ina = a[axis] >= bound if keep_above else a[axis] <= bound
        inb = b[axis] >= bound if keep_above else b[axis] <= bound
        if ina:
            out.append(a)
        if ina != inb:
            s = (bound - a[axis]) / (b[axis] - a[axis])
            out.append(a + s * (b - a))
    return np.array(out).reshape(-1, 2)


def _densify(poly: np.ndarray) -> np.ndarray:
    """Split polygon edges longer than ``_EDGE_STEP`` (normalised units)."""
    nxt = np.roll(poly, -1, axis=0)
    steps = np.maximum(1, np.ceil(np.hypot(*(nxt - poly).T) / _EDGE_STEP).astype(int))
    if steps.max() == 1:
        return poly
    edge = np.repeat(np.arange(len(poly)), steps)
    frac = (np.arange(len(edge)) - np.repeat(np.cumsum(steps) - steps, steps)) / np.repeat(steps, steps)
    return poly[edge] + frac[:, None] * (nxt[edge] - poly[edge])
