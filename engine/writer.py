"""The one way Trackside writes a file: tracks, autosaves, records, reports, plots,
pictures, prints to file and the editor's own files all come through here.

``write_bytes`` (and ``write_text``) write to a temporary file beside the target
(``.NAME.PID-XXXXXXXX.tmp``), every byte through ``os.write``, flush it to the
disk (``fsync``), check that the file holds exactly what was meant, then rename
it over the target, so the target holds the old content or the new, never half
and never nothing. On any failure the old file is untouched, the temporary file
is removed, and the error (``WriteFailed``) names the file and the cause in the
system's words ("No space left on device"). Renderers (Qt, matplotlib) draw into
memory and hand their bytes here; ``check_complete`` refuses a picture that came
out empty or cut short.

A save killed half way (power cut, ``kill -9``) leaves its temporary file behind;
the next write of the same target, and the editor's next opening of it
(``remove_leftovers``), remove those whose process is gone.

``check_writable`` refuses an unusable output before any work is done, and
``refuse_replacing_inputs`` an output that is one of the command's inputs (the
same file on disk, however it is named: ``./t.yaml``, a link, a hard link).
"""

from __future__ import annotations

import contextlib
import errno as errnos
import os
import re
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path

from trackside.engine.errors import Fix, Place, UnwritableOutput, WriteFailed, elsewhere, in_place

TEMP_SUFFIX = ".tmp"
_NAME_KEPT = 160  # characters of the target's name in a temporary file's name
_TEMP_MIDDLE = re.compile(r"(\d+)-[0-9a-z]+\Z")

_FREE_SPACE = (in_place("free some space"), elsewhere("choose another disk"))
_WRITABLE_FOLDER = Fix((elsewhere("choose a folder you can write to"),))
# What to do about a failure, by its cause.
_FIXES = {
    errnos.ENOSPC: Fix(_FREE_SPACE, "the disk is full"),
    errnos.EDQUOT: Fix(_FREE_SPACE, "your disk quota is used up"),
    errnos.EACCES: _WRITABLE_FOLDER,
    errnos.EPERM: _WRITABLE_FOLDER,
    errnos.EROFS: Fix((elsewhere("choose another disk or folder"),), "the disk is read-only"),
    errnos.EISDIR: Fix(
        (elsewhere("choose another file name"),), "a folder of that name is in the way"
    ),
    errnos.ENOENT: Fix((in_place("create the folder first"), elsewhere("choose another one"))),
    errnos.ENOTDIR: Fix(
        (elsewhere("check the path"),), "a part of the path is a file, not a folder"
    ),
    errnos.ENAMETOOLONG: Fix((elsewhere("choose a shorter file name"),)),
}


# -- writing ----------------------------------------------------------------------
def write_text(path: str | os.PathLike[str], text: str, what: str = "the output") -> None:
    """Write ``text`` as UTF-8 (lines end in ``\\n``) safely; see ``write_bytes``."""
    if not isinstance(text, str):
        raise TypeError(f"write_text needs a str, not {type(text).__name__}")
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise UnwritableOutput(
            f"cannot write: the text holds a character that is not Unicode ({exc.reason})",
            Place(str(path)),
        ) from None
    write_bytes(path, data, what)


