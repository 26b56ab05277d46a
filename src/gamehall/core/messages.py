"""Sentences with keys: every sentence the hall says to people is a `Message` — a stable key, its
arguments, and the English text made from the English catalogue — so that a client (the page, a
bot) can say it in its own language from its own catalogue, and the English text and the key can
never disagree.

The catalogues are ICU MessageFormat strings, one folder per language in ``gamehall/web/i18n/``
(``en/``, ``de/``), each holding parts (``server.json``, ``page.json``, …: flat objects from key
to string, no key in two parts), the same files the page loads. Parts keep each concern's
sentences together and let the server's and the page's catalogues grow apart without clashing.
Here in core because the games' outcome sentences are messages too and core imports nothing
above it; the files are data beside the page, not code, so reading them crosses no layer.

Only the subset of ICU the catalogues use is understood: ``{name}``, ``{n, plural, =0 {…} one
{…} other {…}}`` with ``#``, ``{x, select, a {…} other {…}}``, and apostrophe quoting (``''`` is
an apostrophe, ``'{'`` a brace; a lone apostrophe is itself). Plural categories are those of
English and German (``one`` for exactly 1), the only languages with catalogues.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Union

CATALOGUES = Path(__file__).resolve().parent.parent / "web" / "i18n"
"""Where the catalogues live: ``<language>/<part>.json``, each a flat object from key to ICU
string."""

LANGUAGES = ("en", "de")
"""The languages with a complete catalogue; English is the one the server's text is made in."""

Arg = Union[str, int, float, "Message"]
"""An argument: text, a number (plurals), or a nested message (a clause the client says in its
language too, sent as ``{"key", "args"}``)."""


