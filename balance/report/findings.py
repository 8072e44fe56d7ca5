"""The findings at the top of the report, in words, each with its numbers."""

from __future__ import annotations

import math

import polars as pl

from ..analysis.stats import wilson
from .labels import HORSEPOWER, Labels


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def interval(low: float, high: float) -> str:
    return f"{100 * low:.1f}-{100 * high:.1f}%"


def p_text(p: float) -> str:
    if not math.isfinite(p):
        return "p undefined"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


SECTIONS = (
    "What to change",  # by experiment: the items beyond the fair band and the seats out of balance, with fit commands
    "Who wins from where",  # seat, turn order, draft order, grid slot: the position's own advantage
    "{items} too strong or too weak",  # by experiment (causal)
    "What the bots like to take",  # associations: the bots' taste, not advice
    "What the bots reveal about strategies",
    "Game length, track and supply",
)


def findings(
    seats: pl.DataFrame,
    equality: pl.DataFrame,
    bots: pl.DataFrame,
    cards: pl.DataFrame,
    books: pl.DataFrame | None,
    length: pl.DataFrame,
    names: dict[str, str],
    parts: set[str] | None = None,
    top: int = 6,
    labels: Labels = HORSEPOWER,
    position: list[str] | None = None,
    items: list[str] | None = None,
    strategies: list[str] | None = None,
    supply: list[str] | None = None,
    seat_meaning: str = "",
    causal: list[str] | None = None,
    strength_command: str = "",
    change: list[str] | None = None,
    contradicted: set[str] | frozenset[str] = frozenset(),
) -> list[tuple[str, list[str]]]:
    """The findings in the order a designer acts on them, as (heading, lines):
    who wins from where, the items too strong or too weak (the experiment's
    `causal` lines first, then the associations), what the bots reveal, then
    game length and supply. Empty sections are left out.

    `parts`: the studied cards (only they can be "almost never taken"; None:
    every card). `books`: None for a game without Playbooks. Card findings
    only for what the card table holds (a game without a draft or purchases
    has no win rate added; Downforce's has the win rate when dealt). The
    game's own lines go in their section: `position` (the draft order, the
    first player), `items` (drivers, powers kept), `strategies` (the auction),
    `supply` (Debris, stalled cars, corners). `seat_meaning`: what the seat
    result measures, added to its line. `strength_command`: the command that
    measures the items by experiment, for the lines that point to it."""
    where: list[str] = []
    for row in equality.iter_rows(named=True):
        group = seats.filter(pl.col("n_players") == row["n_players"]).sort("win_rate", descending=True)
        best = group.row(0, named=True)
        seats_word = labels.seats
        verdict = f"{seats_word} differ" if row["p_value"] < 0.05 else f"no evidence that {seats_word} differ"
        tag = labels.seat_tag if best["seat"] == 0 else ""
        where.append(
            f"{labels.seat.capitalize()} {best['seat']}{tag} wins {pct(best['win_rate'])} "
            f"({interval(best['ci_low'], best['ci_high'])}) "
            f"vs {pct(best['fair'])} fair, n={best['games']:,} {labels.games}; {verdict} "
            f"(chi-square {p_text(row['p_value'])}); balance index {row['balance_index']:.2f} (1 minus the gap in "
            f"win rate between the best and worst {labels.seat}, here {100 * row['largest_gap']:.1f} points; "
            f"1 = every {labels.seat} wins its fair share)." + (f" {seat_meaning}" if seat_meaning else "")
        )
    where += position or []

    hows = [how for how in ("drafted", "bought", "dealt") if f"significant_{how}" in cards.columns]
    things: list[str] = list(causal or [])  # the experiment: what the items do
    taste: list[str] = []  # the associations: what the bots take and how their takers fare
    if hows:
        if hows == ["dealt"]:
            taste.append(
                "The deal is random, so a card's win rate added when dealt is what holding it is worth in these "
                "bots' hands."
            )
        else:
            within = any(f"added_raw_{how}" in cards.columns for how in hows)
            taste.append(
                "How the players who took an item fared against those who did not"
                + (", within each bot profile" if within else "")
                + ": the bots' taste and when they take it, an association, not what the item does"
                + (" (the experiment above says that; a line it contradicts is marked)." if causal else ".")
            )
        taste += _card_lines(cards, hows, names, top, contradicted)
    taken = cards.filter(pl.col("rarely_taken"))["card"].to_list() if "rarely_taken" in cards.columns else []
    rare = [c for c in taken if parts is None or c in parts]
    if rare:
        taste.append(f"Almost never taken (under 1% of players): {', '.join(names.get(c, c) for c in rare)}.")
    if books is not None:
        within_books = "added_raw_held" in books.columns  # the one win rate added: within each bot profile
        strong = books.filter(pl.col("significant_held")).sort("added_held", descending=True)
        for row in strong.head(3).iter_rows(named=True):
            mark = " (the experiment says otherwise)" if row["playbook"] in contradicted else ""
            taste.append(
                f"Playbook {names.get(row['playbook'], row['playbook'])}: its holders won "
                f"{abs(100 * row['added_held']):.1f} points {'more' if row['added_held'] >= 0 else 'less'} "
                f"({100 * row['added_low_held']:+.1f} to "
                f"{100 * row['added_high_held']:+.1f}){', within each bot profile' if within_books else ''}, "
                f"n={row['n_held']:,}{mark}."
            )
    things += items or []
    if not causal:
        things.insert(
            0,
            "Not measured by experiment yet: the experiment gives each item to one seat in the same games (the "
            "causal figure) and this page then leads with it; the bots' associations below are not advice -> "
            f"{strength_command}",
        )

    reveal: list[str] = []
    ordered = bots.sort("win_rate", descending=True)
    if len(ordered) > 1:
        hi, lo = ordered.row(0, named=True), ordered.row(-1, named=True)
        reveal.append(
            f"Best bot {hi['bot']} wins {pct(hi['win_rate'])} ({interval(hi['ci_low'], hi['ci_high'])}), "
            f"worst {lo['bot']} {pct(lo['win_rate'])} ({interval(lo['ci_low'], lo['ci_high'])}): a gap between "
            "strategies as these bots play them, not between seats or cards."
        )
    reveal += strategies or []

    sections = [change or [], where, things, taste, reveal, [length_line(length, labels), *(supply or [])]]
    titles = [t.format(items=labels.items) for t in SECTIONS]
    return [(title, lines) for title, lines in zip(titles, sections, strict=True) if lines]


