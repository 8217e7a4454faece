"""Play mode with bots: every bundled variant to the score sheet, pause and step, the New
game dialog, and the refusal of a circuit with validation errors (records: test_play_records)."""

from __future__ import annotations

import pytest
from play_helpers import HARBOUR, bots_setup, play_out
from PySide6.QtCore import Qt
from repo_paths import ROOT, TRACKS

from trackside.editor.play.new_game_dialog import NewGameDialog
from trackside.editor.play.setup import PERSON, GameSetup, Seat
from trackside.engine.game import Series, bundled_variants, load_variant
from trackside.engine.resources import bundled_tracks
from trackside.engine.track.model import load_track

pytestmark = pytest.mark.slow  # whole games through the widgets


@pytest.mark.parametrize(
    "variant_file", [str(p) for p in bundled_variants()], ids=[p.stem for p in bundled_variants()]
)
def test_all_bot_game_of_every_bundled_variant_reaches_the_score_sheet(
    qtbot, harbour_window, variant_file
):
    window = harbour_window
    setup = bots_setup(window, variant_file)
    c = play_out(qtbot, window, setup)
    view = window.play.view
    assert window.play.active and c.over
    race = c.race
    res = race.result
    text = view.sheet.text()
    names = setup.names()
    # R-SCORE: the sheet's winnings row is the engine's scores, the winner named.
    winnings = next(line for line in text.splitlines() if line.startswith("Winnings"))
    assert winnings.split(" | ")[1:] == [str(s) for s in res.scores]
    # A price paid is taken off with an ASCII "-", the one sign style of what is shown.
    prices = [line for line in text.splitlines() if line.startswith("Auction prices")]
    assert prices == (
        [f"Auction prices | {' | '.join(f'-{x}' for x in res.prices)}"]
        if race.variant.auction
        else []
    )
    winners = c.game.result.winners
    assert "Winner: " + " and ".join(names[p] for p in res.winners) in text
    if isinstance(c.game, Series):
        assert len(c.game.games) == 2
        total = next(line for line in text.splitlines() if line.startswith("Total"))
        assert total.split(" | ")[1:] == [str(s) for s in c.game.result.scores]
        tour_winners = " and ".join(names[p] for p in winners)
        assert f"World tour — Winner: {tour_winners} (highest total, $" in text
    # The board's places strip shows the final ranking (R-FIN-1, long distance by distance).
    assert view.board.places == list(res.ranking)
    assert all(view.board.positions[car] == race.position(car) for car in view.board.positions)
    assert view.hand.buttons == {}
    assert view.sheet_button.isEnabled() and not view.pause_button.isEnabled()


def test_pause_holds_bots_and_step_lets_one_decision_through(qtbot, harbour_window):
    window = harbour_window
    window.play.start(bots_setup(window, "standard"))
    view = window.play.view
    c = view.controller
    qtbot.mouseClick(view.pause_button, Qt.MouseButton.LeftButton)
    assert c.paused and view.pause_button.text() == "Resume"
    # Unpaused, bots at full speed always have a tick due or a bot thinking until the
    # end: idle before the end, with bots due, is the pause holding them.
    qtbot.waitUntil(lambda: c.idle, timeout=10_000)
    due = c.race.due()
    assert not c.over and due and all(seat in c.bots for seat in due)
    before = len(c.decisions)
    qtbot.mouseClick(view.step_button, Qt.MouseButton.LeftButton)
    assert not c.idle  # the step is on its way
    qtbot.waitUntil(lambda: c.idle, timeout=10_000)
    assert len(c.decisions) == before + 1  # one decision, then held again
    assert c.paused and not c.over
    qtbot.mouseClick(view.pause_button, Qt.MouseButton.LeftButton)
    assert not c.paused and not c.idle
    qtbot.waitUntil(lambda: view.showing_sheet, timeout=120_000)


