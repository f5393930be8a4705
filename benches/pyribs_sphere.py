"""pyribs' MAP-Elites on its sphere tutorial domain, timed: the peer that
benches/compare_pyribs.sh measures playtune's MAP-Elites against.

Domain (as playtune's `sphere` problem): a DIM-dimensional sphere shifted by
5.12 * 0.4, objective normalised to [0, 100]; two measures, the sums of the two halves
of the solution with values outside [-5.12, 5.12] replaced by 5.12 / x; a CELLS x CELLS
grid over +-(DIM / 2 * 5.12); one Gaussian emitter (sigma SIGMA, x0 = 0).

Prints one JSON line: evals_per_s (the ask / evaluate / tell loop alone), coverage,
qd_score, best objective.
"""
import argparse
import json
import time

import numpy as np
from ribs.archives import GridArchive
from ribs.emitters import GaussianEmitter
from ribs.schedulers import Scheduler

SHIFT = 5.12 * 0.4


def evaluate(x):
    dim = x.shape[1]
    worst = (-5.12 - SHIFT) ** 2 * dim
    objective = (np.sum((x - SHIFT) ** 2, axis=1) - worst) / (0.0 - worst) * 100.0
    outside = (x < -5.12) | (x > 5.12)
    clipped = np.where(outside, 5.12 / np.where(outside, x, 1.0), x)
    half = dim // 2
    measures = np.stack(
        [clipped[:, :half].sum(axis=1), clipped[:, half:].sum(axis=1)], axis=1
    )
    return objective, measures


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dim", type=int, default=100)
    p.add_argument("--evals", type=int, default=100_000)
    p.add_argument("--batch", type=int, default=36)
    p.add_argument("--sigma", type=float, default=0.5)
    p.add_argument("--cells", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()

    bound = a.dim / 2 * 5.12
    archive = GridArchive(
        solution_dim=a.dim,
        dims=(a.cells, a.cells),
        ranges=[(-bound, bound), (-bound, bound)],
        seed=a.seed,
    )
    emitter = GaussianEmitter(
        archive, sigma=a.sigma, x0=np.zeros(a.dim), batch_size=a.batch, seed=a.seed
    )
    scheduler = Scheduler(archive, [emitter])
    iterations = -(-a.evals // a.batch)
    started = time.perf_counter()
    for _ in range(iterations):
        x = scheduler.ask()
        objective, measures = evaluate(x)
        scheduler.tell(objective, measures)
    seconds = time.perf_counter() - started
    stats = archive.stats
    print(
        json.dumps(
            {
                "evaluations": iterations * a.batch,
                "seconds": seconds,
                "evals_per_s": iterations * a.batch / seconds,
                "coverage": float(stats.coverage),
                "qd_score": float(stats.qd_score),
                "best": float(stats.obj_max),
                "pyribs": __import__("ribs").__version__,
            }
        )
    )


if __name__ == "__main__":
    main()
