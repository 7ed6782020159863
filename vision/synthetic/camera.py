"""The pinhole camera with lens distortion that photographs the table.

World frame = the table frame: millimetres, z up out of the table. The camera follows
OpenCV's conventions: ``x_cam = R @ X_world + t``, image x to the right, y down, and the
distortion model ``(k1, k2, p1, p2, k3)`` of ``cv2.projectPoints``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

#: Rays are undistorted exactly on a grid this many pixels apart, then interpolated.
_RAY_GRID_PX = 8
#: Iterations and tolerance of OpenCV's iterative undistortion (normalised units).
_UNDISTORT_ITER, _UNDISTORT_EPS = 40, 1e-9
#: How far past the image's own field the distortion must stay one-to-one (fraction).
_FIELD_MARGIN = 1.2
#: Smallest slope d(r_distorted)/d(r) accepted inside that field.
_MIN_SLOPE = 0.25
#: Points along each side of the play area's outline when framing it, and aiming steps.
_BOUNDARY_STEPS, _AIM_STEPS = 16, 4
#: Points nearer the camera than this (mm, along its axis) are not drawn.
NEAR_MM = 10.0


@dataclass(frozen=True, eq=False)
class Camera:
    """Intrinsics, distortion and pose of one camera.

    Attributes
    ----------
    size : (width, height) in pixels
    K : ndarray (3, 3), float64, pixels
    dist : ndarray (5,), float64: k1, k2, p1, p2, k3
    R : ndarray (3, 3), float64: world -> camera rotation
    t : ndarray (3,), float64, mm: world -> camera translation
    """

    size: tuple[int, int]
    K: np.ndarray
    dist: np.ndarray
    R: np.ndarray
    t: np.ndarray

    @property
    def centre(self) -> np.ndarray:
        """Camera centre in the table frame, mm, shape (3,)."""
        return -self.R.T @ self.t

    @property
    def rvec(self) -> np.ndarray:
        """Rodrigues vector of ``R``, shape (3,)."""
        return cv2.Rodrigues(self.R)[0].ravel()

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        """Table-frame points (N, 3) mm -> camera-frame points (N, 3) mm."""
        return np.asarray(points, np.float64).reshape(-1, 3) @ self.R.T + self.t

    def distort(self, xn: np.ndarray, yn: np.ndarray) -> np.ndarray:
        """Ideal normalised coordinates -> distorted pixel coordinates (N, 2)."""
        k1, k2, p1, p2, k3 = self.dist
        r2 = xn * xn + yn * yn
        radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
        xd = xn * radial + 2 * p1 * xn * yn + p2 * (r2 + 2 * xn * xn)
        yd = yn * radial + p1 * (r2 + 2 * yn * yn) + 2 * p2 * xn * yn
        return np.stack([self.K[0, 0] * xd + self.K[0, 2], self.K[1, 1] * yd + self.K[1, 2]], -1)

    def project(self, points: np.ndarray) -> np.ndarray:
        """Table-frame points (N, 3) mm -> image pixels (N, 2), distortion included.

        The same model as ``cv2.projectPoints``; points behind the camera give NaN.
        """
        pc = self.to_camera(points)
        z = np.where(pc[:, 2] > NEAR_MM, pc[:, 2], np.nan)
        return self.distort(pc[:, 0] / z, pc[:, 1] / z)

    def undistort(self, pixels: np.ndarray) -> np.ndarray:
        """Distorted pixel coordinates (N, 2) -> ideal normalised coordinates (N, 2)."""
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, _UNDISTORT_ITER, _UNDISTORT_EPS)
        pts = np.asarray(pixels, np.float64).reshape(-1, 1, 2)
        return cv2.undistortPoints(pts, self.K, self.dist, None, None, None, criteria).reshape(-1, 2)

    @cached_property
    def rays(self) -> tuple[np.ndarray, np.ndarray]:
        """Ideal normalised coordinates (xn, yn) of every pixel centre, each (H, W) float32."""
        w, h = self.size
        gx = np.arange(0, w + _RAY_GRID_PX, _RAY_GRID_PX, dtype=np.float64)
        gy = np.arange(0, h + _RAY_GRID_PX, _RAY_GRID_PX, dtype=np.float64)
        grid = np.stack(np.meshgrid(gx, gy), -1).reshape(-1, 1, 2)
        norm = self.undistort(grid.reshape(-1, 2)).reshape(len(gy), len(gx), 2)
        map_x = np.tile(np.arange(w, dtype=np.float32) / _RAY_GRID_PX, (h, 1))
        map_y = np.tile((np.arange(h, dtype=np.float32) / _RAY_GRID_PX)[:, None], (1, w))
        xn = cv2.remap(norm[..., 0].astype(np.float32), map_x, map_y, cv2.INTER_LINEAR)
        yn = cv2.remap(norm[..., 1].astype(np.float32), map_x, map_y, cv2.INTER_LINEAR)
        return xn, yn

    @cached_property
    def field_box(self) -> tuple[float, float, float, float]:
        """Extent (x0, x1, y0, y1) of the image's rays in ideal normalised coordinates."""
        xn, yn = self.rays
        return float(xn.min()), float(xn.max()), float(yn.min()), float(yn.max())

    def plane_homography(self, height_mm: float) -> np.ndarray:
        """The homography (3, 3) taking ideal normalised coordinates (xn, yn, 1) to the
        table-frame point (x, y, 1) where that pixel's ray meets the plane z = height_mm."""
        m = self.R.T
        c = self.centre
        dz = height_mm - c[2]
        return np.stack([c[0] * m[2] + dz * m[0], c[1] * m[2] + dz * m[1], m[2]])

    def field_radius(self) -> float:
        """Largest ideal normalised radius seen in the image (at its corners)."""
        w, h = self.size
        corners = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64)
        norm = self.undistort(corners)
        return float(np.max(np.hypot(norm[:, 0], norm[:, 1])))

    def to_json(self) -> dict:
        """Intrinsics, distortion and pose as plain lists (OpenCV conventions)."""
        return {"image_size": list(self.size), "K": self.K.tolist(), "dist": self.dist.tolist(),
                "rvec": self.rvec.tolist(), "tvec": self.t.tolist(), "R": self.R.tolist(),
                "centre_mm": self.centre.tolist()}