def test_a_bots_card_in_play_is_shown_face_up_with_its_rows_marked(qtbot, harbour_window):
    window = harbour_window
    window.play.start(bots_setup(window, "standard"))
    view = window.play.view
    c = view.controller
    assert not view.sheet_button.isEnabled()  # no race has ended: no sheet yet
    qtbot.mouseClick(view.pause_button, Qt.MouseButton.LeftButton)
    for _ in range(400):
        if c.race.state.card is not None and c.race.pending.kind == "path":
            break
        before = len(c.decisions)
        qtbot.mouseClick(view.step_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda before=before: len(c.decisions) > before, timeout=10_000)
    race = c.race
    assert race.state.card is not None and race.state.turn in c.bots
    assert race.state.card in view.hand.buttons  # a bot's card, face up for all
    assert view.hand.buttons[race.state.card].current == race.pending.row
    assert c.name(race.state.turn) in view.hand.title.text()


def test_custom_variant_file_plays_with_its_own_payouts(qtbot, harbour_window, tmp_path):
    path = tmp_path / "rich.yaml"
    path.write_text(
        "format: trackside-variant/1\nname: Rich prizes\nextends: standard\n"
        "players: {min: 2, max: 4}\npayouts:\n  race: [20, 10, 5, 0, 0, 0]\n"
    )
    window = harbour_window
    setup = bots_setup(window, str(path), kinds=("greedy", "random"))
    c = play_out(qtbot, window, setup)
    res = c.race.result
    assert len(setup.seats) == 2
    assert "Car owners earn: 1st 20, 2nd 10, 3rd 5" in window.play.view.sheet.text()
    first_owner = c.race.owner_of(res.ranking[0])
    if first_owner is not None:
        assert res.earnings[first_owner] >= 20


def test_long_distance_refuses_a_point_to_point_circuit(qtbot, window):
    track = load_track(ROOT / "tests" / "fixtures" / "valid-straight.yaml")  # open, valid
    v = load_variant("long-distance")
    setup = GameSetup(
        v, "long-distance", [Seat(f"B{k}", "random") for k in range(3)], 1, [track], [None]
    )
    assert not window.play.start(setup)
    asked = window.prompts.titles("problems")
    assert asked[-1][1] == "Cannot start the game" and "closed circuit" in asked[-1][2]
    assert not window.play.active


def test_play_refuses_a_circuit_with_validation_errors_and_names_them(qtbot, window):
    window.new_blank()
    window.play.act_play.trigger()
    asked = window.prompts.titles("problems")
    assert asked and asked[-1][1] == "Cannot play this circuit"
    assert "validation error" in asked[-1][2]
    assert asked[-1][3], "each error is listed"
    assert all(": " in line for line in asked[-1][3])
    assert not window.play.active


def test_a_world_tour_refuses_any_circuit_with_validation_errors(qtbot, window):
    """The first circuit of the tour too, not only the edited one (which F5 checks)."""
    broken = load_track(ROOT / "tests" / "fixtures" / "invalid" / "grid-unknown-id.yaml")
    tracks = [broken, load_track(TRACKS / "quarry-hairpin.yaml")]
    v = load_variant("world-tour")
    setup = GameSetup(
        v, "world-tour", [Seat(f"B{k}", "random") for k in range(3)], 1, tracks, [None, None]
    )
    assert not window.play.start(setup)
    asked = window.prompts.titles("problems")
    assert asked[-1][1] == "Cannot play this circuit" and "grid-unknown-id" in asked[-1][3][0]
    assert not window.play.active


def test_back_to_editing_restores_the_canvas_and_panels(qtbot, harbour_window):
    window = harbour_window
    assert window.issues_dock.isVisible()
    window.play.start(bots_setup(window, "beginner"))
    assert window.play.active and not window.issues_dock.isVisible()
    qtbot.mouseClick(window.play.view.back_button, Qt.MouseButton.LeftButton)
    assert not window.play.active
    assert window.issues_dock.isVisible()
    assert window.play.stack.currentWidget() is window.view


