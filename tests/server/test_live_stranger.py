"""What a stranger found calling a real `gamehall serve` from the docs alone (README, docs/,
protocol.md, /openapi.json): each test is one request a newcomer sends and the answer the docs
promise for it."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.live import Server, auth, running, until
from tests.server.lobby_client import Lobby
from tests.server.test_live_botapi import CHEAP_HASHES

_names = itertools.count()


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("stranger")
    with running(
        Server(
            f"sqlite:///{tmp / 'hall.db'}",
            tmp / "server.log",
            "--rate",
            "5000",
            "--burst",
            "5000",
            "--pairing-rate",
            "1000/minute",
            "--pairing-address-rate",
            "100000/minute",
            *CHEAP_HASHES,
        )
    ) as server:
        yield server


def guest(server: Server) -> str:
    return server.session(f"stranger{next(_names)}")


def test_a_rating_range_and_a_wait_come_back_as_whole_numbers(hall: Server) -> None:
    """protocol.md: "Numbers in an answer are whole numbers"; its examples show
    ``"rating_range": [1300, 1700]``: a seek and a pool entry echo what was sent, not
    ``[1300.0, 1700.0]`` and ``60.0``."""
    seek = httpx.post(
        f"{hall.http}/api/seeks",
        headers=auth(guest(hall)),
        json={"game": "hula", "rating_range": [1300, 1700]},
    )
    assert seek.status_code == 201, seek.text
    assert seek.json()["rating_range"] == [1300, 1700]
    assert all(type(n) is int for n in seek.json()["rating_range"])  # noqa: E721
    entry = httpx.post(
        f"{hall.http}/api/pools/hula-10-5/join",
        headers=auth(guest(hall)),
        json={"rating_range": [1300, 1700], "bot_after_s": 60},
    )
    assert entry.status_code == 202, entry.text
    assert (entry.json()["rating_range"], entry.json()["bot_after_s"]) == ([1300, 1700], 60)
    assert "1300.0" not in entry.text and "60.0" not in entry.text
    assert "1300.0" not in seek.text


@pytest.mark.parametrize("body", [{"rating_range": [1300.5, 1700]}, {"bot_after_s": 60.5}])
def test_a_fraction_of_a_rating_or_a_second_is_a_clear_400(hall: Server, body: dict) -> None:
    """A range or a wait that is no whole number is refused, not stored and echoed."""
    r = httpx.post(f"{hall.http}/api/pools/hula-10-5/join", headers=auth(guest(hall)), json=body)
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "bad_message"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/rooms", {"game": "hula", "rated": "yes"}),
        ("/api/seeks", {"game": "hula", "rated": "yes"}),
        ("/api/seeks", {"game": "hula", "rated": 1}),
        ("/api/challenge/nobody", {"game": "hula", "rated": "no"}),
        (
            "/api/tournaments",
            {
                "name": "T",
                "game": "hula",
                "clock": "5+3",
                "system": "arena",
                "minutes": 30,
                "bots": "true",
            },
        ),
    ],
)
def test_a_yes_or_no_that_is_no_json_boolean_is_a_clear_400(
    hall: Server, path: str, body: dict
) -> None:
    """`rated` and `bots` are JSON's true or false: "yes", "true" or 1 is refused with a 400
    naming the field, not read as true (a program that sends "no" meant casual)."""
    r = httpx.post(f"{hall.http}{path}", headers=auth(guest(hall)), json=body)
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "bad_message", r.text
    field = "bots" if "bots" in body else "rated"
    assert field in r.json()["message"], r.text


@pytest.mark.parametrize("body", [b"{", b"\xff\xfe", b'{"password": "x"', b"nope"])
def test_a_body_that_is_no_json_is_bad_json(hall: Server, body: bytes) -> None:
    """protocol.md: "a body that is no JSON at all (not UTF-8, …) is 400 ``bad_json``", not a
    ``bad_message`` saying "body.1: JSON decode error"."""
    r = httpx.post(
        f"{hall.http}/api/pools/hula-10-5/join",
        content=body,
        headers={**auth(guest(hall)), "content-type": "application/json"},
    )
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "bad_json", r.text


def test_closing_ones_last_lobby_socket_leaves_the_pool(hall: Server) -> None:
    """docs/pairing.md: "When a player's last lobby connection closes, the lobby calls
    `Pools.gone(player)`: their waiting entry is cancelled"."""

    async def run() -> None:
        token = guest(hall)
        lobby = await Lobby.open(hall.http)
        await lobby.ws.send(json.dumps({"type": "identify", "token": token, "id": "me"}))
        while (await lobby.next()).get("id") != "me":
            pass
        r = httpx.post(f"{hall.http}/api/pools/halali-10-5/join", headers=auth(token))
        assert r.status_code == 202, r.text
        entry = r.json()["id"]
        await lobby.close()

        def status() -> str:
            got = httpx.get(f"{hall.http}/api/pools/entries/{entry}", headers=auth(token))
            return str(got.json()["status"])

        await until(lambda: status() == "cancelled", "the entry still waits", polls=40)

    asyncio.run(run())