@dataclass(frozen=True)
class Message:
    """A sentence for people: `key` into the catalogues and the `args` its string interpolates."""

    key: str
    args: Mapping[str, Arg] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The English sentence, made from the English catalogue."""
        return render(self.key, self.args, "en")

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict[str, Any]:
        """``{"key", "args"}`` as sent: nested messages become the same shape."""
        return {"key": self.key, "args": {k: v.to_json() if isinstance(v, Message) else v
                                          for k, v in self.args.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        """The message `to_json` wrote (a stored outcome, a reply from another server)."""
        args = {k: cls.from_json(v) if isinstance(v, dict) else v
                for k, v in dict(data.get("args") or {}).items()}
        return cls(str(data["key"]), args)


def msg(key: str, **args: Arg) -> Message:
    """A message; its key must be in every catalogue (tests/test_messages.py checks each call)."""
    return _checked(Message(key, args))


def _checked(message: Message) -> Message:
    """`message`, refused at once when its key is in no catalogue (a typo fails loudly in tests,
    not as a missing sentence on the page)."""
    if message.key not in catalogue("en"):
        raise KeyError(f"no message {message.key!r} in the English catalogue")
    return message


@cache
def catalogue(language: str) -> dict[str, str]:
    """The catalogue of `language` (read once): the union of its parts, which must not share a
    key (two parts defining one key would make the winner depend on file order)."""
    data: dict[str, str] = {}
    for part in sorted((CATALOGUES / language).glob("*.json")):
        entries: dict[str, str] = json.loads(part.read_text("utf-8"))
        clash = data.keys() & entries.keys()
        if clash:
            raise ValueError(f"{part.name} repeats keys of another part: {sorted(clash)[:5]}")
        data.update(entries)
    return data


@cache
def parsed(language: str, key: str) -> Nodes:
    return parse(catalogue(language)[key])


def render(key: str, args: Mapping[str, Arg], language: str = "en") -> str:
    """The sentence of `key` in `language` with `args` put in."""
    return _emit(parsed(language, key), args, None, language)


def format_string(text: str, args: Mapping[str, Arg], language: str = "en") -> str:
    """An ICU string (not from a catalogue) with `args` put in: for tests and tools."""
    return _emit(parse(text), args, None, language)


# --- the ICU subset -----------------------------------------------------------------------------
Node = Union[str, "Placeholder"]
Nodes = tuple[Node, ...]
POUND = "#"


@dataclass(frozen=True)
class Placeholder:
    """``{name}``, or ``{name, plural|select, …}`` with its branches."""

    name: str
    kind: str = ""
    branches: tuple[tuple[str, Nodes], ...] = ()


class MessageSyntaxError(ValueError):
    """An ICU string this parser cannot read."""


def parse(text: str) -> Nodes:
    nodes, at = _nodes(text, 0, False)
    if at != len(text):
        raise MessageSyntaxError(f"unmatched '}}' at {at} in {text!r}")
    return nodes


def arguments(nodes: Nodes) -> set[str]:
    """Every argument name a parsed string uses."""
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, Placeholder):
            out.add(node.name)
            for _, branch in node.branches:
                out |= arguments(branch)
    return out


def _nodes(text: str, at: int, in_plural: bool) -> tuple[Nodes, int]:
    out: list[Node] = []
    buf: list[str] = []
    while at < len(text):
        c = text[at]
        if c == "'":
            at = _quoted(text, at, buf, in_plural)
            continue
        if c == "}":
            break
        if c == "#" and in_plural:
            out.extend(["".join(buf), POUND] if buf else [POUND])
            buf, at = [], at + 1
            continue
        if c == "{":
            if buf:
                out.append("".join(buf))
                buf = []
            node, at = _placeholder(text, at + 1)
            out.append(node)
            continue
        buf.append(c)
        at += 1
    if buf:
        out.append("".join(buf))
    return tuple(out), at


def _quoted(text: str, at: int, buf: list[str], in_plural: bool) -> int:
    """ICU apostrophes: ``''`` is one; before a brace (or ``#`` in a plural) it quotes up to the
    next lone apostrophe; otherwise it is itself."""
    nxt = text[at + 1] if at + 1 < len(text) else ""
    if nxt == "'":
        buf.append("'")
        return at + 2
    if (nxt and nxt in "{}") or (nxt == "#" and in_plural):
        end = text.find("'", at + 1)
        if end < 0:
            raise MessageSyntaxError(f"unclosed quote in {text!r}")
        buf.append(text[at + 1:end])
        return end + 1
    buf.append("'")
    return at + 1


def _placeholder(text: str, at: int) -> tuple[Placeholder, int]:
    close = _find_any(text, at, ",}")
    name = text[at:close].strip()
    if not name.isidentifier():
        raise MessageSyntaxError(f"bad argument name {name!r} in {text!r}")
    if text[close] == "}":
        return Placeholder(name), close + 1
    comma = _find_any(text, close + 1, ",}")
    kind = text[close + 1:comma].strip()
    if kind not in ("plural", "select") or text[comma] != ",":
        raise MessageSyntaxError(f"unknown argument type {kind!r} in {text!r}")
    branches, at = [], comma + 1
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at < len(text) and text[at] == "}":
            break
        brace = text.find("{", at)
        if brace < 0:
            raise MessageSyntaxError(f"unclosed {kind} in {text!r}")
        selector = text[at:brace].strip()
        branch, at = _nodes(text, brace + 1, kind == "plural")
        if at >= len(text) or not selector:
            raise MessageSyntaxError(f"bad {kind} branch in {text!r}")
        branches.append((selector, branch))
        at += 1
    if not any(s == "other" for s, _ in branches):
        raise MessageSyntaxError(f"{kind} without an 'other' branch in {text!r}")
    return Placeholder(name, kind, tuple(branches)), at + 1


def _find_any(text: str, at: int, chars: str) -> int:
    for i in range(at, len(text)):
        if text[i] in chars:
            return i
    raise MessageSyntaxError(f"unclosed argument in {text!r}")


def _emit(nodes: Nodes, args: Mapping[str, Arg], number: float | None, language: str) -> str:
    parts: list[str] = []
    for node in nodes:
        if node is POUND:
            parts.append(_number(number))
        elif isinstance(node, str):
            parts.append(node)
        else:
            parts.append(_emit_placeholder(node, args, language))
    return "".join(parts)


def _emit_placeholder(node: Placeholder, args: Mapping[str, Arg], language: str) -> str:
    if node.name not in args:
        raise KeyError(f"message argument {node.name!r} is missing")
    value = args[node.name]
    if not node.kind:
        if isinstance(value, Message):  # a clause: said in the sentence's language too
            return render(value.key, value.args, language)
        return _number(value) if isinstance(value, (int, float)) else str(value)
    table = dict(node.branches)
    if node.kind == "select":
        return _emit(table.get(str(value), table["other"]), args, None, language)
    n = float(value) if isinstance(value, (int, float)) else float(str(value))
    exact = table.get(f"={_number(n)}")
    branch = exact if exact is not None else table.get(plural_category(n, language),
                                                       table["other"])
    return _emit(branch, args, n, language)


def plural_category(n: float, language: str) -> str:
    """English and German: ``one`` for exactly 1, else ``other``."""
    return "one" if n == 1 else "other"


def _number(value: float | str | None) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
