#!/usr/bin/env python3
"""A fault probe of playtune's edges (issue 72): each case runs in a subprocess of its
own under a wall-clock limit, and its outcome is classed as

    ok         the expected clean error (or the expected clean success)
    unreached  a fault the bots never reached (the match finished without it): not
               a failure, not evidence either
    PANIC      exit code 101, death by a signal, or "panicked" / "internal error" /
               "PanicException" in the output
    HANG       past its limit (then killed, with everything it started)
    WRONG      a silent wrong result: exit 0 (or no exception) where a failure was
               expected and the fault was reached, a failure where success was
               expected, an exit code other than the documented one (bad input
               exits 2), a failure that does not say why, or a reading without
               bound (memory)

over four surfaces:

    protocol   the match protocol's forward-model operations (new, apply, clone,
               playout, resample, drop) answered wrongly by a game process of its
               own, one fault a case, in `playtune tournament` with playtune's bots
    state-api  a Python game's State API (OpenSpiel's names) breaking one method a
               case, through `Game.bot(...).step`, an in-process game and a game in a
               worker process
    ladder     `playtune check-ladder`'s inputs, `tournament --games` and
               `optimize --ladder-check-games` out of range
    run-files  a run folder's files replaced, one at a time, by a FIFO, a link to
               /dev/zero or /dev/urandom, a folder, a dangling link or a sparse 5 GB
               file, under `playtune status`, `report`, `plot` and `compare`

Standard library only; run it with the interpreter that has the playtune wheel
(`import playtune` is what the state-api cases exercise):

    /tmp/pv/bin/python scripts/probe-faults.py --jobs 2 --out /tmp/probe-faults/summary.json
    /tmp/pv/bin/python scripts/probe-faults.py --quick          # a smaller set, for CI

Exit status 0 when every case is ok or unreached, 1 otherwise, 2 on a usage error.
Scratch files go under --work (default /tmp/probe-faults/run), which is emptied first.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from typing import Callable, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A case's output above this is a flood: the case is stopped and counted WRONG.
MAX_OUTPUT = 256 << 20
# playtune's peak resident memory above this is a read without bound (--max-rss-mib);
# above NOTE_RSS_KB a case is listed as a note: bounded, but heavy.
MAX_RSS_KB = 3 << 20  # 3 GiB
NOTE_RSS_KB = 512 << 10  # 512 MiB
# The address-space limit of the run-files cases: a read of /dev/zero without bound
# fails there instead of filling the machine.
RUN_FILES_AS = 4 << 30
PANIC_WORDS = ("panicked", "internal error", "PanicException", "RUST_BACKTRACE")

# ---------------------------------------------------------------------------------
# The protocol game: tic-tac-toe with a chance node (who begins) over the forward-model
# operations, answering one operation wrongly from its FROM-th call on.
# ---------------------------------------------------------------------------------

FAULT_GAME = r'''
"""Tic-tac-toe over the match protocol's forward-model operations, with one fault
injected (scripts/probe-faults.py writes this file). Arguments: OP FAULT FROM MARK
HIDDEN TIMEOUT. From the FROM-th request of operation OP on (counted in this process),
the reply has FAULT, and a line goes to the file MARK: the fault was reached. The
game's own checks say GAMEERR: a match that fails with that word accepted the fault
and failed later, on the damage."""
import json, os, random, signal, sys, time

OP, FAULT, FROM, MARK = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
HIDDEN, TIMEOUT = sys.argv[5] == "1", float(sys.argv[6])
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
states, calls, counter = {}, {}, [0]
slow = {"total": 0.0, "marked": False}
out = sys.stdout.buffer


class GameError(Exception):
    pass


def mark(what=""):
    with open(MARK, "a") as f:
        f.write("%d %s %s %s\n" % (os.getpid(), OP, FAULT, what))


def fresh():
    return {"cells": [-1] * 9, "turn": 0, "winner": -1, "dealt": False, "fake": None}


def copy(s):
    d = dict(s)
    d["cells"] = list(s["cells"])
    return d


def keep(s):
    i = counter[0]
    counter[0] += 1
    states[i] = s
    return i


def get(i):
    if not isinstance(i, int) or i not in states:
        raise GameError("GAMEERR: no state %r" % (i,))
    return states[i]


def over(s):
    return s["fake"] == "over" or (s["dealt"] and (s["winner"] >= 0 or min(s["cells"]) >= 0))


def where(i):
    s = get(i)
    if s["fake"] == "over":
        return {"state": i, "player": "over", "returns": [0, 0]}
    if not s["dealt"]:
        return {"state": i, "player": "chance", "outcomes": [[0, 0.5], [1, 0.5]]}
    if over(s):
        w = s["winner"]
        return {"state": i, "player": "over", "returns": [0, 0] if w < 0 else ([1, -1] if w == 0 else [-1, 1])}
    return {"state": i, "player": s["turn"], "legal": [j for j, c in enumerate(s["cells"]) if c < 0]}


def move(s, a):
    if s["fake"] == "chance":  # an injected chance node: any outcome goes on
        s["fake"] = None
        return
    if s["fake"] == "over":
        raise GameError("GAMEERR: a move on a state the fault declared over")
    if not s["dealt"]:
        if a not in (0, 1) or isinstance(a, bool):
            raise GameError("GAMEERR: chance outcome %r is not 0 or 1" % (a,))
        s["turn"], s["dealt"] = a, True
        return
    if over(s) or not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < 9 or s["cells"][a] >= 0:
        raise GameError("GAMEERR: move %r is not legal here" % (a,))
    s["cells"][a] = s["turn"]
    if any(all(s["cells"][j] == s["turn"] for j in line) for line in LINES if a in line):
        s["winner"] = s["turn"]
    s["turn"] = 1 - s["turn"]


def op_new(r):
    slow["total"], slow["marked"] = 0.0, False  # a match begins
    return where(keep(fresh()))


def op_apply(r):
    move(get(r["state"]), r["action"])
    return where(r["state"])


def op_clone(r):
    return where(keep(copy(get(r["state"]))))


def op_resample(r):
    s = get(r["state"])
    if not HIDDEN:
        raise GameError("GAMEERR: resample asked of a game that hides nothing")
    if not s["dealt"] or over(s) or s["turn"] != r["player"]:
        raise GameError("GAMEERR: resample for seat %r where it is not its turn" % (r["player"],))
    return where(keep(copy(s)))


def op_playout(r):
    s = get(r["state"])
    rng, steps = random.Random(r["seed"]), 0
    if s["fake"] == "chance":
        s["fake"] = None
    while steps < r["max_steps"] and not over(s):
        if not s["dealt"]:
            move(s, rng.randrange(2))
            continue
        move(s, rng.choice([j for j, c in enumerate(s["cells"]) if c < 0]))
        steps += 1
    reply = where(r["state"])
    reply["steps"] = steps
    return reply


OPS = {"new": op_new, "apply": op_apply, "clone": op_clone, "resample": op_resample,
       "playout": op_playout, "drop": lambda r: {}}


def write(data):
    out.write(data)
    out.flush()


def before(r):
    """A fault that does not need the operation's answer: True when the request is
    answered (or not) already."""
    if FAULT == "error":
        mark()
        write((json.dumps({"id": r.get("id"), "error": "injected fault"}) + "\n").encode())
        return True
    if FAULT == "errorseed" and r.get("seed", 1) % 3 == 0:  # a third of the matches, by their seed
        mark()
        write((json.dumps({"id": r.get("id"), "error": "injected fault"}) + "\n").encode())
        return True
    if FAULT == "garbage":
        mark()
        write(b"this is not JSON {\n")
        return True
    if FAULT == "sleep":  # one answer past the timeout
        mark()
        time.sleep(TIMEOUT * 2.5)
    elif FAULT == "slow":  # each answer under the timeout, the match over it
        time.sleep(0.35)
        slow["total"] += 0.35
        if slow["total"] > TIMEOUT + 0.5 and not slow["marked"]:
            slow["marked"] = True
            mark("the match's answers took %.1f s" % slow["total"])
    elif FAULT == "exit":
        mark()
        out.flush()
        os._exit(3)
    elif FAULT == "crash":
        mark()
        os.kill(os.getpid(), signal.SIGSEGV)
        time.sleep(5)
    elif FAULT == "huge":  # output without end, and no line end
        mark()
        chunk = b"x" * (1 << 20)
        try:
            for _ in range(4096):
                write(chunk)
        except (BrokenPipeError, OSError):
            pass
        os._exit(0)
    elif FAULT == "hugeline":  # one line of 64 MiB
        mark()
        try:
            write(b"x" * (64 << 20) + b"\n")
        except (BrokenPipeError, OSError):
            os._exit(0)
        return True
    elif FAULT == "closeout":
        mark()
        os.close(1)
        for _ in sys.stdin.buffer:
            pass
        os._exit(0)
    elif FAULT == "stderrflood":
        mark()
        try:
            os.write(2, b"e" * (64 << 20))
        except OSError:
            pass
    return False


def after(r, reply):
    """A fault made of the operation's answer."""
    f, op = FAULT, r.get("op")
    st, steps = reply.get("state", r.get("state")), reply.get("steps")
    target = st if op in ("apply", "playout") else reply.get("state")

    def set_fake(kind):
        s = states.get(target)
        if s is not None and (kind == "over" or s["dealt"]):
            s["fake"] = kind

    if f == "wrongid":
        mark()
        return reply, 1000
    if f == "nostate":
        reply.pop("state", None)
    elif f == "statetype":
        reply["state"] = "s%s" % reply.get("state")
    elif f == "noplayer":
        for k in ("player", "legal", "outcomes", "returns"):
            reply.pop(k, None)
    elif f == "nolegal":
        reply = {"state": st, "player": 0}
    elif f == "emptylegal":
        reply = {"state": st, "player": 0, "legal": []}
    elif f == "badplayer":
        reply = {"state": st, "player": 7, "legal": [0]}
    elif f == "playertype":
        reply = {"state": st, "player": "north", "legal": [0]}
    elif f == "legaltype":
        reply = {"state": st, "player": 0, "legal": ["a", 1.5]}
    elif f in ("overlen", "overnan", "overinf"):
        returns = {"overlen": [1, -1, 0], "overnan": ["__NAN__", 0], "overinf": ["__INF__", 0]}[f]
        reply = {"state": st, "player": "over", "returns": returns}
        set_fake("over")
    elif f in ("chance0", "chanceneg", "chanceover", "chanceempty"):
        outcomes = {"chance0": [[0, 0.0], [1, 0.0]], "chanceneg": [[0, -0.5], [1, 1.5]],
                    "chanceover": [[0, 1e308], [1, 1e308]], "chanceempty": []}[f]
        reply = {"state": st, "player": "chance", "outcomes": outcomes}
        set_fake("chance")
    elif f == "clonelive":  # the new state's number is one playtune holds already
        states.pop(reply.get("state"), None)
        reply["state"] = r["state"]
    elif f in ("heurlen", "heurnan"):
        if reply.get("player") == "over":
            return reply, 0  # a finished state's heuristic may go unread: not reached
        reply["heuristic"] = [0.5] if f == "heurlen" else ["__NAN__", 0.0]
    elif f == "badsteps":
        reply["steps"] = r["max_steps"] + 5
    elif f == "nosteps":
        reply.pop("steps", None)
    else:
        return reply, 0
    if op == "playout" and f != "nosteps" and "steps" not in reply:
        reply["steps"] = steps  # the fault is in where the state stands, not in its steps
    mark()
    return reply, 0


