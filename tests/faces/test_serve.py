"""`ziggurat serve`'s app asked over HTTP (Starlette's test client): tables with people and
agents, clicks' cells, undo, records and replays, hidden zones kept from the other seats, and bad
requests answered with a message, never a traceback."""

from __future__ import annotations

import contextlib
import random
import re

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

import ziggurat  # noqa: E402
import ziggurat.dsl.loader  # noqa: E402
from ziggurat.records import loads, replay  # noqa: E402
from ziggurat.serve import create_app  # noqa: E402
from ziggurat.dsl.loader import shipped_names  # noqa: E402
from ziggurat.serve.clicks import clickable_moves, move_cells  # noqa: E402

SMALL = {"size": "2", "pie": "false", "ply_cap": "20"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app("stacktics", SMALL), base_url="http://127.0.0.1") as c:
        yield c


def table(client, seats, ruleset="stacktics", options=SMALL, seed=1):
    r = client.post("/api/tables", json={"ruleset": ruleset, "options": options, "seats": seats, "seed": seed})
    assert r.status_code == 200, r.text
    return r.json()


def error(response, status=400) -> str:
    assert response.status_code == status, response.text
    assert "Traceback" not in response.text
    return response.json()["error"]


def test_the_page_and_its_files_are_served_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and "<script src=\"/static/serve.js\"></script>" in page.text
    assert "http" not in re.sub(r'href="#"', "", page.text.split("<body>")[1])  # no CDN, no outside link
    for name in ("serve.js", "serve.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_the_page_links_its_icon_which_is_served(client):
    icon = re.search(r'<link rel="icon" href="([^"]+)"', client.get("/").text)
    assert icon is not None, "the browser would ask for /favicon.ico, which is not there"
    answer = client.get(icon.group(1))
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.text.startswith("<svg")


def test_the_page_offers_first_the_ruleset_and_options_of_the_command_line(client):
    data = client.get("/api/rulesets").json()
    assert data["first"] == {"ruleset": "stacktics", "options": SMALL}
    assert "stacktics" in data["rulesets"] and "mcts" in data["agents"]
    info = client.get("/api/rulesets/stacktics", params=SMALL).json()
    values = {o["name"]: o["value"] for o in info["options"]}
    assert values["size"] == "2" and values["pie"] == "false" and values["loaded"] == "2"
    assert info["players"] == ["south", "north"]


def test_a_view_lists_the_legal_moves_with_the_cells_to_click(client):
    view = table(client, ["human", "random"])
    state = ziggurat.load("stacktics", SMALL).new(1)
    assert view["status"] == "human" and view["mover"] == "south"
    assert [m["text"] for m in view["moves"]] == [state.move_text(m) for m in state.moves()]
    by_text = {m["text"]: m["cells"] for m in view["moves"]}
    assert by_text["b1:3-a2"] == ["b1", "a2"]  # from, then to; the level is chosen among moves
    assert 'id="cell-b1"' in view["svg"]  # the cells the page clicks are the picture's own


def test_cells_of_a_multi_jump_are_every_landing_in_order():
    game = ziggurat.load("checkers")
    state = game.position("white 0 | c3=Wm d4=Bm f6=Bm | captured.white= captured.black= quiet=0")
    jumps = [m for m in state.moves() if game.actions[m[0]].name == "jump"]
    assert jumps and all(len(move_cells(game, m)) == 1 + len(m[2]) for m in jumps)
    assert any(move_cells(game, m) == ["c3", "e5", "g7"] for m in jumps)


def test_a_person_moves_then_the_agent_answers_one_ply_a_request(client):
    view = table(client, ["human", "greedy"])
    moved = client.post(f"/api/tables/{view['id']}/move", json={"move": "b1:3-a2"}).json()
    assert moved["played"] == "b1:3-a2" and moved["status"] == "agent" and moved["moves"] == []
    assert moved["last"] == {"number": 1, "side": "south", "text": "b1:3-a2", "cells": ["b1", "a2"]}
    answered = client.post(f"/api/tables/{view['id']}/step").json()
    assert answered["status"] == "human" and answered["ply"] == 2
    assert answered["reason"].startswith("north (greedy): one ply ahead")  # why it chose that move
    assert answered["last"]["side"] == "north" and answered["last"]["text"] == answered["played"]
    undone = client.post(f"/api/tables/{view['id']}/undo").json()
    assert undone["ply"] == 0 and undone["history"] == [] and not undone["can_undo"]


def test_agents_alone_play_a_game_to_its_end(client):
    view = table(client, ["random", "greedy"], seed=4)
    for _ in range(40):
        if view["status"] == "over":
            break
        view = client.post(f"/api/tables/{view['id']}/step").json()
    assert view["status"] == "over" and view["outcome"]["result"] in ("south wins", "north wins", "draw")
    assert len(view["history"]) == view["ply"] <= 20


def test_a_finished_table_s_record_replays_and_steps_ply_by_ply(client):
    view = table(client, ["greedy", "random"], seed=2)
    while view["status"] != "over":
        view = client.post(f"/api/tables/{view['id']}/step").json()
    text = client.get(f"/api/tables/{view['id']}/record").text
    record = loads(text)
    assert record.agents == {"south": "greedy", "north": "random"} and record.result == view["outcome"]["result"]
    assert replay(record).text() == view["position"]
    rep = client.post(f"/api/tables/{view['id']}/replay").json()
    assert rep["kind"] == "replay" and rep["at"] == 0 and rep["total"] == view["ply"]
    one = client.get(f"/api/replays/{rep['id']}", params={"ply": 1}).json()
    assert one["last"]["text"] == record.moves[0] and one["svg"] != rep["svg"]
    end = client.get(f"/api/replays/{rep['id']}", params={"ply": rep["total"]}).json()
    assert end["check"].startswith(f"replayed {rep['total']} moves") and end["outcome"] == view["outcome"]
    back = client.get(f"/api/replays/{rep['id']}", params={"ply": 0}).json()
    assert back["svg"] == rep["svg"] and back["history"] == []


def test_a_record_that_does_not_replay_names_its_bad_move(client):
    text = "ruleset: stacktics\noptions: size=2\nplies: 2\n\n1. south b1:3-a2\n2. north a1:1-a1\n"
    rep = client.post("/api/replays", json={"text": text, "name": "bad.record"}).json()
    message = error(client.get(f"/api/replays/{rep['id']}", params={"ply": 2}))
    assert message.startswith("bad.record:6: move 2 (north 'a1:1-a1') is illegal")


def test_hidden_cards_are_shown_only_to_their_owner(client):
    view = table(client, ["human", "random"], ruleset="kuhn-poker", options={}, seed=5)
    while view["status"] == "nature":
        view = client.post(f"/api/tables/{view['id']}/step").json()
    assert view["viewer"] == "first"
    assert re.search(r"hand\.first=[JQK] ", view["position"]) and "hand.second=?1" in view["position"]
    # A card game is sent as a table of what it has: its own card, the other hand's count.
    hands = {x["slot"]: x for seat in view["table"]["seats"] for x in seat["items"] if x["slot"].startswith("hand.")}
    assert len(hands["hand.first"]["pieces"]) == 1 and not hands["hand.second"]["pieces"]
    assert hands["hand.second"]["hidden"] and hands["hand.second"]["size"] == 1
    assert {"zone": "hand.second", "count": 1} in view["hidden"]
    assert all(m["text"] == "<deal>" for m in view["history"][1:])  # the other's card: unseen
    # asking to see as the other seat changes nothing while a person sits at the table
    peek = client.get(f"/api/tables/{view['id']}", params={"as": "second"}).json()
    assert peek["viewer"] == "first" and peek["position"] == view["position"]


def test_a_table_of_agents_alone_may_be_seen_as_any_side(client):
    view = table(client, ["random", "random"], ruleset="kuhn-poker", options={}, seed=5)
    while view["status"] == "nature":
        view = client.post(f"/api/tables/{view['id']}/step").json()
    everyone = client.get(f"/api/tables/{view['id']}").json()
    second = client.get(f"/api/tables/{view['id']}", params={"as": "second"}).json()
    assert everyone["viewer"] is None and "?" not in everyone["position"]
    assert second["viewer"] == "second" and "hand.first=?1" in second["position"]
    assert error(client.get(f"/api/tables/{view['id']}", params={"as": "thrid"})).startswith(
        "'thrid' is not a side of Kuhn poker")


@pytest.mark.parametrize("body, message", [
    ({"ruleset": "stactics"}, "unknown ruleset 'stactics'; did you mean 'stacktics'"),
    ({"ruleset": "../../etc/passwd"}, "unknown ruleset '../../etc/passwd'"),
    ({"ruleset": "stacktics", "options": {"size": "9"}}, "option 'size' must be between 2 and 5, not 9"),
    ({"ruleset": "stacktics", "options": {"colour": "1"}}, "unknown option 'colour'"),
    ({"ruleset": "stacktics", "seats": ["human"]}, "1 seat given but Stacktics has 2 players"),
    ({"ruleset": "stacktics", "seats": ["human", "mcts:depth=2"]}, "agent 'mcts' has no parameter 'depth'"),
    ({"ruleset": "stacktics", "seats": "human"}, "seats must be a list"),
    ({"ruleset": "stacktics", "seed": "x"}, "seed must be a whole number from 0 to 2**63 - 1, or null, not 'x'"),
    ({"ruleset": "stacktics", "seed": 1.9}, "seed must be a whole number from 0 to 2**63 - 1, or null, not 1.9"),
    ({"ruleset": "stacktics", "seed": -1}, "seed must be a whole number"),
    ({"ruleset": "stacktics", "seed": 2 ** 63}, "seed must be a whole number"),
    ({"ruleset": "stacktics", "seed": True}, "seed must be a whole number"),
    ({"ruleset": "stacktics", "options": {"size": 2.5}}, "options['size'] must be an object of NAME: VALUE"),
    ({"ruleset": "stacktics", "seats": ["human", 3]}, "seats[1] must be a list: one 'human' or agent spec"),
    ({"ruleset": "stacktics", "colour": "red"}, "unknown field 'colour' in the request body"),
])
def test_a_bad_new_table_is_named(client, body, message):
    assert message in error(client.post("/api/tables", json=body))


def test_bad_moves_and_bad_requests_are_named(client):
    view = table(client, ["human", "random"])
    url = f"/api/tables/{view['id']}"
    assert "b1:3-e9" in error(client.post(f"{url}/move", json={"move": "b1:3-e9"}))
    assert error(client.post(f"{url}/move", json={})).startswith("no move given")
    assert error(client.post(f"{url}/move", content=b"{not json", headers={"content-type": "application/json"})) == "the request body is not JSON"
    assert error(client.post(f"{url}/move", json=["b1:3-a2"])) == "the request body must be a JSON object"
    assert error(client.post(f"{url}/undo")).startswith("nothing to take back")
    assert client.post(f"{url}/step").json()["played"] is None  # a person to move: no agent plays
    assert error(client.get("/api/tables/nosuch"), 404).startswith("no table 'nosuch' here")
    assert error(client.post("/api/replays", json={"text": "hello"})).startswith("<record>:1:")
    client.post(f"{url}/move", json={"move": "b1:3-a2"})
    assert error(client.post(f"{url}/move", json={"move": "b4:3-c3"})) == "it is north's turn, played by random"


def test_a_bad_ruleset_on_the_command_line_fails_before_serving():
    with pytest.raises(ziggurat.GameError, match="option 'size' must be between 2 and 5"):
        create_app("stacktics", {"size": "9"})


def test_the_command_names_a_bad_ruleset_option_or_port_before_serving():
    import socket

    from click.testing import CliRunner

    from ziggurat.cli.main import cli

    runner = CliRunner()
    bad = runner.invoke(cli, ["serve", "stacktics", "--set", "size=9"])
    assert bad.exit_code == 1 and "error: option 'size' must be between 2 and 5, not 9" in bad.output
    alone = runner.invoke(cli, ["serve", "--set", "size=2"])
    assert alone.exit_code == 2 and "--set needs a RULESET" in alone.output
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        taken = runner.invoke(cli, ["serve", "--port", str(port)])
    assert taken.exit_code == 1 and f"error: cannot serve on port {port}" in taken.output
    assert "Traceback" not in bad.output + alone.output + taken.output


@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_ruleset_s_moves_are_clicked_on_its_cells_or_offered_as_buttons(name):
    game = ziggurat.load(name)
    state = game.new(1)
    rng = random.Random(1)
    while state.is_chance:
        state.push(game.sample_chance(state, rng))
    board = {game.world.cell_name(c) for c in range(game.world.ncells)}
    moves = clickable_moves(state)
    assert [m["text"] for m in moves] == [state.move_text(m) for m in state.moves()]
    for move in moves:
        assert set(move["cells"]) <= board, move
    # Moves that share their clicks differ, so the page can offer them by their texts.
    by_cells: dict = {}
    for move in moves:
        by_cells.setdefault(tuple(move["cells"]), []).append(move["text"])
    assert all(len(set(texts)) == len(texts) for texts in by_cells.values())


def test_a_hidden_game_is_drawn_for_its_seat_to_its_end_then_shown_whole(client):
    # Kuhn poker's showdown reads both hands: the first seat's picture, with the other hand
    # emptied, cannot be drawn there; the game is over then, and shown whole to everyone.
    view = table(client, ["human", "random"], ruleset="kuhn-poker", options={}, seed=2)
    while view["status"] == "nature":
        view = client.post(f"/api/tables/{view['id']}/step").json()
    assert "hand.second=?1" in view["position"]
    view = client.post(f"/api/tables/{view['id']}/move", json={"move": "pass"}).json()
    while view["status"] == "agent":
        view = client.post(f"/api/tables/{view['id']}/step").json()
        assert "error" not in view, view
    if view["status"] == "human":
        view = client.post(f"/api/tables/{view['id']}/move", json={"move": "bet"}).json()
    assert view["status"] == "over" and view["viewer"] is None and view["hidden"] == []
    assert "?" not in view["position"] and view["table"] is not None
    hands = {x["slot"]: x for seat in view["table"]["seats"] for x in seat["items"] if x["slot"].startswith("hand.")}
    assert hands["hand.second"]["pieces"] and not hands["hand.second"]["hidden"]  # the other hand, at the showdown


def test_a_hidden_game_s_record_waits_for_its_end_while_a_person_plays(client):
    view = table(client, ["human", "random"], ruleset="kuhn-poker", options={}, seed=5)
    for url in (f"/api/tables/{view['id']}/record", f"/api/tables/{view['id']}/replay"):
        method = client.get if url.endswith("record") else client.post
        assert "shows every hand" in error(method(url))
    agents = table(client, ["random", "random"], ruleset="kuhn-poker", options={}, seed=5)
    assert client.get(f"/api/tables/{agents['id']}/record").text.startswith("# Ziggurat game record")


PEEK = '''
game "Peek" "A test game whose end reads a hand the first player cannot see."
players first, second
board:
    files: 1
    ranks: 1
piece:
    card: jack = 1 as "J", queen = 2 as "Q"
zone hand per player hidden
def narrow(): files == 1                # a rule reads the board's geometry: drawn on its grid
counter bets = 0
setup:
    add(hand[first], [piece(jack)])
    add(hand[second], [piece(queen)])
action bet "bet":
    do:
        bets += 1
end:
    if count(hand[second]) == 0:
        draw "no card"
    if bets >= 3 and narrow():
        draw "enough"
'''


def test_a_seat_view_the_rules_would_end_is_shown_as_text_not_drawn(tmp_path):
    # Drawn for the first seat, the second hand would be empty, and the rules would end the game
    # there ("no card") while the real game goes on: the page gets the observation's text instead.
    path = tmp_path / "peek.rules"
    path.write_text(PEEK)
    with TestClient(create_app(str(path)), base_url="http://127.0.0.1") as c:
        view = c.post("/api/tables", json={"ruleset": str(path), "seats": ["human", "random"]}).json()
        assert view["status"] == "human" and view["outcome"] is None
        assert view["svg"] is None and "hand.second=?1" in view["position"]
        agents = c.post("/api/tables", json={"ruleset": str(path), "seats": ["random", "random"]}).json()
        assert agents["svg"].startswith("<?xml")  # seen by everyone, the real position is drawn


def test_only_this_machine_s_names_and_json_bodies_are_answered(client):
    assert client.get("/api/rulesets", headers={"host": "evil.example"}).status_code == 400
    assert client.get("/api/rulesets", headers={"host": "localhost:8000"}).status_code == 200
    # A form or text post (what another site's page may send without asking) is refused.
    body = '{"ruleset": "stacktics"}'
    assert error(client.post("/api/tables", content=body, headers={"content-type": "text/plain"}), 415) == \
        "send the request body as JSON (Content-Type: application/json)"


# ---- request bodies: their type and size before they are read, their fields checked ------------

def raw_post(app, path: str, headers: dict, chunks: list) -> tuple:
    """POST `chunks` to the app as one body, straight through ASGI (the test client reads a body
    whole before sending it); (status, how many chunks the app read)."""
    import asyncio

    read, sent = 0, []

    async def receive():
        nonlocal read
        if read < len(chunks):
            read += 1
            return {"type": "http.request", "body": chunks[read - 1], "more_body": read < len(chunks)}
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"127.0.0.1")] + [(k.encode(), v.encode()) for k, v in headers.items()],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    asyncio.run(app(scope, receive, send))
    return next(m["status"] for m in sent if m["type"] == "http.response.start"), read


