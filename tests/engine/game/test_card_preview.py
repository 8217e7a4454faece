"""What a card would do if played now, told before it is played: the engine plays it
on a copy and reads the copy's log; the game itself is left as it was."""

from __future__ import annotations

import random

import pytest

from trackside.engine.game import Board, Game, PlayCard, load_variant
from trackside.engine.game.preview import CardPreview, card_preview, preview_words
from trackside.engine.resources import resolve_track
from trackside.engine.track.model import load_track


@pytest.fixture(scope="module")
def board() -> Board:
    return Board(load_track(resolve_track("quarry-hairpin")), load_variant("standard").use_finish)


def game_where(board: Board, wanted) -> tuple[Game, int, CardPreview]:
    """A standard 4-player game played with seeded random choices until a card of the
    seat to play has a preview that ``wanted`` picks: the game, the card, its preview."""
    variant = load_variant("standard")
    for seed in range(20):
        game, rng = Game.new(board, variant, 4, seed), random.Random(seed)
        while not game.over:
            if game.pending.kind == "play_card":
                for option in game.options(game.due()[0]):
                    preview = card_preview(game, option.card)
                    if wanted(preview):
                        return game, option.card, preview
            for seat in game.due():
                game.apply(rng.choice(game.options(seat)))
    raise AssertionError("no such card came")


def play_with_random_choices(game: Game, card: int, seed: int) -> None:
    """Play ``card`` in ``game`` itself, every choice it asks made at random."""
    rng = random.Random(seed)
    game.apply(PlayCard(game.due()[0], card))
    while game.state.card is not None and not game.over:
        game.apply(rng.choice(game.options(game.due()[0])))


def test_a_boxed_in_car_is_told_it_cannot_move_and_it_stays(board):
    """R-MOVE-4, R-MOVE-3: a car with no free space ahead stays where it is; the
    preview says so of the card's top row (R-RACE-2: nothing moves before it), and
    played for real, whatever is chosen, that car has not moved."""
    game, card, preview = game_where(board, lambda p: p.rows[0].blocked)
    top = preview.rows[0]
    assert top.moved == 0 and not top.finished and not top.finishes
    assert "cannot move (no free space ahead)" in preview_words(preview, set())
    where = game.position(top.colour)
    for seed in range(3):
        trial = game.copy()
        play_with_random_choices(trial, card, seed)
        assert trial.position(top.colour) == where


def test_the_game_previewed_is_left_as_it_was(board):
    game, card, _preview = game_where(board, lambda p: True)
    history, log, hand = game.history, list(game.log), list(game.state.hands[game.due()[0]])
    card_preview(game, card)
    assert game.history == history and game.log == log
    assert game.state.hands[game.due()[0]] == hand and game.pending.kind == "play_card"


def test_a_free_car_goes_its_full_number_and_a_short_one_says_how_far(board):
    """R-MOVE-4: a car must move its full number if it can; one that cannot stops
    where no forward space is free, and the preview gives the spaces it gets."""
    _game, _card, preview = game_where(board, lambda p: any(r.moved == r.spaces for r in p.rows))
    assert any(r.moved == r.spaces and not r.wild for r in preview.rows)
    _game, _card, short = game_where(
        board, lambda p: any(0 < r.moved < r.spaces and not r.finishes for r in p.rows)
    )
    row = next(r for r in short.rows if 0 < r.moved < r.spaces and not r.finishes)
    assert f"{row.colour} only {row.moved} of {row.spaces} (blocked)" in preview_words(short, set())


