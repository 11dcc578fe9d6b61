#!/bin/bash
# How long each thread of a release `pushdeck serve` spends in SQLite's checkpoints and in
# fdatasync(2) over one second of the bench's 2.3 KB socket load (N pushes piped through socat
# with 256 KiB blocks, after 2 000 to warm up; the second starts as the load does): the calls,
# their total time and the slowest. The store writer should spend little there: its commits are
# what every reply waits for, and the checkpoint thread ("pushdeck wal") exists so that they do
# not wait for a checkpoint's syncs. Past `Checkpointer.writerBytes` of WAL the writer
# checkpoints itself; under a sustained load this shows how often, and what it costs.
# Needs root and perf's uprobes (`perf probe -x` on libsqlite3 and libc); the probes it adds are
# removed at the end. Prints the load's rate too.
# Usage: Bench/checkpoint-stalls.sh .build/release/pushdeck [N]
set -u
BIN=$1; N=${2:-200000}
export LANG=C.UTF-8
H=$(mktemp -d); export HOME=$H XDG_RUNTIME_DIR=$H XDG_DATA_HOME=$H/data XDG_CONFIG_HOME=$H/config
SQLITE=$(ldd "$BIN" | awk '$1 ~ /^libsqlite3\.so/ {print $3}')
LIBC=$(ldd "$BIN" | awk '$1 ~ /^libc\.so/ {print $3}')
# perf names a return probe EVENT__return.
PROBES=(probe_pdstall:checkpoint probe_pdstall:checkpoint__return probe_pdstall:fdatasync probe_pdstall:fdatasync__return)
cleanup() {
    perf probe -q -d 'probe_pdstall:*' 2>/dev/null
    rm -rf "$H"
}
trap cleanup EXIT
perf probe -q -x "$SQLITE" --add 'probe_pdstall:checkpoint=sqlite3_wal_checkpoint_v2' &&
    perf probe -q -x "$SQLITE" --add 'probe_pdstall:checkpoint=sqlite3_wal_checkpoint_v2%return' &&
    perf probe -q -x "$LIBC" --add 'probe_pdstall:fdatasync=fdatasync' &&
    perf probe -q -x "$LIBC" --add 'probe_pdstall:fdatasync=fdatasync%return' ||
    { echo "$0: perf probe failed (root and uprobes are needed)" >&2; exit 1; }

python3 - $N >$H/stream <<'PY'
import sys
for i in range(int(sys.argv[1])):
    print('{"aps":{"alert":{"title":"Bench","body":"a 2.3 KB payload, the same through the socket and the gateway"},"badge":1},"pad":"' + "x" * 2180 + '"}')
PY
$BIN serve >$H/serve.log 2>&1 &
PID=$!
SOCK=$H/pushdeck/pushdeck.sock
for i in $(seq 1 600); do [ -S $SOCK ] && break; sleep 0.05; done
head -2000 $H/stream | socat -b 262144 -t20 - UNIX-CONNECT:$SOCK >/dev/null
events=(); for p in "${PROBES[@]}"; do events+=(-e "$p"); done
perf record -q "${events[@]}" -p $PID -o $H/probes.data -- sleep 1 >/dev/null 2>&1 &
RECORD=$!
start=$(date +%s.%N)
acknowledged=$(socat -b 262144 -t60 - UNIX-CONNECT:$SOCK <$H/stream | grep -c '"ok":true')
end=$(date +%s.%N)
wait $RECORD
kill $PID; wait $PID 2>/dev/null
echo "socket2k: $(python3 -c "print(round($N / ($end - $start)))") pushes/s ($acknowledged of $N acknowledged)"
perf script -i $H/probes.data -F comm,tid,time,event 2>/dev/null | python3 -c '
import collections, sys
started, spans = {}, collections.defaultdict(list)
for line in sys.stdin:
    fields = line.split()
    if len(fields) < 4: continue
    event, time = fields[-1].rstrip(":").split(":")[-1], float(fields[-2].rstrip(":"))
    thread = " ".join(fields[:-2])
    call = event.removesuffix("__return")
    if event.endswith("__return"):
        if (thread, call) in started: spans[(thread, call)].append(time - started.pop((thread, call)))
    else:
        started[(thread, call)] = time
for (thread, call), times in sorted(spans.items()):
    print(f"  {thread}: {call} {len(times)} calls, {sum(times) * 1e3:.0f} ms in all, the slowest {max(times) * 1e3:.1f} ms")
'
