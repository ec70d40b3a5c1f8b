// ziggurat serve: the page. It asks the app (ziggurat/serve/app.py) for views as JSON and draws
// them: the board (the SVG of `ziggurat render`; for a card or dice game, a table of its hands,
// piles and dice drawn here from the view's `table`), who moves, the moves so far. A move is played
// by clicking its cells in order (the cells that may come next are tinted), by a button when
// several moves share the clicks or a move names no cell, or by typing it. Agents and nature are
// asked for their moves one at a time, so every position shows; a replay goes to any ply.
"use strict";

const $ = (id) => document.getElementById(id);
const page = {
  view: null,        // the last view from the app
  picked: [],        // the cells clicked so far towards a move
  running: true,     // whether agents are asked for their next move (a table of agents alone)
  busy: false,       // a request is on its way
  setup: null,       // the last table's settings, for the next game when watching
  tally: {},         // results of the games watched: result -> count
  viewer: "",        // the side a table of agents alone, or a replay, is viewed as ("" everyone)
};

async function api(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `${response.status} ${response.statusText}` }; }
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

function say(text) {
  const box = $("message");
  box.textContent = text || "";
  box.hidden = !text;
}

function show(section) {
  for (const id of ["setup", "open-record", "pass-screen", "board-view"]) $(id).hidden = id !== section;
}

// ---- a new game ------------------------------------------------------------------------------

async function openSetup() {
  show("setup");
  const data = await api("GET", "/api/rulesets");
  const select = $("ruleset");
  if (!select.options.length) {
    for (const name of data.rulesets) select.add(new Option(name, name));
    select.value = data.first.ruleset;
    page.firstOptions = data.first.options;
    const specs = $("agent-specs");
    for (const spec of ["human", ...data.agents, "mcts:iterations=200", "alphabeta:depth=2"]) {
      specs.append(new Option(spec));
    }
  }
  await loadRuleset(page.firstOptions || {});
  page.firstOptions = null;
}

function optionValues() {
  const out = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const value = input.type === "checkbox" ? String(input.checked) : input.value.trim();
    if (value !== "" && input.dataset.changed) out[input.dataset.option] = value;
  }
  return out;
}

async function loadRuleset(given) {
  const name = $("ruleset").value;
  const query = new URLSearchParams(given).toString();
  const info = await api("GET", `/api/rulesets/${encodeURIComponent(name)}${query ? "?" + query : ""}`);
  $("ruleset-description").textContent = `${info.title}: ${info.description}`;
  const box = $("options");
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const o of info.options) {
    const label = document.createElement("label");
    let input;
    if (o.kind === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = o.value === "true";
    } else if (o.kind === "enum") {
      input = document.createElement("select");
      for (const v of o.values) input.add(new Option(v, v));
      input.value = o.value;
    } else {
      input = document.createElement("input");
      input.type = "number";
      if (o.low !== null) input.min = o.low;
      if (o.high !== null) input.max = o.high;
      input.value = o.value;
    }
    input.dataset.option = o.name;
    input.id = `option-${o.name}`;
    if (o.name in given) input.dataset.changed = "1";
    input.addEventListener("change", () => { input.dataset.changed = "1"; });
    label.append(`${o.name} `, input, Object.assign(document.createElement("span"), { className: "note", textContent: ` ${o.doc}` }));
    box.append(label);
  }
  const seats = $("seats");
  seats.querySelectorAll("label").forEach((l) => l.remove());
  info.players.forEach((player, i) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.id = `seat-${i}`;
    input.setAttribute("list", "agent-specs");
    input.value = i === 0 ? "human" : "random";
    label.append(`${player} `, input);
    seats.append(label);
  });
}

async function startTable(settings) {
  page.setup = settings;
  page.running = true;
  const view = await api("POST", "/api/tables", settings);
  page.viewer = "";
  page.shownTo = null;
  showView(view);
}

// ---- drawing a view ---------------------------------------------------------------------------

