"""The search kernel of every native module: Monte Carlo tree search (UCT) and alpha-beta, whole in
compiled code over the packed position vectors.

This file is not imported: the native backend appends its text to each game's module (`module`,
after the kernel files `kernel.py` and `kernel_loops.py`), where the names it reads are defined: the layout's constants
(`SIZE`, `SIDE`, `SEATS`, `NPLAYERS`, ...), the game's `legal`, `apply`, `outcome` and
`pick_chance`, the loops' `copy_state`, `next_word`, `hash_state` and `playout`, and what
`search_eval` writes for the game (`heuristic`, `chance_weight`, `HAS_HEURISTIC`, ...). The Python
side of both searches is `search.py`. Like the loops, nothing here calls itself (Numba's on-disk
cache has crashed on recursive functions): both searches keep their own stacks.

**MCTS** (`mcts_run`) is UCT as `agents.mcts` plays it in Python, over arrays the caller holds
(so that a search goes on over several calls, each a slice of iterations, while Python watches the
clock). A node is a row of `tree` (its parent, its children as the range `first .. first + n` of
the arrays `moves` and `kids`, how many of them exist, its kind, the seat to move), with its visits
and the sum of the results per seat of the playouts through it (`totals`). Node 0 is the root. An
iteration walks down from the root: a node met for the first time since it was made lists its moves
(`legal`: shuffled, so that the moves not tried yet are tried in a random order) or finds the game
over; a decision node then makes its next untried child, else goes to the child with the best UCB1
score for its seat; a chance node draws a child by nature's weights (`pick_chance`) and makes it
when it is new. From the new node a random playout (`playout`) gives a result per seat (cut after
`rollout` plies: a draw, or 0.75 / 0.25 to the sides the heuristic puts ahead and behind, as the
Python agent scores it), added to every node on the way back. A node found over adds its own result
again (its mean) without a playout. Where the rules ask about repetition, the path's positions go
into the history after the root's earlier ones, so that the tree and the playouts see repetitions.

**Alpha-beta** (`ab_run`) is the negamax of `agents.alphabeta` to a fixed depth from a root whose
moves the caller orders: the same values (a win worth `win - plies`, a heuristic or mobility at the
leaves, nature's outcomes weighed by their probabilities, an extra turn keeping the value's sign),
with a transposition table (`tt_*`, keyed by the position's hash, its ply, and its last move where
the rules read it) that orders the moves (its best move first) and, in games without repetition or
chance, cuts where an entry of the same depth holds the value or a bound past the window. Entries are
used at their own depth only, so the values are those of the plain search (mate distances are
stored from the node, so they move with it). It gives each root move's value (exact for every
move tied best). Its stack is in arrays the caller holds, and a call searches at most `max_nodes`
nodes before it pauses: the caller reads the clock between calls and takes the search up again.
"""

# ruff: noqa: F821
# mypy: ignore-errors
# (the names above come from the module this text is appended to)

import numpy as np

from ziggurat.interpreter.native.numbacache import njit

# ---- kernel: from here on, the same in every native module ----

# ---- shared -------------------------------------------------------------------------------------


@njit(cache=True)
def results_by_seat(s, res, out):
    """out[seat] = the result of the side that seat plays (res: per side, from `outcome`)."""
    for q in range(NPLAYERS):
        out[s[SEATS + q]] = res[q]


@njit(cache=True)
def heuristic_by_side(s, out):
    """The heuristic of each side (agents.base.Evaluator.heuristic_by_side)."""
    if HEURISTIC_PER_MOVER:
        for p in range(NPLAYERS):
            out[p] = heuristic(s, p)
    else:
        v = heuristic(s, s[SIDE])
        out[0] = v
        for p in range(1, NPLAYERS):
            out[p] = -v


@njit(cache=True)
def cut_result(s, out):
    """The result per seat of a playout cut short: a draw (0.5, or no points in a game of points),
    a quarter more for the sides the heuristic puts ahead and a quarter less for the others when it
    puts some ahead (less than a real win)."""
    even = 0.0 if RESULTS_IN_POINTS else 0.5
    for q in range(NPLAYERS):
        out[q] = even
    if not HAS_HEURISTIC:
        return
    h = np.empty(NPLAYERS, np.float64)
    heuristic_by_side(s, h)
    top = h[0]
    for p in range(1, NPLAYERS):
        top = max(top, h[p])
    leaders = 0
    for p in range(NPLAYERS):
        if h[p] == top:
            leaders += 1
    if leaders < NPLAYERS:
        for p in range(NPLAYERS):
            out[s[SEATS + p]] = even + (0.25 if h[p] == top else -0.25)


