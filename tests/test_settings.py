"""`gamehall serve` and the hall's `Settings` agree: every field has one option, with the
field's default and the environment variable ``GAMEHALL_<OPTION>``, and every option but the
process's own (host, port, database, logs) is a field. The options are read from the click
command Typer builds, and the command is run (without starting a server) to see what reaches
the hall."""

from __future__ import annotations

import dataclasses
import os
from typing import Any

import pytest
import typer
from typer.core import TyperGroup, TyperOption
from typer.testing import CliRunner

import gamehall.server.ops.serve
from gamehall.cli import app
from gamehall.server.ops.settings import Settings, option_name

PROCESS_OPTIONS = {"host", "port", "db", "log_level", "log_json"}
"""`serve`'s options that are not the hall's settings."""

FIELDS = {f.name: f for f in dataclasses.fields(Settings)}
DEFAULTS = Settings()

SAMPLES: dict[str, tuple[str, Any]] = {
    "sqlite_sync": ("FULL", "full"),
    "boards_dir": ("/srv/boards", "/srv/boards"),
    "plugins": ("one.games two.games", ("one.games", "two.games")),
    "allow_origins": ("https://A.example/ https://b.example",
                      ("https://a.example", "https://b.example")),
    "redis_url": ("redis://cache:6379/0", "redis://cache:6379/0"),
    "node": ("node-7", "node-7"),
    "session_rate": ("7/hour", "7/hour"),
    "room_rate": ("8/hour", "8/hour"),
    "room_address_rate": ("9/hour", "9/hour"),
    "token_rate": ("10/second", "10/second"),
    "hint_level": ("HARD", "hard"),
    "hint_rate": ("3/minute", "3/minute"),
    "pairing_rate": ("4/minute", "4/minute"),
    "pairing_address_rate": ("40/hour", "40/hour"),
    "bot_game_clock": ("3d", "3d"),
    "review_level": ("hard", "hard"),
}
"""For fields that are not numbers: an environment value and what the hall gets from it."""


def serve_options() -> dict[str, TyperOption]:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    return {p.name: p for p in group.commands["serve"].params
            if isinstance(p, TyperOption) and p.name}


def sample(name: str) -> tuple[str, Any]:
    default = getattr(DEFAULTS, name)
    if isinstance(default, bool):
        raise AssertionError(f"{name}: add a sample for a bool setting")
    if isinstance(default, int):
        return str(default + 1), default + 1
    if isinstance(default, float):
        return str(default * 2), default * 2
    assert name in SAMPLES, f"{name}: add an environment value for it to SAMPLES"
    return SAMPLES[name]


def settings_of(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> Settings:
    """What `gamehall serve` would hand the hall, run with only `env` of GAMEHALL_*."""
    got: list[Settings] = []

    def run(host: str, port: int, db: str | None, settings: Settings, *_: Any,
            **__: Any) -> None:
        got.append(settings)

    monkeypatch.setattr(gamehall.server.ops.serve, "serve", run)
    clean = {k: None for k in os.environ if k.startswith("GAMEHALL_")}
    result = CliRunner().invoke(app, ["serve"], env={**clean, **env})
    assert result.exit_code == 0, result.output
    assert len(got) == 1
    return got[0]


def test_every_serve_option_is_a_setting_or_the_processs() -> None:
    assert set(serve_options()) - PROCESS_OPTIONS == {option_name(n) for n in FIELDS}


@pytest.mark.parametrize("name", list(FIELDS))
def test_each_setting_has_its_option_with_its_default(name: str) -> None:
    option = serve_options()[option_name(name)]
    default = getattr(DEFAULTS, name)
    if option.default is None:  # no value given: the setting's empty one (no plug-ins ...)
        assert default in ("", ()), f"--{option.name}: no default, Settings.{name}={default!r}"
    else:
        assert option.default == default, f"--{option.name}: {option.default!r} != {default!r}"
        assert type(option.default) is type(default)


def test_serve_without_options_gives_the_hall_its_defaults(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert settings_of(monkeypatch, {}) == Settings()


@pytest.mark.parametrize("name", list(FIELDS))
def test_each_setting_comes_from_its_environment_variable(
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    text, expected = sample(name)
    assert expected != getattr(DEFAULTS, name)
    variable = f"GAMEHALL_{option_name(name).upper()}"
    assert getattr(settings_of(monkeypatch, {variable: text}), name) == expected


def test_help_shows_each_settings_default_and_variable() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    for name in FIELDS:
        assert f"GAMEHALL_{option_name(name).upper()}" in result.output
    assert f"[default: {DEFAULTS.max_body_bytes}]" in result.output
