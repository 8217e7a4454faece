"""The documents keep up with the code: rule ids resolve, commands are documented,
links lead somewhere, the layout and rooms tables match the tree and the import
contract, no test count is written down, and the repository cites nothing outside
itself."""

from __future__ import annotations

import io
import re
import subprocess
import tokenize
from pathlib import Path

import pytest
from house import code_folders, editor_floors
from repo_paths import ROOT

RULES = ROOT / "docs" / "rules.md"
CLI_DOC = ROOT / "docs" / "cli.md"
DESIGN = ROOT / "docs" / "design.md"
# A count of tests written into a document goes stale with the next test.
TEST_COUNT = re.compile(r"\b\d[\d,]* (?:tests|test cases)\b")
# Where code, tests and documents cite rules.
CITING_FOLDERS = ("engine", "editor", "tests", "docs", "schemas", "variants")
CITING_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".json"}

# A rule id: a family (R-MOVE), a numbered rule (R-MOVE-4, maybe with a letter) or a named
# one (R-POW-DET).
RULE_ID = re.compile(r"\bR-[A-Z]+(?:-(?:[0-9]+[a-z]?|[A-Z]{3,}))?\b")
# A variant rule is cited by the variant's first word: "R-VAR two players".
VARIANT_CITE = re.compile(r"\bR-VAR ([a-z]+)")

# What the repository must not mention: documents outside it, tickets by number.
FORBIDDEN = {
    "a path into a shared folder outside the repository": re.compile(r"\.\./shared|/work[/]shared"),
    "an outside rules document": re.compile(r"\bRULES\.md"),
    "an outside design document": re.compile(r"\bDESIGN\.md"),
    "an issue number": re.compile(r"\bissues? #?\d+", re.IGNORECASE),
}
TEXT_SUFFIXES = {
    ".py",
    ".md",
    ".txt",
    ".toml",
    ".yaml",
    ".yml",
    ".json",
    ".cfg",
    ".ini",
    ".svg",
    ".sh",
    "",
}
SKIPPED_FILES = {"requirements.lock"}  # hashes only, machine-written
UNTRACKED_FOLDERS = {"build", "dist", "__pycache__"}

# A relative Markdown link or image: [text](target) where target is no URL.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


# -- helpers (plain functions, so each check can be tried on made-up text) -----------
def defined_rule_ids(text: str) -> set[str]:
    """Ids that rules.md defines: in bold at the start of a line (``**R-MOVE-4**: ...``)
    or in a heading (``## Movement (R-MOVE)``). An id mentioned in passing defines nothing."""
    ids: set[str] = set()
    for line in text.splitlines():
        if line.startswith("#"):
            ids.update(RULE_ID.findall(line))
        entry = re.match(r"\*\*(R-[A-Z]+(?:-[0-9A-Za-z]+)?)", line)
        if entry:
            ids.add(entry.group(1))
    return ids


def defined_variants(text: str) -> set[str]:
    """First words of the variant entries of rules.md (``**R-VAR two players**`` -> two)."""
    return set(re.findall(r"^\*\*R-VAR ([a-z]+)", text, re.MULTILINE))


def cited_rule_ids(text: str) -> set[str]:
    """Every rule id mentioned in a text."""
    return set(RULE_ID.findall(text))


def citing_files() -> list[Path]:
    """Files of the repository that may cite rules (docs/rules.md itself included)."""
    found = []
    for folder in CITING_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in CITING_SUFFIXES:
                found.append(path)
    return found


def shown(path: Path) -> Path:
    """A path as a message shows it: relative to the repository when inside it."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def unresolved(files: list[Path], defined: set[str], variants: set[str]) -> list[str]:
    """``file: id`` for every citation that rules.md does not define."""
    missing = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        where = shown(path)
        missing += [f"{where}: {i}" for i in sorted(cited_rule_ids(text) - defined)]
        missing += [
            f"{where}: R-VAR {w}" for w in sorted(set(VARIANT_CITE.findall(text)) - variants)
        ]
    return missing


def forbidden_mentions(name: str, text: str) -> list[str]:
    """``name:line: what`` for every mention of something outside the repository."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in FORBIDDEN.items():
            if pattern.search(line):
                found.append(f"{name}:{number}: {what}: {line.strip()[:80]}")
    return found


def tracked_names() -> list[str]:
    """The repository's files, as git knows them (or every file, without git)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout.decode()
        return [n for n in out.split("\0") if n]
    except (OSError, subprocess.CalledProcessError):  # a copy of the tree without git
        return [
            str(p.relative_to(ROOT))
            for p in ROOT.rglob("*")
            if p.is_file()
            and not any(
                (part.startswith(".") and part != ".ci") or part in UNTRACKED_FOLDERS
                for part in p.relative_to(ROOT).parts[:-1]
            )
        ]


def tracked_text_files() -> list[Path]:
    """The repository's text files, as git knows them (or every file, without git)."""
    return [
        ROOT / n
        for n in tracked_names()
        if Path(n).suffix in TEXT_SUFFIXES
        and Path(n).name not in SKIPPED_FILES
        and (ROOT / n).is_file()
    ]


