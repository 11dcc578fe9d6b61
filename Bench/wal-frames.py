#!/usr/bin/env python3
"""What each commit in a pushdeck database's WAL wrote, b-tree by b-tree.

A commit appends every page it changed to the WAL as a frame; pages a commit only touched
(the last, part-filled leaf of a table, an index's last leaf, the unread ledger's row) are
written again by the next commit, so small commits write more per push than large ones. This
reads the frames of the WAL's current cycle (those whose salts match its header), groups them
by commit, and names each page's b-tree from SQLite's dbstat table on a copy of the database.

The WAL must still be there: a server that stops cleanly checkpoints it and removes it. Load a
server, then SIGKILL it, for instance:

    pushdeck serve & PID=$!; ...load it...; kill -9 $PID
    python3 Bench/wal-frames.py ~/.local/share/pushdeck/inbox.sqlite

Usage: Bench/wal-frames.py DATABASE
"""
import collections
import os
import shutil
import sqlite3
import struct
import sys
import tempfile


def commits(wal):
    """The page numbers of each commit of the WAL's current cycle, oldest first."""
    _, _, page_size, _, salt1, salt2 = struct.unpack(">6I", wal[:24])
    offset, current, found = 32, [], []
    while offset + 24 + page_size <= len(wal):
        page, database_size, frame_salt1, frame_salt2 = struct.unpack(">4I", wal[offset:offset + 16])
        if (frame_salt1, frame_salt2) != (salt1, salt2):
            break
        current.append(page)
        if database_size:  # a commit's last frame carries the database's size in pages
            found.append(current)
            current = []
        offset += 24 + page_size
    return page_size, found


def owners(database):
    """Page number -> b-tree name, read from a copy (opening it replays the WAL there)."""
    folder = tempfile.mkdtemp()
    try:
        for suffix in ("", "-wal"):
            shutil.copyfile(database + suffix, os.path.join(folder, "copy.sqlite" + suffix))
        connection = sqlite3.connect(os.path.join(folder, "copy.sqlite"))
        try:
            return dict((page, name) for name, page in connection.execute("SELECT name, pageno FROM dbstat"))
        finally:
            connection.close()
    finally:
        shutil.rmtree(folder)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    database = sys.argv[1]
    with open(database + "-wal", "rb") as file:
        page_size, found = commits(file.read())
    if not found:
        sys.exit("no commit in the WAL's current cycle")
    names = owners(database)
    frames = collections.Counter(names.get(page, "?") for commit in found for page in commit)
    sizes = sorted(len(commit) for commit in found)
    print(f"{len(found)} commits, {sum(sizes)} frames of {page_size} bytes; "
          f"frames a commit: median {sizes[len(sizes) // 2]}, mean {sum(sizes) / len(sizes):.1f}")
    for name, count in frames.most_common():
        print(f"  {name:28s} {count:7d} frames  {count / len(found):6.2f} a commit")


if __name__ == "__main__":
    main()
