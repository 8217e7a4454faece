"""Bots answer the same decision requests as people, legally, deterministically."""

import pytest
from game_helpers import ORDER, scenario

from trackside.engine.bots import GreedyBot, RandomBot, ask, bot_seed, drive, make_bot
from trackside.engine.bots.greedy import bet_values, place_odds
from trackside.engine.bots.tables import track_tables
from trackside.engine.game import (
    COLOURS,
    Game,
    Path,
    PlayCard,
    Series,
    bundled_variants,
    load_variant,
)
from trackside.engine.records import new_game, open_track

HARBOUR = "harbour-loop"
VARIANTS = [p.stem for p in bundled_variants()]


def players_for(variant) -> list[int]:
    return sorted({variant.min_players, min(4, variant.max_players), variant.max_players})


def checked_drive(game, seats):
    """Drive a game, asserting every answer is legal before it is applied."""
    count = 0

    def apply(decision):
        nonlocal count
        assert game.is_legal(decision), decision
        game.apply(decision)
        count += 1

    drive(game, seats, apply=apply)
    return count


@pytest.mark.parametrize("variant_name", VARIANTS)
@pytest.mark.parametrize("kind", ["greedy", "random"])
def test_bots_always_answer_legally_in_every_bundled_variant(variant_name, kind):
    """R-AUC, R-RACE, R-MOVE, R-BET: every answer is legal, many seeds, every player count."""
    variant = load_variant(variant_name)
    tracks = [open_track(t) for t in (variant.series or [HARBOUR])]
    for players in players_for(variant):
        for seed in range(4 if variant.series else 8):
            game = new_game(tracks, variant, players, seed)
            seats = [make_bot(kind, bot_seed(seed, p, kind)) for p in range(players)]
            assert checked_drive(game, seats) > 0
            assert game.over


def test_mixed_tables_and_all_six_powers_in_play():
    """Greedy and random bots at one table over many seeds (powers held by both)."""
    variant = load_variant("standard")
    board = open_track(HARBOUR)
    powers_kept = set()
    for seed in range(30):
        game = new_game([board], variant, 6, seed)
        seats = [
            make_bot("greedy" if p % 2 else "random", bot_seed(seed, p, "x")) for p in range(6)
        ]
        checked_drive(game, seats)
        powers_kept |= {p for p in game.state.power if p}
    assert powers_kept == set(variant.powers)


def play_decisions(kind, seed):
    variant = load_variant("standard")
    game = new_game([open_track(HARBOUR)], variant, 4, seed)
    decisions = []

    def apply(d):
        decisions.append(d)
        game.apply(d)

    drive(game, [make_bot(kind, bot_seed(seed, p, kind)) for p in range(4)], apply=apply)
    return decisions, game.result


@pytest.mark.parametrize("kind", ["greedy", "random"])
def test_bots_are_deterministic_for_a_seed(kind):
    first, result = play_decisions(kind, 11)
    again, result2 = play_decisions(kind, 11)
    assert first == again and result == result2
    other, _ = play_decisions(kind, 12)
    assert other != first


def test_random_bot_picks_uniformly_from_its_own_source():
    """Each option of a many-option request is picked about equally often."""
    game = new_game([open_track(HARBOUR)], load_variant("standard"), 4, 5)
    seat = game.due()[0]
    view, request = ask(game, seat)
    bot = RandomBot(1)
    counts = {o: 0 for o in request.options}
    for _ in range(4000):
        counts[bot.choose(view, request)] += 1
    expected = 4000 / len(counts)
    assert all(0.75 * expected < n < 1.25 * expected for n in counts.values())


def test_greedy_beats_random_bots():
    """One greedy seat against three random ones wins most games and earns more."""
    variant = load_variant("standard")
    track = open_track(HARBOUR)
    wins = earned = 0
    for seed in range(40):
        game = new_game([track], variant, 4, seed)
        seats = [GreedyBot(seed)] + [RandomBot(f"{seed}:{p}") for p in range(1, 4)]
        drive(game, seats)
        wins += 0 in game.result.winners
        earned += game.result.scores[0] - max(game.result.scores[1:])
    assert wins >= 24, wins
    assert earned > 0


