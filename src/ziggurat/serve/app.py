"""The web app: the page, its static files, and a JSON API over tables and replays (tables.py).

    GET  /                          the page
    GET  /api/rulesets              the rulesets (shipped, and the one given on the command line),
                                    the agents, and what the page offers first
    GET  /api/rulesets/NAME?opt=v   one ruleset's players and options, resolved at the values given
    POST /api/tables                {ruleset, options, seats, seed}: a new table; its view
    GET  /api/tables/ID?as=SIDE     a table's view (`as` counts at a table of agents alone)
    POST /api/tables/ID/move        {move}: a person's move; the view after it
    POST /api/tables/ID/step        nature's or an agent's next move; the view after it (an agent
                                    searches in a thread of its own, thinking.py: meanwhile every
                                    other request is answered, the table's status `thinking`)
    POST /api/tables/ID/undo        back to the last person's decision; the view
    GET  /api/tables/ID/record      the game so far as a record (text)
    POST /api/tables/ID/replay      a replay of the table's record; its view at ply 0
    POST /api/replays               {text}: a replay of a record; its view at ply 0
    GET  /api/replays/ID?ply=N&as=S a replay's view after N moves

A bad request (a bad move, an unknown ruleset, a bad option or seat, a record that does not replay,
a body that bodies.py refuses: 415 and 413 for its type and size) is answered 400 with
{"error": message}, the message the command line would print; an unknown table 404; a bug of
ours 500 with a one-line message. No request is answered with a traceback.
"""

from __future__ import annotations

import inspect
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import ziggurat
from ..agents import AGENTS
from ..dsl.loader import shipped_names
from ..errors import GameError, ZigguratError, did_you_mean, shown
from . import bodies
from .tables import Replay, Table

STATIC = Path(__file__).parent / "static"
HOSTS = ["127.0.0.1", "localhost"]  # the names the app answers to
KEEP = 100  # tables and replays kept in memory; the oldest goes when one more is made


class NotFound(GameError):
    """A table or replay the app does not hold (any more)."""


class Store:
    """Tables or replays by id, the newest KEEP of them."""

    def __init__(self, kind: str):
        self.kind, self.items, self.lock = kind, {}, threading.Lock()

    def add(self, item):
        with self.lock:
            self.items[item.id] = item
            while len(self.items) > KEEP:
                self.items.pop(next(iter(self.items)))
        return item

    def all(self) -> list:
        with self.lock:
            return list(self.items.values())

    def get(self, key: str):
        with self.lock:
            item = self.items.get(key)
        if item is None:
            raise NotFound(f"no {self.kind} {shown(key)} here (the server was restarted, or it is too old): "
                           "start a new one")
        return item


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def answers(endpoint, model=bodies.NoBody):
    """Run an endpoint, `endpoint(request, body)`, in a worker thread (drawing never holds up the
    server), its body read and checked against `model` (bodies.py); turn every failure into a
    JSON message (never a traceback)."""

    async def run(request: Request):
        try:
            body = await bodies.read(request, model) if request.method == "POST" else model()
            if inspect.iscoroutinefunction(endpoint):  # it runs its slow parts in threads itself
                return await endpoint(request, body)
            return await run_in_threadpool(endpoint, request, body)
        except NotFound as e:
            return _error(str(e), 404)
        except bodies.BodyError as e:
            return _error(str(e), e.status)
        except ziggurat.RulesetError as e:
            return _error("\n".join(d.render() for d in e.diagnostics) or str(e))
        except ZigguratError as e:
            return _error(str(e))
        except Exception as e:  # the policy: a message, even for our own bugs
            from ..interpreter.linemap import native_fault, rules_diagnostic

            diagnostic = rules_diagnostic(e)
            if diagnostic is not None:  # a rule that fails at run time: point at the rule
                return _error(diagnostic.render())
            fault = native_fault(e)
            if fault is not None:  # the same in native code, which cannot point at the rule
                return _error(fault)
            return _error(f"internal error: {type(e).__name__}: {e} (please report this)", 500)

    return run


def _options(value) -> dict:
    """Option values from JSON: name -> text (numbers and booleans as the command line writes them)."""
    out = {}
    for name, v in (value or {}).items():  # types checked by bodies.NewTable
        if isinstance(v, bool):
            v = "true" if v else "false"
        if str(v).strip() == "":
            raise GameError(f"option {shown(name)} has no value")
        out[name] = str(v).strip()
    return out


