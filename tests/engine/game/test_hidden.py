"""``Game.determinized``: the world as one seat may believe it."""

import random

from trackside.engine.bots import GreedyBot, ask
from trackside.engine.game import COLOURS, Game, Series, load_variant
from trackside.engine.records import new_game, open_track

HARBOUR = "harbour-loop"


def new(seed: int, players: int = 4, variant: str = "standard") -> Game:
    game = new_game([open_track(HARBOUR)], load_variant(variant), players, seed, series=False)
    assert isinstance(game, Game)
    return game


def zones(game: Game) -> list[list[int]]:
    return [
        *game.state.hands,
        *game.state.piles,
        game.state.pile,
        game.state.out_of_game,
        game.state.discard,
        *game.state.face_up,
    ]


def test_sampled_deals_agree_with_what_the_seat_sees():
    """Every sampled deal holds each card once, keeps this seat's cards, the hand
    and pile sizes, the cards played and the Speed-8 cards with their owners."""
    rng = random.Random(1)
    for seed, variant, players in ((2, "standard", 4), (4, "two-player", 2)):
        game = new(seed, players, variant)
        bots = [GreedyBot(seat) for seat in range(players)]
        while not game.over:
            seat = game.due()[0]
            world = game.determinized(seat, rng)
            cards = [sorted(c for zone in zones(g) for c in zone) for g in (world, game)]
            assert cards[0] == cards[1]
            assert len(set(cards[0])) == len(cards[0])
            assert world.state.hands[seat] == game.state.hands[seat]
            assert sorted(world.state.piles[seat]) == sorted(game.state.piles[seat])
            assert [len(h) for h in world.state.hands] == [len(h) for h in game.state.hands]
            assert [len(p) for p in world.state.piles] == [len(p) for p in game.state.piles]
            assert len(world.state.pile) == len(game.state.pile)
            for car, owner in enumerate(game.state.owner):
                s8 = game.deck.speed8(COLOURS[car])
                if owner >= 0 and s8 in game.state.hands[owner] + game.state.piles[owner]:
                    assert s8 in world.state.hands[owner] + world.state.piles[owner]
            game.apply(bots[seat].choose(*ask(game, seat)))


def test_a_world_drawn_for_any_seat_at_any_moment_plays_on():
    """What other seats are asked comes from their drawn cards: a world drawn for
    a seat that is not due (another seat's card to play, bid or bet) offers that
    seat its own cards, every option is legal there, and it plays to the end."""
    rng = random.Random(4)
    for seed, variant, players in ((6, "standard", 4), (8, "two-player", 2), (3, "beginner", 3)):
        game = new(seed, players, variant)
        bots = [GreedyBot(seat) for seat in range(players)]
        steps = 0
        while not game.over:
            steps += 1
            if steps % 5 == 0:
                for seat in range(players):
                    world = game.determinized(seat, rng)
                    for other in world.due():
                        mine = set(world.state.hands[other]) | set(world.state.face_up[other])
                        for option in world.options(other):
                            assert world.is_legal(option)
                            card = getattr(option, "card", None)
                            assert card is None or card in mine
                    while not world.over:
                        for other in world.due():
                            world.apply(world.options(other)[0])
            seat = game.due()[0]
            game.apply(bots[seat].choose(*ask(game, seat)))


def test_a_world_keeps_what_the_seat_may_know_and_only_that():
    """The seat's own hand and secret bid stay; others' secret bids are taken back."""
    game = new(5)
    while not (game.pending.kind == "bid" and len(game.due()) == 4):
        seat = game.due()[0]
        game.apply(game.options(seat)[0])
    game.apply(game.options(1)[-1])  # seat 1's secret bid
    game.apply(game.options(0)[0])  # seat 0's
    world = game.determinized(0, random.Random(2))
    assert world.state.collected == {0: game.state.collected[0]}
    assert sorted(world.due()) == [1, 2, 3]
    assert world.state.hands[0] == game.state.hands[0]


def test_a_tour_drawn_again_keeps_the_races_run_and_draws_the_ones_to_come():
    """World tour: the race being played is determinized, the races still to
    come are set up from seeds drawn anew."""
    v = load_variant("world-tour")
    tour = Series.new([open_track(t) for t in v.series], v, 4, 9)
    for _ in range(20):
        seat = tour.due()[0]
        tour.apply(tour.options(seat)[0])
    world = tour.determinized(0, random.Random(3))
    assert world.seeds[0] == tour.seeds[0] and world.seeds[1:] != tour.seeds[1:]
    assert world.game is not tour.game and world.game.state.hands[0] == tour.game.state.hands[0]
    while not world.over:
        for seat in world.due():
            world.apply(world.options(seat)[0])
    assert not tour.over
