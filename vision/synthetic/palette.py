"""Named colours of the component designs (BGR, uint8), one table per colour family.

The food colours follow Da Luigi's cube colours; the Ligretto colours are the four colours
the rulebook's name suggests; the Dolce Vita player colours are assumed (not published).
"""

from __future__ import annotations

#: Da Luigi's food cubes: dish name -> BGR.
FOOD = {
    "dessert": (52, 64, 108),
    "pasta": (22, 122, 240),
    "pizza": (34, 206, 242),
    "salad": (58, 168, 52),
    "wine": (46, 28, 196),
    "water": (196, 116, 30),
}

#: Ligretto's four space colours.
LIGRETTO = {
    "red": (44, 40, 212),
    "yellow": (30, 204, 244),
    "green": (66, 158, 40),
    "blue": (188, 108, 22),
}

#: Dolce Vita's five player colours (number cards).
PLAYER = {
    "red": (44, 40, 212),
    "yellow": (30, 204, 244),
    "green": (66, 158, 40),
    "blue": (188, 108, 22),
    "purple": (150, 48, 132),
}

#: Dolce Vita's seven luxury goods: good -> colour of the card's band.
GOODS = {
    "house": (52, 96, 186),
    "car": (46, 40, 176),
    "boat": (120, 60, 20),
    "horse": (40, 84, 120),
    "jewellery": (140, 50, 150),
    "watch": (30, 150, 200),
    "holiday": (170, 150, 20),
}

PAPER = (236, 242, 246)
INK = (34, 30, 28)
GREY = (150, 150, 150)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
MONEY = (92, 142, 70)
GOLD = (40, 170, 214)
LEMON = (30, 220, 250)
FLOWER = (150, 90, 230)
LEAF = (60, 150, 60)
BOARD_WOOD = (110, 160, 200)
BOARD_DARK = (60, 70, 80)
CARD_BACK = (90, 40, 40)


def with_alpha(bgr: tuple[int, int, int], alpha: int = 255) -> tuple[int, int, int, int]:
    """A BGR colour as the BGRA tuple OpenCV draws on a texture with an alpha channel."""
    return (int(bgr[0]), int(bgr[1]), int(bgr[2]), int(alpha))


def shade(bgr: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    """The colour scaled by ``factor`` (darker below 1, lighter above), clipped to 0..255."""
    return tuple(int(min(255, max(0, round(c * factor)))) for c in bgr)  # type: ignore[return-value]
