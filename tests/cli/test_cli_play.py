"""``trackside play`` and ``trackside replay`` through engine.cli.main (and one subprocess)."""

import io
import json
import re
import subprocess
import sys

import pytest
from repo_paths import ROOT

from trackside.cli.main import main
from trackside.engine.resources import tracks_dir

HARBOUR = str(tracks_dir() / "harbour-loop.yaml")


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_play_prints_a_readable_log_and_score_sheet(capsys):
    code, out, err = run(capsys, "play", "--track", HARBOUR, "--players", "4", "--seed", "1")
    assert code == 0 and err == ""
    assert ("Up for auction: the" in out and "(highest bid)" in out) or "(tied bid" in out
    assert "keeps" in out  # R-AUC-9 power kept
    assert "plays [" in out and " -> " in out and "(via " in out
    assert "first across betting line 1" in out  # R-BET-1
    assert "Bet 1: every player secretly chooses" in out
    assert "Finish order: 1st " in out
    header = next(line for line in out.splitlines() if line.startswith("seat"))
    for column in ("price", "bet 1", "bet 2", "bet 3", "race", "bets", "winnings"):
        assert column in header
    assert "Winner: Player" in out


@pytest.mark.parametrize(
    "variant, players",
    [("standard", 3), ("two-player", 2), ("beginner", 5), ("long-distance", 4), ("world-tour", 3)],
)
def test_every_variant_plays_from_the_command_line(capsys, tmp_path, variant, players):
    args = [
        "play",
        "--variant",
        variant,
        "--players",
        str(players),
        "--seed",
        "4",
        "--record",
        str(tmp_path / "g.yaml"),
    ]
    if variant != "world-tour":
        args += ["--track", "harbour-loop"]
    code, out, _ = run(capsys, *args)
    assert code == 0 and "Winner" in out
    if variant == "world-tour":
        assert "Race 2 of 2" in out and "Series totals" in out
    code, replayed, _ = run(capsys, "replay", str(tmp_path / "g.yaml"), "--json")
    data = json.loads(replayed)
    assert code == 0 and data["over"] and len(data["scores"]) == players
    assert data["winner"] in data["winners"] or data["winner"] is None


