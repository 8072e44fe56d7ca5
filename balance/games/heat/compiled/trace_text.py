"""What a traced race said (records of numbers from rules.py) in words:
`balance trace` reads the lines the numpy engine (removed after commit
1c13126) said of the same race (tests/test_compiled_heat.py)."""

from __future__ import annotations

import numpy as np

from ...recorder import cards_text, hands_text
from ..bots import BotTable
from ..compile import Tables
from . import rules as R


def sector_text(effect) -> str:
    """A sector effect (compile.SECTOR_COLUMNS) in words."""
    cooldown, no_cooldown, slipstream, no_start, free_boost, _ = (int(x) for x in effect)
    said = []
    if no_cooldown:
        said.append("no Cooldown in React")
    elif cooldown:
        said.append(f"Cooldown {cooldown:+d} in React")
    if no_start:
        said.append("no slipstream may start here")
    if slipstream:
        said.append(f"slipstream {slipstream:+d} spaces")
    if free_boost:
        said.append("Boost costs no Heat")
    return ", ".join(said) or "no effect"


def weather_lines(w: int, road: list[int], tables: Tables) -> list[str]:
    """The race's Weather token and each corner's Road Conditions token, in words."""
    weather, roads = tables.weather, tables.road
    setup = []
    for amount, what in (
        (int(weather.stress[w]), "Stress in each deck"),
        (int(weather.heat[w]), "Heat in each Engine"),
    ):
        if amount:
            setup.append(f"{amount:+d} {what}")
    if weather.heat_to_deck[w]:
        setup.append(f"{weather.heat_to_deck[w]} Engine Heat shuffled into each deck")
    if weather.heat_to_discard[w]:
        setup.append(f"{weather.heat_to_discard[w]} Engine Heat onto each discard pile")
    track = tables.tracks[tables.rules.track]
    lines = [
        f"Weather: {weather.names[w]} ({'; '.join(setup) or 'no setup change'}; "
        f"in a Weather sector: {sector_text(weather.sector[w])})",
        "Road Conditions:",
    ]
    for c, t in enumerate(road):
        limit = int(track.limit[c])
        if track.chicane[c]:
            lines.append(f"  corner {c + 1} (limit {limit}): the chicane's exit: corner {c}'s token ({roads.names[t]})")
            continue
        if roads.is_sector[t]:
            effect = weather.sector[w] if roads.sector[t, -1] else roads.sector[t]
            exit_next = c + 1 < len(road) and track.chicane[c + 1]  # a chicane's sector lies after its exit
            after = f"{(c + 3 if exit_next else c + 2) % len(road) or len(road)}"
            text = (
                "after the chicane's exit, " if exit_next else ""
            ) + f"sector to corner {after}: {sector_text(effect)}"
        else:
            parts = []
            if roads.limit[t]:
                parts.append(f"limit {limit} -> {max(limit + int(roads.limit[t]), 0)}")
            if roads.overheat[t]:
                parts.append(f"over the limit, {roads.overheat[t]} Heat more than the excess")
            text = ", ".join(parts) or "no effect"
        lines.append(f"  corner {c + 1} (limit {limit}): {roads.names[t]}: {text}")
    return lines


