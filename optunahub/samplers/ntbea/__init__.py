"""OptunaHub package `samplers/ntbea`: the N-Tuple Bandit Evolutionary Algorithm as an
Optuna sampler, from the `playtune` wheel (its Rust core does the work)."""
from playtune.optuna import NtbeaSampler

__all__ = ["NtbeaSampler"]