def test_the_same_seed_and_seats_give_a_byte_identical_record(capsys, tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    for path in (a, b):
        code, _, _ = run(
            capsys,
            "play",
            "--track",
            HARBOUR,
            "--seats",
            "greedy,random,greedy",
            "--seed",
            "8",
            "--record",
            str(path),
        )
        assert code == 0
    assert a.read_bytes() == b.read_bytes()
    text = a.read_text()
    assert "kind: random" in text and "seed: 8" in text


def test_replay_prints_the_result_and_json_has_winner_and_scores(capsys, tmp_path):
    record = tmp_path / "g.yaml"
    code, played, _ = run(
        capsys, "play", "--track", HARBOUR, "--seed", "2", "--record", str(record)
    )
    code, out, _ = run(capsys, "replay", str(record))
    assert code == 0 and "decisions replayed" in out and "Winner: Player" in out
    winner_line = next(line for line in played.splitlines() if line.startswith("Winner"))
    assert winner_line in out
    code, out, _ = run(capsys, "replay", str(record), "--json")
    data = json.loads(out)
    assert code == 0 and {"winner", "scores", "ranking"} <= set(data)
    assert f"Player {data['winner'] + 1}" in winner_line


def play_as_person(capsys, monkeypatch, answers: str, *more: str):
    """A game on Harbour Loop, seed 3, with a person in seat 1 typing ``answers``."""
    argv = ["play", "--track", HARBOUR, "--seats", "human,greedy,greedy", "--seed", "3", *more]
    return run(capsys, *argv, stdin=answers, monkeypatch=monkeypatch)


def test_a_human_seat_is_asked_on_the_terminal(capsys, monkeypatch, tmp_path):
    """Scripted person: bad input is asked again; only their own hand is shown."""
    answers = "x\n0\n99\n" + "1\n" * 400
    code, out, err = play_as_person(
        capsys, monkeypatch, answers, "--record", str(tmp_path / "h.yaml")
    )
    assert code == 0, err
    assert "-- Player 1 --" in out and "-- Player 2 --" not in out
    assert "Your hand (" in out and "Player 1, choose 1-" in out
    assert out.count("please type a number") == 3
    assert "Bid for the" in out and "  1. " in out
    assert "Your turn: play a card" in out and "Bet 1: which car will win?" in out
    assert "kind: human" in (tmp_path / "h.yaml").read_text()
    code, _, _ = run(capsys, "replay", str(tmp_path / "h.yaml"))
    assert code == 0


def test_end_of_input_at_a_prompt_exits_cleanly_with_code_2(capsys, monkeypatch):
    code, _out, err = run(
        capsys,
        "play",
        "--track",
        HARBOUR,
        "--seats",
        "greedy,human,greedy",
        stdin="1\n",
        monkeypatch=monkeypatch,
    )
    assert code == 2
    assert err.strip().count("\n") == 0 and "input ended" in err


@pytest.mark.parametrize(
    "argv, code, words",
    [
        (["--seats", "greedy,wizard"], 2, "unknown seat kind"),
        (["--players", "3", "--seats", "greedy,greedy,greedy,greedy"], 2, "4 seats for 3"),
        (["--players", "9"], 2, "3 to 6 players"),
        (["--variant", "two-player", "--players", "3"], 2, "2 to 2 players"),
        (["--variant", "no-such-variant"], 2, "no bundled variant"),
        (["--record", "no/such/folder/game.yaml"], 2, "does not exist"),
        (["--record", "."], 2, "a folder, not a file"),
    ],
)
def test_bad_arguments_give_one_line_and_code_2(capsys, argv, code, words):
    got, _out, err = run(capsys, "play", "--track", HARBOUR, *argv)
    assert got == code and words in err and err.count("\n") == 1


def test_a_missing_track_is_code_2_and_an_invalid_track_code_1(capsys):
    code, _, err = run(capsys, "play", "--track", "no/such/track.yaml")
    assert code == 2 and "no such file" in err
    bad = ROOT / "tests" / "fixtures" / "invalid" / "dead-end.yaml"
    code, _, err = run(capsys, "play", "--track", str(bad))
    assert code == 1 and "fix it first" in err


def test_replay_of_a_bad_record_gives_a_line_per_problem(capsys, tmp_path):
    """Each bet given to a seat that does not exist is one line, at its place."""
    record = tmp_path / "g.yaml"
    run(capsys, "play", "--track", HARBOUR, "--players", "3", "--record", str(record))
    text = record.read_text().replace("type: bet, player: 0, car: ", "type: bet, player: 7, car: ")
    record.write_text(text)
    bad = text.count("type: bet, player: 7, car: ")
    code, _, err = run(capsys, "replay", str(record))
    lines = err.splitlines()
    assert code == 1 and bad >= 1 and len(lines) == bad
    assert all(line.startswith(f"trackside: {record}:") and "player: 7" in line for line in lines)
    code, _, err = run(capsys, "replay", str(tmp_path / "none.yaml"))
    assert code == 2 and "no such file" in err


def test_play_and_replay_as_subprocesses(tmp_path):
    record = tmp_path / "g.yaml"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "trackside",
            "play",
            "--track",
            HARBOUR,
            "--seats",
            "random,greedy,human",
            "--seed",
            "5",
            "--record",
            str(record),
        ],
        input="1\n" * 400,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Winner" in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "trackside", "replay", str(record), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0 and "scores" in json.loads(done.stdout)


def test_the_winner_sentence_names_the_tie_break():
    """R-SCORE-2: equal winnings go to the best-placed car; still tied, a shared win. One
    sentence for the game's log, the terminal and the editor's sheet."""
    from trackside.engine.game.scoring import winner_sentence

    names = ["Player 1", "Player 2", "Player 3"]
    assert winner_sentence(names, [0]) == "Winner: Player 1 (highest winnings)"
    assert winner_sentence(names, [0], scores=[12, 9, 4]) == (
        "Winner: Player 1 (highest winnings, $12M)"
    )
    assert winner_sentence(names, [1], scores=[10, 10, 5]) == (
        "Winner: Player 2 (highest winnings, $10M, tied with Player 1; "
        "the best-placed car breaks the tie)"
    )
    assert winner_sentence(names, [0, 1], scores=[7, 7, -2]) == (
        "Winner: Player 1 and Player 2 (highest winnings, $7M each, shared)"
    )
    assert winner_sentence(names[:2], [0], scores=[-1, -3]) == (
        "Winner: Player 1 (highest winnings, -$1M)"
    )
    assert winner_sentence(names, [2], "first_car", [1, 2, 3]) == (
        "Winner: Player 3 (owner of the first car to finish)"
    )