CHUNK = b" " * 65536
BIG = [CHUNK] * 40  # 2.5 MB


@pytest.mark.parametrize("headers, status, most", [
    ({"content-type": "text/plain", "content-length": str(600 << 20)}, 415, 0),  # any page may send this
    ({"content-type": "application/json", "content-length": str(600 << 20)}, 413, 0),
    ({"content-type": "application/json", "transfer-encoding": "chunked"}, 413, 17),  # stopped past 1 MB
])
def test_a_body_is_refused_by_its_type_and_size_before_it_is_read_whole(client, headers, status, most):
    got, read = raw_post(client.app, "/api/tables", headers, BIG)
    assert got == status and read <= most


NESTED = '{"seed": ' + "[" * 100_000 + "]" * 100_000 + "}"


@pytest.mark.parametrize("endpoint", ["/api/tables", "move", "step", "undo", "replay", "/api/replays"])
@pytest.mark.parametrize("body, message", [
    (NESTED, "the request body is nested too deeply"),
    ('{"seed": 1e400}', "seed"),  # a new table's must be a whole number; elsewhere no such field
    ('["x"]', "the request body must be a JSON object"),
    ('{"x": 1', "the request body is not JSON"),
])
def test_every_endpoint_s_body_is_checked_with_the_reason(client, endpoint, body, message):
    if not endpoint.startswith("/"):
        endpoint = f"/api/tables/{table(client, ['human', 'random'])['id']}/{endpoint}"
    r = client.post(endpoint, content=body, headers={"content-type": "application/json"})
    assert message in error(r) and len(r.text) < 400


