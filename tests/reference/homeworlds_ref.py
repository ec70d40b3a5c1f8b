"""Homeworlds, a plain-Python reference written from the rules text (John Cooper's game, Looney
Labs' rules page), apart from the ruleset and the engine. Two players, south then north.

The pieces: 36 pyramids, three of each size (1 small, 2 medium, 3 large) in each colour (r red,
y yellow, g green, b blue), all in the bank at the start. A system is one or two stars (pieces of
nobody's) and ships (pieces of a player's); systems sit in 20 slots a1..e1, a2..e2, ... e4 (board
order), south's homeworld in a1, north's in e4, every other system in the first free slot of the
18 others when it is discovered. Two systems are connected when no star of one has the size of a
star of the other.

A turn is made of parts. The first turn of each player sets up their homeworld: two stars of
different sizes and a large ship, from the bank. After that, a turn is one action, or one
sacrifice and up to its size of actions of its colour, with catastrophes at any point, and may be
passed. An action with a ship of the mover's in a system:
- red: capture an enemy ship there no larger than the mover's largest there;
- yellow: move a ship to a connected system, or discover one: a star from the bank of a size the
  system's stars have not, the ship moved there;
- green: build the smallest piece in the bank of a colour the mover has a ship of there;
- blue: trade a ship for a bank piece of its size and another colour.
A colour is at hand in a system where its star or one of the mover's ships there has it; the
actions of a sacrifice (a ship of the mover's back to the bank) are of its colour wherever the
mover has ships. A catastrophe: four or more pieces of one colour in a system, stars included, go
back to the bank. A system left with no star or no ships goes back to the bank at once. The turn
goes on while the player has not acted, has actions of a sacrifice left, or a system is
overpopulated (a catastrophe may still be called); `pass` ends it. At the end of a turn, a player
whose homeworld has no star or no ship of theirs loses; both at once: a draw.
"""

from __future__ import annotations

from collections import Counter

SIZES = {1: "small", 2: "medium", 3: "large"}
COLOURS = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
BY_NAME = {v: k for k, v in {**SIZES, **COLOURS}.items()}
SIDES = ("south", "north")
SLOTS = [f + str(r) for r in range(1, 5) for f in "abcde"]
HOME = ("a1", "e4")


def star_sizes(system):
    return {s for s, _ in system["stars"]}


