"""The store's tables, defined once: the Arrow schema every batch is built with, the DuckDB DDL
derived from it, and the column documentation that docs/schema.md is generated from (a test keeps
the page and this module identical).

Money columns are BIGINT counts of the hand's smallest unit (`hands.scale` units per currency unit,
100 for cents, 1 for tournament chips): exact, summable, and never a float.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import pyarrow as pa

from studdraw.pipeline.rules.specs import GAME_SPECS

SCHEMA_VERSION: Final = 4
"""Version 2 says `room` where version 1 said `site`; version 3 keeps the runs of a hand run
twice (`hands.runs`, `actions.run`, `pots.run`); version 4 has every content hash of a text
without blanks at line ends (`hand_hash.renew_hashes`). `migration.py` brings an earlier store
up to date when it is opened."""

TIMESTAMP: Final = pa.timestamp("us", tz="UTC")
CARDS: Final = pa.list_(pa.string())
FLAGS: Final = pa.list_(pa.bool_())
NAMES: Final = pa.list_(pa.string())

_SQL_TYPES: Final[dict[pa.DataType, str]] = {
    pa.int64(): "BIGINT",
    pa.int32(): "INTEGER",
    pa.int16(): "SMALLINT",
    pa.string(): "VARCHAR",
    pa.bool_(): "BOOLEAN",
    TIMESTAMP: "TIMESTAMPTZ",
    CARDS: "VARCHAR[]",
    FLAGS: "BOOLEAN[]",
}


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: pa.DataType
    doc: str
    nullable: bool = True

    @property
    def sql(self) -> str:
        return f"{self.name} {_SQL_TYPES[self.type]}" + ("" if self.nullable else " NOT NULL")


@dataclass(frozen=True, slots=True)
class TableDef:
    name: str
    doc: str
    columns: tuple[Column, ...]
    keys: tuple[str, ...] = ()  # table constraints (PRIMARY KEY / UNIQUE clauses)

    @property
    def arrow(self) -> pa.Schema:
        return pa.schema([pa.field(c.name, c.type, c.nullable) for c in self.columns])

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def ddl(self) -> str:
        body = ",\n    ".join([c.sql for c in self.columns] + list(self.keys))
        return f"CREATE TABLE IF NOT EXISTS {self.name} (\n    {body}\n)"


def _c(name: str, type_: pa.DataType, doc: str, nullable: bool = True) -> Column:
    return Column(name, type_, doc, nullable)


I64, I32, I16, STR, BOOL = pa.int64(), pa.int32(), pa.int16(), pa.string(), pa.bool_()
HAND_ID = _c(
    "hand_id", I64, "Surrogate key of the hand (`hands.hand_id`), assigned by the writer.", False
)
MONEY = "in the hand's smallest unit (see `hands.scale`)"

IMPORTS = TableDef(
    "imports",
    "One row per file import: which file, its content hash, when, what became of its hands "
    "(`hands_seen = stored + duplicates + rejected + unsupported` once `status` is `complete`; "
    "the counts of a `running` row are those of the batches committed so far, so an interrupted "
    "import stays visible). A file whose content hash has a `complete` row is skipped at once on "
    "the next import, with a `skipped` row.",
    (
        _c("import_id", I64, "Key of the import.", False),
        _c("path", STR, "The file as given or found (absolute path).", False),
        _c("room", STR, "Room that wrote the file, NULL when no room recognises it."),
        _c("size", I64, "File size in bytes when the import started."),
        _c("content_hash", STR, "SHA-256 of the file's bytes (hex); NULL if unreadable."),
        _c(
            "status",
            STR,
            "`running` (in progress or stopped; see `interrupted`), `complete`, `skipped` (the "
            "same content was fully imported before) or `failed` (the file or folder could not "
            "be read; see `error`).",
            False,
        ),
        _c("started_at", TIMESTAMP, "When the import of the file started (UTC).", False),
        _c("finished_at", TIMESTAMP, "When it finished (UTC); NULL while running or interrupted."),
        _c("hands_seen", I64, "Hand texts cut from the file.", False),
        _c("stored", I64, "Hands stored in `hands` by this import.", False),
        _c(
            "duplicates",
            I64,
            "Hands already recorded with the same text (in `hands`, `rejects` or "
            "`unsupported`), or met earlier in the same import.",
            False,
        ),
        _c(
            "rejected",
            I64,
            "Hands written to `rejects` (unparseable, changed, or a pipeline failure).",
            False,
        ),
        _c("unsupported", I64, "Hands written to `unsupported`.", False),
        _c("changed", I64, "Of `rejected`: hands whose id was stored with other content.", False),
        _c("with_errors", I64, "Of `stored`: hands with error-severity violations.", False),
        _c("error", STR, "Why the file could not be read, for `failed` imports."),
        _c(
            "stray_texts",
            I64,
            "Texts that start no room's hand (before the first hand, or a whole file of other "
            "text): problems (`FIL001`), not hands, so not in `hands_seen`; each is in "
            "`rejects` with `kind = stray_text`.",
            False,
        ),
        _c(
            "note",
            STR,
            "What else the reader said about the file: junk (an empty file, a byte-order mark "
            "only, binary data), a file no room recognises, a name that is not valid UTF-8.",
        ),
        _c(
            "interrupted",
            BOOL,
            "The import of this file was stopped (Ctrl-C, SIGTERM) before it ended; a re-run "
            "resumes it.",
            False,
        ),
    ),
    ("PRIMARY KEY (import_id)",),
)

IMPORTS_ADDED: Final = (
    "ALTER TABLE imports ADD COLUMN IF NOT EXISTS stray_texts BIGINT DEFAULT 0",
    "ALTER TABLE imports ADD COLUMN IF NOT EXISTS note VARCHAR",
    "ALTER TABLE imports ADD COLUMN IF NOT EXISTS interrupted BOOLEAN DEFAULT false",
)
"""Columns `imports` gained after version 1, added in place to an older store (at the end, in
this order, as the definition has them)."""

HANDS = TableDef(
    "hands",
    "One row per stored hand, the root of every other hand table. A hand is identified by "
    "`(room, room_hand_id)`; `content_hash` tells a re-export of the same text (a duplicate) from "
    "a changed hand. Amounts are exact integers " + MONEY + ".",
    (
        HAND_ID,
        _c("room", STR, "Room that wrote the hand (room name, e.g. `pokerstars`).", False),
        _c("room_hand_id", STR, "The room's own hand id.", False),
        _c(
            "content_hash",
            I64,
            "64-bit BLAKE2b of the hand's text as split (decoded), taken with LF line ends and "
            "no blanks at line ends (an XML hand's raw text keeps the file's), as a signed "
            "integer: a rewrite of the file that changes only those is the same hand.",
            False,
        ),
        _c(
            "game",
            STR,
            "Game id: "
            + ", ".join(f"{game.value} ({spec.title})" for game, spec in GAME_SPECS.items())
            + ".",
            False,
        ),
        _c("structure", STR, "Betting structure: fixed, pot, half_pot, no, spread.", False),
        _c("small_bet", I64, "Small bet " + MONEY + "; 0 where the game has none.", False),
        _c("big_bet", I64, "Big bet " + MONEY + ".", False),
        _c("ante", I64, "Ante " + MONEY + " (stud).", False),
        _c("bring_in", I64, "Bring-in " + MONEY + " (stud).", False),
        _c("small_blind", I64, "Small blind " + MONEY + " (draw).", False),
        _c("big_blind", I64, "Big blind " + MONEY + " (draw).", False),
        _c(
            "currency",
            STR,
            "ISO code for cash games, `PLAY` for play money, `CHIPS` in tournaments.",
            False,
        ),
        _c(
            "scale",
            I32,
            "Smallest units per whole currency unit (100 for cents, 1 for chips): divide any "
            "amount of the hand by it for currency units (the `hand_players_money` view does).",
            False,
        ),
        _c("tournament_id", STR, "The room's tournament id; NULL for cash games."),
        _c("tournament_buy_in", I64, "Buy-in without the fee, in the buy-in currency's cents."),
        _c("tournament_fee", I64, "Tournament fee, in the buy-in currency's cents."),
        _c("tournament_currency", STR, "Currency of buy-in and fee."),
        _c("tournament_level", STR, "Blind level as the room names it."),
        _c("mixed", STR, "Mixed-game rotation the hand belongs to (`8-Game`, `HORSE`), if any."),
        _c("table_name", STR, "The room's table name.", False),
        _c("max_seats", I16, "Seats at the table, when the room says."),
        _c("button", I16, "Seat number of the button (draw games)."),
        _c("started_at", TIMESTAMP, "Start of the hand (UTC).", False),
        _c(
            "room_time", STR, "The start time exactly as the room printed it, with its zone.", False
        ),
        _c("players", I16, "Players dealt in.", False),
        _c("total_pot", I64, "Pot computed by the replay, before rake, " + MONEY + ".", False),
        _c(
            "rake", I64, "Rake computed by the replay (pot less what the winners collected).", False
        ),
        _c("reported_pot", I64, "Total pot as the room reported it, when it did."),
        _c("reported_rake", I64, "Rake as the room reported it, when it did."),
        _c("valid", BOOL, "No error-severity violation (warnings allowed).", False),
        _c("errors", I16, "Error-severity problems (rows in `violations`).", False),
        _c(
            "warnings",
            I16,
            "Warning-severity problems, the reader's included (`TXT001`).",
            False,
        ),
        _c("hero", STR, "The player whose cards the export shows (the exporting account)."),
        _c("notes", NAMES, "Oddities the room's reader tolerated while reading the hand."),
        _c("source_path", STR, "File the hand was read from.", False),
        _c("source_offset", I64, "Byte offset of the hand's first line in that file.", False),
        _c("source_line", I32, "Line number (1-based) of the hand's first line.", False),
        _c("import_id", I64, "The import that stored the hand (`imports.import_id`).", False),
        _c(
            "runs",
            I16,
            "How many times the draw or the board was run: 1, or 2 for a hand run twice (each "
            "run's draws and shows are the `actions` of its `run`, its pots the `pots` of it).",
            False,
        ),
    ),
    ("PRIMARY KEY (hand_id)", "UNIQUE (room, room_hand_id)"),
)

HAND_PLAYERS = TableDef(
    "hand_players",
    "One row per seat of the hand (players not dealt in are kept, with `dealt_in` false), with "
    "the replay's result for the whole hand.",
    (
        HAND_ID,
        _c("seat", I16, "Seat number.", False),
        _c("name", STR, "Player name as the room printed it.", False),
        _c("stack", I64, "Stack at the start of the hand " + MONEY + ".", False),
        _c("sitting_out", BOOL, "The room marked the seat as sitting out.", False),
        _c(
            "dealt_in",
            BOOL,
            "Took part in the hand (the replay's players; tournaments deal sitting-out players "
            "in). The result columns are 0/false for seats not dealt in.",
            False,
        ),
        _c(
            "cards",
            CARDS,
            "The player's cards known at the end of the hand, in deal order (NULL element = "
            "unknown card).",
        ),
        _c("up", FLAGS, "`up[i]` tells whether `cards[i]` was dealt face up (stud)."),
        _c("cards_known", I16, "How many of `cards` are known.", False),
        _c("invested", I64, "Chips put in, uncalled returns taken off, " + MONEY + ".", False),
        _c("collected", I64, "Chips won from the pots " + MONEY + ".", False),
        _c("net", I64, "`collected - invested` " + MONEY + ".", False),
        _c("showed", BOOL, "Showed cards at showdown.", False),
        _c("won", BOOL, "Collected from at least one pot.", False),
        _c(
            "position",
            STR,
            "Draw games: `BTN`, `SB`, `BB` or `BTN+k`; stud: `BI` or `BI+k` (k seats after the "
            "bring-in); NULL when unknown.",
        ),
        _c("is_hero", BOOL, "The player is the hand's hero.", False),
    ),
)

ACTIONS = TableDef(
    "actions",
    "Every event of the hand in the order the room printed it, betting or not (deals, draws, "
    "shows, chat, street markers), so the hand can be replayed from the store alone.",
    (
        HAND_ID,
        _c("seq", I32, "Position of the event in the hand (0-based, as `event_index`).", False),
        _c(
            "street",
            I16,
            "Betting round in play (stud: 0 = 3rd street .. 4 = 7th; draw: 0 = before the first "
            "draw .. 3 = after the third).",
            False,
        ),
        _c("actor", STR, "Player the event belongs to, NULL for table events."),
        _c(
            "kind",
            STR,
            "Event kind (`EventKind` values: ante, bring_in, call, raise, deal, draw, ...).",
            False,
        ),
        _c(
            "amount",
            I64,
            "Chips put in (forced bets, calls, bets, raises), returned (uncalled) or won "
            "(collect) " + MONEY + "; 0 otherwise.",
            False,
        ),
        _c("to_amount", I64, "The player's total on the street after a wager, as the room put it."),
        _c("all_in", BOOL, "The event put the player all-in.", False),
        _c("pot_before", I64, "Pot just before the event " + MONEY + ", from the replay.", False),
        _c("cards", CARDS, "Cards dealt, drawn, shown, mucked or discarded (NULL = unknown)."),
        _c("up", FLAGS, "Face-up flags of `cards` (stud deals)."),
        _c("count", I16, "Cards discarded or drawn when the cards themselves are hidden."),
        _c("pot", STR, "For collects: main, side1, ..., with `:hi`/`:lo` for split halves."),
        _c("text", STR, "Chat or note text."),
        _c("line", I32, "Source line of the event.", False),
        _c(
            "run",
            I16,
            "In a hand run twice, the run of a draw, show or collect (1, 2); 0 for what every "
            "run shares, and for a collect the room did not say the run of.",
            False,
        ),
    ),
)

STREETS = TableDef(
    "streets",
    "The replay's betting rounds, one row per street the hand reached.",
    (
        HAND_ID,
        _c("street", I16, "Index of the betting round (as `actions.street`).", False),
        _c("name", STR, "Street name (`3rd street`, `after the first draw`, ...).", False),
        _c("pot_start", I64, "Pot when the street began " + MONEY + ".", False),
        _c("pot_end", I64, "Pot when it ended " + MONEY + ".", False),
        _c("players_in", I16, "Players still in when it began.", False),
        _c("bets", I16, "Opening bets (0 or 1; a triple-draw big blind opens round 1).", False),
        _c("raises", I16, "Raises after the opening bet.", False),
        _c("completions", I16, "Stud completions (neither a bet nor a raise).", False),
        _c("first_actor", STR, "Who acted first (stud: the bring-in or best board)."),
    ),
)

PLAYER_STREETS = TableDef(
    "player_streets",
    "One row per player per street they started in: cards, chips put in, what they did.",
    (
        HAND_ID,
        _c("street", I16, "Index of the betting round.", False),
        _c("name", STR, "Player name.", False),
        _c("cards", CARDS, "The player's cards known at the end of the street (NULL = unknown)."),
        _c("up", FLAGS, "Face-up flags of `cards`."),
        _c(
            "put_in",
            I64,
            "Chips put in on the street, less any uncalled return " + MONEY + " (antes and "
            "blinds count on the first street).",
            False,
        ),
        _c("actions", NAMES, "The player's forced bets and betting actions on the street."),
        _c("folded", BOOL, "Folded on this street.", False),
        _c("all_in", BOOL, "All-in by the end of the street.", False),
        _c(
            "drawn",
            I16,
            "Draw games: cards exchanged in the draw that opened the street (0 = pat); NULL on "
            "the first street or when the export does not say.",
        ),
    ),
)

POTS = TableDef(
    "pots",
    "The replay's pots (each half of a split pot is its own row, and so is each run's share of "
    "a pot run twice), with who could win and who did.",
    (
        HAND_ID,
        _c("pot_no", I16, "Order of the pot in the hand (0 = first).", False),
        _c("name", STR, "main, side1, side2, ...", False),
        _c("half", STR, "`hi` or `lo` for split halves, NULL otherwise."),
        _c("amount", I64, "Size of the pot (or half) before rake " + MONEY + ".", False),
        _c("collected", I64, "What its winners took from it, as the room reported.", False),
        _c("eligible", NAMES, "Players eligible to win it."),
        _c("winners", NAMES, "Players who collected from it."),
        _c(
            "run",
            I16,
            "In a hand run twice, the run whose share of the pot the row is (the pot over the "
            "runs, the odd chip in the first run; `winners` that run's best hands); 0 otherwise, "
            "and for a pot whose award could not be checked run by run.",
            False,
        ),
    ),
)

VIOLATIONS = TableDef(
    "violations",
    "The problems of stored hands, located like linter messages (codes in docs/violations.md, "
    "the catalogue `studdraw.parsers.problems`): the warnings the room's reader kept on a hand "
    "(`TXT001`: a line it did not know, with the line's text) first, with NULL `street` and "
    "`event_index`, then what the rules engine found.",
    (
        HAND_ID,
        _c("seq", I16, "Order of the problem within the hand.", False),
        _c("code", STR, "Stable problem code (e.g. `SIZ001`).", False),
        _c("severity", STR, "`error` or `warning`.", False),
        _c("street", I16, "Betting round, NULL for hand-level checks."),
        _c("event_index", I32, "The offending event (`actions.seq`), NULL for hand-level checks."),
        _c("line", I32, "Source line of the event, or the hand's first line.", False),
        _c("message", STR, "One-line explanation.", False),
    ),
)

REJECTS = TableDef(
    "rejects",
    "Hands of supported rooms that were not stored, with their raw text so nothing read is lost: "
    "hands that could not be parsed, hands whose id is already stored with other content "
    "(`kind = changed`: the stored hand is never overwritten), and hands the pipeline failed on.",
    (
        _c("room", STR, "Room of the file."),
        _c("room_hand_id", STR, "The room's hand id, when the first line gives it."),
        _c("content_hash", I64, "Hash of `raw_text` (as `hands.content_hash`).", False),
        _c(
            "kind",
            STR,
            "From the hand's problem: `stray_text` (`FIL001`: text that starts no room's hand, "
            "counted in `imports.stray_texts`, not a hand), `internal_error` (`INT001`: studdraw "
            "failed on it), `changed` (its id is stored with other content), else "
            "`parse_error` (any other problem: `TXT...`, `FIL002`, `PRS001`, `IMP001`).",
            False,
        ),
        _c("reason", STR, "What went wrong: the problem's message.", False),
        _c("error_line", I32, "The problem's line: the line that stopped the reader."),
        _c("raw_text", STR, "The hand's text as split.", False),
        _c("source_path", STR, "File the hand was read from.", False),
        _c("source_offset", I64, "Byte offset of the hand's first line.", False),
        _c("source_line", I32, "Line number of the hand's first line.", False),
        _c("import_id", I64, "The import that met it.", False),
    ),
)

UNSUPPORTED = TableDef(
    "unsupported",
    "Hands counted but not stored because the game, or the whole room, is outside what studdraw "
    "reads (hold'em in a mixed file, five-card draw, a room studdraw does not read, a file no room "
    "recognises). Kept without the text: the file, line and offset say where to find it.",
    (
        _c("room", STR, "Room of the file, NULL when no room recognises it."),
        _c("room_hand_id", STR, "The room's hand id, when the first line gives it."),
        _c("content_hash", I64, "Hash of the hand's text.", False),
        _c("game_label", STR, "The room's own name for the game, when known."),
        _c("reason", STR, "Why it is not read.", False),
        _c("source_path", STR, "File.", False),
        _c("source_offset", I64, "Byte offset of the hand's first line.", False),
        _c("source_line", I32, "Line number of the hand's first line.", False),
        _c("import_id", I64, "The import that met it.", False),
    ),
)

TOURNAMENT_RESULTS = TableDef(
    "tournament_results",
    "One row per player and tournament from the rooms' tournament summary files (`studdraw "
    "ingest` imports them beside the hand histories; PokerStars and Full Tilt): the "
    "tournament's buy-in, fee and bounty, and the player's place, prize and bounties. A later "
    "summary of the same tournament replaces the rows it repeats. Amounts are in the buy-in "
    "currency's cents (hundredths of play money).",
    (
        _c("room", STR, "Room that wrote the summary (`pokerstars`, `fulltilt`).", False),
        _c("tournament_id", STR, "The room's tournament id (as `hands.tournament_id`).", False),
        _c("name", STR, "Player name as the summary prints it.", False),
        _c("place", I32, "Finishing place; NULL while still playing."),
        _c("prize", I64, "Prize won, in cents; NULL when the summary shows none."),
        _c("bounty", I64, "Bounties the player collected, in cents, where the summary says."),
        _c("buy_in", I64, "Buy-in without fee and bounty, in cents."),
        _c("fee", I64, "The room's fee, in cents."),
        _c("bounty_each", I64, "The bounty on each player's head (knockouts), in cents."),
        _c("currency", STR, "ISO code of the buy-in; `PLAY` for play money."),
        _c("entries", I32, "Players who entered."),
        _c("prize_pool", I64, "Total prize pool, in cents."),
        _c("game", STR, "The game as the summary names it (`Razz Limit`)."),
        _c("started", STR, "Start time exactly as the room printed it."),
        _c("source_path", STR, "The summary file.", False),
        _c("source_line", I32, "Line of the summary's first line.", False),
    ),
    ("PRIMARY KEY (room, tournament_id, name)",),
)

PARQUET_PARTS = TableDef(
    "parquet_parts",
    "Parquet files written alongside the DuckDB tables, recorded in the same transaction as their "
    "rows: a part file exists under its final name only if its row here is committed, so an "
    "interrupted import never leaves half a batch in the dataset.",
    (
        _c("root", STR, "The dataset folder given with `--parquet` (absolute).", False),
        _c(
            "path",
            STR,
            "The part, relative to `root` (`<table>/room=../game=../month=../..`).",
            False,
        ),
        _c("table_name", STR, "Table whose rows it holds.", False),
        _c("rows", I64, "Rows in the part.", False),
        _c("import_id", I64, "First import whose rows it holds.", False),
    ),
    ("PRIMARY KEY (root, path)",),
)

META = TableDef(
    "studdraw_meta",
    "Key/value facts about the store itself; `schema_version` guards against opening a store "
    "written by an incompatible version.",
    (_c("key", STR, "Name.", False), _c("value", STR, "Value.", False)),
    ("PRIMARY KEY (key)",),
)

HAND_TABLES: Final = (HANDS, HAND_PLAYERS, ACTIONS, STREETS, PLAYER_STREETS, POTS, VIOLATIONS)
"""Tables keyed by `hand_id`, in the order a batch is written."""
BATCH_TABLES: Final = (*HAND_TABLES, REJECTS, UNSUPPORTED)
"""Everything a processed batch of hand texts produces (also the Parquet dataset's tables)."""
ALL_TABLES: Final = (IMPORTS, *BATCH_TABLES, TOURNAMENT_RESULTS, PARQUET_PARTS, META)
TABLES: Final = {table.name: table for table in ALL_TABLES}

INDEXES: Final = (
    "CREATE INDEX IF NOT EXISTS hands_started_at ON hands (started_at)",
    "CREATE INDEX IF NOT EXISTS hand_players_name ON hand_players (name)",
)
INDEX_NOTE: Final = (
    "ART indexes serve the analytics' point lookups by time and by player. Child tables have no "
    "index on `hand_id`: they are written in `hand_id` order, so DuckDB's per-row-group min/max "
    "(zone maps) already narrows a lookup by hand to one row group, without an index's memory "
    "and insert cost."
)

VIEWS: Final = (
    """CREATE OR REPLACE VIEW hand_players_money AS
SELECT p.*, h.room, h.game, h.started_at, h.currency, h.scale,
       CAST(CAST(p.invested AS DECIMAL(38, 4)) * CAST(1.0 / h.scale AS DECIMAL(38, 4))
           AS DECIMAL(18, 4)) AS invested_amount,
       CAST(CAST(p.collected AS DECIMAL(38, 4)) * CAST(1.0 / h.scale AS DECIMAL(38, 4))
           AS DECIMAL(18, 4)) AS collected_amount,
       CAST(CAST(p.net AS DECIMAL(38, 4)) * CAST(1.0 / h.scale AS DECIMAL(38, 4))
           AS DECIMAL(18, 4)) AS net_amount
FROM hand_players p JOIN hands h USING (hand_id)""",
)
VIEW_NOTE: Final = (
    "View `hand_players_money`: `hand_players` with the hand's room, game, start, currency and "
    "scale, and `invested_amount`, `collected_amount`, `net_amount` in currency units as exact "
    "DECIMAL(18, 4) (scales are powers of ten up to 10^4, so 1/scale is exact at four places)."
)


def markdown() -> str:
    """docs/schema.md: one paragraph per table, one per column, from the definitions above."""
    keys = "; ".join(f"`{table.name}` {key}" for table in ALL_TABLES for key in table.keys)
    indexes = "; ".join(f"`{index.split(' ON ')[1]}`" for index in INDEXES)
    out = [
        "# Store schema",
        "",
        "Generated from `pipeline/store/schema.py` by `schema.markdown()`; "
        "`tests/pipeline/test_store_schema.py` keeps the two identical. The DuckDB file "
        "(`studdraw.duckdb` by default) holds every table below; the Parquet dataset written "
        "with `studdraw ingest --parquet DIR` holds the batch tables (`"
        + "`, `".join(t.name for t in BATCH_TABLES)
        + "`) under `DIR/<table>/room=<room>/game=<game>/month=<YYYY-MM>/`, written from the "
        "same Arrow batches. The partition values are the hand's room, game and UTC month "
        "(`unknown` where a reject or unsupported hand has none); they live in the folder names, "
        "so read the dataset with hive partitioning.",
        "",
        __doc__.split("\n\n", 1)[1].strip().replace("\n", " "),
        "",
        "Every table with a `hand_id` refers to `hands.hand_id`; a hand and all its child rows "
        f"are written in one transaction. Keys: {keys}. Indexes: {indexes}. {INDEX_NOTE}",
        "",
        VIEW_NOTE,
    ]
    for table in ALL_TABLES:
        out += ["", f"## `{table.name}`", "", table.doc, ""]
        for column in table.columns:
            null = "" if column.nullable else ", not null"
            out.append(f"- `{column.name}` ({_SQL_TYPES[column.type]}{null}): {column.doc}")
    return "\n".join(out) + "\n"