def length_line(length: pl.DataFrame, labels: Labels = HORSEPOWER) -> str:
    """The game length finding: the median (and p10-p90), the last player's
    round where the table has it (Heat's `last_median`: the winner's round is
    the median, the last car's shown apart), the share unfinished."""
    g = length.row(0, named=True)
    last = labels.length_last.format(last_median=_rounds(g["last_median"])) if "last_median" in g else ""
    unfinished = ""
    if labels.length_unfinished:
        share = g["unfinished_share"]
        count = g["unfinished_games"] if "unfinished_games" in g else round(share * g["all_games"])  # older logs
        unfinished = (
            labels.length_unfinished.format(share=pct(share), count=count) + ", "
            if count
            else f"{labels.length_none}, "
        )
    return (
        labels.length_finding.format(median=_rounds(g["median"]))
        + f" (median; 80% between {_rounds(g['p10'])} and {_rounds(g['p90'])}){last}, "
        + unfinished
        + f"n={g['all_games']:,}."
    )


def _rounds(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.0f}"


def _card_lines(
    cards: pl.DataFrame, hows: list[str], names: dict[str, str], top: int, contradicted: set[str] | frozenset[str]
) -> list[str]:
    """The cards whose win rate added (when drafted or bought) is significant,
    largest first: compared within each bot profile (Mantel-Haenszel) where the
    table has that figure, so a card is not blamed for the bot that takes it."""
    stratified = {how: f"added_raw_{how}" in cards.columns and how != "dealt" for how in hows}

    rows = [
        cards.filter(pl.col(f"significant_{how}")).select(
            "card",
            pl.lit(how).alias("how"),
            pl.col(f"added_{how}").alias("added"),
            pl.col(f"added_low_{how}").alias("low"),
            pl.col(f"added_high_{how}").alias("high"),
            pl.col(f"n_{how}").alias("n"),
        )
        for how in hows
    ]
    # the largest effects, told as a designer reads them: too strong first, then too weak
    significant = pl.concat(rows).sort(pl.col("added").abs(), descending=True).head(top).sort("added", descending=True)
    significant = pl.concat(
        [significant.filter(pl.col("added") >= 0), significant.filter(pl.col("added") < 0).reverse()]
    )
    within = " (compared within each bot profile)" if any(stratified.values()) else ""
    if significant.is_empty():
        return [f"No card's win rate added{within} is significant after the Benjamini-Hochberg correction."]
    # one line an item: its largest association (drafted or bought), the other named beside it
    seen: dict[str, list[dict]] = {}
    for row in significant.iter_rows(named=True):
        seen.setdefault(row["card"], []).append(row)
    lines = []
    for card, rows in seen.items():
        first, *rest = rows
        also = "".join(f"; {100 * r['added']:+.1f} when {r['how']}" for r in rest)
        mark = " (the experiment says otherwise)" if card in contradicted else ""
        lines.append(
            f"{names.get(card, card)}: players who {first['how']} it won {abs(100 * first['added']):.1f} points "
            f"{'more' if first['added'] >= 0 else 'less'} "
            f"({100 * first['low']:+.1f} to {100 * first['high']:+.1f})"
            f"{', within each bot profile' if stratified[first['how']] else ''}, n={first['n']:,}{also}{mark}."
        )
    return lines


