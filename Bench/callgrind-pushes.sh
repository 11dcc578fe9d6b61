#!/bin/bash
# Instructions per push (callgrind) of a release pushdeck: a server under valgrind on a private
# HOME, every path warmed up with 200 pushes, then for N pushes each (counters zeroed before,
# dumped after): socket pushes of a ~1 KB APNs payload (`pushdeck send -`), the same payload
# through the gateway's APNs route (h2c, h2load -c4 -m1), JPush's push-registration-id-ios.json
# (HTTP/1.1, h2load --h1 -c4 -m1), Getui's single-cid-notification.json (HTTP/1.1 keep-alive,
# a fresh request_id each) and the same ~1 KB notification as an FCM messages:send to an Android
# token (its title, body, badge as notification_count and url as data; h2c, h2load -c4 -m1, a
# bearer from /token in open mode: an assertion signed with `gateway credentials fcm`'s key), so
# the FCM and APNs routes' counts compare. (Until 2026-12-04 the FCM body was pushdeck-bench's
# 4 KB message; counts from before then are not comparable with later ones.)
# Usage: Bench/callgrind-pushes.sh .build/release/pushdeck LABEL N
set -u
BIN=$1; LABEL=$2; N=$3
R=$(cd "$(dirname "$0")/.." && pwd)
export LANG=C.UTF-8
OUT=/tmp/callgrind-$LABEL
. "$(dirname "$0")/callgrind-measure.sh"
serve_under_callgrind /tmp/cg-$LABEL.log --memory
PAY=$(mktemp); python3 - > $PAY <<'PY'
import json
print(json.dumps({"aps":{"alert":{"title":"订单通知","body":"您的订单 1270339 已发货 " + "x"*800},"badge":3,"thread-id":"orders"},"url":"https://m.example.com/trace/1270339"}, ensure_ascii=False))
PY
SOCK=$(mktemp); for i in $(seq 1 $N); do cat $PAY; done > $SOCK
WARM=$(mktemp); for i in $(seq 1 200); do cat $PAY; done > $WARM
apns() { h2load -c4 -m1 -n$1 -d $PAY -H 'apns-topic: com.example.cg' -H "authorization: bearer $TOKEN" "http://127.0.0.1:$PORT/3/device/0123456789abcdef" | grep -E "^requests:|status codes"; }
jpush() { h2load --h1 -c4 -m1 -n$1 -d $R/Resources/gateway/jpush/push-registration-id-ios.json -H 'content-type: application/json' -H 'authorization: Basic YmVuY2hhcHBrZXk6YmVuY2hzZWNyZXQ=' "http://127.0.0.1:$PORT/v3/push" | grep -E "^requests:|status codes"; }
FCMBODY=$(mktemp); python3 - > $FCMBODY <<'PY'
import json
print(json.dumps({"message":{"token":"bench:APA91b-bench_token","notification":{"title":"订单通知","body":"您的订单 1270339 已发货 " + "x"*800},"android":{"notification":{"notification_count":3}},"data":{"url":"https://m.example.com/trace/1270339"}}}, ensure_ascii=False))
PY
fcm_bearer
fcm() { h2load -c4 -m1 -n$1 -d $FCMBODY -H 'content-type: application/json' -H "authorization: Bearer $BEARER" "http://127.0.0.1:$PORT/v1/projects/$PROJECT/messages:send" | grep -E "^requests:|status codes"; }
# warm up every path
$BIN send - < $WARM > /dev/null; apns 200; jpush 200; python3 $R/Bench/callgrind-getui.py $PORT 200 warm $R/Resources/gateway/getui/single-cid-notification.json; fcm 200
measure socket sh -c "$BIN send - < $SOCK > /dev/null"
measure apns-h2c apns $N
measure jpush-h1 jpush $N
measure fcm-h2c fcm $N
measure getui-h1 python3 $R/Bench/callgrind-getui.py $PORT $N m $R/Resources/gateway/getui/single-cid-notification.json
$BIN list --json | python3 -c "import json,sys; print('listed', len(json.load(sys.stdin)))"
kill $VPID; wait $VPID 2>/dev/null
