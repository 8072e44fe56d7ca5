"""`balance trace`: one game of a scenario, turn by turn, in plain words.

The traced game is exactly game K of `balance run` with the same seed and
chunk size: its whole chunk is simulated and the recorder watches its row.
"""

from __future__ import annotations

from ...errors import UserError, raise_first
from ...scenario import Scenario, unknown_bot_problems
from ...seeding import chunk_plan, chunk_rng, seat_order
from ...yamlio import YamlDoc
from .bots import bot_table, resolve_profiles
from .compile import Tables, compile_database
from .engine import simulate
from .recorder import Recorder
from .schema import load_database


def prepare(scenario: Scenario) -> tuple[Tables, object]:
    """The scenario's compiled tables and bot table (one profile per listed bot)."""
    m = scenario.model
    db = load_database(scenario.cards_path)
    tables = compile_database(db)
    if m.players not in tables.rules.player_counts:
        raise UserError(
            scenario.doc.problem(
                ("players",),
                f"{m.players} players is not in the draft_pool of {scenario.cards_path} "
                f"({', '.join(map(str, tables.rules.player_counts))})",
            )
        )
    doc: YamlDoc = scenario.doc
    profiles = resolve_profiles(m.bot_profiles, doc)
    raise_first(unknown_bot_problems(scenario, list(profiles)))
    return tables, bot_table(profiles, list(m.bots), tables, m.players)


def trace_game(scenario: Scenario, seed: int, game: int) -> str:
    m = scenario.model
    if not 0 <= game < m.games:
        raise UserError(
            scenario.doc.problem(("games",), f"game {game} is not in the run (0 to {m.games - 1})", "--game")
        )
    tables, bots = prepare(scenario)
    plan = chunk_plan(m.games, m.chunk_size)
    chunk = game // m.chunk_size
    first, size = plan[chunk]
    seats = seat_order(m.players, first, size, m.seat_rotation)
    rec = Recorder(watch=game - first)
    st = simulate(tables, bots, seats, chunk_rng(seed, chunk, len(plan)), rec)
    row = game - first
    names = [bots.names[q] for q in seats[row]]
    pb = tables.playbooks.names
    head = [
        f"Horsepower: scenario {m.name}, seed {seed}, game {game} (chunk {chunk} of {len(plan)}, row {row})",
        f"cards: {scenario.cards_path.name}; seats in turn order (seat 0 first): "
        + ", ".join(f"{i}={n}" for i, n in enumerate(names)),
        "Draft:",
    ]
    if st.winner[row] >= 0:
        result = f"Result: seat {st.winner[row]} ({names[st.winner[row]]}) wins in round {st.round[row]}"
    else:
        result = f"Result: no winner after {st.round[row]} rounds (the round cap)"
    final = [
        f"  seat {p}: lap {st.lap[row, p]} space {st.pos[row, p]}, {st.coins[row, p]} coins, Playbooks: "
        + ", ".join(pb[b] for b in range(len(pb)) if st.playbooks[row, p, b])
        for p in range(m.players)
    ]
    return "\n".join([*head, *rec.lines, result, *final]) + "\n"
