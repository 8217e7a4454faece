"""Retake the README and docs pictures from the running app: ``python tools/screenshots.py``.

Needs a display: run it under Xvfb, e.g.
``xvfb-run -s "-screen 0 1600x1000x24" .venv/bin/python tools/screenshots.py``.
Each picture is the main window as it is on screen after driving it with real
mouse and key events (QTest), written to ``docs/images``.
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QPoint, QPointF, QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from trackside.editor.app import make_app  # noqa: E402
from trackside.editor.mainwindow import MainWindow  # noqa: E402
from trackside.editor.panels.balance import BalancePanel  # noqa: E402
from trackside.editor.play.setup import GameSetup, Seat  # noqa: E402
from trackside.engine.game import load_variant  # noqa: E402
from trackside.engine.track.lanes import Arc, Straight  # noqa: E402
from trackside.engine.track.model import Space  # noqa: E402

IMAGES = ROOT / "docs" / "images"
TRACKS = ROOT / "tracks"
SIZE = (1600, 1000)
SCRATCH: list[Path] = []  # settings and autosave folders, removed at the end


def settle(ms: int = 300) -> None:
    """Let queued paints, timers and background checks run."""
    QTest.qWait(ms)


def window() -> MainWindow:
    """A main window with its own settings and autosave folder, shown at SIZE."""
    scratch = Path(tempfile.mkdtemp(prefix="trackside-shots-"))
    SCRATCH.append(scratch)
    w = MainWindow(
        settings=QSettings(str(scratch / "settings.ini"), QSettings.Format.IniFormat),
        autosave_dir=scratch / "autosave",
    )
    w.resize(*SIZE)
    w.show()
    settle()
    return w


def save(w: MainWindow, name: str) -> None:
    """Write the window as it is on screen to docs/images/NAME."""
    settle(600)
    w.issues.wait()
    settle(200)
    w.grab().save(str(IMAGES / name))
    print(f"wrote docs/images/{name}")


def point(w: MainWindow, x: float, y: float) -> QPoint:
    """The canvas pixel showing (x, y) mm."""
    return w.view.mapFromScene(QPointF(x, y))


def centre(space: Space) -> tuple[float, float]:
    """The mean of a space's corners, mm."""
    xs = [float(x) for x, _ in space.corners]
    ys = [float(y) for _, y in space.corners]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def editor_shot() -> None:
    """Harbour Loop open, one space selected in the Inspector."""
    w = window()
    w.open_file(TRACKS / "harbour-loop.yaml", ask=False)
    w.view.fit_to_view()
    t = w.doc.track
    w.scene.select_indices([t.spaces.index(t.space("b20"))])
    save(w, "editor.png")
    w.close()


def lanes_draft(pieces: list[Straight | Arc], lanes: int = 2) -> MainWindow:
    """A blank page, the Lanes tool on, ``pieces`` laid out from (0, 0) along +x."""
    w = window()
    w.new_blank()
    w.set_tool("lanes")
    w.lane_panel.lanes.setValue(lanes)
    w.tool.set_start(0.0, 0.0, 0.0)
    for piece in pieces:
        w.tool.add_piece(piece)
    return w


def save_whole(w: MainWindow, name: str) -> None:
    """Fit the circuit to the window, write the picture, close without asking to save."""
    w.view.fit_to_view()
    settle()
    save(w, name)
    w.doc.undo_stack.clear()
    w.close()


def lane_tool_shot() -> None:
    """A blank page with a Lanes draft that the pointer closes into a loop."""
    w = lanes_draft([Straight(400), Arc(150, 180), Straight(400)], lanes=3)
    w.view.set_zoom(1.0)
    w.view.centerOn(200, -150)
    settle()
    QTest.mouseMove(w.view.viewport(), point(w, 2, 1))  # pointing at the start closes it
    settle()
    save(w, "lane-tool.png")
    w.doc.undo_stack.clear()
    w.close()


