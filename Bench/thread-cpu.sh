#!/bin/bash
# CPU and bytes written a push of each thread of a release `pushdeck serve` (user + kernel from
# /proc/PID/task/*/stat, bytes from its io), the cores the server and its client used, and the
# rate, under one of the bench's loads on a private HOME:
#   gateway  N of pushdeck-bench's 2.3 KB APNs pushes through h2load (h2c, -c4 -m32), after
#            20 000 to warm up;
#   socket   N of its ~300-byte pushes (the two kinds alternating) in one pipelined stream
#            through socat, after 2 000 to warm up;
#   socket2k N of its 2.3 KB pushes (the gateway's APNs payload) in the same way;
#   activities  N of its Live Activity updates round robin over 100 activities through h2load
#            (h2c, -c4 -m32), after 20 000 to warm up (each history then full: every update
#            lets its activity's oldest entry go).
# Threads go by their names ("pushdeck" is the loop, "pushdeck_writer" the store writer,
# "pushdeck_wal" the checkpoint thread); one started during the run counts from its start.
# The kernel's counters tick every 10 ms:
# run enough pushes (100 000 or more) for a figure to mean anything, and compare builds run in
# turn, for the machine's speed moves between runs.
# Usage: Bench/thread-cpu.sh .build/release/pushdeck gateway|socket|socket2k|activities [N]
set -u
BIN=$1; LOAD=$2; N=${3:-200000}
export LANG=C.UTF-8
H=$(mktemp -d); export HOME=$H XDG_RUNTIME_DIR=$H XDG_DATA_HOME=$H/data XDG_CONFIG_HOME=$H/config
# The run's files (a database of up to gigabytes) go with the script.
trap 'rm -rf "$H"' EXIT
. "$(dirname "$0")/apns-load.sh"
# utime and stime are fields 14 and 15 of /proc/…/stat, counted after the name in parentheses
# (which may hold spaces).
# wchar of /proc/…/io: the bytes the thread handed to write(2) and its kin (the WAL's frames for
# the writer, the database's pages for the checkpoint thread, the replies for the loop).
snapshot() { for t in /proc/$PID/task/*; do echo "$(basename $t) $(sed 's/.*) //' $t/stat | cut -d' ' -f12,13) $(tr ' ' _ <$t/comm) $(sed -n 's/^wchar: //p' $t/io)"; done; }

case $LOAD in
gateway)
    bench_payload $H/payload.json
    $BIN serve --gateway 127.0.0.1:0 >$H/serve.log 2>&1 &
    PID=$!
    for i in $(seq 1 100); do address=$($BIN gateway 2>/dev/null) && break; sleep 0.1; done
    load() { apns_h2load ${address##*:} $1 $H/payload.json | grep -E "^status codes"; }
    load 20000 >/dev/null
    ;;
activities)
    activity_update $H/update.json
    $BIN serve --gateway 127.0.0.1:0 >$H/serve.log 2>&1 &
    PID=$!
    for i in $(seq 1 100); do address=$($BIN gateway 2>/dev/null) && break; sleep 0.1; done
    activity_devices $BIN ${address##*:}
    load() { activity_h2load $1 $H/update.json | grep -E "^status codes"; }
    load 20000 >/dev/null
    ;;
socket|socket2k)
    python3 - $N $LOAD >$H/stream <<'PY'
import sys
for i in range(int(sys.argv[1])):
    if sys.argv[2] == "socket2k":
        print('{"aps":{"alert":{"title":"Bench","body":"a 2.3 KB payload, the same through the socket and the gateway"},"badge":1},"pad":"' + "x" * 2180 + '"}')
    elif i % 2 == 0:
        print('{"aps":{"alert":{"title":"訂單 %d 已發貨","subtitle":"官方客服","body":"您有一條新消息：訂單已發貨，點擊查看物流詳情。"},"badge":%d,"sound":"default","thread-id":"orders"},"Simulator Target Bundle":"com.example.shop","orderId":"%d"}' % (1270339 + i, i % 50, i))
    else:
        print('{"aps":{"alert":{"title":"Morning brief #%d","body":"Markets open higher; the red packet promotion ends tonight at 22:00. Tap to read the full story."},"sound":"default","category":"NEWS"},"Simulator Target Bundle":"com.example.news","storyId":"s-%d"}' % (i, i))
PY
    $BIN serve >$H/serve.log 2>&1 &
    PID=$!
    SOCK=$H/pushdeck/pushdeck.sock
    for i in $(seq 1 600); do [ -S $SOCK ] && break; sleep 0.05; done
    head -2000 $H/stream | socat -t20 - UNIX-CONNECT:$SOCK >/dev/null
    load() { echo "acknowledged: $(socat -t60 - UNIX-CONNECT:$SOCK <$H/stream | grep -c '"ok":true') of $1"; }
    ;;
*) echo "usage: $0 PUSHDECK gateway|socket|socket2k|activities [N]" >&2; exit 2 ;;
esac

snapshot >$H/before
start=$(date +%s.%N)
TIMEFORMAT="%U %S"
{ time load $N >$H/outcome; } 2>$H/client
end=$(date +%s.%N)
snapshot >$H/after
kill $PID; wait $PID 2>/dev/null
python3 - $H/before $H/after $N $start $end $H/client $H/outcome $LOAD <<'PY'
import sys
def read(path):
    return {int(f[0]): (int(f[1]), int(f[2]), f[3], int(f[4])) for f in (line.split() for line in open(path))}
before, after = read(sys.argv[1]), read(sys.argv[2])
n, wall = int(sys.argv[3]), float(sys.argv[5]) - float(sys.argv[4])
client = sum(map(float, open(sys.argv[6]).read().split()[-2:]))
tick = 100.0
rows, total = [], 0.0
for tid in sorted(after):
    start = before.get(tid, (0, 0, "", 0))
    user = (after[tid][0] - start[0]) / tick
    kernel = (after[tid][1] - start[1]) / tick
    written = after[tid][3] - start[3]
    total += user + kernel
    if user + kernel > 0:
        rows.append(f"{after[tid][2]} ({tid}): {user / n * 1e6:.1f} µs user + {kernel / n * 1e6:.1f} µs kernel, {written / n:.0f} bytes written a push")
print(f"{sys.argv[8]}: {n / wall:.0f} pushes/s ({open(sys.argv[7]).read().strip()})")
for row in rows: print("  " + row)
print(f"  server: {total / wall:.2f} cores; client: {client / wall:.2f} cores ({client / n * 1e6:.1f} µs a push)")
PY
