"""Halali!'s tile pictures (bear, fox, lumberjack, hunter, pheasant, duck, tree), kept once in
``pictures.json``: the hall page's board draws them (served at /api/games/halali/pictures) and
``svg.py`` draws the same ones, so the two drawings never disagree."""

from __future__ import annotations

import json
from functools import cache
from html import escape
from importlib.resources import files
from typing import Any


@cache
def load_pictures() -> dict[str, Any]:
    """The picture file: ``size`` (the side of each picture's box) and ``pictures`` (tile kind ->
    a list of ``[element, attributes]``)."""
    data: dict[str, Any] = json.loads(
        files("gamehall.games.halali").joinpath("pictures.json").read_text(encoding="utf-8"))
    return data


def picture_svg(kind: str, x: float, y: float, side: float) -> str:
    """The picture of tile `kind` as an SVG group filling the square of `side` at (x, y)."""
    data = load_pictures()
    scale = side / float(data["size"])
    shapes = []
    for tag, attrs in data["pictures"][kind]:
        text = " ".join(f'{name}="{escape(str(value))}"' for name, value in attrs.items())
        shapes.append(f"<{tag} {text}/>")
    return (f'<g class="picture" data-picture="{kind}" '
            f'transform="translate({x:g},{y:g}) scale({scale:g})">{"".join(shapes)}</g>')
