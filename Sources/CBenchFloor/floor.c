// The C floor of `pushdeck-bench`'s `roundtrip_msgs_per_s` (see CBenchFloor.h): what a durable
// ack of each push costs with nothing but a socket pair and SQLite's C API, prepared statements
// and SQLITE_STATIC binds of the read buffer.
#include "CBenchFloor.h"

#include <poll.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
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
    // The connections' server ends: one, read directly; several, polled, and every request
    // ready at once committed in one transaction.
    const int *fds;
    int count;
    const char *path;
    int auto_checkpoint;
    int page_size;
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
        char page_size[64];
        snprintf(page_size, sizeof page_size, "PRAGMA page_size=%d", server->page_size);
        if (!ok(sqlite3_exec(db, page_size, 0, 0, 0), db, "page size", server)) goto done;
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
    static char buffers[FLOOR_MAX_CLIENTS][65536];
    ssize_t sizes[FLOOR_MAX_CLIENTS];
    struct pollfd polled[FLOOR_MAX_CLIENTS];
    for (int i = 0; i < server->count; i++) polled[i] = (struct pollfd){ server->fds[i], POLLIN, 0 };
    long id = 0;
    int open = 1, alive = server->count;
    while (open && alive > 0) {
        if (server->count > 1 && poll(polled, (nfds_t)server->count, -1) < 0) break;
        int ready = 0;
        for (int i = 0; i < server->count; i++) {
            sizes[i] = 0;
            if (polled[i].fd < 0 || (server->count > 1 && !(polled[i].revents & (POLLIN | POLLHUP | POLLERR)))) continue;
            sizes[i] = read(server->fds[i], buffers[i], sizeof buffers[i]);
            if (sizes[i] > 0) {
                ready++;
            } else {
                // That client is done: poll leaves out a negative descriptor.
                polled[i].fd = -1;
                alive--;
            }
        }
        if (ready == 0) continue;
        if (db) {
            if (!ok(sqlite3_step(begin), db, "begin", server)) break;
            sqlite3_reset(begin);
            for (int i = 0; i < server->count && open; i++) {
                if (sizes[i] <= 0) continue;
                id++;
                sqlite3_bind_int64(insert, 1, id);
                sqlite3_bind_text(insert, 2, "com.example.shop", -1, SQLITE_STATIC);
                sqlite3_bind_int64(insert, 3, 1700000000000 + id);
                sqlite3_bind_text(insert, 4, buffers[i], (int)sizes[i], SQLITE_STATIC);
                if (!ok(sqlite3_step(insert), db, "insert", server)) open = 0;
                sqlite3_reset(insert);
            }
            if (!open) break;
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
        for (int i = 0; i < server->count; i++) {
            if (sizes[i] > 0 && write(server->fds[i], "{\"ok\":true}\n", 12) != 12) open = 0;
        }
    }
done:
    sqlite3_finalize(begin);
    sqlite3_finalize(insert);
    sqlite3_finalize(unread);
    sqlite3_finalize(badge);
    sqlite3_finalize(commit);
    sqlite3_close(db);
    // A failure before the loop: the clients' reads end.
    for (int i = 0; i < server->count; i++) shutdown(server->fds[i], SHUT_RDWR);
    return NULL;
}

struct floor_client {
    int fd;
    int bytes;
    double seconds;
    long count;
};

// One client: a push, its reply, the next, for `seconds`.
static void *send_pushes(void *argument) {
    struct floor_client *client = argument;
    char *push = malloc((size_t)client->bytes + 1);
    if (!push) { client->count = -1; return NULL; }
    memset(push, 'x', (size_t)client->bytes);
    memcpy(push, "{\"aps\":{\"alert\":{\"title\":\"Order shipped\",\"body\":\"", 49);
    memcpy(push + client->bytes - 5, "\"}}}\n", 5);
    char reply[256];
    double start = now(), elapsed = 0;
    while (elapsed < client->seconds) {
        if (write(client->fd, push, (size_t)client->bytes) < 0 || read(client->fd, reply, sizeof reply) <= 0) {
            client->count = -1;
            break;
        }
        client->count++;
        elapsed = now() - start;
    }
    free(push);
    close(client->fd);
    return NULL;
}

double pushdeck_bench_floor_concurrent(const char *path, double seconds, int auto_checkpoint, int page_size, int clients, int bytes) {
    if (clients < 1 || clients > FLOOR_MAX_CLIENTS || bytes < 64) return -1;
    int ends[FLOOR_MAX_CLIENTS];
    struct floor_client senders[FLOOR_MAX_CLIENTS];
    for (int i = 0; i < clients; i++) {
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) {
            perror("roundtrip floor: socketpair");
            for (int j = 0; j < i; j++) { close(ends[j]); close(senders[j].fd); }
            return -1;
        }
        ends[i] = pair[1];
        senders[i] = (struct floor_client){ pair[0], bytes, seconds, 0 };
    }
    struct floor_server server = { ends, clients, path, auto_checkpoint, page_size, 0 };
    pthread_t thread, threads[FLOOR_MAX_CLIENTS];
    if (pthread_create(&thread, NULL, serve, &server) != 0) {
        for (int i = 0; i < clients; i++) { close(ends[i]); close(senders[i].fd); }
        return -1;
    }
    double start = now();
    int started = 0;
    for (; started < clients; started++) {
        if (pthread_create(&threads[started], NULL, send_pushes, &senders[started]) != 0) break;
    }
    long total = 0;
    int failed = started < clients;
    for (int i = 0; i < started; i++) {
        pthread_join(threads[i], NULL);
        if (senders[i].count < 0) failed = 1; else total += senders[i].count;
    }
    double elapsed = now() - start;
    for (int i = started; i < clients; i++) close(senders[i].fd);
    pthread_join(thread, NULL);
    for (int i = 0; i < clients; i++) close(ends[i]);
    if (failed || server.failed) return -1;
    return total / elapsed;
}

double pushdeck_bench_floor_roundtrips(const char *path, double seconds, int auto_checkpoint, int page_size) {
    return pushdeck_bench_floor_concurrent(path, seconds, auto_checkpoint, page_size, 1, 319);
}
