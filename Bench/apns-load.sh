# Sourced by the scripts that load the gateway as pushdeck-bench does.

# `bench_payload FILE`: pushdeck-bench's 2.3 KB APNs payload (`Payloads.large`), the one its
# socket and gateway figures share, written to FILE without a newline.
bench_payload() {
    python3 - >"$1" <<'PY'
head = '{"aps":{"alert":{"title":"Bench","body":"a 2.3 KB payload, the same through the socket and the gateway"},"badge":1},"pad":"'
tail = '"}'
print(head + "x" * (2300 - len(head) - len(tail)) + tail, end="")
PY
}

# `apns_h2load PORT N PAYLOAD`: N of PAYLOAD through h2load to the gateway on 127.0.0.1:PORT as
# the bench sends them (h2c, 4 connections × 32 streams, one device token, a well-formed
# provider token, which is all the gateway checks while no key is registered); h2load's
# `requests:` and `status codes:` lines.
apns_h2load() {
    h2load -c4 -m32 -n$2 -d "$3" -H 'apns-topic: com.example.bench' -H 'apns-push-type: alert' \
        -H 'authorization: bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJl' \
        "http://127.0.0.1:$1/3/device/$(printf 'ab%.0s' $(seq 32))" | grep -E "^requests:|^status codes"
}

# `activity_update FILE`: pushdeck-bench's Live Activity update (an `update` event with its
# content-state, a stale-date an hour on and a relevance score; one timestamp, so every one
# applies), written to FILE.
activity_update() {
    local now
    now=$(date +%s)
    printf '{"aps":{"timestamp":%d,"event":"update","content-state":{"status":"on the way","eta":8,"courier":"Ana","stop":3},"stale-date":%d,"relevance-score":50}}' \
        "$now" $((now + 3600)) >"$1"
}

# `activity_devices PUSHDECK PORT`: registers the bench's 100 activity push tokens with the
# server PUSHDECK talks to (`device add --kind activity`) and sets ACTIVITY_URLS to their
# gateway paths on 127.0.0.1:PORT.
activity_devices() {
    ACTIVITY_URLS=()
    local i token
    for i in $(seq 0 99); do
        token=$(printf 'ac%062x' "$i")
        "$1" device add "$token" --app com.example.bench --kind activity >/dev/null
        ACTIVITY_URLS+=("http://127.0.0.1:$2/3/device/$token")
    done
}

# `activity_h2load N UPDATE`: N of UPDATE round robin over ACTIVITY_URLS as the bench sends
# them (h2c, 4 connections × 32 streams, the app's liveactivity topic, priority 10).
activity_h2load() {
    h2load -c4 -m32 -n$1 -d "$2" -H 'apns-topic: com.example.bench.push-type.liveactivity' \
        -H 'apns-push-type: liveactivity' -H 'apns-priority: 10' \
        -H 'authorization: bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJl' \
        "${ACTIVITY_URLS[@]}" | grep -E "^requests:|^status codes"
}