@njit(cache=True, inline="always")
def rollout_result(s, x, rollout, none, res, hist, nh, buf, result, parts):
    """A random playout from s (`rollout` plies at most) scored per seat into `result`: the
    game's result, or the cut-short score (`cut_result`). (code, x): code < 0 where the vectors
    could not hold a position met (result then unset), x the generator's state after it.
    `parts`: the rollout policy (turns drawn part by part, `kernel_loops`)."""
    res[:] = 0.0
    _plies, code, _b, x = playout(s, x, rollout, none, res, hist, nh, buf, parts)
    if code > 0:
        results_by_seat(s, res, result)
    elif code == 0:
        cut_result(s, result)
    return code, x


@njit(cache=True, inline="always")
def step_down(s, m, hist, nh):
    """Make the move m of a walk down a tree and record the new position in the history: the
    history's new length, or -1 - OVER where the vector could not hold the position reached."""
    apply(s, m)
    if s[OVER] != 0:
        return -1 - s[OVER]
    if HASHING:
        hist[nh] = s[HSH] if INCREMENTAL else hash_state(s)
        nh += 1
    return nh


@njit(cache=True, inline="always")
def back_up(node, parent, visits, totals, result):
    """An iteration's result per seat, added to `node` and each node above it to the root
    (`parent`: each node's parent, -1 for the root)."""
    while node >= 0:
        visits[node] += 1
        for q in range(NPLAYERS):
            totals[node, q] += result[q]
        node = parent[node]


# ---- MCTS ---------------------------------------------------------------------------------------

MC_PARENT, MC_FIRST, MC_N, MC_NEXP, MC_KIND, MC_SEAT = 0, 1, 2, 3, 4, 5
MC_FIELDS = 6
MC_DECISION, MC_CHANCE, MC_END = 0, 1, 2
MC_MAXDEPTH = 1024  # the deepest path in the tree (deeper: the playout starts there)
MC_NEED_NODES, MC_NEED_MOVES = 1, 2  # statuses: the caller grows that array and calls again


@njit(cache=True)
def mcts_new_node(tree, visits, totals, used, parent):
    k = used[0]
    used[0] = k + 1
    tree[k, MC_PARENT] = parent
    tree[k, MC_FIRST] = -1
    tree[k, MC_N] = 0
    tree[k, MC_NEXP] = 0
    tree[k, MC_KIND] = MC_DECISION
    tree[k, MC_SEAT] = -1
    visits[k] = 0
    for q in range(NPLAYERS):
        totals[k, q] = 0.0
    return k