for raw in sys.stdin.buffer:
    line = raw.decode("utf-8", "replace")
    if not line.strip():
        continue
    r, shift = {}, 0
    try:
        r = json.loads(line)
        for d in r.get("drop") or []:
            states.pop(d, None)
        op = r.get("op")
        if op not in OPS:
            raise GameError("GAMEERR: unknown op %r" % (op,))
        calls[op] = calls.get(op, 0) + 1
        hit = op == OP and calls[op] >= FROM
        if hit and before(r):
            continue
        reply = OPS[op](r)
        if hit:
            reply, shift = after(r, reply)
        rid = r.get("id")
        text = json.dumps(dict({"id": rid + shift if isinstance(rid, int) else rid}, **reply))
        text = text.replace('"__NAN__"', "NaN").replace('"__INF__"', "1e999")
    except GameError as e:
        text = json.dumps({"id": r.get("id"), "error": str(e)})
    except Exception as e:  # noqa: BLE001 - a bug of the game is the game's error
        text = json.dumps({"id": r.get("id"), "error": "GAMEERR: %s: %s" % (type(e).__name__, e)})
    try:
        write((text + "\n").encode())
    except (BrokenPipeError, OSError):
        os._exit(0)
'''

# ---------------------------------------------------------------------------------
# The State API game: the same tic-tac-toe as a Python class, one method broken.
# ---------------------------------------------------------------------------------

STATE_GAME = r'''
"""Tic-tac-toe with OpenSpiel's State API and one broken method (scripts/probe-faults.py
writes this file; params.json beside it says which method, which fault, from which
call on, and where to mark that the fault was reached)."""
import json, math, os, time

import playtune

P = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "params.json")))
METHOD, FAULT, FROM, MARK = P["method"], P["fault"], P["from"], P["mark"]
DIRECT = [False]  # the probe's own calls: neither counted nor broken
CALLS = {}
MARKED = []
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def hit(name, state=None):
    """Whether this call of `name` is broken. A fault is a function of the state, not
    of the call, so that a method asked twice of one state answers the same both
    times: broken where a stone is on the board (the initial state, which
    register_game's check of clone() plays on, is whole), or everywhere for a fault
    named *all, chance_outcomes (asked at the initial state only) and the resampler;
    new_initial_state from its FROM-th call on."""
    if DIRECT[0] or name != METHOD:
        return False
    CALLS[name] = CALLS.get(name, 0) + 1
    if name == "new_initial_state":
        if CALLS[name] < FROM:
            return False
    elif not (FAULT.endswith("all") or name in ("chance_outcomes", "resample_from_infostate")):
        if sum(c >= 0 for c in state.cells) < 1:
            return False
    if not MARKED:
        MARKED.append(1)
        with open(MARK, "a") as f:
            f.write("%d %s %s call %d\n" % (os.getpid(), name, FAULT, CALLS[name]))
    return True


WRONG_TYPE = {"current_player": "0", "legal_actions": "012", "is_terminal": "no", "returns": "1,-1",
              "chance_outcomes": "heads", "heuristic_value": "good", "new_initial_state": 5,
              "clone": 5, "resample_from_infostate": "x"}
VALUES = {
    "none": None,
    "empty": [],
    "floats": [0.5, 1.5],
    "outofrange": 7,
    "minus2": -2,
    "badlen": [1.0],
    "nan": float("nan"),
    "nanlist": [float("nan"), 0.0],
    "inflist": [float("inf"), float("-inf")],
    "zero": [(0, 0.0), (1, 0.0)],
    "negative": [(0, -0.5), (1, 1.5)],
    "overflow": [(0, 1e308), (1, 1e308)],
    "nanprob": [(0, float("nan")), (1, 1.0)],
    "bool": True,
}


def bad(name, state=None):
    fault = FAULT[:-3] if FAULT.endswith("all") else FAULT
    if fault == "raise":
        raise ValueError("injected fault")
    if fault == "interrupt":
        raise KeyboardInterrupt
    if fault == "wrongtype":
        return WRONG_TYPE[name]
    if fault in VALUES:
        return VALUES[fault]
    if fault == "self":
        return state
    if fault == "shared":  # a copy that shares the board with its original
        c = state._copy()
        c.cells = state.cells
        return c
    if fault == "finished":
        c = state._copy()
        c.winner = 1 - state.turn
        return c
    if fault == "otherseat":
        c = state._copy()
        c.turn = 1 - state.turn
        return c
    if fault == "slow":
        time.sleep(0.05)
        return state._copy()
    raise AssertionError("fault %r" % FAULT)


