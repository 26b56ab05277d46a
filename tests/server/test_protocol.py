"""Message validation, chat-command parsing and the rate limiter, in process."""

from __future__ import annotations

import pytest

from gamehall.server.table.commands import help_text, parse_command
from gamehall.server.table.protocol import ProtocolError, Request, parse_message


def code(raw: str | bytes, limit: int = 4096) -> str:
    with pytest.raises(ProtocolError) as info:
        parse_message(raw, limit)
    return info.value.code


def test_valid_messages_parse_into_requests() -> None:
    assert parse_message('{"type":"move","move":"e6","version":3,"id":"a"}', 4096) == Request(
        "move", {"move": "e6", "version": 3}, "a")
    assert parse_message('{"type":"join","seat":0,"junk":1}', 4096).args == {"seat": 0}
    assert parse_message('{"type":"join","seat":null}', 4096).args == {}
    assert parse_message('{"type":"option","key":"pie","value":false}', 4096).args["value"] is False


@pytest.mark.parametrize(("raw", "expected"), [
    ("nope", "bad_json"), ("[" * 5000, "too_large"), ("[" * 2000, "bad_json"),
    ("[]", "bad_message"), ('{"type": 3}', "bad_message"), ('{"type":"fly"}', "unknown_type"),
    ('{"type":"move","move":"e6"}', "bad_message"),
    ('{"type":"move","move":"e6","version":"3"}', "bad_message"),
    ('{"type":"move","move":"e6","version":true}', "bad_message"),
    ('{"type":"move","move":"e6","version":1e400}', "bad_message"),
    ('{"type":"move","move":"e6","version":99999999999999999999}', "bad_message"),
    ('{"type":"join","seat":[1]}', "bad_message"),
    ('{"type":"chat","text":"' + "a" * 501 + '"}', "bad_message"),
])
def test_malformed_messages_get_specific_codes(raw: str, expected: str) -> None:
    assert code(raw) == expected


def test_binary_frames_and_multibyte_sizes_are_refused() -> None:
    assert code(b'{"type":"ping"}') == "binary_not_supported"
    assert code('{"type":"chat","text":"' + "é" * 30 + '"}', limit=50) == "too_large"


def test_errors_keep_the_client_id() -> None:
    with pytest.raises(ProtocolError) as info:
        parse_message('{"type":"fly","id":17}', 4096)
    assert info.value.ref == 17


def test_chat_commands_read_like_the_classic_boards() -> None:
    assert parse_command("/join") == Request("join", {})
    assert parse_command("/JOIN 2").args == {"seat": 1}, "typed seat numbers count from 1"
    assert parse_command("/join beasts").args == {"seat": "beasts"}
    assert parse_command("/bot").args == {}
    assert parse_command("/bot random 2").args == {"level": "random", "seat": 1}
    assert parse_command("/bot humans hard").args == {"seat": "humans", "level": "hard"}
    assert parse_command("/option size=7").args == {"key": "size", "value": "7"}
    assert parse_command("/option pie off").args == {"key": "pie", "value": "off"}
    assert parse_command("/option").kind == "options"
    for kind in ("start", "resign", "who", "help", "spectate", "leave", "claim", "rematch"):
        assert parse_command(f"/{kind}").kind == kind
    assert parse_command("/clock 5+3").args == {"control": "5+3"}
    assert parse_command("/clock 0.5 + 2").args == {"control": "0.5 + 2"}
    assert parse_command("/clock").kind == "clocks"
    for bad, expected in (("/fly", "unknown_command"), ("/", "unknown_command"),
                          ("/join a b", "bad_message"), ("/option size=", "bad_message"),
                          ("/bot a b c", "bad_message")):
        with pytest.raises(ProtocolError) as info:
            parse_command(bad)
        assert info.value.code == expected, bad
    assert all(c in help_text().text for c in ("/join", "/leave", "/start", "/bot", "/option",
                                          "/spectate", "/resign", "/who", "/help", "/clock",
                                          "/claim", "/rematch"))

