"""`balance fit`: search card and rule values toward a designer's targets (issue 21)."""
