"""Refusals as HTTP answers: the same body as a WebSocket ``error`` (code, English message, the
sentence's key and args), with the status of its code (409 for a code not listed)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from redis.exceptions import RedisError
from starlette.exceptions import HTTPException

from gamehall.core.messages import msg
from gamehall.server.accounts.identity import RateLimited
from gamehall.server.api.routes import explorer
from gamehall.server.api.routes import languages as language_routes
from gamehall.server.pairing.seeks import STATUS as seek_status
from gamehall.server.pairing.service import STATUS as pool_status
from gamehall.server.reviews.service import STATUS as review_status
from gamehall.server.table import protocol as proto
from gamehall.server.table.errors import RoomError, Said
from gamehall.server.table.protocol import ProtocolError
from gamehall.server.tournaments.service import STATUS as tournament_status

log = logging.getLogger("gamehall.server")

NOT_FOUND, METHOD_NOT_ALLOWED, BAD_REQUEST = "not_found", "method_not_allowed", "bad_request"
"""The framework's own refusals (`http_error`): no route, no such method, another one."""
BOT_API_STATUS = {"missing_scope": 403, "not_bot": 403, "bot_account": 403,
                  "not_your_challenge": 403, "unknown_challenge": 404, "too_many_streams": 429,
                  "bad_reason": 400, "bad_scope": 400, "no_such_token": 404}
"""HTTP statuses of the bot API's own refusals (others are 409, as the hall's)."""
STATUS = {"not_identified": 401, "unknown_room": 404, "not_seated": 403, "not_your_seat": 403,
          "bad_json": 400, "bad_message": 400, "unknown_type": 400, "unknown_command": 400,
          "bad_nickname": 400, "bad_game": 400, "bad_option": 400, "bad_bot": 400,
          "bad_clock": 400, "bad_picture": 404,
          "too_large": 413, "bad_step": 400, "storage_error": 503, "bad_login": 401,
          "weak_password": 400, "unknown_player": 404, "rate_limited": 429,
          "room_unavailable": 503, "unknown_game": 404, "hints_rated": 403,
          "hints_no_bot": 403, "hint_failed": 503, NOT_FOUND: 404, METHOD_NOT_ALLOWED: 405,
          BAD_REQUEST: 400, **BOT_API_STATUS, **explorer.STATUS,
          **language_routes.STATUS, **review_status, **pool_status, **seek_status,
          **tournament_status}


def error(code: str, said: Said) -> JSONResponse:
    """An HTTP refusal: the same body as a WebSocket ``error``, with the code's status."""
    return JSONResponse(proto.error(code, said), status_code=STATUS.get(code, 409))


async def room_error(_r: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RoomError)
    resp = error(exc.code, exc.said)
    if isinstance(exc, RateLimited):
        resp.headers["Retry-After"] = str(max(1, round(exc.retry_after)))
    return resp


async def redis_error(_r: Request, exc: Exception) -> JSONResponse:
    log.warning("Redis failed during a request: %s", exc)
    return error("room_unavailable", msg("error.room.redis_down"))


async def protocol_error(_r: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ProtocolError)
    return error(exc.code, exc.said)


NOT_JSON = "send the body as JSON, with the header Content-Type: application/json"
"""The reason given for a body sent as another type (``curl -d`` sends a form), which the hall
does not read (a page of another site could post a form with the cookie)."""


def sent_as_json(request: Request) -> bool:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return kind == "application/json" or kind.endswith("+json")


async def invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    first = exc.errors()[0] if exc.errors() else {}
    if first.get("type") == "json_invalid":  # a body that is no JSON at all (protocol.md)
        return error(proto.BAD_JSON, msg("error.protocol.bad_json"))
    loc = tuple(first.get("loc", ()))
    where = ".".join(str(p) for p in loc)
    reason = str(first.get("msg", "invalid request"))
    if loc == ("body",) and request.headers.get("content-length", "0") != "0":
        reason = reason if sent_as_json(request) else NOT_JSON
    return error(proto.BAD_MESSAGE, msg("error.request.invalid", where=where, reason=reason))


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    """The framework's own refusals in the hall's shape: no route (404), no such method on it
    (405, with its ``Allow``), and a body FastAPI could not read as JSON at all (400: invalid
    UTF-8, nesting past the parser's depth), which it raises as a bare HTTPException."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        resp = error(NOT_FOUND, msg("error.request.not_found",
                                    path=request.url.path[:100]))
    elif exc.status_code == 405:
        resp = error(METHOD_NOT_ALLOWED, msg("error.request.method", method=request.method[:20],
                                             path=request.url.path[:100]))
    elif exc.status_code == 400:
        resp = error(proto.BAD_JSON, msg("error.protocol.bad_json"))
    else:
        resp = JSONResponse(proto.error(BAD_REQUEST, msg("error.request.refused")),
                            status_code=exc.status_code)
    resp.headers.update(exc.headers or {})
    return resp


CLIENT_FAULTS = frozenset({"Invalid UTF-8 sequence received from client."})
"""What uvicorn logs as an exception, traceback and all, though the client caused it and was
answered (a text frame that is not UTF-8: closed with 1007)."""


class ClientFaultsAreNotErrors(logging.Filter):
    """A client's bad input is no server error: uvicorn's `CLIENT_FAULTS` become one line at
    INFO without the traceback, so no stranger can fill the log with tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg not in CLIENT_FAULTS:
            return True
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.INFO, "INFO"
        return logging.getLogger(record.name).isEnabledFor(logging.INFO)


def quiet_client_faults(name: str = "uvicorn.error") -> None:
    """Install `ClientFaultsAreNotErrors` on uvicorn's logger (once the server set up logging)."""
    logger = logging.getLogger(name)
    if not any(isinstance(f, ClientFaultsAreNotErrors) for f in logger.filters):
        logger.addFilter(ClientFaultsAreNotErrors())


def install(app: FastAPI) -> None:
    """Answer the hall's refusals, FastAPI's invalid requests and the framework's own refusals
    (unknown routes and methods, unreadable bodies) in the hall's shape."""
    app.add_exception_handler(RoomError, room_error)
    app.add_exception_handler(RedisError, redis_error)
    app.add_exception_handler(ProtocolError, protocol_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)
