#!/bin/bash
# Instructions per frame (callgrind) of a release `pushdeck ui`: the UI under valgrind in a
# detached 200×60 tmux over DB, counting only inside TerminalUI.turnEnded (the whole frame:
# what to reload, render, diff, curses), then End and Home in turn, N keys, each frame waited
# for, as pushdeck-bench's frame phases press them. Run pushdeck-bench --only ui --keep first:
# its big.sqlite is the 1 000 000-message inbox with the 20 Live Activities.
# Usage: Bench/callgrind-frames.sh .build/release/pushdeck LABEL DB N
set -u
BIN=$(realpath "$1"); LABEL=$2; DB=$3; N=$4
W=$(mktemp -d)
# The run's files (a database of up to gigabytes) go with the script.
trap 'rm -rf "$W"' EXIT
cp "$DB" $W/inbox.sqlite
OUT=/tmp/callgrind-frames-$LABEL
rm -f $OUT.*
SYMBOL='$s10PushUIHost10TerminalUIC9turnEnded6server3nowy0A6Server0I0C_0A4Core7InstantVtF'
T="tmux -L cgframes-$$ -f /dev/null"
$T new-session -d -x 200 -y 60 -s ui env LANG=C.UTF-8 LC_ALL=C.UTF-8 PUSHDECK_TRACE=$W/trace \
  valgrind --tool=callgrind --toggle-collect="$SYMBOL" --callgrind-out-file=$OUT.%p \
  $BIN ui --socket $W/ui.sock --db $W/inbox.sqlite
frames() { grep -c '^frame ' $W/trace 2>/dev/null || echo 0; }
for i in $(seq 1 240); do grep -q first-frame $W/trace 2>/dev/null && break; sleep 0.5; done
VPID=$(pgrep -f "valgrind.bin .*callgrind-out-file=$OUT" | head -1)
sleep 2
callgrind_control -z $VPID >/dev/null
before=$(frames)
for i in $(seq 1 $N); do
  if [ $((i % 2)) = 1 ]; then key=End; else key=Home; fi
  $T send-keys -t ui $key
  for j in $(seq 1 200); do [ $(frames) -ge $((before + i)) ] && break; sleep 0.05; done
done
callgrind_control -d $VPID >/dev/null
sleep 1
drawn=$(( $(frames) - before ))
f=$(ls -t $OUT.* | head -1)
# The calls of turnEnded itself (its protocol thunk's callee), from the dump's call records.
calls=$(python3 - "$f" "$SYMBOL" <<'PY'
import re, sys
names, callee, total = {}, None, 0
for line in open(sys.argv[1]):
    match = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
    if match:
        if match.group(3): names[match.group(2)] = match.group(3).strip()
        callee = names.get(match.group(2)) if match.group(1) == "cfn" else None
    elif line.startswith("calls=") and callee == sys.argv[2]:
        total += int(line.split("=")[1].split()[0])
print(total)
PY
)
ir=$(grep -E "^(summary|totals):" $f | head -1 | awk '{print $2}')
echo "$LABEL: $ir Ir in $calls turns ($drawn frames drawn for $N keys) = $((ir / calls)) per turn ($f)"
$T kill-server
rm -rf $W
