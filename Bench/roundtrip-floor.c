// The floor of a push round trip on this machine, in C, for comparison with pushdeck-bench's
// `roundtrip_msgs_per_s` (pushdeck's target: 10 000/s). A parent writes a ~300-byte push to a
// Unix socket pair and waits for the answer; the child, for each one, commits one row into
// pushdeck's `messages` schema (with its two always-on indexes) plus the app's unread and badge
// rows, in a WAL database with synchronous=NORMAL, then answers. No JSON, no framing, no bus.
//
//   cc -O2 -o /tmp/roundtrip-floor Bench/roundtrip-floor.c -lsqlite3
//   /tmp/roundtrip-floor 20000 /tmp/floor.sqlite          # socket + commit, checkpoints off
//   /tmp/roundtrip-floor 20000 /tmp/floor.sqlite auto     # ... SQLite's own checkpoints on
//   /tmp/roundtrip-floor 20000                            # socket only
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void must(int code, sqlite3 *db, const char *what) {
    if (code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static void serve(int fd, const char *path, int autoCheckpoint) {
    sqlite3 *db = NULL;
    sqlite3_stmt *begin = NULL, *insert = NULL, *unread = NULL, *badge = NULL, *commit = NULL;
    if (path) {
        unlink(path);
        must(sqlite3_open(path, &db), db, "open");
        must(sqlite3_exec(db,
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
            "CREATE TABLE messages (id INTEGER PRIMARY KEY, app TEXT NOT NULL, channel TEXT NOT NULL,"
            " title TEXT, subtitle TEXT, body TEXT, url TEXT, read INTEGER NOT NULL DEFAULT 0,"
            " offline INTEGER NOT NULL DEFAULT 0, launch INTEGER NOT NULL DEFAULT 0,"
            " held INTEGER NOT NULL DEFAULT 0, received_at INTEGER NOT NULL, task_id TEXT, msg_id TEXT,"
            " payload TEXT NOT NULL);"
            "CREATE INDEX messages_unread ON messages (id, held, read) WHERE held = 0 AND read = 0;"
            "CREATE INDEX messages_by_app ON messages (app, held) WHERE held = 0;"
            "CREATE TABLE unread (app TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID;"
            "CREATE TABLE badges (app TEXT PRIMARY KEY, icon INTEGER NOT NULL DEFAULT 0,"
            " server INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;", 0, 0, 0), db, "schema");
        if (!autoCheckpoint) must(sqlite3_exec(db, "PRAGMA wal_autocheckpoint=0", 0, 0, 0), db, "pragma");
        must(sqlite3_prepare_v2(db, "BEGIN IMMEDIATE", -1, &begin, 0), db, "begin");
        must(sqlite3_prepare_v2(db,
            "INSERT INTO messages (id, app, channel, title, body, received_at, payload)"
            " VALUES (?, ?, 'apns', 'Order shipped', 'hello', ?, ?)", -1, &insert, 0), db, "insert");
        must(sqlite3_prepare_v2(db,
            "INSERT INTO unread (app, count) VALUES (?, ?) ON CONFLICT(app) DO UPDATE SET count = excluded.count",
            -1, &unread, 0), db, "unread");
        must(sqlite3_prepare_v2(db,
            "INSERT INTO badges (app, icon) VALUES (?, ?) ON CONFLICT(app) DO UPDATE SET icon = excluded.icon",
            -1, &badge, 0), db, "badge");
        must(sqlite3_prepare_v2(db, "COMMIT", -1, &commit, 0), db, "commit");
    }
    char buffer[65536];
    long id = 0;
    for (;;) {
        ssize_t count = read(fd, buffer, sizeof buffer);
        if (count <= 0) break;
        if (db) {
            id++;
            must(sqlite3_step(begin), db, "begin"); sqlite3_reset(begin);
            sqlite3_bind_int64(insert, 1, id);
            sqlite3_bind_text(insert, 2, "com.example.shop", -1, SQLITE_STATIC);
            sqlite3_bind_int64(insert, 3, 1700000000000 + id);
            sqlite3_bind_text(insert, 4, buffer, (int)count, SQLITE_STATIC);
            must(sqlite3_step(insert), db, "insert"); sqlite3_reset(insert);
            sqlite3_bind_text(unread, 1, "com.example.shop", -1, SQLITE_STATIC);
            sqlite3_bind_int64(unread, 2, id);
            must(sqlite3_step(unread), db, "unread"); sqlite3_reset(unread);
            sqlite3_bind_text(badge, 1, "com.example.shop", -1, SQLITE_STATIC);
            sqlite3_bind_int64(badge, 2, id);
            must(sqlite3_step(badge), db, "badge"); sqlite3_reset(badge);
            must(sqlite3_step(commit), db, "commit"); sqlite3_reset(commit);
        }
        if (write(fd, "{\"ok\":true}\n", 12) != 12) break;
    }
    _exit(0);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s COUNT [DATABASE [auto]]\n", argv[0]);
        return 2;
    }
    int count = atoi(argv[1]);
    const char *path = argc > 2 ? argv[2] : NULL;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) return 1;
    if (fork() == 0) {
        close(pair[0]);
        serve(pair[1], path, argc > 3 && strcmp(argv[3], "auto") == 0);
    }
    close(pair[1]);
    char push[320];
    memset(push, 'x', sizeof push);
    memcpy(push, "{\"aps\":{\"alert\":{\"title\":\"Order shipped\",\"body\":\"", 49);
    memcpy(push + sizeof push - 6, "\"}}}\n", 5);
    char reply[256];
    double start = now();
    for (int i = 0; i < count; i++) {
        if (write(pair[0], push, sizeof push - 1) < 0 || read(pair[0], reply, sizeof reply) <= 0) return 1;
    }
    double elapsed = now() - start;
    printf("%s: %.0f round trips/s (%.1f us each)\n",
           path ? (argc > 3 ? "socket + commit, SQLite checkpoints" : "socket + commit") : "socket only",
           count / elapsed, elapsed / count * 1e6);
    close(pair[0]);
    wait(NULL);
    return 0;
}
