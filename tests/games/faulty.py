#!/usr/bin/env python3
"""A game for the tests that fails on demand: its `fault` setting picks how a match
goes wrong (tests/external_game.rs)."""
import json
import sys
import time

for line in sys.stdin:
    if not line.strip():
        continue
    req = json.loads(line)
    fault = req["settings"]["fault"]
    seed = req["seed"]
    reply = {"id": req["id"], "scores": [seed % 2, 1 - seed % 2], "winners": [seed % 2 == 0 and 1 or 0],
             "length": 3}
    if fault == "crash":
        sys.stderr.write("Traceback: the rules broke\n")
        sys.exit(3)
    elif fault == "hang":
        time.sleep(60)
    elif fault == "garbage":
        print("the game is over, well played", flush=True)
        continue
    elif fault == "seats":
        reply["scores"] = [1, 0, 0]
    elif fault == "ghost":
        reply["winners"] = [5]
    elif fault == "refuse":
        reply = {"id": req["id"], "error": "no such opening"}
    print(json.dumps(reply), flush=True)