@dataclass(frozen=True)
class CameraRanges:
    """The ranges a random camera is drawn from (uniformly)."""

    tilt_deg: tuple[float, float] = (0.0, 35.0)
    yaw_deg: tuple[float, float] = (-12.0, 12.0)
    roll_deg: tuple[float, float] = (-3.0, 3.0)
    distance_mm: tuple[float, float] = (800.0, 1600.0)
    fill: tuple[float, float] = (0.8, 0.94)
    target_jitter: float = 0.04
    principal_jitter: float = 0.015
    k1: tuple[float, float] = (-0.25, 0.05)
    k2: tuple[float, float] = (-0.03, 0.08)
    tangential: float = 0.0015


def look_at(centre: np.ndarray, target: np.ndarray, forward_hint: np.ndarray, roll_deg: float) -> np.ndarray:
    """World -> camera rotation of a camera at ``centre`` looking at ``target`` whose image
    top points along ``forward_hint`` (a table direction), turned by ``roll_deg``."""
    f = target - centre
    f = f / np.linalg.norm(f)
    x = np.cross(f, forward_hint)
    x /= np.linalg.norm(x)
    y = np.cross(f, x)
    r = np.stack([x, y, f])
    a = math.radians(roll_deg)
    roll = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    return roll @ r


def random_camera(rng: np.random.Generator, table_mm: tuple[float, float], image_size: tuple[int, int],
                  ranges: CameraRanges = CameraRanges(), margin_mm: float = 20.0) -> Camera:
    """A random camera framed as a user frames it: the play area (plus ``margin_mm``) fills
    the image.

    The camera stands on the near side (towards -y), tilted from straight down by up to
    ``ranges.tilt_deg``, turned about the vertical by ``yaw_deg``, about ``distance_mm`` from
    a point near the table centre. From there it is turned so that the play area's image is
    centred (a tilted camera aimed at the table centre would waste the top of the image,
    where the far side is small), and the focal length is chosen so that the play area, as
    the distorting lens shows it, spans ``fill`` of the image's width or height.
    """
    w_img, h_img = image_size
    tw, td = table_mm
    tilt = math.radians(rng.uniform(*ranges.tilt_deg))
    yaw = math.radians(rng.uniform(*ranges.yaw_deg))
    roll = rng.uniform(*ranges.roll_deg)
    distance = rng.uniform(*ranges.distance_mm)
    fill = rng.uniform(*ranges.fill)
    target = np.array([tw / 2 + rng.uniform(-1, 1) * ranges.target_jitter * tw,
                       td / 2 + rng.uniform(-1, 1) * ranges.target_jitter * td, 0.0])
    forward = np.array([-math.sin(yaw), math.cos(yaw), 0.0])
    centre = target + distance * (math.cos(tilt) * np.array([0, 0, 1.0]) - math.sin(tilt) * forward)
    boundary = _boundary(tw, td, margin_mm)
    R = _aim(centre, target, forward, roll, boundary)
    t = -R @ centre
    cx = w_img / 2 + rng.uniform(-1, 1) * ranges.principal_jitter * w_img
    cy = h_img / 2 + rng.uniform(-1, 1) * ranges.principal_jitter * h_img
    dist = np.array([rng.uniform(*ranges.k1), rng.uniform(*ranges.k2),
                     rng.uniform(-1, 1) * ranges.tangential, rng.uniform(-1, 1) * ranges.tangential, 0.0])
    pc = boundary @ R.T + t
    xn, yn = pc[:, 0] / pc[:, 2], pc[:, 1] / pc[:, 2]
    while True:
        camera = Camera((w_img, h_img), _framed_k(xn, yn, dist, fill, (cx, cy), image_size), dist, R, t)
        if _one_to_one(camera):
            return camera
        dist = dist / 2


