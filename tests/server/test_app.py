"""The ASGI app in process: the browser page is mounted only when there is one to serve."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from gamehall.server.api.app import create_app


def test_the_page_is_served_at_the_root_when_the_web_folder_has_an_index(tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>hall</title>")
    (web / "app.js").write_text("export {};")
    app = create_app(f"sqlite:///{tmp_path / 'a.db'}", web_dir=web)
    with TestClient(app) as client:
        assert "<title>hall</title>" in client.get("/").text
        assert client.get("/app.js").status_code == 200
        assert client.get("/api/games").status_code == 200
        assert client.get("/docs").status_code == 200


def test_without_a_page_only_the_api_answers(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'b.db'}", web_dir=tmp_path / "nothing")
    with TestClient(app) as client:
        assert client.get("/").status_code == 404
        assert client.get("/api/rooms").json() == []


def test_health_reports_load_and_storage(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}", web_dir=tmp_path)
    with TestClient(app) as client:
        client.post("/api/session", json={"nickname": "hannah"})
        health = client.get("/api/health").json()
        assert health["storage"]["writes"] >= 1 and health["connections"] == 0
        assert set(health["loop_lag_ms"]) == {"p50", "p99", "max"}
        collector = health["gc"]  # a full collection stalls the loop: operators see them
        assert len(collector["thresholds"]) == len(collector["collections"]) == 3
        assert collector["frozen"] >= 0


def test_every_game_names_the_board_module_the_page_serves(tmp_path: Path,
                                                           test_games: None) -> None:
    """The page learns each game's board from /api/games (it has no list of games): the five
    games name their module, which the hall serves; a game without one names none (the page's
    generic board plays it)."""
    app = create_app(f"sqlite:///{tmp_path / 'g.db'}")
    with TestClient(app) as client:
        boards = {g["name"]: g["board"] for g in client.get("/api/games").json()}
        for name in ("hula", "haugaz", "halali", "hotu_matua", "hau_la"):
            assert boards[name] == f"/js/boards/{name}.js"
            module = client.get(boards[name])
            assert module.status_code == 200 and "export function createBoard" in module.text
        assert boards["testline"] is None


def test_halali_serves_the_tile_pictures_its_svg_drawing_reads(tmp_path: Path) -> None:
    """One file of pictures: the page gets it from the hall, svg.py reads it; a game without
    pictures (or no game) is a clear 404."""
    from gamehall.games.halali.pictures import load_pictures

    app = create_app(f"sqlite:///{tmp_path / 'p.db'}")
    with TestClient(app) as client:
        served = client.get("/api/games/halali/pictures")
        assert served.status_code == 200
        assert served.json() == load_pictures()
        assert set(served.json()["pictures"]) == {"bear", "fox", "lumberjack", "hunter",
                                                  "pheasant", "duck", "tree"}
        for name in ("hula", "no_such_game"):
            missing = client.get(f"/api/games/{name}/pictures")
            assert missing.status_code == 404
            assert missing.json()["code"] == "unknown_game"


def test_the_movers_answer_is_the_write_paths_return_value(tmp_path: Path,
                                                            test_games: None) -> None:
    """With the room's broadcasts held back, the mover still gets the state its move made (the
    write path's return value tells its connection), and over HTTP the action's answer carries
    it; the other player, who only has the broadcast, does not."""
    app = create_app(f"sqlite:///{tmp_path / 'm.db'}")
    with TestClient(app) as client:
        ann = client.post("/api/session", json={"nickname": "mann"}).json()["token"]
        bob = client.post("/api/session", json={"nickname": "mbob"}).json()["token"]
        room = client.post("/api/rooms", json={"game": "testline"},
                           headers={"Authorization": f"Bearer {ann}"}).json()["id"]
        for token in (ann, bob):
            client.post(f"/api/rooms/{room}/join", headers={"Authorization": f"Bearer {token}"})
        client.post(f"/api/rooms/{room}/start", headers={"Authorization": f"Bearer {ann}"})
        hall = app.state.hall
        publish = hall.pubsub.publish

        async def no_state(channel: str, event: dict[str, object]) -> None:
            if event.get("event") != "state":
                await publish(channel, event)

        with client.websocket_connect(f"/ws/rooms/{room}",
                                      headers={"Authorization": f"Bearer {ann}"}) as ws:
            def next_state() -> dict[str, object]:
                while True:
                    msg = ws.receive_json()
                    if msg["type"] == "state":
                        return dict(msg)

            assert next_state()["version"] == 0
            hall.pubsub.publish = no_state
            def until_pong() -> list[dict[str, object]]:
                ws.send_json({"type": "ping", "id": "p"})
                seen = []
                while (msg := ws.receive_json())["type"] != "pong":
                    seen.append(msg)
                return seen

            ws.send_json({"type": "move", "move": "b2", "version": 0, "id": "m"})
            assert [m["version"] for m in until_pong() if m["type"] == "state"] == [1]
            bobs = client.get(f"/api/rooms/{room}", headers={"Authorization": f"Bearer {bob}"})
            http = client.post(f"/api/rooms/{room}/move",
                               json={"move": bobs.json()["legal_moves"][0], "version": 1},
                               headers={"Authorization": f"Bearer {bob}"})
            assert http.status_code == 200 and http.json()["state"]["version"] == 2
            assert http.json()["replies"] == []
            assert not [m for m in until_pong() if m["type"] == "state"]  # Bob's move: unseen
            hall.pubsub.publish = publish
