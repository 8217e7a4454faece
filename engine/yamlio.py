"""Safe YAML reading and readable YAML writing.

Files are read with PyYAML's safe loader only, refused past a size limit or
when aliases would expand past a node limit, and every value keeps its line
and column so that problems can point into the file. Files are written by
``engine.writer`` (``write_atomic`` here is its name for text).
"""

from __future__ import annotations

import math
import os
import re
import stat
from collections.abc import Sequence
from typing import Any, Protocol

import yaml

from trackside.engine.errors import Place, TracksideError, UnreadableInput, shown
from trackside.engine.writer import check_writable as check_writable  # callers find it here
from trackside.engine.writer import kind_of_file, write_text
from trackside.engine.yamlfast import GIVE_UP, KEY, read_plain

try:  # libyaml is much faster; the pure-Python loader is equally safe.
    from yaml import CSafeDumper as _BaseDumper
    from yaml import CSafeLoader as _BaseLoader

    _LIBYAML = True
except ImportError:  # pragma: no cover - depends on the PyYAML build
    # The pure-Python classes stand in for the libyaml ones under the same names.
    from yaml import SafeDumper as _BaseDumper  # type: ignore[assignment]
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

    _LIBYAML = False

MAX_BYTES = 8 * 1024 * 1024
MAX_NODES = 2_000_000
MAX_DEPTH = 100

# A mapping key as read (bool is an int) or a list index; "<key>" marks a key's own node.
PathPart = str | int | float | None
JsonPath = tuple[PathPart, ...]


class YamlDocument:
    """Parsed YAML data with the source position of every node.

    A document read by the fast reader finds its positions only when asked,
    by reading its text again (most files are read without being asked)."""

    def __init__(
        self,
        data: Any,
        file: str,
        positions: dict[JsonPath, tuple[int, int]] | None = None,
        *,
        text: str | None = None,
    ):
        self.data = data
        self.file = file
        self._positions = positions
        self._text = text

    @property
    def positions(self) -> dict[JsonPath, tuple[int, int]]:
        """The place (line, column; 1-based) of each value, by its path, and of each
        mapping key, by its path and ``KEY``."""
        if self._positions is None:
            # Filled before it is shared: a worker thread may ask at the same time.
            positions: dict[JsonPath, tuple[int, int]] = {}
            if self._text is not None:
                read_plain(self._text, MAX_DEPTH, MAX_NODES, positions)
            self._positions = positions
        return self._positions

    def place(self, path: Sequence[PathPart]) -> Place:
        """The file place of the value at ``path``, or of its nearest parent."""
        positions = self.positions
        for cut in range(len(path), -1, -1):
            pos = positions.get(tuple(path[:cut]))
            if pos:
                return Place(self.file, pos[0], pos[1])
        return Place(self.file)


def read_text(path: str | os.PathLike[str], what: str = "file") -> str:
    """Read a UTF-8 text file, refusing what is no regular file (a folder, a
    named pipe, a device), huge files and bad bytes."""
    name = str(path)
    if not name:
        raise UnreadableInput(f"the path is empty; give the path of a {what}")
    try:
        raw = _read_regular(name, what)
    except OSError as exc:
        raise _unreadable(exc, name) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        kind = next((k for magic, k in BINARY_KINDS if raw.startswith(magic)), None)
        if kind is not None:  # not text at all: saving it "as UTF-8" is no fix
            expected = "YAML text" if what == "file" else f"a {what}"
            raise UnreadableInput(
                f"this is {kind}, not {expected}", Place(name), "a Trackside file is YAML text"
            ) from None
        line = raw[: exc.start].count(b"\n") + 1
        raise UnreadableInput(
            "not UTF-8 text", Place(name, line), "save the file as UTF-8"
        ) from None


