"""`ziggurat serve` in a real browser: headless Chromium from the system's packages, driven by
Playwright (its pip package only: no browser is downloaded). A person plays a whole game of small
Stacktics against the greedy agent by clicking cells and choosing among moves, then steps through
its record. Skipped, with the reason, when there is no Chromium (`apt-get install chromium`).

With ZIGGURAT_SCREENSHOTS=DIR the screenshots go to DIR (docs/howto/images holds the docs' ones):

    ZIGGURAT_SCREENSHOTS=docs/howto/images python -m pytest tests/faces/test_serve_browser.py
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
playwright = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

import ziggurat  # noqa: E402
from ziggurat.serve.clicks import move_cells  # noqa: E402

CHROMIUM = next((p for p in (os.environ.get("ZIGGURAT_CHROMIUM"), shutil.which("chromium"),
                             shutil.which("chromium-browser"), "/usr/bin/chromium") if p and os.path.exists(p)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (apt-get install -y chromium)")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
OPTIONS = ["--set", "size=2", "--set", "pie=false", "--set", "ply_cap=30"]


@pytest.fixture(scope="module")
def server():
    """`ziggurat serve stacktics ...` on a free port, stopped at the end."""
    proc = subprocess.Popen([sys.executable, "-m", "ziggurat", "serve", "stacktics", *OPTIONS, "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", line)
    if match is None:
        proc.kill()
        pytest.fail(f"the server did not start: {line!r} {proc.stderr.read()!r}")
    yield match.group(0)
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("ZIGGURAT_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def status(page) -> str:
    return page.inner_text("#status")


def wait_for_turn(page) -> str:
    """Wait until the person is to move or the game is over (the agent moves on its own)."""
    page.wait_for_function("""() => {
        const s = document.getElementById('status').textContent;
        return s.startsWith('Game over') || s.endsWith('type a move');
    }""", timeout=20_000)
    return status(page)


def click_a_move(page) -> None:
    """Play one move by clicks: a tinted cell, then the next tinted cell, until a move is made or
    the page asks which of several moves; then the first choice. A move without cells: its button."""
    before = page.inner_text("#history")
    for _ in range(8):
        if page.locator("#choices:not([hidden]) button").count():
            page.locator("#choices button").first.click()
            break
        targets = page.locator("#board g.target")
        if targets.count() == 0:
            page.locator("#other-moves button").first.click()
            break
        targets.first.click()
        if page.inner_text("#history") != before or status(page) != "south to move: click a piece or type a move":
            break
    page.wait_for_function("(before) => document.getElementById('history').innerText !== before", arg=before)


def test_a_game_of_stacktics_played_by_clicks_then_stepped_through(server, browser, shots):
    page = browser.new_page(viewport={"width": 1100, "height": 700})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    # The command line's ruleset and options are offered first.
    page.wait_for_selector("#option-size")
    assert page.input_value("#ruleset") == "stacktics" and page.input_value("#option-size") == "2"
    page.fill("#seat-1", "greedy")
    page.fill("#seed", "3")
    page.click("#start")
    assert wait_for_turn(page) == "south to move: click a piece or type a move"

    # The first click shows the clicked cell and where its moves may go.
    page.locator("#board g.target").first.click()
    assert page.locator("#board g.selected").count() == 1 and page.locator("#board g.target").count() >= 1
    page.locator("#board").screenshot(path=str(shots / "serve-targets.png"))
    page.locator("#board g.selected").click()  # a second click on it starts again
    assert page.locator("#board g.selected").count() == 0

    # Several moves share the clicks b1, a2 (which piece of the stack goes): the page asks which.
    game = ziggurat.load("stacktics", dict(o.split("=") for o in OPTIONS[1::2]))
    start = game.new(3)
    shared = [start.move_text(m) for m in start.moves() if move_cells(game, m) == ["b1", "a2"]]
    assert len(shared) >= 2
    page.click('#board g[id="cell-b1"]')
    page.click('#board g[id="cell-a2"]')
    page.wait_for_selector("#choices:not([hidden])")
    assert page.locator("#choices button").all_inner_texts() == shared
    page.locator("#choices button", has_text=shared[-1]).click()
    page.wait_for_function("() => document.getElementById('history').innerText.includes('south')")
    assert page.locator("#history li").first.inner_text() == f"south {shared[-1]}"
    moves = 1
    while wait_for_turn(page) != "Game over":
        if moves == 1:  # the picture for the docs: a piece picked, its targets, the last move
            page.locator("#board g.target").first.click()
            page.screenshot(path=str(shots / "serve-play.png"))
            page.locator("#board g.selected").click()
        click_a_move(page)
        moves += 1
        assert moves < 20, "the game did not end within its ply cap"
    assert page.locator("#board g.last").count() == 2  # the last move's two cells are marked
    outcome = page.inner_text("#outcome")
    assert outcome.startswith("game over at ply") and ("wins" in outcome or "draw" in outcome)
    plies = page.locator("#history li").count()
    assert plies >= 2 * moves - 1
    page.screenshot(path=str(shots / "serve-over.png"))

    # Its record, a move at a time.
    page.click("#to-replay")
    page.wait_for_selector("#replay-controls:not([hidden])")
    assert page.inner_text("#at") == f"move 0 of {plies}"
    board0 = page.inner_html("#board")
    page.click("#next")
    page.wait_for_function("() => document.getElementById('at').textContent === 'move 1 of %d'" % plies)
    assert page.inner_html("#board") != board0 and page.locator("#board g.last").count() == 2
    assert page.locator("#history li.current").inner_text().startswith("south ")
    page.click("#next")
    page.wait_for_function("() => document.getElementById('at').textContent === 'move 2 of %d'" % plies)
    page.screenshot(path=str(shots / "serve-replay.png"))
    page.click("#prev")
    page.wait_for_function("() => document.getElementById('at').textContent === 'move 1 of %d'" % plies)
    page.click("#last")
    page.wait_for_function("() => document.getElementById('at').textContent === 'move %d of %d'" % (plies, plies))
    assert page.inner_text("#check").startswith(f"replayed {plies} moves: every move legal")
    assert page.inner_text("#outcome") == outcome

    # A typed move that is not legal is answered in words.
    page.click("#nav-new")
    page.wait_for_selector("#setup:not([hidden])")
    page.click("#start")
    wait_for_turn(page)
    page.fill("#move-text", "b1:3-e9")
    page.click("#move-play")
    page.wait_for_selector("#message:not([hidden])")
    assert "b1:3-e9" in page.inner_text("#message") and "Traceback" not in page.inner_text("#message")
    assert errors == []


def test_agents_alone_are_watched_game_after_game(server, browser, shots):
    page = browser.new_page(viewport={"width": 1100, "height": 700})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    page.wait_for_selector("#option-size")
    page.fill("#seat-0", "random")
    page.fill("#seat-1", "greedy")
    page.fill("#seed", "1")
    page.eval_on_selector("#delay", "e => { e.value = '100'; }")
    page.click("#start")
    # Moves come without a click, one ply a request, until the game ends and is counted.
    page.wait_for_function("() => document.querySelectorAll('#history li').length >= 2")
    assert not page.is_hidden("#watch-controls") and page.is_hidden("#move-form")
    page.screenshot(path=str(shots / "serve-watch.png"))
    page.wait_for_function("() => document.getElementById('tally').textContent !== ''", timeout=30_000)
    assert re.fullmatch(r"(south wins|north wins|draw): 1", page.inner_text("#tally"))
    # The next game starts by itself; Pause stops the agents.
    ended = page.locator("#history li").count()
    page.wait_for_function("(n) => document.querySelectorAll('#history li').length < n", arg=ended, timeout=10_000)
    page.click("#pause")
    assert page.inner_text("#pause") == "Run"
    # A request already on its way may still land: wait until none is (the page's own `busy`),
    # not for a time that a loaded machine may exceed.
    page.wait_for_function("() => !page.busy")
    played = page.locator("#history li").count()
    page.wait_for_timeout(800)
    assert page.locator("#history li").count() == played
    assert errors == []


def test_people_sharing_the_screen_in_a_hidden_game_pass_it_before_each_view(server, browser):
    page = browser.new_page(viewport={"width": 1100, "height": 700})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    page.wait_for_selector("#option-size")
    page.select_option("#ruleset", "kuhn-poker")
    page.wait_for_selector("#seat-1")
    page.wait_for_function("() => !document.getElementById('option-size')")
    page.fill("#seat-0", "human")
    page.fill("#seat-1", "human")
    page.fill("#seed", "2")
    page.click("#start")
    for player, move in (("first", "pass"), ("second", "bet")):
        # The cards are dealt; the screen asks for the player before showing their card.
        page.wait_for_selector("#pass-screen:not([hidden])")
        assert page.inner_text("#pass-to") == f"Pass the screen to {player}" and page.is_hidden("#board-view")
        page.click("#pass-show")
        other = "second" if player == "first" else "first"
        # A card game is drawn as a table: the player's own card, the other hand as its count.
        assert page.locator(f'#board [data-slot="hand.{player}"] :is(.card, .token)').count() == 1
        assert page.inner_text(f'#board [data-slot="hand.{other}"] .pieces') == "1 hidden"
        assert page.locator(f'#board [data-slot="hand.{other}"] :is(.card, .token)').count() == 0
        assert page.is_hidden("#hidden-zones")  # the count is said once, in the table
        page.click(f'#other-moves button[data-move="{move}"]')
    page.wait_for_selector("#pass-screen:not([hidden])")
    page.click("#pass-show")
    page.click('#other-moves button[data-move="bet"]')  # first calls: the showdown, for everyone
    page.wait_for_function("() => document.getElementById('status').textContent === 'Game over'")
    assert page.is_hidden("#pass-screen") and page.is_hidden("#hidden-zones")
    assert errors == []


def test_a_game_without_a_board_is_a_readable_table(server, browser, shots):
    """RYB in the page: no chequered board; the person's hand as cards in the page's own text
    size, with what the ruleset's tables say of each; the other hands and the deck as their
    counts, once; no bookkeeping counter."""
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    page.wait_for_selector("#option-size")
    page.select_option("#ruleset", "ryb")
    page.wait_for_selector("#seat-2")
    page.fill("#seat-0", "human")
    page.fill("#seat-1", "random")
    page.fill("#seat-2", "random")
    page.fill("#seed", "3")
    page.click("#start")
    wait_for_turn(page)
    if page.locator('#board [data-slot="hand.al"] .card').count() == 0:
        page.click('#other-moves button[data-move="refill"]')  # al draws a hand
        page.wait_for_function("() => document.querySelectorAll('#board [data-slot=\"hand.al\"] .card').length > 0",
                               timeout=20_000)
    assert page.locator("#board svg").count() == 0 and page.locator('#board g[id^="cell-"]').count() == 0
    cards = page.locator('#board [data-slot="hand.al"] .card')
    assert cards.count() >= 1
    for i in range(cards.count()):
        size = cards.nth(i).evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 12, size  # readable, not shrunk to fit a picture
    goal = cards.filter(has_text="target")
    if goal.count():
        assert re.search(r"target \d+, value \d+", goal.first.inner_text())
    text = page.inner_text("#board")
    assert re.search(r"deck\s+\d+ hidden", text) and text.count("deck") == 1
    for word in ("step", "got red", "asker", "rolled red"):
        assert word not in text
    bruce = page.inner_text('#board [data-slot="hand.bruce"] .pieces')  # its count: none before the deal
    assert re.fullmatch(r"none|\d+ hidden", bruce) and page.locator('#board [data-slot="hand.bruce"] .card').count() == 0
    assert page.is_hidden("#hidden-zones")
    page.screenshot(path=str(shots / "serve-ryb.png"))
    assert errors == []
