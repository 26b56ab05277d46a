"""Hula positions drawn as pictures, for readable tests.

A picture lists the rows from the top (the last letter) down to row ``a``, one token per cell,
left to right: ``.`` empty, ``X`` a stone of the first colour, ``O`` of the second colour, ``n``
neutral, ``*`` the centre. Indentation is free.
"""

from __future__ import annotations

from typing import Any

from gamehall.core import load_game
from gamehall.games.hula import HulaState
from gamehall.games.hula.geometry import geometry

TOKENS = {"X": "first", "O": "second", "n": "neutral"}
SYMBOLS = {"first": "X", "second": "O", "neutral": "n"}


def board_of(size: int, picture: str) -> dict[str, str]:
    """The JSON `board` object drawn by `picture`."""
    geo = geometry(size)
    rows = [line.split() for line in picture.strip().splitlines() if line.strip()]
    assert len(rows) == geo.num_rows, f"{len(rows)} rows drawn, the board has {geo.num_rows}"
    board: dict[str, str] = {}
    for top_index, tokens in enumerate(rows):
        row = geo.num_rows - 1 - top_index
        letter = chr(ord("a") + row)
        assert len(tokens) == geo.row_lengths[row], f"row {letter}: {len(tokens)} cells drawn"
        for n, token in enumerate(tokens, start=1):
            if token in TOKENS:
                board[f"{letter}{n}"] = TOKENS[token]
            else:
                assert token in ".*", f"unknown token {token!r} in row {letter}"
                assert (token == "*") == (f"{letter}{n}" == geo.names[geo.centre])
    return board


def position(size: int, picture: str, *, swapped: bool = False, pie: bool = True,
             **extra: Any) -> HulaState:
    """The state drawn by `picture`; the seat to move follows from the stones and `swapped`."""
    board = board_of(size, picture)
    colour = len(board) % 2
    data = {
        "game": "hula",
        "options": {"size": size, "pie": pie},
        "board": board,
        "to_move": ("first", "second")[colour ^ swapped],
        "swapped": swapped,
        **extra,
    }
    state = load_game("hula", size=size, pie=pie).state_from_json(data)
    assert isinstance(state, HulaState)
    return state


def picture_of(state: HulaState) -> str:
    """The picture of a state (the inverse of `board_of`), for messages and for writing tests."""
    geo = state.geo
    board = state.to_json()["board"]
    lines = []
    start = geo.num_cells
    for row in reversed(range(geo.num_rows)):
        start -= geo.row_lengths[row]
        tokens = []
        for cell in range(start, start + geo.row_lengths[row]):
            name = geo.names[cell]
            tokens.append("*" if cell == geo.centre else SYMBOLS.get(board.get(name, ""), "."))
        indent = " " * (geo.num_rows - geo.row_lengths[row])
        lines.append(indent + " ".join(tokens))
    return "\n".join(lines)
