"""The tables of a tournament database as plain SQL, so that a running match creates and writes the
file with the standard library's sqlite3 alone.

`arbiter/store/tables.py` (SQLModel) stays the description the ORM reads with. These statements are
exactly the ones SQLAlchemy emits for those tables: `tests/store/test_store_schema.py` compiles the
tables' metadata and compares, statement by statement, so the two cannot drift apart.
"""

from __future__ import annotations

SCHEMA_VERSION = 2
"""Raise when a table or column changes; a database of another version is refused, not guessed at."""

APPLICATION = "arbiter"
"""The `application` value of the meta table: what tells an arbiter database from any other SQLite file."""

# Character for character, blank lines included: SQLite keeps part of them in the stored schema.
DDL: tuple[str, ...] = (
    '\n'
    'CREATE TABLE meta (\n'
    '\t"key" VARCHAR NOT NULL, \n'
    '\tvalue VARCHAR NOT NULL, \n'
    '\tPRIMARY KEY ("key")\n'
    ')\n'
    '\n',
    '\n'
    'CREATE TABLE tournament (\n'
    '\tid INTEGER NOT NULL, \n'
    '\tname VARCHAR NOT NULL, \n'
    '\tvariant VARCHAR NOT NULL, \n'
    '\tformat VARCHAR NOT NULL, \n'
    '\ttime_control VARCHAR NOT NULL, \n'
    '\tscoring VARCHAR NOT NULL, \n'
    '\tpoints_win FLOAT NOT NULL, \n'
    '\tpoints_draw FLOAT NOT NULL, \n'
    '\tpoints_loss FLOAT NOT NULL, \n'
    '\tconfig VARCHAR NOT NULL, \n'
    '\tstatus VARCHAR NOT NULL, \n'
    '\tcreated_at VARCHAR NOT NULL, \n'
    '\tupdated_at VARCHAR NOT NULL, \n'
    '\tPRIMARY KEY (id)\n'
    ')\n'
    '\n',
    '\n'
    'CREATE TABLE engine (\n'
    '\tid INTEGER NOT NULL, \n'
    '\ttournament_id INTEGER NOT NULL, \n'
    '\tseat INTEGER NOT NULL, \n'
    '\tname VARCHAR NOT NULL, \n'
    '\tengine_id VARCHAR, \n'
    '\tid_name VARCHAR, \n'
    '\tid_version VARCHAR, \n'
    '\tid_author VARCHAR, \n'
    '\tid_country VARCHAR, \n'
    '\tid_extra VARCHAR, \n'
    '\tparams VARCHAR, \n'
    '\tidentified_at VARCHAR, \n'
    '\tPRIMARY KEY (id), \n'
    '\tCONSTRAINT uq_engine_name UNIQUE (tournament_id, name), \n'
    '\tFOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE\n'
    ')\n'
    '\n',
    '\n'
    'CREATE TABLE game (\n'
    '\tid INTEGER NOT NULL, \n'
    '\ttournament_id INTEGER NOT NULL, \n'
    '\tgame_key VARCHAR NOT NULL, \n'
    '\tround INTEGER NOT NULL, \n'
    '\tboard INTEGER NOT NULL, \n'
    '\tgame_number INTEGER NOT NULL, \n'
    '\tcycle INTEGER NOT NULL, \n'
    '\tpair_index INTEGER, \n'
    '\twhite VARCHAR NOT NULL, \n'
    '\tblack VARCHAR NOT NULL, \n'
    '\twhite_engine_id VARCHAR, \n'
    '\tblack_engine_id VARCHAR, \n'
    '\twhite_identity VARCHAR, \n'
    '\tblack_identity VARCHAR, \n'
    '\tvariant VARCHAR NOT NULL, \n'
    '\ttime_control VARCHAR NOT NULL, \n'
    '\tstart_fen VARCHAR NOT NULL, \n'
    '\topening_id VARCHAR, \n'
    '\topening_index INTEGER, \n'
    '\topening VARCHAR, \n'
    '\tfinished BOOLEAN NOT NULL, \n'
    '\twinner VARCHAR NOT NULL, \n'
    '\ttermination VARCHAR, \n'
    '\trule VARCHAR, \n'
    '\treason VARCHAR, \n'
    '\tplies INTEGER NOT NULL, \n'
    '\tstarted_at VARCHAR NOT NULL, \n'
    '\tended_at VARCHAR, \n'
    '\twarnings VARCHAR, \n'
    '\ttags VARCHAR, \n'
    "\trevision INTEGER DEFAULT '0' NOT NULL, \n"
    "\twhite_timed INTEGER DEFAULT '0' NOT NULL, \n"
    "\twhite_seconds FLOAT DEFAULT '0' NOT NULL, \n"
    "\twhite_depths INTEGER DEFAULT '0' NOT NULL, \n"
    "\twhite_depth_sum INTEGER DEFAULT '0' NOT NULL, \n"
    "\tblack_timed INTEGER DEFAULT '0' NOT NULL, \n"
    "\tblack_seconds FLOAT DEFAULT '0' NOT NULL, \n"
    "\tblack_depths INTEGER DEFAULT '0' NOT NULL, \n"
    "\tblack_depth_sum INTEGER DEFAULT '0' NOT NULL, \n"
    '\tPRIMARY KEY (id), \n'
    '\tCONSTRAINT uq_game_key UNIQUE (tournament_id, game_key), \n'
    '\tFOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE\n'
    ')\n'
    '\n',
    'CREATE INDEX ix_game_results ON game (tournament_id, finished, white, black, winner)',
    'CREATE INDEX ix_game_revision ON game (tournament_id, revision)',
    '\n'
    'CREATE TABLE event (\n'
    '\tid INTEGER NOT NULL, \n'
    '\ttournament_id INTEGER NOT NULL, \n'
    '\tgame_id INTEGER, \n'
    '\tengine VARCHAR, \n'
    '\tkind VARCHAR NOT NULL, \n'
    '\tmessage VARCHAR NOT NULL, \n'
    '\tat VARCHAR NOT NULL, \n'
    '\tPRIMARY KEY (id), \n'
    '\tFOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE, \n'
    '\tFOREIGN KEY(game_id) REFERENCES game (id) ON DELETE CASCADE\n'
    ')\n'
    '\n',
    'CREATE INDEX ix_event_game_id ON event (game_id)',
    'CREATE INDEX ix_event_tournament_id ON event (tournament_id)',
    '\n'
    'CREATE TABLE move (\n'
    '\tgame_id INTEGER NOT NULL, \n'
    '\tply INTEGER NOT NULL, \n'
    '\tside VARCHAR NOT NULL, \n'
    '\ttext VARCHAR NOT NULL, \n'
    '\thub VARCHAR NOT NULL, \n'
    '\tfrom_opening BOOLEAN NOT NULL, \n'
    '\telapsed FLOAT, \n'
    '\tclock FLOAT, \n'
    '\twarnings VARCHAR, \n'
    '\tdraw_offered BOOLEAN NOT NULL, \n'
    '\thas_info BOOLEAN NOT NULL, \n'
    '\tdepth INTEGER, \n'
    '\tscore FLOAT, \n'
    '\tnodes INTEGER, \n'
    '\tinfo_time FLOAT, \n'
    '\tnps FLOAT, \n'
    '\tpv VARCHAR, \n'
    '\tinfo_extra VARCHAR, \n'
    '\tPRIMARY KEY (game_id, ply), \n'
    '\tFOREIGN KEY(game_id) REFERENCES game (id) ON DELETE CASCADE\n'
    ')\n'
    ' WITHOUT ROWID\n'
    '\n',
)