def test_wild_rows_are_the_players_to_name_and_finished_cars_move_nothing(board):
    """R-RACE-4: a WILD row moves a car the card player names: the preview cannot
    say which. R-FIN-1: a finished car has left the track, so its row moves nothing;
    a card of finished cars alone moves no car, and says so."""
    _game, _card, wild = game_where(board, lambda p: any(r.wild for r in p.rows))
    row = next(r for r in wild.rows if r.wild)
    assert row.moved == 0 and not row.blocked and not wild.moves_no_car
    assert f"WILD {row.spaces}: a car you name" in preview_words(wild, set())
    _game, _card, done = game_where(board, lambda p: p.moves_no_car)
    assert all(r.finished or r.blocked for r in done.rows)
    assert preview_words(done, set()).startswith("If played now it moves no car: ")


def test_a_card_that_moves_none_of_the_players_own_cars_says_so(board):
    def only_others_move(p: CardPreview) -> bool:
        return p.rows[0].blocked and any(r.moved for r in p.rows[1:])

    _game, _card, preview = game_where(board, only_others_move)
    own = {preview.rows[0].colour}
    words = preview_words(preview, own)
    assert words.endswith("; none of your cars moves")
    assert f"{preview.rows[0].colour} (yours) cannot move" in words


def test_a_wild_row_tells_how_far_each_of_the_players_racing_cars_would_go(board):
    """R-RACE-4: the card player names the WILD row's car, a car not printed on the
    card. The preview tells, for each of the player's own cars still racing that it
    may name, how far that car would go; played for real naming that car, with the
    other rows in printed order and the longest moves, it goes that far."""
    from trackside.engine.game import Order, Skip, Wild

    def names_a_car(p: CardPreview) -> bool:
        return any(r.wild and any(moved for _c, moved, _f in r.named) for r in p.rows)

    game, card, preview = game_where(board, names_a_car)
    row = next(r for r in preview.rows if r.wild and r.named)
    seat = game.due()[0]
    own = {c for c in ("red", "blue", "green", "yellow", "black", "orange")}
    own = {c for c in own if game.owner_of(c) == seat}
    assert {car for car, _m, _f in row.named} <= own
    printed = {c for c, _ in game.card_of(card).rows}
    assert all(car not in printed for car, _m, _f in row.named) or (
        game.state.power[seat] == "unpredictable"
    )
    car, moved, _finishes = next(n for n in row.named if n[1])
    assert f"your {car} " in preview_words(preview, own)
    trial = game.copy()
    start = len(trial.log)
    trial.apply(PlayCard(seat, card))
    while trial.state.card is not None and not trial.over:
        options = trial.options(trial.due()[0])
        if isinstance(options[0], Wild):
            choice = next(o for o in options if isinstance(o, Wild) and o.colours[0] == car)
        elif isinstance(options[0], Order):
            choice = min(options, key=lambda o: o.rows)  # printed order
        elif isinstance(options[0], Skip):
            choice = next(o for o in options if o.row is None)
        else:
            choice = max(options, key=lambda o: len(getattr(o, "path", ())))
        trial.apply(choice)
    went = sum(
        len(e.data["path"])
        for e in trial.log[start:]
        if e.kind in ("move", "finish") and e.data["car"] == car
    )
    assert went == moved
    assert "none of your cars moves" not in preview_words(preview, own)


def test_under_unpredictable_a_wild_row_naming_a_printed_car_tells_only_its_own_move(board):
    """R-POW-UNP: an Unpredictable player's WILD row may name a car printed on the card;
    the preview tells what the WILD row adds, not the printed row's move again."""

    def printed_own_named(p: CardPreview) -> bool:
        printed = {r.colour for r in p.rows if not r.wild}
        return any(r.wild and any(c in printed for c, _m, _f in r.named) for r in p.rows)

    game, _card, preview = game_where(board, printed_own_named)
    seat = game.due()[0]
    assert game.state.power[seat] == "unpredictable"
    wild = next(r for r in preview.rows if r.wild)
    for car, moved, _finishes in wild.named:
        assert moved <= wild.spaces + 1  # R-MOVE-4 (one more with Determined's step)
        printed = [r for r in preview.rows if r.colour == car]
        assert not printed or not printed[0].finishes
