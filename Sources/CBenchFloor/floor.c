// The C floor of `pushdeck-bench`'s `roundtrip_msgs_per_s` (see CBenchFloor.h): what a durable
// ack of each push costs with nothing but a socket pair and SQLite's C API, prepared statements
// and SQLITE_STATIC binds of the read buffer.
#include "CBenchFloor.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

struct floor_server {
    int fd;
    const char *path;
    int auto_checkpoint;
    int failed;
};

static int ok(int code, sqlite3 *db, const char *what, struct floor_server *server) {
    if (code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW) return 1;
    fprintf(stderr, "roundtrip floor: %s: %s\n", what, db ? sqlite3_errmsg(db) : "out of memory");
    server->failed = 1;
    return 0;
}

static void *serve(void *argument) {
    struct floor_server *server = argument;
    sqlite3 *db = NULL;
    sqlite3_stmt *begin = NULL, *insert = NULL, *unread = NULL, *badge = NULL, *commit = NULL;
    if (server->path) {
        unlink(server->path);
        if (!ok(sqlite3_open(server->path, &db), db, "open", server)) goto done;
        if (!ok(sqlite3_exec(db,
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
                " server INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;", 0, 0, 0), db, "schema", server)) goto done;
        if (!server->auto_checkpoint && !ok(sqlite3_exec(db, "PRAGMA wal_autocheckpoint=0", 0, 0, 0), db, "pragma", server)) goto done;
        if (!ok(sqlite3_prepare_v2(db, "BEGIN IMMEDIATE", -1, &begin, 0), db, "begin", server)) goto done;
        if (!ok(sqlite3_prepare_v2(db,
                "INSERT INTO messages (id, app, channel, title, body, received_at, payload)"
                " VALUES (?, ?, 'apns', 'Order shipped', 'hello', ?, ?)", -1, &insert, 0), db, "insert", server)) goto done;
        if (!ok(sqlite3_prepare_v2(db,
                "INSERT INTO unread (app, count) VALUES (?, ?) ON CONFLICT(app) DO UPDATE SET count = excluded.count",
                -1, &unread, 0), db, "unread", server)) goto done;
        if (!ok(sqlite3_prepare_v2(db,
                "INSERT INTO badges (app, icon) VALUES (?, ?) ON CONFLICT(app) DO UPDATE SET icon = excluded.icon",
                -1, &badge, 0), db, "badge", server)) goto done;
        if (!ok(sqlite3_prepare_v2(db, "COMMIT", -1, &commit, 0), db, "commit", server)) goto done;
    }
    char buffer[65536];
    long id = 0;
    for (;;) {
        ssize_t count = read(server->fd, buffer, sizeof buffer);
        if (count <= 0) break;
        if (db) {
            id++;
            if (!ok(sqlite3_step(begin), db, "begin", server)) break;
            sqlite3_reset(begin);
            sqlite3_bind_int64(insert, 1, id);
            sqlite3_bind_text(insert, 2, "com.example.shop", -1, SQLITE_STATIC);
            sqlite3_bind_int64(insert, 3, 1700000000000 + id);
            sqlite3_bind_text(insert, 4, buffer, (int)count, SQLITE_STATIC);
            if (!ok(sqlite3_step(insert), db, "insert", server)) break;
            sqlite3_reset(insert);
            sqlite3_bind_text(unread, 1, "com.example.shop", -1, SQLITE_STATIC);
            sqlite3_bind_int64(unread, 2, id);
            if (!ok(sqlite3_step(unread), db, "unread", server)) break;
            sqlite3_reset(unread);
            sqlite3_bind_text(badge, 1, "com.example.shop", -1, SQLITE_STATIC);
            sqlite3_bind_int64(badge, 2, id);
            if (!ok(sqlite3_step(badge), db, "badge", server)) break;
            sqlite3_reset(badge);
            if (!ok(sqlite3_step(commit), db, "commit", server)) break;
            sqlite3_reset(commit);
        }
        if (write(server->fd, "{\"ok\":true}\n", 12) != 12) break;
    }
done:
    sqlite3_finalize(begin);
    sqlite3_finalize(insert);
    sqlite3_finalize(unread);
    sqlite3_finalize(badge);
    sqlite3_finalize(commit);
    sqlite3_close(db);
    // A failure before the loop: the client's read ends.
    shutdown(server->fd, SHUT_RDWR);
    return NULL;
}

double pushdeck_bench_floor_roundtrips(const char *path, double seconds, int auto_checkpoint) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) {
        perror("roundtrip floor: socketpair");
        return -1;
    }
    struct floor_server server = { pair[1], path, auto_checkpoint, 0 };
    pthread_t thread;
    if (pthread_create(&thread, NULL, serve, &server) != 0) {
        close(pair[0]);
        close(pair[1]);
        return -1;
    }
    char push[320];
    memset(push, 'x', sizeof push);
    memcpy(push, "{\"aps\":{\"alert\":{\"title\":\"Order shipped\",\"body\":\"", 49);
    memcpy(push + sizeof push - 6, "\"}}}\n", 5);
    char reply[256];
    long count = 0;
    double start = now(), elapsed = 0;
    while (elapsed < seconds) {
        if (write(pair[0], push, sizeof push - 1) < 0 || read(pair[0], reply, sizeof reply) <= 0) {
            count = -1;
            break;
        }
        count++;
        elapsed = now() - start;
    }
    close(pair[0]);
    pthread_join(thread, NULL);
    close(pair[1]);
    if (count < 0 || server.failed) return -1;
    return count / elapsed;
}
