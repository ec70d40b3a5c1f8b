"""Information-set MCTS in every native module: the search for games that hide pieces, from what
the mover sees, whole in compiled code (appended to the module like `search_kernel.py`, whose
helpers it uses; the Python side is `search.py`).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree for the mover's
information set, and a new deal at every iteration. The deal (`deal_unseen`) takes the pieces of
the zones hidden from the mover (`hidden[z]`: the caller's mask of zone slots), sorts them (so that
it depends on them as a multiset only: two positions that differ only in what the mover cannot see
give the same deals from the same generator state), shuffles them and deals them back, each zone
keeping its number of pieces: a position consistent with what the mover sees, which the iteration
then plays as if it were the real one. The position's history goes no further back than the
search's root (earlier hashes would tell the real pieces apart).

A node is a move's row in `itree` (its parent, first child and next sibling: the children are a
list, since the moves legal at a node differ from deal to deal), with its visits, how often it was
available (legal under the deal of an iteration that chose among its siblings) and its results per
seat. At a decision node an iteration lists the moves legal under its deal; a legal move without a
child is made a child (the first of them in the order of a shuffled index); when every legal move
has one, the child with the best UCB1 score for the seat to move among the legal ones is taken,
its availability counting where the parent's visits count in plain UCT. Nature's moves are drawn
by their weights. The rest is `mcts_run`: a random playout from the new node, its result per seat
back to the root.
"""

# ruff: noqa: F821
# mypy: ignore-errors
# (the names above come from the module this text is appended to)

import numpy as np

from ziggurat.interpreter.native.numbacache import njit

# ---- kernel: from here on, the same in every native module ----

IS_PARENT, IS_CHILD, IS_SIB, IS_MOVE = 0, 1, 2, 3
IS_FIELDS = 4


@njit(cache=True)
def deal_unseen(s, hidden, x):
    """Deal the pieces of the zones hidden[z] != 0 again at random (see the module docstring);
    the generator state after it."""
    nzones = (HSH - ZON) // ZW
    total = 0
    for z in range(nzones):
        if hidden[z]:
            total += s[ZON + z * ZW]
    if total < 2:
        return x
    pool = np.empty(total, np.int64)
    k = 0
    for z in range(nzones):
        if hidden[z]:
            for i in range(s[ZON + z * ZW]):
                pool[k] = s[ZON + z * ZW + 1 + i]
                k += 1
    pool.sort()  # what the deal depends on: the pieces as a multiset, not where they are
    for i in range(total - 1, 0, -1):
        x, w = next_word(x)
        j = np.int64(w % np.uint64(i + 1))
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t
    k = 0
    for z in range(nzones):
        if hidden[z]:
            for i in range(s[ZON + z * ZW]):
                put(s, ZON + z * ZW + 1 + i, pool[k])
                k += 1
    return x


@njit(cache=True)
def is_new_node(itree, visits, avail, totals, used, parent, move):
    k = used[0]
    used[0] = k + 1
    itree[k, IS_PARENT] = parent
    itree[k, IS_CHILD] = -1
    itree[k, IS_SIB] = -1
    itree[k, IS_MOVE] = move
    visits[k] = 0
    avail[k] = 0
    for q in range(NPLAYERS):
        totals[k, q] = 0.0
    if parent >= 0:  # first in its parent's list
        itree[k, IS_SIB] = itree[parent, IS_CHILD]
        itree[parent, IS_CHILD] = k
    return k


@njit(cache=True)
def ismcts_run(root, hidden, itree, visits, avail, totals, used, iterations, c, rollout, x, parts=False):
    """Up to `iterations` iterations of single-observer ISMCTS from `root` (the mover's position:
    its hidden zones are dealt again at each iteration). used[0]: nodes made (the root is node 0).
    Returns (iterations done, status, generator state) as `mcts_run` (MC_NEED_NODES: grow)."""
    s = np.empty(SIZE, np.int64)
    buf = np.empty(MAXM, np.int64)
    order = np.empty(MAXM, np.int64)
    kid = np.empty(MAXM, np.int64)  # the child of each legal move under this deal, or -1
    res = np.zeros(NPLAYERS + 1, np.float64)
    result = np.empty(NPLAYERS, np.float64)
    hist = np.empty(MC_MAXDEPTH + rollout + 3, np.int64)
    none = np.empty(0, np.int64)
    cap = itree.shape[0]
    done = 0
    while done < iterations:
        if used[0] >= cap:
            return done, MC_NEED_NODES, x
        copy_state(s, root)
        x = deal_unseen(s, hidden, x)
        nh = 0
        if HASHING:
            s[HSH] = hash_state(s)
            hist[0] = s[HSH]
            nh = 1
        node = 0
        depth = 0
        ended = False
        while True:
            n = legal(s, buf)
            if n > MAXM:
                return done, -1, x
            code = outcome(s, n, res, hist, nh)
            if s[OVER] != 0:
                return done, -1 - s[OVER], x
            if code != 0:
                results_by_seat(s, res, result)
                ended = True
                break
            if n == 0:
                cut_result(s, result)
                ended = True
                break
            if depth >= MC_MAXDEPTH:
                break
            for i in range(n):
                kid[i] = -1
            ch = itree[node, IS_CHILD]
            while ch >= 0:  # which legal moves have a child
                m = itree[ch, IS_MOVE]
                for i in range(n):
                    if buf[i] == m:
                        kid[i] = ch
                        break
                ch = itree[ch, IS_SIB]
            if CHANCE and CHANCEACT[buf[0] & AMASK]:
                x, z = next_word(x)
                j = pick_chance(s, buf, n, z)
            else:
                for i in range(n):
                    order[i] = i
                for i in range(n - 1, 0, -1):  # a random order of the legal moves
                    x, z = next_word(x)
                    r = np.int64(z % np.uint64(i + 1))
                    t = order[i]
                    order[i] = order[r]
                    order[r] = t
                j = -1
                for i in range(n):
                    if kid[order[i]] < 0:
                        j = order[i]
                        break
                if j < 0:  # every legal move tried: UCB1 over them, by availability
                    seat = s[SEATS + s[SIDE]]
                    best = -np.inf  # results in points may all be below -1
                    for i in range(n):
                        k = kid[i]
                        avail[k] += 1
                        vc = np.float64(visits[k])
                        score = totals[k, seat] / vc + c * np.sqrt(np.log(np.float64(avail[k])) / vc)
                        if score > best:
                            best = score
                            j = i
            fresh = kid[j] < 0
            if fresh:
                if used[0] >= cap:
                    return done, MC_NEED_NODES, x
                child = is_new_node(itree, visits, avail, totals, used, node, buf[j])
                avail[child] = 1
            else:
                child = kid[j]
            nh = step_down(s, buf[j], hist, nh)
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
        back_up(node, itree[:, IS_PARENT], visits, totals, result)
        done += 1
    return done, 0, x
