"""Which games and option sets the adapter suites run on.

Real games: every registered game with its default options, every value of a ``players`` option
(so Hau La runs with 2, 3 and 4), one set with every other option moved off its default (bools
flipped, the next choice, whole numbers at their minimum: the quickest games), and the sets a
game's tests list as ``ADAPTER_VARIANTS`` in ``tests/games/<name>/variants.py``, if any. (The
conformance ``VARIANTS`` are not used: there can be dozens, and OpenSpiel's test of 50 random
games takes seconds per set.) The toy games of `toys` run the same suites on every kind of game,
whatever real games are installed.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from gamehall.core import (
    GamehallError,
    Option,
    OptionValue,
    game_class,
    list_games,
    load_game,
)


@dataclass(frozen=True)
class AdapterConfig:
    game: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def id(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.game}[{opts}]" if opts else self.game


def _variants(name: str) -> list[dict[str, Any]]:
    try:
        mod = importlib.import_module(f"tests.games.{name}.variants")
    except ModuleNotFoundError:
        return []
    return [dict(v) for v in getattr(mod, "ADAPTER_VARIANTS", [])]


def _player_counts(name: str) -> list[dict[str, Any]]:
    for option in game_class(name).OPTIONS:
        if option.name != "players":
            continue
        if option.choices is not None:
            return [{"players": n} for n in option.choices]
        if option.min is not None and option.max is not None:
            return [{"players": n} for n in range(option.min, option.max + 1)]
    return []


def _off_default(option: Option) -> OptionValue | None:
    if option.type is bool:
        return not option.default
    if option.choices is not None:
        choices = list(option.choices)
        return choices[(choices.index(option.default) + 1) % len(choices)]
    if option.type is int:
        if option.min is not None and option.min != option.default:
            return option.min
        if option.max is not None and option.max != option.default:
            return option.max
    return None


def non_default(name: str) -> dict[str, Any]:
    """Every option but ``players`` off its default, skipping changes the game refuses."""
    chosen: dict[str, Any] = {}
    for option in game_class(name).OPTIONS:
        value = _off_default(option)
        if option.name == "players" or value is None or value == option.default:
            continue
        try:
            load_game(name, **chosen, **{option.name: value}).new_initial_state(0)
        except GamehallError:
            continue
        chosen[option.name] = value
    return chosen


def _configs(names: list[str]) -> list[AdapterConfig]:
    out: list[AdapterConfig] = []
    for name in names:
        seen: list[dict[str, Any]] = []
        for opts in [{}, *_player_counts(name), non_default(name), *_variants(name)]:
            resolved = load_game(name, **opts).options
            if resolved not in seen:  # e.g. players=2 where 2 is the default
                seen.append(resolved)
                out.append(AdapterConfig(name, tuple(sorted(opts.items()))))
    return out


REAL_GAMES = list_games()
"""The registered games (taken before any toy is registered)."""
REAL = _configs(REAL_GAMES)
TOY = [
    AdapterConfig("toy_nim"),
    AdapterConfig("toy_nim", (("stones", 30), ("take", 5))),
    AdapterConfig("toy_pig"),
    AdapterConfig("toy_pig", (("target", 12), ("turn_limit", 6))),
    AdapterConfig("toy_claim", (("players", 2),)),
    AdapterConfig("toy_claim"),
    AdapterConfig("toy_claim", (("cells", 13), ("players", 4))),
    AdapterConfig("toy_pairs"),
    AdapterConfig("toy_pairs", (("rounds", 2), ("scoring", "max"))),
]
ALL = TOY + REAL


def ids(cfg: AdapterConfig) -> str:
    return cfg.id