def keep_shot() -> None:
    """A three-lane loop narrowing to two lanes on both straights, kept left on the
    first and right on the second, loaded again into the Lanes panel."""
    pieces: list[Straight | Arc] = []
    for keep in ("left", "right"):
        pieces += [Straight(120), Straight(200, lanes=2, keep=keep), Straight(120), Arc(150, 180)]
    w = lanes_draft(pieces, lanes=3)
    panel = w.lane_panel
    panel.create_button.click()
    panel.edit_layout_button.click()
    panel.table.selectRow(5)
    save_whole(w, "lanes-keep.png")


def closes_shot() -> None:
    """A stadium loop with 1040 typed into its first straight: the other straight
    closes the loop, ticked in the Closes column and its built length in orange."""
    w = lanes_draft([Straight(940), Arc(200, 180), Straight(940), Arc(200, 180)])
    panel = w.lane_panel
    panel.table.item(0, 1).setText("1040")  # as typed into the cell
    panel.table.selectRow(1)
    save_whole(w, "lanes-closes.png")


def balance_shot() -> None:
    """Quarry Hairpin: 1,000 games, Suggest fixes, the best fix selected and drawn on
    the board (balance-fixes.png), then applied and 1,000 games again: every figure with
    its change, the heat map and its legend in the canvas corner (balance-panel.png)."""
    w = window()
    w.open_file(TRACKS / "quarry-hairpin.yaml", ask=False)
    w.view.fit_to_view()
    panel = w.balance_panel
    room = w.balance_dock.widget()
    panel.games_box.setValue(1000)
    panel.workers_box.setValue(2)
    w.balance_menu.act_simulate.trigger()
    _wait_for(panel)
    panel.games_box.setValue(200)
    panel.suggest()
    _wait_for(panel)
    panel.fixes.select(0)
    settle()
    room.verticalScrollBar().setValue(panel.fixes.y())
    save(w, "balance-fixes.png")
    QTest.mouseClick(panel.fixes.apply_button, Qt.MouseButton.LeftButton)
    panel.games_box.setValue(1000)
    w.balance_menu.act_simulate.trigger()
    _wait_for(panel)
    w.balance_menu.act_heatmap.trigger()
    settle()
    room.verticalScrollBar().setValue(panel.slot_table.y() - panel.headline.height())
    save(w, "balance-panel.png")
    w.doc.undo_stack.clear()
    w.close()


ODDS_BETTING = """format: trackside-variant/1
name: Odds betting
description: Only a bet on the winner pays, and a late bet pays more.
extends: standard
payouts:
  race: [10, 8, 6, 4, 2, 0]
  bets:
    - [8]
    - [12]
    - [16]
"""


def rules_shot() -> None:
    """Harbour Loop: Tools > Compare with Variant… with the odds-betting example of
    docs/variants.md, 1,000 games of each; the Rules section with every change
    (balance-rules.png)."""
    scratch = Path(tempfile.mkdtemp(prefix="trackside-shots-"))
    SCRATCH.append(scratch)
    odds = scratch / "odds-betting.yaml"
    odds.write_text(ODDS_BETTING)
    w, panel = _harbour_panel(1000)
    w.balance_dock.show()
    w.balance_dock.raise_()
    panel.compare_variant(str(odds))
    _wait_for(panel)
    settle()
    room = w.balance_dock.widget()
    room.verticalScrollBar().setValue(panel.rules.y())
    save(w, "balance-rules.png")
    w.close()


def deeper_shot() -> None:
    """Harbour Loop: 200 games with the lab's bots, then Check with Stronger Bots: the
    verdict's line under the run's status line, over the run's own figures
    (balance-check-deeper.png)."""
    w, panel = _harbour_panel(200)
    w.balance_menu.act_simulate.trigger()
    _wait_for(panel)
    QTest.mouseClick(panel.check_button, Qt.MouseButton.LeftButton)
    _wait_for(panel)
    settle()
    w.balance_dock.widget().verticalScrollBar().setValue(panel.check_button.y())
    save(w, "balance-check-deeper.png")
    w.close()


