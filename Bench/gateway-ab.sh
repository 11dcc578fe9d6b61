#!/bin/bash
# Two builds in turn under the bench's APNs load: for each of ROUNDS rounds, each binary's
# `pushdeck serve --gateway` on a private HOME takes N of pushdeck-bench's 2.3 KB APNs pushes
# through h2load (h2c, -c4 -m32, after 5 000 to warm up); prints its rate, its server's CPU a
# push (every thread) and its loop thread's. Run on a quiet machine; the rounds show the noise.
# Usage: Bench/gateway-ab.sh ROUNDS N BASE/.build/release/pushdeck NEW/.build/release/pushdeck
set -u
ROUNDS=$1; N=$2; shift 2
export LANG=C.UTF-8
. "$(dirname "$0")/apns-load.sh"
P=$(mktemp); bench_payload $P
trap 'rm -f "$P"' EXIT
TOKEN=$(printf 'ab%.0s' $(seq 32))
JWT='bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJl'
load() { h2load -c4 -m32 -n$2 -d $P -H 'apns-topic: com.example.bench' -H 'apns-push-type: alert' -H "authorization: $JWT" "http://$1/3/device/$TOKEN"; }
cpu() { awk '{print $14+$15}' "$1"; }   # utime + stime, in ticks of 10 ms
run() {
    local bin=$1 h pid address
    h=$(mktemp -d)
    HOME=$h XDG_RUNTIME_DIR=$h XDG_DATA_HOME=$h/data XDG_CONFIG_HOME=$h/config $bin serve --gateway 127.0.0.1:0 >$h/log 2>&1 &
    pid=$!
    for _ in $(seq 1 100); do
        address=$(HOME=$h XDG_RUNTIME_DIR=$h XDG_DATA_HOME=$h/data XDG_CONFIG_HOME=$h/config $bin gateway 2>/dev/null) && break
        sleep 0.1
    done
    load $address 5000 >/dev/null
    local all0 loop0 out all1 loop1
    all0=$(cpu /proc/$pid/stat); loop0=$(cpu /proc/$pid/task/$pid/stat)
    out=$(load $address $N)
    all1=$(cpu /proc/$pid/stat); loop1=$(cpu /proc/$pid/task/$pid/stat)
    echo "$bin: $(echo "$out" | grep -oE '[0-9.]+ req/s' | head -1), $(echo "$out" | grep -oE '[0-9]+ 2xx'); server $(python3 -c "print(round(($all1-$all0)*1e4/$N, 2))") µs a push, loop $(python3 -c "print(round(($loop1-$loop0)*1e4/$N, 2))") µs"
    kill $pid; wait $pid 2>/dev/null; rm -rf $h
}
for _ in $(seq 1 $ROUNDS); do
    for bin in "$@"; do run $bin; sleep 2; done
done
