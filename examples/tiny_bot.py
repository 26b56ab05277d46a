"""A whole bot for the gamehall bot API: accepts every challenge, plays random legal moves."""
import json
import random
import sys
import threading
from urllib.parse import quote

import httpx

URL, TOKEN = sys.argv[1], sys.argv[2]
hall = httpx.Client(base_url=URL, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=None)


def lines(path):
    with hall.stream("GET", path) as r:
        yield from (json.loads(line) for line in r.iter_lines() if line.strip())


def play(room):
    for msg in lines(f"/api/bot/game/stream/{room}"):
        if msg["type"] == "gameFull":
            seat = msg["seat"]
        state = msg.get("state", msg)
        if msg["type"] in ("gameFull", "gameState") and state["to_move"] == seat:
            move = quote(random.choice(state["legal_moves"]), safe="")
            hall.post(f"/api/bot/game/{room}/move/{move}", params={"version": state["version"]})


for event in lines("/api/stream/event"):
    if event["type"] == "challenge" and event["challenge"]["dest"]["bot_account"]:
        hall.post(f"/api/challenge/{event['challenge']['id']}/accept")
    elif event["type"] == "gameStart":
        threading.Thread(target=play, args=(event["game"]["id"],), daemon=True).start()
