"""Analysis of a run's Parquet tables (polars, lazy). Never imports the engine."""
