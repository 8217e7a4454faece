"""Game records (docs/records.md): save, load, replay, cut."""

import pytest
from repo_paths import FIXTURES

from trackside.engine.bots import bot_seed, drive, make_bot
from trackside.engine.errors import InvalidInput, TracksideError, UnreadableInput
from trackside.engine.game import Bid, Deal, Game, PlayCard, Series, load_variant
from trackside.engine.records import (
    Recorder,
    SeatInfo,
    cut,
    load_record,
    parse_record,
    record_text,
    replay,
    save_record,
    summary,
)
from trackside.engine.resources import tracks_dir
from trackside.engine.schema import check

HARBOUR = str(tracks_dir() / "harbour-loop.yaml")


def recorded(variant="standard", players=4, seed=3, tracks=(HARBOUR,), kind="greedy", deals=()):
    seats = [SeatInfo(f"Player {p + 1}", kind) for p in range(players)]
    rec = Recorder.start(list(tracks), variant, players, seed, seats, deals=deals)
    drive(
        rec.game, [make_bot(kind, bot_seed(seed, p, kind)) for p in range(players)], apply=rec.apply
    )
    return rec


@pytest.mark.parametrize(
    "variant", ["standard", "two-player", "beginner", "long-distance", "world-tour"]
)
def test_save_load_replay_gives_the_same_result(tmp_path, variant):
    players = 2 if variant == "two-player" else 4
    tracks = () if variant == "world-tour" else (HARBOUR,)
    rec = recorded(variant, players, tracks=tracks)
    record = rec.record()
    assert record.result == summary(rec.game) and record.result is not None
    path = tmp_path / "game.yaml"
    save_record(record, path)
    loaded = load_record(path)
    assert loaded.decisions == record.decisions
    game = replay(loaded)
    assert game.over and summary(game) == record.result
    assert isinstance(game, Series) == (variant == "world-tour")


def test_the_same_seed_and_seats_give_a_byte_identical_record(tmp_path):
    """No timestamps: two runs of the same game write the same bytes."""
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    save_record(recorded(seed=9).record(), a)
    save_record(recorded(seed=9).record(), b)
    assert a.read_bytes() == b.read_bytes()
    save_record(recorded(seed=10).record(), b)
    assert a.read_bytes() != b.read_bytes()


def test_the_record_is_valid_against_its_schema_and_names_everything(tmp_path):
    import yaml

    path = tmp_path / "game.yaml"
    save_record(recorded().record(), path)
    data = yaml.safe_load(path.read_text())
    assert check("record", data) == []
    assert data["format"] == "trackside-record/1"
    assert data["variant"] == "standard" and data["tracks"] == ["harbour-loop"]
    assert data["seats"][0] == {"name": "Player 1", "kind": "greedy"}
    assert data["setup"] == {"seed": 3}
    kinds = {d["type"] for d in data["decisions"]}
    assert {"bid", "keep_power", "play_card", "path", "bet"} <= kinds
    assert set(data["result"]) >= {"ranking", "scores", "winner"}


def test_track_paths_are_written_relative_to_the_record(tmp_path):
    track = tmp_path / "mine" / "loop.yaml"
    track.parent.mkdir()
    track.write_text((tracks_dir() / "harbour-loop.yaml").read_text())
    rec = recorded(tracks=(str(track),), players=3)
    out = tmp_path / "records" / "g.yaml"
    out.parent.mkdir()
    save_record(rec.record(), out)
    assert "tracks: [../mine/loop.yaml]" in out.read_text()
    assert summary(replay(load_record(out))) == rec.record().result


@pytest.mark.parametrize("k", [0, 1, 7, 40, 120])
def test_a_record_cut_at_k_continues_to_the_same_result(tmp_path, k):
    """Cut at decision k, save, load, and continue with the same decisions."""
    record = recorded(seed=5).record()
    part = cut(record, k)
    assert part.result is None and len(part.decisions) == k
    path = tmp_path / "cut.yaml"
    save_record(part, path)
    game = replay(load_record(path))
    assert not game.over
    for d in record.decisions[k:]:
        game.apply(d)
    assert summary(game) == record.result


def test_a_cut_record_can_be_continued_by_bots_and_recorded_again(tmp_path):
    record = recorded(seed=6).record()
    rec = Recorder.resume(cut(record, 30))
    drive(rec.game, [make_bot("random", p) for p in range(4)], apply=rec.apply)
    assert rec.game.over
    branch = rec.record()
    assert branch.decisions[:30] == record.decisions[:30] and len(branch.decisions) > 30
    save_record(branch, tmp_path / "branch.yaml")
    assert summary(replay(load_record(tmp_path / "branch.yaml"))) == branch.result