def broken_links(path: Path) -> list[str]:
    """Relative links of a Markdown file whose target file does not exist."""
    broken = []
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # code blocks hold no links
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL (https:, mailto:) or a place in the same page
        file_part = target.split("#", 1)[0]
        if not (path.parent / file_part).exists():
            broken.append(f"{shown(path)}: {target}")
    return broken


def section(text: str, heading: str) -> str:
    """The text under a ``## heading``, up to the next heading of that level."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return match.group(1) if match else ""


def layout_paths(text: str) -> list[str]:
    """The paths of the layout table: the first cell of each row, without its last /."""
    return [
        m.group(1).rstrip("/")
        for m in re.finditer(r"^\| `([^`]+)` \|", section(text, "Layout"), re.M)
    ]


def layout_gaps(listed: list[str], root: Path, names: list[str]) -> list[str]:
    """What the layout table misses of the tree and what it lists that is not there.

    Every folder at the top must be listed, or something in it (``src/trackside``);
    every package of the code and every module at the top of the editor (its rooms
    that are single files) must be listed as they are."""
    tops = {Path(n).parts[0] for n in names if len(Path(n).parts) > 1}
    missing = [t for t in tops if not any(p == t or p.startswith(t + "/") for p in listed)]
    exact = {
        str(init.parent.relative_to(root))
        for folder in code_folders()
        for init in (root / folder).rglob("__init__.py")
    } | {
        str(module.relative_to(root))
        for module in (root / "editor").glob("*.py")
        if module.stem != "__init__"
    }
    missing += exact - set(listed)
    return [f"not in the layout: {m}" for m in sorted(missing)] + [
        f"listed but not there: {p}" for p in listed if not (root / p).exists()
    ]


def room_floors(text: str) -> list[list[str]]:
    """The rooms of the editor's floor table, top floor first, as module names."""
    floors: dict[int, list[str]] = {}
    rows = re.findall(r"^\| (\d+) \| (.*?) \|", section(text, "The editor and its rooms"), re.M)
    for number, rooms in rows:
        floors.setdefault(int(number), []).extend(
            f"trackside.editor.{room.removesuffix('.py').rstrip('/')}"
            for room in re.findall(r"`([^`]+)`", rooms)
        )
    return [floors[number] for number in sorted(floors, reverse=True)]


def subcommands() -> list[str]:
    """The CLI's subcommands, as its argument parser knows them."""
    from trackside.cli.main import build_parser

    parser = build_parser()
    for action in parser._actions:  # argparse keeps the subparsers only here
        if hasattr(action, "choices") and isinstance(action.choices, dict):
            return sorted(action.choices)
    return []


def command_table(text: str) -> list[str]:
    """The commands of the table at the top of docs/cli.md (before its first section),
    each of them kept only when it links to its own section."""
    top = text.split("\n## ", 1)[0]
    return re.findall(r"^\| \[`([a-z-]+)`\]\(#trackside-\1\) \|", top, re.M)


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]


def rule_ids_shown(path: Path) -> list[str]:
    """The rule ids in the string literals of a module that are not docstrings: the text
    it shows (messages, hints, help). A user reads a rule in words; ids are for the code,
    the tests and docs/rules.md."""
    tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline))
    statement_start = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT}
    found = []
    for k, token in enumerate(tokens):
        if token.type != tokenize.STRING or not RULE_ID.search(token.string):
            continue
        docstring = (k == 0 or tokens[k - 1].type in statement_start) and tokens[
            k + 1
        ].type == tokenize.NEWLINE
        if not docstring:
            found += [f"{path}:{token.start[0]}: {m}" for m in RULE_ID.findall(token.string)]
    return found


# -- the checks -----------------------------------------------------------------------
def test_text_a_user_reads_says_rules_in_words_not_ids():
    found = [
        hit
        for folder in ("engine", "cli", "editor")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for hit in rule_ids_shown(path)
    ]
    assert found == [], "rule ids in messages (say the rule in words):\n" + "\n".join(found)


def test_a_rule_id_in_a_message_is_caught_and_one_in_a_docstring_is_not(tmp_path):
    module = tmp_path / "shows.py"
    rule = "R-FIN" + "-1"  # in pieces: this file's own strings are not messages
    module.write_text(
        f'"""Finishing ({rule})."""\n\n\ndef f():\n    """{rule}."""\n'
        f'    raise ValueError("beyond the finish ({rule})")  # {rule}\n',
        encoding="utf-8",
    )
    assert rule_ids_shown(module) == [f"{module}:6: {rule}"]


def test_every_cited_rule_id_is_defined_in_rules_md():
    text = RULES.read_text(encoding="utf-8")
    missing = unresolved(citing_files(), defined_rule_ids(text), defined_variants(text))
    assert missing == [], "rule ids cited but not defined in docs/rules.md:\n" + "\n".join(missing)