@njit(cache=True)
def mcts_run(root, hist0, nhist0, tree, visits, totals, moves, kids, used, iterations, c, rollout, x, parts=False):
    """Up to `iterations` iterations from the position `root` (its history: hist0[:nhist0], the
    root's own hash last). used[0]: nodes made (1 or more: the root is node 0), used[1]: move
    slots taken. Returns (iterations done, status, generator state): status 0, or MC_NEED_NODES /
    MC_NEED_MOVES (grow the array, call again), or -1 / -2 / -3 as the loops (a position the
    vector cannot hold)."""
    s = np.empty(SIZE, np.int64)
    buf = np.empty(MAXM, np.int64)
    res = np.zeros(NPLAYERS + 1, np.float64)
    result = np.empty(NPLAYERS, np.float64)
    hist = np.empty(nhist0 + MC_MAXDEPTH + rollout + 2, np.int64)
    copy_into(hist, hist0, nhist0)
    none = np.empty(0, np.int64)
    cap = tree.shape[0]
    mcap = moves.shape[0]
    done = 0
    while done < iterations:
        if used[0] >= cap:
            return done, MC_NEED_NODES, x
        copy_state(s, root)
        node = 0
        depth = 0
        nh = nhist0
        fresh = False  # the walk made a node: a playout from it
        ended = False  # the walk reached a finished game: its result, no playout
        while True:
            kind = tree[node, MC_KIND]
            if kind == MC_END:
                for q in range(NPLAYERS):
                    result[q] = totals[node, q] / visits[node]
                ended = True
                break
            if tree[node, MC_FIRST] < 0:  # met again after it was made: its moves, or the end
                n = legal(s, buf)
                if n > MAXM:
                    return done, -1, x
                code = outcome(s, n, res, hist, nh)
                if s[OVER] != 0:
                    return done, -1 - s[OVER], x
                if code != 0:
                    tree[node, MC_KIND] = MC_END
                    results_by_seat(s, res, result)
                    ended = True
                    break
                if n == 0:  # no move and no outcome: nothing below (scored as a playout cut short)
                    cut_result(s, result)
                    ended = True
                    break
                first = used[1]
                if first + n > mcap:
                    return done, MC_NEED_MOVES, x
                used[1] = first + n
                for i in range(n):
                    moves[first + i] = buf[i]
                    kids[first + i] = -1
                if CHANCE and CHANCEACT[buf[0] & AMASK]:
                    tree[node, MC_KIND] = MC_CHANCE
                    kind = MC_CHANCE
                else:
                    for i in range(n - 1, 0, -1):  # Fisher-Yates: the untried moves in a random order
                        x, z = next_word(x)
                        j = np.int64(z % np.uint64(i + 1))
                        t = moves[first + i]
                        moves[first + i] = moves[first + j]
                        moves[first + j] = t
                tree[node, MC_FIRST] = first
                tree[node, MC_N] = n
                tree[node, MC_SEAT] = s[SEATS + s[SIDE]]
            if depth >= MC_MAXDEPTH:
                break
            first = tree[node, MC_FIRST]
            n = tree[node, MC_N]
            if kind == MC_CHANCE:
                x, z = next_word(x)
                j = first + pick_chance(s, moves[first:first + n], n, z)
            elif tree[node, MC_NEXP] < n:  # a move not tried yet
                j = first + tree[node, MC_NEXP]
                tree[node, MC_NEXP] += 1
            else:  # UCB1 for the seat to move (the first best)
                seat = tree[node, MC_SEAT]
                cl = c * np.sqrt(np.log(np.float64(visits[node])))  # c sqrt(ln N), once a node
                best = -np.inf  # results in points may all be below -1
                j = first
                for i in range(first, first + n):
                    ch = kids[i]
                    inv = 1.0 / np.float64(visits[ch])  # one division a child: mean + c sqrt(ln N / n)
                    score = totals[ch, seat] * inv + cl * np.sqrt(inv)
                    if score > best:
                        best = score
                        j = i
            child = kids[j]
            if child < 0:
                child = mcts_new_node(tree, visits, totals, used, node)
                kids[j] = child
                fresh = True
            nh = step_down(s, moves[j], hist, nh)
            if nh < 0:
                return done, nh, x
            depth += 1
            node = child
            if fresh:
                break
        if not ended:
            code, x = rollout_result(s, x, rollout, none, res, hist, nh, buf, result, parts)
            if code < 0:
                return done, code, x
        back_up(node, tree[:, MC_PARENT], visits, totals, result)
        done += 1
    return done, 0, x


# ---- alpha-beta ---------------------------------------------------------------------------------

AB_EXACT, AB_LOWER, AB_UPPER = 0, 1, 2
AB_MATE = 1 << 16  # a value within this many plies of `win` is a win found (or a loss)


@njit(cache=True)
def ab_key(s):
    """The transposition key of a position: its hash (`hash_state`), its ply, and its last move
    where the rules read it, mixed (SplitMix64's finaliser)."""
    h = np.uint64(hash_state(s)) + np.uint64(s[PLY] + 1) * ZK[PLY]
    if SEARCH_USES_LAST:
        h += np.uint64(s[LAST] + 2) * ZK[LAST]
    h = (h ^ (h >> S30)) * MIX1
    h = (h ^ (h >> S27)) * MIX2
    return np.int64(h ^ (h >> S31))


