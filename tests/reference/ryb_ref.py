"""Reference implementation of RYB (plain Python, clarity over speed).

Written from the rules text (shared/seeds/003_8ba8f4725292bde1.txt), the project's rulings
(shared/games/ryb.md) and a fixed decision protocol (how a turn is cut into decisions and how each
decision is written), apart from rulesets/ryb.rules, so that the two can be cross-checked.

A state is copied for every move, never changed in place. A state has a phase (which decision or
chance event comes next) and a small context for it. Chance nodes: each single card draw, the Swap
roll, the Red Rover roll and the roll of an attempt. Probabilities are exact Fractions.

Readings of points the protocol leaves open (they show in summary() or in the move lists):
- The deal comes before the first turn: one chance node per card, "deal CODE", first player's
  hand first, each hand filled before the next is dealt; the player dealt to is the mover.
- An action card is "pending" (in no pile) from its play until it is obeyed or denied, then it goes
  to the discard: Gimme!/Swap/Red Rover/Shanghai/Balance/Void wait for their last decision or roll;
  Raid, Reset, Tea Party and Recycle go at once; a Trade stays in play until the end of the turn; a
  Swiss Bank stays attached to its goal until the goal is completed.
- Shanghai's borrowed dice and a Void's set-aside dice are in nobody's pool until they go back
  (end of turn) or are given away.
- A recycled card goes from the discard to the hand, and is then the only card P may play.
- A Recycle never takes back a Variable (class flag recycle_variables=True allows it): otherwise,
  with only Variables in the discard, "recycle Va" is forced again and again and never ends.
- A card is playable only if it has at least one move text (e.g. a Gimme! with every other pool
  empty is not, nor a Swap with no dice of one's own); "no card to play" is offered exactly when
  no play text exists, and Recycle only offers cards that would have a play text.
- "Choose a player" (Red Rover, Balance, Void) offers every other player. Allowed, a Balance on
  a player with no more dice than P's, or a Void on a player with no dice, is obeyed as it is
  (nothing moves); a Red Rover on an empty pool is a roll of no dice (one outcome, 0,0,0).
- Swap: the rolled dice go into the target's pool first, and the "take" choices are counted in
  that pool as it then is; any other player may be chosen.
- Trade offers may be made at the step-3 decision, before and after the attempt, never between
  an attempt's roll and its result.
- The reshuffle happens as the state enters a draw, so a draw chance node already shows the new
  deck.

    python tests/reference/ryb_ref.py        # runs the self-checks
"""

from __future__ import annotations

import random
import time
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import ceil, comb

PLAYERS = ("al", "bruce", "cath", "dee", "eve")
DICE = ("rd", "yd", "bd")
MIX = {"R": (1, 0, 0), "Y": (0, 1, 0), "B": (0, 0, 1),
       "O": (1, 1, 0), "G": (0, 1, 1), "P": (1, 0, 1), "K": (1, 1, 1)}
TIER_VALUE = {"R": 5, "Y": 5, "B": 5, "O": 10, "G": 10, "P": 10, "K": 15}
ACTIONS = {"Gi": 4, "Sw": 3, "Do": 3, "Rr": 3, "Sh": 3, "Va": 3, "De": 4, "Ra": 3, "Sb": 2}
FULL_DECK = Counter({c + t: 2 for c in "RYBOGPK" for t in "123"}) + Counter(ACTIONS)
SLOTS = tuple(f + str(r) for r in range(1, 7) for f in "abcdefg")
VARIABLES = ("reset", "balance", "tea_party", "recycle", "trade", "void")
CHANCE_PHASES = ("deal", "draw", "swap_roll", "rover", "roll")


def is_goal(code):
    return code[1].isdigit()


def target_of(code):
    return 9 * int(code[1])


def value_of(code):
    return TIER_VALUE[code[0]] * int(code[1])


def colour_total(code, sums):
    return min(s for s, m in zip(sums, MIX[code[0]]) if m)


def triple(t):
    return ",".join(str(x) for x in t)