function showView(view) {
  page.view = view;
  page.picked = [];
  // People sharing the screen in a game that hides something: before it shows one seat's view,
  // the screen asks for that player, so the one who just moved does not see it.
  const people = view.kind === "table" ? view.seats.filter((s) => s === "human").length : 0;
  if (people > 1 && view.viewer && view.viewer !== "nobody" && view.viewer !== page.shownTo) {
    page.pending = view;
    $("pass-to").textContent = `Pass the screen to ${view.viewer}`;
    show("pass-screen");
    return;
  }
  show("board-view");
  drawBoard(view);
  $("title").textContent = view.title;
  $("status").textContent = statusText(view);
  $("reason").hidden = !view.reason;
  $("reason").textContent = view.reason ? `why: ${view.reason}` : "";
  $("outcome").hidden = !view.outcome;
  $("outcome").textContent = view.outcome ? view.outcome.text : "";
  // The zones hidden from the viewer: the picture or the table says how many pieces each holds;
  // only the position's text (when it could not be drawn) needs the line.
  const hidden = view.svg || view.table ? [] : view.hidden || [];
  $("hidden-zones").hidden = !hidden.length;
  $("hidden-zones").textContent = hidden.length
    ? `Seen by ${view.viewer}: hidden ` + hidden.map((h) => `${h.zone} (${h.count} piece${h.count === 1 ? "" : "s"})`).join(", ")
    : "";
  drawHistory(view);
  drawViewerChoice(view);
  const table = view.kind === "table";
  $("table-controls").hidden = !table;
  $("replay-controls").hidden = table;
  if (table) {
    $("undo").disabled = !view.can_undo;
    $("save-record").href = `/api/tables/${view.id}/record`;
    // A game that hides something shows every hand in its record: offered when it is over.
    const secret = view.has_secrets && view.seats.includes("human") && view.status !== "over";
    $("save-record").hidden = $("to-replay").hidden = secret;
    const watching = view.seats.every((s) => s !== "human");
    $("watch-controls").hidden = !watching;
    $("undo").hidden = watching;
    $("pause").textContent = page.running ? "Pause" : "Run";
    $("tally").textContent = Object.entries(page.tally).map(([r, n]) => `${r}: ${n}`).join(", ");
  } else {
    $("at").textContent = `move ${view.at} of ${view.total}`;
    $("ply").max = view.total;
    $("ply").value = view.at;
    $("check").textContent = view.check || "";
    $("first").disabled = $("prev").disabled = view.at === 0;
    $("next").disabled = $("last").disabled = view.at === view.total;
  }
  drawMoves(view);
  if (table) nextTurn(view);
}

function statusText(view) {
  if (view.kind === "replay") {
    return view.outcome ? "" : `${view.mover} to move`;
  }
  switch (view.status) {
    case "over": return "Game over";
    case "stuck": return `${view.mover} has no legal move and no rule ends the game`;
    case "nature": return "Chance moves";
    case "agent":
    case "thinking": return `${view.mover} (${view.seat_of_mover}) is thinking`;
    default: return `${view.mover} to move: ` +
      (view.moves.some((m) => m.cells.length) ? "click a piece or type a move" : "choose or type a move");
  }
}