def money(x: float) -> str:
    """Downforce's money: $4.75M."""
    return f"${x:.2f}M"


def car_findings(
    by_colour: pl.DataFrame, by_auction: pl.DataFrame, stalled: dict, games: str = "games"
) -> dict[str, list[str]]:
    """Downforce's auction in words (analysis.cars), by the findings' section:
    how the first car auctioned finishes against the last (position), the
    dearest and cheapest colour (strategies: what the bots pay), stalled cars (supply)."""
    out: list[str] = []
    ordered = by_colour.sort("mean", descending=True)
    if ordered.height > 1:
        hi, lo = ordered.row(0, named=True), ordered.row(-1, named=True)
        apart = hi["ci_low"] > lo["ci_high"]
        out.append(
            f"Dearest car {hi['colour']} at {money(hi['mean'])} on average ({hi['ci_low']:.2f}-{hi['ci_high']:.2f}), "
            f"cheapest {lo['colour']} at {money(lo['mean'])} ({lo['ci_low']:.2f}-{lo['ci_high']:.2f}), "
            f"n={int(lo['n']):,} each: "
            + ("their intervals do not overlap." if apart else "their intervals overlap, no clear difference.")
        )
    rounds = by_auction.drop_nulls("auction").sort("auction")
    if rounds.height > 1:
        fair = float((rounds["1st"] * rounds["cars"]).sum() / rounds["cars"].sum())  # a car's share of wins
        shown = []
        for row in (rounds.row(0, named=True), rounds.row(-1, named=True)):
            low, high = wilson(round(row["1st"] * row["cars"]), row["cars"])
            shown.append((row, float(low), float(high)))
        (first, f_low, f_high), (last, l_low, l_high) = shown
        verdict = (
            "the first car wins more than its share"
            if f_low > fair
            else "the first car wins less than its share"
            if f_high < fair
            else "no evidence that the first car finishes better or worse"
        )
        out.append(
            f"The first car auctioned ({money(first['mean_price'])} on average) wins the race {pct(first['1st'])} "
            f"({interval(f_low, f_high)}) and stalls {pct(first['stalled'])}; the last, round {last['auction']} "
            f"({money(last['mean_price'])}), wins {pct(last['1st'])} ({interval(l_low, l_high)}) and stalls "
            f"{pct(last['stalled'])}; against a fair {pct(fair)}, {verdict}, n={int(first['cars']):,} {games}."
        )
    if stalled.get("cars"):
        out.append(
            f"{pct(stalled['share'])} of cars stall (never finish, so earn their owner nothing); "
            f"{pct(stalled['games_share'])} of {games} have at least one, n={int(stalled['cars']):,} cars."
        )
    position = [line for line in out if line.startswith("The first car auctioned")]
    stalls = [line for line in out if "of cars stall" in line]
    return {"position": position, "strategies": [x for x in out if x not in position + stalls], "supply": stalls}