def test_a_seed_too_large_for_a_float_is_not_a_whole_number(client):
    r = client.post("/api/tables", content='{"ruleset": "stacktics", "seed": 1e400}',
                    headers={"content-type": "application/json"})
    assert error(r) == "seed must be a whole number from 0 to 2**63 - 1, or null, not inf"


def test_serve_replays_only_the_rulesets_it_offers(client, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:the secret line\n")
    link = tmp_path / "x.rules"
    link.symlink_to(secret)
    for name in (str(link), str(ziggurat.dsl.loader.find("tic-tac-toe"))):
        r = client.post("/api/replays", json={"text": f"ruleset: {name}\nplies: 0\n\n"})
        message = error(r)
        assert "is not one this server offers" in message and "root:x" not in r.text


# ---- agents off the request path: a slow agent holds up nothing ----------------------------------

@pytest.fixture
def blocker(monkeypatch):
    """An agent `blocker` whose search waits until the test releases it: (started, release)."""
    import threading

    from ziggurat.agents import AGENTS, Agent

    started, release = threading.Event(), threading.Event()

    class Blocker(Agent):
        name = "blocker"

        def choose(self, state):
            started.set()
            release.wait()
            return state.moves()[0]

    monkeypatch.setitem(AGENTS, "blocker", (Blocker, {}))
    yield started, release
    release.set()


@contextlib.contextmanager
def released(release):
    """Release the agent when the block ends, before the client waits for its requests to end."""
    try:
        yield
    finally:
        release.set()


def in_thread(work):
    """Run `work` in a daemon thread; the thread (join it) and the dict its result goes to."""
    import threading

    out: dict = {}
    thread = threading.Thread(target=lambda: out.update(result=work()), daemon=True)
    thread.start()
    return thread, out


def test_a_slow_agent_holds_up_no_poll_and_no_page(blocker):
    started, release = blocker
    with TestClient(create_app("stacktics", SMALL), base_url="http://127.0.0.1") as c, released(release):
        view = table(c, ["blocker", "random"])
        url = f"/api/tables/{view['id']}"
        stepping, stepped = in_thread(lambda: c.post(f"{url}/step").json())
        assert started.wait(60)  # the agent is searching, and will until released
        polls, polled = in_thread(lambda: [c.get(url).json()["status"] for _ in range(60)]
                                  + [c.get("/").status_code, c.get("/api/rulesets").status_code])
        polls.join(60)  # a guard: a poll that waits on the agent never ends
        assert not polls.is_alive(), "a poll waited on the agent"
        assert polled["result"] == ["thinking"] * 60 + [200, 200]
        assert stepping.is_alive()  # the step waits for the move, not holding up anything else
        release.set()
        stepping.join(60)
        after = stepped["result"]
        assert after["ply"] == 1 and after["played"] == after["last"]["text"] and after["status"] == "agent"


def test_an_undo_while_an_agent_searches_discards_its_move(blocker):
    started, release = blocker
    with TestClient(create_app("stacktics", SMALL), base_url="http://127.0.0.1") as c, released(release):
        view = table(c, ["human", "blocker"])
        url = f"/api/tables/{view['id']}"
        c.post(f"{url}/move", json={"move": "b1:3-a2"})
        stepping, stepped = in_thread(lambda: c.post(f"{url}/step").json())
        assert started.wait(60)
        undoing, undone = in_thread(lambda: c.post(f"{url}/undo").json())
        undoing.join(60)
        assert not undoing.is_alive(), "the undo waited on the agent"
        assert undone["result"]["ply"] == 0 and undone["result"]["status"] == "human"
        release.set()
        stepping.join(60)
        assert c.get(url).json()["ply"] == 0  # the search's move, for a position gone, is not played


@pytest.mark.parametrize("seat, limit", [("mcts:time=100000", "limit of 10 seconds a move"),
                                         ("mcts:iterations=10000000", "limit of 20000 playouts a move"),
                                         ("alphabeta:depth=40", "limit of 6 plies")])
def test_a_served_agent_s_budget_is_capped(client, seat, limit):
    message = error(client.post("/api/tables", json={"ruleset": "stacktics", "seats": [seat, "random"]}))
    assert limit in message and seat in message


BLOCKING_SERVER = """
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)  # as from a shell (a test worker may ignore SIGINT)
import threading
from ziggurat.agents import AGENTS, Agent
class Blocker(Agent):
    name = "blocker"
    def choose(self, state):
        print("thinking", flush=True)
        threading.Event().wait()  # for ever
AGENTS["blocker"] = (Blocker, {})
from ziggurat.cli.main import main
main(["serve", "--port", "0"])
"""


def test_ctrl_c_stops_the_server_while_an_agent_searches():
    import json
    import signal
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-c", BLOCKING_SERVER], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        base = re.search(r"http://127\.0\.0\.1:\d+/", proc.stdout.readline()).group(0)

        def post(path, body=None):
            data = None if body is None else json.dumps(body).encode()
            request = urllib.request.Request(base + path, data=data, method="POST",
                                             headers={"Content-Type": "application/json"})
            with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=120) as answer:
                return json.loads(answer.read())

        view = post("api/tables", {"ruleset": "stacktics", "seats": ["blocker", "blocker"]})
        in_thread(lambda: post(f"api/tables/{view['id']}/step"))
        assert proc.stdout.readline().strip() == "thinking"
        proc.send_signal(signal.SIGINT)
        proc.wait(60)  # a guard: a server that waits for the agent never stops
    finally:
        proc.kill()
        _, err = proc.communicate()
    assert proc.returncode == 130 and "Traceback" not in err, err


def test_no_undo_past_the_hands_shown_at_the_end(client):
    # Kuhn poker, two people at one screen: first passes, second bets (nothing shown: an undo is
    # offered), first folds: the game is over and shows both hands, and no undo goes back to
    # a decision with the same deal.
    view = table(client, ["human", "human"], ruleset="kuhn-poker", options={}, seed=3)
    url = f"/api/tables/{view['id']}"
    while view["status"] == "nature":
        view = client.post(f"{url}/step").json()
    client.post(f"{url}/move", json={"move": "pass"})
    view = client.post(f"{url}/move", json={"move": "bet"}).json()
    assert view["status"] == "human" and view["can_undo"]
    view = client.post(f"{url}/move", json={"move": "pass"}).json()
    assert view["status"] == "over" and "?" not in view["position"]
    assert not view["can_undo"]
    assert error(client.post(f"{url}/undo")).startswith("no take-back past a reveal")
    assert client.get(url).json()["ply"] == view["ply"]
