#!/usr/bin/env python3
"""SQLite baseline for actuate-bench's journal.append.

Usage: sqlite_baseline.py EVENTS_JSONL SYNCHRONOUS WARMUP ROUNDS

Reads one event JSON per line (written by actuate-bench from the same events it appends to the journal), then
for each round creates a fresh database in WAL mode with `PRAGMA synchronous=SYNCHRONOUS` (FULL or NORMAL) and a
table `events(seq INTEGER PRIMARY KEY, id TEXT UNIQUE, payload TEXT)`, and times inserting every event, each in
its own transaction (BEGIN; INSERT; COMMIT). Reading the file and parsing ids happen before the clock starts.
Prints one JSON object: {"samples": [events per second, one per measured round], "sqlite_version": "..."}.
"""
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time


def run_round(events, synchronous):
    directory = tempfile.mkdtemp(prefix="actuate-sqlite-")
    try:
        connection = sqlite3.connect(os.path.join(directory, "events.sqlite"), isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=%s" % synchronous)
        connection.execute(
            "CREATE TABLE events (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, payload TEXT NOT NULL)"
        )
        cursor = connection.cursor()
        start = time.perf_counter()
        for event_id, payload in events:
            cursor.execute("BEGIN")
            cursor.execute("INSERT INTO events (id, payload) VALUES (?, ?)", (event_id, payload))
            cursor.execute("COMMIT")
        elapsed = time.perf_counter() - start
        connection.close()
        return len(events) / elapsed
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def main():
    if len(sys.argv) != 5 or sys.argv[2] not in ("FULL", "NORMAL"):
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as handle:
        lines = [line.rstrip("\n") for line in handle if line.strip()]
    events = [(json.loads(line)["id"], line) for line in lines]
    warmup, rounds = int(sys.argv[3]), int(sys.argv[4])
    for _ in range(warmup):
        run_round(events, sys.argv[2])
    samples = [run_round(events, sys.argv[2]) for _ in range(rounds)]
    print(json.dumps({"samples": samples, "sqlite_version": sqlite3.sqlite_version}))


if __name__ == "__main__":
    main()