@njit(cache=True)
def ab_value(s, seat, scratch, buf, h):
    """The value of a position that is not over for `seat` (agents.base.Evaluator.value): the
    heuristic, else mobility (the side's legal moves less the most any other side has)."""
    if HAS_HEURISTIC:
        heuristic_by_side(s, h)
    else:
        for p in range(NPLAYERS):
            copy_state(scratch, s)
            scratch[SIDE] = p
            h[p] = legal(scratch, buf)
    for q in range(NPLAYERS):
        if s[SEATS + q] == seat:
            if HAS_HEURISTIC:
                return h[q]
            most = 0.0
            first = True
            for p in range(NPLAYERS):
                if p != q and (first or h[p] > most):
                    most = h[p]
                    first = False
            return h[q] - most
    return 0.0


@njit(cache=True)
def ab_terminal(s, res, seat, ply, win):
    """A finished game's value for `seat`: a win worth more the sooner (agents.base.Evaluator.terminal)."""
    r = 0.5
    for q in range(NPLAYERS):
        if s[SEATS + q] == seat:
            r = res[q]
    if r == 1.0:
        return win - ply
    if r == 0.0:
        return -(win - ply)
    return 0.0


# the columns of the stack's int64 and float64 rows, one row a ply (see ab_run)
AB_N, AB_IDX, AB_KIND, AB_SEAT, AB_BESTM, AB_KEY = 0, 1, 2, 3, 4, 5
AB_SIGN, AB_ALPHA, AB_BETA, AB_ALPHA0, AB_BEST = 0, 1, 2, 3, 4
AB_COLUMNS = 6
AB_K, AB_NODES, AB_STARTED = 0, 1, 2  # ctl: the ply being searched, nodes so far, whether it began