function drawBoard(view) {
  if (view.table) { // a game whose board is only places: a table of what it has
    $("board").replaceChildren(drawTable(view.table, view.viewer));
    if (view.last) for (const c of view.last.cells) cellGroup(c)?.classList.add("last");
    return;
  }
  if (!view.svg) { // the position this seat observes could not be drawn: its text instead
    const text = document.createElement("pre");
    text.textContent = view.position;
    $("board").replaceChildren(text);
    return;
  }
  const doc = new DOMParser().parseFromString(view.svg, "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const board = $("board");
  board.replaceChildren(svg);
  if (view.last) for (const c of view.last.cells) cellGroup(c)?.classList.add("last");
}

function cellGroup(name) {
  return $("board").querySelector(`svg g[id="cell-${CSS.escape(name)}"], [data-cell="${CSS.escape(name)}"]`);
}

// ---- a table of what the game has (a card or dice game: ziggurat/layout.py) ----------------------

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function pieceNode(table, run, small) {
  const piece = table.pieces[run.piece];
  if (piece.card && !small) { // a card: its code and name on a band of its colour, then what the tables say
    const card = element("div", "card");
    card.style.setProperty("--fill", piece.fill);
    card.style.setProperty("--ink", piece.ink);
    const band = element("div", "band");
    band.append(element("b", "", piece.code), element("span", "", piece.name));
    card.append(band);
    if (piece.facts.length) card.append(element("div", "facts", piece.facts.join(", ")));
    if (run.count > 1) card.append(element("span", "count", `×${run.count}`));
    return card;
  }
  const token = element("span", "token"); // a die, a marker, a point: a square of its colour
  token.append(element("span", "face", piece.code));
  token.firstChild.style.background = piece.fill;
  token.firstChild.style.color = piece.ink;
  token.title = piece.name;
  if (run.count > 1) token.append(element("span", "count", `×${run.count}`));
  return token;
}

function itemNode(table, item) {
  const row = element("div", "item");
  row.dataset.slot = item.slot;
  if (item.kind === "counter") {
    row.append(element("span", "title", item.title.replaceAll("_", " ")), element("span", "value", item.text));
    return row;
  }
  row.append(element("span", "title", item.title.replaceAll("_", " ")));
  const pieces = element("div", "pieces");
  if (item.hidden) pieces.append(element("span", "note", item.size ? `${item.size} hidden` : "none"));
  else if (!item.pieces.length) pieces.append(element("span", "note", "none"));
  for (const run of item.pieces) pieces.append(pieceNode(table, run, item.small));
  row.append(pieces);
  return row;
}

function drawTable(table, viewer) {
  const out = element("div", "table-view");
  for (const seat of table.seats) {
    const part = element("section", "seat");
    part.style.setProperty("--seat", seat.colour);
    part.append(element("h3", "", seat.player + (seat.player === viewer ? " (you)" : "")));
    for (const item of seat.items) part.append(itemNode(table, item));
    out.append(part);
  }
  if (table.shared.length) {
    const part = element("section", "shared");
    part.append(element("h3", "", "on the table"));
    for (const item of table.shared) part.append(itemNode(table, item));
    out.append(part);
  }
  if (table.places.length) {
    const part = element("section", "places");
    part.append(element("h3", "", "places"));
    for (const place of table.places) {
      const row = itemNode(table, { kind: "zone", slot: place.name, title: place.name, pieces: place.pieces,
                                    size: place.pieces.length, hidden: false, small: false });
      row.dataset.cell = place.name; // a move naming this place marks it, and it may be clicked
      part.append(row);
    }
    out.append(part);
  }
  return out;
}

function drawHistory(view) {
  const list = $("history");
  list.replaceChildren();
  const moves = view.kind === "replay" && view.recorded.moves.length ? view.recorded.moves : view.history;
  for (const m of moves) {
    const item = document.createElement("li");
    item.value = m.number;
    item.textContent = `${m.side} ${m.text}`;
    if (view.kind === "replay") {
      item.style.cursor = "pointer";
      item.addEventListener("click", () => gotoPly(m.number));
      if (m.number === view.at) item.classList.add("current");
    }
    list.append(item);
  }
  const current = list.querySelector(".current") || list.lastElementChild;
  if (current) current.scrollIntoView({ block: "nearest" });
}

function drawViewerChoice(view) {
  // Only a table of agents alone, or a replay, may be seen as another side: with people at the
  // table, the app decides whose eyes the screen is.
  const free = view.kind === "replay" || view.seats.every((s) => s !== "human");
  $("viewer-choice").hidden = !(free && view.has_secrets);
  const select = $("viewer");
  select.replaceChildren(new Option("everyone", ""), ...view.players.map((p) => new Option(p, p)));
  select.value = page.viewer;
}

// ---- moves by clicks, buttons and text ----------------------------------------------------------

function candidates() {
  const picked = page.picked;
  return page.view.moves.filter((m) => picked.every((c, i) => m.cells[i] === c));
}

function drawMoves(view) {
  const human = view.kind === "table" && view.status === "human";
  $("move-form").hidden = !human;
  $("board").classList.toggle("clickable", human);
  const list = $("legal-moves");
  list.replaceChildren(...(human ? view.moves.map((m) => new Option(m.text)) : []));
  const others = $("other-moves");
  others.replaceChildren();
  if (human) {
    for (const m of view.moves.filter((m) => !m.cells.length)) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = m.text;
      b.dataset.move = m.text;
      b.addEventListener("click", () => playMove(m.text));
      others.append(b);
    }
  }
  markTargets();
}

