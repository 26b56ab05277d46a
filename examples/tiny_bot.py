"""A whole bot for the gamehall bot API: accepts the challenges made to it, plays random moves."""
import json
import random
import sys
import threading
import time
from urllib.parse import quote

import httpx

URL, TOKEN = sys.argv[1], sys.argv[2]
hall = httpx.Client(base_url=URL, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=None)


def wait_out(r):  # 429 (too fast) or 503 (try again): wait Retry-After seconds, say so
    busy = r.status_code in (429, 503)
    if busy:
        time.sleep(float(r.headers.get("Retry-After", 1)))
    return busy


def call(method, path, **kw):
    while wait_out(r := hall.request(method, path, **kw)):
        pass
    return r


def lines(path):  # an NDJSON stream; its blank lines are keep-alives
    while True:
        with hall.stream("GET", path) as r:
            if not wait_out(r):
                yield from (json.loads(line) for line in r.iter_lines() if line.strip())
                return


def play(room):
    for msg in lines(f"/api/bot/game/stream/{room}"):
        state = msg.get("state", msg)  # gameFull holds the first gameState
        mine = state["type"] == "gameState" and state["seat"] is not None
        if mine and state["to_move"] == state["seat"]:
            move = quote(random.choice(state["legal_moves"]), safe="")
            call("POST", f"/api/bot/game/{room}/move/{move}", params={"version": state["version"]})
            # a 409 stale_version: the room moved on, and the next gameState says what to play


me, playing = call("GET", "/api/bot/account").json()["nickname"], set()
for event in lines("/api/stream/event"):
    if event["type"] == "challenge" and event["challenge"]["dest"]["name"] == me:
        call("POST", f"/api/challenge/{event['challenge']['id']}/accept")  # 409 if settled
    elif event["type"] == "gameStart" and event["game"]["id"] not in playing:
        playing.add(event["game"]["id"])
        threading.Thread(target=play, args=(event["game"]["id"],), daemon=True).start()
