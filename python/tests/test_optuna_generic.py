"""Optuna's own generic sampler tests (``optuna.testing.pytest_samplers``, shipped with
the installed Optuna, so at its version), run on the NTBEA sampler as Optuna runs them
on TPE and CMA-ES: the basic, relative and single-objective cases."""
import pytest

pytest_samplers = pytest.importorskip("optuna.testing.pytest_samplers")

from playtune.optuna import NtbeaSampler  # noqa: E402


class TestNtbeaSampler(
    pytest_samplers.BasicSamplerTestCase,
    pytest_samplers.RelativeSamplerTestCase,
    pytest_samplers.SingleOnlySamplerTestCase,
):
    @pytest.fixture
    def sampler(self):
        return lambda: NtbeaSampler(seed=0)