def test_resume_continues_a_cut_record_and_records_the_whole_game(capsys, tmp_path):
    """A record cut at decision k continues from there (docs/design.md: load to continue)."""
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    run(capsys, "play", "--track", HARBOUR, "--seed", "6", "--record", str(first))
    code, out, _ = run(
        capsys,
        "play",
        "--resume",
        str(first),
        "--cut",
        "40",
        "--seats",
        "random,greedy,greedy,greedy",
        "--record",
        str(second),
    )
    assert code == 0 and "Resuming" in out and "after 40 decisions" in out
    assert "Up for auction" in out  # the log of the first 40 decisions is shown too
    a, b = first.read_text().splitlines(), second.read_text().splitlines()
    start = a.index("decisions:")
    assert a[start : start + 41] == b[start : start + 41]  # the same first 40 decisions
    assert "kind: random" in second.read_text()
    code, out, _ = run(capsys, "replay", str(second))
    assert code == 0
    # Resuming with the same seats and no cut plays nothing new.
    code, out, _ = run(capsys, "play", "--resume", str(first))
    assert code == 0 and "Winner" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--cut", "3"], "--cut needs --resume"),
        (["--resume", "REC", "--players", "3"], "cannot be given with --resume"),
        (["--resume", "REC", "--seats", "greedy,greedy"], "2 seats for the record's 4 players"),
        (["--resume", "REC", "--cut", "100000"], "--cut: cannot cut at decision 100000"),
        (["--resume", "REC", "--cut", "-1"], "--cut: cannot cut at decision -1"),
    ],
)
def test_resume_errors(capsys, tmp_path, argv, words):
    record = tmp_path / "r.yaml"
    run(capsys, "play", "--track", HARBOUR, "--record", str(record))
    argv = [str(record) if a == "REC" else a for a in argv]
    code, _, err = run(capsys, "play", *argv)
    assert code == 2 and words in err and err.count("\n") == 1


def test_replay_names_the_seats_of_the_record(capsys):
    record = ROOT / "tests" / "fixtures" / "records" / "auction-example.yaml"
    code, out, _ = run(capsys, "replay", str(record))
    assert code == 0 and "due from Ana, Ben, Chloé" in out


def test_seat_names_from_a_record_show_control_characters_escaped():
    from trackside.cli.score_text import seat_names

    names = seat_names(4, ["Ana\x1b[2J", " ", "Ben\tB", "Chloé\u202e"])
    assert names == ["Ana\\x1b[2J", "Player 2", "Ben\\tB", "Chloé\\u202e"]


# -- a track with validation errors never reaches a game ---------------------------------
BROKEN = ROOT / "tests" / "fixtures" / "invalid"


@pytest.mark.parametrize("broken", ["grid-unknown-id.yaml", "dead-end.yaml"])
def test_a_world_tour_with_a_broken_track_is_refused(capsys, tmp_path, broken):
    """A variant's own track list is checked like --track: the file and the problem named."""
    (tmp_path / "bad.yaml").write_text((BROKEN / broken).read_text())
    (tmp_path / "tour.yaml").write_text(
        "format: trackside-variant/1\nname: Broken tour\nextends: world-tour\n"
        "series:\n  tracks: [bad.yaml]\n"
    )
    code, out, err = run(capsys, "play", "--variant", str(tmp_path / "tour.yaml"))
    assert code == 1 and "Winner" not in out
    assert str(tmp_path / "bad.yaml") in err and "cannot be played" in err
    assert broken.removesuffix(".yaml") in err and "internal error" not in err
    code, _, err = run(capsys, "simulate", "--variant", str(tmp_path / "tour.yaml"), "--games", "1")
    assert code == 1 and "cannot be played" in err


@pytest.mark.parametrize("command", ["replay", "resume"])
def test_a_record_whose_track_broke_is_refused(capsys, tmp_path, command):
    """The track of a record is checked on replay and resume (it may have changed since)."""
    track = tmp_path / "loop.yaml"
    track.write_text((ROOT / "tests" / "fixtures" / "valid-loop.yaml").read_text())
    record = tmp_path / "g.yaml"
    code, _, _ = run(capsys, "play", "--track", str(track), "--seed", "2", "--record", str(record))
    assert code == 0
    text = track.read_text()
    track.write_text(
        text.replace(
            "start_grid: [a2, b2, c2, a1, b1, c1]", "start_grid: [a2, b2, c2, a1, b1, zz9]"
        )
    )
    assert track.read_text() != text
    argv = ["replay", str(record)] if command == "replay" else ["play", "--resume", str(record)]
    code, _, err = run(capsys, *argv)
    assert code == 1 and "internal error" not in err
    assert f"{track}:" in err and "'zz9'" in err and "cannot be played" in err


