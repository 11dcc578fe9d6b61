#!/bin/bash
# Instructions per push (callgrind) of a release pushdeck's FCM send against its APNs push, with
# pushdeck-bench's own bodies and load shape: FCM messages:send of `Payloads.largeFCM` (the 2.3 KB
# notification to an Android token, 2 397 bytes) and the APNs push of `Payloads.large` (2 300
# bytes), each h2c through h2load -c4 -m32 (as the bench), a bearer from /token in open mode.
# A server under valgrind on a private HOME and --memory store, 300 of each first to warm up, then
# N FCM, N APNs and N FCM again (counters zeroed before, dumped after each).
# Usage: Bench/callgrind-fcm.sh .build/release/pushdeck LABEL N
set -u
BIN=$1; LABEL=$2; N=$3
export LANG=C.UTF-8
OUT=/tmp/callgrind-$LABEL
. "$(dirname "$0")/callgrind-measure.sh"
serve_under_callgrind /tmp/cg-$LABEL.log --memory
BODY='a 2.3 KB payload, the same through the socket and the gateway'
HEAD="{\"aps\":{\"alert\":{\"title\":\"Bench\",\"body\":\"$BODY\"},\"badge\":1},\"pad\":\""
PAD=$(python3 -c 'import sys; print("x" * (2300 - len(sys.argv[1]) - 2))' "$HEAD")
PAY=$H/apns.json; printf '%s%s"}' "$HEAD" "$PAD" > $PAY
FCMBODY=$H/fcm.json
printf '{"message":{"token":"bench:APA91b-bench_token","notification":{"title":"Bench","body":"%s"},"android":{"notification":{"notification_count":1}},"data":{"pad":"%s"}}}' "$BODY" "$PAD" > $FCMBODY
fcm_bearer
fcm() { h2load -c4 -m32 -n$1 -d $FCMBODY -H 'content-type: application/json' -H "authorization: Bearer $BEARER" "http://127.0.0.1:$PORT/v1/projects/$PROJECT/messages:send" | grep -E "^requests:|status codes"; }
apns() { h2load -c4 -m32 -n$1 -d $PAY -H 'apns-topic: com.example.cg' -H 'apns-push-type: alert' -H "authorization: bearer $TOKEN" "http://127.0.0.1:$PORT/3/device/abababababababababababababababababababababababababababababababab" | grep -E "^requests:|status codes"; }
fcm 300; apns 300
measure fcm fcm $N
measure apns apns $N
measure fcm-again fcm $N
kill $VPID; wait $VPID 2>/dev/null
