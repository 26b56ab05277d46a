"""`Game`: one game with its options fixed — the factory of states and the facts about them."""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar

from gamehall.core.errors import GamehallError, NotationError, StateFormatError
from gamehall.core.messages import Message, msg
from gamehall.core.options import Option, OptionValue, is_file_data, resolve_options
from gamehall.core.phrases import and_list
from gamehall.core.phrases import seat as seat_phrase

if TYPE_CHECKING:
    from gamehall.core.state import State


DEFAULT_SEAT_COLOURS = ("#2f6f4f", "#b23a48", "#1f5fa8", "#c78a00")
"""Seat colours by place for a game whose board names none (a plug-in's generic board)."""


class Game(ABC):
    """A game with its options resolved. Subclasses declare the class variables and the factories.

    Facts that depend on options (players, action-space size, game length) are properties, so a
    3-player Hau La and a 2-player one are two `Game` objects of the same class.
    """

    name: ClassVar[str]
    """Registry name, e.g. ``"hula"``."""
    title: ClassVar[str]
    """Name for people, e.g. ``"Halali!"``."""
    description: ClassVar[str] = ""
    """One line for people on what the game is (the hall's lobby shows it); empty: none."""
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    has_chance: ClassVar[bool] = False
    """True when the game has chance nodes (its states may have ``current_player() == CHANCE``)."""
    web_board: ClassVar[str | None] = None
    """The hall page's board module for this game (``js/boards/<web_board>.js``, announced in
    ``/api/games``); None: the page's generic board (the moves as buttons, the view as text)."""

    seat_colours: ClassVar[Mapping[str, str]] = {}
    """The colour (CSS ``#rrggbb``) a board draws each seat's pieces in, by seat name, as the
    seats sit at the start; a page colours a seat the same wherever else it shows it (the
    review's graph), so the colours live here, once, and reach the page through ``/api/games``
    (`colour_of_seat`) and a review. A seat not listed takes `DEFAULT_SEAT_COLOURS`'s by its
    place; a game whose seats change colours in play (a swap) says so in
    `State.seat_colours`."""

    def colour_of_seat(self, seat: str, index: int) -> str:
        """Seat `seat`'s colour (`seat_colours`), or the default palette's at `index`."""
        return self.seat_colours.get(seat, DEFAULT_SEAT_COLOURS[index % len(DEFAULT_SEAT_COLOURS)])

    def web_pictures(self) -> dict[str, Any] | None:
        """Pictures the game's board module draws, as JSON (served at
        ``/api/games/<name>/pictures``), from the file its own drawings read too; None: none."""
        return None

    def __init__(self, **options: object) -> None:
        self.options: dict[str, OptionValue] = resolve_options(self.OPTIONS, options)

    # --- facts -------------------------------------------------------------------------------
    @property
    @abstractmethod
    def seat_names(self) -> tuple[str, ...]:
        """Seat names in seat order, e.g. ``("first", "second")``."""

    @property
    def num_players(self) -> int:
        return len(self.seat_names)

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """An upper bound on every action integer (player and chance actions) plus one."""

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the number of actions (chance actions included) in any game."""

    @property
    def max_chance_outcomes(self) -> int:
        """An upper bound on the number of outcomes at any chance node (0 without chance)."""
        return 0

    min_utility: ClassVar[float] = -1.0
    max_utility: ClassVar[float] = 1.0
    utility_sum: ClassVar[float | None] = 0.0
    """What `returns()` always sums to at the end, or None for a general-sum game."""

    # --- factories -----------------------------------------------------------------------------
    @abstractmethod
    def new_initial_state(self, seed: int | None = None) -> State:
        """The starting position; `seed` seeds the state's own generator for chance draws."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from `State.to_json()` output (or a hand-written position)."""

    # --- what the game package presents: its jsonform, view and explain modules ---------------
    # A game's rules module imports none of these; `core.package.PackagedGame` wires them to the
    # package's modules, and `State` (to_json, view, outcome_message, explain_illegal,
    # string_to_action) asks its game for them.
    def state_to_json(self, state: State) -> dict[str, Any]:
        """`state.to_json()`: the whole public position (the game's ``jsonform.state_to_json``)."""
        raise NotImplementedError(f"{self.title} defines no JSON form")

    def state_view(self, state: State, seat: int | None) -> dict[str, Any]:
        """`state.view(seat)`: what `seat` may see (None: a spectator); the JSON form here."""
        return state.to_json()

    def seat_overlay(self, state: State, seat: int) -> dict[str, Any] | None:
        """The keys in which `seat`'s view differs from a spectator's, with `seat`'s values, or
        None where the game does not say (then each seat's view is made whole).

        A game that says must keep ``{**state_view(state, None), **seat_overlay(state, seat)}``
        equal to ``state_view(state, seat)``, key order included (the conformance tests check
        it). It lets the hall make and serialise what everyone sees once per position, and
        only the few keys that name the seat once per seat: with two players and watchers that
        was most of the hall's work per move."""
        return None

    def outcome_message(self, state: State) -> Message:
        """`state.outcome_message()`: how the game ended, as a sentence with a key, so that each
        client says it in its own language. Default: who won by `returns()`, seats by name (a
        game that only overrides `outcome_text` has its English line carried verbatim)."""
        if type(self).outcome_text is not Game.outcome_text:
            return msg("game.outcome.verbatim", text=self.outcome_text(state))
        r = state.returns()
        best = max(r)
        winners = [seat_phrase(name) for i, name in enumerate(self.seat_names) if r[i] == best]
        if len(winners) == len(r):
            return msg("game.outcome.draw")
        return msg("game.outcome.winners", winners=and_list(winners), count=len(winners))

    def outcome_text(self, state: State) -> str:
        """`state.outcome_text()`: one line saying how the game ended, in English."""
        return self.outcome_message(state).text

    def starts_turn(self, state: State, action: int) -> bool:
        """Whether `action` (legal in `state`, not yet applied) begins a new turn, so that move
        lists show one line per turn. Default: every player action begins one and a chance
        outcome belongs to the turn it happens in (a flip's tile); multi-step games override."""
        return not state.is_chance_node()

    def scores(self, state: State) -> list[float] | None:
        """Each seat's score at the end, for people ("bea won 12 to 11"); None: the game has
        none beyond who won."""
        return None

    def explain_illegal(self, state: State, action: int) -> Message | str:
        """Why the action number `action` (in range, in a live game) is not legal in `state`:
        a `Message` (keys ``game.<name>.illegal.…``) or plain English text."""
        return f"action {action} is not legal here"

    def read_move(self, state: State, text: str) -> int:
        """`text` is no legal action's notation in `state` (nor empty, nor the game over):
        return the legal action it spells another way, or raise NotationError saying why."""
        raise NotationError(f"{text.strip()} is not a legal move here")

    # --- presentation hooks (terminal, files) ------------------------------------------------
    def render_text(self, state: State, seat: int | None = None) -> str:
        """The position for a terminal, as Rich markup, seen by `seat` (None: a spectator)."""
        return json.dumps(state.view(seat), indent=1)

    def render_svg(self, state: State | None = None) -> str:
        """An SVG drawing of `state` (or of the empty board) for checking by eye."""
        raise GamehallError(f"{self.title} has no SVG drawing")

    # --- how to play ---------------------------------------------------------------------------
    @classmethod
    def howto(cls, language: str = "en") -> str:
        """The rules for players, as Markdown: ``howto.md`` in the game's package (English),
        ``howto.<language>.md`` beside it in another language, so a game from another package
        brings its own; a subclass without one has its base game's ("" if none has one)."""
        return cls.howto_in(language)[1]

    @classmethod
    def howto_in(cls, language: str = "en") -> tuple[str, str]:
        """(the language found, the rules text): `language`'s own text where the game has one,
        else the English one, so a game not yet translated still has its page."""
        names = ([(language, f"howto.{language}.md")] if language != "en" else []) + \
            [("en", "howto.md")]
        for found, filename in names:
            for klass in cls.__mro__:
                if not (isinstance(klass, type) and issubclass(klass, Game)) or klass is Game:
                    continue
                package = klass.__module__.rpartition(".")[0] or klass.__module__
                try:
                    return found, (resources.files(package) / filename).read_text("utf-8")
                except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError, TypeError):
                    continue
        return "en", ""

    howto_moves: ClassVar[int] = 10
    """How many actions of seeded random play lead to the rules page's mid-game picture."""

    def howto_positions(self) -> list[tuple[Message, State]]:
        """Positions the rules page draws (`render_svg`), each with a caption: the start, and a
        game under way (seeded random play, so every server draws the same picture)."""
        start = self.new_initial_state(seed=1)
        state = start.clone()
        rng = random.Random(1)
        played = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            if played >= self.howto_moves:
                break
            state.apply_action(rng.choice(state.legal_actions()))
            played += 1
        return [(msg("game.howto.start"), start), (msg("game.howto.under_way"), state)]

    # --- helpers --------------------------------------------------------------------------------
    def seat_index(self, name: str) -> int:
        """The seat number for a seat name, case-insensitive."""
        wanted = name.strip().lower()
        for i, seat in enumerate(self.seat_names):
            if seat.lower() == wanted:
                return i
        seats = ", ".join(self.seat_names)
        raise GamehallError(f"no seat {name!r} in {self.title} (seats: {seats})")

    def check_json_header(self, data: Mapping[str, Any]) -> None:
        """Raise StateFormatError unless `data` names this game and these options."""
        if not isinstance(data, Mapping):
            raise StateFormatError("a state is a JSON object")
        if data.get("game") != self.name:
            raise StateFormatError(f"this state is for {data.get('game')!r}, not {self.name!r}")
        given = data.get("options", {})
        if not isinstance(given, Mapping):
            raise StateFormatError("'options' must be an object")
        if resolve_options(self.OPTIONS, given) != self.options:
            raise StateFormatError("the state's options differ from this game's options")

    def shown_options(self) -> dict[str, OptionValue]:
        """The options as people read them: a file option holding its file's data (which may be
        long) shows a short label instead (`option_label`)."""
        shown: dict[str, OptionValue] = {}
        for spec in self.OPTIONS:
            value = self.options[spec.name]
            shown[spec.name] = (self.option_label(spec.name)
                                if spec.reads_files and is_file_data(value) else value)
        return shown

    def option_label(self, name: str) -> str:
        """A short name for the data a file option holds (a game may name it better)."""
        digest = hashlib.sha256(str(self.options[name]).encode()).hexdigest()[:8]
        return f"custom {digest}"

    @classmethod
    def describe_options(cls) -> list[dict[str, Any]]:
        """The options as `GET /api/games` sends them, each text with its catalogue key."""
        return [o.describe(cls.option_key(o.name)) for o in cls.OPTIONS]

    # --- catalogue keys of the texts for people ---------------------------------------------------
    # Every text a game shows people (its description, its options' labels, docs and words, its
    # seats' names) is English here and goes out with a stable key beside it, so that a client
    # says it from its catalogue (``web/i18n/<lang>/options.json``) in its reader's language and
    # keeps the English where the catalogue lacks the key (a plug-in game brings no entries).
    # A game from another package may name its keys otherwise by overriding these.
    @classmethod
    def description_key(cls) -> str:
        """The key of `description`: ``game.<name>.description``."""
        return f"game.{cls.name}.description"

    @classmethod
    def option_key(cls, option: str) -> str:
        """The stem of an option's keys (``game.<name>.option.<option>``; `Option.texts` names
        what follows it: ``.label``, ``.doc``, ``.word.<value>``)."""
        return f"game.{cls.name}.option.{option}"

    @classmethod
    def seat_key(cls, seat: str) -> str:
        """The key of a seat's name: ``game.<name>.seat.<seat>`` (by name, not number: a seat's
        name may change with the options, as Halali!'s do in a match)."""
        return f"game.{cls.name}.seat.{seat}"

    @classmethod
    def every_seat_name(cls) -> list[str]:
        """Every seat name the game may have: with the default options and with each other
        value of each option that has a list of them (a yes/no option: both), in order met."""
        variants: list[dict[str, object]] = [{}]
        for opt in cls.OPTIONS:
            values = (True, False) if opt.type is bool else (opt.choices or ())
            variants += [{opt.name: value} for value in values]
        names: dict[str, None] = {}
        for options in variants:
            try:
                names.update(dict.fromkeys(cls(**options).seat_names))
            except GamehallError:
                continue
        return list(names)

    @classmethod
    def catalogue_texts(cls) -> dict[str, str]:
        """Every key this game sends and its English text (what the English catalogue must say:
        the tests check the shipped games' entries against it)."""
        out = {cls.description_key(): cls.description} if cls.description else {}
        for opt in cls.OPTIONS:
            stem = cls.option_key(opt.name)
            out.update({f"{stem}.{part}": text for part, text in opt.texts().items()})
        out.update({cls.seat_key(seat): seat for seat in cls.every_seat_name()})
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.name, self.options) == (other.name, other.options)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items()))))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"load_game({self.name!r}{', ' if opts else ''}{opts})"