PAIR_MIN = 50  # a driver pair needs this many players behind it to be named best or worst
CARD_MIN = 30  # a card is named only with this many holders who played it, and who did not


def driver_findings(
    drivers: pl.DataFrame,
    pairs: pl.DataFrame,
    order: pl.DataFrame | None,
    cards: pl.DataFrame,
    names: dict[str, str],
    top: int = 4,
    held: pl.DataFrame | None = None,
) -> dict[str, list[str]]:
    """Shuffle Grand Prix in words (analysis.drivers), by the findings' section:
    the first player's edge (position); the strongest and weakest driver and
    pair drafted, and the ability cards whose win rate added when played (among
    their holders) is significant (items)."""
    out: list[str] = []
    first_player: list[str] = []
    if order is not None:
        for _, group in order.group_by(["n_players"], maintain_order=True):
            first = group.filter(pl.col("order") == 0).row(0, named=True)
            seat0 = float(group.filter(pl.col("order") == 0)["seat_first"][0])
            verdict = (
                "more than its share"
                if first["ci_low"] > first["fair"]
                else "less than its share"
                if first["ci_high"] < first["fair"]
                else "no clear edge"
            )
            holds = ""
            if held is not None and held.height:
                most = held.row(0, named=True)
                holds = (
                    f" The draft runs in turn order: the first player holds {names.get(most['driver'], most['driver'])} "
                    f"in {pct(most['share'])} of games, so this figure is going first and holding it together, "
                    "not turn order alone (balance strength gives each driver's own figure)."
                )
            first_player.append(
                f"The first player (drawn each game: the highest distance card dealt at setup, a tie settled by "
                f"rules.first_player_ties, a redeal by default) wins "
                f"{pct(first['win_rate'])} ({interval(first['ci_low'], first['ci_high'])}) vs {pct(first['fair'])} "
                f"fair, {verdict}, n={first['games']:,} games; seat 0 goes first in {pct(seat0)} of them, "
                f"so the seat results carry some of this.{holds}"
            )
    ranked = drivers.filter(pl.col("n") > 0).sort("win_rate", descending=True)
    if ranked.height > 1:
        hi, lo = ranked.row(0, named=True), ranked.row(-1, named=True)
        apart = hi["ci_low"] > lo["ci_high"]
        out.append(
            f"Strongest driver {hi['driver']}: its players win {pct(hi['win_rate'])} "
            f"({interval(hi['ci_low'], hi['ci_high'])}, n={hi['n']:,}); weakest {lo['driver']} "
            f"{pct(lo['win_rate'])} ({interval(lo['ci_low'], lo['ci_high'])}, n={lo['n']:,}); fair share "
            f"{pct(hi['fair'])}: "
            + ("their intervals do not overlap." if apart else "their intervals overlap, no clear difference.")
            + " The bots choose their drivers, so this is the driver as these bots draft and play it."
        )
    never = drivers.filter(pl.col("n") == 0)["driver"].to_list()
    if never:
        out.append(f"Never drafted by these bots: {', '.join(never)}.")
    common = pairs.filter(pl.col("n") >= PAIR_MIN).sort("win_rate", descending=True)
    if common.height > 1:
        hi, lo = common.row(0, named=True), common.row(-1, named=True)
        out.append(
            f"Best pair drafted (of those with n >= {PAIR_MIN}) {hi['first']} + {hi['second']}: "
            f"{pct(hi['win_rate'])} ({interval(hi['ci_low'], hi['ci_high'])}, n={hi['n']:,}); worst "
            f"{lo['first']} + {lo['second']}: {pct(lo['win_rate'])} ({interval(lo['ci_low'], lo['ci_high'])}, "
            f"n={lo['n']:,})."
        )
    if "significant_played" in cards.columns:
        strong = cards.filter(
            pl.col("significant_played") & (pl.col("n_played") >= CARD_MIN) & (pl.col("n_held_not_played") >= CARD_MIN)
        ).sort(pl.col("added_played").abs(), descending=True)
        if strong.is_empty():
            out.append(
                "No ability card's win rate added when played is significant after the Benjamini-Hochberg correction"
                f" (with at least {CARD_MIN} holders who played it and {CARD_MIN} who did not)."
            )
        for row in strong.head(top).iter_rows(named=True):
            out.append(
                f"{names.get(row['card'], row['card'])} ({row['driver']}): {100 * row['added_played']:+.1f} points "
                f"of win rate when played, among its holders ({100 * row['added_low_played']:+.1f} to "
                f"{100 * row['added_high_played']:+.1f}), n={row['n_played']:,} played, "
                f"{row['n_held_not_played']:,} held but not played."
            )
    return {"position": first_player, "items": out}