class Homeworlds:
    def __init__(self):
        self.systems = {}                      # slot -> {"stars": [(s, k)], "ships": [(side, s, k)]}
        self.bank = Counter({(s, k): 3 for s in SIZES for k in COLOURS})
        self.side = 0
        self.ply = 0
        self.acted = False
        self.left = 0
        self.colour = None                     # the colour of this turn's sacrifice
        self.result = None                     # None, or (south's, north's) in 1, 0, 1/2

    def copy(self):
        h = Homeworlds.__new__(Homeworlds)
        h.__dict__.update(self.__dict__)
        h.systems = {c: {"stars": list(x["stars"]), "ships": list(x["ships"])} for c, x in self.systems.items()}
        h.bank = Counter(self.bank)
        return h

    # ---- what the rules look at -------------------------------------------------------------

    def mine(self, c, side=None):
        side = self.side if side is None else side
        return [(s, k) for (p, s, k) in self.systems[c]["ships"] if p == side]

    def crowded(self, c):
        x = self.systems[c]
        n = Counter(k for _, k in x["stars"]) + Counter(k for _, _, k in x["ships"])
        return [k for k in COLOURS if n[k] >= 4]

    def at_hand(self, c, k):
        x = self.systems[c]
        return any(kk == k for _, kk in x["stars"]) or any(kk == k for _, kk in self.mine(c))

    def lost(self, side):
        x = self.systems.get(HOME[side])
        return x is None or not x["stars"] or not any(p == side for p, _, _ in x["ships"])

    def over(self):
        return self.result is not None

    # ---- the parts of a turn ----------------------------------------------------------------

    def parts(self):
        if self.result is not None:
            return []
        if self.ply < 2:
            return self.homes()
        out = ["pass"]
        for c in self.systems:
            out += [f"catastrophe {COLOURS[k]} {c}" for k in self.crowded(c)]
        for c in self.systems:
            if not self.mine(c):
                continue
            if not self.acted:
                out += [f"sacrifice {SIZES[s]} {COLOURS[k]} {c}" for s, k in sorted(set(self.mine(c)))]
                colours = [k for k in COLOURS if self.at_hand(c, k)]
            else:
                colours = [self.colour] if self.left > 0 else []
            for k in colours:
                out += self.actions(c, k)
        return out

    def homes(self):
        out = []
        for lo in (1, 2):
            for hi in (2, 3):
                if hi <= lo:
                    continue
                for lc in COLOURS:
                    for hc in COLOURS:
                        for ship in COLOURS:
                            need = Counter([(lo, lc), (hi, hc), (3, ship)])
                            if all(self.bank[p] >= n for p, n in need.items()):
                                out.append(f"home {SIZES[lo]} {COLOURS[lc]} + {SIZES[hi]} {COLOURS[hc]}, "
                                           f"ship {COLOURS[ship]}")
        return out

    def actions(self, c, k):
        x, mine = self.systems[c], sorted(set(self.mine(c)))
        out = []
        if k == "r":
            biggest = max(s for s, _ in mine)
            foes = {(s, kk) for p, s, kk in x["ships"] if p != self.side and s <= biggest}
            out += [f"capture {SIZES[s]} {COLOURS[kk]} {c}" for s, kk in sorted(foes)]
        elif k == "y":
            for s, kk in mine:
                for d in self.systems:
                    if d != c and not star_sizes(x) & star_sizes(self.systems[d]):
                        out.append(f"move {SIZES[s]} {COLOURS[kk]} {c}-{d}")
                if self.free_slot() is not None:
                    for ts in SIZES:
                        if ts in star_sizes(x):
                            continue
                        for tk in COLOURS:
                            if self.bank[(ts, tk)] > 0:
                                out.append(f"discover {SIZES[s]} {COLOURS[kk]} {c}: {SIZES[ts]} {COLOURS[tk]}")
        elif k == "g":
            for kk in sorted({kk for _, kk in mine}):
                if any(self.bank[(s, kk)] for s in SIZES):
                    out.append(f"build {COLOURS[kk]} {c}")
        else:
            for s, kk in mine:
                out += [f"trade {SIZES[s]} {COLOURS[kk]} {c} for {COLOURS[t]}" for t in COLOURS
                        if t != kk and self.bank[(s, t)] > 0]
        return out

    def free_slot(self):
        return next((c for c in SLOTS if c not in HOME and c not in self.systems), None)

    # ---- playing a part ---------------------------------------------------------------------

    def play(self, text):
        if text not in self.parts():
            raise ValueError(f"{text!r} is not legal in the reference at {self.text()}")
        w = text.replace(",", "").replace(":", "").replace("+", "").replace("-", " ").split()
        verb, self.ply = w[0], self.ply + 1
        if verb == "home":
            lo, lc, hi, hc, ship = BY_NAME[w[1]], BY_NAME[w[2]], BY_NAME[w[3]], BY_NAME[w[4]], BY_NAME[w[6]]
            for p in ((lo, lc), (hi, hc), (3, ship)):
                self.bank[p] -= 1
            self.systems[HOME[self.side]] = {"stars": [(lo, lc), (hi, hc)], "ships": [(self.side, 3, ship)]}
            return self.end_turn()
        if verb == "pass":
            return self.end_turn()
        if verb == "catastrophe":
            k, c = BY_NAME[w[1]], w[2]
            x = self.systems[c]
            for s, kk in x["stars"] + [(s, kk) for _, s, kk in x["ships"]]:
                if kk == k:
                    self.bank[(s, kk)] += 1
            x["stars"] = [p for p in x["stars"] if p[1] != k]
            x["ships"] = [p for p in x["ships"] if p[2] != k]
            self.settle(c)
            return self.go_on()
        if verb == "build":
            k, c = BY_NAME[w[1]], w[2]
            s = min(s for s in SIZES if self.bank[(s, k)] > 0)
            self.bank[(s, k)] -= 1
            self.systems[c]["ships"].append((self.side, s, k))
            return self.acted_once()
        s, k, c = BY_NAME[w[1]], BY_NAME[w[2]], w[3]
        ship = (self.side, s, k)
        if verb == "sacrifice":
            self.lose_ship(c, ship)
            self.acted, self.left, self.colour = True, s, k
            return self.go_on()
        if verb == "capture":
            x = self.systems[c]
            foe = next(p for p in x["ships"] if p[0] != self.side and p[1:] == (s, k))
            x["ships"].remove(foe)
            x["ships"].append(ship)
        elif verb == "move":
            self.systems[c]["ships"].remove(ship)
            self.systems[w[4]]["ships"].append(ship)
            self.settle(c)
        elif verb == "discover":
            star = (BY_NAME[w[4]], BY_NAME[w[5]])
            self.bank[star] -= 1
            self.systems[c]["ships"].remove(ship)
            self.systems[self.free_slot()] = {"stars": [star], "ships": [ship]}
            self.settle(c)
        elif verb == "trade":
            to = BY_NAME[w[5]]
            self.systems[c]["ships"].remove(ship)
            self.bank[(s, k)] += 1
            self.bank[(s, to)] -= 1
            self.systems[c]["ships"].append((self.side, s, to))
        return self.acted_once()

    def acted_once(self):
        if self.left > 0:
            self.left -= 1
        self.acted = True
        return self.go_on()

    def lose_ship(self, c, ship):
        self.systems[c]["ships"].remove(ship)
        self.bank[ship[1:]] += 1
        self.settle(c)

    def settle(self, c):
        """A system with no star or no ship is gone: its pieces go back to the bank."""
        x = self.systems[c]
        if not x["stars"] or not x["ships"]:
            for p in x["stars"]:
                self.bank[p] += 1
            for _, s, k in x["ships"]:
                self.bank[(s, k)] += 1
            del self.systems[c]

    def go_on(self):
        if not self.acted or self.left > 0 or any(self.crowded(c) for c in self.systems):
            return
        self.end_turn()

    def end_turn(self):
        self.side, self.acted, self.left, self.colour = 1 - self.side, False, 0, None
        if self.ply >= 2:
            a, b = self.lost(0), self.lost(1)
            if a and b:
                self.result = (0.5, 0.5)
            elif a or b:
                self.result = (0, 1) if a else (1, 0)

    # ---- text -------------------------------------------------------------------------------

    def text(self):
        """The position, each system's pieces and the bank sorted (the order of pieces within a
        system or the bank is not part of the rules)."""
        systems = " ".join(f"{c}=" + "".join(sorted([f"x{s}{k}" for s, k in x["stars"]])
                                                 + sorted(f"{SIDES[p][0].upper()}{s}{k}" for p, s, k in x["ships"]))
                           for c, x in sorted(self.systems.items(), key=lambda i: SLOTS.index(i[0])))
        bank = "".join(sorted(f"x{s}{k}" for (s, k), n in self.bank.items() for _ in range(n)))
        colour = "-rygb".index(self.colour or "-")
        return (f"{SIDES[self.side]} {self.ply} | {systems} | bank={bank} acted={int(self.acted)} "
                f"left={self.left} sacrificed={colour}")


