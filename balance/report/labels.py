"""The words a report uses for each game: its title and what a seat, a lap and
a game are called. Kept here, not read from the engines (the report reads only
the logs); tests/test_report_heat.py checks the titles against balance.games."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Labels:
    title: str
    seat: str = "seat"  # what the players table's `seat` is
    seats: str = "seats"
    seat_first: str = "plays first"  # the tag of seat 0 on the chart
    seat_note: str = "seat 0 plays first"  # the order, in the chart's title
    seat_tag: str = ""  # the tag of seat 0 in the findings
    games: str = "games"
    players: str = "players"  # what a game's n_players counts
    per: str = "per player and game"  # what a bot's tallies are averaged over
    bot_caption: str = "Each bot's games count once per seat it held. Results between bots measure the bots too."
    lap_caption: str = (
        "Turns to complete each lap; the Pit Stop turn counts towards the next lap. Only the winner completes "
        "the last lap, so its times are the fast ones (a selection effect, not a shorter lap)."
    )
    lap_xlabel: str = "turns to complete the lap (the player's own turns)"
    length_xlabel: str = "rounds until someone completes the last lap"
    length_caption: str = "Rounds in finished games."
    length_title: str = "Game length"  # the length chart's and table's title
    length_finding: str = "Games last {median} rounds"
    # how the length finding says how many games went unfinished ({share}; {count}: how many, where the
    # length table has `unfinished_games`); "": games cannot go unfinished (the finding says nothing)
    length_unfinished: str = "{share} unfinished"
    length_none: str = "none unfinished"  # the same when no game was cut
    # where the length table has the last car's round (Heat: `last_median`), after the median: {last_median}
    length_last: str = ""
    length_counted: str = "finished games"  # what the length chart counts
    # the length chart's two series, where it has the last player's round (`last_home`): bars, outline
    length_bars_label: str = ""
    length_last_label: str = "last player home"
    tallies_title: str = "How each bot races"  # the per-bot tallies' chart and table
    cap: str = "the round cap, rules.max_rounds"  # what stops a game that goes on too long
    length_unit: str = "rounds"  # what the games table's `rounds` counts
    items: str = "Cards and Playbooks"  # what a designer tunes: the findings' second section


HORSEPOWER = Labels(title="Horsepower")
HEAT = Labels(
    title="Heat: Pedal to the Metal",
    seat="grid slot",
    seats="grid slots",
    seat_first="pole",
    seat_note="0 = pole",
    seat_tag=" (pole)",
    games="races",
    players="cars",
    per="per car and race",
    bot_caption="Each bot's races count once per car it drove; Legends are the game's own automated cars. "
    "Results between bots measure the bots too.",
    lap_caption="Rounds each car spent on each lap, Legends included: the race goes on until the last car "
    "is home, or the round cap (rules.max_rounds) cuts it; a lap the cap cut short is not counted.",
    lap_xlabel="rounds to complete the lap",
    length_xlabel="round of the race",
    length_caption="Bars: the round the winner crossed the finish line, in every race with a winner (those "
    "cut by the round cap too). Outline: the round the last car came home, in the races every car finished.",
    length_title="Race length",
    length_finding="The winner crosses the finish line after {median} rounds",
    length_last=", the last car home after {last_median} rounds (median of the races every car finished)",
    length_unfinished="{share} of races cut by the round cap (n={count:,})",
    length_none="no race cut by the round cap",
    length_counted="races",
    length_bars_label="the winner crosses the line (races with a winner)",
    length_last_label="the last car home (races every car finished)",
    items="Cards and upgrades",
)
HEAT_SEASON = replace(
    HEAT,
    seat="first grid slot",
    seats="first grid slots",
    seat_first="pole in race 1",
    seat_note="0 = pole in race 1",
    seat_tag=" (pole in the first race)",
    games="seasons",
    per="per car and season",
    bot_caption="Each bot's seasons count once per car it drove; a season's winner is its champion, the most "
    "points after the last race. Legends are the game's own automated cars. Results between bots measure the "
    "bots too.",
    length_xlabel="rounds of the season (its races together)",
    length_caption="Rounds per season, its races together, in seasons no race of which the round cap cut.",
    length_title="Season length",
    length_finding="A season lasts {median} rounds (its races together)",
    length_last="",
    length_unfinished="{share} of seasons with a race cut by the round cap (n={count:,})",
    length_none="no race cut by the round cap",
    length_counted="seasons",
    length_bars_label="",
)
DOWNFORCE = Labels(
    title="Downforce",
    seat_first="",
    seat_note="full ties go to the lower seat",
    per="per player and game",
    bot_caption="Each bot's games count once per seat it held. Results between bots measure the bots too: "
    "a bot's money depends on what the others bid.",
    length_xlabel="speed cards played in the race (all players together)",
    length_caption="Speed cards played per race, until every car has finished or no card is left to play "
    "(races cut by the turn cap, rules.max_turns, are left out).",
    length_finding="Races last {median} speed cards played",
    length_unfinished="{share} cut by the turn cap",
    length_none="none cut by the turn cap",
    tallies_title="How each bot plays",
    cap="the turn cap, rules.max_turns",
    length_unit="speed cards played",
    items="Powers and speed cards",
)
SHUFFLE_GP = Labels(
    title="Shuffle Grand Prix",
    seat_first="",
    seat_note="the first player is drawn by distance card",
    per="per player and game",
    length_xlabel="turns until the distance deck is empty (all players together)",
    length_caption="Turns per game, until the last distance card is drawn.",
    length_finding="Games last {median} turns",
    tallies_title="How each bot plays",
    cap="the turn cap, rules.max_turns",
    length_unit="turns",
    items="Drivers and ability cards",
)
GAMES = {"horsepower": HORSEPOWER, "heat": HEAT, "downforce": DOWNFORCE, "shuffle_gp": SHUFFLE_GP}


def labels_for(game: str, season: str | None = None) -> Labels:
    """The labels of a manifest's `game` (none: Horsepower, the only game of older runs); an
    unknown game gets Horsepower's words under its own name. A run of Heat Championship
    seasons (its database's rules.season) counts seasons, not races."""
    if game == "heat" and season:
        return replace(HEAT_SEASON, title=f"{HEAT.title}, Championship {season}")
    return GAMES.get(game or "horsepower") or replace(HORSEPOWER, title=game.replace("_", " ").title())
