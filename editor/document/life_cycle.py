"""The open document's life with its file: new, open, save, save as, the questions
before closing, autosave and recovery, the lock and the watch on the file, reload.

No window here: every question goes through an object that answers the methods of
``FileQuestions`` (the main window passes the real dialogs of
``editor/panels/prompts.py``; tests pass one that answers at once), and what the
window shows is told by signals (a status line, the problems of a file, a new
document, the read-only state).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, QSettings, Signal

from trackside.editor.document import commands
from trackside.editor.document.autosave import AutosaveEntry, Autosaver, leftover_autosaves
from trackside.editor.document.earlier_saves import EarlierSaves
from trackside.editor.document.file_guard import FileGuard, difference
from trackside.editor.document.files import (
    LoadProblem,
    LoadResult,
    copy_path,
    is_bundled,
    load_for_editing,
    start_folder,
    suggested_stem,
)
from trackside.editor.document.track_document import UNTITLED, TrackDocument, blank_track
from trackside.engine.errors import TracksideError
from trackside.engine.track.model import Track, save_track
from trackside.engine.yamlio import check_writable

MAX_RECENT = 8


class FileQuestions(Protocol):
    """The questions the life cycle asks; each answers at once with a word or a path."""

    def save_changes(self, name: str, read_only: bool = False) -> str:
        """'save', 'discard' or 'cancel' before unsaved changes are dropped."""
        ...

    def problems(self, title: str, text: str, details: list[str]) -> None:
        """Show why something failed."""
        ...

    def open_path(self, folder: str) -> str | None:
        """A track file to open, or None."""
        ...

    def save_path(self, suggested: str) -> str | None:
        """Where to save, or None."""
        ...

    def file_in_use(self, name: str, owner: str) -> str:
        """'read-only', 'open' or 'cancel' for a file another editor holds."""
        ...

    def changed_on_disk(self, name: str, difference: str) -> str:
        """'reload' or 'keep' when the file changed on disk under unsaved edits."""
        ...

    def overwrite_changed(self, name: str, difference: str) -> str:
        """'overwrite' or 'cancel' before saving over a change made on disk."""
        ...

    def recovery(self, entries: list[AutosaveEntry]) -> str:
        """'recover', 'discard' or 'later' for the autosaves of a crashed session."""
        ...


class LifeCycle(QObject):
    """The document's file: opening, saving, guarding it and keeping work safe."""

    said = Signal(str, int)  # a line for the status bar, and for how many ms
    loadProblems = Signal(object, str, str)  # problems, severity, the file refused ('' if none)
    documentSet = Signal(str)  # a new document is in place (its file, '' for none)
    readOnlyChanged = Signal(bool)

    def __init__(
        self,
        doc: TrackDocument,
        questions: FileQuestions,
        settings: QSettings,
        autosave_dir: Path | None = None,
        autosave_ms: int | None = None,
        earlier_saves_dir: Path | None = None,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.doc = doc
        self.questions = questions
        self.settings = settings
        kwargs = {"interval_ms": autosave_ms} if autosave_ms else {}
        self.autosave = Autosaver(doc, autosave_dir, parent=self, **kwargs)
        if earlier_saves_dir is None and autosave_dir is not None:
            earlier_saves_dir = Path(autosave_dir).parent / "earlier-saves"  # kept together
        self.earlier_saves = EarlierSaves(earlier_saves_dir)
        self.guard = FileGuard(self)
        self._read_only = False  # opened while another editor had the file: Save asks
        self._asking_disk = False
        self.guard.changedOnDisk.connect(self._on_disk_changed)
        self.guard.removedFromDisk.connect(self._on_disk_removed)

    @property
    def read_only(self) -> bool:
        """True when Save may not write the document's file (Save asks for another)."""
        return self._read_only

    def _set_read_only(self, read_only: bool) -> None:
        if read_only != self._read_only:
            self._read_only = read_only
            self.readOnlyChanged.emit(read_only)

    def say(self, text: str, ms: int = 8000) -> None:
        """A line for the status bar."""
        self.said.emit(text, ms)

    # -- new and open -----------------------------------------------------------------
    def maybe_save(self) -> bool:
        """Ask about unsaved changes; True when it is fine to drop the document."""
        if not self.doc.is_modified():
            return True
        held = self.read_only and bool(self.doc.path) and not is_bundled(self.doc.path or "")
        answer = self.questions.save_changes(self.doc.display_name, read_only=held)
        if answer == "save":
            return self.save()
        return answer == "discard"

    def new_blank(self) -> None:
        """A blank circuit."""
        if self.maybe_save():
            self._set_document(blank_track(), None)

    def new_from(self, path: str | Path) -> bool:
        """A new, unsaved circuit copied from a bundled (or any) track file."""
        track = self._accepted(load_for_editing(path), path)
        if track is None or not self.maybe_save():
            return False
        track.name = f"{track.name} (copy)"
        self._set_document(track, None, modified=True)
        return True

    def new_from_track(self, track: Track) -> bool:
        """A new, unsaved circuit copied from ``track`` (a template)."""
        if not self.maybe_save():
            return False
        self._set_document(track.copy(), None, modified=True)
        return True

    def start_folder(self) -> Path:
        """Where file dialogs open: beside the open file, the last folder used, or the
        user's circuits folder."""
        last = self.settings.value("lastFolder", "")
        return start_folder(self.doc.path, str(last) if last else None)

    def _remember_folder(self, path: str | Path) -> None:
        if not is_bundled(path):
            self.settings.setValue("lastFolder", str(Path(path).resolve().parent))

    def open_dialog(self) -> None:
        """File > Open: ask for a track file and open it."""
        path = self.questions.open_path(str(self.start_folder()))
        if path:
            self.open_file(path)

    def open_file(self, path: str | Path, ask: bool = True) -> bool:
        """Open a track file; on failure the problems are shown and nothing changes.

        The file is read before asking about unsaved changes, so a file that
        cannot be opened never costs a question (or the current track).
        """
        result = load_for_editing(path)
        track = self._accepted(result, path)
        if track is None:
            return False
        if ask and not self.maybe_save():
            return False
        # A bundled circuit is never written to (nor locked): Save asks for a file.
        read_only = True if is_bundled(path) else self._claim(str(path))
        if read_only is None:
            return False
        self._set_document(track, str(path), read_only=read_only)
        self._remember_folder(path)
        if result.draft:
            self._show_problems(result.problems, "warning")
        self.add_recent(str(path))
        return True

    def _show_problems(
        self, problems: list[LoadProblem], severity: str = "error", rejected: str = ""
    ) -> None:
        self.loadProblems.emit(problems, severity, rejected)

    def _accepted(self, result: LoadResult, path: str | Path) -> Track | None:
        """The track read, or None after showing why the file could not be opened."""
        if result.track is not None:
            return result.track
        self._show_problems(result.problems, rejected=str(path))
        self.say(f"Could not open {path}")
        self.questions.problems(
            "Cannot open track",
            f"{Path(path).name} could not be opened; the current track is unchanged.",
            [str(p) for p in result.problems],
        )
        return None

    def _claim(self, path: str) -> bool | None:
        """Lock ``path`` for this editor: False when locked, True to open it read-only,
        None when the user cancels (another editor has it)."""
        owner = self.guard.try_lock(path)
        if owner is None:
            return False
        answer = self.questions.file_in_use(Path(path).name, owner.describe())
        if answer == "cancel":
            return None
        self.guard.unlock()  # the other editor keeps the lock
        return answer == "read-only"

    def _set_document(
        self, track: Track, path: str | None, modified: bool = False, read_only: bool = False
    ) -> None:
        self._show_problems([])
        if path is None or read_only:  # the file left behind is free for other editors
            self.guard.unlock()
        self._set_read_only(read_only)
        self.guard.watch(path)
        self.doc.replace(track, path, modified=modified)
        self.documentSet.emit(path or "")

    def close_document(self) -> None:
        """Close the track (asking to save) and start a blank one."""
        self.new_blank()

    # -- save ---------------------------------------------------------------------
    def save(self) -> bool:
        """Save to the document's file, asking for one if it has none (or it is read-only)."""
        if not self.doc.path or self.read_only:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self) -> bool:
        """Save to a file the user picks; an untitled track takes its name from the file."""
        if self.doc.path and self.read_only and not is_bundled(self.doc.path):
            suggested = str(copy_path(Path(self.doc.path)))  # the file is another window's
        elif self.doc.path and not is_bundled(self.doc.path):
            suggested = self.doc.path
        else:
            suggested = f"{suggested_stem(None, self.doc.track.name, self.start_folder())}.yaml"
        path = self.questions.save_path(suggested)
        if not path:
            return False
        renamed = False
        if (self.doc.track.name or "").strip() in ("", UNTITLED) and _writable(path):
            name = Path(path).stem.replace("-", " ").replace("_", " ").strip().title()
            if name:  # printed on the board, so never "Untitled"; one undo step
                self.doc.undo_stack.push(commands.SetMeta(self.doc, "name", name))
                renamed = True
        if self._save_to(path):
            return True
        if renamed:  # written after all checks passed, yet failed: keep the old name
            self.doc.undo_stack.undo()
        return False

    def _save_to(self, path: str) -> bool:
        if not self._may_write(path):
            return False
        not_kept = self._keep_earlier_save(path)
        try:
            save_track(self.doc.track, path)
        except TracksideError as exc:
            self.questions.problems("Cannot save track", str(exc), [])
            return False
        except OSError as exc:
            self.questions.problems("Cannot save track", f"{path}: {exc.strerror or exc}", [])
            return False
        self._set_read_only(False)
        self.guard.watch(path)
        self.doc.mark_saved(path)
        self._remember_folder(path)
        self.add_recent(path)
        self.say(f"Saved {path}{not_kept}", 15000 if not_kept else 5000)
        return True

    def _keep_earlier_save(self, path: str) -> str:
        """Keep the version ``path`` holds before it is overwritten (File > Compare With
        Earlier Save); a failure never stops the save: it is said after it."""
        try:
            self.earlier_saves.keep_previous(path, self.doc.track.to_yaml())
        except OSError as exc:
            where = self.earlier_saves.directory
            return f" (the version it replaced could not be kept in {where}: {exc.strerror or exc})"
        return ""

    def _may_write(self, path: str) -> bool:
        """Ask before overwriting another program's change; never write into a file
        another editor holds."""
        same = self.guard.path == os.path.realpath(path)
        if same and self.guard.changed_since_known():
            text = difference(path, self.doc.track.to_yaml())
            if self.questions.overwrite_changed(Path(path).name, text) != "overwrite":
                return False
        if same and self.guard.locked:
            return True
        owner = self.guard.try_lock(path)
        if owner is not None:
            self.questions.problems(
                "Cannot save track",
                f"{Path(path).name} is open in {owner.describe()}.",
                ["Close it there first, or save under another name."],
            )
            return False
        return True

    # -- the file on disk ---------------------------------------------------------
    def _on_disk_changed(self, path: str) -> None:
        """Another program wrote the open file: reload, or ask when there are edits."""
        if self._asking_disk or not self.doc.path:
            return
        name = Path(path).name
        if self.doc.is_modified():
            self._asking_disk = True
            try:
                answer = self.questions.changed_on_disk(
                    name, difference(path, self.doc.track.to_yaml())
                )
            finally:
                self._asking_disk = False
            if answer != "reload":
                self.guard.accept_disk()
                # No state of the undo history matches the disk any more: stay unsaved.
                self.doc.mark_modified()
                self.say(f"Kept your version of {name}")
                return
        track = self._accepted(load_for_editing(self.doc.path), self.doc.path)
        if track is None:
            self.guard.accept_disk()
            self.doc.mark_modified()  # what is on disk is broken: ours is the copy to save
            return
        self._set_document(track, self.doc.path, read_only=self.read_only)
        self.say(f"Reloaded {name}: another program changed it")

    def _on_disk_removed(self, path: str) -> None:
        self.doc.mark_modified()
        self.say(f"{Path(path).name} was deleted or moved on disk; Save writes it again", 15000)

    # -- recovery and closing -------------------------------------------------------
    def check_recovery(self) -> bool:
        """Offer to recover what a crashed session autosaved; True when recovered."""
        entries = leftover_autosaves(self.autosave.directory)
        if not entries:
            return False
        answer = self.questions.recovery(entries)
        if answer == "discard":
            for e in entries:
                e.discard()
            return False
        if answer != "recover":
            return False
        entry = entries[0]
        track = self._accepted(load_for_editing(entry.track_file), entry.track_file)
        if track is None:
            return False
        held = bool(entry.original) and self.guard.try_lock(str(entry.original)) is not None
        self._set_document(track, entry.original, modified=True, read_only=held)
        entry.discard()
        self.autosave.save_now()
        self.say("Recovered the autosaved track; save it to keep it")
        return True

    def close(self) -> bool:
        """Ask about unsaved changes, then let the file go; False when the user cancels."""
        if not self.maybe_save():
            return False
        self.autosave.discard()
        self.guard.release()
        return True

    # -- recent files ---------------------------------------------------------------
    def recent_files(self) -> list[str]:
        """Recently opened or saved files, newest first."""
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            return [value]
        if isinstance(value, list | tuple):
            return [str(v) for v in value]
        return []

    def add_recent(self, path: str) -> None:
        """Put ``path`` first in the recent files."""
        path = str(Path(path).resolve())
        files = [path] + [f for f in self.recent_files() if f != path]
        self.settings.setValue("recentFiles", files[:MAX_RECENT])

    def forget_missing_recent(self) -> list[str]:
        """Drop the recent files no longer there; gives the names dropped."""
        files = self.recent_files()
        missing = [f for f in files if not Path(f).is_file()]
        if missing:
            self.settings.setValue("recentFiles", [f for f in files if f not in missing])
        return missing

    def clear_recent(self) -> None:
        """Empty the recent files."""
        self.settings.setValue("recentFiles", [])


def _writable(path: str) -> bool:
    """True when a file can be written at ``path`` (checked before anything changes)."""
    try:
        check_writable(path)
    except TracksideError:
        return False
    return True
