"""No function of the page's sources is longer than LIMIT lines, so a closure that holds a
whole page (room.js `showRoom` was one of 502 lines) cannot grow back: a page's state goes in
one object its small named parts take (see room.js, boards/shell.js, boards/hau_la.js).

The sources are read, not run: a small scanner skips strings, template literals, comments and
regular expressions, matches the braces, and counts a block as a function's body where it
follows `=>` or the parameters of a declaration or method (not those of `if`, `for`, ...).
A function's lines include the functions nested in it, as a closure's do."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "src" / "gamehall" / "web" / "js"

LIMIT = 150
"""The issue's rule for Python functions, kept for the page too: one rule for the project.
The longest function is a board module's createBoard (hotu_matua.js, 90 lines),
so the limit leaves room to add to a part, and none for a page-sized closure (room.js showRoom
was 502 lines, hau_la.js createBoard 221, shell.js mountBoard 211, lobby.js showLobby 186)."""

ALLOWED: dict[str, int] = {}
"""Functions known to be longer (`"file name": lines`), at their length then: they may shrink,
never grow. None now."""

CONTROL = {"if", "for", "while", "switch", "catch", "with"}
"""Words whose parenthesis a block follows without being a function's body."""
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {"=>", "return", "typeof", "case", "of", "in",
                                               "new", "delete", "void", "throw", "else", "do"}
"""After these a `/` starts a regular expression; after a name, number or `)` it divides."""
WORD = re.compile(r"[A-Za-z_$][\w$]*|\d[\w.]*|=>|\.\.\.|\S")


@dataclass
class Token:
    text: str
    line: int
    opens: int = -1  # for ")": the index of its "("


@dataclass
class Function:
    name: str
    first: int
    last: int

    @property
    def lines(self) -> int:
        return self.last - self.first + 1


def _skip_quoted(text: str, i: int, quote: str) -> int:
    """The index after the string that starts at `i`."""
    j = i + 1
    while text[j] != quote:
        j += 2 if text[j] == "\\" else 1
    return j + 1


def _skip_template(text: str, j: int) -> tuple[int, bool]:
    """From inside a template literal at `j`: the index after its end or after a `${`, and
    whether it was a `${` (code follows, up to the matching `}`)."""
    while True:
        if text[j] == "\\":
            j += 2
        elif text[j] == "`":
            return j + 1, False
        elif text.startswith("${", j):
            return j + 2, True
        else:
            j += 1


def _skip_regex(text: str, i: int) -> int:
    """The index after the regular expression (and its flags) that starts at `i`."""
    j, in_class = i + 1, False
    while text[j] != "/" or in_class:
        if text[j] == "\\":
            j += 1
        elif text[j] == "[":
            in_class = True
        elif text[j] == "]":
            in_class = False
        j += 1
    j += 1
    while j < len(text) and text[j].isalpha():
        j += 1
    return j


def tokens(text: str) -> Iterator[Token]:
    """The code's names and punctuation with their lines; strings, templates' text, comments
    and regular expressions come out as one "str" token each."""
    i, n = 0, len(text)
    prev = ""
    depth = 0
    holes: list[int] = []  # the brace depth at each open `${`
    while i < n:
        c = text[i]
        start = i
        if c.isspace():
            i += 1
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if text.startswith("/*", i):
            i = text.index("*/", i + 2) + 2
            continue
        if c in "'\"":
            i = _skip_quoted(text, i, c)
        elif c == "`" or (c == "}" and holes and holes[-1] == depth):
            if c == "}":
                holes.pop()
            i, hole = _skip_template(text, i + 1)
            if hole:
                holes.append(depth)
        elif c == "/" and (not prev or prev in REGEX_AFTER):
            i = _skip_regex(text, i)
        else:
            match = WORD.match(text, i)
            assert match is not None
            word = match.group(0)
            depth += {"{": 1, "}": -1}.get(word, 0)
            i = match.end()
            prev = word
            yield Token(word, text.count("\n", 0, start) + 1)
            continue
        prev = "str"
        yield Token("str", text.count("\n", 0, start) + 1)


def _arrow_name(toks: list[Token], k: int) -> str:
    """The name an arrow function whose `=>` is at `k` is given (`x = (…) =>`, `x: (…) =>`)."""
    j = toks[k - 1].opens - 1 if toks[k - 1].text == ")" else k - 2
    if j >= 1 and toks[j].text in ("=", ":") and WORD.fullmatch(toks[j - 1].text):
        return toks[j - 1].text
    return "=>"


def functions(text: str) -> list[Function]:
    """Every function in `text` whose body is a block, with the lines of its braces."""
    toks = list(tokens(text))
    out: list[Function] = []
    parens: list[int] = []
    blocks: list[tuple[str | None, int]] = []
    for k, tok in enumerate(toks):
        if tok.text == "(":
            parens.append(k)
        elif tok.text == ")":
            tok.opens = parens.pop()
        elif tok.text == "{":
            name = None
            before = toks[k - 1] if k else None
            if before is not None and before.text == "=>":
                name = _arrow_name(toks, k - 1)
            elif before is not None and before.text == ")" and before.opens > 0:
                word = toks[before.opens - 1].text
                if re.fullmatch(r"[A-Za-z_$][\w$]*", word) and word not in CONTROL:
                    name = word
            blocks.append((name, tok.line))
        elif tok.text == "}":
            name, first = blocks.pop()
            if name is not None:
                out.append(Function(name, first, tok.line))
    assert not parens and not blocks, "unbalanced brackets: the scanner misread the file"
    return out


def test_the_scanner_reads_what_would_mislead_it() -> None:
    source = """
function outer(a) {
  const re = /^(\\S.*?)\\s{2,}(\\S.*)$/;   // braces { in a regex and a comment
  const s = "}" + '{' + `${a ? `{${"}"}` : "}"}`;
  /* a } in a block comment */
  if (a) {
    for (const x of a) { s.split(x); }
  }
  const inner = (x) => {
    return x / 2 / 3;
  };
  return { inner, m() { return 1; } };
}
class K {
  get v() {
    return 1;
  }
}
"""
    found = {(f.name, f.first, f.last) for f in functions(source)}
    assert found == {("outer", 2, 13), ("inner", 9, 11), ("m", 12, 12), ("v", 15, 17)}


def _measured() -> list[tuple[str, Function]]:
    out = []
    for path in sorted(JS.rglob("*.js")):
        for f in functions(path.read_text(encoding="utf-8")):
            out.append((f"{path.relative_to(JS).as_posix()} {f.name}", f))
    return out


def test_the_scanner_finds_the_page_functions() -> None:
    names = {key for key, _ in _measured()}
    assert {"room.js showRoom", "boards/hau_la.js createBoard", "boards/shell.js mountBoard",
            "lobby.js showLobby", "dom.js patch"} <= names


def test_no_page_function_is_too_long() -> None:
    long = []
    for key, f in _measured():
        limit = max(LIMIT, ALLOWED.get(key, 0))
        if f.lines > limit:
            long.append(f"{key} (line {f.first}): {f.lines} lines, over {limit}")
    assert not long, ("split these into named parts that share one state object "
                      f"(see room.js): {long}")