def test_new_game_dialog_builds_the_setup(qtbot, harbour_window):
    window = harbour_window
    dialog = NewGameDialog(window.doc.snapshot(), str(HARBOUR), window)
    qtbot.addWidget(dialog)
    dialog.select_variant("World tour")
    assert dialog.tour_box.isVisibleTo(dialog)
    dialog.players_box.setValue(3)
    dialog.set_seat(0, "Ana", PERSON)
    dialog.set_seat(1, "Ben", "random")
    dialog.set_seat(2, "Chloé", "greedy")
    dialog.seed_box.setValue(4242)
    setup = dialog.setup()
    assert [(s.name, s.kind) for s in setup.seats] == [
        ("Ana", PERSON),
        ("Ben", "random"),
        ("Chloé", "greedy"),
    ]
    assert setup.seed == 4242
    # The tour defaults to the circuit being edited plus a bundled one.
    assert len(setup.tracks) == 2 and setup.track_files[0] == str(HARBOUR)
    others = [str(p) for p in bundled_tracks() if p.resolve() != HARBOUR.resolve()]
    assert setup.track_files[1] == others[0]
    listed = [
        dialog.tour_list.item(k).data(Qt.ItemDataRole.UserRole)
        for k in range(dialog.tour_list.count())
    ]
    assert str(HARBOUR) not in listed  # the edited circuit is listed once
    dialog.select_variant("Two players")
    assert not dialog.tour_box.isVisibleTo(dialog)
    assert dialog.players_box.maximum() == 2 and dialog.players_box.value() == 2
    assert len(dialog.setup().seats) == 2


def test_the_new_game_dialog_and_the_bot_speed_are_remembered(qtbot, harbour_window):
    window = harbour_window
    dialog = NewGameDialog(window.doc.snapshot(), str(HARBOUR), window)
    qtbot.addWidget(dialog)
    dialog.select_variant("Beginner")
    dialog.players_box.setValue(3)
    dialog.set_seat(0, "Ana", PERSON)
    dialog.set_seat(1, "Ben", PERSON)
    dialog.set_seat(2, "", "random")
    again = NewGameDialog(window.doc.snapshot(), str(HARBOUR), window, dialog.choices())
    qtbot.addWidget(again)
    assert again.variant.name == dialog.variant.name and again.players_box.value() == 3
    assert [(s.name, s.kind) for s in again.setup().seats] == [
        (s.name, s.kind) for s in dialog.setup().seats
    ]
    window.play.view.speed.setValue(250)
    assert window.play.bot_ms == 250
    assert int(window.settings.value("play/botMs")) == 250


def test_f5_opens_the_dialog_and_starts_the_game(qtbot, harbour_window):
    window = harbour_window
    made = []

    def fake_dialog():
        d = NewGameDialog(window.doc.snapshot(), str(HARBOUR), window)
        d.select_variant("Beginner")
        d.players_box.setValue(2)
        d.set_seat(0, "Ana", "greedy")
        d.exec = lambda: True  # accepted as if Play were clicked
        made.append(d)
        return d

    window.play.dialog_factory = fake_dialog
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert made and window.play.active
    assert window.play.view.controller.setup.names() == ["Ana", "Ben"]
    qtbot.waitUntil(lambda: window.play.view.showing_sheet, timeout=120_000)
    again = NewGameDialog(
        window.doc.snapshot(), str(HARBOUR), window, window.play.remembered_choices()
    )  # kept in the settings
    qtbot.addWidget(again)
    assert again.variant.name == "Beginner" and again.players_box.value() == 2
    assert again.seat_names[0].text() == "Ana"


def test_moves_are_animated_along_their_paths(qtbot, harbour_window):
    window = harbour_window
    window.play.anim_ms = 15
    window.play.start(bots_setup(window, "beginner", kinds=("random",)))
    view = window.play.view
    board = view.board
    qtbot.waitUntil(lambda: board.animating, timeout=10_000)  # a move is animated
    animation = board.animation()
    assert animation is not None
    _car, steps = animation
    assert steps >= 2  # the start and at least one space entered
    qtbot.waitUntil(lambda: not board.animating, timeout=10_000)
    view.controller.anim_ms = board.anim_ms = 0  # the rest of the game at full speed
    qtbot.waitUntil(lambda: view.showing_sheet, timeout=120_000)
    qtbot.waitUntil(lambda: not board.animating, timeout=10_000)
    for colour, sid in board.positions.items():
        shown = board.shown_at(colour)
        assert (shown is None) == (sid is None)
        if sid is not None:
            assert shown == board.centre(sid)


