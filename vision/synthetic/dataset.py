"""Labelled training and test images of the three games, one per seed.

``sample(game, seed)`` draws a state from a random playout, lays it out as the rulebook
describes, and photographs it with a random camera, light, table surface, distractors and
sometimes a hand (:class:`~tableref.vision.synthetic.RenderSettings` ranges); its labels say
everything known about the image. ``render_sample(game, seed)`` gives the image and the
labels only. The same game, seed and settings give the same bytes.

Labels (a JSON-ready dict)::

    {"game", "seed", "players", "phase",
     "state": the rules state's JSON,
     "observation": the perfect recogniser's observation JSON (only what shows),
     "table_mm": [width, depth], "marker_mm",
     "camera": {"image_size", "K", "dist", "rvec", "tvec", "R", "centre_mm"},
     "markers": [{"id", "corners_mm", "corners_px", "visibility", ...}],
     "objects": [{"ident", "kind", "params", "polygon_mm", "polygon_px", "centre_px", "bbox_px",
                  "visibility", "shown", "seen", ...}],
     "regions": {name: {"corners_mm", "corners_px", "shown", "seen"}},
     "render": {"surface", "light", "effects", "texture_px_per_mm"}}

``visibility`` is the share of an object's own pixels not covered by anything; ``shown`` the
share not covered by hands or distractors (of what would show without them); ``seen`` whether
a perfect recogniser reads it (``shown >= SEEN_SHARE``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from .errors import LayoutError
from .games import GAMES, SEEN_SHARE, GameScene, Seen, observation_of, random_state, scene_for, seen_shares
from .scene import Render, RenderSettings, render

#: The settings of dataset images: every range of the renderer (hands 0-2, distractors 0-3).
DEFAULT_SETTINGS = RenderSettings()
#: JPEG quality of images rendered without camera effects (which would choose their own).
CLEAN_JPEG_QUALITY = 95


@dataclass(frozen=True, eq=False)
class Sample:
    """One labelled image: the scene, its render, what shows, the perfect observation."""

    game: str
    seed: int
    scene: GameScene
    render: Render
    seen: Seen
    observation: Any

    @property
    def image(self) -> np.ndarray:
        """BGR uint8 (H, W, 3)."""
        return self.render.image

    @property
    def jpeg(self) -> bytes:
        """The image as the camera's JPEG (re-encoded at a fixed quality when effects are off)."""
        if self.render.jpeg is not None:
            return self.render.jpeg
        _, data = cv2.imencode(".jpg", self.render.image, [cv2.IMWRITE_JPEG_QUALITY, CLEAN_JPEG_QUALITY])
        return data.tobytes()

    def labels(self) -> dict[str, Any]:
        """The JSON-ready labels (see the module docstring)."""
        return _labels(self)


def _check(game: str, seed: Any) -> int:
    if game not in GAMES:
        raise LayoutError(f"unknown game {game!r}: use one of {', '.join(GAMES)}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise LayoutError(f"seed must be a whole number >= 0, got {seed!r}")
    return int(seed)


def sample(game: str, seed: int, settings: RenderSettings = DEFAULT_SETTINGS, **scene_options: Any) -> Sample:
    """Draw, lay out and photograph one random state of ``game``.

    Parameters
    ----------
    game : str
        ``daluigi``, ``dolcevita`` or ``ligretto`` (see :data:`~.games.GAMES`).
    seed : int >= 0
        Chooses the players, the moment of the game, camera, light, surface and props.
    settings : RenderSettings
    scene_options
        The game's layout options (:func:`~.games.scene_for`), e.g. Ligretto's
        ``board_turn_deg``; the same seed without them draws the same state, camera and props.
    """
    seed = _check(game, seed)
    state = random_state(game, seed)
    scene = scene_for(game, state, **scene_options)
    result = render(scene.layout, seed, settings)
    seen = seen_shares(scene, result)
    return Sample(game, seed, scene, result, seen, observation_of(scene, seen))


def render_sample(game: str, seed: int, settings: RenderSettings = DEFAULT_SETTINGS) -> tuple[np.ndarray, dict]:
    """``(image, labels)`` of :func:`sample`: BGR uint8 (H, W, 3) and a JSON-ready dict."""
    s = sample(game, seed, settings)
    return s.image, s.labels()


def _round(a) -> list:
    return np.round(np.asarray(a, np.float64), 4).tolist()


def _labels(s: Sample) -> dict[str, Any]:
    truth = s.render.truth.to_json()
    cam = s.render.truth.camera
    objects = []
    for o in truth["objects"]:
        ident = o["ident"]
        if ident:
            shown = s.seen.parts.get(ident, 0.0)
            o = {**o, "shown": round(shown, 4), "seen": shown >= SEEN_SHARE}
        objects.append(o)
    regions = {}
    for name, corners in s.scene.regions.items():
        shown = s.seen.regions.get(name, 0.0)
        regions[name] = {"corners_mm": _round(corners), "corners_px": _round(cam.project(np.asarray(corners))),
                         "shown": round(shown, 4), "seen": shown >= SEEN_SHARE}
    state = s.scene.state
    return {
        "game": s.game, "seed": s.seed, "players": state.players, "phase": state.phase,
        "state": state.to_json(), "observation": s.observation.to_json(),
        "table_mm": list(s.scene.layout.table_mm), "marker_mm": s.scene.layout.marker_mm,
        "camera": truth["camera"], "markers": truth["markers"], "objects": objects, "regions": regions,
        "render": {k: truth[k] for k in ("surface", "light", "effects", "texture_px_per_mm")},
    }


#: A contact sheet: how many renders, in how many columns, each tile's width (px).
CONTACT_COUNT, CONTACT_COLUMNS, CONTACT_TILE_PX = 24, 6, 320


def contact_sheet(game: str, seed: int = 0, count: int = CONTACT_COUNT, columns: int = CONTACT_COLUMNS,
                  tile_px: int = CONTACT_TILE_PX) -> np.ndarray:
    """``count`` random renders of ``game`` (seeds ``seed``, ``seed + 1``, ...) side by side.

    Returns
    -------
    ndarray (rows * tile height, columns * tile_px, 3) uint8, BGR; tiles keep the image's
    aspect ratio, row by row.
    """
    seed = _check(game, seed)
    if count < 1 or columns < 1 or tile_px < 16:
        raise LayoutError(f"a contact sheet needs count >= 1, columns >= 1, tile_px >= 16; got {count}, {columns}, "
                          f"{tile_px}")
    tiles = []
    for k in range(count):
        image = sample(game, seed + k).image
        h, w = image.shape[:2]
        tiles.append(cv2.resize(image, (tile_px, round(h * tile_px / w)), interpolation=cv2.INTER_AREA))
    th = tiles[0].shape[0]
    rows = -(-count // columns)
    sheet = np.zeros((rows * th, columns * tile_px, 3), np.uint8)
    for k, tile in enumerate(tiles):
        r, c = divmod(k, columns)
        sheet[r * th:(r + 1) * th, c * tile_px:(c + 1) * tile_px] = tile
    return sheet
