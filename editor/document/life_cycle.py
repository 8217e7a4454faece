"""The open document's life with its file: new, open, save, save as, the questions
before closing, autosave and recovery, the lock and the watch on the file, reload.

No window here: every question goes through an object that answers the methods of
``FileQuestions`` (the main window passes the real dialogs of
``editor/panels/prompts.py``; tests pass one that answers at once), and what the
window shows is told by signals (a status line, the problems of a file, a new
document, the read-only state).

What it promises: a save never changes the undo history; a file is written only
when the editor can open it again (``unsaveable``); a failed save leaves the old
file as it was, no lock file behind and the document unsaved; a file the editor
may not write (installed with Trackside, held by another window, read-only on
disk) opens read-only and Save asks for another file; what happens to the file
on disk while it is open is noticed and, where it matters, asked about.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, QSettings, QTimer, Signal

from trackside.editor.document.autosave import AutosaveEntry, Autosaver, leftover_autosaves
from trackside.editor.document.earlier_saves import EarlierSaves
from trackside.editor.document.failed_writes import (
    SAVE_AS,
    failure_line,
    left_on_disk,
    shown_name,
    what_to_do,
)
from trackside.editor.document.file_guard import Claim, FileGuard, LockOwner, difference
from trackside.editor.document.files import (
    LoadProblem,
    LoadResult,
    copy_path,
    is_bundled,
    load_for_editing,
    start_folder,
    suggested_stem,
    unsaveable,
)
from trackside.editor.document.track_document import UNTITLED, TrackDocument, blank_track
from trackside.engine.errors import TracksideError
from trackside.engine.text import title_from_file
from trackside.engine.track.model import Track, save_track
from trackside.engine.writer import check_writable
from trackside.engine.yamlio import NotPlainData

MAX_RECENT = 8
KEPT_ASIDE = "could-not-open"  # the autosave folder's folder for autosaves that did not open
COPY_SUFFIX = " (copy)"  # the name a copy of a circuit is given until its first save

# Why a document is open read-only, as the prompts say it.
BUNDLED = "it is a circuit installed with Trackside"
HELD = "another Trackside window has the file open"
PROTECTED = "the file is read-only on disk"
ANYWAY = "open anyway"  # another editor holds the file; this one edits without the lock


class FileQuestions(Protocol):
    """The questions the life cycle asks; each answers at once with a word or a path."""

    def save_changes(self, name: str, read_only: str = "") -> str:
        """'save', 'discard' or 'cancel' before unsaved changes are dropped; ``read_only``
        says why the file itself cannot be saved (then Save asks for another)."""
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

    def changed_on_disk(self, name: str, difference: str, by: str = "another program") -> str:
        """'reload' or 'keep' when the file changed on disk under unsaved edits."""
        ...

    def overwrite_changed(self, name: str, difference: str) -> str:
        """'overwrite' or 'cancel' before saving over a change made on disk."""
        ...

    def file_moved(self, name: str, old: str, new: str) -> str:
        """'follow' the file to where its folder went, or 'stay' with the old path."""
        ...

    def link_retargeted(self, link: str, old: str, new: str) -> str:
        """'open' the file a link now leads to, or 'keep' editing the one it led to."""
        ...

    def recovery(self, entries: list[AutosaveEntry]) -> str:
        """'recover', 'discard' or 'later' for the autosaves of a crashed session."""
        ...


class LifeCycle(QObject):
    """The document's file: opening, saving, guarding it and keeping work safe."""

    said = Signal(str, int)  # a line for the status bar, and for how many ms
    loadProblems = Signal(object, str, str)  # problems, severity, the file refused ('' if none)
    documentSet = Signal(str)  # a new document is in place (its file, '' for none)
    readOnlyChanged = Signal(bool)  # also when ``held_elsewhere`` changes

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
        kwargs = {"idle_ms": autosave_ms} if autosave_ms else {}
        self.autosave = Autosaver(doc, autosave_dir, parent=self, **kwargs)
        if earlier_saves_dir is None and autosave_dir is not None:
            earlier_saves_dir = Path(autosave_dir).parent / "earlier-saves"  # kept together
        self.earlier_saves = EarlierSaves(earlier_saves_dir)
        self.guard = FileGuard(self)
        self._read_only = ""  # why Save may not write the document's file ('' when it may)
        self._held_elsewhere = False  # opened anyway: another editor holds the lock
        self._asking_disk = False
        self.guard.changedOnDisk.connect(self._on_disk_changed)
        self.guard.removedFromDisk.connect(self._on_disk_removed)
        self.guard.movedOnDisk.connect(self._on_disk_moved)
        self.guard.retargeted.connect(self._on_retargeted)

    @property
    def read_only(self) -> bool:
        """True when Save may not write the document's file (Save asks for another)."""
        return bool(self._read_only)

    def _set_read_only(self, why: str) -> None:
        was = self.read_only
        self._read_only = why
        if was != self.read_only:
            self.readOnlyChanged.emit(self.read_only)

    @property
    def held_elsewhere(self) -> bool:
        """True when the file was opened anyway while another editor holds it: edits
        are allowed, but Save is refused until this editor gets the file's lock."""
        return self._held_elsewhere

    def _set_held_elsewhere(self, held: bool) -> None:
        if held != self._held_elsewhere:
            self._held_elsewhere = held
            self.readOnlyChanged.emit(self.read_only)

    def say(self, text: str, ms: int = 8000) -> None:
        """A line for the status bar."""
        self.said.emit(text, ms)

    # -- new and open -----------------------------------------------------------------
    def maybe_save(self) -> bool:
        """Ask about unsaved changes; True when it is fine to drop the document."""
        if not self.doc.is_modified():
            return True
        answer = self.questions.save_changes(self.doc.display_name, read_only=self._read_only)
        if answer == "save":
            return self.save()
        return answer == "discard"

    def new_blank(self) -> None:
        """A blank circuit."""
        if self.maybe_save():
            self._set_document(blank_track(), None)

    def new_file(self, path: str | Path) -> None:
        """A blank circuit for a file not yet on disk (``trackside edit new.yaml``), named
        after it: Save writes it there, as a text editor starts a new file. Nothing is
        locked or watched until it is written."""
        path = os.path.abspath(path)  # said, and written, where it was meant at the start
        track = blank_track()
        track.name = title_from_file(path) or track.name
        self._set_document(track, path)
        self._remember_folder(path)
        self.say(f"{Path(path).name} is a new file: Save writes it in {Path(path).parent}", 15000)

    def is_new_file(self) -> bool:
        """True while the document's file is one Save has not written yet."""
        return bool(self.doc.path) and not os.path.lexists(str(self.doc.path))

    def new_from(self, path: str | Path) -> bool:
        """A new, unsaved circuit copied from a bundled (or any) track file, named
        "<name> (copy)" until its first save names it after the file chosen. A copy of
        a bundled circuit is the designer's own: it has no author (the bundled circuits'
        author is Trackside)."""
        track = self._accepted(load_for_editing(path), path)
        if track is None or not self.maybe_save():
            return False
        track.name = f"{track.name}{COPY_SUFFIX}"
        if is_bundled(path):
            track.author = None
        self._start_new(track)
        return True

    def new_from_track(self, track: Track) -> bool:
        """A new, unsaved circuit copied from ``track`` (a template)."""
        if not self.maybe_save():
            return False
        self._start_new(track.copy())
        return True

    def _start_new(self, track: Track) -> None:
        """Start ``track`` as a new, unsaved circuit; in place of an empty new file (as
        the start page of ``trackside edit new.yaml`` offers) it keeps that file and
        takes its name."""
        path = self.doc.path if self.is_new_file() and not self.doc.track.spaces else None
        if path:
            track.name = title_from_file(path) or track.name
        self._set_document(track, path, modified=True)

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
        # A file this editor may not write is never locked: Save asks for another file.
        why = BUNDLED if is_bundled(path) else PROTECTED if not _writable(path) else ""
        anyway = False
        if not why:
            claimed = self._claim(str(path))
            if claimed is None:
                return False
            anyway = claimed == ANYWAY
            why = "" if anyway else claimed
        self._set_document(track, str(path), read_only=why)
        self._set_held_elsewhere(anyway)
        self._remember_folder(path)
        if result.draft:
            self._show_problems(result.problems, "warning")
        if why == PROTECTED:
            self.say(f"{Path(path).name} is read-only on disk: Save asks for another file", 15000)
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

    def _claim(self, path: str) -> str | None:
        """Lock ``path`` for this editor: '' when locked, HELD to open it read-only,
        ANYWAY to open it without the lock (another editor has it), None when the user
        cancels."""
        owner = self.guard.try_lock(path)
        if owner is None:
            return ""
        answer = self.questions.file_in_use(Path(path).name, owner.describe())
        if answer == "cancel":
            return None
        self.guard.unlock()  # the other editor keeps the lock
        return HELD if answer == "read-only" else ANYWAY

    def _set_document(
        self, track: Track, path: str | None, modified: bool = False, read_only: str = ""
    ) -> None:
        self._show_problems([])
        on_disk = path if path is not None and os.path.lexists(path) else None
        if on_disk is None or read_only:  # the file left behind is free for other editors
            self.guard.unlock()
        self._set_read_only(read_only)
        self._set_held_elsewhere(False)
        self.guard.watch(on_disk)  # a new file is watched once Save has written it
        self.doc.replace(track, path, modified=modified)
        self.documentSet.emit(path or "")

    def close_document(self) -> None:
        """Close the track (asking to save) and start a blank one."""
        self.new_blank()

    # -- save ---------------------------------------------------------------------
    def save(self) -> bool:
        """Save to the document's file, asking for one if it has none (or it is read-only)."""
        self.guard.check_place()  # a file moved, or a link re-pointed: asked before writing
        if not self.doc.path or self.read_only:
            return self.save_as()
        path = self.doc.path
        if self.guard.path is None and os.path.lexists(path):  # a new file, made meanwhile
            text = difference(path, self.doc.track.to_yaml())
            if self.questions.overwrite_changed(Path(path).name, text) != "overwrite":
                return False
        return self._save_to(path)

    def save_as(self) -> bool:
        """Save to a file the user picks. An untitled track, or a copy saved for the
        first time under the name it was given ("Harbour Loop (copy)"), takes its name
        from the file, outside the undo history (the redo steps stay); a name the
        designer gave it by an undo step is kept."""
        path = self.questions.save_path(self._suggested_path())
        if not path:
            return False
        old_name = self.doc.track.name
        stem = title_from_file(path)
        untitled = (old_name or "").strip() in ("", UNTITLED)
        # A copy never saved (a crash's recovery included) still has its copy's name.
        copied = (old_name or "").endswith(COPY_SUFFIX) and (
            not self.doc.path or self.is_new_file()
        )
        renamed = (
            bool(stem)
            and (untitled or copied)
            and self.doc.may_name_from_file()
            and _writable(path)
        )
        if renamed:  # printed on the board, so never "Untitled"
            self.doc.name_from_file(stem)
        if self._save_to(path):
            return True
        if renamed:  # not written after all: the track is as it was
            self.doc.name_from_file(old_name)
        return False

    def _suggested_path(self) -> str:
        path = self.doc.path
        if path and self.read_only and not is_bundled(path):
            return str(copy_path(Path(path)))  # the file is another window's, or read-only
        if path and not is_bundled(path):
            return path
        return f"{suggested_stem(None, self.doc.track.name, self.start_folder())}.yaml"

    def _save_to(self, path: str) -> bool:
        why = unsaveable(self.doc.track)
        if why:
            self.questions.problems(
                "Cannot save track",
                f"{Path(path).name} was not written: the track holds what a track file "
                f"cannot ({why}).",
                ["Change that value, or undo the step that made it, and save again."],
            )
            return False
        claim = self._may_write(path)
        if claim is None:
            return False
        not_kept = self._keep_earlier_save(path)
        failure = self._write(path)
        if failure:
            self.guard.drop(claim)  # no lock file is left beside a file never written
            said = [f"{left_on_disk(path)}; your track is still open here, {self._state()}."]
            # By its cause: a full disk, a folder in the way... A fix done in place is
            # followed by Save only where Save writes (not after a Save As elsewhere).
            again = "save again" if path == self.doc.path else f"use {SAVE_AS}"
            todo = what_to_do(failure, again)
            self.questions.problems(
                "Cannot save track",
                failure_line(failure, path, hint=False),
                [*said, todo] if todo else said,
            )
            return False
        self.guard.keep(claim)
        self._set_read_only("")
        self._set_held_elsewhere(False)
        self.guard.watch(path)
        self.doc.mark_saved(path)
        self._remember_folder(path)
        self.add_recent(path)
        self.say(f"Saved {path}{not_kept}", 15000 if not_kept else 5000)
        return True

    def _write(self, path: str) -> Exception | None:
        """Write the track to ``path``; None when written, else what went wrong."""
        try:
            save_track(self.doc.track, path)
        except (TracksideError, NotPlainData, OSError) as exc:
            return exc
        return None

    def _state(self) -> str:
        """Where the open track stands after a save that failed, as the end of a
        sentence: only its own file (if it has one) holds it."""
        if not self.doc.path or self.is_new_file():
            return "not saved in any file yet"
        if self.doc.is_modified():
            return "its changes unsaved"
        return f"as saved in {shown_name(self.doc.path)}"

    def _keep_earlier_save(self, path: str) -> str:
        """Keep the version ``path`` holds before it is overwritten (File > Compare With
        Earlier Save); a failure never stops the save: it is said after it."""
        try:
            self.earlier_saves.keep_previous(path, self.doc.track.to_yaml())
        except OSError as exc:
            where = self.earlier_saves.directory
            return f" (the version it replaced could not be kept in {where}: {exc.strerror or exc})"
        return ""

    def _may_write(self, path: str) -> Claim | None:
        """The lock to write ``path`` under, after asking before overwriting another
        program's change; None (after saying why) when another editor holds the file."""
        same = self.guard.path == os.path.realpath(path)
        if same and self.guard.changed_since_known():
            text = difference(path, self.doc.track.to_yaml())
            if self.questions.overwrite_changed(Path(path).name, text) != "overwrite":
                return None
        got = self.guard.claim(path)
        if isinstance(got, LockOwner):
            self.questions.problems(
                "Cannot save track",
                f"{Path(path).name} is open in {got.describe()}, so this window cannot save to it.",
                [
                    "Save As writes your version to another file; Save works here again "
                    "once the other window closes the file."
                ],
            )
            return None
        return got

    # -- the file on disk ---------------------------------------------------------
    def _on_disk_changed(self, path: str) -> None:
        """The open file changed on disk: reload, or ask when there are edits. A change
        made while the question is open is asked about again, with the latest."""
        if self._asking_disk or not self.doc.path:
            return
        name = Path(path).name
        if self.doc.is_modified():
            shown = self.guard.stamp()
            self._asking_disk = True
            try:
                answer = self.questions.changed_on_disk(
                    name, difference(path, self.doc.track.to_yaml()), self._changer(path)
                )
            finally:
                self._asking_disk = False
            if answer != "reload":
                self.guard.accept_disk(shown)  # only what was shown: a later change is asked
                # No state of the undo history matches the disk any more: stay unsaved.
                self.doc.mark_modified()
                self.say(f"Kept your version of {name}")
                if self.guard.changed_since_known():
                    QTimer.singleShot(0, self.guard.check_now)  # changed again meanwhile
                return
        self.reload()

    def reload(self) -> bool:
        """Read the document's file again (its edits are dropped); False when it cannot
        be read (the document then stays, unsaved)."""
        path = self.doc.path
        if not path:
            return False
        track = self._accepted(load_for_editing(path), path)
        if track is None:
            self.guard.accept_disk()
            self.doc.mark_modified()  # what is on disk is broken: ours is the copy to save
            return False
        held = self._held_elsewhere  # the file is as much another window's as before
        self._set_document(track, path, read_only=self._read_only)
        self._set_held_elsewhere(held)
        self.say(f"Reloaded {Path(path).name}: it was changed on disk")
        return True

    def _changer(self, path: str) -> str:
        """Who likely changed the file: the Trackside window that holds it, else another
        program (this editor holds the lock of the files it saves)."""
        if self.guard.locked:
            return "another program"
        owner = self.guard.owner(path)
        return owner.describe() if owner is not None else "another program"

    def _on_disk_removed(self, path: str) -> None:
        self.doc.mark_modified()
        self.say(f"{Path(path).name} was deleted or moved on disk; Save writes it again", 15000)

    def _on_disk_moved(self, path: str, now: str) -> None:
        """The file's folder was renamed or moved while the file was open."""
        answer = self.questions.file_moved(Path(path).name, path, now)
        if answer == "follow":
            self._follow(now, f"{Path(path).name} moved with its folder: now {now}")
            return
        self.doc.mark_modified()
        self.say(f"{path} is gone from disk; Save writes it there again", 15000)

    def _on_retargeted(self, link: str, old: str, new: str) -> None:
        """A symbolic link that the document was opened through now leads elsewhere."""
        answer = self.questions.link_retargeted(Path(link).name, old, new)
        if answer == "open":
            self.reload()
            return
        self._follow(old, f"Still editing {old}; {Path(link).name} now leads to {new}")

    def _follow(self, path: str, text: str) -> None:
        """Go on editing the same file under another path (it moved, or a link changed)."""
        modified = self.doc.is_modified()
        if not self.read_only and self.guard.try_lock(path) is not None:
            self._set_read_only(HELD)
        self.guard.watch(path)
        self.doc.set_path(path)
        if modified:
            self.doc.mark_modified()
        self.say(text, 15000)

    # -- recovery and closing -------------------------------------------------------
    def check_recovery(self) -> bool:
        """Offer to recover what a crashed session autosaved; True when recovered. An
        autosave that cannot be opened is kept aside, said once, never offered again."""
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
        result = load_for_editing(entry.track_file)
        if result.track is None:
            self._keep_aside(entry, result)
            return False
        original = entry.original
        held = bool(original) and self.guard.try_lock(str(original)) is not None
        self._set_document(result.track, original, modified=True, read_only=HELD if held else "")
        entry.discard()
        self.autosave.save_now()
        self.say("Recovered the autosaved track; save it to keep it")
        return True

    def _keep_aside(self, entry: AutosaveEntry, result: LoadResult) -> None:
        aside = self.autosave.directory / KEPT_ASIDE
        try:
            aside.mkdir(parents=True, exist_ok=True)
            for f in (entry.track_file, entry.meta_file):
                shutil.move(str(f), aside / f.name)
            where = f"It is kept as {aside / entry.track_file.name} and will not be offered again."
        except OSError as exc:
            entry.discard()
            where = f"It could not be kept aside ({exc.strerror or exc}) and was removed."
        self.questions.problems(
            "Cannot recover the autosave",
            f"The autosave of {entry.name} could not be opened. {where}",
            [str(p) for p in result.problems],
        )

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


def _writable(path: str | Path) -> bool:
    """True when a save may write ``path``: the writer's own check (a read-only file,
    a folder where no file can be made, a read-only disk: refused), so that a file it
    would refuse opens read-only and Save asks for another file."""
    try:
        check_writable(path)
    except TracksideError:
        return False
    return True