def _harbour_panel(games: int) -> tuple[MainWindow, BalancePanel]:
    """A window on Harbour Loop whose Balance panel plays ``games`` games in two workers."""
    w = window()
    w.open_file(TRACKS / "harbour-loop.yaml", ask=False)
    w.view.fit_to_view()
    panel = w.balance_panel
    panel.games_box.setValue(games)
    panel.workers_box.setValue(2)
    return w, panel


def _wait_for(panel: BalancePanel) -> None:
    """Let the panel's run or search end."""
    while panel.running:
        settle(100)


def movement_shot() -> None:
    """The Moves tool: test cars placed, a car pinned, the paths to one end drawn."""
    w = window()
    w.open_file(TRACKS / "harbour-loop.yaml", ask=False)
    t = w.doc.track
    w.set_tool("moves")
    origin = t.space("b26")
    w.view.set_zoom(2.2)
    w.view.centerOn(*centre(origin))
    settle()
    vp = w.view.viewport()
    for sid in ("b28", "a29", "c27"):  # test cars that block
        QTest.mouseClick(
            vp,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
            point(w, *centre(t.space(sid))),
        )
    QTest.mouseMove(vp, point(w, *centre(origin)))
    QTest.keyClick(w.view, Qt.Key.Key_4)
    QTest.mouseClick(
        vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, point(w, *centre(origin))
    )
    ends = sorted({m.end for m in w.tool.refresh()})
    if ends:
        QTest.mouseMove(vp, point(w, *centre(t.spaces[ends[len(ends) // 2]])))
    save(w, "movement-preview.png")
    w.close()


def play_shots() -> None:
    """A game in progress (a person choosing where a car ends), then its score sheet."""
    w = window()
    w.open_file(TRACKS / "harbour-loop.yaml", ask=False)
    w.play.bot_ms, w.play.anim_ms = 0, 0
    names = ["Ana", "Ben", "Chloé", "Dev"]
    seats = [Seat("Ana")] + [Seat(n, "greedy") for n in names[1:]]
    setup = GameSetup(load_variant("standard"), "standard", seats, 7, [w.doc.snapshot()], [None])
    w.play.start(setup)
    view = w.play.view
    c = view.controller
    rng = random.Random(1)
    shot = False
    while not c.game.over:
        settle(20)
        if c.waiting_for is None:
            continue
        race = c.race
        if (
            not shot
            and race.pending.kind == "path"
            and race.state.turn == 0
            and len(c.decisions) > 60
        ):
            save(w, "play.png")
            shot = True
        view.decide(rng.choice(race.options(c.waiting_for)))
    for _ in range(200):
        if view.showing_sheet:
            break
        settle(50)
    save(w, "play-sheet.png")
    c.stop()
    w.close()


def main() -> None:
    """Take the pictures named on the command line (editor, lanes, keep, closes, moves,
    balance, rules, deeper, play), or all."""
    app = make_app()
    IMAGES.mkdir(parents=True, exist_ok=True)
    wanted = set(sys.argv[1:]) or {
        "editor",
        "lanes",
        "keep",
        "closes",
        "moves",
        "balance",
        "rules",
        "deeper",
        "play",
    }
    shots = {
        "editor": editor_shot,
        "lanes": lane_tool_shot,
        "keep": keep_shot,
        "closes": closes_shot,
        "moves": movement_shot,
        "balance": balance_shot,
        "rules": rules_shot,
        "deeper": deeper_shot,
        "play": play_shots,
    }
    for name, shoot in shots.items():
        if name in wanted:
            shoot()
    app.quit()
    for folder in SCRATCH:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    if QApplication.platformName() == "offscreen":
        print("screenshots need a display: run under Xvfb", file=sys.stderr)
    main()
