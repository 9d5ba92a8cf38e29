"""The live page's data from the runner's side: each running game's latest move is handed to the
publisher a few times a second, not every move, and the live page shows what it would have shown
had every move been handed over."""

from __future__ import annotations

from pathlib import Path

from report_games import play_event

from arbiter.notation.movetext import parse_hub
from arbiter.referee.record import EngineInfo, GameRecord, MoveRecord
from arbiter.report.live import LiveGames, LiveWatcher, Message, MessageBatch
from arbiter.report.replay import played_values
from arbiter.rules import Position, get_variant


class Batches:
    """A batch whose flushes are made by the test, as the event loop's timer makes them."""

    def __init__(self) -> None:
        self.sent: list[Message] = []
        self.batch = MessageBatch(self.sent.append)

    def hold(self) -> None:
        """From now on changes wait for `flush` (as on a running event loop)."""
        self.batch.timer = _NeverFires()  # type: ignore[assignment]

    def flush(self) -> list[Message]:
        self.batch.timer = None
        self.batch.flush()
        sent = [message for batch in self.sent for message in batch[1]]
        self.sent.clear()
        return sent


class _NeverFires:
    def cancel(self) -> None:
        pass


def a_record() -> GameRecord:
    played = play_event(["Alpha", "Bravo"], games_per_encounter=2, max_plies=40)
    record = next(g.record for g in played.games if g.record is not None and g.record.plies >= 6)
    assert record is not None
    return record


def replay_through(watcher: LiveWatcher, record: GameRecord, plies: range) -> list[Position]:
    """Tell `watcher` of the moves `plies` (from 0) of `record`; return the positions after each."""
    position = Position.from_fen(get_variant(record.variant), record.start_fen)
    positions = [position]
    for index in range(plies.stop):
        move: MoveRecord = record.moves[index]
        position = position.play(parse_hub(position, move.hub))
        positions.append(position)
        if index in plies:
            shown = move.model_copy(update={"info": EngineInfo(depth=index, score=0.5, pv=[move.hub])})
            watcher.move_played(record, shown, position)
    return positions


def test_the_moves_between_two_hand_overs_are_sent_as_the_latest_one_with_both_clocks(
    tmp_path: Path,
) -> None:
    record = a_record()
    batches = Batches()
    watcher = LiveWatcher("r1-b1-g1", batches.batch)
    start = Position.from_fen(get_variant(record.variant), record.start_fen)
    watcher.game_started(record, start)
    assert [message[0] for message in batches.flush()] == ["start"]
    batches.hold()
    positions = replay_through(watcher, record, range(5))
    sent = batches.flush()
    assert [message[0] for message in sent] == ["move"]
    live = LiveGames(tmp_path)
    live.apply(("start", *batches_start(record, start)))
    live.apply(("batch", tuple(sent)))
    game = live.games["r1-b1-g1"]
    assert game.ply == 5 and game.last == record.moves[4].text
    # Both sides' clocks, as after their own last moves; the line read from the position before the
    # last move.
    assert game.clocks == {
        record.moves[4].side.value: record.moves[4].clock,
        record.moves[3].side.value: record.moves[3].clock,
    }
    assert game.position[:3] == (positions[5].white, positions[5].black, positions[5].kings)
    assert game.before is not None
    assert game.before[:3] == (positions[4].white, positions[4].black, positions[4].kings)
    assert game.info == (4, 0.5, None, (record.moves[4].hub,))
    assert batches.flush() == [], "nothing new, nothing sent"


def batches_start(record: GameRecord, start: Position) -> tuple[object, ...]:
    return (
        "r1-b1-g1",
        record.white.name,
        record.black.name,
        record.variant,
        record.time_control,
        start.white,
        start.black,
        start.kings,
        start.mules,
        start.turn.letter,
    )


def test_a_game_that_starts_and_ends_between_two_hand_overs_is_never_shown_but_its_positions_are_sent(
    tmp_path: Path,
) -> None:
    record = a_record()
    batches = Batches()
    batches.hold()
    watcher = LiveWatcher("r1-b1-g2", batches.batch)
    watcher.game_started(record, Position.from_fen(get_variant(record.variant), record.start_fen))
    positions = replay_through(watcher, record, range(3))
    watcher.game_ended(record, positions[-1])
    assert batches.sent == [], "the end waits for the batch, as the moves do"
    batches.batch.game_stored()  # the runner stored it
    sent = batches.flush()
    # One hand-over: the positions first, then the note that the site is to be refreshed.
    assert [message[0] for message in sent] == ["played", "refresh"]
    sent = sent[:1]
    live = LiveGames(tmp_path)
    live.apply(("batch", tuple(sent)))
    assert live.games == {}
    assert live.played["r1-b1-g2"] == tuple(
        value for position in positions for value in played_values(position)
    )


def test_a_shown_game_that_ends_is_taken_off_the_live_page(tmp_path: Path) -> None:
    record = a_record()
    batches = Batches()
    watcher = LiveWatcher("r1-b1-g3", batches.batch)
    watcher.game_started(record, Position.from_fen(get_variant(record.variant), record.start_fen))
    live = LiveGames(tmp_path)
    for message in batches.flush():
        live.apply(message)
    assert list(live.games) == ["r1-b1-g3"]
    batches.hold()
    replay_through(watcher, record, range(2))
    watcher.game_ended(record, Position.start(get_variant(record.variant)))
    sent = batches.flush()
    assert [message[0] for message in sent] == ["played", "move", "end"]
    live.apply(("batch", tuple(sent)))
    assert live.games == {}


def test_games_stored_between_two_hand_overs_are_noted_once_in_the_next_one() -> None:
    batches = Batches()
    batches.hold()
    for _ in range(3):
        batches.batch.game_stored()
    assert batches.sent == []
    assert batches.flush() == [("refresh",)]
    assert batches.flush() == [], "nothing stored since, no note"
