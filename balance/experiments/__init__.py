"""The experiments: questions answered by playing runs (balance/runner.py) on
the same seeds under several variants and comparing a metric with its
interval. compare (baseline against each variant), strength (one item given
to one seat), sweep (one path over values), strong (the tuned field and its
skill ladder), tune (a bot profile searched for its win rate) and fit
(database values searched toward a designer's targets). setup.py declares
what they all take alike (ExperimentOptions: games, seed, jobs, --out,
--force, --resume, backend), opens their output folder and seeds their
held-out confirmation; each reports progress as on_progress(what, done,
total). experiment.py plays paired tasks (loky or Dask) for the searches,
search_state.py keeps a search's state for --resume."""