@pytest.mark.parametrize("card", [48, 1001, 5000])
def test_a_record_card_id_beyond_the_deck_is_refused(capsys, tmp_path, card):
    """Card ids are checked against the deck in use (48 cards with the Speed-8s), not a cap."""
    record = tmp_path / "g.yaml"
    code, _, _ = run(capsys, "play", "--track", HARBOUR, "--seed", "2", "--record", str(record))
    assert code == 0
    lines = record.read_text().splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("- {type: bid"))
    lines[k] = re.sub(r"card: \d+", f"card: {card}", lines[k])
    record.write_text("\n".join(lines) + "\n")
    for argv in (["replay", str(record)], ["play", "--resume", str(record)]):
        code, _, err = run(capsys, *argv)
        assert code == 1 and f"{record.name}:{k + 1}:" in err
        assert f"decision 1: card id {card} is not in the deck (cards 0 to 47" in err


def test_the_terminal_names_the_aggressive_extra_space():
    """R-POW-AGG: the prompt gives both lengths and the longer paths say so."""
    import random

    from trackside.cli.terminal_seat import describe_option, describe_view
    from trackside.engine.bots import ask
    from trackside.engine.game import Game, load_variant
    from trackside.engine.track.model import load_track

    track = load_track(HARBOUR)
    for seed in range(40):
        game, rng = Game.new(track, load_variant("standard"), 4, seed), random.Random(seed)
        while not game.over and not (game.pending.kind == "path" and game.pending.extra):
            for seat in game.due():
                game.apply(rng.choice(game.options(seat)))
        if not game.over:
            break
    (seat,) = game.due()
    view, request = ask(game, seat)
    n = game.pending.spaces
    assert f"{n} spaces (Aggressive: or {n + 1})" in "\n".join(describe_view(view, request))
    longer = [describe_option(o, view, request) for o in request.options if len(o.path) > n]
    others = [describe_option(o, view, request) for o in request.options if len(o.path) <= n]
    assert longer and any(text.endswith("(Aggressive extra space)") for text in longer)
    assert others and not any("Aggressive" in text for text in others)


ASKED = r"Bid |Second chance|Your turn|Bet \d: which|Keep |Move |Name |Tricky|Strategic|Determined"


def test_the_steps_of_ones_own_card_ask_without_the_whole_situation(capsys, monkeypatch):
    """The hand, power, cars and bets are printed once for each new decision (a bid, a
    card to play, a bet); the later steps of the card played (WILD colours, each car's
    path) show only the question under the log's lines of what the card did."""
    code, out, err = play_as_person(capsys, monkeypatch, "1\n" * 400)
    assert code == 0, err
    steps, previous = 0, ""
    for chunk in re.split(r"Player 1, choose 1-\d+: \d+\n", out)[:-1]:
        question = next(line for line in chunk.splitlines() if re.match(ASKED, line))
        card = re.search(r"^Card: (.*)$", chunk, re.M)
        same_card = card is not None and (
            f"Card: {card[1]}" in previous
            or ("Your turn: play a card" in previous and f"Player 1 plays {card[1]}" in chunk)
        )
        if same_card:
            assert "Your hand (" not in chunk and "Cars: " not in chunk, chunk
            steps += 1
        else:
            assert chunk.count("Your hand (") == 1 and "-- Player 1 --" in chunk, question
        if not question.startswith("Bet "):  # a bet between two rows leaves the card as it was
            previous = chunk
    assert steps >= 20  # WILD colours and paths of the person's own cards


def test_a_world_tours_winner_is_the_headline_and_each_race_winner_is_labelled(capsys, tmp_path):
    """R-VAR world tour: the highest total wins the tour; after its last race the printed
    sheet ends on that winner, and each race's winner is said to be that race's only."""
    record = tmp_path / "wt.yaml"
    argv = ["--variant", "world-tour", "--players", "4", "--seed", "11"]
    code, played, _ = run(capsys, "play", *argv, "--record", str(record))
    assert code == 0
    code, replayed, _ = run(capsys, "replay", str(record))
    code_json, data, _ = run(capsys, "replay", str(record), "--json")
    data = json.loads(data)
    assert code == 0 and code_json == 0 and data["over"]
    (tour_winner,) = data["winners"]
    top = max(data["scores"])
    for out in (played, replayed):
        lines = out.rstrip("\n").splitlines()
        if lines[-1].startswith("Record saved"):
            lines.pop()
        # The last lines: the tour's winner on its total, ruled off above and below.
        headline = f"World tour — Winner: Player {tour_winner + 1} (highest total, ${top}M)"
        assert lines[-3:] == ["=" * len(headline), headline, "=" * len(headline)]
        # No other line names a winner; each race's is labelled as that race's.
        assert [line for line in lines if line.startswith("Winner")] == []
        for k, race in enumerate(data["races"]):
            who = " and ".join(f"Player {seat + 1}" for seat in race["winners"])
            said = f"Race {k + 1} of 2: won by {who} (highest winnings, ${max(race['scores'])}M"
            assert sum(line.startswith(said) for line in lines) == 1
