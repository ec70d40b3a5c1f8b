"""Hand-written, optimised plain-Python Stacktics move generator.

This is the yardstick the compiled Ziggurat engine is measured against.  It is
written the way a careful Python programmer would write a fast generator for
this one game, without exploiting anything beyond the rules themselves:

* flat arrays indexed by square (``owner[sq]`` = 0 south / 1 north / -1 empty,
  ``board[sq]`` = tuple of piece sizes bottom to top; stacks are always
  single-owner because captures remove whole enemy stacks);
* rays precomputed per (base size, distance class, square), so the inner loop is
  a plain ``for t in ray``;
* moves are small ints ``(base << 12) | (from << 6) | to`` (``SWAP`` = -1);
* make/unmake with an undo stack, no state copies; perft counts the leaves in
  bulk (number of legal moves at depth 1) like the reference does;
* an incremental Zobrist hash for the repetition rule (third occurrence of a
  position is a draw), used by the random playouts.

Move order is identical to tests/reference/stacktics_ref.py (squares a1,b1,..,
then rank 2..; bases bottom to top; directions in the same order; distance
ascending; ``swap`` last), so a seeded playout is the same game in both.

Run standalone: ``python benchmarks/handwritten_stacktics.py``.
"""

import random
import sys
import time

BOARDS = {2: (4, 4), 3: (5, 5), 4: (6, 6), 5: (7, 6)}
FILES = "abcdefg"
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
SHAPES = {1: DIAG, 2: ORTH, 3: ORTH + DIAG}
SWAP = -1


