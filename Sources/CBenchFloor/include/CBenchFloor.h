#ifndef PUSHDECK_CBENCHFLOOR_H
#define PUSHDECK_CBENCHFLOOR_H

/// The floor of a durable push round trip on this machine, in C: one ~300-byte push at a time
/// over a Unix socket pair to a thread that commits it as one row into pushdeck's `messages`
/// schema (with its two always-on indexes) plus its app's unread and badge rows, in a WAL
/// database with synchronous=NORMAL, then answers. No JSON, no framing, no bus. SQLite's own
/// checkpoints are off unless `auto_checkpoint` is 1 (pushdeck copies its WAL back on a thread);
/// the database's pages are `page_size` bytes (pushdeck's own, for like for like).
/// `path` NULL: the socket alone. Runs for `seconds`; round trips a second, or -1 on an error
/// (written to stderr).
double pushdeck_bench_floor_roundtrips(const char *path, double seconds, int auto_checkpoint, int page_size);

/// The most connections `pushdeck_bench_floor_concurrent` takes.
#define FLOOR_MAX_CLIENTS 64

/// The same with `clients` connections, each keeping one push of `bytes` bytes in flight (as
/// an HTTP/1.1 client without pipelining does): the thread polls them, and every push ready at
/// once is committed in one transaction before any of them is answered. Pushes a second over
/// all connections, or -1 on an error.
double pushdeck_bench_floor_concurrent(const char *path, double seconds, int auto_checkpoint, int page_size, int clients, int bytes);

#endif