def _boundary(tw: float, td: float, margin_mm: float) -> np.ndarray:
    """Points (N, 3) along the outline of the play area grown by ``margin_mm`` (table frame)."""
    s = np.linspace(0.0, 1.0, _BOUNDARY_STEPS, endpoint=False)
    x0, x1, y0, y1 = -margin_mm, tw + margin_mm, -margin_mm, td + margin_mm
    edges = [np.column_stack([x0 + (x1 - x0) * s, np.full_like(s, y0)]),
             np.column_stack([np.full_like(s, x1), y0 + (y1 - y0) * s]),
             np.column_stack([x1 - (x1 - x0) * s, np.full_like(s, y1)]),
             np.column_stack([np.full_like(s, x0), y1 - (y1 - y0) * s])]
    xy = np.vstack(edges)
    return np.column_stack([xy, np.zeros(len(xy))])


def _aim(centre: np.ndarray, target: np.ndarray, forward: np.ndarray, roll_deg: float,
         boundary: np.ndarray) -> np.ndarray:
    """World -> camera rotation of a camera at ``centre`` turned so that the middle of the
    boundary's image lies on its optical axis (a few fixed-point steps from ``target``)."""
    R = look_at(centre, target, forward, roll_deg)
    for _ in range(_AIM_STEPS):
        pc = (boundary - centre) @ R.T
        xn, yn = pc[:, 0] / pc[:, 2], pc[:, 1] / pc[:, 2]
        ray = R.T @ np.array([(xn.min() + xn.max()) / 2, (yn.min() + yn.max()) / 2, 1.0])
        target = centre - centre[2] / ray[2] * ray
        R = look_at(centre, target, forward, roll_deg)
    return R


def _framed_k(xn: np.ndarray, yn: np.ndarray, dist: np.ndarray, fill: float, principal: tuple[float, float],
              image_size: tuple[int, int]) -> np.ndarray:
    """Intrinsics whose focal length makes the distorted image of the points (ideal normalised
    ``xn``, ``yn``) reach ``fill`` of the way from the principal point to the image's edges."""
    unit = Camera(image_size, np.eye(3), dist, np.eye(3), np.zeros(3)).distort(xn, yn)
    cx, cy = principal
    w_img, h_img = image_size
    limits = [cx / -x if x < 0 else (w_img - cx) / x for x in unit[:, 0] if x != 0]
    limits += [cy / -y if y < 0 else (h_img - cy) / y for y in unit[:, 1] if y != 0]
    f = fill * min(limits)
    return np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])


def _one_to_one(camera: Camera) -> bool:
    """Whether the radial distortion keeps growing with radius well past the image's corners."""
    k1, k2, _, _, k3 = camera.dist
    half_diag = math.hypot(*camera.size) / 2 / camera.K[0, 0]
    r = np.linspace(0, _FIELD_MARGIN * max(half_diag, camera.field_radius()), 64)
    slope = 1 + 3 * k1 * r**2 + 5 * k2 * r**4 + 7 * k3 * r**6
    return bool(np.all(slope > _MIN_SLOPE))
