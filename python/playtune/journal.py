"""Export a run folder to Optuna's journal storage (JSON lines), so that
optuna-dashboard and Optuna's plotting functions read it::

    playtune.journal.export_journal("runs/noisy-onemax-ntbea-s0", "run.journal")
    storage = optuna.storages.JournalStorage(
        optuna.storages.journal.JournalFileBackend("run.journal"))
    study = optuna.load_study(study_name="noisy-onemax-ntbea-s0", storage=storage)

Every evaluation of ``evals.csv`` becomes a COMPLETE trial (its fitness the value, the
study maximising), every failure of ``failures.jsonl`` a FAIL trial; the trial, index,
phase, seed and features of each go in its user attributes. Dimensions map onto
distributions: an int onto ``IntDistribution`` (with its step), a float onto
``FloatDistribution``, a list, categories or bool onto ``CategoricalDistribution``; a
dimension the run fixes onto the one value it has.
Writing needs no Optuna; the file is written whole (a temporary file renamed).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import uuid
import warnings
from typing import Any, Dict, List, Optional, Union

from . import _playtune
from ._playtune import Space

__all__ = ["export_journal", "distributions"]

# Optuna's journal operation codes, trial states and study directions (stable since
# the journal storage appeared in Optuna 3.1).
_CREATE_STUDY = 0
_SET_STUDY_USER_ATTR = 2
_CREATE_TRIAL = 4
_COMPLETE = 1
_FAIL = 3
_MAXIMIZE = 2


def _choices(d: Dict[str, Any]) -> List[Any]:
    """A categorical dimension's choices: its one value where the run fixes it."""
    return [d["default"]] if d["fixed"] else list(d["values"])


def _dist(d: Dict[str, Any]) -> Dict[str, Any]:
    # A fixed dimension (`players` under `game_settings=players=2`) is the one value
    # every trial has: Optuna's importance and plots then leave it out, as the search
    # did.
    kind = d["kind"]
    if kind == "int":
        low, high = (d["default"], d["default"]) if d["fixed"] else (d["min"], d["max"])
        return {"name": "IntDistribution", "attributes": {"log": False, "step": int(d["step"]), "low": int(low), "high": int(high)}}
    if kind == "float":
        low, high = (d["default"], d["default"]) if d["fixed"] else (d["min"], d["max"])
        return {"name": "FloatDistribution", "attributes": {"step": None, "low": float(low), "high": float(high), "log": False}}
    return {"name": "CategoricalDistribution", "attributes": {"choices": _choices(d)}}


def distributions(space: Space) -> Dict[str, Dict[str, Any]]:
    """Each dimension's Optuna distribution, as Optuna's ``distribution_to_json``
    writes it (a dict: ``name`` and ``attributes``)."""
    return {d["name"]: _dist(d) for d in space.dims()}


def _internal(d: Dict[str, Any], value: Any) -> Any:
    """A value as Optuna's journal stores it: categorical by index."""
    if d["kind"] in ("int",):
        return int(value)
    if d["kind"] == "float":
        return float(value)
    return _choices(d).index(value)


def export_journal(
    run_dir: Union[str, os.PathLike],
    out: Union[str, os.PathLike],
    study_name: Optional[str] = None,
) -> str:
    """Writes run ``run_dir``'s evaluations to ``out`` in Optuna's journal format, as
    one study named ``study_name`` (default: the folder's name). Returns the study name.

    The folder is only read, as ``playtune report`` reads it: no lock is taken (a run
    in progress exports what it has logged so far) and a read-only copy will do. The
    logs are checked as every reader checks them; a damaged line of ``evals.csv`` or
    ``failures.jsonl`` is left out and named, by file and line, in a warning."""
    run_dir = os.fspath(run_dir)
    read = _playtune.RunFolder.read(run_dir, "not exported")
    for warning in read["warnings"]:
        warnings.warn(warning, stacklevel=2)
    space: Space = read["space"]
    config = read["config"]
    rows: List[Dict[str, Any]] = read["rows"]
    failures: List[Dict[str, Any]] = read["failures"]
    dims = {d["name"]: d for d in space.dims()}
    dists = {n: json.dumps(_dist(d)) for n, d in dims.items()}
    stamp = _dt.datetime.fromtimestamp(
        os.path.getmtime(os.path.join(run_dir, "config.ron")), tz=_dt.timezone.utc
    ).isoformat(timespec="microseconds")
    worker = f"playtune-{uuid.uuid4()}"
    name = study_name or os.path.basename(os.path.normpath(run_dir))
    logs: List[Dict[str, Any]] = [
        {"op_code": _CREATE_STUDY, "worker_id": worker, "study_name": name, "directions": [_MAXIMIZE]},
        {"op_code": _SET_STUDY_USER_ATTR, "worker_id": worker, "study_id": 0,
         "user_attr": {"playtune_run": {"problem": config["problem"], "algorithm": config["algorithm"],
                                        "budget": config["budget"], "trials": config["trials"], "seed": config["seed"]}}},
    ]
    # Failures superseded by a logged row (a retry that succeeded) are left out already.
    entries = [(r["trial"], r["index"], r) for r in rows + failures]
    entries.sort(key=lambda e: (e[0], e[1]))
    for trial, index, r in entries:
        failed = "reason" in r
        point = r["point"]
        attrs = {"playtune_trial": trial, "playtune_index": index, "phase": r["phase"], "seed": r["seed"]}
        if failed:
            attrs["failure"] = r["reason"]
        else:
            attrs.update({f"feature_{k}": v for k, v in r["features"].items()})
        logs.append({
            "op_code": _CREATE_TRIAL,
            "worker_id": worker,
            "study_id": 0,
            "datetime_start": stamp,
            "datetime_complete": stamp,
            "state": _FAIL if failed else _COMPLETE,
            "value": None if failed else r["fitness"],
            "values": None,
            "distributions": dists,
            "params": {n: _internal(dims[n], v) for n, v in point.items()},
            "user_attrs": attrs,
            "system_attrs": {},
            "intermediate_values": {},
        })
    out = os.fspath(out)
    tmp = f"{out}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            for log in logs:
                f.write(json.dumps(log, separators=(",", ":")) + "\n")
        os.replace(tmp, out)
    except BaseException:
        # A full disk, a rename refused, Ctrl-C: no half-written copy stays behind.
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    return name
