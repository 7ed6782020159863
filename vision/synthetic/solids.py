"""3-D objects as faces: cubes and boxes, cylinders, a mug, a phone, a pen, and hands.

Every builder returns a :class:`~.canvas.Solid` in the table frame (mm, z up) and the
polygon of its footprint on the table (for the ground truth).
"""

from __future__ import annotations

import math

import numpy as np

from .canvas import Face, Solid
from .palette import shade

#: Points around a circle when a cylinder becomes a polygon.
_CIRCLE_POINTS = 40
#: Darkening of a cube's edge lines (wooden cubes have slightly rounded, darker edges).
_EDGE_SHADE = 0.75


def _turn(points_xy: np.ndarray, deg: float) -> np.ndarray:
    a = math.radians(deg)
    r = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return points_xy @ r.T


def box(label: int, centre_xy, z0: float, size: tuple[float, float, float], yaw_deg: float,
        colour, top_colour=None, edge: bool = True) -> tuple[Solid, np.ndarray]:
    """A cuboid standing on z = ``z0``: ``size`` = (along x, along y, height) before turning."""
    w, d, h = size
    local = np.array([[-w / 2, -d / 2], [w / 2, -d / 2], [w / 2, d / 2], [-w / 2, d / 2]])
    xy = _turn(local, yaw_deg) + np.asarray(centre_xy, np.float64)
    bottom = np.column_stack([xy, np.full(4, z0)])
    top = np.column_stack([xy, np.full(4, z0 + h)])
    outline = shade(colour, _EDGE_SHADE) if edge else None
    faces = [Face(top, top_colour or colour, np.array([0, 0, 1.0]), outline)]
    for k in range(4):
        a, b = k, (k + 1) % 4
        n2 = _turn(np.array([[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])[k:k + 1], yaw_deg)[0]
        faces.append(Face(np.array([bottom[a], bottom[b], top[b], top[a]]), colour,
                          np.array([n2[0], n2[1], 0.0]), outline))
    centre = np.array([*centre_xy, z0 + h / 2], np.float64)
    return Solid(label, faces, True, [np.vstack([bottom, top])], centre), xy


def cylinder(label: int, centre_xy, z0: float, diameter: float, height: float, colour,
             top_colour=None) -> tuple[Solid, np.ndarray]:
    """An upright cylinder standing on z = ``z0``; its side is drawn as one silhouette."""
    t = np.linspace(0, 2 * math.pi, _CIRCLE_POINTS, endpoint=False)
    ring = np.column_stack([np.cos(t), np.sin(t)]) * diameter / 2 + np.asarray(centre_xy, np.float64)
    bottom = np.column_stack([ring, np.full(len(t), z0)])
    top = np.column_stack([ring, np.full(len(t), z0 + height)])
    faces = []
    for k in range(len(t)):
        a, b = k, (k + 1) % len(t)
        mid = (t[a] + t[b]) / 2
        faces.append(Face(np.array([bottom[a], bottom[b], top[b], top[a]]), colour,
                          np.array([math.cos(mid), math.sin(mid), 0.0])))
    faces.append(Face(top, top_colour or colour, np.array([0, 0, 1.0])))
    centre = np.array([*centre_xy, z0 + height / 2], np.float64)
    return Solid(label, faces, True, [np.vstack([bottom, top])], centre), ring


def mug(label: int, centre_xy, yaw_deg: float, colour, rng: np.random.Generator, eye_xy) -> tuple[Solid, np.ndarray]:
    """A mug with coffee in it and a handle."""
    diameter, height = rng.uniform(75, 90), rng.uniform(85, 105)
    body, ring = cylinder(label, centre_xy, 0.0, diameter, height, colour)
    t = np.linspace(0, 2 * math.pi, _CIRCLE_POINTS, endpoint=False)
    coffee = np.column_stack([np.cos(t), np.sin(t)]) * (diameter / 2 - 4) + np.asarray(centre_xy, np.float64)
    body.faces.append(Face(np.column_stack([coffee, np.full(len(t), height)]), (30, 45, 70)))
    a = math.radians(yaw_deg)
    out = np.array([math.cos(a), math.sin(a)])
    root = np.asarray(centre_xy, np.float64) + out * diameter / 2
    handle = [np.array([*(root + out * 0), height * 0.8]), np.array([*(root + out * 28), height * 0.7]),
              np.array([*(root + out * 28), height * 0.3]), np.array([*(root + out * 0), height * 0.2])]
    side = np.array([-out[1], out[0], 0.0]) * 5
    grip = Face(np.array([p + side for p in handle] + [p - side for p in handle[::-1]]), shade(colour, 0.85))
    # The handle has no normal, so it is never culled: draw it first when it is on the mug's
    # far side (the body hides it) and last when it points at the camera.
    faces_camera = float(np.dot(out, eye_xy - np.asarray(centre_xy, np.float64))) > 0
    body.faces.insert(len(body.faces) if faces_camera else 0, grip)
    return body, ring


def phone(label: int, centre_xy, yaw_deg: float, rng: np.random.Generator) -> tuple[Solid, np.ndarray]:
    """A phone lying on the table, screen up."""
    w, d = rng.uniform(68, 78), rng.uniform(140, 165)
    case = tuple(int(c) for c in rng.integers(15, 90, 3))
    solid, xy = box(label, centre_xy, 0.0, (w, d, 8.0), yaw_deg, case, (20, 20, 22), edge=False)
    inner = _turn(np.array([[-w / 2 + 3, -d / 2 + 8], [w / 2 - 3, -d / 2 + 8], [w / 2 - 3, d / 2 - 8],
                            [-w / 2 + 3, d / 2 - 8]]), yaw_deg) + np.asarray(centre_xy)
    screen = tuple(int(c) for c in rng.integers(40, 140, 3))
    solid.faces.append(Face(np.column_stack([inner, np.full(4, 8.05)]), screen, np.array([0, 0, 1.0])))
    return solid, xy


def pen(label: int, centre_xy, yaw_deg: float, rng: np.random.Generator) -> tuple[Solid, np.ndarray]:
    """A pen lying on the table."""
    colour = tuple(int(c) for c in rng.integers(20, 220, 3))
    return box(label, centre_xy, 0.0, (rng.uniform(130, 150), 9.0, 9.0), yaw_deg, colour)


def hand(label: int, target_xy, entry_xy, skin, sleeve, height_mm: float) -> tuple[Solid, np.ndarray]:
    """An arm reaching from ``entry_xy`` (off the play area) to ``target_xy``, the hand
    hovering ``height_mm`` above the table with fingers pointing at the target."""
    target = np.asarray(target_xy, np.float64)
    entry = np.asarray(entry_xy, np.float64)
    direction = target - entry
    direction /= np.linalg.norm(direction)
    side = np.array([-direction[1], direction[0]])
    wrist = target - direction * 95
    knuckles = target - direction * 35
    elbow_z, wrist_z, finger_z = height_mm + 160, height_mm + 25, height_mm

    def at(xy, z):
        return np.array([xy[0], xy[1], z])

    faces = []
    sleeve_end = wrist - direction * 90
    faces.append(Face(np.array([at(entry + side * 55, elbow_z), at(sleeve_end + side * 45, wrist_z + 30),
                                at(sleeve_end - side * 45, wrist_z + 30), at(entry - side * 55, elbow_z)]), sleeve))
    faces.append(Face(np.array([at(sleeve_end + side * 36, wrist_z + 30), at(wrist + side * 30, wrist_z),
                                at(wrist - side * 30, wrist_z), at(sleeve_end - side * 36, wrist_z + 30)]),
                      shade(skin, 0.92)))
    t = np.linspace(0, 2 * math.pi, 28, endpoint=False)
    palm_c = (wrist + knuckles) / 2
    palm = [at(palm_c + direction * math.cos(a) * 42 + side * math.sin(a) * 44, (wrist_z + finger_z + 10) / 2)
            for a in t]
    faces.append(Face(np.array(palm), skin))
    for k, (offset, length) in enumerate(((-27, 52), (-9, 62), (9, 60), (26, 50))):
        base = knuckles + side * offset
        spread = direction + side * offset / 300
        spread /= np.linalg.norm(spread)
        faces.append(Face(_capsule(base, base + spread * length, 8.5, finger_z + 12, finger_z),
                          shade(skin, 1.0 - 0.03 * k), outline=shade(skin, 0.75)))
    thumb_base = wrist + direction * 25 + side * 38
    thumb_dir = direction * 0.7 + side * 0.7
    faces.append(Face(_capsule(thumb_base, thumb_base + thumb_dir * 50, 10, wrist_z, finger_z + 5),
                      shade(skin, 0.95), outline=shade(skin, 0.75)))
    solid = Solid(label, faces, False, [f.points for f in faces], at(palm_c, wrist_z))
    hull = np.vstack([f.points[:, :2] for f in faces])
    return solid, hull


def _capsule(a: np.ndarray, b: np.ndarray, radius: float, za: float, zb: float) -> np.ndarray:
    """A finger: a rounded bar from ``a`` (height ``za``) to ``b`` (height ``zb``), (N, 3)."""
    d = b - a
    d = d / np.linalg.norm(d)
    side = np.array([-d[1], d[0]])
    tip = [b + radius * (side * math.cos(s) + d * math.sin(s)) for s in np.linspace(0, math.pi, 9)]
    pts = [a + side * radius] + tip + [a - side * radius]
    z = [za] + [zb] * len(tip) + [za]
    return np.column_stack([np.array(pts), z])