def test_rules_md_defines_the_rule_families_and_numbered_rules():
    defined = defined_rule_ids(RULES.read_text(encoding="utf-8"))
    for family in ("R-DECK", "R-SET", "R-AUC", "R-RACE", "R-MOVE", "R-FIN", "R-BET"):
        assert family in defined
    assert {"R-MOVE-4", "R-AUC-7", "R-POW-DET", "R-VAR"} <= defined


def test_an_undefined_rule_id_is_caught(tmp_path):
    text = RULES.read_text(encoding="utf-8")
    cited = tmp_path / "cites.py"
    # Pieces again: the whole suite reads this file for citations too.
    cited.write_text('"""R-MOVE-4, R-MOVE-' + "99 and R-VAR " + 'moon."""\n', encoding="utf-8")
    missing = unresolved([cited], defined_rule_ids(text), defined_variants(text))
    assert missing == [f"{cited}: {want}" for want in ("R-MOVE-" + "99", "R-VAR" + " moon")]


def test_no_file_mentions_documents_outside_the_repository_or_issue_numbers():
    found = []
    for path in tracked_text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        found += forbidden_mentions(str(path.relative_to(ROOT)), text)
    assert found == [], "\n".join(found)


# Built from pieces, so that this file does not itself hold what it looks for.
@pytest.mark.parametrize(
    "line",
    [
        "see .." + "/shared/notes",
        "as RULES" + ".md says",
        "from DESIGN" + ".md",
        "fixes issue" + " 12",
        "closes Issue" + " #3",
    ],
)
def test_a_forbidden_mention_is_caught(line):
    assert forbidden_mentions("x.md", line)


def test_colours_and_counts_are_not_forbidden_mentions():
    assert forbidden_mentions("x.py", 'bg = "#888"  # the Issues list, 3 issues') == []


def test_every_cli_subcommand_is_documented():
    names = subcommands()
    assert "validate" in names and "play" in names
    text = CLI_DOC.read_text(encoding="utf-8")
    missing = [n for n in names if not re.search(rf"^#+ .*`?trackside {n}\b", text, re.M)]
    assert missing == [], f"subcommands without a section in docs/cli.md: {missing}"


def test_the_command_table_lists_every_cli_subcommand():
    """The table at the top of docs/cli.md names every command that --help lists,
    each linked to its section, and none that is gone."""
    listed = command_table(CLI_DOC.read_text(encoding="utf-8"))
    assert sorted(listed) == subcommands()


def test_a_command_table_out_of_step_is_caught():
    text = (
        "# CLI\n\n| command | what |\n|---|---|\n| [`edit`](#trackside-edit) | x |\n"
        "| [`play`](#trackside-moves) | a wrong link |\n\n## `trackside diff`\n"
        "| [`diff`](#trackside-diff) | a table further down |\n"
    )
    assert command_table(text) == ["edit"]


def test_every_relative_link_leads_to_a_file():
    broken = [b for path in markdown_files() if path.exists() for b in broken_links(path)]
    assert broken == [], "\n".join(broken)


def test_a_broken_link_is_caught(tmp_path):
    (tmp_path / "there.md").write_text("# here\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[gone](nowhere.md) [ok](there.md#here) [web](https://example.org) [top](#top)\n"
        "```\n[in code](not-a-link.md)\n```\n"
    )
    assert broken_links(page) == [f"{page}: nowhere.md"]


def test_the_layout_table_matches_the_tree():
    listed = layout_paths(DESIGN.read_text(encoding="utf-8"))
    assert "engine/track" in listed and "editor/menus" in listed
    gaps = layout_gaps(listed, ROOT, tracked_names())
    assert gaps == [], "docs/design.md, Layout:\n" + "\n".join(gaps)


def test_a_layout_table_out_of_step_with_the_tree_is_caught(tmp_path):
    for folder in ("engine/track", "editor/tools", "docs"):
        (tmp_path / folder).mkdir(parents=True)
    for package in ("engine", "engine/track", "editor", "editor/tools"):
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "editor" / "app.py").write_text("")
    text = (
        "## Layout\n\n| path | what |\n|---|---|\n| `engine/` | x |\n| `editor/` | x |\n"
        "| `editor/tools/` | x |\n| `editor/app.py` | x |\n| `docs/` | x |\n| `gone/` | x |\n"
        "\n## Next\n| `engine/track/` | not in the layout section |\n"
    )
    names = ["docs/a.md", "engine/__init__.py", "editor/app.py"]
    assert layout_gaps(layout_paths(text), tmp_path, names) == [
        "not in the layout: engine/track",
        "listed but not there: gone",
    ]


def test_the_rooms_table_stacks_the_rooms_as_the_import_contract_does():
    floors = [sorted(floor) for floor in room_floors(DESIGN.read_text(encoding="utf-8"))]
    assert floors == editor_floors()


def test_no_document_writes_down_a_count_of_tests():
    found = [
        f"{shown(path)}:{number}: {line.strip()}"
        for path in markdown_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TEST_COUNT.search(line)
    ]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("line", ["`make test` (1,173 tests) takes", "all 74 test cases pass"])
def test_a_count_of_tests_is_caught(line):
    assert TEST_COUNT.search(line)
