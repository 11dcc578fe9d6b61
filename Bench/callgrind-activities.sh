#!/bin/bash
# Instructions per push (callgrind) of a release pushdeck: a Live Activity `update` against an
# alert push, both as `pushdeck-bench --only activities` sends them (h2c, h2load -c4 -m32, the
# 2.3 KB alert to one token, the updates round robin over 100 activities' tokens registered with
# `device add --kind activity`). A server under valgrind on a private HOME, each path warmed up
# (200 alerts, then 105 updates to every activity: each history is then full and lets its
# oldest entry go at every push), then N pushes of each kind, counters zeroed before and
# dumped after.
# Usage: Bench/callgrind-activities.sh .build/release/pushdeck LABEL N
# STORE=file keeps the inbox in a SQLite file, as the bench's server does (default: --memory).
set -u
BIN=$1; LABEL=$2; N=$3
export LANG=C.UTF-8
OUT=/tmp/callgrind-act-$LABEL
STOREARG=--memory; [ "${STORE:-memory}" = file ] && STOREARG=
. "$(dirname "$0")/callgrind-measure.sh"
serve_under_callgrind /tmp/cg-act-$LABEL.log $STOREARG
AUTH='authorization: bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJl'
APP=com.example.bench
ALERT=$(mktemp); python3 - > $ALERT <<'PY'
head = '{"aps":{"alert":{"title":"Bench","body":"a 2.3 KB payload, the same through the socket and the gateway"},"badge":1},"pad":"'
tail = '"}'
print(head + "x" * (2300 - len(head) - len(tail)) + tail, end="")
PY
NOW=$(date +%s)
UPDATE=$(mktemp)
printf '{"aps":{"timestamp":%d,"event":"update","content-state":{"status":"on the way","eta":8,"courier":"Ana","stop":3},"stale-date":%d,"relevance-score":50}}' $NOW $((NOW + 3600)) > $UPDATE
token() { printf 'ac%062x' $1; }
URLS=()
for i in $(seq 0 99); do
  $BIN device add $(token $i) --app $APP --kind activity > /dev/null
  URLS+=("http://127.0.0.1:$PORT/3/device/$(token $i)")
done
alerts() { h2load -c4 -m32 -n$1 -d $ALERT -H "apns-topic: $APP" -H 'apns-push-type: alert' -H "$AUTH" "http://127.0.0.1:$PORT/3/device/$(printf 'ab%.0s' $(seq 1 32))" | grep -E "^requests:|status codes"; }
updates() { h2load -c4 -m32 -n$1 -d $UPDATE -H "apns-topic: $APP.push-type.liveactivity" -H 'apns-push-type: liveactivity' -H 'apns-priority: 10' -H "$AUTH" "${URLS[@]}" | grep -E "^requests:|status codes"; }
alerts 200; updates 10500
measure alert alerts $N
measure update updates $N
$BIN activity list --json | python3 -c "import json,sys; a=json.load(sys.stdin)['activities']; print('activities', len(a), 'history', len(a[0]['history']), 'discarded', sum(x['discarded'] for x in a))"
kill $VPID; wait $VPID 2>/dev/null
rm -rf $H $ALERT $UPDATE
