"""The board network's first layer, computed from the nonzero inputs alone.

A game's board planes are mostly zeros: a Gem Mountain position sets about
170 of its 4,068 plane entries. The dense 3x3 convolution over all planes
(the network's costliest layer) multiplies every zero by nine taps of every
channel; here each nonzero input instead adds its symlogged value times its
nine taps into the cells around it, 20-30 times less arithmetic. The sums
are the same as the dense layer's, in another order (float32 rounding apart).
"""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.envs.core.compiled.jit import njit


@njit
def _symlog_conv(boards, taps, bias, rows, cols, out):
    """``out[b, cell, o]``: the bias plus every nonzero input's symlog times
    the tap linking its cell to ``cell``; ``taps`` is (plane, dr, dc, out)."""
    cells, out_channels = rows * cols, bias.shape[0]
    for b in range(boards.shape[0]):
        for cell in range(cells):
            for o in range(out_channels):
                out[b, cell, o] = bias[o]
        for entry in range(boards.shape[1]):
            value = boards[b, entry]
            if value == 0.0:
                continue
            scaled = math.copysign(math.log1p(abs(value)), value)
            plane, cell = divmod(entry, cells)
            r, c = divmod(cell, cols)
            for dr in range(3):
                out_row = r + 1 - dr
                if out_row < 0 or out_row >= rows:
                    continue
                for dc in range(3):
                    out_col = c + 1 - dc
                    if out_col < 0 or out_col >= cols:
                        continue
                    target = out_row * cols + out_col
                    for o in range(out_channels):
                        out[b, target, o] += scaled * taps[plane, dr, dc, o]


class SparseSymlogConv3x3:
    """``Conv3x3(symlog(boards))`` (same-size, torch's layout) for raw,
    mostly-zero boards given flat as (batch, planes * rows * cols)."""

    def __init__(self, weight: np.ndarray, bias: np.ndarray, rows: int, cols: int) -> None:
        self.taps = np.ascontiguousarray(weight.transpose(1, 2, 3, 0), dtype=np.float32)
        self.bias = np.ascontiguousarray(bias, dtype=np.float32)
        self.rows, self.cols = int(rows), int(cols)

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        """(batch, out_channels, rows, cols), as the dense layer returns it."""
        batch = boards.shape[0]
        out = np.empty((batch, self.rows * self.cols, self.bias.shape[0]), dtype=np.float32)
        _symlog_conv(
            np.ascontiguousarray(boards, dtype=np.float32), self.taps, self.bias, self.rows, self.cols, out
        )
        return out.transpose(0, 2, 1).reshape(batch, -1, self.rows, self.cols)
