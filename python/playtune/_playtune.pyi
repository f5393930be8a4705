"""Type stubs of the Rust extension `playtune._playtune` (use the `playtune` package)."""

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

__version__: str

class PlaytuneError(ValueError):
    """An error of playtune, with the message the command line gives."""

class Space:
    """A search space: dimensions with their domains and defaults."""

    @staticmethod
    def from_ron(text: str, file: str = "<string>") -> Space:
        """A space from the text of a space file (RON); `file` names it in errors."""
    @staticmethod
    def load(path: str) -> Space:
        """A space from a space file."""
    @property
    def name(self) -> str: ...
    @property
    def names(self) -> List[str]:
        """The dimensions' names, in the space's order."""
    def dims(self) -> List[Dict[str, Any]]:
        """Every dimension: name, kind (int, float, list, categories, bool), values,
        default, fixed, and min/max/step or min/max/levels."""
    def point(self, values: Union[Sequence[float], Mapping[str, Any]]) -> Dict[str, Any]:
        """Values in the space's order (or a point by name, checked) as a point by name
        (categories by name); a ValueError names a dimension whose value is not its own
        or a name that is none of the space's."""
    def values(self, point: Mapping[str, Any]) -> List[float]:
        """A point by name as values in the space's order."""
    def default(self) -> Dict[str, Any]:
        """The default point, by name."""
    def __len__(self) -> int: ...

class Optimizer:
    """An optimiser driven by ask and tell in memory (use `playtune.optimizer`)."""

    def __init__(
        self,
        space: Space,
        algorithm: str,
        budget: int,
        seed: int,
        features: Sequence[str] = ...,
        axes: Sequence[str] = ...,
    ) -> None: ...
    def ask(self) -> List[Dict[str, Any]]: ...
    def tell(self, results: Mapping[int, Any]) -> None: ...
    def recommend(self) -> Dict[str, Any]: ...
    def elites(self) -> Optional[List[Dict[str, Any]]]: ...
    def metrics(self) -> List[Dict[str, Any]]: ...
    @property
    def algorithm(self) -> str: ...

class RunFolder:
    """An open, locked run folder (use `playtune.Run`)."""

    def __init__(self, dir: str) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def space(self) -> Space: ...
    @property
    def features(self) -> List[str]: ...
    @property
    def attempts(self) -> int: ...
    @property
    def manual(self) -> bool: ...
    def config(self) -> Dict[str, Any]: ...
    @staticmethod
    def read(dir: str, then: str = "left out") -> Dict[str, Any]:
        """Reads a run folder without opening it (no lock, nothing written):
        config, space, features, rows, failures and warnings."""
    def step(self) -> Tuple[str, Any]:
        """("finished", result) or ("waiting", candidates)."""
    def tell(self, results: List[Tuple[Any, ...]]) -> None: ...
    def evaluate_waiting(self) -> int: ...
    def drive_slurm(
        self,
        program: List[str],
        slurm_args: str = "",
        tasks: int = 16,
        poll: float = 10.0,
        progress: bool = False,
        verdict: Optional[int] = None,
        verdict_progress: Optional[Callable[[int], None]] = None,
    ) -> Dict[str, Any]:
        """Drives the run to its end on Slurm, each batch a job array running `program`."""
    def close(self) -> None: ...

def algorithm_ron(name: str, settings: Mapping[str, Any], space: Space, tie_break: Optional[str] = None) -> str: ...
def create_run(
    runs_dir: str,
    name: Optional[str],
    problem: str,
    settings: Mapping[str, str],
    space: Optional[Space],
    algorithm: str,
    budget: int,
    trials: int,
    seed: int,
    retries: int = 2,
    max_failures: float = 0.2,
    log: bool = True,
    space_file: Optional[str] = None,
    race: Optional[float] = None,
    race_baseline: str = "entrant",
    intensify: bool = True,
    ladder_check: str = "warn",
    ladder_check_games: Optional[int] = None,
    quiet: bool = False,
) -> str: ...
def evaluate(
    problem: str,
    point: Mapping[str, Any],
    seed: int = 0,
    settings: Mapping[str, str] = ...,
    space: Optional[Space] = None,
) -> Dict[str, Any]: ...
def agent_spec(problem: str, point: Mapping[str, Any], settings: Mapping[str, str] = ...) -> Optional[str]: ...
def problem_info(
    problem: str, settings: Mapping[str, str] = ..., space: Optional[Space] = None
) -> Tuple[Space, List[str], Optional[str], List[Dict[str, Any]]]: ...
def catalogue() -> Tuple[List[Tuple[str, str]], List[Tuple[str, str]]]:
    """(problems, games), each a list of (name, what it is)."""
def tournament(
    game: str,
    agents: Sequence[str],
    games: int = 10,
    seed: int = 0,
    settings: Sequence[Tuple[str, str]] = ...,
    budget: Optional[int] = None,
) -> Dict[str, Any]: ...
def read_log(dir: str) -> List[Dict[str, Any]]: ...
def register_game(
    description: str,
    file: str,
    play: Callable[[str], str],
    timeout: float = 60.0,
    start: Optional[Callable[[Dict[str, Any]], Tuple[Any, bool, bool]]] = None,
) -> str: ...

def end_games() -> None:
    """Ends every game process started in this interpreter, with its process group."""
def cli(argv: Sequence[str]) -> int:
    """Runs the command line (``argv``, the program's name first) in this process and
    returns its exit status (``python -m playtune``, the ``playtune`` command). It
    installs the command line's handlers of SIGINT, SIGTERM and SIGHUP."""