function markTargets() {
  const board = $("board");
  board.querySelectorAll("g.target, g.selected").forEach((g) => g.classList.remove("target", "selected"));
  $("choices").hidden = true;
  const view = page.view;
  if (view.kind !== "table" || view.status !== "human") return;
  for (const c of page.picked) cellGroup(c)?.classList.add("selected");
  const n = page.picked.length;
  const left = candidates();
  for (const m of left) if (m.cells.length > n) cellGroup(m.cells[n])?.classList.add("target");
  const whole = n ? left.filter((m) => m.cells.length === n) : [];
  if (whole.length > 1 || (whole.length === 1 && left.length > 1)) {
    const box = $("choice-buttons");
    box.replaceChildren();
    for (const m of whole) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = m.text;
      b.dataset.move = m.text;
      b.addEventListener("click", () => playMove(m.text));
      box.append(b);
    }
    $("choices").hidden = false;
  }
}

function clickCell(name) {
  const view = page.view;
  if (!view || view.kind !== "table" || view.status !== "human" || page.busy) return;
  const n = page.picked.length;
  const next = new Set(candidates().filter((m) => m.cells.length > n).map((m) => m.cells[n]));
  if (next.has(name)) {
    page.picked.push(name);
  } else if (n && name === page.picked[n - 1]) {
    page.picked = []; // the cell clicked last, clicked again: start again
  } else if (view.moves.some((m) => m.cells[0] === name)) {
    page.picked = [name]; // a fresh start from another piece
  } else {
    page.picked = [];
  }
  const left = candidates();
  if (page.picked.length && left.length === 1 && left[0].cells.length === page.picked.length) {
    playMove(left[0].text);
    return;
  }
  markTargets();
}

async function playMove(text) {
  if (page.busy) return;
  page.busy = true;
  try {
    const view = await api("POST", `/api/tables/${page.view.id}/move`, { move: text });
    say("");
    $("move-text").value = "";
    page.busy = false;
    showView(view);
  } catch (e) {
    page.busy = false;
    say(e.message);
  }
}

// ---- agents, nature, and watching ------------------------------------------------------------------

async function nextTurn(view) {
  if (view.status === "agent" || view.status === "thinking" || view.status === "nature") {
    if (!page.running) return;
    const watching = view.seats.every((s) => s !== "human");
    const delay = watching ? Number($("delay").value) : 150;
    setTimeout(() => step(view.id), delay);
  } else if (view.status === "over" && view.seats.every((s) => s !== "human") && !view.counted) {
    view.counted = true;
    const result = view.outcome.result;
    page.tally[result] = (page.tally[result] || 0) + 1;
    $("tally").textContent = Object.entries(page.tally).map(([r, n]) => `${r}: ${n}`).join(", ");
    if (page.running && page.setup) {
      const seed = page.setup.seed === null || page.setup.seed === undefined ? null : page.setup.seed + 1;
      setTimeout(() => { if (page.running && page.view.id === view.id) startTable({ ...page.setup, seed }); },
                 Math.max(1500, Number($("delay").value) * 3));
    }
  }
}

async function step(id) {
  if (!page.view || page.view.id !== id || page.busy || !page.running) return;
  page.busy = true;
  try {
    const query = page.viewer ? `?as=${encodeURIComponent(page.viewer)}` : "";
    const view = await api("POST", `/api/tables/${id}/step${query}`);
    page.busy = false;
    if (page.view && page.view.id === id) showView(view);
  } catch (e) {
    page.busy = false;
    say(e.message);
  }
}

