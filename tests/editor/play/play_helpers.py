"""What the play tests share: a bots-only game set-up and playing it to the score sheet."""

from __future__ import annotations

from PySide6.QtCore import Qt
from repo_paths import TRACKS

from trackside.editor.play.setup import GameSetup, Seat
from trackside.engine.game import load_variant
from trackside.engine.resources import bundled_tracks
from trackside.engine.track.model import load_track

HARBOUR = TRACKS / "harbour-loop.yaml"
LEFT = Qt.MouseButton.LeftButton


def bots_setup(
    window, variant_file: str, seed: int = 3, kinds=("greedy", "random", "greedy", "greedy")
) -> GameSetup:
    """Bots in every seat; a tour races the circuit being edited plus a bundled one."""
    v = load_variant(variant_file)
    n = max(v.min_players, min(len(kinds), v.max_players))
    tracks = [window.doc.snapshot()]
    if v.series:
        tracks.append(load_track(bundled_tracks()[-1]))
    return GameSetup(
        v,
        variant_file,
        [Seat(f"Bot {k + 1}", kinds[k % len(kinds)]) for k in range(n)],
        seed,
        tracks,
        [None] * len(tracks),
    )


def play_out(qtbot, window, setup):
    """Start the game and wait for its score sheet; the game's controller."""
    assert window.play.start(setup)
    view = window.play.view
    qtbot.waitUntil(lambda: view.showing_sheet, timeout=120_000)
    return view.controller
