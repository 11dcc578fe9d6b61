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
