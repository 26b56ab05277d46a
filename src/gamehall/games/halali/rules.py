"""Halali!'s state: flips as chance nodes, moves and captures, exits, the end phase, the match.

The state never knows what a face-down tile is: it keeps only how many tiles of each kind are
still face down (public knowledge, since all others are in sight or taken) and draws the tile's
identity as a chance outcome when a player flips it.
"""

from __future__ import annotations

import random
from typing import Any

from gamehall.core import CHANCE, TERMINAL, Game, IllegalActionError, State
from gamehall.games.halali import notation as nt
from gamehall.games.halali.notation import EXIT_ID, MOVE_ID
from gamehall.games.halali.tiles import (
    BEASTS,
    CAPTURES,
    CENTRE,
    CODE_POINTS,
    COUNTS,
    EMPTY,
    GREEN_MOVABLE,
    HIDDEN,
    HUMANS,
    HUNTER_OUTCOME,
    HUNTERS_PER_RIFLE,
    OUTCOMES,
    OWN,
    RAYS,
    SHORT_MOVERS,
    SQUARES,
)

SIDE_COLOURS = {HUMANS: "#8a4b12", BEASTS: "#1d4e8f"}
"""The humans' and the beasts' glyphs as the board draws them (style.css)."""

END_PHASE_TURNS = 10
"""Turns left once the last tile is face up: five for each player."""
TURN_LIMIT = 1000
"""Safety bound (decision, see README): a game that reaches this many turns ends there."""


def full_stack(random_rifles: bool) -> list[int]:
    """Face-down counts per outcome at the start; with random rifles all hunters count under
    the first hunter outcome, since their directions are drawn separately."""
    left = [COUNTS["bear"], COUNTS["fox"], COUNTS["lumberjack"]]
    if random_rifles:
        left += [COUNTS["hunter"], 0, 0, 0]
    else:
        left += [HUNTERS_PER_RIFLE] * 4
    return left + [COUNTS["pheasant"], COUNTS["duck"], COUNTS["tree"]]


PATHS = tuple(
    tuple(tuple(zip(RAYS[sq][d], MOVE_ID[sq][d], strict=True)) for d in range(4))
    for sq in range(SQUARES))
"""PATHS[sq][d]: (square, move action) pairs outwards from `sq` in direction `d`."""