def dec(counter, code):
    if not counter[code]:
        raise ValueError(f"no {code} to remove")
    counter[code] -= 1
    if counter[code] == 0:
        del counter[code]


def choices(pool, n):
    """(r, y, b) counts of dice within pool totalling n (n=None: any total but 0)."""
    return [c for c in product(*[range(k + 1) for k in pool]) if (sum(c) == n if n is not None else sum(c))]


@lru_cache(maxsize=None)
def sum_counts(n):
    """Ways for n six-sided dice to make each sum (out of 6**n)."""
    ways = {0: 1}
    for _ in range(n):
        nxt = Counter()
        for s, w in ways.items():
            for face in range(1, 7):
                nxt[s + face] += w
        ways = dict(nxt)
    return ways


def sum_dist(n):
    return {s: Fraction(w, 6 ** n) for s, w in sum_counts(n).items()}


@lru_cache(maxsize=None)
def roll_dist(dice):
    """Rolling dice=(r, y, b) dice: tuple of (text, (red, yellow, blue) sums, probability)."""
    ways = [sum_counts(n) for n in dice]
    total = 6 ** sum(dice)
    return tuple((f"rolled {a},{b},{c}", (a, b, c), Fraction(wa * wb * wc, total))
                 for a, wa in ways[0].items() for b, wb in ways[1].items() for c, wc in ways[2].items())


@lru_cache(maxsize=None)
def rover_dist(pool):
    """How many of each colour show the called number, rolling the whole pool."""
    per = [{k: Fraction(comb(n, k) * 5 ** (n - k), 6 ** n) for k in range(n + 1)} for n in pool]
    return tuple(((a, b, c), per[0][a] * per[1][b] * per[2][c])
                 for a in per[0] for b in per[1] for c in per[2])


class State:
    __slots__ = ("cur", "pools", "hands", "done", "middle", "deck", "discard", "swiss", "pending",
                 "trade", "raid", "attempted", "offers", "borrowed", "phase", "ctx", "turns_done",
                 "result")

    def copy(self):
        t = State.__new__(State)
        t.cur, t.phase, t.ctx = self.cur, self.phase, dict(self.ctx)
        t.pools = [list(p) for p in self.pools]
        t.hands = [Counter(h) for h in self.hands]
        t.done = dict(self.done)  # slot -> (code, owner, banked points): completed goals stay put
        t.middle = dict(self.middle)  # slot -> (code, banked points)
        t.deck, t.discard = Counter(self.deck), Counter(self.discard)
        t.swiss = list(self.swiss)  # per player: (slot or None, points)
        t.pending, t.trade, t.raid = self.pending, self.trade, self.raid
        t.attempted, t.offers, t.borrowed = self.attempted, self.offers, self.borrowed
        t.turns_done, t.result = self.turns_done, self.result
        return t


