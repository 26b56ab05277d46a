"""Hula's observation tensor for learning code (the OpenSpiel and PettingZoo adapters)."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from gamehall.games.hula.geometry import geometry

OBSERVATION_PLANES = ("own", "other", "neutral", "empty", "to_move", "swap")
"""The planes of the tensor, one value per cell each (cells in action order)."""


def observation_planes(size: int, masks: tuple[int, int, int, int], to_move: bool,
                       swap: bool) -> Any:
    """Planes × cells, 0/1 float32, from the board masks seen from one seat's side.

    `masks`: the stones of the seat's own colour, of the other colour, the neutral stones and the
    empty cells (the centre is never empty); `to_move` and `swap` fill their planes with ones
    (the seat is to move; `swap` is legal). The bit masks become planes through one
    `unpackbits` and an index array per board.
    """
    width, where = _bit_positions(size)
    out = np.zeros((len(OBSERVATION_PLANES), len(where)), dtype=np.float32)
    for plane, mask in enumerate(masks):
        bits = np.unpackbits(np.frombuffer(mask.to_bytes(width, "little"), dtype=np.uint8),
                             bitorder="little")
        out[plane] = bits[where]
    if to_move:
        out[4] = 1.0
    if swap:
        out[5] = 1.0
    return out


@cache
def _bit_positions(size: int) -> tuple[int, Any]:
    """Bytes that hold a board mask, and each cell's bit position (an index array)."""
    pos = geometry(size).pos
    return max(pos) // 8 + 1, np.asarray(pos, dtype=np.intp)
