"""`HulaGame`: the game with its options (board size, pie rule), its facts, its factories, and
the package's presentation (JSON form, views, refusals, drawing) wired into the contract."""

from __future__ import annotations

from gamehall.core import Option
from gamehall.core.package import GamePackage, PackagedGame
from gamehall.games.hula import explain, jsonform, svg, view
from gamehall.games.hula.geometry import SIZES, geometry
from gamehall.games.hula.notation import SEATS
from gamehall.games.hula.observation import OBSERVATION_PLANES
from gamehall.games.hula.rules import STONE_COLOURS, HulaState


class HulaGame(PackagedGame[HulaState]):
    """Hula on a hex-hex board of side 5, 6 or 7, with or without the pie rule."""

    name = "hula"
    title = "Hula"
    description = ("Two players place stones in turn: surround the blocked centre with a loop of "
                   "your own stones to win.")
    web_board = "hula"
    seat_colours = dict(zip(SEATS, STONE_COLOURS, strict=True))
    howto_moves = 16
    package = GamePackage(HulaState, jsonform, view, explain, svg)
    OPTIONS = (
        Option("size", int, 6, "side of the hexagonal board, in cells", choices=SIZES,
               label="board size"),
        Option("pie", bool, True, "after the first stone the other player may answer 'swap'",
               label="swap (pie rule)"),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.geo = geometry(int(self.options["size"]))
        self.pie = bool(self.options["pie"])
        self._template: HulaState | None = None

    @property
    def seat_names(self) -> tuple[str, ...]:
        return SEATS

    @property
    def num_distinct_actions(self) -> int:
        return self.geo.num_cells + 1

    @property
    def max_game_length(self) -> int:
        return self.geo.num_cells - 1 + (1 if self.pie else 0)

    @property
    def observation_shape(self) -> tuple[int, int]:
        """Planes × cells of `HulaState.observation_tensor` (for the OpenSpiel/PettingZoo
        adapters)."""
        return (len(OBSERVATION_PLANES), self.geo.num_cells)

    # --- factories ---------------------------------------------------------------------------
    def new_initial_state(self, seed: int | None = None) -> HulaState:
        template = self._template
        if template is None:
            template = self._template = HulaState(self)
        return template.copy(seed)