class RYB:
    recycle_variables = False  # True: a Recycle may take back a Variable (see _recyclable)

    def __init__(self, players=3, hand_size=None, reshuffle=None, variable_card="reset", offers=3,
                 turns=100):
        if not 2 <= players <= 5 or variable_card not in VARIABLES:
            raise ValueError("bad options")
        self.n = players
        self.hand_size = (5 if players <= 3 else 3) if hand_size is None else hand_size
        self.reshuffle = players > 2 if reshuffle is None else reshuffle
        self.variable = variable_card
        self.max_offers = offers
        self.turns = turns

    # ---- the public interface ------------------------------------------------------------
    def new(self):
        s = State.__new__(State)
        s.cur, s.phase, s.ctx = 0, "deal", {"to": 0}
        s.pools = [[2, 2, 2] for _ in range(self.n)]
        s.hands = [Counter() for _ in range(self.n)]
        s.done = {}
        s.middle, s.deck, s.discard = {}, Counter(FULL_DECK), Counter()
        s.swiss = [(None, 0)] * self.n
        s.pending, s.trade, s.raid, s.attempted, s.offers, s.borrowed = None, False, False, False, 0, None
        s.turns_done, s.result = 0, None
        return s

    def is_chance(self, s):
        return s.result is None and s.phase in CHANCE_PHASES

    def legal(self, s):
        if s.result is not None or self.is_chance(s):
            return []
        return list(self._decisions(s))

    def outcomes(self, s):
        if not self.is_chance(s):
            return {}
        return {text: p for text, (p, _) in self._chances(s).items()}

    def play(self, s, text):
        if s.result is not None:
            raise ValueError("the game is over")
        if self.is_chance(s):
            entry = self._chances(s).get(text)
            fn = entry and entry[1]
        else:
            fn = self._decisions(s).get(text)
        if fn is None:
            raise ValueError(f"not a legal move: {text!r}")
        t = s.copy()
        fn(t)
        self._check_end(t)
        return t

    def mover(self, s):
        if s.phase == "deal":
            return s.ctx["to"]
        if s.phase in ("deny", "balance_give", "void_give"):
            return s.ctx["target"]
        if s.phase in ("offer_dice", "offer_card"):
            return s.ctx["q"]
        return s.cur

    def outcome(self, s):
        return s.result

    def summary(self, s):
        return {"mover": self.mover(s), "pools": [tuple(p) for p in s.pools],
                "hands": [sorted(h.elements()) for h in s.hands], "won": self._won(s), "done": dict(s.done),
                "middle": dict(s.middle), "deck": sorted(s.deck.elements()),
                "discard": sorted(s.discard.elements()), "swiss": list(s.swiss)}

    # ---- dispatch ------------------------------------------------------------------------
    def _decisions(self, s):
        return getattr(self, "_d_" + s.phase)(s)

    def _chances(self, s):
        return getattr(self, "_c_" + s.phase)(s)

    def _won(self, s):
        return [sorted(code for code, owner, _ in s.done.values() if owner == i) for i in range(self.n)]

    def _check_end(self, t):
        for i, won in enumerate(self._won(t)):
            if len({c[0] for c in won}) >= 3 and sum(value_of(c) for c in won) > 100:
                t.result = ("win", i)
                return
        if self.turns > 0 and t.turns_done >= self.turns * self.n:
            t.result = ("draw",)

    def _others(self, s):
        return [q for q in range(self.n) if q != s.cur]

    # ---- the deal: a full hand each, in seat order, before the first turn -----------------
    def _c_deal(self, s):
        left = sum(s.deck.values())
        return {f"deal {code}": (Fraction(k, left), lambda t, code=code: self._deal(t, code))
                for code, k in sorted(s.deck.items())}

    def _deal(self, t, code):
        q = t.ctx["to"]
        dec(t.deck, code)
        t.hands[q][code] += 1
        if sum(t.hands[q].values()) == self.hand_size:
            if q + 1 == self.n:
                t.phase, t.ctx = "start", {}
            else:
                t.ctx["to"] = q + 1

    # ---- step 1: refill or dump ----------------------------------------------------------
    def _d_start(self, s):
        need = self.hand_size - sum(s.hands[s.cur].values())
        return {"refill": lambda t: self._start_draws(t, need, False), "dump": self._dump}

    def _dump(self, t):
        t.discard += t.hands[t.cur]
        t.hands[t.cur] = Counter()
        self._start_draws(t, self.hand_size, True)

    def _start_draws(self, t, need, then_end):
        t.phase, t.ctx = "draw", {"need": need, "end": then_end}
        self._settle_draws(t)

    def _settle_draws(self, t):
        """Reshuffle lazily when a draw is due on an empty deck; leave the draw when done."""
        need = t.ctx["need"]
        if need > 0 and not t.deck and self.reshuffle and t.discard:
            t.deck, t.discard = t.discard, Counter()
        if need <= 0 or not t.deck:
            if t.ctx["end"]:
                self._end_turn(t)
            else:
                self._to_play(t)

    def _c_draw(self, s):
        left = sum(s.deck.values())
        return {f"draw {code}": (Fraction(k, left), lambda t, code=code: self._draw(t, code))
                for code, k in sorted(s.deck.items())}

    def _draw(self, t, code):
        dec(t.deck, code)
        t.hands[t.cur][code] += 1
        t.ctx["need"] -= 1
        self._settle_draws(t)

    # ---- step 2: play a card -------------------------------------------------------------
    def _to_play(self, t, only=None):
        t.phase, t.ctx = "play", {"only": only}

    def _d_play(self, s):
        only = s.ctx["only"]
        moves = {}
        for code in ([only] if only else sorted(s.hands[s.cur])):
            moves.update(self._card_moves(s, code))
        if not moves:
            moves["no card to play"] = self._to_act
        return moves

    def _use(self, t, code):
        """The card leaves the hand and is pending until obeyed or denied."""
        dec(t.hands[t.cur], code)
        t.pending = code

    def _resolved(self, t):
        """The pending card is obeyed: to the discard, and on to step 3."""
        t.discard[t.pending] += 1
        t.pending = None
        self._to_act(t)

    def _spend(self, t, code):
        """An action card obeyed at once: from the hand to the discard."""
        dec(t.hands[t.cur], code)
        t.discard[code] += 1

    def _target(self, t, q, follow, ctx):
        t.phase, t.ctx = "deny", {"target": q, "follow": follow, "next": dict(ctx, target=q)}

    def _card_moves(self, s, code):
        """Texts (-> effect) of playing one card kind; {} when it cannot be played."""
        p, names, m = s.cur, PLAYERS, {}
        armed = [q for q in self._others(s) if sum(s.pools[q])]  # Gimme!, Shanghai: a die to take
        if code in ("Do", "De"):
            return m
        if is_goal(code):
            if len(s.middle) + len(s.done) < len(SLOTS):
                m[f"play {code}"] = lambda t: self._play_goal(t, code)
        elif code == "Gi":
            for q in armed:
                m[f"gimme {names[q]}"] = lambda t, q=q: self._use_target(t, code, q, "gimme_take", {})
        elif code == "Sw":
            for dice in choices(s.pools[p], None):
                m[f"swap {triple(dice)}"] = lambda t, d=dice: self._swap(t, d)
        elif code == "Rr":
            for n in range(1, 7):
                for q in self._others(s):
                    m[f"red rover {n} {names[q]}"] = \
                        lambda t, q=q, n=n: self._use_target(t, code, q, "rover", {"number": n})
        elif code == "Sh":
            for q in armed:
                m[f"shanghai {names[q]}"] = lambda t, q=q: self._use_target(t, code, q, "borrow", {})
        elif code == "Sb":
            if s.middle and s.swiss[p][0] is None:
                for slot in s.middle:
                    m[f"swiss bank {slot}"] = lambda t, slot=slot: self._swiss(t, slot)
        elif code == "Ra":
            m["raid"] = self._raid
        elif code == "Va":
            m.update(self._variable_moves(s))
        return m

    def _use_target(self, t, code, q, follow, ctx):
        self._use(t, code)
        self._target(t, q, follow, ctx)

    def _play_goal(self, t, code):
        dec(t.hands[t.cur], code)
        slot = next(x for x in SLOTS if x not in t.middle and x not in t.done)
        t.middle[slot] = (code, 0)
        self._to_act(t)

    def _swiss(self, t, slot):
        dec(t.hands[t.cur], "Sb")
        t.swiss[t.cur] = (slot, 0)
        self._to_act(t)

    def _raid(self, t):
        self._spend(t, "Ra")
        t.raid = True
        self._to_act(t)

    # targeting: the target allows or denies
    def _d_deny(self, s):
        q = s.ctx["target"]
        moves = {"allow": self._allow}
        if s.hands[q]["De"]:
            moves["de-nied!"] = self._denied
        return moves

    def _allow(self, t):
        q, follow = t.ctx["target"], t.ctx["follow"]
        if (follow == "balance_give" and sum(t.pools[q]) <= sum(t.pools[t.cur])
                or follow == "void_pick" and not sum(t.pools[q])):
            self._resolved(t)  # nothing to give: the card is obeyed as it is
        else:
            t.phase, t.ctx = follow, t.ctx["next"]

    def _denied(self, t):
        dec(t.hands[t.ctx["target"]], "De")
        t.discard["De"] += 1
        self._resolved(t)

    # Gimme!
    def _d_gimme_take(self, s):
        q = s.ctx["target"]
        return {f"take {DICE[i]}": lambda t, i=i: self._transfer(t, q, tuple(int(i == j) for j in range(3)))
                for i in range(3) if s.pools[q][i]}

    def _transfer(self, t, q, vec, resolve=True):
        """Dice vec go from player q to the player whose turn it is; the pending card is obeyed."""
        for i in range(3):
            t.pools[q][i] -= vec[i]
            t.pools[t.cur][i] += vec[i]
        if resolve:
            self._resolved(t)

    # Swap
    def _swap(self, t, dice):
        self._use(t, "Sw")
        t.phase, t.ctx = "swap_roll", {"dice": dice}

    def _c_swap_roll(self, s):
        return {f"swap rolled {total}": (p, lambda t, total=total: self._swap_rolled(t, total))
                for total, p in sum_dist(sum(s.ctx["dice"])).items()}

    def _swap_rolled(self, t, total):
        if total > 10:
            self._resolved(t)
        else:
            t.phase = "swap_with"

    def _d_swap_with(self, s):
        dice = s.ctx["dice"]
        moves = {f"swap with {PLAYERS[q]}":
                 lambda t, q=q: self._target(t, q, "swap_take", {"dice": dice})
                 for q in self._others(s)}
        moves["keep the dice"] = self._resolved
        return moves

    def _d_swap_take(self, s):
        """The rolled dice are put in q's pool first; P takes as many from that pool."""
        q, dice = s.ctx["target"], s.ctx["dice"]
        filled = [a + b for a, b in zip(s.pools[q], dice)]
        return {f"take {triple(take)}": lambda t, take=take: self._transfer(
                    t, q, tuple(a - b for a, b in zip(take, dice)))
                for take in choices(filled, sum(dice))}

    # Red Rover
    def _c_rover(self, s):
        q = s.ctx["target"]
        return {f"rover {triple(k)}": (p, lambda t, k=k: self._transfer(t, q, k))
                for k, p in rover_dist(tuple(s.pools[q]))}

    # Shanghai
    def _d_borrow(self, s):
        q = s.ctx["target"]
        return {f"borrow {DICE[i]}": lambda t, i=i: self._borrow(t, q, i)
                for i in range(3) if s.pools[q][i]}

    def _borrow(self, t, q, i):
        t.borrowed = (q, i, t.pools[q][i])
        t.pools[q][i] = 0
        self._resolved(t)

    # Variable
    def _variable_moves(self, s):
        p, mode, names = s.cur, self.variable, PLAYERS
        if mode == "reset":
            return {"variable: reset": lambda t: self._new_pools(t, [[2, 2, 2] for _ in range(self.n)])}
        if mode == "balance":
            return {f"variable: balance {names[q]}":
                    lambda t, q=q: self._use_target(t, "Va", q, "balance_give", {})
                    for q in self._others(s)}
        if mode == "tea_party":
            nxt, prev = (p + 1) % self.n, (p - 1) % self.n
            # with two players next == previous: one move, the pools pass to the next player
            return {f"variable: tea party towards {names[q]}":
                    lambda t, k=step: self._new_pools(t, [t.pools[(i - k) % self.n] for i in range(self.n)])
                    for q, step in ((prev, -1), (nxt, 1))}
        if mode == "recycle":
            return {f"variable: recycle {code}": lambda t, code=code: self._recycle(t, code)
                    for code in self._recyclable(s)}
        if mode == "trade":
            return {"variable: trade": self._trade}
        return {f"variable: void {names[q]}": lambda t, q=q: self._use_target(t, "Va", q, "void_pick", {})
                for q in self._others(s)}

    def _new_pools(self, t, pools):
        """Reset and Tea Party: the Variable is obeyed at once."""
        self._spend(t, "Va")
        t.pools = pools
        self._to_act(t)

    def _recyclable(self, s):
        """Kinds in the discard (the Variable already in it) that could be played now.

        A Variable is not recycled unless recycle_variables is set: read literally, the protocol
        lets a Recycle take back the Variable it just discarded, and when that is the only card
        in the discard the forced "recycle Va" repeats for ever."""
        t0 = s.copy()
        self._spend(t0, "Va")
        return [code for code in sorted(t0.discard)
                if (code == "Va" and self.recycle_variables)
                or (code not in ("Do", "De", "Va") and self._card_moves(t0, code))]

    def _recycle(self, t, code):
        self._spend(t, "Va")
        dec(t.discard, code)
        t.hands[t.cur][code] += 1
        self._to_play(t, only=code)

    def _trade(self, t):
        dec(t.hands[t.cur], "Va")
        t.trade = True
        self._to_act(t)

    def _d_balance_give(self, s):
        q = s.ctx["target"]
        n = ceil((sum(s.pools[q]) - sum(s.pools[s.cur])) / 2)
        return {f"give {triple(give)}": lambda t, give=give: self._transfer(t, q, give)
                for give in choices(s.pools[q], n)}

    def _d_void_pick(self, s):
        q = s.ctx["target"]
        return {f"void {DICE[i]}": lambda t, i=i: self._void(t, q, i) for i in range(3) if s.pools[q][i]}

    def _void(self, t, q, i):
        t.phase, t.ctx = "void_give", {"target": q, "die": i, "left": t.pools[q][i]}
        t.pools[q][i] = 0

    def _d_void_give(self, s):
        q, i = s.ctx["target"], s.ctx["die"]
        return {f"give {DICE[i]} to {PLAYERS[r]}": lambda t, r=r: self._void_give(t, r)
                for r in range(self.n) if r != q}

    def _void_give(self, t, r):
        t.pools[r][t.ctx["die"]] += 1
        t.ctx["left"] -= 1
        if t.ctx["left"] == 0:
            self._resolved(t)

    # ---- step 3: attempt (and Trade offers) ----------------------------------------------
    def _to_act(self, t):
        t.phase, t.ctx = "act", {}

    @staticmethod
    def _dice_choices(code, have):
        return product(*[range(1, h + 1) if m else (0,) for m, h in zip(MIX[code[0]], have)])

    def _d_act(self, s):
        p, moves = s.cur, {"end": self._end_turn}
        if not s.attempted:
            have = list(s.pools[p])  # the pool plus the borrowed dice
            if s.borrowed:
                have[s.borrowed[1]] += s.borrowed[2]
            for slot, (code, _) in s.middle.items():
                for dice in self._dice_choices(code, have):
                    moves[f"attempt {slot} with {triple(dice)}"] = \
                        lambda t, d=dice, slot=slot: self._attempt(t, ("goal", slot), d)
            for slot, (code, owner, _) in (s.done.items() if s.raid else ()):
                if owner != p:  # a Raid: a goal another player completed
                    for dice in self._dice_choices(code, have):
                        moves[f"attempt {slot} with {triple(dice)}"] = \
                            lambda t, d=dice, slot=slot: self._attempt(t, ("raid", slot), d)
        if s.trade and s.offers < self.max_offers:
            moves.update(self._offer_moves(s))
        return moves

    def _offer_moves(self, s):
        p, moves = s.cur, {}
        for q in self._others(s):
            for i in range(3):
                for j in range(3):
                    if i != j and s.pools[p][i] and s.pools[q][j]:
                        moves[f"offer {DICE[i]} to {PLAYERS[q]} for {DICE[j]}"] = \
                            lambda t, q=q, i=i, j=j: self._offer(t, "offer_dice", q=q, give=i, get=j)
            if s.hands[q]:
                for code in sorted(s.hands[p]):
                    moves[f"offer a card to {PLAYERS[q]}: {code}"] = \
                        lambda t, q=q, code=code: self._offer(t, "offer_card", q=q, code=code)
        return moves

    def _offer(self, t, phase, **ctx):
        t.offers += 1
        t.phase, t.ctx = phase, ctx

    def _d_offer_dice(self, s):
        return {"accept": self._accept_dice, "decline": self._to_act}

    def _accept_dice(self, t):
        i, j = t.ctx["give"], t.ctx["get"]
        self._transfer(t, t.ctx["q"], tuple((k == j) - (k == i) for k in range(3)), resolve=False)
        self._to_act(t)

    def _d_offer_card(self, s):
        moves = {f"accept, giving {code}": lambda t, code=code: self._accept_card(t, code)
                 for code in sorted(s.hands[s.ctx["q"]])}
        moves["decline"] = self._to_act
        return moves

    def _accept_card(self, t, code):
        q, mine = t.ctx["q"], t.ctx["code"]
        dec(t.hands[t.cur], mine)
        dec(t.hands[q], code)
        t.hands[q][mine] += 1
        t.hands[t.cur][code] += 1
        self._to_act(t)

    def _attempt(self, t, goal, dice):
        t.attempted = True
        t.phase, t.ctx = "roll", {"goal": goal, "dice": dice}

    def _c_roll(self, s):
        return {text: (p, lambda t, sums=sums: self._rolled(t, sums))
                for text, sums, p in roll_dist(s.ctx["dice"])}

    def _rolled(self, t, sums):
        t.phase = "result"
        t.ctx["sums"] = sums

    def _d_result(self, s):
        p, goal, sums = s.cur, s.ctx["goal"], s.ctx["sums"]
        moves = {}
        if s.hands[p]["Do"]:
            moves["do-over"] = self._do_over
        if goal[0] == "raid":  # the text: short of it, the raider may bank points on it
            slot = goal[1]
            code, owner, banked = s.done[slot]
            total = colour_total(code, sums)
            if total >= target_of(code) - banked:
                moves["complete"] = lambda t: self._raid_won(t, slot)
            else:
                moves["bank"] = lambda t: self._raid_bank(t, slot, total)
                moves["leave it"] = self._to_act
            return moves
        slot = goal[1]
        code, banked = s.middle[slot]
        total = colour_total(code, sums)
        own = s.swiss[p][0] == slot
        remaining = target_of(code) - banked - (s.swiss[p][1] if own else 0)
        if total >= remaining:
            moves["complete"] = lambda t: self._complete(t, slot)
        else:
            moves["bank"] = lambda t: self._bank(t, slot, total, False)
            if own:
                moves["bank on the swiss bank"] = lambda t: self._bank(t, slot, total, True)
        return moves

    def _do_over(self, t):
        self._spend(t, "Do")
        t.phase = "roll"
        del t.ctx["sums"]

    def _raid_won(self, t, slot):
        t.done[slot] = (t.done[slot][0], t.cur, 0)
        self._to_act(t)

    def _raid_bank(self, t, slot, total):
        code, owner, banked = t.done[slot]
        t.done[slot] = (code, owner, banked + total)
        self._to_act(t)

    def _complete(self, t, slot):
        code, _ = t.middle.pop(slot)
        t.done[slot] = (code, t.cur, 0)
        for i, (at, _) in enumerate(t.swiss):
            if at == slot:
                t.swiss[i] = (None, 0)
                t.discard["Sb"] += 1
        self._to_act(t)

    def _bank(self, t, slot, total, swiss):
        if swiss:
            t.swiss[t.cur] = (slot, t.swiss[t.cur][1] + total)
        else:
            t.middle[slot] = (t.middle[slot][0], t.middle[slot][1] + total)
        self._to_act(t)

    # ---- step 4: end of the turn ---------------------------------------------------------
    def _end_turn(self, t):
        if t.borrowed:
            q, i, k = t.borrowed
            t.pools[q][i] += k
            t.borrowed = None
        if t.trade:
            t.discard["Va"] += 1
            t.trade = False
        t.raid, t.attempted, t.offers = False, False, 0
        t.turns_done += 1
        t.cur = (t.cur + 1) % self.n
        t.phase, t.ctx = "start", {}


