"""balance: a Monte Carlo balance lab for racing card games."""

__version__ = "0.1.0"


def load_run(path):  # noqa: ANN001, ANN201 - re-exported; see balance.logs.load_run
    """A run's tables as polars LazyFrames (games, players, cards); see docs/logs.md."""
    from .logs import load_run as _load_run

    return _load_run(path)