class Board:
    def __init__(self):
        self.cells, self.turn, self.winner, self.dealt = [-1] * 9, 0, -1, False

    def _over(self):
        return self.dealt and (self.winner >= 0 or min(self.cells) >= 0)

    def _legal(self):
        return [i for i, c in enumerate(self.cells) if c < 0] if self.dealt and not self._over() else []

    def _move(self, a):
        if not self.dealt:
            self.turn, self.dealt = a, True
            return
        self.cells[a] = self.turn
        if any(all(self.cells[j] == self.turn for j in line) for line in LINES if a in line):
            self.winner = self.turn
        self.turn = 1 - self.turn

    def _copy(self):
        c = type(self)()
        c.cells, c.turn, c.winner, c.dealt = list(self.cells), self.turn, self.winner, self.dealt
        return c

    def current_player(self):
        if hit("current_player", self):
            return bad("current_player", self)
        if not self.dealt:
            return -1
        return -4 if self._over() else self.turn

    def is_chance_node(self):
        return not self.dealt

    def chance_outcomes(self):
        if hit("chance_outcomes", self):
            return bad("chance_outcomes", self)
        return [(0, 0.5), (1, 0.5)]

    def legal_actions(self):
        if hit("legal_actions", self):
            return bad("legal_actions", self)
        return self._legal()

    def apply_action(self, a):
        if hit("apply_action", self):
            bad("apply_action", self)
        self._move(a)

    def is_terminal(self):
        if hit("is_terminal", self):
            return bad("is_terminal", self)
        return self._over()

    def returns(self):
        if hit("returns", self):
            return bad("returns", self)
        if self.winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def clone(self):
        if hit("clone", self):
            return bad("clone", self)
        return self._copy()


class HeuristicBoard(Board):
    def heuristic_value(self, player):
        if hit("heuristic_value", self):
            return bad("heuristic_value", self)
        return 0.0


class HiddenBoard(Board):
    def resample_from_infostate(self, player, sampler):
        if hit("resample_from_infostate", self):
            return bad("resample_from_infostate", self)
        sampler()
        return self._copy()


BOARD = {"heuristic_value": HeuristicBoard, "resample_from_infostate": HiddenBoard}.get(METHOD, Board)


class FaultGame(playtune.Game):
    name = P["name"]
    about = "tic-tac-toe with a broken method"
    hidden_information = METHOD == "resample_from_infostate"

    def new_initial_state(self, settings=None):
        if hit("new_initial_state"):
            return bad("new_initial_state")
        return BOARD()


GAME = FaultGame()
'''

STATE_DRIVER = r'''
"""Drives a broken game through playtune (scripts/probe-faults.py): argv CASE_DIR MODE
SPEC TIMEOUT; the last line printed is PROBE-RESULT {json}."""
import json, sys, traceback

case_dir, mode, spec, timeout = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
sys.path.insert(0, case_dir)


def report(outcome, **kw):
    sys.stdout.flush()
    print("PROBE-RESULT " + json.dumps(dict({"outcome": outcome}, **kw)), flush=True)


import playtune  # noqa: E402

try:
    import faultgame

    G = faultgame.GAME
    if mode == "bot":
        faultgame.DIRECT[0] = True
        state = G.new_initial_state({})
        state._move(0)  # the chance node: seat 0 begins
        bots = [G.bot(spec, 0, 7), G.bot(spec, 1, 8)]
        moves, mutated = 0, None
        while not state._over() and moves < 9:
            seat, before = state.turn, (list(state.cells), state.turn, state.winner)
            faultgame.DIRECT[0] = False
            try:
                a = bots[seat].step(state)
            except BaseException as e:
                faultgame.DIRECT[0] = True
                if (list(state.cells), state.turn, state.winner) != before:
                    report("wrong", message="the bot's step changed the caller's state, then raised %s: %s" % (
                        type(e).__name__, str(e)[:1000]))
                    sys.exit(0)
                raise
            faultgame.DIRECT[0] = True
            if (list(state.cells), state.turn, state.winner) != before:
                mutated = "the bot's step changed the caller's state: %r -> %r" % (before, (state.cells, state.turn, state.winner))
                break
            if a not in state._legal():
                mutated = "the bot's step returned %r, not a legal move of %r" % (a, state._legal())
                break
            state._move(a)
            moves += 1
        if mutated:
            report("wrong", message=mutated)
        else:
            report("ok", moves=moves)
    else:
        if mode == "inproc":
            name = playtune.register_game(G, in_process=True, timeout=timeout)
        else:
            name = playtune.register_game(G, workers=1, timeout=timeout)
        result = playtune.tournament(name, [spec, "random"], games=4, seed=1)
        report("ok", result=str(result)[:300])
except playtune.PlaytuneError as e:
    report("PlaytuneError", message=str(e)[:4000])
except KeyboardInterrupt:
    report("KeyboardInterrupt")
except BaseException as e:  # noqa: BLE001 - what it raised is the finding
    traceback.print_exc()
    report("other", type=type(e).__name__, message=str(e)[:4000])
'''

HIDDEN_NO_RESAMPLER = r'''
"""Tic-tac-toe declared hidden, with no resampler (scripts/probe-faults.py)."""
import sys
sys.path.insert(0, %r)
import tictactoe


class HiddenTicTacToe(tictactoe.TicTacToe):
    name = "hidden-no-resampler"
    hidden_information = True


