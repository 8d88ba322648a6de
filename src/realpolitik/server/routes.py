"""HTTP routes of the JSON API (``/api/...``): each one a call of a service function."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Path, Query, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.routing import APIRoute
from pydantic import StringConstraints

from realpolitik.errors import VariantError
from realpolitik.game.editions import EDITIONS, MAX_GAME_YEARS, VARIANTS, edition
from realpolitik.maps import load_map
from realpolitik.notation import power_name
from realpolitik.server import (
    accounts,
    contact,
    engine,
    events,
    games,
    maps,
    play,
    press,
    ratelimit,
    sandbox,
)
from realpolitik.server.accounts import User
from realpolitik.server.backend import Backend
from realpolitik.server.errors import BadRequest, Forbidden, Unauthorized
from realpolitik.server.gamesettings import (
    BOT_KINDS,
    DEADLINE_PRESETS,
    MAX_DEADLINE,
    PRESS_RULES,
    SANDBOX,
    Deadlines,
    GameSettings,
    rulebook_deadlines,
    who_plays,
)
from realpolitik.server.guard import unique_keys
from realpolitik.server.schemas import (
    AccountIn,
    ConfirmIn,
    DrawIn,
    EmailIn,
    ForkIn,
    GameIn,
    JoinIn,
    LanguageIn,
    LoginIn,
    MeOut,
    MessageIn,
    NoticesIn,
    OrdersIn,
    PasswordIn,
    PowerIn,
    ReadyIn,
    RollbackIn,
    SessionOut,
    UserOut,
)

COOKIE = "rp_session"


class _StrictJson(Request):
    """A request whose JSON body may not give a key twice (:func:`.guard.unique_keys`), and
    whose body, if it cannot be read as JSON at all, is refused naming why (422, as for
    malformed JSON: FastAPI's answer was "There was an error parsing the body")."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            try:
                self._json = json.loads(body, object_pairs_hook=unique_keys)
            except json.JSONDecodeError:
                raise
            except UnicodeDecodeError:
                raise json.JSONDecodeError("the body is not UTF-8 text", "", 0) from None
            except RecursionError:
                raise json.JSONDecodeError("the body is nested too deeply", "", 0) from None
            except ValueError:  # an integer of more digits than Python converts (4,300)
                raise json.JSONDecodeError("a number has too many digits", "", 0) from None
        return self._json


class _Route(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(_StrictJson(request.scope, request.receive))

        return strict


router = APIRouter(route_class=_Route)

Language = Annotated[str, Query(pattern="^(en|es|fr|pt)$")]
MAX_ID = 2**63 - 1
GameId = Annotated[int, Path(ge=1, le=MAX_ID, description="the game's number")]
After = Annotated[int, Query(ge=-MAX_ID, le=MAX_ID, description="messages after this id")]
Code = Annotated[str | None, Query(max_length=60, description="an unlisted game's invitation code")]
PhaseName = Annotated[str, Path(max_length=16, description="a phase, e.g. S1901M")]
MaybePhase = Annotated[str | None, Query(max_length=16, description="a phase, e.g. S1901M")]
PowerName = Annotated[str, Query(min_length=1, max_length=20, description="a power, e.g. FRANCE")]
MaybePower = Annotated[str | None, Query(min_length=1, max_length=20, description="a power")]
UnitScale = Annotated[
    float,
    Query(ge=1, le=4, description="the units' size, times the plain picture's (a phone's: 2.4)"),
]


def backend(request: Request) -> Backend:
    b: Backend = request.app.state.backend
    return b


def _token(request: Request, authorization: str | None) -> tuple[str | None, bool]:
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() != "bearer" or not value:
            raise Unauthorized("the Authorization header must be 'Bearer <token>'")
        return value.strip(), False
    return request.cookies.get(COOKIE), True


def optional_user(
    request: Request,
    b: Annotated[Backend, Depends(backend)],
    authorization: Annotated[str | None, Header()] = None,
) -> User | None:
    token, from_cookie = _token(request, authorization)
    if not token:
        return None
    if (
        from_cookie
        and request.method not in ("GET", "HEAD", "OPTIONS")
        and request.headers.get("x-requested-with") != "realpolitik"
    ):
        raise Forbidden("a request authenticated by cookie needs 'X-Requested-With: realpolitik'")
    return accounts.user_for_token(b, token)


def current_user(user: Annotated[User | None, Depends(optional_user)]) -> User:
    if user is None:
        raise Unauthorized("log in first", code="not_logged_in")
    return user


B = Annotated[Backend, Depends(backend)]
Me = Annotated[User, Depends(current_user)]
MaybeMe = Annotated[User | None, Depends(optional_user)]


def _user_out(user: User) -> UserOut:
    return UserOut(id=user.id, username=user.username, language=user.language)


# --- accounts ----------------------------------------------------------------------------


def _choices(edition_name: str) -> dict[str, list[dict[str, str]]]:
    """The player counts at which ``edition_name`` has several tables: each one's id, title."""
    spec = edition(edition_name)
    out: dict[str, list[dict[str, str]]] = {}
    for n in spec.tables():
        tables = [s for s in spec.setups if s.players == n and not s.extra]
        if len(tables) > 1:
            out[str(n)] = [{"id": s.id, "title": s.title or s.id} for s in tables]
    return out


def _tables(edition_name: str) -> dict[str, dict[str, Any]]:
    """Who plays what at each of an edition's own tables, by id (see :func:`who_plays`)."""
    spec = edition(edition_name)
    return {table.id: who_plays(spec, table) for table in spec.setups if not table.extra}


@router.get("/meta", tags=["meta"])
def meta() -> dict[str, Any]:
    """What a new game may be: editions, variants, press rules, bots, deadline presets
    and the longest deadline (``max_deadline``, seconds);
    ``tables``: who plays what at each edition's tables, ``power_names`` in each language;
    ``shortened_game``: the editions whose players may agree a last year, with the first
    year of each table (the last year may be from it to ``max_game_years`` on)."""
    return {
        "editions": list(EDITIONS),
        "variants": list(VARIANTS),
        "players": {e: edition(e).tables() for e in EDITIONS},
        "setups": {e: _choices(e) for e in EDITIONS},
        "tables": {e: _tables(e) for e in EDITIONS},
        "power_names": {
            lang: {p: power_name(p, lang) for p in load_map("standard").powers}
            for lang in accounts.LANGUAGES
        },
        "without_press": {
            e: [n for n in edition(e).tables() if not edition(e).setup(n).press] for e in EDITIONS
        },
        "shortened_game": {e: _first_years(e) for e in EDITIONS if edition(e).shortened_game},
        "max_game_years": MAX_GAME_YEARS,
        "press": list(PRESS_RULES),
        "bots": list(BOT_KINDS),
        "deadline_presets": DEADLINE_PRESETS,
        "max_deadline": MAX_DEADLINE,
        "languages": list(accounts.LANGUAGES),
    }


def _first_years(edition_name: str) -> dict[str, int]:
    """An edition's first year at each of its tables (by players), the earliest last year
    (``last_year``, a shortened game) its players may agree."""
    spec = edition(edition_name)
    return {str(n): spec.first_year(spec.setup(n)) for n in spec.tables()}


def _rulebook(edition_name: str, players: int) -> Deadlines:
    try:
        return rulebook_deadlines(edition_name, players)
    except ValueError:
        raise BadRequest(f"unknown edition {edition_name!r}") from None


def _table_press(edition_name: str, players: int) -> str:
    """The press of a table when the game does not say: ``none`` without diplomacy."""
    try:
        return "full" if edition(edition_name).setup(players).press else "none"
    except VariantError:
        return "full"  # an unknown edition or table: validation names the problem


def _address(request: Request) -> str:
    """The client's address (behind a reverse proxy: the proxy's, unless uvicorn is told
    to trust its forwarded headers with ``--forwarded-allow-ips``)."""
    return request.client.host if request.client else "unknown"


def _session(response: Response, b: Backend, user: User, token: str) -> SessionOut:
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(b.settings.session_days * 86400),
        httponly=True,
        samesite="strict",
        secure=b.settings.secure_cookies,
    )
    return SessionOut(token=token, user=_user_out(user))


@router.post("/accounts", status_code=201, tags=["accounts"])
def create_account(body: AccountIn, b: B, request: Request, response: Response) -> SessionOut:
    """Create an account and log in."""
    accounts.create_account(
        b, body.username, body.password, body.language, address=_address(request)
    )
    user, token = accounts.log_in(b, body.username, body.password)
    return _session(response, b, user, token)


@router.post("/sessions", tags=["accounts"])
def log_in(body: LoginIn, b: B, request: Request, response: Response) -> SessionOut:
    """Log in (attempts are limited per address and failures per account and address,
    and per account: 429 with Retry-After; see :mod:`.accounts`)."""
    user, token = accounts.log_in(b, body.username, body.password, address=_address(request))
    return _session(response, b, user, token)


@router.delete("/sessions", status_code=204, tags=["accounts"])
def log_out(
    request: Request,
    b: B,
    me: Me,
    everywhere: Annotated[bool, Query(description="end every session of this user")] = False,
    authorization: Annotated[str | None, Header()] = None,
) -> Response:
    """Log out: end this session (``everywhere``: all of the user's sessions)."""
    token, _ = _token(request, authorization)
    if token:
        accounts.log_out(b, token, everywhere=everywhere)
    response = Response(status_code=204)
    response.delete_cookie(COOKIE)
    return response


@router.put("/me/password", status_code=204, tags=["accounts"])
def change_password(
    body: PasswordIn,
    request: Request,
    b: B,
    me: Me,
    authorization: Annotated[str | None, Header()] = None,
) -> Response:
    """Change the password, giving the current one (wrong: 403; attempts are limited as
    log-ins are: 429): every other session of the user ends, this one stays."""
    token, _ = _token(request, authorization)
    assert token  # Me: a session was given
    accounts.change_password(
        b, me, token, body.current_password, body.new_password, address=_address(request)
    )
    return Response(status_code=204)


def _me_out(b: Backend, user: User, found: contact.Contact) -> MeOut:
    extra = found.to_json() | {"mail": b.settings.mail}
    return MeOut.model_validate(_user_out(user).model_dump() | extra)


@router.get("/me", tags=["accounts"])
def me(b: B, me: Me) -> MeOut:
    """The user, with their email address (only they see it) and their notices."""
    return _me_out(b, me, contact.contact_of(b, me))


@router.put("/me/language", tags=["accounts"])
def set_language(body: LanguageIn, b: B, me: Me) -> UserOut:
    return _user_out(accounts.set_language(b, me, body.language))


@router.put("/me/email", tags=["accounts"])
def set_email(body: EmailIn, b: B, me: Me) -> MeOut:
    """Set the email address for notices (null or empty: none): a link to confirm it is
    mailed to it, and nothing else is until it is followed. ``time_zone``: the one
    deadlines in mail are written in. A bad address or an unknown zone: 400 naming what
    is wrong; more than ``confirmations_per_hour`` confirmation mails: 429; a server
    without mail: 409 ``mail_off``."""
    return _me_out(b, me, contact.set_email(b, me, body.email, time_zone=body.time_zone))


@router.post("/email/confirm", tags=["accounts"])
def confirm_email(body: ConfirmIn, b: B) -> dict[str, bool]:
    """Follow the link of a confirmation mail (no log-in needed): its address is
    confirmed. Unknown or used: 404 ``token_unknown``; expired: 400 ``token_expired``."""
    contact.confirm(b, body.token)
    return {"confirmed": True}


@router.put("/me/notices", tags=["accounts"])
def set_notices(body: NoticesIn, b: B, me: Me) -> MeOut:
    """Turn the notices mailed to a confirmed address on or off: ``phase`` (a new phase
    where you must act), ``deadline`` (a deadline near while your orders are not ready);
    ``time_zone``: the one deadlines in mail are written in (unknown: 400 naming it)."""
    found = contact.set_notices(
        b, me, phase=body.phase, deadline=body.deadline, time_zone=body.time_zone
    )
    return _me_out(b, me, found)


# --- games -------------------------------------------------------------------------------


@router.post("/games", status_code=201, tags=["games"])
def create_game(body: GameIn, b: B, me: Me) -> dict[str, Any]:
    """Create a game (its creator takes the first seat unless ``join`` is false; a
    ``sandbox``: every seat, and it starts at once)."""
    if body.sandbox:
        body = _sandbox_body(body)
    if body.deadlines == "rulebook":
        deadlines = _rulebook(body.edition, body.players)
    elif isinstance(body.deadlines, str):
        deadlines = Deadlines(**DEADLINE_PRESETS[body.deadlines])
    else:
        deadlines = Deadlines(**body.deadlines.model_dump())
    settings = GameSettings(
        variant=body.variant,
        edition=body.edition,
        players=body.players,
        setup=body.setup,
        deadlines=deadlines,
        press=body.press or _table_press(body.edition, body.players),
        press_anytime=body.press_anytime,
        bots=body.bots,
        replace_leavers=body.replace_leavers,
        public=body.public,
        draw_votes=body.draw_votes,
        show_names=body.show_names,
        last_year=body.last_year,
        sandbox=body.sandbox,
    )
    game_id = games.create_game(b, me, body.name, settings, join=body.join, start=body.start)
    return games.get_summary(b, game_id, me)


def _sandbox_body(body: GameIn) -> GameIn:
    """A sandbox's request with the options it leaves out taking the sandbox's values
    (:data:`.gamesettings.SANDBOX`); those it gives are checked with the settings, and
    ``join`` by :func:`.games.create_game`."""
    if "start" in body.model_fields_set and not body.start:
        raise BadRequest("a sandbox starts at once: start must be true, not false")
    unset = {k: v for k, v in SANDBOX.items() if k not in body.model_fields_set}
    if "deadlines" in unset:
        unset["deadlines"] = "none"
    return body.model_copy(update=unset | {"start": True})


@router.get("/games", tags=["games"])
def list_games(b: B, me: MaybeMe, language: Language = "en") -> dict[str, list[dict[str, Any]]]:
    return games.list_games(b, me, language)


# The reads every page makes on each change answer with their JSON as it is
# (JSONResponse: json.dumps, 0.06 ms for a game view) rather than through FastAPI's
# jsonable_encoder (1 ms): a fifth of a game view's time.
@router.get("/games/{game_id}", tags=["games"], response_class=JSONResponse)
def game_state(
    game_id: GameId, b: B, me: MaybeMe, language: Language = "en", code: Code = None
) -> JSONResponse:
    """The game as the caller may see it: its own orders only; observers see the board.
    An unlisted game answers only its members and holders of its invitation ``code``."""
    return JSONResponse(play.game_state(b, game_id, me, language, code))


@router.post("/games/{game_id}/join", tags=["games"])
def join(game_id: GameId, body: JoinIn, b: B, me: Me) -> dict[str, Any]:
    """Take a free seat; in a started game, ``power``: take over the seat that plays it,
    a bot's or one left empty (with its units, centres and this phase's orders, not ready).
    An unlisted game needs its invitation ``code``."""
    return games.join(b, me, game_id, body.code, body.power)


@router.get("/invitations/{code}", tags=["games"])
def invitation(code: str, b: B) -> dict[str, Any]:
    """The game an invitation link is for (shown to a visitor before logging in)."""
    return games.invitation(b, code)


@router.post("/invitations/{code}", tags=["games"])
def join_by_code(code: str, b: B, me: Me) -> dict[str, Any]:
    """Take a seat through an invitation link."""
    return games.join_by_code(b, me, code)


@router.post("/games/{game_id}/leave", status_code=204, tags=["games"])
def leave(game_id: GameId, b: B, me: Me) -> Response:
    games.leave(b, me, game_id)
    return Response(status_code=204)


@router.delete("/games/{game_id}", status_code=204, tags=["games"])
def cancel(game_id: GameId, b: B, me: Me) -> Response:
    """Cancel a forming game (its creator, while nobody else has joined it), or a sandbox
    (its creator, at any time): it is deleted."""
    games.cancel(b, me, game_id)
    return Response(status_code=204)


@router.post("/games/{game_id}/start", tags=["games"])
def start(game_id: GameId, b: B, me: Me) -> dict[str, Any]:
    """Start the game: bots take the empty seats, powers are assigned at random."""
    return games.start(b, me, game_id)


# --- play ------------------------------------------------------------------------------


@router.get("/games/{game_id}/legal", tags=["play"], response_class=JSONResponse)
def legal(
    game_id: GameId, b: B, me: Me, power: PowerName, language: Language = "en"
) -> JSONResponse:
    """The legal orders of one of your powers, by unit location (or build province)."""
    return JSONResponse(play.legal_for(b, game_id, me, power, language))


@router.get("/games/{game_id}/orders", tags=["play"])
def get_orders(
    game_id: GameId, b: B, me: Me, power: PowerName, language: Language = "en"
) -> dict[str, Any]:
    """Your orders for the current phase (only for a power you play)."""
    return play.orders_for(b, game_id, me, power, language)


@router.put("/games/{game_id}/orders", tags=["play"])
def put_orders(game_id: GameId, body: OrdersIn, b: B, me: Me) -> dict[str, Any]:
    """Give orders (typed in ``language``). A bad order answers 422 naming it, and
    nothing is stored; the answer comes once the orders are committed. Conquista: ``accept``
    lists the foreign units whose support the power accepts, ``ally`` the powers it declares
    an alliance with; both go with this phase's orders (``null``: unchanged)."""
    return play.submit_orders(
        b,
        game_id,
        me,
        body.power,
        body.orders,
        language=body.language,
        merge=body.merge,
        ready=body.ready,
        accept=body.accept,
        ally=body.ally,
        phase=body.phase,
    )


@router.post("/games/{game_id}/ready", tags=["play"])
def ready(game_id: GameId, body: ReadyIn, b: B, me: Me) -> dict[str, Any]:
    """Mark a power ready (or not): once all are, the phase is processed. ``phase``: the
    phase it is said for (the game moved on: 409 ``ready_moved``, nothing changed)."""
    return play.set_ready(b, game_id, me, body.power, body.ready, body.phase)


@router.post("/games/{game_id}/draw", tags=["play"])
def draw(game_id: GameId, body: DrawIn, b: B, me: Me) -> dict[str, Any]:
    return play.vote_draw(b, game_id, me, body.power, body.agree)


@router.post("/games/{game_id}/concede", tags=["play"])
def concede(game_id: GameId, body: PowerIn, b: B, me: Me) -> dict[str, Any]:
    return play.concede(b, game_id, me, body.power)


@router.post("/games/{game_id}/rollback", tags=["play"])
def rollback(game_id: GameId, body: RollbackIn, b: B, me: Me) -> dict[str, Any]:
    """A sandbox: take it back to the start of a phase of its history (its creator; 409
    for a game that is not a sandbox): the later phases go, the phase is played again."""
    return sandbox.rollback(b, game_id, me, body.phase)


@router.post("/games/{game_id}/sandbox", status_code=201, tags=["games"])
def fork(
    game_id: GameId, b: B, me: Me, body: ForkIn | None = None, code: Code = None
) -> dict[str, Any]:
    """A new sandbox of yours starting at the position of a phase of this game (one you may
    see; ``phase``: one of its history, default the current one), to try lines for every
    power there: the same edition, table and rules; only the public position goes over
    (no orders of the current phase, draw votes or press). It counts against your games."""
    return sandbox.fork(b, game_id, me, None if body is None else body.phase, code)


@router.get("/games/{game_id}/history", tags=["play"])
def history(
    game_id: GameId, b: B, me: MaybeMe, language: Language = "en", code: Code = None
) -> list[dict[str, Any]]:
    """The processed phases, oldest first (``name``: the phase's name in ``language``)."""
    return play.history(b, game_id, language, me, code)


@router.get("/games/{game_id}/history/{phase}", tags=["play"])
def phase_record(
    game_id: GameId,
    phase: PhaseName,
    b: B,
    me: MaybeMe,
    language: Language = "en",
    code: Code = None,
) -> dict[str, Any]:
    """One processed phase: the position before it and every order with its result."""
    return play.phase_record(b, game_id, phase, language, me, code)


@router.get(
    "/games/{game_id}/map.svg",
    tags=["play"],
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}},
)
def map_svg(
    game_id: GameId,
    b: B,
    me: MaybeMe,
    phase: MaybePhase = None,
    power: Annotated[
        list[Annotated[str, StringConstraints(max_length=20)]] | None, Query(max_length=20)
    ] = None,
    language: Language = "en",
    code: Code = None,
    unit_scale: UnitScale = engine.UNIT_SCALE,
) -> Response:
    """The map: a past phase with its orders and results, or the current position with
    the orders of each ``power`` given (ones you play; the parameter may be repeated).
    ``unit_scale``: the size the page draws units at, the rings, the arrows' ends and the
    centres' stars clear of them."""
    svg = maps.map_svg(
        b,
        game_id,
        me,
        phase=phase,
        power=power,
        language=language,
        code=code,
        unit_scale=unit_scale,
    )
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


