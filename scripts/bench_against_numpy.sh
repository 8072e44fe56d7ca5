#!/bin/bash
# One sitting: each game's last numpy lockstep engine (a git worktree of the last commit that had it) against
# the compiled engine of this checkout, the whole round twice (docs/performance.md). Run from the repository
# root on a quiet machine: bash scripts/bench_against_numpy.sh
set -e
ROOT=$(pwd)
PY=$ROOT/.venv/bin/python
for c in ec98421:hp 1c13126:heat 8404040:df 3b9cffb:sgp; do
  sha=${c%%:*}; name=${c##*:}
  [ -d /tmp/w_$name ] || git -C $ROOT worktree add -f /tmp/w_$name $sha >/dev/null 2>&1
done
for pass in 1 2; do
  echo "=== pass $pass: $(date -u +%H:%M:%S)"
  echo "--- Horsepower numpy (ec98421)"; (cd /tmp/w_hp && PYTHONPATH=/tmp/w_hp $PY scripts/bench.py --games 4096 --batches 1,256,4096 | tail -5)
  echo "--- Horsepower compiled (HEAD)"; (cd $ROOT && $PY scripts/bench.py --games 4096 --batches 1,256,4096 | tail -5)
  echo "--- Heat numpy (1c13126)"; for b in 1:200 256:4096 4096:8192; do (cd /tmp/w_heat && PYTHONPATH=/tmp/w_heat $PY scripts/bench_heat.py --batch ${b%%:*} --races ${b##*:} | tail -2); done
  echo "--- Heat compiled (HEAD)"; (cd $ROOT && $PY scripts/bench_heat.py --batches 1,256,4096 --races 8192 | tail -7)
  echo "--- Downforce numpy (8404040)"; (cd /tmp/w_df && PYTHONPATH=/tmp/w_df $PY scripts/bench_games.py downforce --engine numpy --batches 1,256,4096 --games 8192 --seconds 15 | tail -6)
  echo "--- Downforce compiled (HEAD)"; (cd $ROOT && $PY scripts/bench_games.py downforce --batches 1,256,4096 --games 16384 | tail -6)
  echo "--- Shuffle GP numpy (3b9cffb)"; (cd /tmp/w_sgp && PYTHONPATH=/tmp/w_sgp $PY scripts/bench_games.py shuffle_gp --engine numpy --batches 1,256,4096 --games 8192 --seconds 15 | tail -6)
  echo "--- Shuffle GP compiled (HEAD)"; (cd $ROOT && $PY scripts/bench_games.py shuffle_gp --batches 1,256,4096 --games 16384 | tail -6)
done