def canonical(text):
    """An engine position text in the reference's form (pieces sorted, the `going` mark left out)."""
    head, board, rest = text.split(" | ")
    systems = []
    for item in board.split():
        c, stack = item.split("=")
        pieces = [stack[i:i + 3] for i in range(0, len(stack), 3)]
        stars, ships = sorted(p for p in pieces if p[0] == "x"), sorted(p for p in pieces if p[0] != "x")
        systems.append(f"{c}=" + "".join(stars + ships))
    fields = dict(f.split("=") for f in rest.split())
    bank = "".join(sorted(fields["bank"][i:i + 3] for i in range(0, len(fields["bank"]), 3)))
    return (f"{head} | {' '.join(systems)} | bank={bank} acted={fields['acted']} left={fields['left']} "
            f"sacrificed={fields['sacrificed']}")


def parse(text):
    """A reference position from an engine position text."""
    head, board, rest = text.split(" | ")
    side, ply = head.split()
    h = Homeworlds()
    h.side, h.ply = SIDES.index(side), int(ply)
    h.bank = Counter()
    for item in board.split():
        c, stack = item.split("=")
        x = h.systems[c] = {"stars": [], "ships": []}
        for i in range(0, len(stack), 3):
            p = stack[i:i + 3]
            if p[0] == "x":
                x["stars"].append((int(p[1]), p[2]))
            else:
                x["ships"].append(("SN".index(p[0]), int(p[1]), p[2]))
    fields = dict(f.split("=") for f in rest.split())
    for i in range(0, len(fields["bank"]), 3):
        h.bank[(int(fields["bank"][i + 1]), fields["bank"][i + 2])] += 1
    h.acted, h.left = fields["acted"] == "1", int(fields["left"])
    h.colour = "-rygb"[int(fields["sacrificed"])] if fields["sacrificed"] != "0" else None
    return h


def perft(h, depth):
    if depth == 0:
        return 1
    moves = h.parts()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        g = h.copy()
        g.play(m)
        total += perft(g, depth - 1)
    return total


if __name__ == "__main__":
    import sys

    args = sys.argv[1:]
    start = parse(args[0]) if len(args) > 1 else Homeworlds()
    print(perft(start, int(args[-1])))