def write_bytes(path: str | os.PathLike[str], data: bytes, what: str = "the output") -> None:
    """Write ``data`` to ``path`` so that it holds the old content or the new, never
    half; ``WriteFailed`` (naming the file and the cause) when it cannot, the old
    file untouched. Through a symbolic link the file it points to is replaced and
    the link kept; the file keeps its permissions (a new one gets the default)."""
    target, existed = _usable_target(path, what)
    remove_leftovers(target)
    try:
        fd, temp = _create_temp(target)
    except OSError as exc:
        raise _failed(path, exc, existed) from None
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
            written = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if written != len(data):  # a file system that took less than it said
            raise OSError(errnos.EIO, f"only {written:,} of {len(data):,} bytes were written")
        if existed:
            os.chmod(temp, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise _failed(path, exc, existed) from None
        raise
    _sync_folder(target.parent)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        count = os.write(fd, view)
        if count <= 0:  # nothing taken and no error: the disk will not take more
            raise OSError(errnos.ENOSPC, os.strerror(errnos.ENOSPC))
        view = view[count:]


def _create_temp(target: Path) -> tuple[int, Path]:
    """A new file beside ``target`` named for it and this process, made with the
    permissions a new file gets here (the user's umask applies)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _attempt in range(100):
        temp = target.parent / f"{_temp_prefix(target)}{os.getpid()}-{secrets.token_hex(4)}"
        temp = temp.with_name(temp.name + TEMP_SUFFIX)
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue
    raise OSError(errnos.EEXIST, "no free name for a temporary file", str(target.parent))


def _temp_prefix(target: Path) -> str:
    return f".{target.name[:_NAME_KEPT]}."


def _real_target(path: str | os.PathLike[str]) -> Path:
    """The file a write replaces: through a symbolic link, the file it points to."""
    return Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (where the system allows it)."""
    try:
        fd = os.open(folder if str(folder) else ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the file itself is on disk
    finally:
        os.close(fd)


def _failed(path: str | os.PathLike[str], exc: OSError, existed: bool) -> WriteFailed:
    """The error of a failed write: the file, the cause, what to do, what is left."""
    name = Path(path).name or str(path)
    kept = f"{name} is unchanged" if existed else "nothing was written"
    cause = exc.strerror or str(exc) or type(exc).__name__
    fix = _FIXES.get(exc.errno or 0)
    said = f"cannot write: {cause}"
    folder = Path(path).parent
    if exc.errno == errnos.ENOENT and folder.is_dir():  # there, but makes no files (/proc)
        said = f"cannot write: the folder {folder} does not take new files"
        fix = Fix((elsewhere("choose another folder"),))
    return WriteFailed(
        said,
        Place(str(path)),
        f"{fix}; {kept}" if fix else kept,
        errno=exc.errno,
        cause=cause,
        fix=fix,
    )


# -- before writing ---------------------------------------------------------------
_KINDS_OF_FILE = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def kind_of_file(mode: int) -> str:
    """What a path that is no regular file is, in words ('a named pipe'), by its mode."""
    return next((text for test, text in _KINDS_OF_FILE if test(mode)), "no regular file")


def check_writable(path: str | os.PathLike[str], option: str | None = None) -> None:
    """Refuse, before any work is done, an output path that cannot be written: an
    empty path, a folder or a device in the way, a read-only file, a missing folder,
    or a folder where no file can be made (tried, not guessed)."""
    target, existed = _usable_target(path, option or "the output")
    try:
        fd, temp = _create_temp(target)
    except OSError as exc:
        raise _failed(path, exc, existed) from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(temp)


def _usable_target(path: str | os.PathLike[str], what: str) -> tuple[Path, bool]:
    """The file a write of ``path`` replaces and whether it exists, refusing what
    cannot be written whatever the disk says."""
    name = str(path)
    if not name:
        raise WriteFailed(
            "the path is empty", Place(what), fix=Fix((elsewhere(f"give a file name for {what}"),))
        )
    try:
        target = _real_target(path)
        info = os.stat(target) if target.exists() else None
    except OSError as exc:  # a name too long, a loop of links...
        raise _failed(path, exc, False) from None
    if info is not None:
        _check_target(info, name, what)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise _no_folder(folder, name)
    return target, info is not None


def _no_folder(folder: Path, name: str) -> WriteFailed:
    """The error for a folder that is not there: missing, or a file where a folder
    should be (``notes.txt/x.yaml``), which no one can create a folder in."""
    above = next((p for p in (folder, *folder.parents) if os.path.lexists(p)), None)
    if above is not None and not above.is_dir():
        said, code = f"{above} is a file, not a folder", errnos.ENOTDIR
        fix = Fix((elsewhere("choose another folder"),))
    else:
        said, code = f"the folder {folder} does not exist", errnos.ENOENT
        fix = Fix((in_place("create the folder first"), elsewhere("choose another folder")))
    return WriteFailed(
        f"cannot write: {said}", Place(name), errno=code, cause=os.strerror(code), fix=fix
    )


def _check_target(info: os.stat_result, name: str, what: str) -> None:
    if stat.S_ISREG(info.st_mode):
        if not info.st_mode & 0o222:
            fix = Fix((in_place("make it writable"), elsewhere(f"choose another file for {what}")))
            raise WriteFailed(
                "cannot write: the file is read-only",
                Place(name),
                f"{fix}; it is unchanged",
                errno=errnos.EACCES,
                cause=os.strerror(errnos.EACCES),
                fix=fix,
            )
        if not os.access(name, os.W_OK):
            code = errnos.EROFS if _on_read_only_disk(name) else errnos.EACCES
            raise _failed(name, OSError(code, os.strerror(code)), True)
        return
    kind = "a folder" if stat.S_ISDIR(info.st_mode) else kind_of_file(info.st_mode)
    raise WriteFailed(
        f"cannot write: this is {kind}, not a file",
        Place(name),
        fix=Fix((elsewhere(f"give a file name for {what}"),)),
        errno=errnos.EISDIR if stat.S_ISDIR(info.st_mode) else errnos.EINVAL,
        cause=f"is {kind}",
    )


def _on_read_only_disk(name: str) -> bool:
    try:
        return bool(os.statvfs(name).f_flag & getattr(os, "ST_RDONLY", 1))
    except (OSError, AttributeError):  # no statvfs (Windows)
        return False


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """True when two paths name one file on disk: the same path however written,
    through links (symbolic or hard), or the same path not yet made."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        pass
    try:
        return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))
    except (OSError, ValueError):
        return False


def refuse_replacing_inputs(
    outputs: Iterable[tuple[str, str | os.PathLike[str] | None]],
    inputs: Iterable[tuple[str, str | os.PathLike[str] | None]],
) -> None:
    """Refuse (exit code 2, before any work) an output that is one of the inputs or
    another output. ``outputs`` are (option, path), ``inputs`` (what it is, path);
    a None path is skipped."""
    given = [(option, path) for option, path in outputs if path]
    read = [(what, path) for what, path in inputs if path]
    for k, (option, path) in enumerate(given):
        for what, source in read:
            if same_file(path, source):
                raise UnwritableOutput(
                    f"{option} names {what} ({source}): writing there would replace it",
                    Place(str(path)),
                    f"choose another file for {option}",
                )
        for other, other_path in given[k + 1 :]:
            if same_file(path, other_path):
                raise UnwritableOutput(
                    f"{option} and {other} name the same file",
                    Place(str(path)),
                    f"give {option} and {other} different files",
                )


# -- what a killed save left ---------------------------------------------------------
def leftovers(path: str | os.PathLike[str]) -> list[Path]:
    """The temporary files that writes of ``path`` left behind when their process was
    killed (a running process's file is not one)."""
    if not str(path):
        return []
    target = _real_target(path)
    folder = target.parent if str(target.parent) else Path(".")
    prefix = _temp_prefix(target)
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = []
    for name in names:
        if not (name.startswith(prefix) and name.endswith(TEMP_SUFFIX)):
            continue
        middle = _TEMP_MIDDLE.match(name[len(prefix) : -len(TEMP_SUFFIX)])
        if middle is None or not _running(int(middle.group(1))):
            found.append(folder / name)
    return found


def remove_leftovers(path: str | os.PathLike[str]) -> int:
    """Remove what killed writes of ``path`` left behind; how many were removed."""
    removed = 0
    for leftover in leftovers(path):
        try:
            if leftover.is_file() and not leftover.is_symlink():
                leftover.unlink()
                removed += 1
        except OSError:
            continue  # another program's file, or already gone
    return removed


def _running(pid: int) -> bool:
    """Whether the process that made a temporary file is still running."""
    if pid == os.getpid():
        return True
    if os.name == "nt":  # no harmless signal there; its open files cannot be removed anyway
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid > 0  # another user's process (an overflow is no process at all)
    return True


# -- pictures drawn in memory --------------------------------------------------------
_ENDS = {
    "png": (b"IEND\xaeB`\x82", 0),
    "pdf": (b"%%EOF", 1024),
    "svg": (b"</svg>", 64),
}


def check_complete(data: bytes, kind: str, path: str | os.PathLike[str]) -> None:
    """Refuse a rendered ``kind`` (png, pdf, svg) that came out empty or cut short
    (the renderer failed without saying so), before it replaces anything."""
    end, slack = _ENDS[kind]
    if end not in data[-(len(end) + slack) :]:
        raise WriteFailed(
            f"cannot write: the {kind.upper()} came out "
            + ("empty" if not data else f"incomplete ({len(data):,} bytes)"),
            Place(str(path)),
            "nothing was written; try again, or report it if it happens again",
            errno=errnos.EIO,
            cause="incomplete drawing",
            fix=Fix(
                (in_place("try again"), in_place("report it if it happens again")), joint=", or "
            ),
        )
