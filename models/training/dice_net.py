"""The dice detector network: a small encoder-decoder giving centre, offset and size maps.

Input (N, 3, H, W) with H, W multiples of 16; output (N, 5, H/4, W/4) (see
:mod:`tableref.vision.dice.decode` for the channels). The encoder halves the resolution four
times (to 1/16, enough context for a die of up to ~70 input pixels); the decoder adds the
coarse features back onto the finer ones (nearest upsampling) down to 1/4.
"""

from __future__ import annotations

import math

from ...vision.dice.decode import CHANNELS, HEAT
from . import TrainingError, require_torch
from .net import MAX_PARAMETERS, parameter_count

torch = require_torch()
nn = torch.nn

#: Channels at 1/2, 1/4, 1/8 and 1/16 of the input (narrow at the fine levels, where every
#: channel costs most: training runs on 2 shared CPU cores).
WIDTHS = (16, 24, 48, 64)
KERNEL = 3
#: Initial centre logit bias: every cell starts at this prior probability of being a centre
#: (keeps the focal loss of the many empty cells small at the start).
PRIOR = 0.01


def _conv(c_in: int, c_out: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c_in, c_out, KERNEL, stride=stride, padding=KERNEL // 2, bias=False),
                         nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


class DiceNet(nn.Module):
    """Centre-heatmap detector at stride 4 (about 0.12 M parameters)."""

    def __init__(self, widths: tuple[int, int, int, int] = WIDTHS):
        super().__init__()
        w2, w4, w8, w16 = widths
        self.down2 = _conv(3, w2, 2)
        self.down4 = _conv(w2, w4, 2)
        self.down8 = nn.Sequential(_conv(w4, w8, 2), _conv(w8, w8))
        self.down16 = nn.Sequential(_conv(w8, w16, 2), _conv(w16, w16))
        self.lateral16 = nn.Conv2d(w16, w8, 1)
        self.merge8 = _conv(w8, w8)
        self.lateral8 = nn.Conv2d(w8, w4, 1)
        self.merge4 = _conv(w4, w4)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.head = nn.Conv2d(w4, CHANNELS, 1)
        with torch.no_grad():
            self.head.bias.zero_()
            self.head.bias[HEAT] = -math.log((1 - PRIOR) / PRIOR)
        n = parameter_count(self)
        if n > MAX_PARAMETERS:
            raise TrainingError(f"the dice network has {n} parameters, more than the {MAX_PARAMETERS} allowed")

    def forward(self, x):  # noqa: D102 - torch's forward
        f4 = self.down4(self.down2(x))
        f8 = self.down8(f4)
        f16 = self.down16(f8)
        m8 = self.merge8(f8 + self.up(self.lateral16(f16)))
        m4 = self.merge4(f4 + self.up(self.lateral8(m8)))
        return self.head(m4)
