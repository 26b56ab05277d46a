"""`PackagedGame`: the one wiring of a game package's presentation modules into the contract.

Every game package has the same skeleton (`jsonform.py`, `view.py`, `explain.py`, `svg.py` next
to `rules.py`), and the contract's presentation hooks (`Game.state_to_json`, `state_view`, …)
only hand the state to the matching module function. A game names its modules once in a
`GamePackage` and inherits the hooks from here, instead of writing the same delegation again;
the rules module still imports none of them (the state reaches them through its game).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from gamehall.core.game import Game
from gamehall.core.messages import Message
from gamehall.core.state import State

S = TypeVar("S", bound=State)
S_in = TypeVar("S_in", bound=State, contravariant=True)


class JsonFormModule(Protocol[S]):
    """A game's ``jsonform.py``: the whole public position as JSON, and back."""

    def state_to_json(self, state: S) -> dict[str, Any]: ...

    def state_from_json(self, game: Any, data: Mapping[str, Any]) -> S: ...


class ViewModule(Protocol[S_in]):
    """A game's ``view.py``: what a seat may see, the outcome line, the terminal picture."""

    def state_view(self, state: S_in, seat: int | None) -> dict[str, Any]: ...

    def seat_overlay(self, state: S_in, seat: int) -> dict[str, Any]: ...

    def outcome_message(self, state: S_in) -> Message: ...

    def outcome_text(self, state: S_in) -> str: ...

    def render_text(self, state: S_in, seat: int | None) -> str: ...


class ExplainModule(Protocol[S_in]):
    """A game's ``explain.py``: why a move is refused, other spellings of a typed move."""

    def explain_illegal(self, state: S_in, action: int) -> Message: ...

    def read_move(self, state: S_in, text: str) -> int: ...


class SvgModule(Protocol[S_in]):
    """A game's ``svg.py``: a drawing for checking by eye."""

    def render_svg(self, state: S_in) -> str: ...


@dataclass(frozen=True)
class GamePackage(Generic[S]):
    """A game package's state class and presentation modules (``svg`` optional)."""

    state: type[S]
    jsonform: JsonFormModule[S]
    view: ViewModule[S]
    explain: ExplainModule[S]
    svg: SvgModule[S] | None = None


class PackagedGame(Game, Generic[S]):
    """A `Game` whose presentation hooks are its package's modules (`package`).

    Subclasses set ``package = GamePackage(XState, jsonform, view, explain, svg)`` and keep
    what is their own: options, seats, facts, `new_initial_state`, and hooks that say more than
    a module call (`starts_turn`, `scores`, `render_step`).
    """

    package: ClassVar[GamePackage[Any]]

    def own(self, state: State) -> S:
        """`state` as the package's state class (the contract passes states as `State`)."""
        assert isinstance(state, self.package.state), f"not a {self.title} state: {state!r}"
        return cast(S, state)

    # --- factories -----------------------------------------------------------------------------
    def state_from_json(self, data: Mapping[str, Any]) -> S:
        return cast(S, self.package.jsonform.state_from_json(self, data))

    # --- presentation --------------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        return self.package.jsonform.state_to_json(self.own(state))

    def state_view(self, state: State, seat: int | None) -> dict[str, Any]:
        return self.package.view.state_view(self.own(state), seat)

    def seat_overlay(self, state: State, seat: int) -> dict[str, Any]:
        return self.package.view.seat_overlay(self.own(state), seat)

    def outcome_message(self, state: State) -> Message:
        return self.package.view.outcome_message(self.own(state))

    def explain_illegal(self, state: State, action: int) -> Message:
        return self.package.explain.explain_illegal(self.own(state), action)

    def read_move(self, state: State, text: str) -> int:
        return self.package.explain.read_move(self.own(state), text)

    def render_text(self, state: State, seat: int | None = None) -> str:
        return self.package.view.render_text(self.own(state), seat)

    def render_svg(self, state: State | None = None) -> str:
        svg = self.package.svg
        if svg is None:
            return super().render_svg(state)
        return svg.render_svg(self.own(state if state is not None else self.new_initial_state()))