def create_app(ruleset: str | None = None, options: dict | None = None) -> Starlette:
    """The app (see the module docstring); `ruleset` (a name or path) and `options` come first."""
    shipped = shipped_names()
    allowed = list(shipped) + ([ruleset] if ruleset and ruleset not in shipped else [])
    if ruleset is not None:
        ziggurat.load(ruleset, options or None)  # a bad ruleset or option fails before the server starts
    tables, replays = Store("table"), Store("replay")

    def load(name, opts):
        if not isinstance(name, str) or name not in allowed:
            hint = did_you_mean(str(name), allowed)
            raise GameError(f"unknown ruleset {shown(name)}" + (f"; {hint}" if hint else "")
                            + f" (the rulesets: {', '.join(allowed)})")
        return ziggurat.load(name, opts or None)

    async def index(request):
        return FileResponse(STATIC / "index.html")

    def rulesets(request, data):
        return JSONResponse({
            "rulesets": allowed, "agents": list(AGENTS),
            "first": {"ruleset": ruleset or (shipped[0] if shipped else None), "options": dict(options or {})},
        })

    def ruleset_info(request, data):
        opts = {k: v for k, v in request.query_params.items()}
        game = load(request.path_params["name"], opts)
        specs = game.option_specs
        return JSONResponse({
            "name": request.path_params["name"], "title": game.title, "description": game.description,
            "players": list(game.players), "has_secrets": game.has_secrets, "has_chance": game.has_chance,
            "options": [{"name": s.name, "doc": s.doc, "kind": s.kind, "low": s.low, "high": s.high,
                         "values": list(s.values or ()), "type": s.type_text,
                         "value": _option_value(game.options.get(s.name))} for s in specs.values()],
        })

    def new_table(request, data):
        game = load(data.ruleset, _options(data.options))
        seats = data.seats if data.seats is not None else ["human"] * len(game.players)
        table = tables.add(Table(data.ruleset, game, seats, data.seed))
        return JSONResponse(table.view())

    def table_view(request, data):
        table = tables.get(request.path_params["id"])
        return JSONResponse(table.view(request.query_params.get("as")))

    def table_move(request, data):
        table = tables.get(request.path_params["id"])
        played = table.play(data.move)
        out = table.view()
        out["played"] = played
        return JSONResponse(out)

    async def table_step(request, data):
        table = tables.get(request.path_params["id"])
        played, thought = await run_in_threadpool(table.step)
        if thought is not None:  # an agent's search: waited for without holding a thread
            await thought.wait()
            if thought.error is not None:
                raise thought.error
            played = thought.played
        out = await run_in_threadpool(table.view, request.query_params.get("as"))
        out["played"] = played
        return JSONResponse(out)

    def table_undo(request, data):
        table = tables.get(request.path_params["id"])
        table.undo()
        return JSONResponse(table.view())

    def secret_so_far(table) -> None:
        """GameError while a person plays a game that hides something: its record shows every hand."""
        if table.state.game.has_secrets and table.humans and table.state.outcome() is None:
            raise GameError("the record of a game that hides something shows every hand: "
                            "it is saved or stepped through when the game is over")

    def table_record(request, data):
        table = tables.get(request.path_params["id"])
        secret_so_far(table)
        name = Path(str(table.ruleset)).stem
        return PlainTextResponse(table.record().dumps(), headers={
            "Content-Disposition": f'attachment; filename="{name}-{table.id}.record"'})

    def table_replay(request, data):
        table = tables.get(request.path_params["id"])
        secret_so_far(table)
        replay = replays.add(Replay(table.record().dumps(), f"table {table.id}", allowed))
        return JSONResponse(replay.view(0))

    def new_replay(request, data):
        replay = replays.add(Replay(data.text, data.name or "<record>", allowed))
        return JSONResponse(replay.view(0))

    def replay_view(request, data):
        replay = replays.get(request.path_params["id"])
        ply = request.query_params.get("ply")
        if ply is not None:
            try:
                ply = int(ply)
            except ValueError:
                raise GameError(f"ply {shown(ply)} is not a whole number") from None
        return JSONResponse(replay.view(ply, request.query_params.get("as")))

    def stop_thinking() -> None:
        """Release every request waiting for an agent's move (Ctrl-C: the server stops at once)."""
        for table in tables.all():
            table.release()

    routes = [
        Route("/", index),
        Route("/api/rulesets", answers(rulesets)),
        Route("/api/rulesets/{name:path}", answers(ruleset_info)),
        Route("/api/tables", answers(new_table, bodies.NewTable), methods=["POST"]),
        Route("/api/tables/{id}", answers(table_view)),
        Route("/api/tables/{id}/move", answers(table_move, bodies.Move), methods=["POST"]),
        Route("/api/tables/{id}/step", answers(table_step), methods=["POST"]),
        Route("/api/tables/{id}/undo", answers(table_undo), methods=["POST"]),
        Route("/api/tables/{id}/record", answers(table_record)),
        Route("/api/tables/{id}/replay", answers(table_replay), methods=["POST"]),
        Route("/api/replays", answers(new_replay, bodies.NewReplay), methods=["POST"]),
        Route("/api/replays/{id}", answers(replay_view)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    # Only this machine's names are answered: another site's name resolved to 127.0.0.1 (DNS
    # rebinding) is refused.
    app = Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=HOSTS)])
    app.state.stop_thinking = stop_thinking
    return app


def _option_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return None if value is None else str(value)


__all__ = ["create_app"]