def test_greedy_jams_a_rival_when_the_advance_is_the_same():
    """R-MOVE-3/4: moving black 5 from b1, ends a6, b6 and c6 gain the same; b6 and
    c6 take the road ahead of the rival's blue car on c5, a6 does not."""
    black5 = next(c.id for c in load_variant("standard").deck.cards if c.rows == (("black", 5),))
    positions = {
        "black": "b1",
        "blue": "c5",
        "green": "a0",
        "yellow": "b0",
        "orange": "c0",
        "red": "a1",
    }
    game = scenario(positions, hands=[[black5, 0], [1, 2]])
    assert game.owner_of("black") == 0 and game.owner_of("blue") == 1
    bot = GreedyBot(0)
    game.apply(PlayCard(0, black5))
    assert game.pending.kind == "path" and game.pending.car == "black"
    view, request = ask(game, 0)
    ends = {o.path[-1] for o in request.options}
    assert "a6" in ends and ends & {"b6", "c6"}  # a choice that jams and one that does not
    choice = bot.choose(view, request)
    assert isinstance(choice, Path)
    assert choice.path[-1] in ("b6", "c6")


RED_6 = 6  # red 6 / yellow 4 / black 2 / blue 1
ONE_LANE = {"red": "a10", "yellow": "a30", "black": "a40", "blue": "a50", "green": "a60"}


def aggressive_choice(positions):
    """Red's Aggressive owner (seat 0) plays red 6 on one lane: 6 or 7 spaces."""
    game = scenario(positions, [[RED_6, 0], [1, 2]], ORDER, powers=("aggressive",), lanes=1)
    game.apply(PlayCard(0, RED_6))
    assert game.pending.extra == 1
    return game


def test_greedy_takes_the_aggressive_extra_space_on_a_free_road():
    """R-POW-AGG: with nothing in the way, the 7th space is simply further."""
    game = aggressive_choice({**ONE_LANE, "orange": "a70"})
    view, request = ask(game, 0)
    assert GreedyBot(0).choose(view, request).path[-1] == "a17"


def test_greedy_declines_the_aggressive_extra_space_that_boxes_its_car_in():
    """R-POW-AGG: a rival's car on a18: the 7th space would leave red with no free
    space ahead, so the greedy owner stops at 6."""
    game = aggressive_choice({**ONE_LANE, "orange": "a18"})
    view, request = ask(game, 0)
    assert GreedyBot(0).choose(view, request).path[-1] == "a16"


def test_random_bot_takes_or_declines_the_aggressive_extra_space():
    """R-POW-AGG: the random bot picks among the offered paths, both lengths."""
    ends = set()
    for seed in range(12):
        game = aggressive_choice({**ONE_LANE, "orange": "a70"})
        view, request = ask(game, 0)
        choice = RandomBot(seed).choose(view, request)
        assert game.is_legal(choice)
        ends.add(choice.path[-1])
    assert ends == {"a16", "a17"}


def test_greedy_plays_the_card_that_helps_its_own_car():
    """R-RACE-2/3: holding a card that moves a rival's car first and cards for its own
    cars (black 5, and the Speed-8 cards dealt with its cars), it never plays the rival's."""
    cards = load_variant("standard").deck.cards
    black5 = next(c.id for c in cards if c.rows == (("black", 5),))
    rival = (
        next(c.id for c in cards if c.rows[0] == ("blue", 6) and len(c.rows) == 1)
        if any(c.rows[0] == ("blue", 6) and len(c.rows) == 1 for c in cards)
        else next(c.id for c in cards if c.rows[0][0] == "blue" and "black" not in dict(c.rows))
    )
    positions = {
        "black": "b1",
        "blue": "c1",
        "green": "a0",
        "yellow": "b0",
        "orange": "c0",
        "red": "a1",
    }
    game = scenario(positions, hands=[[rival, black5], [1, 2]])
    view, request = ask(game, 0)
    assert len(request.options) > 2
    choice = GreedyBot(0).choose(view, request)
    assert choice.card != rival
    assert game.card_of(choice.card).rows[0][0] in [c for c in COLOURS if game.owner_of(c) == 0]


def test_greedy_bets_pay_far_more_often_than_a_blind_bet():
    """R-BET-2/5: greedy bets on the cars likeliest to earn on each line: over 20
    games at least 80% of its bets land on a paying place, where a bet on a car
    drawn at random would land on one half the time."""
    variant = load_variant("standard")
    track = open_track(HARBOUR)
    paid = blind = bets = 0.0
    for seed in range(20):
        game = new_game([track], variant, 4, seed)
        bots = [GreedyBot(seed) for _ in range(4)]
        made: list[tuple[int, str]] = []  # (line, car)
        while not game.over:
            for seat in game.due():
                view, request = ask(game, seat)
                choice = bots[seat].choose(view, request)
                if request.pending.kind == "bet":
                    made.append((request.pending.line or 0, choice.car))
                game.apply(choice)
        ranking = list(game.result.ranking)
        for line, car in made:
            table = variant.bet_payouts[line]
            place = ranking.index(car) if car in ranking else len(table)
            paid += place < len(table) and table[place] > 0
            blind += sum(1 for v in table[:6] if v > 0) / 6
            bets += 1
    assert bets >= 200
    assert blind / bets == 0.5  # the standard lines pay three places of six
    assert paid / bets >= 0.8, paid / bets