def seat_meaning(draft: pl.DataFrame | None, settings: list[str] | None = None) -> str:
    """What Horsepower's seat result measures: the turn order alone, or the turn
    order and the draft's first pick together (rules.first_drafter: first_player),
    and any setting that treats seats apart (`settings`, e.g. rules.seat_coins),
    named as a cause beside it."""
    if draft is None:
        return ""
    together = float(draft["with_first_player"].min())
    also = f" and {'; '.join(settings)}" if settings else ""
    if together >= 1.0:
        return (
            "Seat 0 plays first and also drafts first in every game (rules.first_drafter: first_player)"
            f"{also}: this is those advantages together."
        )
    if settings:
        return (
            f"Seats are the turn order (seat 0 plays first){also}; who drafts first is drawn apart (seat 0 in "
            f"{pct(float(draft['with_first_player'].max()))} of games), so this is the turn order and the seat "
            "setting together, not the turn order alone."
        )
    return (
        "Seats are the turn order (seat 0 plays first); who drafts first is drawn apart "
        f"(seat 0 in {pct(float(draft['with_first_player'].max()))} of games), so this is the turn-order advantage."
    )


def seat_settings(database: dict | None, overrides: dict | None) -> list[str]:
    """The database's rules that treat seats apart (a `seat_` rule with a value
    other than 0 for some seat), as the run played them (the scenario's
    overrides on top): what a seat finding must name as a cause."""
    rules = dict((database or {}).get("rules") or {})
    for path, value in (overrides or {}).items():
        parts = path.split(".")
        if parts[0] == "rules" and len(parts) >= 2 and parts[1].startswith(("seat_", "draft_coins")):
            if len(parts) == 2:
                rules[parts[1]] = value
            elif isinstance(rules.get(parts[1]), list) and parts[2].isdigit():
                listed = list(rules[parts[1]])
                index = int(parts[2])
                listed += [0] * (index + 1 - len(listed))
                listed[index] = value
                rules[parts[1]] = listed
    out = []
    for key, value in rules.items():
        if not key.startswith(("seat_", "draft_coins")):
            continue
        values = value if isinstance(value, list) else [value]
        if any(v not in (0, None, False) for v in values):
            whom = "the draft positions" if key.startswith("draft_") else "the seats"
            out.append(f"rules.{key} gives {whom} {value}")
    return out