# Files a designer may give by mistake, known by their first bytes.
BINARY_KINDS = (
    (b"\x89PNG", "a PNG picture"),
    (b"\xff\xd8\xff", "a JPEG picture"),
    (b"GIF8", "a GIF picture"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a zip archive (or an office document)"),
)


def _read_regular(name: str, what: str) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES.

    Opening a named pipe waits for a writer, for ever if none comes, and a
    device may never end: both are refused before opening, and the file is
    opened without blocking in case it was swapped for one in between."""
    _check_regular(os.stat(name).st_mode, name, what)
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        _check_regular(info.st_mode, name, what)
        if info.st_size > MAX_BYTES:
            raise _too_big(name, what)
        raw = handle.read(MAX_BYTES + 1)  # a file growing meanwhile: no more than this
    if len(raw) > MAX_BYTES:
        raise _too_big(name, what)
    return raw


def _too_big(name: str, what: str) -> UnreadableInput:
    return UnreadableInput(
        f"file is over {MAX_BYTES:,} bytes; a {what} may be at most {MAX_BYTES:,} bytes",
        Place(name),
    )


def _check_regular(mode: int, name: str, what: str) -> None:
    if stat.S_ISREG(mode):
        return
    raise UnreadableInput(
        f"is {kind_of_file(mode)}, not a {what}",
        Place(name),
        f"give the path of a {what} saved on disk",
    )


def file_kind(path: str | os.PathLike[str]) -> str | None:
    """What ``path`` is when it is no regular file ("a named pipe", "a directory", "a
    device"...), None for a regular file; OSError when there is nothing to look at.
    Looking never opens it (opening a named pipe waits for a writer)."""
    mode = os.stat(path).st_mode
    return None if stat.S_ISREG(mode) else kind_of_file(mode)


def declared_kind(path: str | os.PathLike[str]) -> str | None:
    """What a Trackside file says it holds, from its top-level ``format:`` line
    (``format: trackside-record/1`` -> "record"; "track", "variant"...), read from its
    first lines without parsing the YAML; None when it says nothing of the kind or is no
    regular file that can be read."""
    try:
        if file_kind(path) is not None:
            return None
        with open(path, "rb") as stream:
            head = stream.read(4096).decode("utf-8", errors="replace")
    except OSError:
        return None
    found = _FORMAT_LINE.search(head)
    if found is None:
        return None
    try:  # the line alone, read as YAML: its value quoted or not, a comment after it
        line = parse_yaml(found.group(0), str(path)).data
    except TracksideError:
        return None
    return format_kind(line.get("format") if isinstance(line, dict) else None)


# A block mapping's top-level key at the start of a line.
_FORMAT_LINE = re.compile(r"^format:.*$", re.MULTILINE)
# What every Trackside file's format is: trackside-KIND/VERSION.
_FORMAT_VALUE = re.compile(r"trackside-([a-z]+)/[0-9]+")


def format_kind(value: object) -> str | None:
    """The kind a ``format`` value names ("trackside-record/1" -> "record"), None when
    it is no Trackside format."""
    found = _FORMAT_VALUE.fullmatch(value) if isinstance(value, str) else None
    return found.group(1) if found else None


# What each kind of Trackside file is called in a message.
KIND_NAMES = {
    "track": "a track file",
    "variant": "a variant file",
    "record": "a game record",
    "fragment": "spaces copied in the editor",
    "balance": "a balance report",
    "comparison": "a comparison of balance runs",
    "fixes": "a report of suggested fixes",
    "sweep": "a sweep report",
}


def refuse_other_kind(doc: YamlDocument, expected: str) -> None:
    """Raise UnreadableInput when ``doc`` says (by its ``format:``) that it is another
    kind of Trackside file than ``expected`` ("track", "variant"...): one message that
    names both kinds, not every key the two kinds do not share."""
    data = doc.data
    declared = data.get("format") if isinstance(data, dict) else None
    kind = format_kind(declared)
    if kind is None or kind == expected:
        return
    raise UnreadableInput(
        f"this {other_kind(kind, expected, str(declared))}",
        doc.place(("format",)),
        f"give {KIND_NAMES[expected]} here: one that starts with 'format: trackside-{expected}/1'",
    )


def other_kind(kind: str, expected: str, declared: str = "") -> str:
    """'is a game record, not a track file': a Trackside file of ``kind`` given where
    one of ``expected`` goes, with the ``declared`` format it starts with, if given."""
    named = KIND_NAMES.get(kind, f"a Trackside {kind} file")
    return f"is {named}{f' ({declared})' if declared else ''}, not {KIND_NAMES[expected]}"


def check_regular_file(path: str | os.PathLike[str], what: str = "file") -> None:
    """UnreadableInput, worded as for a track file, unless ``path`` is a regular file:
    the gate before any other reader (an image or PDF library) opens it."""
    name = str(path)
    try:
        _check_regular(os.stat(name).st_mode, name, what)
    except OSError as exc:
        raise _unreadable(exc, name) from None


def _unreadable(exc: OSError, name: str) -> UnreadableInput:
    """Why a file cannot be read, in the words every reader here uses."""
    if isinstance(exc, FileNotFoundError):
        return UnreadableInput("no such file", Place(name))
    if isinstance(exc, PermissionError):
        return UnreadableInput("permission denied", Place(name))
    return UnreadableInput(f"cannot read: {exc.strerror or exc}", Place(name))


def parse_yaml(text: str, file: str = "<input>") -> YamlDocument:
    """Parse one YAML document safely, keeping node positions."""
    if len(text) > MAX_BYTES:
        raise UnreadableInput(f"text is longer than {MAX_BYTES:,} characters", Place(file))
    data = read_plain(text, MAX_DEPTH, MAX_NODES)
    if data is not GIVE_UP:
        return YamlDocument(data, file, text=text)
    return parse_yaml_carefully(text, file)


def parse_yaml_carefully(text: str, file: str = "<input>") -> YamlDocument:
    """Parse one YAML document through the node tree, checking every node and
    wording what is wrong; ``parse_yaml`` takes this way for what the fast
    reader does not take on."""
    try:
        _check_depth(text, file)
        loader = _BaseLoader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        unclosed = _unclosed(exc, text, file)
        if unclosed is not None:
            raise unclosed from None
        where = _mark_place(exc.problem_mark or exc.context_mark, file)
        problem = exc.problem or exc.context or "not YAML"
        if "another document" in problem:
            raise UnreadableInput(
                "the file holds more than one YAML document",
                where,
                "keep one: remove the second '---' and what follows",
            ) from None
        raise UnreadableInput(
            f"YAML syntax error: {shown(problem, 200, quote=False)}", where, _syntax_hint(where)
        ) from None
    except yaml.reader.ReaderError as exc:
        line = text[: max(0, exc.position)].count("\n") + 1
        char = chr(exc.character) if isinstance(exc.character, int) else exc.character
        raise UnreadableInput(
            f"character {char!r} is not allowed in YAML",
            Place(file, line),
            "remove control characters",
        ) from None
    except yaml.YAMLError as exc:
        message = " ".join(str(exc).split())
        raise UnreadableInput(
            f"YAML error: {shown(message, 200, quote=False)}", Place(file)
        ) from None
    if node is None:
        return YamlDocument(None, file)
    _check_size(node, file)
    positions: dict[JsonPath, tuple[int, int]] = {}
    data = _construct(node, (), positions, file)
    return YamlDocument(data, file, positions)


def _syntax_hint(where: Place) -> str:
    """What to look for at a syntax error the parser words in its own terms: the
    common causes, which often lie a line or more above where it noticed."""
    at = f"line {where.line} and the lines above it" if where.line else "the file"
    return (
        f"look at {at} for a bracket [ or {{ or a quote not closed, a '- ' item where "
        "a 'key:' belongs (or a 'key:' line left out), or indentation that does not line "
        "up with the lines around it"
    )


def load_yaml(path: str | os.PathLike[str], what: str = "file") -> YamlDocument:
    """Read and parse a YAML file safely."""
    return parse_yaml(read_text(path, what), str(path))


def _check_depth(text: str, file: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before composing: the composer and
    the walks below recurse once per level, and a hostile file could exhaust
    the stack (a crash, not an exception).

    libyaml scans a flow collection ahead of the events it gives and may refuse
    deep nesting itself, in its own words; the pure-Python loader scans lazily,
    so it then finds the level where our limit is passed."""
    try:
        _walk_depth(_BaseLoader(text), file)
    except yaml.YAMLError:
        if not _LIBYAML:
            raise
        _walk_depth(yaml.SafeLoader(text), file)


def _walk_depth(loader: yaml.SafeLoader | yaml.CSafeLoader, file: str) -> None:
    depth = 0
    try:
        while (event := loader.get_event()) is not None:
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise UnreadableInput(
                        f"YAML nested more than {MAX_DEPTH} levels deep",
                        _mark_place(event.start_mark, file),
                    )
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    finally:
        loader.dispose()


def _check_size(root: yaml.Node, file: str) -> None:
    """Refuse alias bombs: count nodes as if every alias were expanded."""
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in active:
            raise UnreadableInput("YAML alias refers to itself", _mark(node, file))
        active.add(key)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(child) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        active.discard(key)
        sizes[key] = total
        if total > MAX_NODES:
            raise UnreadableInput(
                f"document expands to more than {MAX_NODES:,} values (alias bomb?)",
                _mark(node, file),
            )
        return total

    size(root)


def _mark(node: yaml.Node, file: str) -> Place:
    return _mark_place(node.start_mark, file)


class _Mark(Protocol):
    """A position in the YAML text as PyYAML and libyaml give it (0-based)."""

    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


def _mark_place(mark: _Mark | None, file: str) -> Place:
    """The 1-based place of a 0-based YAML mark (the file alone when there is none)."""
    return Place(file, mark.line + 1, mark.column + 1) if mark else Place(file)


# What closes each opening mark, and what it opens.
_CLOSERS = {"[": ("]", "list"), "{": ("}", "mapping"), "'": ("'", "text"), '"': ('"', "text")}


def _unclosed(exc: yaml.MarkedYAMLError, text: str, file: str) -> UnreadableInput | None:
    """The refusal of a bracket or quote that is never closed, at the place where it
    opens (the parser notices a line or more later), or of a list or mapping in
    brackets that misses a ',' between items; None for any other error."""
    opened, found, context = exc.context_mark, exc.problem_mark, exc.context or ""
    if opened is None or found is None:
        return None
    lines = text.split("\n")
    opening = _after(lines, opened)
    opener, inside = opening[:1], opening[1:]
    if opener not in _CLOSERS or not ("flow" in context or "quoted" in context):
        return None
    close, what = _CLOSERS[opener]
    start, rest = opened.line + 1, _after(lines, found).strip()
    if opener in "'\"":
        if _closes(opener, inside):
            return None  # closed: some other fault inside the quotes
        return UnreadableInput(
            f"YAML syntax error: the quote {opener} opened at line {start} is not closed",
            _mark_place(opened, file),
            f"end the text with {opener}",
        )
    if _bracket_closed(inside):
        return UnreadableInput(
            f"YAML syntax error: a ',' or the '{close}' is missing here, in the {what} "
            f"opened at line {start}",
            _mark_place(found, file),
            f"separate the items of the {what} with ',' and end it with '{close}'",
        )
    until = f": line {found.line + 1} is read as inside it" if rest else " by the end of the file"
    return UnreadableInput(
        f"YAML syntax error: the '{opener}' opened at line {start} is not closed{until}",
        _mark_place(opened, file),
        f"end the {what} with '{close}' after its last item",
    )


def _after(lines: list[str], mark: _Mark) -> str:
    """The text from ``mark`` to the end ('' past the end)."""
    first = [line[mark.column :] for line in lines[mark.line : mark.line + 1]]
    return "\n".join(first + lines[mark.line + 1 :])


def _bracket_closed(text: str) -> bool:
    """Whether the bracket opened just before ``text`` is closed in it: brackets counted
    outside quoted text and comments ([ and { alike)."""
    depth, quote, escaped = 1, "", False
    for line in text.split("\n"):
        previous = " "
        for char in line:
            if escaped:
                escaped = False
            elif quote:
                escaped = char == "\\" and quote == '"'
                quote = "" if char == quote else quote
            elif char == "#" and previous in " \t":
                break  # a comment, to the end of the line
            elif char in "'\"" and previous in " \t[{,:":
                quote = char
            else:
                depth += (char in "[{") - (char in "]}")
                if depth == 0:
                    return True
            previous = char
    return False


def _closes(quote: str, text: str) -> bool:
    """Whether ``text``, after an opening ``quote``, holds the quote that closes it
    (a doubled '' inside single quotes and an escaped \\" inside double ones do not)."""
    if quote == "'":
        return "'" in text.replace("''", "")
    return '"' in text.replace("\\\\", "").replace('\\"', "")


_SCALAR = yaml.constructor.SafeConstructor()


def _construct(
    node: yaml.Node, path: JsonPath, positions: dict[JsonPath, tuple[int, int]], file: str
) -> Any:
    positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node, file)
    if isinstance(node, yaml.SequenceNode):
        _check_tag(node, "tag:yaml.org,2002:seq", file)
        return [
            _construct(child, (*path, i), positions, file) for i, child in enumerate(node.value)
        ]
    _check_tag(node, "tag:yaml.org,2002:map", file)
    result: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            raise UnreadableInput("YAML merge keys (<<) are not supported", _mark(key_node, file))
        key = _construct(key_node, (*path, KEY), {}, file)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            raise UnreadableInput("a mapping key must be a plain value", _mark(key_node, file))
        if key in result:
            raise UnreadableInput(
                f"duplicate key {shown(key)}",
                _mark(key_node, file),
                "each key may appear once in a mapping",
            )
        at = key_node.start_mark
        positions[(*path, key, KEY)] = (at.line + 1, at.column + 1)
        result[key] = _construct(value_node, (*path, key), positions, file)
    return result


_STANDARD_TAG = "tag:yaml.org,2002:"
_PLAIN_SCALARS = ("null", "bool", "int", "float", "str", "timestamp")


def _tag_text(tag: str) -> str:
    """A tag as written in the file: ``!!bool`` rather than its full name."""
    short = "!!" + tag[len(_STANDARD_TAG) :] if tag.startswith(_STANDARD_TAG) else tag
    return shown(short, quote=False)


def _check_tag(node: yaml.Node, expected: str, file: str) -> None:
    if node.tag != expected:
        raise UnreadableInput(
            f"unsupported YAML tag {_tag_text(node.tag)}",
            _mark(node, file),
            "remove the tag; only plain YAML is read",
        )


def _scalar(node: yaml.ScalarNode, file: str) -> Any:
    if node.tag not in {_STANDARD_TAG + kind for kind in _PLAIN_SCALARS}:
        raise UnreadableInput(
            f"unsupported YAML tag {_tag_text(node.tag)}",
            _mark(node, file),
            "remove the tag; only plain YAML is read",
        )
    if node.tag == _STANDARD_TAG + "timestamp":
        return node.value  # a date is only ever free text here
    try:
        value = _SCALAR.construct_object(node)
    # PyYAML fails in its own ways on a value its explicit tag does not fit
    # (``!!bool maybe`` is a KeyError, ``!!int ""`` an IndexError).
    except (yaml.YAMLError, ValueError, OverflowError, LookupError):
        raise UnreadableInput(
            f"{shown(node.value)} is not a {_tag_text(node.tag)} value",
            _mark(node, file),
            f"remove the tag {_tag_text(node.tag)} or write a value of that kind",
        ) from None
    if isinstance(value, float) and not math.isfinite(value):
        raise UnreadableInput(f"number {shown(node.value)} is not finite", _mark(node, file))
    return value


class _Dumper(_BaseDumper):
    """Block style for mappings, flow style for short lists of plain values."""


def _represent_list(dumper: _Dumper, data: Sequence[object]) -> yaml.Node:
    flat = all(isinstance(x, (int, float, str, bool)) or x is None for x in data)
    points = all(
        isinstance(x, (list, tuple)) and len(x) <= 2 and all(isinstance(v, (int, float)) for v in x)
        for x in data
    )
    flow = bool(data) and ((flat and len(data) <= 12) or (points and len(data) <= 8))
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _represent_float(dumper: _Dumper, data: float) -> yaml.Node:
    if not math.isfinite(data):
        return dumper.represent_float(data)  # .nan / .inf: refused again on load
    text = f"{data:.1f}" if data == int(data) and abs(data) < 1000000000000000.0 else repr(data)
    return dumper.represent_scalar("tag:yaml.org,2002:float", text)


_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(tuple, _represent_list)
_Dumper.add_representer(float, _represent_float)


class NotPlainData(ValueError):
    """Data the YAML writer refuses: a value of another type than plain numbers, text,
    true or false, None, lists and mappings (a numpy number, an enum, an object), or a
    number that is not finite. Only a bug brings such data here: what a file holds is
    checked before it reaches the writer."""


_WRITTEN_SCALARS = frozenset({str, int, bool, type(None)})
_WRITTEN_KEYS = frozenset({str, int})
_NOT_FINITE = "a number written to a file must be finite"
_BAD_KEY = "a mapping key written to a file is text or a whole number"


def path_text(path: JsonPath) -> str:
    """A place in a document as people read it: ``spaces[3].corners[0]``."""
    if not path:
        return "document"
    text = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        else:
            text += f".{shown(part, quote=False)}" if text else shown(part, quote=False)
    return text


def check_plain(data: object) -> None:
    """Raise NotPlainData, naming the place, unless ``data`` holds only what a YAML
    file written here may: plain numbers (finite), text, true or false, None, and
    lists and mappings of them (by exact type: a subclass such as numpy's float64 is
    refused, as its text would not read back as the same value)."""
    found = _not_plain(data)
    if found is None:
        return
    path, value, problem = found
    raise NotPlainData(
        f"cannot write {shown(value)} at {path_text(tuple(reversed(path)))}: {problem}"
    )


def _not_plain(value: object) -> tuple[list[PathPart], object, str] | None:
    """Where (innermost first), what and why of the first thing ``check_plain`` refuses."""
    kind = type(value)
    if kind in _WRITTEN_SCALARS:
        return None
    if kind is float:
        return None if math.isfinite(value) else ([], value, _NOT_FINITE)  # type: ignore[arg-type]
    items: Any
    if kind is dict:
        items = value.items()  # type: ignore[attr-defined]
    elif kind is list or kind is tuple:
        items = enumerate(value)  # type: ignore[arg-type]
    else:
        return [], value, _not_plain_type(kind)
    for key, item in items:
        if kind is dict and type(key) not in _WRITTEN_KEYS:
            return [], key, _BAD_KEY
        inner = type(item)
        if inner in _WRITTEN_SCALARS or (inner is float and math.isfinite(item)):
            continue  # the common case, without a call
        found = _not_plain(item)
        if found is not None:
            found[0].append(key)
            return found
    return None


def _not_plain_type(kind: type) -> str:
    return (
        f"it is a {kind.__module__}.{kind.__qualname__}; a file holds plain numbers, "
        "text, true or false, lists and mappings only"
    )


def dump_yaml(data: Any, header: str | None = None) -> str:
    """YAML text for ``data``: keys in the given order, readable layout. NotPlainData
    for anything but plain data (see ``check_plain``)."""
    check_plain(data)
    text = yaml.dump(
        data,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=100,
    )
    if header:
        text = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines()) + text
    return text


def write_atomic(path: str | os.PathLike[str], text: str, what: str = "the output") -> None:
    """Write ``text`` so that ``path`` holds either the old or the new content
    (``engine.writer.write_text``: the one writer of every file); ``what`` names the
    file in the advice of an error ("give a file name for the track")."""
    write_text(path, text, what)
