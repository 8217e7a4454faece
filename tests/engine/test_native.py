"""The compiled engine (``engine/native.py``): used only when fresh, and it plays
the same games as the Python source.

The suite runs in whichever way the engine runs here (compiled after ``make
setup`` with a C compiler); ``test_the_other_way_plays_the_same_games`` plays
the determinism digests the other way in a child process, so both ways are
checked against the same stored digests. ``.ci/run`` sets
TRACKSIDE_REQUIRE_NATIVE, so that a build that failed there fails here too.
"""

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from trackside.engine import native

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _build(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the compiled sources and a build manifest made for them."""
    root, build = tmp_path / "repo", tmp_path / "build"
    for source in native.MODULES:
        (root / source).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / source, root / source)
    files = {native.module_name(s): f"lib/{Path(s).stem}.so" for s in native.MODULES}
    (build / "lib").mkdir(parents=True)
    for file in files.values():
        (build / file).write_bytes(b"")
    manifest = {
        "tag": native.build_tag(),
        "built": "today",
        "sources": {s: native.source_digest(root / s) for s in native.MODULES},
        "files": files,
    }
    (build / native.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return root, build


def test_a_build_of_the_sources_as_they_are_is_used(tmp_path):
    root, build = _build(tmp_path)
    files, reason = native.fresh_build(build, root)
    assert files is not None, reason
    assert files["trackside.engine.game.race"] == build / "lib" / "race.so"


def test_an_edited_source_leaves_the_engine_as_python(tmp_path):
    root, build = _build(tmp_path)
    race = root / "engine/game/race.py"
    race.write_text(race.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    files, reason = native.fresh_build(build, root)
    assert files is None
    assert "engine/game/race.py changed" in reason


def test_a_build_for_another_python_or_a_failed_one_is_not_used(tmp_path):
    root, build = _build(tmp_path)
    manifest_file = build / native.MANIFEST
    manifest = json.loads(manifest_file.read_text(encoding="utf-8"))
    manifest_file.write_text(json.dumps(manifest | {"tag": ".other.so"}), encoding="utf-8")
    assert native.fresh_build(build, root)[0] is None
    manifest_file.write_text(json.dumps({"failed": "no C compiler"}), encoding="utf-8")
    files, reason = native.fresh_build(build, root)
    assert files is None and "no C compiler" in reason
    files, reason = native.fresh_build(tmp_path / "nothing", root)
    assert files is None and "not built" in reason
    for text in ("[1, 2]", "{not json"):
        manifest_file.write_text(text, encoding="utf-8")
        files, reason = native.fresh_build(build, root)
        assert files is None and "unreadable" in reason


def test_the_engine_runs_compiled_where_ci_requires_it():
    status = native.status()
    if not status.active and not os.environ.get("TRACKSIDE_REQUIRE_NATIVE"):
        pytest.skip(f"the engine runs as Python here: {status.reason}")
    assert status.active, status.reason
    from trackside.engine.game import race

    assert not race.__file__.endswith(".py")


def test_the_other_way_plays_the_same_games():
    """Compiled here: the Python source plays the stored digests too (and the
    other way round when a fresh build exists but this process runs Python)."""
    status = native.status()
    env = dict(os.environ)
    if status.active:
        env[native.PURE_VARIABLE] = "1"
    elif native.fresh_build(native.BUILD, native.ROOT)[0] is not None:
        env.pop(native.PURE_VARIABLE, None)
    else:
        pytest.skip(f"no fresh compiled build to compare with: {status.reason}")
    way = subprocess.run(
        [sys.executable, "-c", "from trackside.engine import native; print(native.status())"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert way.stdout.startswith("pure Python" if status.active else "compiled"), way.stdout
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "digest.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def test_the_engines_records_of_a_game_pickle_either_way():
    """The balance lab sends decks, deals and results to worker processes: each
    frozen dataclass of the compiled modules comes back equal from pickle."""
    from trackside.engine.bots import drive, seat_bots
    from trackside.engine.game import Game, load_variant
    from trackside.engine.game.setup import shuffled_setup
    from trackside.engine.records import open_track

    variant = load_variant("standard")
    game = Game.new(open_track("harbour-loop"), variant, 4, 3)
    view = game.view(0)
    drive(game, seat_bots(3, ["greedy"] * 4))
    deal = shuffled_setup(variant, variant.deck, 4, 3).deal
    for obj in (variant.deck, variant.deck.cards[5], deal, game.result, view, variant):
        assert pickle.loads(pickle.dumps(obj)) == obj, type(obj).__name__


def test_a_build_that_does_not_load_here_leaves_the_engine_as_python(tmp_path):
    """A build copied from another machine, say: the engine must not fail on
    its first import."""
    broken = tmp_path / f"elsewhere__mypyc{native.build_tag()}"
    broken.write_bytes(b"not a shared library")
    problem = native.shared_library_problem({"elsewhere__mypyc": broken})
    assert problem
    assert "elsewhere__mypyc" not in sys.modules
