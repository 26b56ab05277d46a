"""Halali!'s JSON form: writing a state, and reading one back with every field checked.

The form holds only public facts: face-up tiles, face-down squares as ``?`` and the counts of
face-down tiles per kind (which anyone can work out from the tiles in sight and taken).
README.md documents each key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamehall.core import Game, StateFormatError
from gamehall.games.halali import notation as nt
from gamehall.games.halali.rules import END_PHASE_TURNS, TURN_LIMIT, HalaliState
from gamehall.games.halali.tiles import (
    COUNTS,
    EMPTY,
    FROM_TOKEN,
    HIDDEN,
    HUNTER_OUTCOME,
    HUNTERS,
    HUNTERS_PER_RIFLE,
    KIND_OF,
    OUTCOMES,
    OWN,
    SIDE_NAMES,
    SIZE,
    SQUARES,
    TOKENS,
    parse_square,
    square,
    square_name,
)


def unrevealed_keys(random_rifles: bool) -> list[str]:
    """Keys of the `unrevealed` object: one per outcome, or one `hunter` with random rifles."""
    if not random_rifles:
        return list(OUTCOMES)
    return [*OUTCOMES[:HUNTER_OUTCOME], "hunter", *OUTCOMES[HUNTER_OUTCOME + 4:]]


def _unrevealed_index(random_rifles: bool) -> list[int]:
    """The outcome index each `unrevealed` key is stored under."""
    keys = unrevealed_keys(random_rifles)
    return [OUTCOMES.index(k) if k != "hunter" else HUNTER_OUTCOME for k in keys]


def board_rows(board: list[int]) -> list[str]:
    """The board as 7 strings of 7 space-separated tokens, rank 7 first (as printed)."""
    return [" ".join(TOKENS[board[square(f, r)]] for f in range(SIZE))
            for r in range(SIZE - 1, -1, -1)]


def state_to_json(state: HalaliState) -> dict[str, Any]:
    random_rifles = state.random_rifles
    keys = unrevealed_keys(random_rifles)
    index = _unrevealed_index(random_rifles)
    first = state.first_game
    return {
        "game": state.game.name,
        "options": dict(state.game.options),
        "board": board_rows(state.board),
        "unrevealed": {k: state.left[i] for k, i in zip(keys, index, strict=True)},
        "to_move": None if state.over else SIDE_NAMES[state.side_to_move],
        "flipping": square_name(state.pending) if state.pending is not None else None,
        "captured": {SIDE_NAMES[s]: [TOKENS[c] for c in state.captured[s]] for s in (0, 1)},
        "exited": {SIDE_NAMES[s]: [TOKENS[c] for c in state.exited[s]] for s in (0, 1)},
        "previous_move": {
            SIDE_NAMES[s]: (f"{square_name(m[0])}-{square_name(m[1])}" if m else None)
            for s, m in enumerate(state.last_move)
        },
        "locked": square_name(state.locked) if state.locked is not None else None,
        "end_phase_turns_left": state.end_left,
        "turn": state.turns,
        "last_turn": state.last_turn,
        "match_game": state.game_no + 1,
        "first_game": None if first is None else {"scores": list(first[0]),
                                                   "taken": list(first[1])},
        "over": state.over,
    }


def _fail(msg: str) -> StateFormatError:
    return StateFormatError(f"halali state: {msg}")


def _int(data: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    v = data.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise _fail(f"{key!r} must be a whole number from {lo} to {hi}")
    return v


def _square_or_none(data: Mapping[str, Any], key: str) -> int | None:
    v = data.get(key)
    if v is None:
        return None
    sq = parse_square(v) if isinstance(v, str) else None
    if sq is None:
        raise _fail(f"{key!r} must be a square like 'c3' or null")
    return sq


def _board(data: Mapping[str, Any]) -> list[int]:
    rows = data.get("board")
    if not isinstance(rows, list) or len(rows) != SIZE:
        raise _fail("'board' must be a list of 7 rows, rank 7 first")
    board = [EMPTY] * SQUARES
    for i, row in enumerate(rows):
        tokens = row.split() if isinstance(row, str) else []
        if len(tokens) != SIZE:
            raise _fail(f"board row {i + 1} must hold 7 tokens separated by spaces")
        for f, tok in enumerate(tokens):
            code = FROM_TOKEN.get(tok.lower())
            if code is None:
                raise _fail(f"unknown board token {tok!r} (tokens: {' '.join(TOKENS.values())})")
            board[square(f, SIZE - 1 - i)] = code
    return board


def _tiles(data: Mapping[str, Any], key: str) -> tuple[list[int], list[int]]:
    obj = data.get(key)
    if not isinstance(obj, Mapping) or set(obj) != set(SIDE_NAMES):
        raise _fail(f"{key!r} must be an object with keys 'humans' and 'beasts'")
    out: tuple[list[int], list[int]] = ([], [])
    for s, name in enumerate(SIDE_NAMES):
        tokens = obj[name]
        if not isinstance(tokens, list):
            raise _fail(f"{key}.{name} must be a list of tile tokens")
        for tok in tokens:
            code = FROM_TOKEN.get(tok.lower()) if isinstance(tok, str) else None
            if code is None or code in (EMPTY, HIDDEN):
                raise _fail(f"{key}.{name}: {tok!r} is not a tile")
            if key == "exited" and code not in OWN[s]:
                raise _fail(f"only {name}' own tiles can leave the board, not {tok!r}")
            out[s].append(code)
    return out


def _previous(data: Mapping[str, Any]) -> list[tuple[int, int] | None]:
    obj = data.get("previous_move")
    if not isinstance(obj, Mapping) or set(obj) != set(SIDE_NAMES):
        raise _fail("'previous_move' must be an object with keys 'humans' and 'beasts'")
    out: list[tuple[int, int] | None] = []
    for name in SIDE_NAMES:
        v = obj[name]
        if v is None:
            out.append(None)
            continue
        parts = v.split("-") if isinstance(v, str) else []
        sqs = [parse_square(p) for p in parts]
        if len(sqs) != 2 or sqs[0] is None or sqs[1] is None or nt.line_between(
                sqs[0], sqs[1]) is None:
            raise _fail(f"previous_move.{name} must be a straight move like 'c3-c6' or null")
        out.append((sqs[0], sqs[1]))
    return out


def _left(data: Mapping[str, Any], random_rifles: bool) -> list[int]:
    obj = data.get("unrevealed")
    keys = unrevealed_keys(random_rifles)
    if not isinstance(obj, Mapping) or set(obj) != set(keys):
        raise _fail(f"'unrevealed' must be an object with keys {', '.join(keys)}")
    left = [0] * len(OUTCOMES)
    for k, i in zip(keys, _unrevealed_index(random_rifles), strict=True):
        left[i] = _int(obj, k, 0, COUNTS["hunter" if k == "hunter" else KIND_OF[2 + i]])
    return left


def _check_material(state: HalaliState) -> None:
    """No kind (or rifle direction) may appear more often than the game has tiles of it."""
    seen = [c for c in state.board if c not in (EMPTY, HIDDEN)]
    for s in (0, 1):
        seen += state.captured[s] + state.exited[s]
    for kind, count in COUNTS.items():
        n = sum(1 for c in seen if KIND_OF[c] == kind)
        n += sum(state.left[o] for o in range(len(OUTCOMES)) if KIND_OF[2 + o] == kind)
        if n > count:
            raise _fail(f"the position holds {n} {kind} tiles; the game has {count}")
    if not state.random_rifles:
        for d, code in enumerate(HUNTERS):
            n = seen.count(code) + state.left[HUNTER_OUTCOME + d]
            if n > HUNTERS_PER_RIFLE:
                raise _fail(f"more than {HUNTERS_PER_RIFLE} hunters aim {OUTCOMES[3 + d][-1]}")


def state_from_json(game: Game, data: Mapping[str, Any]) -> HalaliState:
    """Rebuild a state from `state_to_json` output or a hand-written position, checking it."""
    game.check_json_header(data)
    state = HalaliState(game)
    state.board = _board(data)
    state.hidden = state.board.count(HIDDEN)
    state.left = _left(data, state.random_rifles)
    if sum(state.left) != state.hidden:
        raise _fail(f"'unrevealed' counts {sum(state.left)} tiles but the board shows "
                    f"{state.hidden} face down")
    state.captured = _tiles(data, "captured")
    state.exited = _tiles(data, "exited")
    _check_material(state)
    state.last_move = _previous(data)
    state.locked = _square_or_none(data, "locked")
    state.turns = _int(data, "turn", 0, TURN_LIMIT)
    state.game_no = _int(data, "match_game", 1, 2 if state.match else 1) - 1
    _read_first_game(state, data)
    over = data.get("over")
    if not isinstance(over, bool):
        raise _fail("'over' must be true or false")
    state.over = over
    _read_turn(state, data)
    last = data.get("last_turn")
    if last is not None and not isinstance(last, str):
        raise _fail("'last_turn' must be text or null")
    state.last_turn = last
    return state


def _read_first_game(state: HalaliState, data: Mapping[str, Any]) -> None:
    first = data.get("first_game")
    if state.game_no == 0:
        if first is not None:
            raise _fail("'first_game' is set only during the second game of a match")
        return
    if not isinstance(first, Mapping):
        raise _fail("the second game of a match needs 'first_game' with scores and taken")
    pairs = []
    for key in ("scores", "taken"):
        v = first.get(key)
        if (not isinstance(v, list) or len(v) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v)):
            raise _fail(f"first_game.{key} must be two whole numbers, one per seat")
        pairs.append(list(v))
    state.first_game = (pairs[0], pairs[1])


def _read_turn(state: HalaliState, data: Mapping[str, Any]) -> None:
    """Whose turn, a pending flip, and the end-phase counter, consistent with each other."""
    to_move = data.get("to_move")
    state.pending = _square_or_none(data, "flipping")
    end = data.get("end_phase_turns_left")
    if state.over:
        if to_move is not None or state.pending is not None:
            raise _fail("a finished game has no 'to_move' and no 'flipping'")
        state.end_left = end if isinstance(end, int) and not isinstance(end, bool) else None
        return
    if to_move not in SIDE_NAMES:
        raise _fail("'to_move' must be 'humans' or 'beasts'")
    state.to_move = state.seat_of(SIDE_NAMES.index(to_move))
    if state.pending is not None and state.board[state.pending] != HIDDEN:
        raise _fail("'flipping' must name a face-down square")
    if state.hidden == 0:
        state.end_left = _int(data, "end_phase_turns_left", 1, END_PHASE_TURNS)
    elif end is not None:
        raise _fail("the end phase starts only when no tile is face down")
    else:
        state.end_left = None