def perft(game, s, depth):
    if depth == 0:
        return 1
    if game.outcome(s) is not None:
        return 0
    texts = list(game.outcomes(s)) if game.is_chance(s) else game.legal(s)
    return sum(perft(game, game.play(s, text), depth - 1) for text in texts)


# ---- self-checks ---------------------------------------------------------------------------
def _cards_everywhere(s):
    c = s.deck + s.discard + sum(s.hands, Counter()) + Counter(code for code, _, _ in s.done.values())
    c += Counter([code for code, _ in s.middle.values()] + ["Sb" for at, _ in s.swiss if at])
    return c + Counter([s.pending] if s.pending else []) + Counter(["Va"] if s.trade else [])


def _dice_everywhere(s):
    n = sum(map(sum, s.pools)) + (s.borrowed[2] if s.borrowed else 0)
    return n + (s.ctx["left"] if s.phase == "void_give" else 0)


def _rejects(game, s, text):
    try:
        game.play(s, text)
    except ValueError:
        return True
    return False


def _random_game(game, rng, limit=20000):
    """Plays at random, checking every step; returns (final state, moves, Counter of first words)."""
    s, steps, seen = game.new(), 0, Counter()
    while game.outcome(s) is None:
        assert steps < limit, "game too long"
        before = game.summary(s)
        if game.is_chance(s):
            out = game.outcomes(s)
            assert sum(out.values()) == 1 and min(out.values()) > 0 and not game.legal(s)
            text = rng.choices(list(out), weights=[float(p) for p in out.values()])[0]
        else:
            moves = game.legal(s)
            assert moves and len(moves) == len(set(moves)), (s.phase, moves)
            text = rng.choice(moves)
        seen[text.split()[0]] += 1
        t = game.play(s, text)
        assert game.summary(s) == before, "play changed its input"
        assert _cards_everywhere(t) == FULL_DECK, (text, _cards_everywhere(t) - FULL_DECK)
        assert _dice_everywhere(t) == 6 * game.n and min(map(min, t.pools)) >= 0
        assert 0 <= game.mover(t) < game.n
        s, steps = t, steps + 1
    assert game.legal(s) == [] and not game.is_chance(s) and _rejects(game, s, "end")
    return s, steps, seen


