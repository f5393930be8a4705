"""Each optimiser by ask/tell from a Python loop, in memory."""

import numpy as np
import pytest

import playtune

BITS = {"name": "bits", "dims": {f"b{i}": {"bool": True} for i in range(8)}}


def ones(point):
    return float(sum(point.values()))


@pytest.mark.parametrize("algorithm", ["random", "rmhc", "brmhc", "ntbea"])
def test_each_optimiser_finds_all_ones_by_ask_and_tell(algorithm):
    opt = playtune.optimizer(BITS, algorithm, budget=300, seed=7)
    asked = 0
    while True:
        batch = opt.ask()
        if not batch:
            break
        assert opt.ask() == batch, "asking again before telling gives the same batch"
        asked += len(batch)
        opt.tell({c["id"]: ones(c["point"]) for c in batch})
    assert asked == 300
    rec = opt.recommend()
    assert set(rec["point"]) == {f"b{i}" for i in range(8)}
    assert sum(rec["values"]) >= 7
    assert opt.elites() is None


def test_ntbea_settings_reach_the_config_and_are_checked():
    opt = playtune.optimizer(BITS, "ntbea", budget=50, seed=1, k=3.0, tuples="1+2", neighbours=10)
    assert "k: 3.0" in opt.algorithm and "neighbours: 10" in opt.algorithm
    with pytest.raises(playtune.PlaytuneError, match="no setting `kk`"):
        playtune.optimizer(BITS, "ntbea", kk=1)
    with pytest.raises(playtune.PlaytuneError, match="unknown dimension `1\\+9`"):
        playtune.optimizer(BITS, "ntbea", tuples="1+9")
    with pytest.raises(ValueError):  # PlaytuneError is a ValueError
        playtune.optimizer(BITS, "annealing")


def test_settings_are_the_command_lines_names_and_values():
    """The declared settings: the flags' names with `_`, their values as typed."""
    opt = playtune.optimizer(
        BITS, "ntbea", budget=50, seed=1, k_absolute=True, scale="range", recommend="evaluated",
        selection_budget=0,
    )
    for want in ("k_relative: false", "recommend: Evaluated"):
        assert want in opt.algorithm, opt.algorithm
    opt = playtune.optimizer(BITS, "brmhc", budget=50, seed=1, free_preprocessing=True, resample=2)
    assert "free_preprocessing: true" in opt.algorithm and "resample: 2" in opt.algorithm
    with pytest.raises(playtune.PlaytuneError, match="its settings: tuples, k, k_absolute"):
        playtune.optimizer(BITS, "ntbea", k_relative=False)
    with pytest.raises(playtune.PlaytuneError, match="scale.*one of range, sd"):
        playtune.optimizer(BITS, "ntbea", scale="wide")
    with pytest.raises(playtune.PlaytuneError, match="resample: 0"):
        playtune.optimizer(BITS, "rmhc", resample=0)


def test_the_whole_batch_is_told_at_once():
    opt = playtune.optimizer(BITS, "random", budget=10, seed=1, batch=4)
    batch = opt.ask()
    assert len(batch) == 4
    with pytest.raises(playtune.PlaytuneError, match="tell the whole batch"):
        opt.tell({batch[0]["id"]: 1.0})
    with pytest.raises(playtune.PlaytuneError, match="not waiting"):
        opt.tell({99: 1.0})
    with pytest.raises(playtune.PlaytuneError, match="not a finite number"):
        opt.tell({c["id"]: float("nan") for c in batch})
    opt.tell([(c, None if i == 0 else 1.0) for i, c in enumerate(batch)])  # a failure
    assert len(opt.ask()) == 4