class HalaliState(State):
    """One position of Halali! (or of a two-game match)."""

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.random_rifles = game.options["rifles"] == "random"
        self.match = bool(game.options["match"])
        self.game_no = 0
        self.first_game: tuple[list[int], list[int]] | None = None
        """Scores and tiles taken per seat in the first game of a match, once it is over."""
        self.over = False
        self.start_game()

    def start_game(self) -> None:
        """Set up a fresh board: 48 face-down tiles around an empty centre; beasts to move."""
        self.board = [HIDDEN] * SQUARES
        self.board[CENTRE] = EMPTY
        self.hidden = SQUARES - 1
        self.left = full_stack(self.random_rifles)
        self.to_move = self.seat_of(BEASTS)
        self.pending: int | None = None
        self.captured: tuple[list[int], list[int]] = ([], [])
        self.exited: tuple[list[int], list[int]] = ([], [])
        self.last_move: list[tuple[int, int] | None] = [None, None]
        """Per side, (from, to) of that side's previous turn if it moved a tile on the board."""
        self.locked: int | None = None
        """The duck/pheasant square the player to move may not touch (rule 2), if any."""
        self.end_left: int | None = None
        self.turns = 0
        self.last_turn: str | None = None
        self._legal: list[int] | None = None
        self._legal_set: frozenset[int] = frozenset()

    # --- seats and sides ------------------------------------------------------------------------
    def side_of_seat(self, seat: int) -> int:
        """Seat 0 plays the humans in game 1 and the beasts in game 2 of a match."""
        return seat ^ self.game_no

    def seat_of(self, side: int) -> int:
        return side ^ self.game_no

    def seat_colours(self) -> tuple[str, ...]:
        """Each seat's side's colour in the game under way (a match swaps them)."""
        return tuple(SIDE_COLOURS[self.side_of_seat(seat)] for seat in (0, 1))

    @property
    def side_to_move(self) -> int:
        return self.side_of_seat(self.to_move)

    def score(self, side: int) -> int:
        """Points `side` has taken in the current game (captures plus exits)."""
        return sum(CODE_POINTS[c] for c in self.captured[side]) + sum(
            CODE_POINTS[c] for c in self.exited[side])

    def taken(self, side: int) -> int:
        return len(self.captured[side]) + len(self.exited[side])

    def totals(self) -> tuple[list[int], list[int]]:
        """(scores, tiles taken) per seat, the first game of a match included."""
        scores = [self.score(self.side_of_seat(s)) for s in (0, 1)]
        taken = [self.taken(self.side_of_seat(s)) for s in (0, 1)]
        if self.first_game is not None:
            scores = [a + b for a, b in zip(scores, self.first_game[0], strict=True)]
            taken = [a + b for a, b in zip(taken, self.first_game[1], strict=True)]
        return scores, taken

    # --- the contract ---------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.pending is not None:
            return CHANCE
        return self.to_move

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            if self.over:
                legal = []
            elif self.pending is not None:
                legal = [a for a, _ in self.chance_outcomes()]
            else:
                legal = self._player_actions()
            self._legal = legal
            self._legal_set = frozenset(legal)
        return list(self._legal)

    def _is_legal(self, action: int) -> bool:
        if self._legal is None:
            self.legal_actions()
        return action in self._legal_set

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.pending is None or self.over:
            return []
        total = self.hidden
        out: list[tuple[int, float]] = []
        for o, n in enumerate(self.left):
            if n <= 0:
                continue
            if self.random_rifles and o == HUNTER_OUTCOME:
                out += [(nt.outcome_action(o + d), n / total / 4) for d in range(4)]
            else:
                out.append((nt.outcome_action(o), n / total))
        return out

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0, 0.0]
        scores, taken = self.totals()
        key0, key1 = (scores[0], taken[0]), (scores[1], taken[1])
        if key0 == key1:
            return [0.0, 0.0]
        return [1.0, -1.0] if key0 > key1 else [-1.0, 1.0]

    def action_to_string(self, action: int) -> str:
        return nt.to_string(action, self._captures(action))

    def action_parts(self, action: int) -> dict[str, Any]:
        return nt.action_parts(action, self._captures(action), self.pending)

    def _captures(self, action: int) -> bool:
        """Whether `action` is a move onto a face-up tile (written with ``x``)."""
        dec = nt.decode(action)
        return dec is not None and dec.kind == "move" and self.board[dec.to] not in (EMPTY, HIDDEN)

    def clone(self) -> HalaliState:
        new = self._clone_base()
        new.board = list(self.board)
        new.left = list(self.left)
        new.captured = (list(self.captured[0]), list(self.captured[1]))
        new.exited = (list(self.exited[0]), list(self.exited[1]))
        new.last_move = list(self.last_move)
        if self.first_game is not None:
            new.first_game = (list(self.first_game[0]), list(self.first_game[1]))
        return new

    # --- move generation ------------------------------------------------------------------------
    def _player_actions(self) -> list[int]:
        """Flips, moves, captures and exits for the seat to move; `pass` only if none exist."""
        board = self.board
        side = self.side_to_move
        actions = [sq for sq in range(SQUARES) if board[sq] == HIDDEN] if self.hidden else []
        exits: list[int] = []
        own = OWN[side]
        locked = self.locked
        last = self.last_move[side]
        ban_from, ban_to = last if last is not None else (-1, -1)
        end_phase = self.end_left is not None
        append = actions.append
        for sq in range(SQUARES):
            code = board[sq]
            is_own = code in own
            if not is_own and (code not in GREEN_MOVABLE or sq == locked):
                continue
            banned = ban_from if sq == ban_to else -1  # no moving straight back (rule 1)
            short = code in SHORT_MOVERS
            captures = CAPTURES[code]
            for d, path in enumerate(PATHS[sq]):
                prey = captures[d]
                for t, action in (path[:1] if short else path):
                    target = board[t]
                    if target == EMPTY:
                        if t != banned:
                            append(action)
                        continue
                    if target in prey and t != banned:
                        append(action)
                    break
                else:  # nothing in the way: an exit, if one lies this way within reach
                    if end_phase and is_own and EXIT_ID[sq][d] >= 0 and (
                            not short or not path):
                        exits.append(EXIT_ID[sq][d])
        actions += exits
        return actions if actions else [nt.PASS]

    # --- playouts --------------------------------------------------------------------------------
    def draw_outcome(self, rng: random.Random) -> int:
        """A chance outcome drawn like `sample_chance`, without building the probability list:
        a uniform pick among the face-down tiles (and a uniform rifle with rifles=random)."""
        pick = rng.randrange(self.hidden)
        for o, n in enumerate(self.left):
            if pick < n:
                if self.random_rifles and o == HUNTER_OUTCOME:
                    o += rng.randrange(4)
                return nt.outcome_action(o)
            pick -= n
        raise IllegalActionError("no face-down tile is left")  # pragma: no cover

    def random_playout(self, rng: random.Random) -> int:
        """Play uniformly random legal actions (chance by its odds) to the end, in place;
        return how many actions were applied. The fast path for bot rollouts."""
        n = 0
        while not self.over:
            if self.pending is not None:
                action = self.draw_outcome(rng)
            else:
                legal = self._player_actions()
                action = legal[rng.randrange(len(legal))]
            self._apply(action)
            self._history.append(action)
            n += 1
        return n

    # --- applying -------------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        self._legal = None
        dec = nt.decode(action)
        if dec is None:  # pragma: no cover - apply_action checks legality first
            raise IllegalActionError(f"action {action} is not legal here")
        if dec.kind == "outcome":
            self._reveal(dec.outcome)
            return
        side = self.side_to_move
        if dec.kind == "flip":
            self.pending = dec.frm
            self.last_turn = nt.to_string(action, False)
            return
        self.last_turn = self.action_to_string(action)
        lock: int | None = None
        if dec.kind == "move":
            code = self.board[dec.frm]
            target = self.board[dec.to]
            if target != EMPTY:
                self.captured[side].append(target)
            self.board[dec.to] = code
            self.board[dec.frm] = EMPTY
            self.last_move[side] = (dec.frm, dec.to)
            if code in GREEN_MOVABLE:
                lock = dec.to
        elif dec.kind == "exit":
            self.exited[side].append(self.board[dec.frm])
            self.board[dec.frm] = EMPTY
            self.last_move[side] = None
        else:  # pass
            self.last_move[side] = None
        self._end_turn(lock)

    def _reveal(self, outcome: int) -> None:
        """Turn the pending square face up as the drawn outcome; that ends the flipper's turn."""
        sq = self.pending
        assert sq is not None
        code = 2 + outcome
        self.board[sq] = code
        self.hidden -= 1
        hunter = HUNTER_OUTCOME <= outcome < HUNTER_OUTCOME + 4
        self.left[HUNTER_OUTCOME if hunter and self.random_rifles else outcome] -= 1
        self.pending = None
        self.last_turn = f"{self.last_turn}: {OUTCOMES[outcome]}"
        self.last_move[self.side_to_move] = None
        self._end_turn(sq if code in GREEN_MOVABLE else None)

    def _end_turn(self, lock: int | None) -> None:
        """Count the turn, start or run down the end phase, check the early end, pass the turn."""
        self.locked = lock
        self.turns += 1
        if self.end_left is not None:
            self.end_left -= 1
        elif self.hidden == 0:
            self.end_left = END_PHASE_TURNS
        if (self.end_left == 0 or (self.hidden == 0 and self.side_wiped_out())
                or self.turns >= TURN_LIMIT):
            self._finish_game()
            return
        self.to_move ^= 1

    def side_wiped_out(self) -> bool:
        """True when either side has no tile of its own left on the board."""
        present = set(self.board)
        return not (present & OWN[HUMANS]) or not (present & OWN[BEASTS])

    def _finish_game(self) -> None:
        """End this game; in a match, the first game's end sets up the second with roles swapped."""
        if self.match and self.game_no == 0:
            self.first_game = self.totals()
            self.game_no = 1
            self.start_game()
            return
        self.over = True
        self.locked = None
