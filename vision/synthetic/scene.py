"""Render a layout as a webcam photograph with exact ground truth.

Steps: draw the camera (pose, focal length, lens) and the light from the seed; look up the
table surface for every pixel (one ``cv2.remap`` through the camera's rays); draw the flat
parts and the markers exactly onto their planes; cast shadows and draw the solids (cubes,
tokens, mug, phone, pen) and the hands by projecting their corners; then light, blur,
noise and JPEG. Every random choice comes from a generator seeded by ``(seed, stream)``,
so one seed always gives the same bytes, and a part's own jitter depends only on the seed
and the part's index (or ident), not on what else lies on the table.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from . import kinds
from .camera import Camera, CameraRanges, random_camera
from .canvas import Canvas, apply_homography, footprint
from .errors import LayoutError
from .layout import Layout, Placed
from .photo import (NO_EFFECTS, EffectRanges, Light, LightRanges, add_noise, apply_light, blur, flat_light, jpeg,
                    random_effects, random_light)
from .props import distractor, reaching_hand
from .solids import box, cylinder
from .surface import SURFACE_PX_PER_MM, SURFACES, surface_texture
from .truth import MarkerTruth, ObjectTruth, Truth

#: Named random streams; each gets its own generator ``default_rng([seed, stream])``.
_STREAMS = {"camera": 1, "surface": 2, "light": 3, "effects": 4, "noise": 5, "distractors": 6, "hands": 7,
            "jitter": 8}
#: Kinds that lie where they were put, without jitter (boards, markers).
_FIXED_KINDS = frozenset({"daluigi.marketplace", "daluigi.strip", "ligretto.section", "ligretto.player_board",
                          "table.marker"})
#: How much of the table around the play area the surface texture may cover (mm).
_SURFACE_REACH_MM = 1500.0
#: Largest surface texture (pixels); a camera that sees much of the room gets a coarser table.
_SURFACE_MAX_PIXELS = 2.0e6
#: Texture resolution relative to the finest image scale, and its bounds (px per mm).
_TEXTURE_OVERSAMPLE, _TEXTURE_PPM_RANGE = 1.5, (2, 6)
#: Softness of the shadows of small solids and of hands (pixels of Gaussian sigma).
_SOLID_SHADOW_PX, _HAND_SHADOW_PX = 1.5, 9.0


@dataclass(frozen=True)
class RenderSettings:
    """What a render may vary, and how much.

    ``hands`` and ``distractors`` are (min, max) counts; ``jitter_mm``/``jitter_deg`` are the
    largest offset and turn added to cards, tiles and cubes; ``light`` and ``effects`` off
    give a neutral, noise-free image (used by the ground-truth checks).
    """

    image_size: tuple[int, int] = (1280, 720)
    camera: CameraRanges = CameraRanges()
    light_ranges: LightRanges = LightRanges()
    effect_ranges: EffectRanges = EffectRanges()
    surfaces: tuple[str, ...] = SURFACES
    hands: tuple[int, int] = (0, 2)
    distractors: tuple[int, int] = (0, 3)
    jitter_mm: float = 2.5
    jitter_deg: float = 3.0
    light: bool = True
    effects: bool = True
    shadows: bool = True

    def __post_init__(self) -> None:
        w, h = self.image_size
        if not (64 <= w <= 8192 and 64 <= h <= 8192):
            raise LayoutError(f"image_size must be 64..8192 px each way, got {self.image_size}")
        bad = [s for s in self.surfaces if s not in SURFACES]
        if bad or not self.surfaces:
            raise LayoutError(f"surfaces must be some of {', '.join(SURFACES)}, got {self.surfaces}")
        for name in ("hands", "distractors"):
            lo, hi = getattr(self, name)
            if not 0 <= lo <= hi:
                raise LayoutError(f"{name} must be (min, max) counts with 0 <= min <= max, got {(lo, hi)}")


#: Settings for ground-truth checks: no hands, no distractors, neutral light, no effects.
CLEAN = RenderSettings(hands=(0, 0), distractors=(0, 0), light=False, effects=False, shadows=False)


@dataclass(frozen=True, eq=False)
class Render:
    """One rendered photograph.

    Attributes
    ----------
    image : ndarray (H, W, 3) uint8, BGR (decoded from ``jpeg`` when effects are on)
    labels : ndarray (H, W) int32: which object each pixel shows (0 = table surface);
        see ``truth.objects[*].label`` and ``truth.markers[*].label``
    truth : Truth
    jpeg : bytes or None, the compressed image as a webcam would send it
    parts_labels : ndarray (H, W) int32 or None: the label image of the layout's parts and
        markers alone, before distractors and hands were drawn over them (what each pixel
        would show without them); set by :func:`render`
    """

    image: np.ndarray
    labels: np.ndarray
    truth: Truth
    jpeg: bytes | None = None
    parts_labels: np.ndarray | None = None


def stream(seed: int, name: str, *more: int) -> np.random.Generator:
    """The generator of one named random stream of ``seed``."""
    return np.random.default_rng([seed, _STREAMS[name], *more])


def _check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise LayoutError(f"seed must be a whole number >= 0, got {seed!r}")
    return int(seed)


@dataclass(eq=False)
class _Placement:
    """A component or marker ready to draw: final pose and what it is."""

    label: int
    kind: str
    params: tuple
    ident: str
    index: int | None
    pose: tuple[float, float, float, float]  # x, y, rotation, z of underside
    z_order: int


@dataclass(eq=False)
class Stage:
    """The fixed parts of a photograph: camera, light, surface, texture scale.

    The video renderer keeps one stage and redraws only what moves.
    """

    layout: Layout
    seed: int
    settings: RenderSettings
    camera: Camera
    light: Light
    surface: str
    px_per_mm: int
    _surface_image: np.ndarray | None = field(default=None, repr=False)
    _jitter: dict = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, layout: Layout, seed: int, settings: RenderSettings, camera: Camera | None = None) -> "Stage":
        seed = _check_seed(seed)
        if not isinstance(layout, Layout):
            raise LayoutError(f"render needs a Layout record, got {type(layout).__name__}")
        cam = camera or random_camera(stream(seed, "camera"), layout.table_mm, settings.image_size, settings.camera)
        light = random_light(stream(seed, "light"), cam.size, settings.light_ranges) if settings.light \
            else flat_light(cam.size)
        srng = stream(seed, "surface")
        surface = settings.surfaces[int(srng.integers(len(settings.surfaces)))]
        return cls(layout, seed, settings, cam, light, surface, _texture_ppm(cam, layout.table_mm))

    def surface_image(self) -> np.ndarray:
        """The table surface as the camera sees it (unlit), cached."""
        if self._surface_image is None:
            self._surface_image = _surface_view(self)
        return self._surface_image

    def canvas(self) -> Canvas:
        """A fresh canvas showing the bare table."""
        w, h = self.camera.size
        return Canvas(self.camera, self.surface_image().copy(), np.zeros((h, w), np.int32))

    def placements(self, layout: Layout, first_label: int = 1) -> list[_Placement]:
        """Markers and components with their final (jittered) poses; labels: components
        ``first_label + index``, markers after them."""
        out = []
        for index, c in enumerate(layout.components):
            out.append(_Placement(first_label + index, c.kind, c.params, c.ident, index,
                                  self._jittered(c, index), c.z_order))
        n = len(layout.components)
        s = layout.marker_mm
        for mid, corners in layout.marker_corners_mm().items():
            cx, cy = np.mean(corners, axis=0)
            out.append(_Placement(first_label + n + mid, "table.marker", (("id", mid), ("size_mm", s)),
                                  f"marker{mid}", None, (float(cx), float(cy), 0.0, 0.0), -10**6))
        return out

    def _jittered(self, c: Placed, index: int) -> tuple[float, float, float, float]:
        if c.kind in _FIXED_KINDS:
            return (c.x_mm, c.y_mm, c.rotation_deg, c.height_mm)
        key = zlib.crc32(c.ident.encode()) if c.ident else index
        if key not in self._jitter:
            rng = stream(self.seed, "jitter", key)
            r = self.settings.jitter_mm * math.sqrt(rng.uniform())
            a = rng.uniform(0, 2 * math.pi)
            turn = rng.uniform(-1, 1) * self.settings.jitter_deg
            if kinds.kind(c.kind).shape == "cube":
                turn += rng.uniform(0, 90)
            self._jitter[key] = (r * math.cos(a), r * math.sin(a), turn)
        dx, dy, turn = self._jitter[key]
        return (c.x_mm + dx, c.y_mm + dy, c.rotation_deg + turn, c.height_mm)


def _texture_ppm(camera: Camera, table_mm) -> int:
    """Texture resolution for this camera: a bit finer than the finest image scale."""
    w, d = table_mm
    corners = np.array([[0, 0, 0], [w, 0, 0], [w, d, 0], [0, d, 0]], np.float64)
    depth = camera.to_camera(corners)[:, 2].min()
    scale = camera.K[0, 0] / depth
    lo, hi = _TEXTURE_PPM_RANGE
    return int(min(hi, max(lo, math.ceil(_TEXTURE_OVERSAMPLE * scale))))


def _surface_view(stage: Stage) -> np.ndarray:
    """Every pixel's ray meets the table plane; look the surface texture up there."""
    cam = stage.camera
    xn, yn = cam.rays
    g = cam.plane_homography(0.0)
    border = np.concatenate([np.stack([xn[0], yn[0]], 1), np.stack([xn[-1], yn[-1]], 1),
                             np.stack([xn[:, 0], yn[:, 0]], 1), np.stack([xn[:, -1], yn[:, -1]], 1)])
    hom = np.column_stack([border, np.ones(len(border))]) @ g.T
    xy = hom[:, :2] / hom[:, 2:3]
    w, d = stage.layout.table_mm
    x0 = max(float(xy[:, 0].min()), -_SURFACE_REACH_MM) - 5
    x1 = min(float(xy[:, 0].max()), w + _SURFACE_REACH_MM) + 5
    y0 = max(float(xy[:, 1].min()), -_SURFACE_REACH_MM) - 5
    y1 = min(float(xy[:, 1].max()), d + _SURFACE_REACH_MM) + 5
    ppm = min(SURFACE_PX_PER_MM, math.sqrt(_SURFACE_MAX_PIXELS / ((x1 - x0) * (y1 - y0))))
    tex = surface_texture(stream(stage.seed, "surface", 1), stage.surface, x1 - x0, y1 - y0, ppm)
    a = np.array([[ppm, 0, -x0 * ppm - 0.5], [0, -ppm, y1 * ppm - 0.5], [0, 0, 1]]) @ g
    u, v = apply_homography(a, xn, yn)
    return cv2.remap(tex, u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def draw_placements(stage: Stage, canvas: Canvas, placements: list[_Placement]) -> dict[int, tuple]:
    """Draw flat parts (lowest and lowest z-order first), then the shadows and the solids
    (farthest first). Returns label -> (Drawn or None, polygon_mm, polygon_px, centre_px)."""
    out: dict[int, tuple] = {}
    flats, solids = [], []
    for p in placements:
        (flats if kinds.kind(p.kind).shape == "flat" else solids).append(p)
    flats.sort(key=lambda p: (p.pose[3], p.z_order, p.label))
    for p in flats:
        w, d, thick = kinds.size(p.kind, p.params)
        x, y, rot, z = p.pose
        top = z + thick
        tex = kinds.texture(p.kind, p.params, stage.px_per_mm)
        drawn = canvas.flat(tex, stage.px_per_mm, (w, d), (x, y, rot, top), p.label)
        corners = footprint((w, d), x, y, rot)
        px = stage.camera.project(np.column_stack([corners, np.full(4, top)]))
        centre = stage.camera.project(np.array([[x, y, top]]))[0]
        out[p.label] = (drawn, corners, px, centre)
    built = []
    for p in solids:
        spec = kinds.kind(p.kind)
        w, d, h = kinds.size(p.kind, p.params)
        x, y, rot, z = p.pose
        colour = spec.colour(dict(p.params))
        if spec.shape == "cube":
            solid, foot = box(p.label, (x, y), z, (w, d, h), rot, colour)
        else:
            solid, foot = cylinder(p.label, (x, y), z, w, h, colour, top_colour=tuple(int(c * 1.3) for c in colour))
        built.append((p, solid, foot, z))
    draw_solids(stage, canvas, [(s, z, _SOLID_SHADOW_PX) for _, s, _, z in built])
    for p, solid, foot, z in built:
        out[p.label] = solid_geometry(stage, canvas, solid, foot)
    return out


def draw_solids(stage: Stage, canvas: Canvas, items: list[tuple]) -> None:
    """Shadows first (each on the plane its solid stands on), then the solids far to near."""
    if stage.settings.shadows and stage.light.shadow_opacity > 0:
        for solid, ground, softness in items:
            canvas.shadows(solid.shadow, stage.light.direction, stage.light.shadow_opacity, softness, ground)
    eye = stage.camera.centre
    order = sorted(items, key=lambda it: -float(np.linalg.norm(it[0].centre - eye)))
    for solid, _, _ in order:
        canvas.solid(solid, stage.light.direction)


def object_truth(labels: np.ndarray, size: tuple[int, int], label: int, kind: str, ident: str, index,
                 params: dict, pose, geometry: tuple) -> ObjectTruth:
    """Assemble one object's ground truth once everything is drawn."""
    drawn, poly_mm, poly_px, centre = geometry
    w, h = size
    finite = np.all(np.isfinite(poly_px))
    in_frame = bool(finite and np.all((poly_px >= -0.5) & (poly_px <= [w - 0.5, h - 0.5])))
    if drawn is None or drawn.area == 0:  # not drawn, or drawn onto no pixel (a sliver beyond the frame)
        return ObjectTruth(label, kind, ident, index, params, pose, poly_mm, poly_px, centre, None, 0.0, (), in_frame)
    visibility = drawn.visibility(labels)
    occluders = tuple(drawn.occluders(labels)) if visibility < 1.0 else ()
    return ObjectTruth(label, kind, ident, index, params, pose, poly_mm, poly_px, centre, drawn.bbox,
                       visibility, occluders, in_frame)


def render(layout: Layout, seed: int, settings: RenderSettings = RenderSettings(),
           camera: Camera | None = None) -> Render:
    """Render ``layout`` as one photograph.

    Parameters
    ----------
    layout : Layout
    seed : int >= 0; the same seed (and layout, settings) gives the same bytes
    settings : RenderSettings; :data:`CLEAN` for a neutral image without hands or effects
    camera : Camera, optional; drawn from the seed when not given

    Returns
    -------
    Render
    """
    stage = Stage.build(layout, seed, settings, camera)
    canvas = stage.canvas()
    placements = stage.placements(layout)
    geometry = draw_placements(stage, canvas, placements)
    parts_labels = canvas.labels.copy()
    n_fixed = len(placements)
    extras = _props(stage, canvas, layout, n_fixed + 1)
    return replace(_finish(stage, canvas, placements, geometry, extras), parts_labels=parts_labels)


def _props(stage: Stage, canvas: Canvas, layout: Layout, first_label: int) -> list[tuple]:
    """Distractors and hands: drawn last; returns their truth rows (kind, pose, geometry)."""
    s = stage.settings
    rows, items = [], []
    drng = stream(stage.seed, "distractors")
    label = first_label
    eye_xy = stage.camera.centre[:2]
    for _ in range(int(drng.integers(s.distractors[0], s.distractors[1] + 1))):
        kind, solid, foot, pose = distractor(drng, label, layout.table_mm, eye_xy)
        items.append((solid, 0.0, _SOLID_SHADOW_PX * 2))
        rows.append((label, kind, pose, solid, foot))
        label += 1
    draw_solids(stage, canvas, items)
    hrng = stream(stage.seed, "hands")
    hands = []
    for _ in range(int(hrng.integers(s.hands[0], s.hands[1] + 1))):
        comps = layout.components
        if comps:
            c = comps[int(hrng.integers(len(comps)))]
            target = (c.x_mm + hrng.uniform(-20, 20), c.y_mm + hrng.uniform(-20, 20))
        else:
            target = (hrng.uniform(0, layout.table_mm[0]), hrng.uniform(0, layout.table_mm[1]))
        solid, hull, pose = reaching_hand(hrng, label, layout.table_mm, target)
        hands.append((solid, 0.0, _HAND_SHADOW_PX))
        rows.append((label, "hand", pose, solid, hull))
        label += 1
    draw_solids(stage, canvas, hands)
    return [(label, kind, pose, solid_geometry(stage, canvas, solid, foot)) for label, kind, pose, solid, foot in rows]


def solid_geometry(stage: Stage, canvas: Canvas, solid, foot) -> tuple:
    """(Drawn, footprint mm, silhouette hull px, centre px) of a drawn solid."""
    px = stage.camera.project(np.vstack([f.points for f in solid.faces]))
    hull = cv2.convexHull(px.astype(np.float32)).reshape(-1, 2).astype(np.float64) \
        if np.all(np.isfinite(px)) else px
    return (canvas.drawn.get(solid.label), np.asarray(foot), hull, stage.camera.project(solid.centre[None])[0])


def _finish(stage: Stage, canvas: Canvas, placements: list[_Placement], geometry: dict,
            extras: list[tuple]) -> Render:
    """Light, blur, noise, JPEG; then the ground truth."""
    s = stage.settings
    image = apply_light(canvas.image, stage.light) if s.light else canvas.image.copy()
    effects = random_effects(stream(stage.seed, "effects"), s.effect_ranges) if s.effects else NO_EFFECTS
    image = blur(image, effects)
    image = add_noise(image, effects, stream(stage.seed, "noise"))
    image, data = jpeg(image, effects.jpeg_quality)
    truth = build_truth(stage, canvas.labels, placements, geometry, extras, effects.to_json())
    return Render(image, canvas.labels, truth, data)


def build_truth(stage: Stage, labels: np.ndarray, placements: list[_Placement], geometry: dict,
                extras: list[tuple], effects: dict) -> Truth:
    objects, markers = [], []
    size = stage.camera.size
    for p in placements:
        geo = geometry[p.label]
        if p.kind == "table.marker":
            mid = dict(p.params)["id"]
            corners = np.array(stage.layout.marker_corners_mm()[mid])
            px = stage.camera.project(np.column_stack([corners, np.zeros(4)]))
            vis = geo[0].visibility(labels) if geo[0] is not None else 0.0
            markers.append(MarkerTruth(mid, p.label, corners, px, vis))
            continue
        objects.append(object_truth(labels, size, p.label, p.kind, p.ident, p.index, dict(p.params),
                                    p.pose, geo))
    for label, kind, pose, geo in extras:
        objects.append(object_truth(labels, size, label, kind, "", None, {}, pose, geo))
    return Truth(stage.seed, stage.camera, stage.surface, stage.px_per_mm, stage.light.to_json(), effects,
                 tuple(objects), tuple(sorted(markers, key=lambda m: m.id)))


def with_settings(settings: RenderSettings, **changes) -> RenderSettings:
    """A copy of ``settings`` with some fields changed."""
    return replace(settings, **changes)