def test_map_elites_by_numpy_arrays_as_pyribs_does():
    space = {"name": "plane", "dims": {"x": {"float": [-1.0, 1.0], "levels": 21},
                                       "y": {"float": [-1.0, 1.0], "levels": 21}}}
    opt = playtune.optimizer(space, "map-elites", budget=400, seed=3, features=["fx", "fy"],
                             axes=["fx=-1:1:5", "fy=-1:1:5"], batch=20, emitters=["gaussian", "iso-line"],
                             sigma=0.2)
    while True:
        ids, x = opt.ask_array()
        if len(ids) == 0:
            break
        assert x.shape == (len(ids), 2)
        fitness = -np.sum(x**2, axis=1)
        opt.tell_array(ids, fitness, x)
    elites = opt.elites()
    assert 15 <= len(elites) <= 25
    assert {"cell", "values", "fitness", "point"} <= set(elites[0])
    metrics = opt.metrics()
    assert metrics and metrics[-1]["coverage"] > 0.5


def test_map_elites_cvt_archive():
    opt = playtune.optimizer({"name": "s", "dims": {"x": {"float": [0.0, 1.0]}}}, "map-elites", budget=60,
                             seed=1, features=["f"], axes=["f=0:1:1"], archive="cvt", centroids=10, batch=10)
    assert "Cvt" in opt.algorithm
    opt.optimize(lambda p: (p["x"], [p["x"]]))
    assert opt.elites()


def test_optimize_drives_the_loop_and_counts_exceptions_as_failures():
    calls = []

    def f(point):
        calls.append(point)
        if len(calls) % 10 == 0:
            raise RuntimeError("flaky")
        return ones(point)

    rec = playtune.optimizer(BITS, "ntbea", budget=100, seed=2).optimize(f)
    assert len(calls) == 100 and sum(rec["values"]) >= 6


def test_spaces_from_ron_dicts_and_files():
    s = playtune.space_from_dict({"name": "mixed", "dims": [
        {"name": "n", "int": [1, 9], "step": 2, "default": 5},
        {"name": "c", "categories": ["a", "b"], "default": "b"},
        {"name": "r", "list": [25, 50, 100]},
        {"name": "f", "float": [0.0, 2.0], "levels": 5, "default": 1.0},
        {"name": "on", "bool": True}]})
    assert s.names == ["n", "c", "r", "f", "on"] and len(s) == 5
    assert s.default() == {"n": 5, "c": "b", "r": 25.0, "f": 1.0, "on": False}
    dims = {d["name"]: d for d in s.dims()}
    assert dims["n"]["values"] == [1, 3, 5, 7, 9] and dims["f"]["values"] == [0.0, 0.5, 1.0, 1.5, 2.0]
    assert s.point(s.values({"n": 7, "c": "a", "r": 50, "f": 1.0, "on": True}))["c"] == "a"
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "spaces" / "example_every_kind.ron"
    assert "missile" in playtune.load_space(path).names
    with pytest.raises(playtune.PlaytuneError, match="step"):
        playtune.space_from_dict({"name": "bad", "dims": {"n": {"int": [1, 10], "step": 4}}})
    with pytest.raises(playtune.PlaytuneError, match="<string>:1"):
        playtune.parse_space("(name: oops")


def test_an_in_memory_optimiser_is_held_to_the_space_constraints():
    space = {"name": "capped", "dims": {f"b{i}": {"bool": True} for i in range(8)},
             "constraints": ["load <= 0.5"]}
    opt = playtune.optimizer(space, "ntbea", budget=300, seed=5, features=["load"])
    rec = opt.optimize(lambda p: (sum(p.values()), {"load": sum(p.values()) / 8}))
    assert sum(rec["values"]) == 4
    with pytest.raises(playtune.PlaytuneError, match="load"):
        playtune.optimizer(space, "ntbea", budget=10)


def test_space_dicts_refuse_what_they_used_to_bend():
    with pytest.raises(playtune.PlaytuneError, match="whole numbers"):
        playtune.space_from_dict({"name": "s", "dims": {"n": {"int": [1.5, 4]}}})
    with pytest.raises(playtune.PlaytuneError):
        playtune.space_from_dict({"name": "s", "dims": {"c": {"float": [0.0, 1.0], "levels": 0}}})