def draft_lines(draft: pl.DataFrame | None, equality: pl.DataFrame | None) -> list[str]:
    """The win rate of the first pick in the draft, with the test that every draft position wins equally."""
    if draft is None or equality is None:
        return []
    out = []
    for row in equality.iter_rows(named=True):
        group = draft.filter(pl.col("n_players") == row["n_players"]).sort("draft_position")
        first = group.row(0, named=True)
        verdict = "draft positions differ" if row["p_value"] < 0.05 else "no evidence that draft positions differ"
        meaning = (
            "the draft order here is the turn order, so this and the seat result are one advantage"
            if float(first["with_first_player"]) >= 1.0
            else "the draft order is drawn apart from the turn order, so this is the draft's own advantage"
        )
        out.append(
            f"Draft position 1 (the first pick) wins {pct(first['win_rate'])} "
            f"({interval(first['ci_low'], first['ci_high'])}) vs {pct(first['fair'])} fair, "
            f"n={first['games']:,} games; {verdict} (chi-square {p_text(row['p_value'])}): {meaning}. "
            "Seats and draft positions are assigned at random, so these gaps are caused by the position."
        )
    return out


def supply_lines(supply: pl.DataFrame | None) -> list[str]:
    """How often the Debris supply ran out, and the Debris owed but not given."""
    if supply is None:
        return []
    return [
        f"The Debris supply ran out in {pct(row['ran_out_share'])} "
        f"({interval(row['ran_out_ci_low'], row['ran_out_ci_high'])}) of {row['n_players']}-player games, "
        f"n={row['games']:,}; {row['not_given_per_game']:.2f} Debris a game were owed but not given "
        f"(in {pct(row['games_short'] / row['games'])} of games): Debris from laps and cards does nothing then "
        "(rules.debris_supply sets the supply)."
        for row in supply.iter_rows(named=True)
    ]


def power_lines(powers: pl.DataFrame | None) -> list[str]:
    """Downforce: the power card whose keepers win most and least
    (analysis.cars.power_win_rates), with intervals and n, and whether the
    intervals overlap; an association, since the bots choose which power to keep."""
    if powers is None:
        return []
    ranked = powers.filter(pl.col("kept") > 0).sort(["win_rate", "power"], descending=[True, False])
    if ranked.height < 2:
        return []
    hi, lo = ranked.row(0, named=True), ranked.row(-1, named=True)
    apart = hi["ci_low"] > lo["ci_high"]
    return [
        f"Best power kept {hi['power']}: its players win {pct(hi['win_rate'])} "
        f"({interval(hi['ci_low'], hi['ci_high'])}, n={hi['kept']:,}); worst {lo['power']} "
        f"{pct(lo['win_rate'])} ({interval(lo['ci_low'], lo['ci_high'])}, n={lo['kept']:,}); fair share "
        f"{pct(float(ranked['fair'].mean()))}: "
        + ("their intervals do not overlap." if apart else "their intervals overlap, no clear difference.")
        + " The bots choose which power to keep (and which cars, which bring it), so this is an association; "
        "balance strength gives each power to a seat drawn per game: the causal figure."
    ]


def capped_lines(run: dict, labels: Labels) -> list[str]:
    """Whose cars the round cap stopped: per bot, the races it did not finish
    among those the cap cut (Heat: a car still racing when the cap ends the
    race). Empty where no race was cut or the logs do not say who finished."""
    players, games = run["players"], run["games"]
    if "finished" not in players.collect_schema().names() or "finished" not in games.collect_schema().names():
        return []
    cut = games.filter(~pl.col("finished")).select("game_id")
    stuck = (
        players.join(cut, on="game_id")
        .group_by("bot")
        .agg(pl.len().alias("seats"), (~pl.col("finished")).sum().alias("stuck"))
        .join(players.group_by("bot").agg(pl.len().alias("all")), on="bot")
        .filter(pl.col("stuck") > 0)
        .sort("stuck", descending=True)
        .collect()
    )
    if stuck.is_empty():
        return []
    parts = [
        f"{row['bot']} {row['stuck']:,} of its {row['all']:,} {labels.games} ({pct(row['stuck'] / row['all'])})"
        for row in stuck.iter_rows(named=True)
    ]
    floor = " (random is the floor by definition: uniform over legal moves, it may Boost into a corner it cannot pay)"
    return [
        f"The cars the round cap stopped, by bot: {'; '.join(parts)}"
        + (floor if stuck["bot"][0] == "random" else "")
        + "."
    ]
