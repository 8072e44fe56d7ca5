"""The report: PNG charts, an HTML page and CSV tables from a run directory.
Reads only the run's Parquet tables and manifest (never the engine)."""
