"""Where the Horsepower engine's time goes: `perf record` on a batch of
games, each sample of compiled code named by the numba function it falls in.

perf cannot name numba's machine code (it is made in memory, with no symbol
table perf reads), so this script compiles the rules afresh into a cache
folder of its own (numba keeps each library's LLVM module only when it
compiles, not when it loads from the cache), asks numba's JIT where each
function starts, samples its own process with `perf record -p`, and gives
each sample the function whose start is the nearest below it. With
`--calls`, the rules' small helpers (`inline="always"`) are compiled as calls
of their own, so that each is named (slower: a call, and reference counts
across it; the shares move, the places stay).

Usage: python scripts/profile_engine.py [--seconds 20] [--calls] [--top 40]
Needs Linux `perf` (perf_event_paranoid <= 2 lets a process sample itself)
and about three minutes to compile before the clock starts.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of games sampled")
    parser.add_argument("--calls", action="store_true", help="compile the small helpers as calls, each named")
    parser.add_argument("--top", type=int, default=40, help="functions shown")
    args = parser.parse_args()
    if os.environ.get("BALANCE_PROFILE_CHILD") != "1":
        # a fresh process: the cache folder and the switch must be set before numba is imported
        with tempfile.TemporaryDirectory(prefix="balance-profile-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache, BALANCE_PROFILE_CHILD="1", OPENBLAS_NUM_THREADS="1")
            sys.exit(subprocess.call([sys.executable, __file__, *sys.argv[1:]], env=env))
    if args.calls:
        _helpers_as_calls()
    profile(args.seconds, args.top)


def _addresses() -> list[tuple[int, str]]:
    """(start address, name) of every function numba compiled in this process."""
    import numba

    out, seen = [], set()
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("balance.games"):
            continue
        for value in vars(module).values():
            if not isinstance(value, numba.core.registry.CPUDispatcher):
                continue
            for compiled in value.overloads.values():
                library = compiled.library
                final = getattr(library, "_final_module", None)
                if final is None:
                    continue
                for fn in final.functions:
                    if fn.is_declaration or fn.name in seen:
                        continue
                    seen.add(fn.name)
                    address = library._codegen._engine.get_function_address(fn.name)
                    if address:
                        out.append((address, fn.name))
    return sorted(out)


def _readable(symbol: str) -> str:
    """numba's mangled name (_ZN7balance5games10horsepower8compiled5rules8play_oneB4v...) as
    horsepower.compiled.rules.play_one; a name that is not mangled as it is."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, i = [], 3
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while symbol[j].isdigit():
            j += 1
        n = int(symbol[i:j])
        parts.append(symbol[j : j + n])
        i = j + n
    return ".".join(p for p in parts if p not in ("balance", "games")) or symbol[:60]


def _helpers_as_calls() -> None:
    """The rules' `inline="always"` helpers compiled as calls of their own (this process only, its own cache)."""
    import numba

    njit = numba.njit

    def njit_without_inlining(*args, **kwargs):
        if kwargs.get("inline") == "always":
            kwargs["inline"] = "never"
        return njit(*args, **kwargs)

    numba.njit = njit_without_inlining


def profile(seconds: float, top: int) -> None:
    import numpy as np

    from balance.allocator import tune_allocator
    from balance.games.chance import Streams
    from balance.games.horsepower import compiled
    from balance.games.horsepower.bots import bot_table, resolve_profiles
    from balance.games.horsepower.compile import compile_database
    from balance.games.horsepower.schema import load_database

    tune_allocator()  # as the runner's workers do
    tables = compile_database(load_database(ROOT / "cards.yaml"))
    bots = bot_table(resolve_profiles(None), ["racer", "economist", "saboteur", "balanced"], tables, 4)

    def batch(first: int, size: int):
        seats = (np.arange(4)[None, :] + np.arange(first, first + size)[:, None]) % 4
        return compiled.simulate(tables, bots, seats, Streams(1, first, size))

    start = time.perf_counter()
    batch(0, 16)  # compiles (into this script's own cache folder)
    print(f"compiled in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    starts = _addresses()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "perf.data"
        perf = subprocess.Popen(
            ["perf", "record", "-F", "1999", "-p", str(os.getpid()), "-o", str(data)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(0.5)
        played = turns = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            turns += int(batch(played, 4096).turns.sum())
            played += 4096
        wall = time.perf_counter() - start
        perf.send_signal(signal.SIGINT)  # perf writes its data and stops
        perf.wait()
        lines = subprocess.run(
            ["perf", "script", "-i", str(data), "-F", "ip,sym,dso"], capture_output=True, text=True
        ).stdout.splitlines()
    print(f"{played:,} games in {wall:.1f} s: {played / wall:,.0f} games/s, {turns / wall:,.0f} player-turns/s")
    addresses = [a for a, _ in starts]
    counts: collections.Counter[str] = collections.Counter()
    for line in lines:
        fields = line.split()
        if not fields:
            continue
        ip, rest = int(fields[0], 16), " ".join(fields[1:])
        if "[unknown]" in rest:  # numba's machine code: the function starting nearest below
            i = bisect.bisect_right(addresses, ip) - 1
            counts[_readable(starts[i][1]) if i >= 0 else "compiled code, unnamed"] += 1
        else:
            counts[rest.split(" (")[0]] += 1
    total = sum(counts.values())
    print(f"{total:,} samples; share of samples, by function:")
    for name, n in counts.most_common(top):
        print(f"{100 * n / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
