#!/bin/bash
# Instructions per gateway push (callgrind) of a release pushdeck with 0, 100 and 10 000 armed
# faults that match none of the pushes: a server under valgrind on a private HOME, 200 APNs
# pushes to warm up, then N APNs pushes (h2c, h2load -c4 -m1, the ~1 KB payload of
# callgrind-pushes.sh) per step, counters zeroed before and dumped after; the faults armed
# between the steps (Bench/arm-faults.py: APNs faults for other tokens, a tenth for another app).
# Usage: Bench/callgrind-faults.sh .build/release/pushdeck LABEL N  (ARM=0: the same three steps
# with no faults armed between them, the control for what the growing inbox and log cost)
set -u
BIN=$1; LABEL=$2; N=$3
R=$(cd "$(dirname "$0")/.." && pwd)
export LANG=C.UTF-8
OUT=/tmp/callgrind-faults-$LABEL
. "$(dirname "$0")/callgrind-measure.sh"
serve_under_callgrind /tmp/cgf-$LABEL.log --memory
SOCKET=$H/pushdeck/pushdeck.sock
PAY=$(mktemp); python3 - > $PAY <<'PY'
import json
print(json.dumps({"aps":{"alert":{"title":"订单通知","body":"您的订单 1270339 已发货 " + "x"*800},"badge":3,"thread-id":"orders"},"url":"https://m.example.com/trace/1270339"}, ensure_ascii=False))
PY
apns() { h2load -c4 -m1 -n$1 -d $PAY -H 'apns-topic: com.example.cg' -H "authorization: bearer $TOKEN" "http://127.0.0.1:$PORT/3/device/0123456789abcdef" | grep -E "status codes"; }
apns 200
measure() { # name
  callgrind_control -z $VPID >/dev/null
  apns $N
  callgrind_control -d $VPID >/dev/null
  sleep 1
  local f=$(ls -t $OUT.* | grep -v log | head -1)
  local ir=$(grep -E "^(summary|totals):" $f | head -1 | awk '{print $2}')
  echo "$LABEL $1: $ir Ir for $N = $((ir / N)) per push"
}
measure faults0
[ "${ARM:-1}" = 0 ] || echo "armed $(python3 $R/Bench/arm-faults.py $SOCKET 0 100)"
measure faults100
[ "${ARM:-1}" = 0 ] || echo "armed $(python3 $R/Bench/arm-faults.py $SOCKET 100 9900)"
measure faults10000
echo "fired: $($BIN requests --json | grep -c '"fault"')"
kill $VPID; wait $VPID 2>/dev/null