@njit(cache=True)
def ab_run(root, rootmoves, nroot, depth, hist0, nhist0, win, tt_keys, tt_vals, tt_depth, tt_flag, tt_move,
           use_tt, max_nodes, values, states, mv, prob, ints, flts, hist, ctl):
    """Negamax alpha-beta to `depth` plies from `root` (not over; its history hist0[:nhist0], its
    own hash last), its moves searched in the order given, for at most `max_nodes` more nodes a
    call: the search's stack is in the arrays the caller holds (`states`, `mv`, `prob`: one row a
    ply; `ints`, `flts`: the AB_ columns; `hist`; `ctl`, zero at the start), so a call that stops
    for its budget is taken up by the next. values[i] gets root move i's value for the seat to move
    at the root (exact where it ties the best; a bound below the best for the others). Returns
    (best value, status): 0 done, 1 paused (call again), or -1 / -2 / -3 as the loops."""
    w2 = 2.0 * win
    scratch = np.empty(SIZE, np.int64)
    buf = np.empty(MAXM, np.int64)
    res = np.zeros(NPLAYERS + 1, np.float64)
    h = np.empty(NPLAYERS, np.float64)
    mask = tt_keys.shape[0] - 1
    cuts = use_tt and not HASHING and not CHANCE  # the values depend on the path, or are averages
    if ctl[AB_STARTED] == 0:
        ctl[AB_STARTED] = 1
        copy_into(hist, hist0, nhist0)
        copy_state(states[0], root)
        for i in range(nroot):
            mv[0, i] = rootmoves[i]
        ints[0, AB_N] = nroot
        ints[0, AB_IDX] = 0
        ints[0, AB_KIND] = 0
        ints[0, AB_SEAT] = root[SEATS + root[SIDE]]
        flts[0, AB_ALPHA] = -w2
        flts[0, AB_BEST] = -w2
        ctl[AB_K] = 0
    k = ctl[AB_K]
    spent = 0
    while True:
        if spent >= max_nodes:  # paused here, at the top of the loop: all it knows is in the arrays
            ctl[AB_K] = k
            return flts[0, AB_BEST], 1
        if ints[k, AB_IDX] < ints[k, AB_N]:  # the next child of node k: make it, and value it or go into it
            i = ints[k, AB_IDX]
            ints[k, AB_IDX] = i + 1
            c = k + 1
            copy_state(states[c], states[k])
            apply(states[c], mv[k, i])
            if states[c, OVER] != 0:
                return flts[0, AB_BEST], -1 - states[c, OVER]
            if HASHING:
                hist[nhist0 + k] = states[c, HSH] if INCREMENTAL else hash_state(states[c])
            cseat = states[c, SEATS + states[c, SIDE]]
            if ints[k, AB_KIND] == 1:
                lo, hi = -w2, w2
            elif k == 0:
                lo, hi = flts[0, AB_ALPHA] - 1.0, w2
            else:
                lo, hi = flts[k, AB_ALPHA], flts[k, AB_BETA]
            if cseat == ints[k, AB_SEAT]:
                flts[c, AB_SIGN] = 1.0
                flts[c, AB_ALPHA], flts[c, AB_BETA] = lo, hi
            else:
                flts[c, AB_SIGN] = -1.0
                flts[c, AB_ALPHA], flts[c, AB_BETA] = -hi, -lo
            ints[c, AB_SEAT] = cseat
            spent += 1
            ctl[AB_NODES] += 1
            n = legal(states[c], mv[c])
            if n > MAXM:
                return flts[0, AB_BEST], -1
            code = outcome(states[c], n, res, hist, nhist0 + c)
            if states[c, OVER] != 0:
                return flts[0, AB_BEST], -1 - states[c, OVER]
            if code != 0:
                v = ab_terminal(states[c], res, cseat, c, win)
            elif depth - c <= 0:
                v = ab_value(states[c], cseat, scratch, buf, h)
            else:
                ints[c, AB_N] = n
                ints[c, AB_IDX] = 0
                if CHANCE and CHANCEACT[mv[c, 0] & AMASK]:
                    ints[c, AB_KIND] = 1
                    flts[c, AB_BEST] = 0.0
                    total = 0.0
                    for j in range(n):
                        prob[c, j] = chance_weight(states[c], mv[c, j])
                        total += prob[c, j]
                    for j in range(n):
                        prob[c, j] /= total
                    k = c
                    continue
                ints[c, AB_KIND] = 0
                flts[c, AB_BEST] = -w2
                ints[c, AB_BESTM] = -1
                flts[c, AB_ALPHA0] = flts[c, AB_ALPHA]
                if use_tt:
                    key = ab_key(states[c])
                    ints[c, AB_KEY] = key
                    slot = key & mask
                    if tt_keys[slot] == key:
                        tv = tt_vals[slot]
                        if tv >= win - AB_MATE:
                            tv -= c
                        elif tv <= -(win - AB_MATE):
                            tv += c
                        f = tt_flag[slot]
                        if cuts and tt_depth[slot] == depth - c and (
                                f == AB_EXACT or (f == AB_LOWER and tv >= flts[c, AB_BETA])
                                or (f == AB_UPPER and tv <= flts[c, AB_ALPHA])):
                            ints[c, AB_N] = 0  # valued: no children
                            flts[c, AB_BEST] = tv
                            k = c
                            continue
                        m = tt_move[slot]
                        for j in range(1, n):  # its best move first
                            if mv[c, j] == m:
                                mv[c, j] = mv[c, 0]
                                mv[c, 0] = m
                                break
                k = c
                continue
        else:  # node k is done: its value goes to its parent
            if k == 0:
                ctl[AB_K] = 0
                return flts[0, AB_BEST], 0
            v = flts[k, AB_BEST]
            if use_tt and ints[k, AB_KIND] == 0 and ints[k, AB_N] > 0:
                slot = ints[k, AB_KEY] & mask
                tv = v
                if tv >= win - AB_MATE:
                    tv += k
                elif tv <= -(win - AB_MATE):
                    tv -= k
                tt_keys[slot] = ints[k, AB_KEY]
                tt_vals[slot] = tv
                tt_depth[slot] = depth - k
                if v <= flts[k, AB_ALPHA0]:
                    tt_flag[slot] = AB_UPPER
                else:
                    tt_flag[slot] = AB_LOWER if v >= flts[k, AB_BETA] else AB_EXACT
                tt_move[slot] = ints[k, AB_BESTM]
            c = k
            k = k - 1
        # v: the value of child c of node k, for the seat to move at c
        cv = v * flts[c, AB_SIGN]
        last = ints[k, AB_IDX] - 1
        if ints[k, AB_KIND] == 1:
            flts[k, AB_BEST] += prob[k, last] * cv
            continue
        if k == 0:
            values[last] = cv
        if cv > flts[k, AB_BEST]:
            flts[k, AB_BEST] = cv
            ints[k, AB_BESTM] = mv[k, last]
            if cv > flts[k, AB_ALPHA]:
                flts[k, AB_ALPHA] = cv
                if k > 0 and cv >= flts[k, AB_BETA]:
                    ints[k, AB_IDX] = ints[k, AB_N]  # a cut: the other children need not be searched