def test_greedy_bet_is_not_the_leader_whose_cards_are_spent():
    """R-BET-2/5: red leads after crossing line 1, but most red rows have been
    played (on cards without yellow); yellow, close behind, has all its cards to
    come: its bet is worth more, and the greedy bets go to yellow, not to the leader."""
    cards = load_variant("standard").deck.cards
    positions = {
        "red": "b19",
        "yellow": "b16",
        "black": "b10",
        "blue": "b8",
        "green": "b6",
        "orange": "b4",
    }
    game = scenario(positions, [[RED_6, 0, 1], [2, 3, 4]], ORDER)
    spent = [
        c.id
        for c in cards
        if not c.speed8
        and c.id in game.state.out_of_game
        and c.number("red")
        and not c.number("yellow")
    ]
    for cid in spent:  # a race where these cards were played already
        game.state.out_of_game.remove(cid)
        game.state.discard.append(cid)
    game.apply(PlayCard(0, RED_6))
    while game.pending.kind == "path":
        game.apply(game.options(game.due()[0])[0])
    assert game.pending.kind == "bet" and game.pending.line == 0
    togo = track_tables(game.board).togo
    red, yellow = (game.state.car_spaces[COLOURS.index(c)] for c in ("red", "yellow"))
    assert togo[red] < togo[yellow]  # red leads
    for seat in game.due():
        view, request = ask(game, seat)
        choice = GreedyBot(seat).choose(view, request)
        assert game.is_legal(choice)
        assert choice.car == "yellow"


def test_greedy_bets_on_the_likely_second_when_only_second_pays():
    """R-BET-5 with a variant's own bet table (2nd place only pays): red leads,
    yellow follows and the rest are far behind, so the greedy bets on yellow,
    the likeliest 2nd; with the standard table it bets on red."""
    positions = {
        "red": "b19",
        "yellow": "b17",
        "black": "b3",
        "blue": "b2",
        "green": "b1",
        "orange": "b0",
    }
    payouts = ((0, 9, 0), (0, 6, 0), (0, 3, 0))
    game = scenario(positions, [[RED_6, 0, 1], [2, 3, 4]], ORDER, bet_payouts=payouts)
    game.apply(PlayCard(0, RED_6))
    while game.pending.kind == "path":
        game.apply(game.options(game.due()[0])[0])
    assert game.pending.kind == "bet"
    view, request = ask(game, 1)
    choice = GreedyBot(1).choose(view, request)
    assert game.is_legal(choice) and choice.car == "yellow"
    standard = scenario(positions, [[RED_6, 0, 1], [2, 3, 4]], ORDER)
    standard.apply(PlayCard(0, RED_6))
    while standard.pending.kind == "path":
        standard.apply(standard.options(standard.due()[0])[0])
    view, request = ask(standard, 1)
    assert GreedyBot(1).choose(view, request).car == "red"  # the usual table: the favourite


def test_bet_values_follow_the_line_payouts():
    """R-BET-5: the expected value of a bet is each place's chance times its
    payout: with a line that pays only for 2nd place, the car likeliest to come
    2nd (not the likeliest winner) is worth most; a finished car pays its place."""
    paces = [0.1, 0.2, 3.0, 3.0, 3.0, None]
    odds = place_odds(paces, 3)
    for k in range(3):
        assert abs(sum(row[k] for row in odds) - 1.0) < 1e-9
    assert odds[0][0] > odds[1][0] and odds[1][1] > odds[0][1]
    second_only = bet_values((0, 9, 0), (), [*paces[:5], 3.0])
    assert max(range(6), key=second_only.__getitem__) == 1
    standard = bet_values((9, 6, 3), (5,), paces)
    assert standard[5] == 9.0 and max(standard[:5]) <= 6.0
    assert max(range(5), key=standard.__getitem__) == 0


def test_series_is_driven_race_after_race():
    variant = load_variant("world-tour")
    game = new_game([open_track(t) for t in variant.series], variant, 3, 1)
    assert isinstance(game, Series)
    checked_drive(game, [GreedyBot(p) for p in range(3)])
    assert game.over and len(game.result.races) == len(variant.series)


def test_the_view_hides_other_hands():
    game = new_game([open_track(HARBOUR)], load_variant("standard"), 4, 3)
    view, _ = ask(game, 2)
    assert view.hand == game.state.hands[2]
    assert not hasattr(view, "hands")
    assert view.full().hand == tuple(game.state.hands[2])
    assert isinstance(game, Game)
