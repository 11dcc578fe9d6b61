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
H=$(mktemp -d); export HOME=$H XDG_RUNTIME_DIR=$H XDG_DATA_HOME=$H/data XDG_CONFIG_HOME=$H/config
OUT=/tmp/callgrind-$LABEL
rm -f $OUT.*
valgrind --tool=callgrind --callgrind-out-file=$OUT.%p $BIN serve --gateway 127.0.0.1:0 --memory >/tmp/cg-$LABEL.log 2>&1 &
VPID=$!
for i in $(seq 1 120); do A=$($BIN gateway 2>/dev/null) && break; sleep 1; done
PORT=${A##*:}
TOKEN=$($BIN gateway token)
BODY='a 2.3 KB payload, the same through the socket and the gateway'
HEAD="{\"aps\":{\"alert\":{\"title\":\"Bench\",\"body\":\"$BODY\"},\"badge\":1},\"pad\":\""
PAD=$(python3 -c 'import sys; print("x" * (2300 - len(sys.argv[1]) - 2))' "$HEAD")
PAY=$H/apns.json; printf '%s%s"}' "$HEAD" "$PAD" > $PAY
FCMBODY=$H/fcm.json
printf '{"message":{"token":"bench:APA91b-bench_token","notification":{"title":"Bench","body":"%s"},"android":{"notification":{"notification_count":1}},"data":{"pad":"%s"}}}' "$BODY" "$PAD" > $FCMBODY
ACCOUNT=$H/account.json; $BIN gateway credentials fcm --json > $ACCOUNT
KEY=$H/key.pem; python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["private_key"])' $ACCOUNT > $KEY
EMAIL=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["client_email"])' $ACCOUNT)
PROJECT=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["project_id"])' $ACCOUNT)
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
NOW=$(date +%s)
JWTH=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)
JWTC=$(printf '{"iss":"%s","scope":"https://www.googleapis.com/auth/firebase.messaging","aud":"https://oauth2.googleapis.com/token","iat":%d,"exp":%d}' "$EMAIL" $NOW $((NOW + 3600)) | b64url)
JWTS=$(printf '%s.%s' "$JWTH" "$JWTC" | openssl dgst -sha256 -sign $KEY | b64url)
BEARER=$(curl -sS --http2-prior-knowledge -d "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=$JWTH.$JWTC.$JWTS" "http://127.0.0.1:$PORT/token" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
fcm() { h2load -c4 -m32 -n$1 -d $FCMBODY -H 'content-type: application/json' -H "authorization: Bearer $BEARER" "http://127.0.0.1:$PORT/v1/projects/$PROJECT/messages:send" | grep -E "^requests:|status codes"; }
apns() { h2load -c4 -m32 -n$1 -d $PAY -H 'apns-topic: com.example.cg' -H 'apns-push-type: alert' -H "authorization: bearer $TOKEN" "http://127.0.0.1:$PORT/3/device/abababababababababababababababababababababababababababababababab" | grep -E "^requests:|status codes"; }
fcm 300; apns 300
. "$(dirname "$0")/callgrind-measure.sh"
measure fcm fcm $N
measure apns apns $N
measure fcm-again fcm $N
kill $VPID; wait $VPID 2>/dev/null
