#!/bin/bash
# Instructions a push of a release pushdeck's loop thread alone (callgrind, one file a thread),
# under one of the bench's loads on a private HOME and SQLite file:
#   gateway   N of pushdeck-bench's 2.3 KB APNs pushes through h2load (h2c, -c4 -m32), after
#             2 000 to warm up — the run `gateway_loop_us` times;
#   socket2k  N of the same payloads piped to the socket in one stream through socat, after
#             2 000 to warm up — the run `ingest_2k_loop_us` times.
# The store's writer and checkpoint threads have files of their own (…-02, …-03): they run the
# same SQLite work whichever door the push came through. Prints the loop's instructions a push
# and the file, for `callgrind_annotate --inclusive=yes FILE`.
# Usage: Bench/callgrind-loop.sh .build/release/pushdeck LABEL gateway|socket2k [N]
set -u
BIN=$1; LABEL=$2; LOAD=$3; N=${4:-10000}
export LANG=C.UTF-8
H=$(mktemp -d); export HOME=$H XDG_RUNTIME_DIR=$H XDG_DATA_HOME=$H/data XDG_CONFIG_HOME=$H/config
# The run's files (a database of up to gigabytes) go with the script.
trap 'rm -rf "$H"' EXIT
. "$(dirname "$0")/apns-load.sh"
bench_payload $H/payload.json
OUT=/tmp/callgrind-loop-$LABEL
rm -f $OUT.*
case $LOAD in
gateway)
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file=$OUT.%p $BIN serve --gateway 127.0.0.1:0 >$H/serve.log 2>&1 &
    VPID=$!
    for i in $(seq 1 300); do address=$($BIN gateway 2>/dev/null) && break; sleep 0.2; done
    load() { apns_h2load ${address##*:} $1 $H/payload.json | grep -E "^status codes"; }
    ;;
socket2k)
    for i in $(seq 1 $N); do cat $H/payload.json; echo; done >$H/stream
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file=$OUT.%p $BIN serve >$H/serve.log 2>&1 &
    VPID=$!
    SOCK=$H/pushdeck/pushdeck.sock
    for i in $(seq 1 600); do [ -S $SOCK ] && break; sleep 0.2; done
    load() { echo "acknowledged: $(head -$1 $H/stream | socat -t60 - UNIX-CONNECT:$SOCK | grep -c '"ok":true') of $1"; }
    ;;
*) echo "usage: $0 PUSHDECK LABEL gateway|socket2k [N]" >&2; exit 2 ;;
esac
load 2000 >/dev/null
callgrind_control -z $VPID >/dev/null
load $N
callgrind_control -d $VPID >/dev/null
sleep 1
# The dump's part 1 (the one `-d` asked for); thread 1 is the loop.
f=$(ls $OUT.*.1-01)
ir=$(grep -E "^(summary|totals):" $f | head -1 | awk '{print $2}')
echo "$LABEL $LOAD: the loop's $ir instructions = $((ir / N)) a push ($f)"
kill $VPID; wait $VPID 2>/dev/null
