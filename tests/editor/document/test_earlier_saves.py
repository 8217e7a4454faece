"""Earlier saves: each save keeps the version it replaces in the data folder, the last
ten per file, never beside the user's file."""

from __future__ import annotations

import json
import os

from trackside.editor.document.earlier_saves import EarlierSaves, versions_of


def saved(path, text, at):
    """Write ``text`` to ``path`` as if saved at ``at`` (seconds since the epoch)."""
    path.write_text(text)
    os.utime(path, (at, at))


def test_each_save_keeps_the_version_it_replaces_the_last_ten(tmp_path):
    track = tmp_path / "work" / "oval.yaml"
    track.parent.mkdir()
    saves = EarlierSaves(tmp_path / "data")
    assert saves.keep_previous(track, "v0") is None  # nothing on disk yet
    start = 1_700_000_000.25
    for n in range(12):
        saved(track, f"v{n}", start + 60 * n)
        version = saves.keep_previous(track, f"v{n + 1}")
        assert version is not None and version.saved_at == start + 60 * n
    kept = saves.versions(track)
    assert [v.path.read_text() for v in kept] == [f"v{n}" for n in range(11, 1, -1)]
    assert [v.saved_at for v in kept] == [start + 60 * n for n in range(11, 1, -1)]
    assert sorted(os.listdir(track.parent)) == ["oval.yaml"]  # nothing beside the file
    assert (saves.folder_for(track) / "file.txt").read_text().strip() == str(track.resolve())


def test_nothing_is_kept_twice_and_same_names_in_two_folders_do_not_mix(tmp_path):
    saves = EarlierSaves(tmp_path / "data")
    first, second = tmp_path / "a" / "oval.yaml", tmp_path / "b" / "oval.yaml"
    for path in (first, second):
        path.parent.mkdir()
        saved(path, f"old {path.parent.name}", 1_700_000_000)
    assert saves.keep_previous(first, "old a") is None  # saving the same text
    assert saves.keep_previous(first, "new a") is not None
    assert saves.keep_previous(first, "newer a") is None  # the file did not change: kept
    assert saves.keep_previous(second, "new b") is not None
    assert [v.path.read_text() for v in saves.versions(first)] == ["old a"]
    assert [v.path.read_text() for v in saves.versions(second)] == ["old b"]
    assert saves.folder_for(first) != saves.folder_for(second)


def test_autosaves_of_the_file_newer_than_it_are_offered_first(tmp_path):
    track = tmp_path / "oval.yaml"
    saved(track, "saved", 1_700_000_000)
    saves = EarlierSaves(tmp_path / "data")
    saved(track, "saved", 1_700_000_000)
    autosaves = tmp_path / "autosave"
    autosaves.mkdir()
    for pid, original, at in [
        (11, track, 1_700_000_500),  # newer: offered
        (12, track, 1_600_000_000),  # older than the file: not
        (13, tmp_path / "other.yaml", 1_700_000_600),  # another file: not
    ]:
        (autosaves / f"autosave-{pid}.yaml").write_text(f"autosave {pid}")
        meta = {"original": str(original), "pid": pid, "saved_at": at}
        (autosaves / f"autosave-{pid}.json").write_text(json.dumps(meta))
    saves.keep_previous(track, "new")
    versions = versions_of(track, saves, autosaves)
    assert [(v.autosave, v.path.read_text()) for v in versions] == [
        (True, "autosave 11"),
        (False, "saved"),
    ]
    assert "autosave" in versions[0].describe() and "saved" in versions[1].describe()
