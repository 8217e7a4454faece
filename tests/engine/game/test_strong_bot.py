"""The strong bot: legal, deterministic for a seed, blind to hidden facts, on budget."""

import random

import pytest

from trackside.engine.bots import (
    GreedyBot,
    StrongBot,
    ask,
    bot_kind_problem,
    bot_seed,
    drive,
    make_bot,
)
from trackside.engine.bots.strong import CLOCK_EVERY, LOOK_AGAIN, LOOK_LAST
from trackside.engine.game import COLOURS, Bid, Game, PlayCard, load_variant
from trackside.engine.game.hidden import revealed_cards
from trackside.engine.records import new_game, open_track

HARBOUR = "harbour-loop"


def new(seed: int, players: int = 4, variant: str = "standard") -> Game:
    game = new_game([open_track(HARBOUR)], load_variant(variant), players, seed, series=False)
    assert isinstance(game, Game)
    return game


def advance(game: Game, until, others_first: bool = True) -> None:
    """Greedy bots play until ``until(game, seat)`` holds for a due seat, which is
    then left to answer (the other due seats answer first unless told not to)."""
    bots = [GreedyBot(seat) for seat in range(game.players)]
    while not game.over:
        due = game.due()
        stop = [seat for seat in due if until(game, seat)]
        if stop:
            for seat in due if others_first else ():
                if seat != stop[0] and seat in game.due():
                    game.apply(bots[seat].choose(*ask(game, seat)))
            return
        seat = due[0]
        game.apply(bots[seat].choose(*ask(game, seat)))
    raise AssertionError("the game ended before the decision looked for")


def due_kind(kind: str, seat: int = 0):
    return lambda game, s: s == seat and game.state.step.kind == kind and len(game.options(s)) > 1


def checked_apply(game: Game, decision, kinds: set) -> None:
    assert game.is_legal(decision), decision
    if decision.player == 0 and len(game.options(0)) > 1:
        kinds.add(decision.type)
    game.apply(decision)


def test_strong_answers_every_decision_kind_legally():
    """R-AUC, R-RACE, R-MOVE, R-BET: with one sample a decision, the strong seat's
    every answer is legal, over bids, power choices, cards, paths, WILD colours
    and bets (each asked with a choice at least once in this game)."""
    kinds = set()
    for seed in (3,):
        game = new(seed, players=3)
        seats = [make_bot("strong:1", bot_seed(seed, 0, "strong")), GreedyBot(1), GreedyBot(2)]

        drive(game, seats, apply=lambda d, g=game: checked_apply(g, d, kinds))
        assert game.over
    assert {"bid", "keep_power", "play_card", "path", "wild", "bet"} <= kinds


@pytest.mark.parametrize("kind", ["bid", "play_card", "bet"])
def test_same_seed_same_answer(kind):
    """Two strong bots with one seed answer a decision alike; the search is not greedy's copy."""
    game = new(7)
    advance(game, due_kind(kind))
    answers = {make_bot("strong:2", "s").choose(*ask(game, 0)) for _ in range(2)}
    assert len(answers) == 1
    assert answers <= set(game.options(0)) or game.is_legal(answers.pop())


def hidden_swap(game: Game) -> Game:
    """The same public game with other seats' unseen cards dealt differently
    (two hands trade a card they never showed; a hand trades one with the cards
    out of the game) and other seats' bets changed."""
    twin = game.copy()
    shown = revealed_cards(game.log)
    size = game.deck.size

    def secret(seat: int) -> int:
        return next(c for c in twin.state.hands[seat] if c < size and c not in shown.get(seat, ()))

    a, b = secret(1), secret(2)
    i, j = twin.state.hands[1].index(a), twin.state.hands[2].index(b)
    twin.state.hands[1][i], twin.state.hands[2][j] = b, a
    out = next(c for c in twin.state.out_of_game if c < size)
    c = secret(3)
    twin.state.hands[3][twin.state.hands[3].index(c)] = out
    twin.state.out_of_game[twin.state.out_of_game.index(out)] = c
    for line in twin.state.bets:
        for seat in (1, 2, 3):
            if line[seat] is not None:
                line[seat] = (line[seat] + 1) % len(COLOURS)
    return twin


@pytest.mark.parametrize("kind", ["bid", "play_card", "bet"])
def test_decision_does_not_see_hidden_hands(kind):
    """Swapping the cards other seats hide (and their secret bets) for another
    deal consistent with what seat 0 sees changes neither the sampled deals nor
    the strong bot's answer."""
    game = new(5)
    advance(game, due_kind(kind))
    twin = hidden_swap(game)
    assert twin.state.hands != game.state.hands
    worlds = [g.determinized(0, random.Random(9)).state for g in (game, twin)]
    assert worlds[0].hands == worlds[1].hands
    assert worlds[0].out_of_game == worlds[1].out_of_game
    assert worlds[0].bets == worlds[1].bets
    answers = [StrongBot("same", samples=2).choose(*ask(g, 0)) for g in (game, twin)]
    assert answers[0] == answers[1]


def test_secret_bids_already_given_are_not_seen():
    """R-AUC-1: a bid another seat has given but not yet revealed does not change the answer."""
    game = new(5)
    both = due_kind("bid", seat=1)
    advance(game, lambda g, s: both(g, s) and due_kind("bid")(g, 0), others_first=False)
    twin = game.copy()
    options = game.options(1)
    game.apply(options[0])
    twin.apply(options[-1])
    answers = [StrongBot("same", samples=2).choose(*ask(g, 0)) for g in (game, twin)]
    assert answers[0] == answers[1]
    assert isinstance(answers[0], Bid)


