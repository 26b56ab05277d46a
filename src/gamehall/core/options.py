"""Typed, validated game options: each game declares them once; everything else reads them.

An option marked `reads_files` takes a local file (a Hotu Matua board): its value is a path, or
the file's JSON itself (text starting with ``{``), and the game reads both alike. The command
line and the Python API may pass paths; the hall never lets a client's value reach the file
system (`Option.reaches_files`).

Each text for people (the label, the doc, each value's word) is English here; `describe` sends
beside each a catalogue key (``label_key``, ``doc_key``, ``word_key``) under the stem its game
gives (`Game.option_key`: ``game.<game>.option.<option>``), so that a client says it in its
reader's language from the catalogue (``web/i18n/<lang>/options.json``) and shows the English
where a key is missing (a plug-in game with no catalogue entries).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gamehall.core.errors import InvalidOptionError

OptionValue = bool | int | str


@dataclass(frozen=True)
class Option:
    """One option of a game: its type, default, and the values it may take."""

    name: str
    type: type
    default: OptionValue
    doc: str = ""
    choices: tuple[OptionValue, ...] | None = None
    min: int | None = None
    max: int | None = None
    reads_files: bool = False
    """True when a value may name a local file that the game opens (see the module docstring)."""
    label: str = ""
    """A short name for people ("board size"); empty: the name with spaces for underscores."""
    words: tuple[tuple[OptionValue, str], ...] = ()
    """Values as people read them, e.g. ``(("ends", "ends the game"),)``; a value not listed
    reads as itself (a yes/no option as on/off)."""

    def reaches_files(self, value: object) -> bool:
        """True when the game would open a file for `value`: a file option's value that is
        neither its default nor the file's data itself."""
        if not self.reads_files or value == self.default:
            return False
        return not is_file_data(value)

    def parse(self, raw: object) -> OptionValue:
        """Convert `raw` (a typed value, or text from a command line or form) and validate it."""
        value = self._coerce(raw)
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c).lower() if isinstance(c, bool) else str(c)
                                for c in self.choices)
            raise InvalidOptionError(f"option {self.name} must be one of {allowed}, not {raw!r}")
        if isinstance(value, int) and not isinstance(value, bool):
            if self.min is not None and value < self.min:
                raise InvalidOptionError(f"option {self.name} must be at least {self.min}")
            if self.max is not None and value > self.max:
                raise InvalidOptionError(f"option {self.name} must be at most {self.max}")
        return value

    def _coerce(self, raw: object) -> OptionValue:
        if self.type is bool:
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
                return raw.strip().lower() in _TRUE
            raise InvalidOptionError(f"option {self.name} is on or off (true/false), not {raw!r}")
        if self.type is int:
            if isinstance(raw, bool):
                raise InvalidOptionError(f"option {self.name} is a whole number, not {raw!r}")
            if isinstance(raw, int):
                return raw
            if isinstance(raw, str):
                try:
                    return int(raw.strip())
                except ValueError:
                    pass
            raise InvalidOptionError(f"option {self.name} is a whole number, not {raw!r}")
        if isinstance(raw, str):
            return raw.strip()
        raise InvalidOptionError(f"option {self.name} is text, not {raw!r}")

    def describe(self, key: str = "") -> dict[str, Any]:
        """JSON-ready description, for `GET /api/games` and generated forms; with `key` (the
        stem of this option's catalogue keys, `Game.option_key`) each text for people carries
        its key beside it (the stem and `texts`' names)."""
        out: dict[str, Any] = {
            "name": self.name,
            "type": {bool: "bool", int: "int", str: "str"}[self.type],
            "default": self.default,
            "doc": self.doc,
            "choices": list(self.choices) if self.choices is not None else None,
            "min": self.min,
            "max": self.max,
            "reads_files": self.reads_files,
            "label": self.label or self.name.replace("_", " "),
            "words": [{"value": value, "word": word} for value, word in self.words],
        }
        if key:
            out["label_key"] = f"{key}.label"
            if self.doc:
                out["doc_key"] = f"{key}.doc"
            for entry in out["words"]:
                entry["word_key"] = f"{key}.word.{value_token(entry['value'])}"
        return out

    def texts(self) -> dict[str, str]:
        """This option's English texts for people, each by the end of its catalogue key (after
        the stem): ``label``, ``doc`` (when there is one), ``word.<value>`` (`value_token`)."""
        out = {"label": self.label or self.name.replace("_", " ")}
        if self.doc:
            out["doc"] = self.doc
        for value, word in self.words:
            out[f"word.{value_token(value)}"] = word
        return out

    def word(self, value: OptionValue) -> str:
        """`value` as people read it (see `words`)."""
        for known, word in self.words:
            if known == value and type(known) is type(value):
                return word
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)


def value_token(value: OptionValue) -> str:
    """A value as a piece of a catalogue key: ``on``/``off`` for a yes/no value, ``default``
    for the empty text (a file option's shipped board), else the value itself."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value) if value != "" else "default"


def is_file_data(value: object) -> bool:
    """True when a file option's value is the file's JSON itself rather than a path."""
    return isinstance(value, str) and value.lstrip().startswith("{")


_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


def resolve_options(spec: Sequence[Option], given: Mapping[str, object]) -> dict[str, OptionValue]:
    """Fill in defaults and validate `given` against `spec`; unknown names are an error."""
    by_name = {o.name: o for o in spec}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(by_name) or "none"
        raise InvalidOptionError(f"unknown option {unknown[0]!r} (options: {known})")
    return {o.name: o.parse(given[o.name]) if o.name in given else o.default for o in spec}