// ---- replays ------------------------------------------------------------------------------------

async function gotoPly(ply) {
  const view = page.view;
  const query = new URLSearchParams({ ply: String(ply) });
  if (page.viewer) query.set("as", page.viewer);
  try {
    showView(await api("GET", `/api/replays/${view.id}?${query}`));
    say("");
  } catch (e) { say(e.message); }
}

async function openRecord(text, name) {
  try {
    page.running = false;
    page.viewer = "";
    showView(await api("POST", "/api/replays", { text, name }));
    say("");
  } catch (e) { say(e.message); }
}

// ---- wiring ----------------------------------------------------------------------------------------

$("nav-new").addEventListener("click", () => { page.running = false; say(""); openSetup().catch((e) => say(e.message)); });
$("nav-record").addEventListener("click", () => { page.running = false; say(""); show("open-record"); });
$("ruleset").addEventListener("change", () => loadRuleset({}).catch((e) => say(e.message)));
$("options").addEventListener("change", () => loadRuleset(optionValues()).then(() => say("")).catch((e) => say(e.message)));
$("setup-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const seats = [...$("seats").querySelectorAll("input")].map((i) => i.value.trim());
  const seed = $("seed").value.trim();
  page.tally = {};
  startTable({ ruleset: $("ruleset").value, options: optionValues(), seats, seed: seed === "" ? null : Number(seed) })
    .then(() => say("")).catch((e) => say(e.message));
});
$("board").addEventListener("click", (event) => {
  const group = event.target.closest('g[id^="cell-"]');
  if (group) clickCell(group.id.slice(5));
  const place = event.target.closest("[data-cell]");
  if (place) clickCell(place.dataset.cell);
});
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("move-text").value.trim();
  if (text) playMove(text);
});
$("undo").addEventListener("click", async () => {
  try { showView(await api("POST", `/api/tables/${page.view.id}/undo`)); say(""); } catch (e) { say(e.message); }
});
$("to-replay").addEventListener("click", async () => {
  try {
    page.running = false;
    page.viewer = "";
    showView(await api("POST", `/api/tables/${page.view.id}/replay`));
    say("");
  } catch (e) { say(e.message); }
});
$("pause").addEventListener("click", () => {
  page.running = !page.running;
  $("pause").textContent = page.running ? "Pause" : "Run";
  if (page.running) nextTurn(page.view);
});
$("viewer").addEventListener("change", async () => {
  page.viewer = $("viewer").value;
  const view = page.view;
  try {
    if (view.kind === "replay") await gotoPly(view.at);
    else showView(await api("GET", `/api/tables/${view.id}${page.viewer ? "?as=" + encodeURIComponent(page.viewer) : ""}`));
  } catch (e) { say(e.message); }
});
$("pass-show").addEventListener("click", () => {
  page.shownTo = page.pending.viewer;
  showView(page.pending);
});
$("first").addEventListener("click", () => gotoPly(0));
$("prev").addEventListener("click", () => gotoPly(Math.max(0, page.view.at - 1)));
$("next").addEventListener("click", () => gotoPly(Math.min(page.view.total, page.view.at + 1)));
$("last").addEventListener("click", () => gotoPly(page.view.total));
$("ply").addEventListener("change", () => gotoPly(Number($("ply").value)));
document.addEventListener("keydown", (event) => {
  if (!page.view || page.view.kind !== "replay" || event.target.closest("input, textarea, select")) return;
  if (event.key === "ArrowRight") $("next").click();
  if (event.key === "ArrowLeft") $("prev").click();
});
$("record-file").addEventListener("change", async () => {
  const file = $("record-file").files[0];
  if (file) $("record-text").value = await file.text();
});
$("record-open").addEventListener("click", () => {
  const file = $("record-file").files[0];
  openRecord($("record-text").value, file ? file.name : "<record>");
});

openSetup().catch((e) => say(e.message));