class Stacktics:
    def __init__(self, size=3, narrow=False, loaded=None, pie=None, ply_cap=300,
                 repetition=True):
        if narrow and size != 2:
            raise ValueError("narrow board only for size 2")
        self.size = size
        self.narrow = narrow
        self.nf, self.nr = (3, 5) if narrow else BOARDS[size]
        self.nsq = self.nf * self.nr
        self.loaded = loaded if loaded is not None else (2 if size <= 3 else 3)
        self.pie = (size == 2) if pie is None else pie
        self.ply_cap = ply_cap
        self.repetition = repetition
        self.target = 3 * size
        self._precompute()
        self.reset()

    # ---------------------------------------------------------------- setup
    def _precompute(self):
        nf, nr = self.nf, self.nr
        longest = max(nf, nr)
        # rays[cls][size][sq]: tuple of rays; cls 0 = alone, 1 = loaded, 2 = overloaded
        self.rays = []
        for limit in (longest, self.loaded, 1):
            per_size = [None]
            for size in (1, 2, 3):
                per_sq = []
                for sq in range(self.nsq):
                    f, r = sq % nf, sq // nf
                    rays = []
                    for df, dr in SHAPES[size]:
                        ray = []
                        for d in range(1, limit + 1):
                            tf, tr = f + df * d, r + dr * d
                            if not (0 <= tf < nf and 0 <= tr < nr):
                                break
                            ray.append(tr * nf + tf)
                        if ray:
                            rays.append(tuple(ray))
                    per_sq.append(tuple(rays))
                per_size.append(tuple(per_sq))
            self.rays.append(per_size)
        rng = random.Random(0x5EED)
        maxh = 3 * self.size * 2 + 1
        # zob[sq][level][owner*4+size]
        self.zob = [[[rng.getrandbits(64) for _ in range(8)] for _ in range(maxh)]
                    for _ in range(self.nsq)]
        self.zob_side = rng.getrandbits(64)
        self.zob_swapped = rng.getrandbits(64)

    def reset(self):
        self.board = [()] * self.nsq
        self.owner = [-1] * self.nsq
        if self.narrow:
            home = [0, self.nf - 1]
        else:
            home = list(range(1, 1 + self.size))
        top = (self.nr - 1) * self.nf
        for f in home:
            self.board[f] = (3, 2, 1)
            self.owner[f] = 0
            self.board[top + f] = (3, 2, 1)
            self.owner[top + f] = 1
        self.side = 0
        self.ply = 0
        self.captured = [0, 0]
        self.swapped = False
        self._after_setup()

    def _after_setup(self):
        self.undo = []
        self.hash = self._full_hash()
        self.seen = {self.hash: 1}

    def _full_hash(self):
        h = 0
        for sq in range(self.nsq):
            o4 = self.owner[sq] * 4
            zs = self.zob[sq]
            for lvl, s in enumerate(self.board[sq]):
                h ^= zs[lvl][o4 + s]
        if self.side:
            h ^= self.zob_side
        if self.swapped:
            h ^= self.zob_swapped
        return h

    # ---------------------------------------------------------------- text
    def set_position(self, text):
        fields = [p.strip() for p in text.split("|")]
        side, ply = fields[0].split()
        self.side = {"south": 0, "north": 1}[side]
        self.ply = int(ply)
        self.board = [()] * self.nsq
        self.owner = [-1] * self.nsq
        for cell in fields[1].split():
            name, pieces = cell.split("=")
            sq = (int(name[1:]) - 1) * self.nf + FILES.index(name[0])
            owners = {pieces[i] for i in range(0, len(pieces), 2)}
            if len(owners) != 1:
                raise ValueError("mixed stack %s" % cell)
            self.owner[sq] = 0 if owners.pop() == "S" else 1
            self.board[sq] = tuple(int(pieces[i]) for i in range(1, len(pieces), 2))
        self.captured = [0, 0]
        for zone in fields[2].split():
            name, pieces = zone.split("=")
            who = 0 if name == "prisoners.south" else 1
            self.captured[who] = sum(int(pieces[i]) for i in range(1, len(pieces), 2))
        self.swapped = len(fields) > 3 and fields[3] == "seats=north,south"
        self._after_setup()

    def board_text(self):
        """Side, ply and cells of the position text (prisoners are only tracked as pips)."""
        cells = []
        for sq in range(self.nsq):
            if self.owner[sq] >= 0:
                c = "SN"[self.owner[sq]]
                name = FILES[sq % self.nf] + str(sq // self.nf + 1)
                cells.append(name + "=" + "".join(c + str(s) for s in self.board[sq]))
        return "%s %d | %s" % (("south", "north")[self.side], self.ply, " ".join(cells))

    def move_text(self, m):
        if m == SWAP:
            return "swap"
        nf = self.nf
        frm, to = (m >> 6) & 63, m & 63
        return "%s%d:%d-%s%d" % (FILES[frm % nf], frm // nf + 1, (m >> 12) + 1,
                                 FILES[to % nf], to // nf + 1)

    # ---------------------------------------------------------------- moves
    def generate(self):
        side = self.side
        cap = self.captured
        if cap[0] >= self.target or cap[1] >= self.target:
            return []
        if self.ply_cap and self.ply >= self.ply_cap:
            return []
        out = []
        app = out.append
        board = self.board
        owner = self.owner
        alone_r, loaded_r, over_r = self.rays
        for sq, so in enumerate(owner):
            if so != side:
                continue
            st = board[sq]
            h = len(st)
            if h == 1:  # a lone piece on the ground: unlimited, cannot capture
                s = st[0]
                code = sq << 6
                for ray in alone_r[s][sq]:
                    for t in ray:
                        o = owner[t]
                        if o < 0:
                            app(code | t)
                            continue
                        if o == side and s <= board[t][-1]:
                            app(code | t)
                        break
                continue
            above = sum(st)
            sqc = sq << 6
            top = h - 1
            for b in range(h):
                s = st[b]
                above -= s
                code = (b << 12) | sqc
                if b == top:  # alone on top of a stack of >= 2: may capture
                    for ray in alone_r[s][sq]:
                        for t in ray:
                            o = owner[t]
                            if o < 0:
                                app(code | t)
                                continue
                            if o == side:
                                if s <= board[t][-1]:
                                    app(code | t)
                            else:
                                app(code | t)
                            break
                else:
                    for ray in (loaded_r if above < s else over_r)[s][sq]:
                        for t in ray:
                            o = owner[t]
                            if o < 0:
                                app(code | t)
                                continue
                            if o == side and s <= board[t][-1]:
                                app(code | t)
                            break
        if self.ply == 1 and self.pie and not self.swapped:
            app(SWAP)
        return out

    def count(self):
        """Number of legal moves (bulk leaf counting for perft)."""
        side = self.side
        cap = self.captured
        if cap[0] >= self.target or cap[1] >= self.target:
            return 0
        if self.ply_cap and self.ply >= self.ply_cap:
            return 0
        n = 0
        board = self.board
        owner = self.owner
        alone_r, loaded_r, over_r = self.rays
        for sq, so in enumerate(owner):
            if so != side:
                continue
            st = board[sq]
            h = len(st)
            if h == 1:  # a lone piece on the ground: unlimited, cannot capture
                s = st[0]
                for ray in alone_r[s][sq]:
                    for t in ray:
                        o = owner[t]
                        if o < 0:
                            n += 1
                            continue
                        if o == side and s <= board[t][-1]:
                            n += 1
                        break
                continue
            above = sum(st)
            top = h - 1
            for b in range(h):
                s = st[b]
                above -= s
                if b == top:  # alone on top of a stack of >= 2: may capture
                    for ray in alone_r[s][sq]:
                        for t in ray:
                            o = owner[t]
                            if o < 0:
                                n += 1
                                continue
                            if o == side:
                                if s <= board[t][-1]:
                                    n += 1
                            else:
                                n += 1
                            break
                else:
                    for ray in (loaded_r if above < s else over_r)[s][sq]:
                        for t in ray:
                            o = owner[t]
                            if o < 0:
                                n += 1
                                continue
                            if o == side and s <= board[t][-1]:
                                n += 1
                            break
        if self.ply == 1 and self.pie and not self.swapped:
            n += 1
        return n

    def make(self, m):
        if m == SWAP:
            self.undo.append((m, None, None, -1, 0, self.hash))
            self.swapped = True
            self.ply += 1
            self.hash ^= self.zob_swapped
            return
        side = self.side
        board = self.board
        owner = self.owner
        zob = self.zob
        b = m >> 12
        frm = (m >> 6) & 63
        to = m & 63
        st = board[frm]
        tst = board[to]
        tow = owner[to]
        h = self.hash
        self.undo.append((m, st, tst, tow, 0, h))
        unit = st[b:]
        rest = st[:b]
        board[frm] = rest
        if not rest:
            owner[frm] = -1
        o4 = side * 4
        zf = zob[frm]
        for i in range(b, len(st)):
            h ^= zf[i][o4 + st[i]]
        zt = zob[to]
        if tow == side:
            base = len(tst)
            board[to] = tst + unit
        else:
            if tow >= 0:
                e4 = tow * 4
                gain = 0
                for i, s in enumerate(tst):
                    h ^= zt[i][e4 + s]
                    gain += s
                self.captured[side] += gain
                self.undo[-1] = (m, st, tst, tow, gain, self.hash)
            base = 0
            board[to] = unit
            owner[to] = side
        for i, s in enumerate(unit):
            h ^= zt[base + i][o4 + s]
        self.hash = h ^ self.zob_side
        self.side = side ^ 1
        self.ply += 1

    def unmake(self):
        m, st, tst, tow, gain, h = self.undo.pop()
        self.hash = h
        self.ply -= 1
        if m == SWAP:
            self.swapped = False
            return
        side = self.side ^ 1
        self.side = side
        frm = (m >> 6) & 63
        to = m & 63
        self.board[frm] = st
        self.owner[frm] = side
        self.board[to] = tst
        self.owner[to] = tow
        if gain:
            self.captured[side] -= gain

    # ---------------------------------------------------------------- drivers
    def perft(self, depth):
        if depth == 0:
            return 1
        if depth == 1:
            return self.count()
        total = 0
        make = self.make
        unmake = self.unmake
        for m in self.generate():
            make(m)
            total += self.perft(depth - 1)
            unmake()
        return total

    def playout(self, seed):
        """Play uniformly random moves to the end (win, no move, ply cap or
        third repetition) from the current position; return plies played.
        The position is left at the end of the game (no unmake)."""
        rng = random.Random(seed)
        choice = rng.choice
        seen = self.seen
        rep = self.repetition
        plies = 0
        while True:
            if rep and seen.get(self.hash, 0) >= 3:
                break
            ms = self.generate()
            if not ms:
                break
            self.make(choice(ms))
            plies += 1
            if rep:
                seen[self.hash] = seen.get(self.hash, 0) + 1
        self.undo.clear()  # playouts never unmake; drop the history
        return plies


def perft(depth, size=3, narrow=False, **options):
    return Stacktics(size, narrow, **options).perft(depth)


def playout(seed, size=3, narrow=False, **options):
    return Stacktics(size, narrow, **options).playout(seed)


def bench(size, narrow, depth, playouts):
    game = Stacktics(size, narrow)
    t = time.perf_counter()
    leaves = game.perft(depth)
    t_perft = time.perf_counter() - t
    t = time.perf_counter()
    plies = 0
    for seed in range(playouts):
        game.reset()
        plies += game.playout(seed)
    t_play = time.perf_counter() - t
    return {
        "perft_leaves": leaves,
        "perft_seconds": t_perft,
        "perft_leaves_per_s": leaves / t_perft,
        "playouts": playouts,
        "playout_plies": plies,
        "playout_seconds": t_play,
        "playouts_per_s": playouts / t_play,
        "plies_per_s": plies / t_play,
    }


def main(argv):
    configs = [(2, False, 5, 300), (2, True, 5, 300), (3, False, 4, 200),
               (4, False, 4, 100), (5, False, 4, 100)]
    print("%-8s %6s %12s %8s %14s %12s %12s" % ("game", "depth", "leaves", "sec",
                                                "leaves/s", "playouts/s", "plies/s"))
    for size, narrow, depth, n in configs:
        r = bench(size, narrow, depth, n)
        name = "size%d%s" % (size, "n" if narrow else "")
        print("%-8s %6d %12d %8.2f %14.0f %12.1f %12.0f" % (
            name, depth, r["perft_leaves"], r["perft_seconds"], r["perft_leaves_per_s"],
            r["playouts_per_s"], r["plies_per_s"]))


if __name__ == "__main__":
    main(sys.argv[1:])
