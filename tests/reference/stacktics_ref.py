"""Reference implementation of Stacktics (plain Python, clarity over speed).

This is the "obviously correct" oracle used to produce and check perft data.
It deliberately uses an explicit dict board and copies the whole state on every
move instead of make/unmake.

Rules as the project reads them (see shared/games/stacktics.md):

* Game size N in 2..5; board files x ranks: N=2 4x4, N=3 5x5, N=4 6x6, N=5 7x6;
  option ``narrow`` (N=2 only): 3 files x 5 ranks.
* Each player has N trees (large 3 bottom, medium 2, small 1 on top) on its home
  rank, files b.. (corners empty); on the narrow board on the two home corners.
* South moves first. A move is (from square, base level counted from the
  bottom with 1 = ground, to square); the unit is the base and all above it.
* Shape from the base: small diagonal, medium orthogonal, large both.
* Distance: alone (base is the top piece) unlimited; loaded (pips above base
  < base pips) at most ``loaded`` (2 for N<=3, 3 for N>=4); overloaded exactly 1.
* Squares strictly between from and to must be empty.
* Landing: empty ok; friendly stack ok iff base size <= its top piece size
  (unit goes on top); enemy stack ok iff the unit is a single piece that started
  on a stack of height >= 2 -- it captures the whole enemy stack.
* A position where either army has captured >= 3N pips is terminal; a side with
  no legal move loses; ply >= ply_cap (if ply_cap) is a draw.
* Pie rule (default on for N=2, off otherwise): at ply 1 the side to move may
  also play ``swap``: seats exchange, board unchanged, North is to move again
  and ply becomes 2.
* Repetition (option ``repetition``, default on): the third occurrence of the
  same position (board, side to move, prisoners) is a draw (terminal).  The
  history only covers positions reached in this process (a parsed position
  starts a fresh history); it cannot influence perft of depth <= 4 from the
  start position nor depth <= 3 from a parsed position.

Position text: ``<side> <ply> | <cells> | <zones>[ | seats=north,south]``.
Move text: ``b1:3-e4`` or ``swap``.
"""

BOARDS = {2: (4, 4), 3: (5, 5), 4: (6, 6), 5: (7, 6)}
FILES = "abcdefg"

DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIRECTIONS = {1: DIAGONAL, 2: ORTHOGONAL, 3: ORTHOGONAL + DIAGONAL}

OWNER_LETTER = {"south": "S", "north": "N"}
LETTER_OWNER = {"S": "south", "N": "north"}
OTHER = {"south": "north", "north": "south"}


def square_name(f, r):
    """File index f (0-based), rank index r (0-based) -> 'a1' style name."""
    return FILES[f] + str(r + 1)


def square_coords(name):
    return FILES.index(name[0]), int(name[1:]) - 1


def _config(size, narrow, loaded, pie, ply_cap, repetition):
    if size not in BOARDS:
        raise ValueError("size must be 2..5")
    if narrow and size != 2:
        raise ValueError("narrow board only for size 2")
    files, ranks = (3, 5) if narrow else BOARDS[size]
    if loaded is None:
        loaded = 2 if size <= 3 else 3
    if pie is None:
        pie = size == 2
    return {
        "size": size,
        "narrow": bool(narrow),
        "files": files,
        "ranks": ranks,
        "loaded": loaded,
        "pie": bool(pie),
        "ply_cap": ply_cap,
        "repetition": bool(repetition),
    }


def _empty_state(config):
    return {
        "config": config,
        "board": {},  # square name -> tuple of (owner, size), bottom to top
        "side": "south",
        "ply": 0,
        "prisoners": {"south": [], "north": []},  # captured BY that army
        "swapped": False,
        "history": {},  # position key -> number of occurrences so far
    }


def start(size, narrow=False, loaded=None, pie=None, ply_cap=300, repetition=True):
    config = _config(size, narrow, loaded, pie, ply_cap, repetition)
    state = _empty_state(config)
    tree_s = (("south", 3), ("south", 2), ("south", 1))
    tree_n = (("north", 3), ("north", 2), ("north", 1))
    if narrow:
        home_files = [0, config["files"] - 1]
    else:
        home_files = list(range(1, 1 + size))
    for f in home_files:
        state["board"][square_name(f, 0)] = tree_s
        state["board"][square_name(f, config["ranks"] - 1)] = tree_n
    state["history"] = {_key(state): 1}
    return state


