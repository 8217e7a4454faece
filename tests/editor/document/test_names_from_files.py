"""A circuit named after its file keeps the capitals the designer typed ("GP of USA"),
and an all lower-case file name (a slug) gets a capital at the start of each word
only; the bundled circuits and variants are named by the same rule, as before."""

from __future__ import annotations

import pytest
import yaml

from trackside.editor.play.new_game_dialog import NewGameDialog
from trackside.engine.text import title_from_file

pytestmark = pytest.mark.gui

NAMED = [
    ("Côte d'Azur Ring.yaml", "Côte d'Azur Ring"),
    ("Harry's Loop.yaml", "Harry's Loop"),
    ("harry's loop.yaml", "Harry's Loop"),
    ("spa 2nd edition.yaml", "Spa 2nd Edition"),
    ("GP of USA.yaml", "GP of USA"),
    ("GP_of_USA.yaml", "GP of USA"),
    ("harbour-loop.yaml", "Harbour Loop"),
    ("my_loop.yaml", "My Loop"),
    ("my--loop.yaml", "My Loop"),
    ("my_-_loop.yaml", "My Loop"),
    ("my  loop .yaml", "My Loop"),
    ("GP__of--USA.yaml", "GP of USA"),
]
# Names with nothing to name a circuit by: the track keeps its own name.
NAMELESS = [".yaml", "---.yaml", "_ - _.yaml", "-.yml"]


@pytest.mark.parametrize(("file", "name"), NAMED)
def test_an_untitled_circuit_saved_as_a_file_is_named_as_the_file_is_typed(
    window, tmp_path, file, name
):
    window.new_blank()
    window.prompts.save_as_answer = str(tmp_path / file)
    assert window.save_as()
    assert window.doc.track.name == name
    saved = yaml.safe_load((tmp_path / file).read_text(encoding="utf-8"))
    assert saved["name"] == name  # the name printed on the board


def test_a_new_file_from_the_command_line_is_named_by_the_same_rule(window, tmp_path):
    window.life.new_file(tmp_path / "Spa 2nd edition.yaml")
    assert window.doc.track.name == "Spa 2nd edition"
    window.life.new_file(tmp_path / "spa 2nd edition.yaml")
    assert window.doc.track.name == "Spa 2nd Edition"


def test_the_bundled_circuits_and_variants_keep_their_names(window, qtbot):
    circuits = ["Estuary Sweep", "Harbour Loop", "Quarry Hairpin"]
    assert sorted(a.text() for a in window.bundled_menu.actions()) == circuits
    assert set(circuits) <= set(window.first_run.page.buttons)
    box = window.balance_panel.variant_box
    variants = [box.itemText(k) for k in range(box.count())]
    assert variants == ["Beginner", "Long Distance", "Standard", "Two Player", "World Tour"]
    dialog = NewGameDialog(window.doc.snapshot(), None, window)
    qtbot.addWidget(dialog)
    tour = [dialog.tour_list.item(k).text() for k in range(dialog.tour_list.count())]
    assert sorted(tour[-3:]) == circuits


def test_one_rule_names_from_files():
    assert [title_from_file(file) for file, _ in NAMED] == [name for _, name in NAMED]
    assert title_from_file("/some/Folder/quarry-hairpin.yaml") == "Quarry Hairpin"


def test_a_file_name_with_nothing_to_name_by_gives_no_name():
    """'.yaml' gave '.yaml', '---.yaml' gave ''; 'my--loop' two spaces."""
    assert [title_from_file(file) for file in NAMELESS] == [""] * len(NAMELESS)
    assert title_from_file("/some/folder/-_-.yaml") == ""
    assert title_from_file("loop") == "Loop"  # no suffix: the whole name


@pytest.mark.parametrize("file", NAMELESS)
def test_an_untitled_circuit_saved_as_a_nameless_file_keeps_its_name(window, tmp_path, file):
    window.new_blank()
    window.prompts.save_as_answer = str(tmp_path / file)
    assert window.save_as()
    assert window.doc.track.name == "Untitled"
