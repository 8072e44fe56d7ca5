"""The fair band: an item, seat or draft position within +-FAIR_BAND points of
fair is fair. One default for strength, the report (its verdicts and the fit and
rebalance commands it prints) and rebalance: a report that called too strong
what rebalance had left at its edge answered "did it help" in another measure.
3 points: issue 45's bar, and about the least step of a Horsepower number (a
Drive, a die). Kept apart from the analysis so that the CLI reads it without
importing polars (`balance --help` stays fast)."""

FAIR_BAND = 3.0  # points
