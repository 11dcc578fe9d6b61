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
. "$(dirname "$0")/apns-load.sh"
ALERT=$(mktemp); bench_payload $ALERT
UPDATE=$(mktemp); activity_update $UPDATE
activity_devices $BIN $PORT
alerts() { apns_h2load $PORT $1 $ALERT; }
updates() { activity_h2load $1 $UPDATE; }
alerts 200; updates 10500
measure alert alerts $N
measure update updates $N
$BIN activity list --json | python3 -c "import json,sys; a=json.load(sys.stdin)['activities']; print('activities', len(a), 'history', len(a[0]['history']), 'discarded', sum(x['discarded'] for x in a))"
kill $VPID; wait $VPID 2>/dev/null
rm -rf $H $ALERT $UPDATE
