#!/bin/bash
# What the request log costs in memory: a release `pushdeck serve --gateway` on a private HOME,
# its VmRSS after 10 000 APNs pushes through the gateway (pushdeck-bench's 2.3 KB payload, h2c,
# h2load -c4 -m32), after 100 000 more (the log then holds its 100 000 records) and after
# 100 000 more again (the log full, wrapping: nothing more should be kept). Bytes a record: the
# growth between the first two over the 90 000 records added. Then the time `pushdeck requests
# --json` takes to read the whole log back.
# Usage: Bench/request-log-rss.sh .build/release/pushdeck LABEL
set -u
BIN=$1; LABEL=$2
export LANG=C.UTF-8
H=$(mktemp -d); export HOME=$H XDG_RUNTIME_DIR=$H XDG_DATA_HOME=$H/data XDG_CONFIG_HOME=$H/config
# The run's files (a database of up to gigabytes) go with the script.
trap 'rm -rf "$H"' EXIT
$BIN serve --gateway 127.0.0.1:0 >$H/serve.log 2>&1 &
SPID=$!
for i in $(seq 1 60); do A=$($BIN gateway 2>/dev/null) && break; sleep 0.5; done
PORT=${A##*:}
. "$(dirname "$0")/apns-load.sh"
bench_payload $H/payload.json
send() { apns_h2load $PORT $1 $H/payload.json | grep -E "^requests:"; }
rss() { awk '/VmRSS/{print $2}' /proc/$SPID/status; }
echo "$LABEL start: $(rss) kB"
send 10000; R1=$(rss); echo "$LABEL after 10 000 pushes: $R1 kB"
send 100000; R2=$(rss); echo "$LABEL after 110 000 pushes: $R2 kB"
send 100000; R3=$(rss); echo "$LABEL after 210 000 pushes: $R3 kB"
echo "$LABEL bytes a record: $(( (R2 - R1) * 1024 / 90000 )) (10 000 → 110 000 pushes, 90 000 records more in the log)"
echo "$LABEL the full log wrapping (110 000 → 210 000 pushes): $(( R3 - R2 )) kB"
S=$(date +%s%N); $BIN requests --json > $H/requests.json; E=$(date +%s%N)
echo "$LABEL requests --json: $(( (E - S) / 1000000 )) ms for $(wc -l < $H/requests.json) records"
kill $SPID; wait $SPID 2>/dev/null
rm -rf $H
