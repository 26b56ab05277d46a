"""Test-only plug-in for the browser tests: the test server's Hula can start a room in a race
(`tests.web.hula_race`). Loaded only by the test server (`gamehall serve --plugin
tests.web.hula_setup`), where it replaces the registered `hula` game for that process; a
production hall never imports it, and no test imports it in its own process (build the race
from `HulaWithSetup` instead).
"""

from __future__ import annotations

from gamehall.core.registry import register_game
from tests.web.hula_race import HulaWithSetup

register_game(HulaWithSetup)
