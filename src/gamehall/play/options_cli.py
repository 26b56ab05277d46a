"""Game options written on a command line: ``--size 7 --pie off`` or ``-o size=7``."""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.core import GamehallError, InvalidOptionError


def parse_option_args(args: Sequence[str]) -> dict[str, str]:
    """Turn ``["--size", "7", "--pie=off"]`` into ``{"size": "7", "pie": "off"}``.

    Values stay text: the game's `Option.parse` converts and validates them.
    """
    out: dict[str, str] = {}
    items = list(args)
    i = 0
    while i < len(items):
        item = items[i]
        if item in ("-o", "--option"):
            if i + 1 >= len(items) or "=" not in items[i + 1]:
                raise InvalidOptionError(f"{item} takes key=value")
            key, _, value = items[i + 1].partition("=")
            out[_key(key)] = value
            i += 2
            continue
        if not item.startswith("--") or len(item) < 3:
            raise GamehallError(f"unexpected argument {item!r} (game options look like --size 7)")
        body = item[2:]
        if "=" in body:
            key, _, value = body.partition("=")
            out[_key(key)] = value
            i += 1
        elif i + 1 < len(items) and not items[i + 1].startswith("--"):
            out[_key(body)] = items[i + 1]
            i += 2
        else:
            out[_key(body)] = "true"
            i += 1
    return out


def _key(text: str) -> str:
    return text.strip().lower().replace("-", "_")