def trace_lines(trace: np.ndarray, rows: np.ndarray, tables: Tables, bots: BotTable, P: int) -> list[str]:
    names, ids = tables.cards.names, tables.cards.ids
    K = len(names)
    lines = []
    for kind, a, b, c, d, e, f, h, i, row in trace.tolist():
        if kind == R.SAY_BONUS:
            lines.append(f"balance strength: car {a} starts with an extra {names[b]} ({ids[b]})")
        elif kind == R.SAY_DRAFT:
            lines.append("Garage draft:")
        elif kind == R.SAY_PICK:
            lines.append(f"  pick {a}: car {b} takes {names[c]} ({ids[c]})")
        elif kind == R.SAY_ROUND:
            lines.append(f"Round {a}:")
        elif kind == R.SAY_HANDS:
            lines.append(hands_text(rows[row, : a * K].reshape(a, K), names))
        elif kind == R.SAY_PLAN:  # car, bot, gear, new gear, Heat paid, Engine, target, overheats
            chosen = rows[row, :K]
            cards = cards_text(chosen, names, empty="-")
            shifted = f"gear {c} -> {d}" + (f" (pays {e} Heat)" if e else "")
            head = f"  car {a} ({bots.names[b]}): {shifted}, Engine {f} Heat, aims at speed {h}, plays {cards}"
            lines.append(head + (" (too few playable cards: overheats)" if i else ""))
        elif kind == R.SAY_LEGEND:  # car, helmet number, card, move, from, to, diamond column, colour
            colour = tables.rules.legend_colours[i]
            lines.append(
                f"  car {a} (Legend, {colour}; Legend card {c + 1}: helmet {b}, diamond {h}): speed {d}, {e} -> {f}"
            )
        elif kind == R.SAY_OVERHEATED:
            lines.append(f"  car {a}: overheated, does not move; back to gear 1")
        elif kind == R.SAY_CANNOT_PAY:
            lines.append(f"  car {a}: cannot pay {b} Heat for {names[c]}: discards it, plays a random speed card")
        elif kind == R.SAY_SPEED:
            lines.append(f"  car {a}: speed {b}, {c} -> {d}")
        elif kind == R.SAY_ADRENALINE:
            text = ("+1 speed" if b else "") + (" and " if b and c else "") + ("Cooldown 1" if c else "")
            lines.append(f"  car {a}: Adrenaline, " + text)
        elif kind == R.SAY_COOLDOWN:
            lines.append(f"  car {a}: Cooldown {b}")
        elif kind == R.SAY_BOOST:
            lines.append(f"  car {a}: Boost +{b} -> {c}")
        elif kind == R.SAY_SLIPSTREAM:
            lines.append(f"  car {a}: slipstreams to {b}")
        elif kind == R.SAY_CORNER:  # car, limit, speed, Heat owed, paid, of which Overheat, spent spinning, own change
            spent = f" (pays the {h} Heat it has)" if h else ""
            result = f"pays {d} Heat" if e else f"cannot pay {d} Heat{spent}: SPINS OUT"
            hot = f" (Overheat: {f} more than the excess)" if f else ""
            own = f", {b + i} with its cards" if i else ""  # (its corner-limit cards this round)
            lines.append(f"  car {a}: corner (limit {b}{own}) at speed {c}: " + result + hot)
        elif kind == R.SAY_WEATHER:  # Weather token, corners a lap; the row: each corner's Road token
            lines.extend(weather_lines(a, rows[row, :b].tolist(), tables))
        elif kind == R.SAY_SUPER_COOL:
            lines.append(f"  car {a}: Super Cool {b} (Heat from the discard to the Engine)")
        elif kind == R.SAY_DRAFTING:
            lines.append(f"  car {a}: drafts {b} spaces to {c}")
        elif kind == R.SAY_DIRECT:  # car, card, speed added, to, Heat paid
            paid = f", pays {e} Heat" if e else ""
            lines.append(f"  car {a}: plays {names[b]} ({ids[b]}) from its hand (Direct Play{paid}): +{c} -> {d}")
        elif kind == R.SAY_ACCELERATE:
            lines.append(f"  car {a}: Accelerate +{b} (a space for each card flipped) -> {c}")
        elif kind == R.SAY_SALVAGE:  # car, cards moved, Salvage, why none (1 Heat on the pile, 2 Engine short); the row
            if b:
                lines.append(
                    f"  car {a}: Salvage {c}: {cards_text(rows[row, :K], names)} from the discard pile into the deck"
                )
            else:
                why = ["nothing it would keep", "Heat lies on its discard pile", "its Engine holds no Heat to spare"][d]
                lines.append(f"  car {a}: Salvage {c}: takes nothing ({why})")
        elif kind == R.SAY_REFRESH:  # car, card, copies, of which into the hand at the refill
            where = "drawn first at the refill" if c == d else f"{d} drawn first at the refill, {c - d} into the deck"
            lines.append(f"  car {a}: Refresh: {names[b]} ({ids[b]}) on top of its draw deck ({where})")
        elif (
            kind == R.SAY_SPONSORS
        ):  # car, got, asked for, gained (else dealt), corners pressed, record, lap 1, passing
            short = f"; the sponsor pile had only {b}" if b < c else ""
            why = [f"pressed {e} corner{'s' if e != 1 else ''}"] if e else []
            why += ["a record Speed"] * bool(f) + ["among the first to complete lap 1"] * bool(h)
            why += ["passed cars"] * bool(i)
            reason = f" ({', '.join(why)}{short})" if why else f" ({short[2:]})" if short else ""
            verb = "gains" if d else "is dealt"
            lines.append(f"  car {a} {verb} {b} Sponsorship card{'s' if b != 1 else ''}{reason}")
        elif kind == R.SAY_SWAP:  # car, the upgrade given, the one taken
            lines.append(f"  car {a} swaps its {names[b]} ({ids[b]}) for {names[c]} ({ids[c]}), left in the draft")
        elif kind == R.SAY_OUT:
            lines.append(f"  car {a}: out of the race (the Event: a spin-out eliminates)")
        elif kind == R.SAY_HEAT_OUT:
            lines.append(f"  car {a}: {b} Heat out of the game (the Event, after a lap)")
        elif kind == R.SAY_FINISHED:
            lines.append("  finished: " + ", ".join(f"car {int(x)}" for x in rows[row, :a]))
    return lines