def test_budget_counts_rollouts_and_the_time_cap_stops_early():
    """``samples`` deals a decision, one rollout per candidate in each; a zero time
    cap stops at the first look at the clock, ``CLOCK_EVERY`` deals in."""
    game = new(7)
    advance(game, due_kind("play_card"))
    rollouts = {}
    many = 3 * CLOCK_EVERY
    for samples, seconds in ((1, 10.0), (many, 10.0), (many, 0.0)):
        bot = StrongBot("b", samples=samples, seconds=seconds, again=0, last=0)
        bot.choose(*ask(game, 0))
        rollouts[samples, seconds] = bot.rollouts
    assert rollouts[many, 10.0] == many * rollouts[1, 10.0] > 0
    assert rollouts[many, 0.0] == CLOCK_EVERY * rollouts[1, 10.0]


def test_the_leading_cards_get_a_second_look():
    """After every candidate card is judged on ``samples`` deals, the ``LOOK_AGAIN``
    best are judged on ``again`` more: one rollout each a deal; the answer is the
    same for the same seed, and a zero time cap stops in the second look too, at
    the first look at the clock."""
    game = new(7)
    advance(game, due_kind("play_card"))
    alone = StrongBot("look", again=0, last=0)
    first = alone.choose(*ask(game, 0))
    tried = alone.rollouts
    assert tried > LOOK_AGAIN
    answers = []
    for _ in range(2):
        bot = StrongBot("look", again=2, last=0)
        answers.append(bot.choose(*ask(game, 0)))
        assert bot.rollouts == tried + 2 * LOOK_AGAIN
    assert answers[0] == answers[1] and game.is_legal(answers[0])
    assert isinstance(first, PlayCard) and isinstance(answers[0], PlayCard)
    capped = StrongBot("look", again=2 * CLOCK_EVERY, last=0, seconds=0.0)
    capped.choose(*ask(game, 0))
    assert capped.rollouts == tried + (CLOCK_EVERY - 1) * LOOK_AGAIN


def test_the_best_two_get_a_last_look():
    """After the second look, the ``LOOK_LAST`` best are judged on ``last`` more deals,
    one rollout each a deal (two deals by default); a zero time cap stops there too,
    at the first look at the clock."""
    game = new(7)
    advance(game, due_kind("play_card"))
    alone = StrongBot("last", again=1, last=0)
    alone.choose(*ask(game, 0))
    tried = alone.rollouts
    assert LOOK_LAST < LOOK_AGAIN
    bot = StrongBot("last")
    assert game.is_legal(bot.choose(*ask(game, 0)))
    assert bot.rollouts == tried + 2 * LOOK_LAST
    capped = StrongBot("last", again=1, last=2 * CLOCK_EVERY, seconds=0.0)
    capped.choose(*ask(game, 0))
    assert capped.rollouts == tried + (CLOCK_EVERY - 2) * LOOK_LAST


def test_no_last_look_where_the_race_is_lost_whichever_card_is_played():
    """Seed 1, the twelfth card: seat 0's two cars are the last two (33 and 36 steps
    to go, the leaders 23). The second look finds every candidate worth less than
    ``strong.SETTLED`` a deal, so no deal is spent on a last look; with ``settled=0`` the
    two best still get theirs."""
    game = new(1)
    advance(game, lambda g, s: due_kind("play_card")(g, s) and g.state.cards_played >= 12)
    without = StrongBot("settle", last=0)
    without.choose(*ask(game, 0))
    bot = StrongBot("settle")
    assert game.is_legal(bot.choose(*ask(game, 0)))
    assert bot.rollouts == without.rollouts
    looking = StrongBot("settle", settled=0.0)
    looking.choose(*ask(game, 0))
    assert looking.rollouts == without.rollouts + 2 * LOOK_LAST


@pytest.mark.parametrize(
    ("kind", "problem"),
    [
        ("strong", None),
        ("strong:12", None),
        ("wizard", "unknown bot kind"),
        ("strong:0", "bad bot budget"),
        ("strong:x", "bad bot budget"),
        ("greedy:3", "bad bot budget"),
    ],
)
def test_bot_kinds_and_budgets(kind, problem):
    """``strong:N`` sets the deals searched per decision; other kinds take no budget."""
    found = bot_kind_problem(kind)
    assert (found is None) if problem is None else (problem in (found or ""))
    if problem is None:
        bot = make_bot(kind, 1)
        assert isinstance(bot, StrongBot)
        assert bot.samples == (12 if kind.endswith("12") else StrongBot(1).samples)
    else:
        with pytest.raises(ValueError, match=problem):
            make_bot(kind, 1)


@pytest.mark.parametrize("variant", ["standard", "long-distance"])
def test_a_bet_plays_each_deal_on_after_greedys_bet(variant):
    """R-BET-2: a bet is judged over ``bet_samples`` deals, each played on once
    after greedy's bet (``bet_depth`` cards, or to the end where the value
    estimate does not apply: long distance has no finish line); the answer is a
    legal bet and the same for the same seed."""
    game = new(11, variant=variant)
    advance(game, due_kind("bet"))
    answers = []
    for _ in range(2):
        bot = StrongBot("bets", samples=3)
        answers.append(bot.choose(*ask(game, 0)))
        assert bot.rollouts == bot.bet_samples == 12
    assert answers[0] == answers[1]
    assert game.is_legal(answers[0])