def _self_check():
    g = RYB()
    start = g.new()
    assert g.legal(start) == [] and _rejects(g, start, "refill")  # the deal comes first
    assert len(g.outcomes(start)) == 30  # 21 goal kinds + 9 action kinds
    # every kind has 2+ copies, so the second card also has 30 outcomes; a third card of one of
    # the 22 kinds with two copies (21 goals and the Swiss Bank) cannot follow two of them
    assert [perft(g, start, d) for d in range(4)] == [1, 30, 30 ** 2, 30 ** 3 - 22]
    dealt = start
    for _ in range(3 * 5):
        dealt = g.play(dealt, next(iter(g.outcomes(dealt))))
    assert [sum(h.values()) for h in dealt.hands] == [5, 5, 5] and sorted(g.legal(dealt)) == ["dump", "refill"]
    assert sum(p for _, _, p in roll_dist((2, 1, 0))) == 1 and sum(p for _, p in rover_dist((3, 0, 2))) == 1
    rng, total, t0, seen = random.Random(3), 0, time.time(), Counter()
    for variable in VARIABLES:
        for players in range(2, 6):
            for _ in range(2):
                s, steps, words = _random_game(RYB(players, variable_card=variable, turns=30), rng)
                total, seen = total + steps, seen + words
    print(f"random games: {total} moves in {time.time() - t0:.2f}s")
    print("first words of the moves played:", dict(sorted(seen.items())))
    for players in range(2, 6):
        t0 = time.time()
        s, steps, _ = _random_game(RYB(players), rng)
        print(f"{players} players, default options: {steps} moves, {g.outcome(s)}, {time.time() - t0:.2f}s")
    print("self-checks passed")


if __name__ == "__main__":
    _self_check()
