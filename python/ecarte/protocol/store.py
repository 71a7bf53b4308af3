"""Where ``ecarte serve`` keeps its games across restarts: one SQLite file (the standard
library's :mod:`sqlite3`, nothing to install), docs/protocol.md, "Persistence".

A game is stored as what recreates it, never as a snapshot: its **recipe** (the ``new``
request, with the seed the server dealt it, which no client is ever sent), each
**step** taken in it in order (an action, an undo, a spectator's advance: whatever the
session did to the game), and its seats' tokens, hashed. On start the session plays the
steps again through the games' own code (:meth:`ecarte.protocol.session.Session.restore`),
so a game comes back exactly as it was acknowledged.

- **Durable before answered.** Each step is committed (WAL, ``synchronous=FULL``: on disk
  when the commit returns) before the session answers the request that took it.
- **Its own file, one server.** The file carries ecarte's ``application_id`` and a schema
  version (``user_version``): a file that is not SQLite, another program's database or one
  written by a newer ecarte is refused with one line, and left untouched (it is read,
  never written, until it is known to be ours). A lock on a side file (``PATH.lock``,
  ``flock``) keeps a second server off a file in use; the operating system releases it
  however the server ends.
- **Finished games are kept up to a count** (``keep``): beyond it the oldest finished
  games are deleted, and live games never are.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from ecarte._public import api_dir
from ecarte.errors import EcarteError

__all__ = [
    "APPLICATION_ID",
    "DEFAULT_KEEP",
    "MAX_GAMES",
    "MEMORY",
    "SCHEMA_VERSION",
    "Store",
    "StoreError",
    "StoredGame",
    "default_path",
]
__dir__ = api_dir(globals())

#: The ``application_id`` of an ``ecarte serve`` database ("ECSV").
APPLICATION_ID: Final = 0x45435356
#: The layout of the tables below (``user_version``); a newer file is refused.
SCHEMA_VERSION: Final = 1
#: Finished games kept by default.
DEFAULT_KEEP: Final = 100
#: Games ``ecarte serve`` holds at once, finished ones kept included: the most ``--keep``
#: can keep.
MAX_GAMES: Final = 512
#: The path of a store that lives in memory only (nothing survives the process).
MEMORY: Final = ":memory:"
SQLITE_MAGIC: Final = b"SQLite format 3\x00"

SCHEMA: Final = """
CREATE TABLE games (
    game TEXT PRIMARY KEY,
    recipe TEXT NOT NULL,
    owner TEXT NOT NULL,
    created REAL NOT NULL,
    used REAL NOT NULL,
    finished REAL
);
CREATE TABLE steps (
    game TEXT NOT NULL REFERENCES games (game) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    step TEXT NOT NULL,
    PRIMARY KEY (game, number)
);
CREATE TABLE seats (
    game TEXT NOT NULL REFERENCES games (game) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE INDEX games_finished ON games (finished);
"""


class StoreError(EcarteError):
    """A database that cannot be used: not ecarte's, newer, damaged, or in use."""


def default_path() -> Path:
    """``$XDG_DATA_HOME/ecarte/serve.sqlite3``, else under ``~/.local/share``."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "ecarte" / "serve.sqlite3"


@dataclass
class StoredGame:
    """One stored game: its id, recipe (the ``new`` request's fields), owner (the peer
    that created it), times, whether it is finished, its seats' token hashes and its
    steps in order."""

    game: str
    recipe: dict[str, Any]
    owner: str
    created: float
    used: float
    finished: bool
    tokens: dict[int, str] = field(default_factory=dict)
    steps: list[dict[str, Any]] = field(default_factory=list)


class Store:
    """An ``ecarte serve`` database at ``path`` (:data:`MEMORY`: none; nothing outlives the
    process), keeping ``keep`` finished games. Raises :class:`StoreError` for a file that
    is not one, is newer, or is held by another server. Safe from any thread."""

    def __init__(self, path: str | os.PathLike[str], keep: int = DEFAULT_KEEP) -> None:
        if isinstance(keep, bool) or not isinstance(keep, int):
            raise TypeError(f"keep must be an int, not {type(keep).__name__}")
        if keep < 0:
            raise ValueError(f"keep must be 0 or more, got {keep}")
        self.path = str(path)
        self.keep = keep
        self._lock = threading.Lock()
        self._steps: dict[str, int] = {}
        self._lockfile: IO[bytes] | None = None
        if self.path == MEMORY:
            self._db = sqlite3.connect(MEMORY, check_same_thread=False, isolation_level=None)
            self._db.executescript(SCHEMA)
            self._db.execute("PRAGMA foreign_keys = ON")
            return
        target = Path(self.path)
        fresh = _check_foreign(target)
        try:
            # Its owner's alone: the recipes hold the seeds, which deal every card to come.
            target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if fresh and not target.exists():
                os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            pass
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot create it: {exc.strerror}") from None
        self._lockfile = _take_lock(target)
        try:
            self._db = _open(target, fresh)
        except BaseException:
            self._lockfile.close()
            raise

    # ------------------------------------------------------------------ reading
    def load(self) -> list[StoredGame]:
        """Every stored game, oldest first (after deleting the finished games beyond
        ``keep``)."""
        with self._lock:
            self._prune()
            games = {
                row[0]: StoredGame(
                    row[0], json.loads(row[1]), row[2], row[3], row[4], row[5] is not None
                )
                for row in self._db.execute(
                    "SELECT game, recipe, owner, created, used, finished FROM games ORDER BY rowid"
                )
            }
            for game, seat, digest in self._db.execute("SELECT game, seat, token_hash FROM seats"):
                games[game].tokens[seat] = digest
            for game, step in self._db.execute(
                "SELECT game, step FROM steps ORDER BY game, number"
            ):
                games[game].steps.append(json.loads(step))
            self._steps = {game: len(stored.steps) for game, stored in games.items()}
            return list(games.values())

    # ------------------------------------------------------------------ writing
    def create(self, game: str, recipe: dict[str, Any], owner: str, created: float) -> None:
        """Stores a new game."""
        with self._lock:
            self._write(
                "INSERT INTO games (game, recipe, owner, created, used) VALUES (?, ?, ?, ?, ?)",
                (game, json.dumps(recipe, separators=(",", ":")), owner, created, created),
            )
            self._steps[game] = 0

    def seat(self, game: str, seat: int, token_hash: str) -> None:
        """Stores the hash of a seat's token."""
        with self._lock:
            self._write(
                "INSERT OR REPLACE INTO seats (game, seat, token_hash) VALUES (?, ?, ?)",
                (game, seat, token_hash),
            )

    def step(self, game: str, step: dict[str, Any], finished: bool = False) -> list[str]:
        """Stores the next step of ``game``, durably, and whether it finished the game.
        The finished games deleted to keep ``keep`` (the session drops them too)."""
        text = json.dumps(step, separators=(",", ":"))
        now = time.time()
        with self._lock:
            number = self._steps.get(game, 0)
            with self._transaction():
                self._db.execute(
                    "INSERT INTO steps (game, number, step) VALUES (?, ?, ?)", (game, number, text)
                )
                self._db.execute(
                    "UPDATE games SET used = ?, finished = ? WHERE game = ?",
                    (now, now if finished else None, game),
                )
            self._steps[game] = number + 1
            return self._prune() if finished else []

    def drop(self, game: str) -> None:
        """Deletes a game the session no longer holds (closed or evicted)."""
        with self._lock:
            self._write("DELETE FROM games WHERE game = ?", (game,))
            self._steps.pop(game, None)

    def close(self) -> None:
        with self._lock:
            self._db.close()
            if self._lockfile is not None:
                self._lockfile.close()
                self._lockfile = None

    # ------------------------------------------------------------------ inside
    def _prune(self) -> list[str]:
        rows = self._db.execute(
            "SELECT game FROM games WHERE finished IS NOT NULL "
            "ORDER BY finished DESC, rowid DESC LIMIT -1 OFFSET ?",
            (self.keep,),
        )
        pruned = [row[0] for row in rows]
        if pruned:
            with self._transaction():
                self._db.executemany("DELETE FROM games WHERE game = ?", [(g,) for g in pruned])
            for game in pruned:
                self._steps.pop(game, None)
        return pruned

    def _write(self, sql: str, parameters: tuple[Any, ...]) -> None:
        with self._transaction():
            self._db.execute(sql, parameters)

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self.path)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on an error); a database error
    becomes a :class:`StoreError` naming the file."""

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self.db = db
        self.path = path

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot write: {exc}") from None

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        try:
            self.db.execute("ROLLBACK" if error is not None else "COMMIT")
        except sqlite3.Error as exc:
            if error is None:
                raise StoreError(f"{self.path}: cannot write: {exc}") from None
        if isinstance(error, sqlite3.Error):
            raise StoreError(f"{self.path}: cannot write: {error}") from None


def _check_foreign(path: Path) -> bool:
    """Refuses a file that is not an ``ecarte serve`` database, reading it only (SQLite's
    header holds the ``application_id`` at byte 68). Whether the file is new (absent,
    empty, or a database that holds nothing yet)."""
    try:
        with path.open("rb") as file:
            header = file.read(100)
    except FileNotFoundError:
        return True
    except OSError as exc:
        raise StoreError(f"{path}: cannot read it: {exc.strerror}") from None
    if not header:
        return True
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise StoreError(f"{path}: not an ecarte serve database (not an SQLite file)")
    application_id = int.from_bytes(header[68:72], "big")
    if application_id not in (0, APPLICATION_ID):
        raise StoreError(f"{path}: not an ecarte serve database (another program's)")
    try:  # read-only: a file that turns out to be foreign is not even checkpointed
        db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
        try:
            application_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: not a usable database ({exc})") from None
    if application_id == 0 and version == 0 and tables == 0:
        return True
    if application_id != APPLICATION_ID:
        raise StoreError(f"{path}: not an ecarte serve database (another program's)")
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path}: written by a newer ecarte (schema {version}; this one reads "
            f"{SCHEMA_VERSION}): upgrade ecarte, or give another --db"
        )
    if version < 1:
        raise StoreError(f"{path}: not an ecarte serve database (no schema)")
    return False


def _take_lock(path: Path) -> IO[bytes]:
    """The side file's lock, held while the server runs; refuses a file in use."""
    side = path.with_name(path.name + ".lock")
    try:
        lockfile = side.open("ab")
    except OSError as exc:
        raise StoreError(f"{side}: cannot open the lock file: {exc.strerror}") from None
    try:
        fcntl.flock(lockfile.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lockfile.close()
        raise StoreError(
            f"{path}: in use by another ecarte serve (give each server its own --db)"
        ) from None
    return lockfile


def _open(path: Path, fresh: bool) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        try:
            if fresh:
                # Laid out in a rollback journal, so that the header names ecarte's file
                # as soon as anything is in it; WAL after.
                db.execute("BEGIN IMMEDIATE")
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("COMMIT")
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise StoreError(f"{path}: cannot keep a write-ahead log there ({mode})")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            db.execute("PRAGMA busy_timeout = 5000")
            checked = db.execute("PRAGMA quick_check").fetchone()[0]
            if checked != "ok":
                raise StoreError(f"{path}: damaged ({checked})")
        except BaseException:
            db.close()
            raise
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: not a usable database ({exc})") from None
    return db
