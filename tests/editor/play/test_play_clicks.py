"""People play through clicks on the real widgets: bids on hand cards, card plays,
destinations on the board, bets, WILD colours, powers, the hand-over screen."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt
from repo_paths import TRACKS

from trackside.editor.play.controller import PlayController
from trackside.editor.play.setup import GameSetup, Seat, make_bots
from trackside.engine.game import (
    Bet,
    Bid,
    Board,
    Game,
    Order,
    PlayCard,
    Skip,
    load_variant,
)
from trackside.engine.game import (
    Path as PathDecision,
)
from trackside.engine.track.model import Track

HARBOUR = TRACKS / "harbour-loop.yaml"
LEFT = Qt.MouseButton.LeftButton

pytestmark = pytest.mark.slow  # whole games through the widgets


@pytest.fixture
def harbour_window(window):
    assert window.open_file(HARBOUR, ask=False)
    window.play.bot_ms, window.play.anim_ms = 0, 0
    return window


def start(window, variant: str, seats: list[Seat], seed: int):
    v = load_variant(variant)
    setup = GameSetup(v, variant, seats, seed, [window.doc.snapshot()], [None])
    assert window.play.start(setup)
    return window.play.view


def click_space(qtbot, view, space_id: str) -> None:
    qtbot.mouseClick(view.board, LEFT, pos=view.board.widget_point(space_id).toPoint())


def wait_for_person(qtbot, view) -> None:
    c = view.controller
    qtbot.waitUntil(
        lambda: c.waiting_for is not None or view.showing_handover or view.showing_sheet,
        timeout=60_000,
    )


def answer_by_clicks(qtbot, view, rng: random.Random, log: list) -> None:
    """Answer whatever the screen asks with a click; note what was clicked in ``log``."""
    c = view.controller
    if view.showing_handover:
        assert view.hand.buttons == {}, "no hand is on screen during a hand-over"
        log.append(("handover", c.handing_to))
        qtbot.mouseClick(view.handover.button, LEFT)
        return
    seat, race = c.waiting_for, c.race
    kind = race.pending.kind
    if kind in ("bid", "play_card"):
        enabled = [cid for cid, b in view.hand.buttons.items() if b.isEnabled()]
        if kind == "play_card":
            # Hidden information: the buttons are this seat's cards, nobody else's.
            assert set(view.hand.buttons) == set(race.state.hands[seat]) | set(
                race.state.face_up[seat]
            )
        if enabled:
            cid = rng.choice(sorted(enabled))
            log.append((kind, seat, cid, race.pending.car))
            qtbot.mouseClick(view.hand.buttons[cid], LEFT)
        else:
            b = rng.choice(view.choices.buttons)
            log.append((kind, seat, b.text(), race.pending.car))
            qtbot.mouseClick(b, LEFT)
    elif kind in ("path", "bonus"):
        board = view.board
        if view.choosing_path and board.marked:
            sid = rng.choice(sorted(board.marked))
            log.append(("second-click", seat, sid, race.pending.car))
            click_space(qtbot, view, sid)
        elif view.choosing_path:
            qtbot.mouseClick(rng.choice(view.choices.buttons), LEFT)
        else:
            sid = rng.choice(sorted(board.lit))
            log.append(("path", seat, sid, race.pending.car))
            click_space(qtbot, view, sid)
    else:
        b = rng.choice(view.choices.buttons)
        log.append((kind, seat, b.text()))
        qtbot.mouseClick(b, LEFT)


def play_by_clicks(qtbot, view, seed: int) -> list:
    rng = random.Random(seed)
    log: list = []
    for _ in range(3000):
        wait_for_person(qtbot, view)
        if view.showing_sheet:
            return log
        answer_by_clicks(qtbot, view, rng, log)
    raise AssertionError("the game did not end")


def test_a_person_bids_plays_chooses_destinations_and_bets_by_clicks(qtbot, harbour_window):
    view = start(
        harbour_window,
        "standard",
        [Seat("Ana"), Seat("Ben", "greedy"), Seat("Chloé", "greedy"), Seat("Dev", "random")],
        21,
    )
    c = view.controller
    # The first auction: Ana's bid is a card clicked in her hand (R-AUC-2).
    wait_for_person(qtbot, view)
    assert c.waiting_for == 0 and c.race.pending.kind == "bid"
    car = c.race.pending.car
    playable = [cid for cid, b in view.hand.buttons.items() if b.isEnabled()]
    assert playable, "a bid card can be clicked"
    card = playable[0]
    value = c.race.card_of(card).number(car)
    qtbot.mouseClick(view.hand.buttons[card], LEFT)
    assert Bid(0, card) in c.decisions
    qtbot.waitUntil(lambda: any(e.kind == "bids" for e in c.race.log), timeout=30_000)
    reveal = next(e for e in c.race.log if e.kind == "bids")
    if value is not None:
        assert reveal.data["bids"][0] == (value, card)
    log = play_by_clicks(qtbot, view, seed=5)
    mine = [d for d in c.decisions if d.player == 0]
    kinds = {type(d) for d in mine}
    assert {Bid, PlayCard, PathDecision, Bet} <= kinds
    # Every destination clicked is where that car's move ended (R-MOVE-4/5).
    moves = [e for e in c.race.log if e.kind in ("move", "finish") and e.data.get("path")]
    for entry in log:
        if entry[0] == "path":
            _, _seat, sid, car = entry
            assert any(e.data["car"] == car and e.data["path"][-1] == sid for e in moves)
    # A bet clicked is the car on the sheet's bet row (R-BET-2, revealed at scoring).
    bets = [d.car for d in mine if isinstance(d, Bet)]
    sheet = view.sheet.text().splitlines()
    for k, car in enumerate(bets):
        row = next(line for line in sheet if line.startswith(f"Bet {k + 1}"))
        assert row.split(" | ")[1].startswith(car)


def test_two_people_hand_over_the_screen_and_see_only_their_own_cards(qtbot, harbour_window):
    view = start(harbour_window, "standard", [Seat("Ana"), Seat("Ben"), Seat("Chloé", "greedy")], 8)
    c = view.controller
    rng, log, checked = random.Random(9), [], 0
    for _ in range(3000):
        wait_for_person(qtbot, view)
        if view.showing_sheet:
            break
        seat = c.waiting_for
        if seat is not None:
            # R-BET-2: the other person's bets stay secret while this one decides.
            other = 1 - seat
            cell = view.players.item(other, 5).text()
            assert cell == "—" or cell.endswith("secret"), cell
            checked += cell.endswith("secret")
        answer_by_clicks(qtbot, view, rng, log)
    assert checked > 0
    handovers = [e for e in log if e[0] == "handover"]
    assert len(handovers) > 5
    assert {h[1] for h in handovers} == {0, 1}
    assert view.controller.over


def test_two_player_face_up_speed8_is_played_by_a_click(qtbot, harbour_window):
    """R-VAR two players: an unused face-up Speed-8 card may be played instead of a hand card."""
    view = start(harbour_window, "two-player", [Seat("Ana"), Seat("Ben", "greedy")], 2)
    c = view.controller
    used = False
    rng = random.Random(1)
    log: list = []
    for _ in range(3000):
        wait_for_person(qtbot, view)
        if view.showing_sheet:
            break
        race = c.race
        if not used and race.pending.kind == "play_card" and race.state.face_up[0]:
            s8 = race.state.face_up[0][0]
            assert view.hand.buttons[s8].isEnabled() and view.hand.buttons[s8].note == "face up"
            hand_before = len(race.state.hands[0])
            qtbot.mouseClick(view.hand.buttons[s8], LEFT)
            assert PlayCard(0, s8) in c.decisions and s8 not in race.state.face_up[0]
            assert len(race.state.hands[0]) == hand_before  # no draw after a face-up card
            used = True
            continue
        answer_by_clicks(qtbot, view, rng, log)
    assert used and view.showing_sheet


def test_beginner_game_by_clicks_reaches_the_sheet(qtbot, harbour_window):
    view = start(
        harbour_window, "beginner", [Seat("Ana"), Seat("Ben", "random"), Seat("Chloé", "greedy")], 3
    )
    play_by_clicks(qtbot, view, seed=3)
    text = view.sheet.text()
    assert "owner of the first car to finish" in text
    assert "Bet 1" not in text  # no betting in the beginner game


def game_at(track: Track, seed: int, wanted) -> Game:
    """A standard 4-player game played with seeded random choices until ``wanted(game)``
    (trying the next seeds if that game never gets there)."""
    v = load_variant("standard")
    board = Board(track, v.use_finish)
    for s in range(seed, seed + 40):
        game = Game.new(board, v, 4, s)
        rng = random.Random(s)
        while not game.over and not wanted(game):
            for seat in game.due():
                game.apply(rng.choice(game.options(seat)))
        if not game.over:
            return game
    raise AssertionError("the position looked for never came")


def take_over(qtbot, window, game: Game) -> PlayController:
    """Seat a person where the game waits; bots everywhere else."""
    (seat,) = game.due()
    seats = [Seat("Ana") if k == seat else Seat(f"Bot {k + 1}", "random") for k in range(4)]
    setup = GameSetup(game.variant, "standard", seats, 0, [game.board.track], [None])
    c = PlayController(game, setup, make_bots(setup), bot_ms=0, anim_ms=0)
    window.play.enter()
    window.play.view.start(c)
    qtbot.waitUntil(lambda: c.waiting_for == seat, timeout=10_000)
    return c


def ambiguous(game: Game) -> bool:
    """Several paths to one end, and no Aggressive extra space on offer (its ends are
    marked apart: see the Aggressive test below)."""
    if game.pending.kind != "path" or game.pending.extra:
        return False
    ends = [o.path[-1] for o in game.options(game.due()[0])]
    return len(ends) != len(set(ends))


def test_second_click_chooses_among_paths_that_differ(qtbot, window, bundled):
    """R-MOVE-5: the path matters (here Determined: only rectangular spaces or not)."""
    game = game_at(bundled["estuary-sweep"], 1, ambiguous)
    c = take_over(qtbot, window, game)
    view = window.play.view
    seat = c.waiting_for
    opts = game.options(seat)
    assert view.board.lit == {o.path[-1] for o in opts}
    end = next(e for e in view.board.lit if sum(o.path[-1] == e for o in opts) > 1)
    click_space(qtbot, view, end)
    assert c.waiting_for == seat, "one click on a shared end does not decide yet"
    assert view.choosing_path
    group = [o for o in opts if o.path[-1] == end]
    assert view.board.marked and len(view.choices.buttons) == len(group)
    sid = sorted(view.board.marked)[0]
    chosen = next(o for o in group if sid in o.path)
    n = len(c.decisions)
    click_space(qtbot, view, sid)
    assert c.decisions[n] == chosen


def aggressive_choice(game: Game) -> bool:
    """The Aggressive owner chooses 6 or 7 with some end only the 7th space reaches."""
    if game.pending.kind != "path" or not game.pending.extra:
        return False
    n = game.pending.spaces or 0
    opts = game.options(game.due()[0])
    short = {o.path[-1] for o in opts if len(o.path) <= n}
    return any(len(o.path) > n and o.path[-1] not in short for o in opts)


def test_aggressive_extra_space_is_offered_and_taken_by_a_click(qtbot, window, bundled):
    """R-POW-AGG: the ends only the extra space reaches are marked +1 beside the lit
    6-space ends; clicking one takes the extra space, and the log says so."""
    game = game_at(bundled["harbour-loop"], 0, aggressive_choice)
    c = take_over(qtbot, window, game)
    view = window.play.view
    seat = c.waiting_for
    n = game.pending.spaces
    opts = game.options(seat)
    assert view.board.lit == {o.path[-1] for o in opts if len(o.path) <= n}
    assert set(view.board.marked.values()) == {"+1"}
    assert "with Aggressive" in view.prompt.text()
    end = sorted(view.board.marked)[0]
    k = len(c.decisions)
    click_space(qtbot, view, end)
    assert c.decisions[k] in opts and len(c.decisions[k].path) == n + 1
    assert any("Aggressive extra space" in e.text for e in game.log)


def test_tricky_order_is_chosen_row_by_row(qtbot, window, bundled):
    """R-POW-TRI: the rows in any order, here the last printed row first."""
    game = game_at(bundled["harbour-loop"], 1, lambda g: g.pending.kind == "order")
    c = take_over(qtbot, window, game)
    view = window.play.view
    seat = c.waiting_for
    orders = [o.rows for o in game.options(seat)]
    first = max(o[0] for o in orders)
    wanted = next(o for o in orders if o[0] == first)
    labels = [b.text() for b in view.choices.buttons]
    assert "Printed order" in labels
    card = game.card_of(game.state.card)
    for r in wanted:
        colour, n = card.rows[r]
        label = f"{'WILD' if colour == 'wild' else colour} {n}"
        if c.waiting_for != seat or game.pending.kind != "order":
            break
        qtbot.mouseClick(view.choices.button(label), LEFT)
    assert Order(seat, wanted) in c.decisions


def test_strategic_skip_is_a_button(qtbot, window, bundled):
    """R-POW-STR: skip one row of the card played."""
    game = game_at(bundled["harbour-loop"], 0, lambda g: g.pending.kind == "skip")
    c = take_over(qtbot, window, game)
    view = window.play.view
    seat = c.waiting_for
    card = game.card_of(game.state.card)
    colour, n = card.rows[0]
    qtbot.mouseClick(
        view.choices.button(f"Skip {'WILD' if colour == 'wild' else colour} {n}"), LEFT
    )
    assert Skip(seat, 0) in c.decisions
    assert any(e.kind == "skip" for e in game.log)


def test_cunning_owner_is_asked_on_another_players_turn(qtbot, window, bundled):
    """R-POW-CUN: the owner moves their own car when someone else plays it."""
    game = game_at(
        bundled["harbour-loop"],
        6,
        lambda g: g.pending.kind == "path" and g.due()[0] != g.state.turn,
    )
    c = take_over(qtbot, window, game)
    view = window.play.view
    seat = c.waiting_for
    assert seat != game.state.turn and game.state.power[seat] == "cunning"
    assert "Cunning" in view.prompt.text()
    car = game.pending.car
    sid = sorted(view.board.lit)[-1]
    click_space(qtbot, view, sid)
    assert any(
        isinstance(d, PathDecision) and d.player == seat and d.car == car and d.path[-1] == sid
        for d in c.decisions
    )


def test_world_tour_shows_each_race_sheet_and_waits_for_the_next_race(
    qtbot, harbour_window, bundled
):
    """R-VAR world tour: a full game per circuit, winnings added up."""
    window = harbour_window
    v = load_variant("world-tour")
    tracks = [window.doc.snapshot(), bundled["quarry-hairpin"]]
    setup = GameSetup(
        v,
        "world-tour",
        [Seat("Ana"), Seat("Ben", "random"), Seat("Chloé", "greedy")],
        12,
        tracks,
        [None, None],
    )
    assert window.play.start(setup)
    view = window.play.view
    c = view.controller
    rng, log = random.Random(4), []
    for _ in range(3000):
        qtbot.waitUntil(
            lambda: c.waiting_for is not None or view.showing_handover or view.showing_sheet,
            timeout=60_000,
        )
        if view.showing_sheet:
            break
        answer_by_clicks(qtbot, view, rng, log)
    assert not c.over and c.held, "race 1 ended: its sheet waits for the players"
    assert view.next_race_button.isVisible()
    first = c.game.games[0].result.scores
    assert "World tour after 1 of 2 races" in view.sheet.text()
    qtbot.mouseClick(view.next_race_button, LEFT)
    assert not view.showing_sheet and view.board.board.track.name == tracks[1].name
    play_by_clicks(qtbot, view, seed=6)
    total = next(line for line in view.sheet.text().splitlines() if line.startswith("Total"))
    second = c.game.games[1].result.scores
    assert total.split(" | ")[1:] == [str(a + b) for a, b in zip(first, second, strict=False)]


def test_cars_carry_distinct_owner_marks():
    from trackside.editor.play.players_panel import owner_marks

    assert owner_marks(["Ana", "Ben", "Chloé"]) == ["A", "B", "C"]
    assert owner_marks(["Claude", "Chloé", "Ben"]) == ["Cl", "Ch", "Be"]
    assert owner_marks(["Bot", "Bot", "x"]) == ["1", "2", "3"]
