"""The hall's own state for operators and clients: liveness and load, Prometheus metrics, and
the protocol description every installed hall serves about itself."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import PlainTextResponse, Response

from gamehall.server.api.access import anyone
from gamehall.server.api.parts import HallPart, ReviewsPart
from gamehall.server.ops.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE

PROTOCOL_URL = "/api/protocol"
"""Where the hall serves its own protocol description (protocol.md, shipped in this package)."""

router = APIRouter()


@cache
def _protocol_text() -> str:
    return resources.files("gamehall.server").joinpath("protocol.md").read_text("utf-8")


@router.get(PROTOCOL_URL, response_class=PlainTextResponse, dependencies=[Depends(anyone())],
            summary="The protocol description: HTTP API, WebSocket messages, chat commands "
                    "(Markdown)")
async def protocol() -> PlainTextResponse:  # plain text: a browser shows it, not downloads it
    return PlainTextResponse(_protocol_text())


@router.get("/api/health", dependencies=[Depends(anyone())],
            summary="Liveness and load: rooms, connections, storage commits; in a cluster the "
                    "node, the rooms it owns, the live nodes")
async def health(hall: HallPart, reviews: ReviewsPart) -> dict[str, Any]:
    return {**hall.health(), "reviews": reviews.health()}


@router.get("/metrics", include_in_schema=False, dependencies=[Depends(anyone())])
async def metrics(hall: HallPart) -> Response:
    return Response(hall.metrics.render(), media_type=METRICS_CONTENT_TYPE)