GAME = HiddenTicTacToe()
'''


# ---------------------------------------------------------------------------------
# Cases, running them, judging them.
# ---------------------------------------------------------------------------------


@dataclasses.dataclass
class Result:
    rc: Optional[int] = None  # exit code; negative: killed by that signal
    timed_out: bool = False
    flooded: bool = False
    wall: float = 0.0
    maxrss_kb: int = 0
    text: str = ""  # head and tail of stdout + stderr
    lingering: List[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Case:
    surface: str
    name: str
    argv: List[str]
    cwd: str
    limit: float
    judge: Callable[["Case", Result], Tuple[str, str]]
    env: Dict[str, str] = dataclasses.field(default_factory=dict)
    mark: Optional[str] = None
    address_space: Optional[int] = None
    data: dict = dataclasses.field(default_factory=dict)
    prepare: Optional[Callable[[], None]] = None
    weight: float = 1.0  # expected seconds, to start the long ones first


def reached(case: Case) -> bool:
    return bool(case.mark) and os.path.exists(case.mark) and os.path.getsize(case.mark) > 0


def tail(text: str, n: int = 1500) -> str:
    text = text.strip()
    return text if len(text) <= n else "..." + text[-n:]


def _tagged(tag: bytes) -> List[int]:
    """Processes of ours that carry the case's tag in their environment."""
    found = []
    me = os.getuid()
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            if os.stat("/proc/" + d).st_uid != me:
                continue
            with open("/proc/%s/environ" % d, "rb") as f:
                env = f.read()
        except OSError:
            continue
        if tag in env:
            found.append(int(d))
    return found


def _cmdline(pid: int) -> str:
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()[:200]
    except OSError:
        return "?"


def _read_output(path: str) -> str:
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        if size <= 2 << 20:
            data = f.read()
        else:
            head = f.read(1 << 20)
            f.seek(size - (1 << 20))
            data = head + b"\n[... %d bytes left out ...]\n" % (size - (2 << 20)) + f.read()
    if size > 4 << 20:  # keep the scratch folder small
        with open(path, "wb") as f:
            f.write(data)
    return data.decode("utf-8", "replace")


def execute(case: Case, seq: int, outdir: str) -> Result:
    os.makedirs(outdir, exist_ok=True)
    if case.prepare:
        case.prepare()
    tag = "PROBE_FAULTS_TAG=pf%d-%d\0" % (os.getpid(), seq)
    env = dict(os.environ)
    env.update(case.env)
    env["PROBE_FAULTS_TAG"] = tag[len("PROBE_FAULTS_TAG="):-1]
    argv = list(case.argv)
    if case.address_space:
        argv = [sys.executable, "-c",
                "import os,resource,sys; resource.setrlimit(resource.RLIMIT_AS, (%d, %d)); "
                "os.execvp(sys.argv[1], sys.argv[1:])" % (case.address_space, case.address_space)] + argv
    outpath = os.path.join(outdir, "output.txt")
    res = Result()
    start = time.monotonic()
    with open(outpath, "wb") as out:
        p = subprocess.Popen(argv, cwd=case.cwd, env=env, stdin=subprocess.DEVNULL, stdout=out,
                             stderr=subprocess.STDOUT, start_new_session=True)
    deadline = start + case.limit
    status, rusage = 0, None
    while True:
        pid, status, rusage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        now = time.monotonic()
        over_size = os.path.getsize(outpath) > MAX_OUTPUT
        if now > deadline or over_size:
            res.timed_out, res.flooded = now > deadline, over_size
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            _, status, rusage = os.wait4(p.pid, 0)
            break
        time.sleep(0.02)
    p.returncode = 0  # reaped here: Popen must not wait for it again
    res.wall = time.monotonic() - start
    res.rc = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    res.maxrss_kb = rusage.ru_maxrss if rusage else 0
    # What the case started and left behind: a moment for playtune's guard, then killed.
    left = _tagged(tag.encode())
    if left:
        time.sleep(1.0)
        left = _tagged(tag.encode())
        for pid in left:
            res.lingering.append("%d: %s" % (pid, _cmdline(pid)))
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    res.text = _read_output(outpath)
    return res


def common(case: Case, res: Result) -> Optional[Tuple[str, str]]:
    """The classes every surface shares: PANIC, HANG, floods and reading without bound."""
    text = res.text
    if any(w in text for w in PANIC_WORDS):
        line = next((ln for ln in text.splitlines() if any(w in ln for w in PANIC_WORDS)), "")
        return "PANIC", line.strip()[:300]
    if res.timed_out:
        return "HANG", "still running after %.0f s: killed" % case.limit
    if res.flooded:
        return "WRONG", "printed more than %d MiB: stopped" % (MAX_OUTPUT >> 20)
    if "memory allocation of" in text or res.maxrss_kb > MAX_RSS_KB:
        return "WRONG", "read without bound: peak memory %d MiB%s" % (
            res.maxrss_kb >> 10, ", memory allocation failed" if "memory allocation of" in text else "")
    if res.rc == 101:
        return "PANIC", "exit code 101"
    if res.rc is not None and res.rc < 0:
        return "PANIC", "killed by signal %d" % -res.rc
    return None


def first_error_line(text: str) -> str:
    for ln in text.splitlines():
        if "error" in ln.lower() or "failed" in ln.lower():
            return ln.strip()[:300]
    return tail(text, 300)


# --- surface 1: the protocol ---------------------------------------------------

PROTOCOL_FAULTS = {
    # fault: (ops it applies to, what is expected)
    "error": ("new apply clone playout resample drop", "fail"),
    "garbage": ("new apply clone playout resample drop", "fail"),
    "wrongid": ("new apply clone playout resample drop", "fail"),
    "nostate": ("new clone resample", "fail"),
    "statetype": ("new clone resample", "fail"),
    "noplayer": ("new apply clone playout resample", "fail"),
    "nolegal": ("new apply clone playout resample", "fail"),
    "emptylegal": ("new apply clone playout resample", "fail"),
    "badplayer": ("new apply clone playout resample", "fail"),
    "playertype": ("new apply clone playout resample", "fail"),
    "legaltype": ("new apply clone playout resample", "fail"),
    "overlen": ("new apply clone playout resample", "fail"),
    "overnan": ("new apply clone playout resample", "fail"),
    "overinf": ("new apply clone playout resample", "fail"),
    "chance0": ("new apply clone playout resample", "fail"),
    "chanceneg": ("new apply clone playout resample", "fail"),
    "chanceover": ("new apply clone playout resample", "fail"),
    "chanceempty": ("new apply clone playout resample", "fail"),
    "clonelive": ("clone resample", "fail"),
    "heurlen": ("new apply clone playout resample", "fail"),
    "heurnan": ("new apply clone playout resample", "fail"),
    "badsteps": ("playout", "fail"),
    "nosteps": ("playout", "fail"),
    "sleep": ("new apply clone playout resample drop", "fail"),
    "slow": ("apply clone playout resample", "fail"),
    "exit": ("new apply clone playout resample drop", "fail"),
    "crash": ("new apply clone playout resample drop", "fail"),
    "huge": ("new apply clone playout resample drop", "fail"),
    "hugeline": ("new apply clone playout resample drop", "fail"),
    "closeout": ("new apply clone playout resample drop", "fail"),
    "stderrflood": ("new apply clone playout resample drop", "any"),
}
QUICK_PROTOCOL_FAULTS = ["error", "garbage", "wrongid", "nostate", "noplayer", "emptylegal", "badplayer",
                         "overlen", "overnan", "chance0", "chanceover", "clonelive", "heurnan", "badsteps",
                         "sleep", "slow", "exit", "huge", "closeout"]
# The call of each operation from which the fault is on: late enough that a match
# has begun, early enough that every match reaches it.
FROM = {"new": 1, "apply": 3, "clone": 2, "playout": 2, "resample": 2, "drop": 1}
PROTOCOL_TIMEOUT = 2  # the description's `timeout`, seconds

BOTS_PLAIN = ["random", "osla", "mcts(iterations=20)", "bmrh(budget=100,evaluations=20)"]
BOT_HIDDEN = "ismcts(iterations=20)"


def judge_protocol(case: Case, res: Result) -> Tuple[str, str]:
    c = common(case, res)
    if c:
        return c
    expect, text = case.data["expect"], res.text
    if res.rc == 2:
        if expect == "ok":
            return "WRONG", "a healthy game failed: " + first_error_line(text)
        if "a match failed" not in text:
            return "WRONG", "exit 2 without \"a match failed\": " + first_error_line(text)
        if "GAMEERR" in text:
            return "WRONG", ("the faulty reply was accepted; the match failed only later, on the "
                             "game's own check: " + first_error_line(text))
        return "ok", first_error_line(text)
    if res.rc == 0:
        if expect == "fail":
            if reached(case):
                return "WRONG", "exit 0: the fault was reached and accepted silently"
            return "unreached", "exit 0, the fault never reached"
        return "ok", "exit 0"
    return "WRONG", "exit code %s (bad input exits 2): %s" % (res.rc, first_error_line(text))


def protocol_cases(args, work: str) -> List[Case]:
    game_py = os.path.join(work, "fault_game.py")
    with open(game_py, "w") as f:
        f.write(FAULT_GAME)
    faults = QUICK_PROTOCOL_FAULTS if args.quick else list(PROTOCOL_FAULTS)
    plan = []  # (op, fault, hidden, bot)
    for fault in faults:
        ops, _ = PROTOCOL_FAULTS[fault]
        for op in ops.split():
            if args.quick:
                bots = [(True, BOT_HIDDEN)] if op == "resample" else [
                    (False, "mcts(iterations=20,depth=3)" if op == "playout" else "mcts(iterations=20)")]
                if op in ("new", "apply", "drop") and fault in ("error", "garbage", "noplayer", "sleep"):
                    bots.append((False, "random"))
            elif op == "resample":
                if fault == "slow":
                    continue  # a match asks too few resamples for their time to pass the timeout
                bots = [(True, b) for b in BOTS_PLAIN[1:] + [BOT_HIDDEN]]
            elif op == "playout":  # only MCTS plays out; at depth 3 its playouts end unfinished
                bots = [(False, "mcts(iterations=20)"), (False, "mcts(iterations=20,depth=3)"),
                        (True, "ismcts(iterations=20,depth=3)")]
            else:
                plain = BOTS_PLAIN if op in ("new", "apply", "drop") else BOTS_PLAIN[1:]
                bots = [(False, b) for b in plain] + [(True, BOT_HIDDEN)]
            for hidden, bot in bots:
                if op == "playout" and fault.startswith("heur") and "depth=3" not in bot:
                    continue  # a playout to the end has no heuristic to read
                plan.append((op, fault, hidden, bot))
    # Controls: the same game with no fault, every bot: it must play.
    for hidden, bot in [(False, b) for b in BOTS_PLAIN] + [(True, b) for b in BOTS_PLAIN + [BOT_HIDDEN]]:
        plan.append(("none", "none", hidden, bot))
    cases = []
    for op, fault, hidden, bot in plan:
        short = re.sub(r"\(.*", "", bot) + ("-d3" if "depth=3" in bot else "")
        name = "%s-%s-%s%s" % (op, fault, short, "-hidden" if hidden else "")
        cdir = os.path.join(work, "protocol", name)
        os.makedirs(cdir, exist_ok=True)
        mark = os.path.join(cdir, "reached")
        command = "%s %s %s %s %d %s %d %d" % (
            shlex.quote(args.python), shlex.quote(game_py), op, fault, FROM.get(op, 1), shlex.quote(mark),
            hidden, PROTOCOL_TIMEOUT)
        ron = os.path.join(cdir, "game.ron")
        with open(ron, "w") as f:
            f.write("(\n    name: \"fault-%s\",\n    about: \"tic-tac-toe with a fault\",\n"
                    "    command: %s,\n    players: 2,\n    forward_model: true,\n    hidden: %s,\n"
                    "    timeout: %d,\n    startup: 1,\n    max_steps: 50,\n)\n"
                    % (re.sub(r"[^a-z0-9-]", "-", name.lower()), json.dumps(command),
                       "true" if hidden else "false", PROTOCOL_TIMEOUT))
        expect = "ok" if fault == "none" else PROTOCOL_FAULTS[fault][1]
        slow = fault in ("sleep", "slow", "huge", "closeout", "stderrflood", "hugeline")
        cases.append(Case(
            "protocol", name,
            [args.playtune, "tournament", "--game", ron, "--agents", "%s,random" % bot, "--games", "2",
             "--seed", "3"],
            cdir, args.limit, judge_protocol, mark=mark, data={"expect": expect},
            prepare=lambda m=mark: os.path.exists(m) and os.remove(m), weight=4.0 if slow else 1.0))
    return cases


# --- surface 2: the State API ----------------------------------------------------

STATE_FAULTS = {
    # method: faults
    "new_initial_state": ["raise", "interrupt", "none", "wrongtype"],
    "current_player": ["raise", "interrupt", "wrongtype", "none", "outofrange", "minus2"],
    "legal_actions": ["raise", "interrupt", "wrongtype", "none", "empty", "floats"],
    "apply_action": ["raise", "interrupt"],
    "is_terminal": ["raise", "interrupt", "wrongtype"],
    "returns": ["raise", "interrupt", "wrongtype", "none", "badlen", "nanlist", "inflist"],
    "chance_outcomes": ["raise", "interrupt", "wrongtype", "none", "empty", "zero", "negative", "overflow",
                        "nanprob"],
    "clone": ["raise", "interrupt", "wrongtype", "none", "self", "selfall", "shared", "sharedall", "slow"],
    "heuristic_value": ["raise", "interrupt", "wrongtype", "none", "nan", "bool"],
    "resample_from_infostate": ["raise", "interrupt", "wrongtype", "none", "self", "finished", "otherseat"],
}
QUICK_STATE = {
    "current_player": ["raise", "outofrange"],
    "legal_actions": ["empty", "interrupt"],
    "returns": ["badlen", "nanlist"],
    "chance_outcomes": ["zero", "overflow"],
    "clone": ["self", "sharedall", "shared", "raise", "slow"],
    "heuristic_value": ["nan", "wrongtype", "none", "interrupt"],
    "resample_from_infostate": ["none", "finished", "otherseat"],
}
STATE_SPEC = {"heuristic_value": "osla", "resample_from_infostate": "ismcts(iterations=20)"}


# What names a method loosely, where the message does not give it by its name: the
# part of a game it is about.
LOOSE_NAMES = {"resample_from_infostate": r"\bresampl", "chance_outcomes": r"chance node|\boutcomes\b",
               "new_initial_state": r"initial state", "heuristic_value": r"\bheuristic\b"}


def method_named(method: str, message: str) -> bool:
    m = re.escape(method)
    if re.search(r"%s\s*\(|`%s`|'%s'|\.%s\b" % (m, m, m, m), message):
        return True
    return method in LOOSE_NAMES and re.search(LOOSE_NAMES[method], message) is not None


def judge_state(case: Case, res: Result) -> Tuple[str, str]:
    c = common(case, res)
    if c:
        return c
    line = next((ln for ln in reversed(res.text.splitlines()) if ln.startswith("PROBE-RESULT ")), None)
    if line is None:
        return "WRONG", "no result (exit code %s): %s" % (res.rc, tail(res.text, 300))
    got = json.loads(line[len("PROBE-RESULT "):])
    outcome, message = got["outcome"], got.get("message", "")
    method, fault, mode, expect = (case.data[k] for k in ("method", "fault", "mode", "expect"))
    if expect == "ok":
        if outcome == "ok":
            return "ok", "played"
        return "WRONG", "a healthy game failed: %s %s" % (outcome, message[:300])
    if outcome == "wrong":
        return "WRONG", message[:300]
    if outcome == "ok":
        if reached(case):
            return "WRONG", "no error: the fault was reached and accepted silently"
        return "unreached", "no error, the fault never reached"
    if expect == "interrupt":
        if outcome == "KeyboardInterrupt":
            return "ok", "KeyboardInterrupt raised again"
        if mode == "workers" and outcome == "PlaytuneError":
            return "ok", "PlaytuneError (in a worker): " + message[:200]
        return "WRONG", "expected KeyboardInterrupt, got %s %s" % (got.get("type", outcome), message[:300])
    if outcome != "PlaytuneError":
        return "WRONG", "expected a PlaytuneError, got %s: %s" % (got.get("type", outcome), message[:300])
    if expect == "timeout":
        if re.search(r"time ?out|timed out|within", message):
            return "ok", message[:200]
        return "WRONG", "the error does not name the timeout: " + message[:300]
    if not method_named(method, message):
        return "WRONG", "the error does not name %s(): %s" % (method, message[:300])
    return "ok", message[:200]


def state_cases(args, work: str) -> List[Case]:
    driver = os.path.join(work, "state_driver.py")
    with open(driver, "w") as f:
        f.write(STATE_DRIVER)
    faults = QUICK_STATE if args.quick else STATE_FAULTS
    modes = ["bot", "inproc"] if args.quick else ["bot", "inproc", "workers"]
    plan = [(m, f) for m, fs in faults.items() for f in fs] + [("none", "none")]
    cases = []
    for method, fault in plan:
        for mode in modes:
            if mode == "bot" and method in ("new_initial_state", "chance_outcomes"):
                continue  # a bot's step from a player's turn asks neither
            if mode == "bot" and fault == "slow":
                continue  # a bot's step has no timeout
            name = "%s-%s-%s" % (method, fault, mode)
            cdir = os.path.join(work, "state", name)
            os.makedirs(cdir, exist_ok=True)
            mark = os.path.join(cdir, "reached")
            start = 2  # new_initial_state's: register_game asks for one initial state
            params = {"method": method, "fault": fault, "from": start, "mark": mark,
                      "name": "fault-" + re.sub(r"[^a-z0-9]+", "-", name.lower())}
            with open(os.path.join(cdir, "params.json"), "w") as f:
                json.dump(params, f)
            with open(os.path.join(cdir, "faultgame.py"), "w") as f:
                f.write(STATE_GAME)
            spec = STATE_SPEC.get(method, "mcts(iterations=20)")
            timeout = 1.0 if fault == "slow" else 10.0
            if fault == "slow":
                spec = "mcts(iterations=100000)"
            expect = "ok" if method == "none" else {"interrupt": "interrupt", "slow": "timeout"}.get(fault, "error")
            cases.append(Case(
                "state-api", name, [args.python, driver, cdir, mode, spec, str(timeout)], cdir,
                # a game process's first match has register_game's timeout and 10 s to start
                args.limit + (25 if fault == "slow" and mode == "workers" else 10),
                judge_state, mark=mark, data={"method": method, "fault": fault, "mode": mode, "expect": expect},
                prepare=lambda m=mark: os.path.exists(m) and os.remove(m),
                weight=3.0 if mode == "workers" or fault == "slow" else 1.0))
    return cases


# --- surface 3: the ladder check's inputs -------------------------------------------

CLAIM = re.compile(r"over (\d+) games|\((\d+) games a pair")


def judge_ladder(case: Case, res: Result) -> Tuple[str, str]:
    c = common(case, res)
    if c:
        return c
    expect, text = case.data["expect"], res.text
    ordered = "the ladder is ordered" in text
    if expect == "exit2":
        if res.rc == 2:
            if not text.strip():
                return "WRONG", "exit 2 with no message"
            if case.data.get("match_failed") and "a match failed" not in text:
                return "WRONG", "exit 2 without \"a match failed\": " + first_error_line(text)
            return "ok", first_error_line(text)
        if res.rc == 0:
            return "WRONG", "exit 0: bad input accepted%s" % (" (and a claim made: the ladder is ordered)" if ordered else "")
        return "WRONG", "exit code %s (bad input exits 2): %s" % (res.rc, first_error_line(text))
    if expect == "exit2-or-noclaim":
        if res.rc == 2:
            return "ok", first_error_line(text)
        if res.rc == 0:
            if ordered:
                return "WRONG", "exit 0 claiming the ladder is ordered"
            return "ok", "exit 0, no claim"
        return "WRONG", "exit code %s (bad input exits 2): %s" % (res.rc, first_error_line(text))
    # expect a clean success; any claim made on at least the games asked for.
    if res.rc != 0:
        return "WRONG", "a valid request failed (exit %s): %s" % (res.rc, first_error_line(text))
    games = [int(a or b) for a, b in CLAIM.findall(text)]
    need = case.data.get("games")
    if need:
        if not games:
            return "WRONG", "exit 0 with no step measured"
        if min(games) < need:
            return "WRONG", "a claim on %d games, fewer than the %d asked for" % (min(games), need)
    return "ok", "exit 0" + (", steps over %s games" % sorted(set(games)) if games else "")


def tictactoe_game() -> str:
    """The docs' tic-tac-toe as `--game` takes it: the JavaScript one where node is
    installed, else the Python one (the same rules), so that the probe runs on a
    machine without node."""
    if shutil.which("node"):
        return os.path.join(ROOT, "examples", "tictactoe", "tictactoe.ron")
    return os.path.join(ROOT, "examples", "tictactoe", "tictactoe.py") + ":GAME"


def ladder_cases(args, work: str, protocol_game: str) -> List[Case]:
    P = args.playtune
    ttt = tictactoe_game()
    ldir = os.path.join(work, "ladder")
    os.makedirs(ldir, exist_ok=True)
    hidden_py = os.path.join(ldir, "hidden_no_resampler.py")
    with open(hidden_py, "w") as f:
        f.write(HIDDEN_NO_RESAMPLER % os.path.join(ROOT, "examples", "tictactoe"))
    ron_dir = os.path.join(ldir, "games")
    os.makedirs(ron_dir, exist_ok=True)

    def protocol_ron(name, op, fault, start, hidden, resample=True):
        command = "%s %s %s %s %d %s %d %d" % (
            shlex.quote(args.python), shlex.quote(protocol_game), op, fault, start,
            shlex.quote(os.path.join(ron_dir, name + ".reached")), hidden, PROTOCOL_TIMEOUT)
        path = os.path.join(ron_dir, name + ".ron")
        with open(path, "w") as f:
            f.write("(\n    name: %s,\n    about: \"probe\",\n    command: %s,\n    players: 2,\n"
                    "    forward_model: true,\n    hidden: %s,\n    resample: %s,\n    timeout: %d,\n    startup: 1,\n)\n"
                    % (json.dumps(name), json.dumps(command), "true" if hidden else "false",
                       "true" if resample else "false", PROTOCOL_TIMEOUT))
        return path

    hidden_nores = protocol_ron("hidden-no-resample", "none", "none", 1, True, resample=False)
    fails_some = protocol_ron("fails-a-third-of-its-matches", "new", "errorseed", 1, False)

    rows = []  # (name, argv, expect, extra)
    check = [P, "check-ladder", "--game", ttt, "--ladder", "random,osla"]
    for g in ["0", "1", "9", "1000001", "18446744073709551615", "18446744073709551616", "1e11",
              "100000000000", "-1", "1.5", "", "abc"]:
        rows.append(("check-ladder --games %s" % (g or "''"), check + ["--games", g], "exit2", {}))
    rows.append(("check-ladder --games 10", check + ["--games", "10"], "claim", {"games": 10}))
    rows.append(("check-ladder --games 12 3 rungs", [P, "check-ladder", "--game", ttt, "--ladder",
                                                     "random,osla,mcts(iterations=16)", "--games", "12"],
                 "claim", {"games": 12}))
    for ladder, expect in [("random,random", "exit2-or-noclaim"), ("random,osla,osla", "exit2-or-noclaim"),
                           ("random", "exit2-or-noclaim"), ("", "exit2"), (",", "exit2"),
                           ("random,,osla", "exit2"), ("random,nosuchbot", "exit2"), ("nosuchbot,osla", "exit2"),
                           ("random,mcts(iterations=)", "exit2"), ("random,mcts(iterations=-5)", "exit2"),
                           ("random,mcts(iterations=1e30)", "exit2"), ("random,mcts(nosuch=1)", "exit2"),
                           ("random,mcts(iterations=20", "exit2"), ("random,mcts(iterations=0)", "exit2")]:
        rows.append(("check-ladder --ladder %r" % ladder,
                     [P, "check-ladder", "--game", ttt, "--ladder", ladder, "--games", "10"], expect, {}))
    for s in ["n=99", "nosuch=1", "n=abc", "n="]:
        rows.append(("check-ladder --set %s" % s, check + ["--games", "10", "--set", s], "exit2", {}))
    for s in ["-1", "18446744073709551616", "x"]:
        rows.append(("check-ladder --seed %s" % s, check + ["--games", "10", "--seed", s], "exit2", {}))
    rows.append(("check-ladder --game missing.ron", [P, "check-ladder", "--game", os.path.join(ldir, "missing.ron"),
                                                     "--ladder", "random,osla", "--games", "10"], "exit2", {}))
    rows.append(("check-ladder hidden protocol game, resample: false",
                 [P, "check-ladder", "--game", hidden_nores, "--ladder", "random,osla", "--games", "10"], "exit2", {}))
    rows.append(("check-ladder hidden Python game, no resampler",
                 [P, "check-ladder", "--game", hidden_py + ":GAME", "--ladder", "random,mcts(iterations=16)",
                  "--games", "10"], "exit2", {}))
    rows.append(("check-ladder, a third of the matches fail",
                 [P, "check-ladder", "--game", fails_some, "--ladder", "random,osla", "--games", "10"], "exit2",
                 {"match_failed": True}))
    tour = [P, "tournament", "--game", ttt, "--agents", "random,random"]
    for g in ["0", "-1", "18446744073709551615", "18446744073709551616", "1e11", "100000000000"]:
        rows.append(("tournament --games %s" % g, tour + ["--games", g], "exit2", {}))
    rows.append(("tournament hidden protocol game, resample: false, osla",
                 [P, "tournament", "--game", hidden_nores, "--agents", "random,osla", "--games", "2"], "exit2", {}))
    runs = os.path.join(ldir, "runs")
    for i, g in enumerate(["18446744073709551615", "18446744073709551616", "1e11", "100000000000", "0", "9", "-1",
                           "10"]):
        argv = [P, "optimize", "--problem", "design", "--set", "game=" + ttt, "--set", "ladder=random,osla",
                "--set", "games=2", "--budget", "2", "--verdict", "0", "--ladder-check", "warn",
                "--ladder-check-games", g, "--runs-dir", runs, "--name", "lcg-%d" % i]
        rows.append(("optimize design --ladder-check-games %s" % g, argv, "claim" if g == "10" else "exit2",
                     {"games": 10} if g == "10" else {}))
    if args.quick:
        keep = {"check-ladder --games 0", "check-ladder --games 9", "check-ladder --games 18446744073709551615",
                "check-ladder --games 1e11", "check-ladder --games 10", "check-ladder --ladder 'random,random'",
                "check-ladder --ladder ''", "check-ladder --ladder 'random,nosuchbot'",
                "check-ladder hidden protocol game, resample: false", "check-ladder, a third of the matches fail",
                "tournament --games 18446744073709551615", "tournament --games 100000000000",
                "optimize design --ladder-check-games 18446744073709551615",
                "optimize design --ladder-check-games 10"}
        rows = [r for r in rows if r[0] in keep]
    cases = []
    for name, argv, expect, extra in rows:
        cases.append(Case("ladder", name, argv, ldir, args.limit, judge_ladder,
                          data=dict({"expect": expect}, **extra), weight=2.0))
    return cases


# --- surface 4: run files that are not plain files -------------------------------------

RUN_FILES = ["config.ron", "evals.csv", "result.ron", "verdict.jsonl", "failures.jsonl", "asked.jsonl",
             ".playtune.lock"]
KINDS = ["fifo", "devzero", "urandom", "dir", "sparse5g", "dangling"]
COMMANDS = ["status", "report", "plot", "compare"]


def command_argv(P: str, cmd: str, intact: str) -> List[str]:
    if cmd == "status":
        return [P, "status", "r"]
    if cmd == "report":
        return [P, "report", "r"]
    if cmd == "plot":
        return [P, "plot", "r", "--out", "plots"]
    return [P, "compare", "r", intact]


def artifacts(cdir: str, cmd: str) -> str:
    """A digest of what the command wrote: the page, the pictures."""
    paths = []
    if cmd == "report":
        paths = [os.path.join(cdir, "r", "report.html")]
    elif cmd == "plot" and os.path.isdir(os.path.join(cdir, "plots")):
        paths = sorted(os.path.join(cdir, "plots", n) for n in os.listdir(os.path.join(cdir, "plots")))
    h = hashlib.sha256()
    for p in paths:
        if os.path.isfile(p) and not os.path.islink(p):
            with open(p, "rb") as f:
                h.update(os.path.relpath(p, cdir).encode() + b"\0" + f.read())
    return h.hexdigest()


def judge_runfile(case: Case, res: Result) -> Tuple[str, str]:
    c = common(case, res)
    if c:
        return c
    text, file = res.text, case.data["file"]
    if res.rc == 2:
        return "ok", first_error_line(text)
    if res.rc == 0:
        base = case.data["baseline"]
        same = text.strip() == base["text"].strip() and artifacts(case.cwd, case.data["cmd"]) == base["artifacts"]
        if same:
            return "ok", "exit 0, output as from the intact run (the file is not read)"
        if file in text:
            return "ok", "exit 0, the file named: " + next(ln for ln in text.splitlines() if file in ln)[:200]
        page = os.path.join(case.cwd, "r", "report.html")
        if case.data["cmd"] == "report" and os.path.isfile(page):
            with open(page, "rb") as f:
                if file.encode() in f.read():
                    return "ok", "exit 0, the file named in the page"
        return "WRONG", "exit 0, output unlike the intact run's, the file not named: " + tail(text, 300)
    return "WRONG", "exit code %s (bad input exits 2): %s" % (res.rc, first_error_line(text))


def make_base_run(args, work: str) -> str:
    rdir = os.path.join(work, "runfiles")
    os.makedirs(rdir, exist_ok=True)
    ttt = tictactoe_game()
    argv = [args.playtune, "optimize", "--problem", "design", "--set", "game=" + ttt, "--set",
            "ladder=random,osla", "--set", "games=2", "--budget", "2", "--verdict", "2", "--ladder-check", "off",
            "--runs-dir", rdir, "--name", "base"]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120, env=base_env(args))
    if p.returncode != 0:
        raise SystemExit("could not make the base run: %s\n%s" % (" ".join(argv), p.stdout.decode()[-2000:]))
    base = os.path.join(rdir, "base")
    # A failures.jsonl and asked.jsonl of the documented shapes, so that each file
    # a reader may open is there to be replaced.
    with open(os.path.join(base, "failures.jsonl"), "w") as f:
        f.write('{"trial":0,"index":1,"phase":"search","seed":1,"values":[3.0,3.0],"point":{"n":"3","k":"3"},'
                '"reason":"probe","attempts":1}\n')
    return base


def runfile_cases(args, work: str) -> List[Case]:
    base = make_base_run(args, work)
    rdir = os.path.dirname(base)
    intact = os.path.join(rdir, "intact")
    shutil.copytree(base, intact, symlinks=True)
    files, kinds, commands = RUN_FILES, KINDS, COMMANDS
    if args.quick:
        files, kinds, commands = RUN_FILES[:4], ["fifo", "devzero", "dir", "sparse5g"], ["status", "report"]
    # What each command says of the intact run: the reference for "unaffected".
    baselines = {}
    for cmd in commands:
        cdir = os.path.join(rdir, "baseline-" + cmd)
        shutil.copytree(base, os.path.join(cdir, "r"), symlinks=True)
        case = Case("run-files", "baseline", command_argv(args.playtune, cmd, intact), cdir, args.limit,
                    judge_runfile, env=base_env(args), address_space=RUN_FILES_AS)
        res = execute(case, 0, cdir)
        if res.rc != 0:
            raise SystemExit("`%s` fails on the intact run: %s" % (" ".join(case.argv), tail(res.text)))
        baselines[cmd] = {"text": res.text, "artifacts": artifacts(cdir, cmd)}
    cases = []
    for file in files:
        for kind in kinds:
            for cmd in commands:
                name = "%s-%s-%s" % (file.lstrip("."), kind, cmd)
                cdir = os.path.join(rdir, "cases", name)

                def prepare(cdir=cdir, file=file, kind=kind):
                    if os.path.exists(cdir):
                        shutil.rmtree(cdir)
                    run = os.path.join(cdir, "r")
                    shutil.copytree(base, run, symlinks=True)
                    path = os.path.join(run, file)
                    if os.path.lexists(path):
                        os.remove(path)
                    if kind == "fifo":
                        os.mkfifo(path)
                    elif kind == "devzero":
                        os.symlink("/dev/zero", path)
                    elif kind == "urandom":
                        os.symlink("/dev/urandom", path)
                    elif kind == "dir":
                        os.mkdir(path)
                    elif kind == "dangling":
                        os.symlink(os.path.join(cdir, "nowhere", file), path)
                    elif kind == "sparse5g":
                        with open(path, "wb") as f:
                            f.truncate(5 << 30)

                cases.append(Case("run-files", name, command_argv(args.playtune, cmd, intact), cdir, args.limit,
                                  judge_runfile, address_space=RUN_FILES_AS, prepare=prepare,
                                  data={"file": file, "kind": kind, "cmd": cmd, "baseline": baselines[cmd]},
                                  weight=3.0 if kind in ("fifo", "devzero", "urandom", "sparse5g") else 0.5))
    return cases


# ---------------------------------------------------------------------------------


def base_env(args) -> Dict[str, str]:
    env = dict(os.environ)
    env["PLAYTUNE_PYTHON"] = args.python
    env["PLAYTUNE_CACHE"] = os.path.join(args.work, "cache")
    env.pop("RUST_BACKTRACE", None)
    return env


CLASSES = ["ok", "unreached", "PANIC", "HANG", "WRONG"]
SURFACES = ["protocol", "state-api", "ladder", "run-files"]


def main() -> int:
    global MAX_RSS_KB
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--playtune", default=os.path.join(ROOT, "target", "release", "playtune"),
                    help="the playtune binary (default: target/release/playtune)")
    ap.add_argument("--python", default=sys.executable,
                    help="the interpreter with the playtune wheel, for the state-api cases, the game processes "
                         "and PLAYTUNE_PYTHON (default: this one)")
    ap.add_argument("--quick", action="store_true", help="a smaller set, for CI (under ~3 minutes on 2 cores)")
    ap.add_argument("--jobs", type=int, default=2, help="cases at once (default 2)")
    ap.add_argument("--limit", type=float, default=20.0, help="seconds a case may take before it is a HANG (default 20; "
                                                              "the state-api cases get 10 more)")
    ap.add_argument("--max-rss-mib", type=int, default=MAX_RSS_KB >> 10,
                    help="playtune's peak memory above which a case is a read without bound (default %(default)s)")
    ap.add_argument("--surface", action="append", choices=SURFACES, help="only these surfaces (repeatable)")
    ap.add_argument("--only", help="only cases whose name matches this regular expression")
    ap.add_argument("--out", help="write a JSON summary here")
    ap.add_argument("--work", default="/tmp/probe-faults/run", help="scratch folder, emptied first "
                                                                    "(default /tmp/probe-faults/run)")
    args = ap.parse_args()
    MAX_RSS_KB = args.max_rss_mib << 10
    args.playtune = os.path.abspath(args.playtune)
    args.work = os.path.abspath(args.work)
    if not os.access(args.playtune, os.X_OK):
        ap.error("no playtune binary at %s" % args.playtune)
    if args.jobs < 1:
        ap.error("--jobs: at least 1")
    marker = os.path.join(args.work, ".probe-faults")
    if os.path.isdir(args.work) and os.listdir(args.work):
        if not os.path.exists(marker):
            ap.error("--work %s: a folder not made by this probe; give an empty or new one" % args.work)
        shutil.rmtree(args.work)
    os.makedirs(args.work, exist_ok=True)
    open(marker, "w").close()
    surfaces = args.surface or SURFACES
    started = time.monotonic()
    # Which build was probed: another build may replace the binary between two runs.
    h = hashlib.sha256()
    with open(args.playtune, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    build = {"path": args.playtune, "sha256": h.hexdigest()[:16],
             "modified": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(args.playtune)))}

    cases: List[Case] = []
    game_py = os.path.join(args.work, "fault_game.py")
    with open(game_py, "w") as f:
        f.write(FAULT_GAME)
    if "protocol" in surfaces:
        cases += protocol_cases(args, args.work)
    if "state-api" in surfaces:
        cases += state_cases(args, args.work)
    if "ladder" in surfaces:
        cases += ladder_cases(args, args.work, game_py)
    if "run-files" in surfaces:
        cases += runfile_cases(args, args.work)
    names = [(c.surface, c.name) for c in cases]
    assert len(set(names)) == len(names), "two cases of one name"
    if args.only:
        cases = [c for c in cases if re.search(args.only, c.name)]
    env = base_env(args)
    for c in cases:
        c.env = dict(env, **c.env)
    order = sorted(range(len(cases)), key=lambda i: -cases[i].weight)
    print("probe-faults: %d cases over %s, %d at once, %.0f s a case at most; playtune %s (sha256 %s, built %s)"
          % (len(cases), ", ".join(surfaces), args.jobs, args.limit, build["path"], build["sha256"],
             build["modified"]), file=sys.stderr)

    outcomes: Dict[int, dict] = {}
    lock = threading.Lock()
    done = [0]

    def run_one(i: int) -> None:
        case = cases[i]
        outdir = os.path.join(args.work, "out", case.surface,
                              "%04d-%s" % (i, re.sub(r"[^A-Za-z0-9.=-]+", "_", case.name)))
        try:
            res = execute(case, i + 1, outdir)
            cls, detail = case.judge(case, res)
        except Exception as e:  # noqa: BLE001 - a bug of the probe is reported as one
            res, cls, detail = Result(), "WRONG", "the probe itself failed: %s: %s" % (type(e).__name__, e)
        record = {"surface": case.surface, "name": case.name, "class": cls, "detail": detail, "rc": res.rc,
                  "wall_s": round(res.wall, 2), "peak_rss_mib": res.maxrss_kb >> 10,
                  "command": " ".join(shlex.quote(a) for a in case.argv)}
        if res.lingering:
            record["lingering"] = res.lingering
        if cls not in ("ok", "unreached"):
            record["output_tail"] = tail(res.text, 2000)
        with lock:
            outcomes[i] = record
            done[0] += 1
            if cls not in ("ok", "unreached") or done[0] % 25 == 0:
                print("  [%d/%d %.0f s] %s %s: %s%s" % (done[0], len(cases), time.monotonic() - started,
                                                      case.surface, case.name, cls,
                                                      "" if cls in ("ok", "unreached") else " - " + detail[:160]),
                      file=sys.stderr, flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(run_one, order))

    records = [outcomes[i] for i in range(len(cases))]
    counts = {s: {c: 0 for c in CLASSES} for s in surfaces}
    for r in records:
        counts[r["surface"]][r["class"]] += 1
    bad = [r for r in records if r["class"] not in ("ok", "unreached")]
    lingering = [r for r in records if r.get("lingering")]
    heavy = [r for r in records if r["peak_rss_mib"] << 10 > NOTE_RSS_KB and r["class"] in ("ok", "unreached")]
    elapsed = time.monotonic() - started

    width = max(len(s) for s in surfaces + ["total"])
    print()
    print("%-*s %7s %9s %6s %6s %6s %6s" % (width, "surface", "ok", "unreached", "PANIC", "HANG", "WRONG", "cases"))
    totals = {c: 0 for c in CLASSES}
    for s in surfaces:
        row = counts[s]
        for c in CLASSES:
            totals[c] += row[c]
        print("%-*s %7d %9d %6d %6d %6d %6d" % (width, s, row["ok"], row["unreached"], row["PANIC"], row["HANG"],
                                                 row["WRONG"], sum(row.values())))
    print("%-*s %7d %9d %6d %6d %6d %6d" % (width, "total", totals["ok"], totals["unreached"], totals["PANIC"],
                                             totals["HANG"], totals["WRONG"], sum(totals.values())))
    print("%.0f s, %d at once%s; playtune sha256 %s, built %s" % (elapsed, args.jobs, ", --quick" if args.quick else "",
                                                                  build["sha256"], build["modified"]))
    if lingering:
        print("\nprocesses left running after the case ended (killed by the probe): %d case(s)" % len(lingering))
        for r in lingering[:20]:
            print("  %s %s: %s" % (r["surface"], r["name"], "; ".join(r["lingering"])[:300]))
    if heavy:
        print("\nnote: %d case(s) ok but heavy (peak memory over %d MiB, under the %d MiB taken as without bound):"
              % (len(heavy), NOTE_RSS_KB >> 10, MAX_RSS_KB >> 10))
        for r in heavy:
            print("  %s %s: %d MiB in %.1f s: %s" % (r["surface"], r["name"], r["peak_rss_mib"], r["wall_s"],
                                                    r["detail"][:160]))
    if bad:
        print("\nnot ok: %d case(s)" % len(bad))
        for r in bad:
            print("\n%s %s %s: %s" % (r["class"], r["surface"], r["name"], r["detail"]))
            print("  $ " + r["command"][:400])
            for ln in tail(r.get("output_tail", ""), 800).splitlines()[-8:]:
                print("  | " + ln[:300])
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            json.dump({"playtune": build, "python": args.python, "argv": sys.argv, "quick": args.quick, "jobs": args.jobs,
                       "limit_s": args.limit, "elapsed_s": round(elapsed, 1), "counts": counts, "totals": totals,
                       "not_ok": len(bad), "cases": records}, f, indent=1)
        print("\nsummary: %s" % args.out)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