@router.get(
    "/games/{game_id}/events",
    tags=["play"],
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
)
def game_events(
    game_id: GameId, request: Request, b: B, me: MaybeMe, code: Code = None
) -> StreamingResponse:
    """Server-sent events: a ``change`` event (data: the game's version, phase, clock,
    ready count and the last message id you may read) whenever that changes; fetch the
    game then. Polling ``GET /games/{id}`` works as well. At most ``streams_per_client``
    open at once per user (or address, not logged in) and process: 429 past it."""
    streams: events.Streams = request.app.state.streams
    events.check_visible(b, game_id, me, code)
    client = f"user {me.id}" if me else f"address {ratelimit.address_key(_address(request))}"
    streams.enter(client)
    return StreamingResponse(
        events.stream(b, game_id, me, code, streams, request.app.state.watcher, client),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


# --- press -------------------------------------------------------------------------------


@router.get("/games/{game_id}/messages", tags=["press"], response_class=JSONResponse)
def messages(
    game_id: GameId,
    b: B,
    me: MaybeMe,
    after: After = 0,
    power: MaybePower = None,
    code: Code = None,
) -> JSONResponse:
    """Messages you may read: public ones, and those to or from your powers."""
    return JSONResponse(press.inbox(b, game_id, me, after=after, power=power, code=code))


@router.post("/games/{game_id}/messages", status_code=201, tags=["press"])
def send(game_id: GameId, body: MessageIn, b: B, me: Me) -> dict[str, Any]:
    """Send a message: no recipients = public, one = private, several = group."""
    return press.send(b, game_id, me, body.sender, body.recipients, body.body)
