"""The small CNN: a few conv-bn-relu blocks, average pooling to a small grid, one linear layer."""

from __future__ import annotations

from collections.abc import Sequence

from . import TrainingError, require_torch

torch = require_torch()
nn = torch.nn

#: The classifiers run on 2 CPU cores beside everything else: keep them small.
MAX_PARAMETERS = 1_000_000
#: Output channels of each conv-bn-relu-maxpool block; every block halves the resolution.
#: At 64x64 input this is about 0.1 M parameters and 16 M multiply-adds per crop, so a full
#: Dolce Vita display (63 cards) stays within tens of milliseconds on 2 cores.
DEFAULT_WIDTHS = (16, 32, 64, 128)
#: Dropout before the classifier layer (training only).
DROPOUT = 0.2
KERNEL = 3


def _block(c_in: int, c_out: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, KERNEL, padding=KERNEL // 2, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(2),
    )


class SmallNet(nn.Module):
    """Input (N, C, h, w) float32 -> logits (N, classes). Works for any h, w >= 2**len(widths).

    ``pool_grid`` is the side of the grid the last block's map is averaged to: 1 is global
    pooling (where a feature lies is lost); 2 keeps the crop's quarters apart, so a digit in
    the middle of the crop and one of a neighbouring card at its edge are told apart.
    """

    def __init__(self, channels: int, classes: int, widths: Sequence[int] = DEFAULT_WIDTHS, pool_grid: int = 1):
        super().__init__()
        if classes < 2 or channels < 1 or not widths or pool_grid < 1:
            raise TrainingError(f"a classifier needs >= 1 channel, >= 2 classes, >= 1 block and a pool grid >= 1, "
                                f"got {channels}, {classes}, {list(widths)}, {pool_grid}")
        blocks, c = [], channels
        for width in widths:
            blocks.append(_block(c, width))
            c = width
        self.features = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool2d(pool_grid)
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(DROPOUT), nn.Linear(c * pool_grid * pool_grid, classes))
        n = parameter_count(self)
        if n > MAX_PARAMETERS:
            raise TrainingError(f"the network has {n} parameters, more than the {MAX_PARAMETERS} allowed; "
                                "use narrower widths")

    def forward(self, x):  # noqa: D102 - torch's forward
        return self.head(self.pool(self.features(x)))


def parameter_count(model: nn.Module) -> int:
    """Number of trainable parameters."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
