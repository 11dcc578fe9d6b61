#!/bin/bash
# Instructions per push (callgrind) of a release pushdeck under the bench's pipelined socket
# ingest: a server on a private HOME and SQLite file, 2 000 of pushdeck-bench's ~300-byte
# pushes (`Payloads.apns`, the two kinds alternating) piped to its socket to warm up, then N
# more in one stream through socat, the counters zeroed before and dumped after.
# Usage: Bench/callgrind-ingest.sh .build/release/pushdeck LABEL N
set -u
BIN=$1; LABEL=$2; N=$3
export LANG=C.UTF-8
H=$(mktemp -d); export HOME=$H XDG_RUNTIME_DIR=$H XDG_DATA_HOME=$H/data XDG_CONFIG_HOME=$H/config
# The run's files (a database of up to gigabytes) go with the script.
trap 'rm -rf "$H"' EXIT
python3 - $N > $H/stream <<'PY'
import sys
for i in range(int(sys.argv[1])):
    if i % 2 == 0:
        s = '{"aps":{"alert":{"title":"訂單 %d 已發貨","subtitle":"官方客服","body":"您有一條新消息：訂單已發貨，點擊查看物流詳情。"},"badge":%d,"sound":"default","thread-id":"orders"},"Simulator Target Bundle":"com.example.shop","orderId":"%d"}' % (1270339 + i, i % 50, i)
    else:
        s = '{"aps":{"alert":{"title":"Morning brief #%d","body":"Markets open higher; the red packet promotion ends tonight at 22:00. Tap to read the full story."},"sound":"default","category":"NEWS"},"Simulator Target Bundle":"com.example.news","storyId":"s-%d"}' % (i, i)
    print(s)
PY
OUT=/tmp/callgrind-ingest-$LABEL
rm -f $OUT.*
valgrind --tool=callgrind --callgrind-out-file=$OUT.%p $BIN serve > $H/serve.log 2>&1 &
VPID=$!
SOCK=$H/pushdeck/pushdeck.sock
for i in $(seq 1 600); do [ -S $SOCK ] && break; sleep 0.2; done
head -2000 $H/stream | socat -t20 - UNIX-CONNECT:$SOCK > /dev/null
callgrind_control -z $VPID > /dev/null
acked=$(socat -t60 - UNIX-CONNECT:$SOCK < $H/stream | grep -c '"ok":true')
callgrind_control -d $VPID > /dev/null
sleep 1
f=$(ls -t $OUT.* | head -1)
ir=$(grep -E "^(summary|totals):" $f | head -1 | awk '{print $2}')
echo "$LABEL ingest: $acked of $N acknowledged; $ir Ir = $((ir / N)) per push ($f)"
kill $VPID; wait $VPID 2>/dev/null