def _key(state):
    return (
        tuple(sorted(state["board"].items())),
        state["side"],
        tuple(state["prisoners"]["south"]),
        tuple(state["prisoners"]["north"]),
        state["swapped"],
    )


def captured_pips(state, army):
    return sum(size for _owner, size in state["prisoners"][army])


def is_terminal(state):
    return len(moves(state)) == 0


def result(state):
    """None if not terminal, else 'south', 'north' (winning army) or 'draw'."""
    cfg = state["config"]
    target = 3 * cfg["size"]
    for army in ("south", "north"):
        if captured_pips(state, army) >= target:
            return army
    if cfg["ply_cap"] and state["ply"] >= cfg["ply_cap"]:
        return "draw"
    if cfg["repetition"] and state["history"].get(_key(state), 0) >= 3:
        return "draw"
    if not moves(state):
        return OTHER[state["side"]]
    return None


def moves(state):
    """All legal moves: tuples (from, level, to) and possibly 'swap'."""
    cfg = state["config"]
    target = 3 * cfg["size"]
    if captured_pips(state, "south") >= target or captured_pips(state, "north") >= target:
        return []
    if cfg["ply_cap"] and state["ply"] >= cfg["ply_cap"]:
        return []
    if cfg["repetition"] and state["history"].get(_key(state), 0) >= 3:
        return []
    me = state["side"]
    board = state["board"]
    result_moves = []
    for r in range(cfg["ranks"]):
        for f in range(cfg["files"]):
            sq = square_name(f, r)
            stack = board.get(sq)
            if not stack or stack[-1][0] != me:
                continue
            height = len(stack)
            for base in range(height):  # 0-based index of the base piece
                if stack[base][0] != me:
                    continue
                base_size = stack[base][1]
                unit = stack[base:]
                above = sum(size for _o, size in stack[base + 1:])
                alone = base == height - 1
                if alone:
                    max_dist = max(cfg["files"], cfg["ranks"])
                elif above < base_size:
                    max_dist = cfg["loaded"]
                else:
                    max_dist = 1
                for df, dr in DIRECTIONS[base_size]:
                    for dist in range(1, max_dist + 1):
                        tf, tr = f + df * dist, r + dr * dist
                        if not (0 <= tf < cfg["files"] and 0 <= tr < cfg["ranks"]):
                            break
                        to = square_name(tf, tr)
                        target_stack = board.get(to)
                        if not target_stack:
                            result_moves.append((sq, base + 1, to))
                            continue
                        top_owner, top_size = target_stack[-1]
                        if top_owner == me:
                            if base_size <= top_size:
                                result_moves.append((sq, base + 1, to))
                        else:
                            if len(unit) == 1 and height >= 2:
                                result_moves.append((sq, base + 1, to))
                        break  # cannot pass an occupied square
    if cfg["pie"] and state["ply"] == 1 and not state["swapped"]:
        result_moves.append("swap")
    return result_moves


def copy_state(state):
    return {
        "config": state["config"],
        "board": dict(state["board"]),
        "side": state["side"],
        "ply": state["ply"],
        "prisoners": {k: list(v) for k, v in state["prisoners"].items()},
        "swapped": state["swapped"],
        "history": dict(state["history"]),
    }


def apply(state, move):
    """Return the new state after a legal move (the input is not modified)."""
    new = copy_state(state)
    if move == "swap":
        new["swapped"] = True
        new["ply"] = state["ply"] + 1
        # board unchanged; North's army moves again (now played by seat 0)
    else:
        frm, level, to = move
        stack = new["board"][frm]
        unit = stack[level - 1:]
        rest = stack[:level - 1]
        if rest:
            new["board"][frm] = rest
        else:
            del new["board"][frm]
        target = new["board"].get(to)
        if target and target[-1][0] != state["side"]:
            new["prisoners"][state["side"]].extend(target)
            new["board"][to] = unit
        elif target:
            new["board"][to] = target + unit
        else:
            new["board"][to] = unit
        new["side"] = OTHER[state["side"]]
        new["ply"] = state["ply"] + 1
    k = _key(new)
    new["history"][k] = new["history"].get(k, 0) + 1
    return new