def test_an_explicit_deal_replays(tmp_path):
    """Set-up by an explicit deal (hands, grid, Speed-8 and power order)."""
    variant = load_variant("standard")
    ids = list(range(variant.deck.size))
    deal = Deal(
        hands=(tuple(ids[0:14]), tuple(ids[14:28]), tuple(ids[28:42])),
        grid=("red", "blue", "green", "yellow", "orange", "black"),
        speed8=("black", "blue", "green", "yellow", "orange", "red"),
        powers=("tricky", "cunning", "aggressive", "determined", "strategic", "unpredictable"),
    )
    rec = recorded(players=3, deals=(deal,))
    assert rec.game.deal == deal
    path = tmp_path / "dealt.yaml"
    save_record(rec.record(), path)
    text = path.read_text()
    assert "deals:" in text and "grid: [red, blue, green, yellow, orange, black]" in text
    assert summary(replay(load_record(path))) == rec.record().result


def test_an_inline_track_replays():
    record = recorded(players=3).record()
    from trackside.engine.track.model import load_track

    record.tracks = [load_track(HARBOUR).to_dict()]
    text = record_text(record)
    assert summary(replay(parse_record(text, "inline.yaml"))) == record.result


def test_an_inline_variant_extends_a_file_beside_the_record(tmp_path, monkeypatch):
    """Relative paths in an inline variant (``extends``, ``deck``) start at the record's
    folder, whatever the working folder is."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(
        "format: trackside-variant/1\nname: House\nextends: standard\n"
        "payouts:\n  race: [20, 10, 5, 2, 1, 0]\n"
    )
    rec = Recorder.start([HARBOUR], str(tmp_path / "rules" / "house.yaml"), 3, seed=4)
    drive(rec.game, [make_bot("greedy", s) for s in range(3)], apply=rec.apply)
    record = rec.record()
    record.variant = {
        "format": "trackside-variant/1",
        "name": "Inline",
        "extends": "rules/house.yaml",
    }
    path = tmp_path / "game.yaml"
    save_record(record, path)
    monkeypatch.chdir(tmp_path / "rules")  # nowhere near: paths start at the record
    game = replay(load_record(path))
    assert game.variant.name == "Inline" and game.variant.race_payout[0] == 20
    assert summary(game) == record.result


# -- hostile and bad records ----------------------------------------------------------
def good_text():
    return record_text(recorded(players=3, seed=1).record())


def fails(text, kind=TracksideError):
    with pytest.raises(kind) as info:
        replay(parse_record(text, "bad.yaml"))
    message = str(info.value)
    assert "bad.yaml" in message and "Traceback" not in message
    return message


def test_an_illegal_decision_is_refused_naming_its_line():
    text = good_text()
    lines = text.splitlines()
    first, k = [i for i, line in enumerate(lines) if "type: play_card" in line][:2]
    played = lines[first].split("card:")[1]  # already played: in nobody's hand
    lines[k] = lines[k].split("card:")[0] + "card:" + played
    message = fails("\n".join(lines) + "\n", InvalidInput)
    assert f"bad.yaml:{k + 1}:" in message and "is illegal" in message


def test_a_card_id_beyond_the_deck_is_refused_naming_its_line():
    text = good_text()
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if "type: play_card" in line)
    lines[k] = lines[k].split("card:")[0] + "card: 999}"
    message = fails("\n".join(lines) + "\n", InvalidInput)
    assert f"bad.yaml:{k + 1}:" in message and "card id 999 is not in the deck" in message


def test_a_different_result_is_refused():
    text = good_text().replace("result:\n  ranking:", "result:\n  ranking: [red]\n  old:")
    message = fails(text)
    assert "result" in message


def test_a_changed_score_is_refused():
    record = parse_record(good_text(), "bad.yaml")
    record.result["scores"] = [s + 1 for s in record.result["scores"]]
    with pytest.raises(InvalidInput, match="replay gives scores"):
        replay(record)


def test_a_record_with_a_result_but_too_few_decisions_is_refused():
    record = parse_record(good_text(), "bad.yaml")
    record.decisions = record.decisions[:20]
    with pytest.raises(InvalidInput, match="do not finish the game"):
        replay(record)


def test_extra_decisions_after_the_end_are_refused():
    record = parse_record(good_text(), "bad.yaml")
    record.decisions.append(PlayCard(0, 1))
    with pytest.raises(InvalidInput, match="after the end"):
        replay(record)


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "mapping"),
        ("- 1\n- 2\n", "mapping"),
        ("format: [unclosed\n", "syntax"),
        ("format: trackside-record/9\n", "format"),
        ("a: &a [*a]\n", "alias"),
        ("format: !!python/object:os.system x\n", "tag"),
    ],
)
def test_unreadable_or_wrong_documents_give_one_clear_error(text, words):
    with pytest.raises(TracksideError) as info:
        parse_record(text, "bad.yaml")
    assert words in str(info.value) and "bad.yaml" in str(info.value)


def test_schema_problems_name_the_line():
    text = good_text().replace("players: 3", "players: 9")
    with pytest.raises(InvalidInput) as info:
        parse_record(text, "bad.yaml")
    line = text.splitlines().index("players: 9") + 1
    assert f"bad.yaml:{line}:" in str(info.value)


def test_a_bad_decision_shape_is_refused():
    text = good_text().replace("type: bet", "type: cheat", 1)
    with pytest.raises(InvalidInput, match="decisions"):
        parse_record(text, "bad.yaml")


def test_a_missing_track_file_names_the_track(tmp_path):
    text = good_text().replace("tracks: [harbour-loop]", "tracks: [nowhere/none.yaml]")
    with pytest.raises(UnreadableInput) as info:
        replay(parse_record(text, str(tmp_path / "bad.yaml")))
    assert "none.yaml" in str(info.value) and "no such file" in str(info.value)


def test_a_bad_deal_is_refused():
    text = good_text().replace(
        "setup:\n  seed: 1",
        "setup:\n  seed: 1\n  deals:\n  - {hands: [[1, 1], [2], [3]], "
        "grid: [red, blue, green, yellow, orange, black]}",
    )
    message = fails(text, InvalidInput)
    assert "twice" in message


def test_a_missing_file_and_a_directory(tmp_path):
    with pytest.raises(UnreadableInput, match="no such file"):
        load_record(tmp_path / "none.yaml")
    with pytest.raises(UnreadableInput, match="directory"):
        load_record(tmp_path)


def test_replay_of_a_game_object_matches():
    rec = recorded(players=5, seed=2)
    assert isinstance(rec.game, Game)
    assert summary(replay(rec.record())) == summary(rec.game)


def test_the_rulebook_auction_example_as_a_scripted_record():
    """R-AUC-3 (rulebook example) as a record file with an explicit deal: two bids of 6
    on blue, split by the card with more rows."""

    path = FIXTURES / "records" / "auction-example.yaml"
    record = load_record(path)
    assert record.deals and record.deals[0].speed8[0] == "blue"
    game = replay(record)
    assert game.owner_of("blue") == 1 and game.state.prices[1] == [(1, 6)]
    (result,) = [e for e in game.log if e.kind == "auction"]
    assert "card with more rows" in result.text
    assert game.pending.car == "red"  # R-AUC-6: the next car is up


def test_an_older_record_with_a_free_bid_for_the_last_car_says_the_rule_changed():
    """R-AUC-7 ruling: a record made when players without a car bid freely for
    the last car stops at that bid with a message naming the ruling and a fix."""
    hands = [[12, 0, 4, 13, 18, 24, 30], [3, 1, 5, 14, 19, 25, 31], [9, 2, 6, 15, 20, 26, 32]]
    order = ("blue", "red", "yellow", "black", "green", "orange")
    powers = ("tricky", "cunning", "aggressive", "determined", "strategic", "unpredictable")
    deal = Deal(tuple(map(tuple, hands)), order, order, powers)
    rec = Recorder.start([HARBOUR], "standard", 3, 0, deals=(deal,))
    game = rec.game
    for car in order[:5]:
        for seat in game.due():
            cards = [o for o in game.options(seat) if isinstance(o, Bid) and o.card is not None]
            rec.apply(cards[0] if car in order[1:4] and seat == 0 else Bid(seat, None))
    record = rec.record()
    record.decisions.append(Bid(1, 1))  # the old free bid of seat 1 on the last car
    message = fails(record_text(record), InvalidInput)
    assert "the last car now goes by the lowest cards shown, without bids" in message
    assert "record the game again" in message


def test_an_older_record_without_the_aggressive_choice_says_the_rule_changed():
    """R-POW-AGG: a record made when the extra space was always added has no path
    where the owner now chooses; replay stops there naming the ruling."""
    rec = recorded(players=3, seed=1)
    record = rec.record()
    game = replay(cut(record, 0), check_result=False)
    k = 0
    while not (game.pending.kind == "path" and game.pending.extra):
        assert k < len(record.decisions), "no Aggressive choice in this game: pick another seed"
        game.apply(record.decisions[k])
        k += 1
    old = cut(record, k)
    old.decisions += record.decisions[k + 1 :]  # the path chosen there left out
    message = fails(record_text(old), InvalidInput)
    assert "the Aggressive extra space is now the owner's choice, asked as a path" in message