def test_controller_routes_requests_to_bots_and_asks_people(qtbot):
    """The controller alone: bots answer through their decision functions, a person
    is asked through ``asked`` and answers through ``decide``; the engine rules."""
    from trackside.editor.play.controller import PlayController
    from trackside.engine.game import Board, Game

    v = load_variant("beginner")
    setup = GameSetup(
        v, "beginner", [Seat("Ana"), Seat("Bot", "random")], 9, [load_track(HARBOUR)], [None]
    )
    game = Game.new(Board(setup.tracks[0], v.use_finish), v, 2, 9)
    calls = []

    def bot(g, seat):
        calls.append(seat)
        return g.options(seat)[-1]

    c = PlayController(game, setup, {1: bot}, bot_ms=0, anim_ms=0, threaded=False)
    asked = []

    def answer(seat):
        asked.append((seat, game.pending.kind))
        c.decide(game.options(seat)[0])

    c.asked.connect(answer)
    with qtbot.waitSignal(c.finished, timeout=60_000):
        c.start()
    assert game.over and set(calls) == {1} and {s for s, _ in asked} == {0}
    assert {k for _, k in asked} >= {"play_card"}
    assert len(c.decisions) == len(calls) + len(asked)


def test_a_person_chooses_a_secret_bid_before_the_bots_think(qtbot, harbour_window):
    """Secret, simultaneous choices (R-AUC-2): the person is asked at once."""
    window = harbour_window
    setup = bots_setup(window, "standard")
    setup.seats[0] = Seat("Ana")
    window.play.bot_ms = 300
    window.play.start(setup)
    view = window.play.view
    c = view.controller
    qtbot.waitUntil(lambda: c.waiting_for == 0, timeout=10_000)
    assert c.race.pending.kind == "bid" and c.decisions == []
    assert view.hand.buttons and "Ana" in view.prompt.text()


def test_bots_think_without_the_secret_bid_a_person_already_made(qtbot, harbour_window):
    """R-AUC-2: bids are secret until all are in; a bot asked after a person sees none."""
    window = harbour_window
    setup = bots_setup(window, "standard")
    setup.seats[0] = Seat("Ana")
    window.play.start(setup)
    view = window.play.view
    c = view.controller
    qtbot.waitUntil(lambda: c.waiting_for == 0, timeout=10_000)
    seen = []
    for seat, bot in list(c.bots.items()):

        def spy(game, s, bot=bot):
            race = game.game if isinstance(game, Series) else game
            seen.append((s, set(race.state.collected)))
            return bot(game, s)

        c.bots[seat] = spy
    view.decide(c.race.options(0)[0])
    qtbot.waitUntil(lambda: len(c.decisions) >= 4, timeout=10_000)
    assert seen and all(keys <= {s} for s, keys in seen)


def test_a_finished_world_tours_sheet_and_log_headline_its_winner_not_the_last_races(
    qtbot, harbour_window
):
    """R-VAR world tour: the highest total wins. After the last race the sheet's big bold
    headline is the tour's winner with its total; the last race's winner is a plain line
    labelled as that race's, and the log says the same."""
    window = harbour_window
    tour = str(ROOT / "variants" / "world-tour.yaml")
    setup = bots_setup(window, tour, seed=11, kinds=("greedy",) * 4)
    c = play_out(qtbot, window, setup)
    names, sheet = setup.names(), window.play.view.sheet
    res = c.game.result
    assert isinstance(c.game, Series) and res is not None
    who = " and ".join(names[p] for p in res.winners)
    headline = f"World tour — Winner: {who} (highest total, ${max(res.scores)}M"
    assert sheet.heading.text().startswith(headline)
    assert sheet.text().splitlines()[0] == sheet.heading.text()
    last = c.game.games[-1].result
    race_who = " and ".join(names[p] for p in last.winners)
    race_line = f"Race 2 of 2: won by {race_who} (highest winnings, ${max(last.scores)}M"
    assert sheet.winner_label.text().startswith(race_line)
    assert sheet.race_heading.text().startswith("Race 2 of 2 — ")
    big, plain = sheet.heading.font(), sheet.winner_label.font()
    assert big.bold() and not plain.bold() and big.pointSizeF() > plain.pointSizeF()
    assert not any(line.startswith("Winner") for line in sheet.text().splitlines())
    log = window.play.view.log.toPlainText().splitlines()
    assert log[-1].startswith(headline)
    assert not any(line.startswith("Winner") for line in log)
    for k, race in enumerate(c.game.games):
        said = f"Race {k + 1} of 2: won by " + " and ".join(names[p] for p in race.result.winners)
        assert sum(line.startswith(said) for line in log) == 1