def perft(state, depth):
    if depth == 0:
        return 1
    ms = moves(state)
    if depth == 1:
        return len(ms)
    return sum(perft(apply(state, m), depth - 1) for m in ms)


# ---------------------------------------------------------------- text formats

def format_move(move):
    if move == "swap":
        return "swap"
    frm, level, to = move
    return "%s:%d-%s" % (frm, level, to)


def parse_move(text):
    text = text.strip()
    if text == "swap":
        return "swap"
    frm, rest = text.split(":")
    level, to = rest.split("-")
    return (frm, int(level), to)


def _pieces_text(pieces):
    return "".join(OWNER_LETTER[o] + str(s) for o, s in pieces)


def _parse_pieces(text):
    if len(text) % 2:
        raise ValueError("bad piece list %r" % text)
    return [(LETTER_OWNER[text[i]], int(text[i + 1])) for i in range(0, len(text), 2)]


def format_position(state):
    cfg = state["config"]
    cells = []
    for r in range(cfg["ranks"]):
        for f in range(cfg["files"]):
            sq = square_name(f, r)
            if sq in state["board"]:
                cells.append("%s=%s" % (sq, _pieces_text(state["board"][sq])))
    zones = "prisoners.south=%s prisoners.north=%s" % (
        _pieces_text(state["prisoners"]["south"]),
        _pieces_text(state["prisoners"]["north"]),
    )
    text = "%s %d | %s | %s" % (state["side"], state["ply"], " ".join(cells), zones)
    if state["swapped"]:
        text += " | seats=north,south"
    return text


def parse_position(text, size=3, narrow=False, loaded=None, pie=None, ply_cap=300,
                   repetition=True):
    config = _config(size, narrow, loaded, pie, ply_cap, repetition)
    state = _empty_state(config)
    fields = [part.strip() for part in text.split("|")]
    side, ply = fields[0].split()
    if side not in ("south", "north"):
        raise ValueError("bad side %r" % side)
    state["side"] = side
    state["ply"] = int(ply)
    for cell in fields[1].split():
        sq, stack = cell.split("=")
        f, r = square_coords(sq)
        if not (0 <= f < config["files"] and 0 <= r < config["ranks"]):
            raise ValueError("square off board: %s" % sq)
        state["board"][sq] = tuple(_parse_pieces(stack))
    for zone in fields[2].split():
        name, pieces = zone.split("=")
        army = name.split(".")[1]
        state["prisoners"][army] = _parse_pieces(pieces)
    if len(fields) > 3:
        seats = fields[3].strip()
        if seats == "seats=north,south":
            state["swapped"] = True
        elif seats != "seats=south,north":
            raise ValueError("bad seats field %r" % seats)
    state["history"] = {_key(state): 1}
    return state


def options_from_dict(options):
    """Translate a perft-file option dict (strings) into keyword arguments."""
    kw = {}
    for name, value in options.items():
        if name == "size":
            kw["size"] = int(value)
        elif name in ("narrow", "pie", "repetition"):
            kw[name] = {"true": True, "false": False}[value]
        elif name in ("loaded", "ply_cap"):
            kw[name] = int(value)
        else:
            raise ValueError("unknown option %s" % name)
    kw.setdefault("size", 3)
    return kw


if __name__ == "__main__":
    import sys
    import time

    for size, narrow in ((2, False), (2, True), (3, False), (4, False), (5, False)):
        st = start(size, narrow=narrow)
        print(format_position(st))
        for d in range(1, int(sys.argv[1]) + 1 if len(sys.argv) > 1 else 4):
            t = time.time()
            print("  perft", d, perft(st, d), "%.1fs" % (time.time() - t))
