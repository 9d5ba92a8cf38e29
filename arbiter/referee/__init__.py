"""The referee: one game between two engines under official clocks, from setup to complete record.

- ``setup``: ``GameSetup`` (variant, start, opening, time control, rules), checked before play.
- ``settings``: ``RefereeRules``: length limit, score adjudication, automatic forced moves.
- ``timecontrol`` and ``clock``: time-control text and each player's clock (pure, fed timestamps).
- ``game``: ``play_game`` / ``Referee``: the game itself, with engines opened by the caller.
- ``session``: ``play_game_from_configs``: start both engines, play, quit; a failed start is a forfeit.
- ``adjudication``, ``forfeits``, ``observer``: the small pieces ``game`` uses.
- ``record``: ``GameRecord``, what a game leaves behind.

Nothing is imported here, so that readers of records need not load the engine layer.
"""