def test_a_json_body_sent_as_a_form_is_told_to_say_json(hall: Server) -> None:
    """``curl -d '{"game": "hula"}'`` sends a form: the hall does not read it as JSON (no page
    of another site may post with the cookie), and says so instead of "Input should be a valid
    dictionary or object to extract fields from"."""
    r = httpx.post(
        f"{hall.http}/api/seeks",
        content=b'{"game": "hula"}',
        headers={**auth(guest(hall)), "content-type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "bad_message"
    assert "Content-Type: application/json" in r.json()["message"], r.text


@pytest.mark.parametrize("scope", ["read", "bot:play"])
def test_a_lobby_socket_identified_with_a_revoked_token_is_closed(hall: Server, scope: str) -> None:
    """protocol.md, "Identity": what a token holds open ends with it, its WebSockets closed
    with 4401; a lobby socket identified with an API token was left open after the token was
    revoked, still sent its player's pairings."""

    async def run() -> None:
        session = hall.session(f"stranger{next(_names)}")
        r = httpx.post(
            f"{hall.http}/api/account/password",
            json={"password": "correct horse"},
            headers=auth(session),
        )
        assert r.status_code == 200, r.text
        made = httpx.post(
            f"{hall.http}/api/account/tokens", json={"scopes": [scope]}, headers=auth(session)
        ).json()
        lobby = await Lobby.open(hall.http)
        await lobby.ws.send(json.dumps({"type": "identify", "token": made["token"], "id": "me"}))
        while (await lobby.next()).get("id") != "me":
            pass
        gone = httpx.delete(f"{hall.http}/api/account/tokens/{made['id']}", headers=auth(session))
        assert gone.status_code == 200, gone.text
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await lobby.next()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401

    asyncio.run(run())


def test_every_seat_of_a_big_tables_seek_goes_to_one_of_many_raced_accepts(hall: Server) -> None:
    """Eleven players accept a Hau La seek for four at once: three take the three seats (the
    last one gets the room) and the others are told it is full; none is told `seek_taken`
    while a seat is left (each accept was refused as soon as another changed the takers, so
    two of eleven sat and the seek stood open with a seat nobody had been let take)."""
    poster = guest(hall)
    seek = httpx.post(
        f"{hall.http}/api/seeks",
        json={"game": "hau_la", "seats": 4},
        headers=auth(poster),
    ).json()
    takers = [guest(hall) for _ in range(11)]

    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=hall.http, timeout=60) as c:
            return list(
                await asyncio.gather(
                    *(c.post(f"/api/seeks/{seek['id']}/accept", headers=auth(t)) for t in takers)
                )
            )

    answers = asyncio.run(race())
    won = [r.json() for r in answers if r.status_code == 200]
    refused = [r.json()["code"] for r in answers if r.status_code != 200]
    assert len(won) == 3, [r.text for r in answers]
    assert [w["room"] is not None for w in won].count(True) == 1
    assert set(refused) <= {"seek_closed", "seek_taken"}, refused
    room = next(w["room"] for w in won if w["room"])
    state = httpx.get(f"{hall.http}/api/rooms/{room}").json()
    assert state["status"] == "playing"
    assert len({s["player"] for s in state["seats"]}) == 4
