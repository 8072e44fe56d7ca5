"""balance: a Monte Carlo balance lab for racing card games."""

__version__ = "0.1.0"
