"""Fixed-size observation tensors and strings for any gamehall game, shared by both adapters.

A game may provide its own tensor, the abilities `gamehall.core.ObservationShape` (the game's
``observation_shape``, a tuple of ints) and `gamehall.core.ObservationTensor` (its states'
``observation_tensor(seat)``: numbers of that shape, or flat of that size), and optionally
`gamehall.core.ObservationBounds` (the game's ``observation_bounds``, low and high; default 0.0
and 1.0). Without those hooks the generic
encoding is used, which works for every game because it reads only the contract.

The generic encoding reads ``State.to_json()``, the public position: the contract makes it hold
everything the rules depend on and never hidden information, so in these perfect-information
games it is exactly what every seat observes. (``view(seat)`` is for people: it may add static
board geometry or legal-move lists, which would only cost time here.) The tensor has three parts:

- ``seat``: one-hot of the observing seat (``num_players``);
- ``to_move``: one-hot of the seat to move, then chance, then terminal (``num_players + 2``);
- ``features``: feature hashing of the JSON — every leaf becomes the text ``path=value``
  (e.g. ``/stacks/c1/0='white'``, the value as Python's repr writes it), and the cell
  ``crc32(text) mod K`` is set to 1. A string longer than 8 characters (a board row drawn as
  text, e.g. ``"? ? T ? ? ? ?"``) is read character by character (``/board/3/4='T'``), so
  that the tensor tells its cells apart. ``K`` is a power of two at least 8 times the leaves of the
  initial position (at least 256), so collisions are rare; where two features share a cell the
  tensor loses that distinction. The top-level ``game`` and ``options`` keys are left out (they
  never change in a game).

The observation string is the same JSON, compact with sorted keys (equal for every seat).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from typing import Any, cast

import numpy as np

from gamehall.core import (
    CHANCE,
    TERMINAL,
    Game,
    ObservationBounds,
    ObservationShape,
    ObservationTensor,
    State,
)

_SKIP_TOP = frozenset({"game", "options"})
_MIN_FEATURES = 256
_MAX_FEATURES = 1 << 15
_MAX_CACHE = 1 << 20
_MAX_SUBTREES = 1 << 12
_TEXT_ROW = 8


class Encoder:
    """Turns a state of one game (with fixed options) into a tensor and a string for a seat."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.num_players = game.num_players
        initial = game.new_initial_state(0)
        self.uses_hook = (isinstance(game, ObservationShape)
                          and isinstance(initial, ObservationTensor))
        self.low, self.high = 0.0, 1.0
        if isinstance(game, ObservationShape) and self.uses_hook:
            self.shape: tuple[int, ...] = tuple(int(n) for n in game.observation_shape)
            if isinstance(game, ObservationBounds):
                self.low, self.high = (float(x) for x in game.observation_bounds)
            self.num_features = 0
        else:
            leaves = len(_leaves(_public(initial.to_json())))
            self.num_features = _features_for(leaves)
            self.shape = (2 * self.num_players + 2 + self.num_features,)
        self.size = int(np.prod(self.shape))
        self._buckets: dict[str, int] = {}
        self._subtrees: dict[tuple[str, str], tuple[int, ...]] = {}

    # --- layout --------------------------------------------------------------------------------
    def views(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """Named views onto a flat tensor of `size` floats (what OpenSpiel observers expose)."""
        if self.uses_hook:
            return {"observation": flat.reshape(self.shape)}
        p = self.num_players
        return {
            "seat": flat[:p],
            "to_move": flat[p:2 * p + 2],
            "features": flat[2 * p + 2:],
        }

    # --- encoding ------------------------------------------------------------------------------
    def fill(self, out: np.ndarray, state: State, seat: int,
             data: Mapping[str, Any] | None = None,
             position: np.ndarray | None = None) -> None:
        """Write the observation of `state` by `seat` into the flat float array `out`.

        `data` may pass ``state.to_json()``, and `position` what `position` returns, where the
        caller already has them (they are the same for every seat).
        """
        if self.uses_hook:
            values = np.asarray(cast(ObservationTensor, state).observation_tensor(seat),
                                dtype=np.float32)
            out[:] = values.reshape(-1)
            return
        p = self.num_players
        out[:p] = 0.0
        out[seat] = 1.0
        out[p:] = self.position(state, data) if position is None else position

    def position(self, state: State, data: Mapping[str, Any] | None = None) -> np.ndarray:
        """The seat-independent part of the generic tensor: who is to move, and the features."""
        p = self.num_players
        flat = np.zeros(self.size - p, dtype=np.float32)
        player = state.current_player()
        flat[p if player == CHANCE else p + 1 if player == TERMINAL else player] = 1.0
        cells: list[int] = []
        for key, value in (state.to_json() if data is None else data).items():
            if key not in _SKIP_TOP:
                cells.extend(self._key_cells(key, value))
        flat[np.asarray(cells, dtype=np.intp) + (p + 2)] = 1.0
        return flat

    def _key_cells(self, key: str, value: Any) -> tuple[int, ...]:
        """The feature cells of one top-level entry, remembered by its JSON text: most entries
        of a position are unchanged from the last one (the board while a turn goes on), and
        writing JSON in C is much quicker than walking it in Python."""
        if not isinstance(value, (dict, list, tuple, str)) or (
                isinstance(value, str) and not _is_text_row(value)):
            return (self._bucket(f"/{key}={value!r}"),)
        text = (key, json.dumps(value))
        cells = self._subtrees.get(text)
        if cells is None:
            leaves: list[str] = []
            _walk(value, f"/{key}", leaves)
            cells = tuple(self._bucket(leaf) for leaf in leaves)
            if len(self._subtrees) >= _MAX_SUBTREES:
                self._subtrees.clear()
            self._subtrees[text] = cells
        return cells

    def tensor(self, state: State, seat: int, data: Mapping[str, Any] | None = None,
               position: np.ndarray | None = None) -> np.ndarray:
        """A new float32 array of `shape` holding the observation of `state` by `seat`."""
        flat = np.zeros(self.size, dtype=np.float32)
        self.fill(flat, state, seat, data, position)
        return flat.reshape(self.shape)

    def string(self, state: State, data: Mapping[str, Any] | None = None) -> str:
        """The observation of `state` (by any seat) as compact, key-sorted JSON."""
        return json.dumps(state.to_json() if data is None else data, sort_keys=True,
                          separators=(",", ":"))

    def _bucket(self, leaf: str) -> int:
        cell = self._buckets.get(leaf)
        if cell is None:
            if len(self._buckets) >= _MAX_CACHE:
                self._buckets.clear()
            cell = zlib.crc32(leaf.encode()) % self.num_features
            self._buckets[leaf] = cell
        return cell


def _features_for(leaves: int) -> int:
    """The feature count K: a power of two, at least 8 cells per initial leaf."""
    k = _MIN_FEATURES
    while k < 8 * leaves and k < _MAX_FEATURES:
        k *= 2
    return k


def _public(data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in _SKIP_TOP}


def _leaves(data: Any) -> list[str]:
    """Every leaf of a JSON value as ``path=value`` text (empty containers are leaves too)."""
    out: list[str] = []
    _walk(data, "", out)
    return out


def _walk(node: Any, path: str, out: list[str]) -> None:
    # JSON data is dicts, lists and scalars; concrete type checks are much faster than ABCs,
    # and scalar children are written inline to save a call per leaf.
    if isinstance(node, dict):
        if not node:
            out.append(f"{path}={{}}")
        for key, value in node.items():
            if isinstance(value, (dict, list, tuple)) or _is_text_row(value):
                _walk(value, f"{path}/{key}", out)
            else:
                out.append(f"{path}/{key}={value!r}")
    elif isinstance(node, (list, tuple)):
        if not node:
            out.append(f"{path}=[]")
        for i, value in enumerate(node):
            if isinstance(value, (dict, list, tuple)) or _is_text_row(value):
                _walk(value, f"{path}/{i}", out)
            else:
                out.append(f"{path}/{i}={value!r}")
    elif _is_text_row(node):
        out.extend(f"{path}/{i}={ch!r}" for i, ch in enumerate(node))
    else:
        out.append(f"{path}={node!r}")


def _is_text_row(value: Any) -> bool:
    """A string long enough to be a row or board drawn as text: read it character by character."""
    return isinstance(value, str) and len(value) > _TEXT_ROW
