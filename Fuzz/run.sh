#!/usr/bin/env bash
# Builds pushdeck's libFuzzer targets and runs each for N seconds (default 60).
#
#   Fuzz/run.sh [seconds-per-target]
#
# Without an argument the targets share FUZZ_TOTAL_SECONDS (default 240), so adding a target
# does not lengthen CI's fuzz step.
#
# The targets are compiled with swiftc directly (-sanitize=fuzzer,address), the PushJSON, PushCore,
# PushStore, PushSystem, PushGateway and PushServer sources as separate modules, so SwiftPM never sees this folder.
# Everything built or found goes to Fuzz/build/ (ignored by git): a working corpus per target,
# seeded from Resources/, Tests/Fixtures/corpus/ and Fuzz/vectors/, and crash-* files.
# Prints executions per target and exits non-zero when any target crashed.
#
# FUZZ_SEED=N fixes libFuzzer's seed (0, the default, picks one at random): with a fresh corpus
# the same binaries then try the same inputs in the same order, so a gate (CI) passes or fails
# the same way every time. Exploring is a random-seed run, longer, by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-}"
command -v swiftc >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
# Swift's own crash handler trips a false ASan report after a trap and can hang the run.
export SWIFT_BACKTRACE=enable=no

build=Fuzz/build
mkdir -p "$build/modules"
flags=(-swift-version 6 -O -g -parse-as-library -package-name pushdeck -sanitize=fuzzer,address -I "$build/modules" -I Sources/CSQLite
       -I Sources/COpenSSL -I Sources/CNGHTTP2 -I Sources/CHTTPParser -I Sources/CXXHash)
link=()
# lld silences ~40 harmless gold warnings about __asan_check_* symbols.
if command -v ld.lld >/dev/null 2>&1; then link+=(-use-ld=lld); fi

module() { # name, then the sources
    local name="$1"; shift
    echo "fuzz: building $name"
    swiftc "${flags[@]}" -wmo -module-name "$name" -emit-module -emit-module-path "$build/modules/$name.swiftmodule" \
        -c "$@" -o "$build/$name.o"
}
# CSystem (PushSystem's glibc shims) is a C target SwiftPM builds; here: its object and a module map.
mkdir -p "$build/csystem"
printf 'module CSystem {\n    header "%s"\n    export *\n}\n' "$PWD/Sources/CSystem/include/CSystem.h" >"$build/csystem/module.modulemap"
clang -O1 -g -fsanitize=address -I Sources/CSystem/include -c Sources/CSystem/CSystem.c -o "$build/CSystem.o"
flags+=(-I "$build/csystem")
module PushJSON Sources/PushJSON/*.swift
module PushCore $(find Sources/PushCore -name '*.swift')
module PushStore Sources/PushStore/*.swift
module PushSystem $(find Sources/PushSystem -name '*.swift')
module PushGateway -enable-testing $(find Sources/PushGateway -name '*.swift')
module PushServer Sources/PushServer/*.swift

target() { # name, entry file, objects...
    local name="$1" entry="$2"; shift 2
    echo "fuzz: linking $name"
    built+=("$name")
    swiftc "${flags[@]}" "${link[@]}" -module-name "Fuzz_${name//-/_}" Fuzz/FuzzCheck.swift "$entry" "$@" -lsqlite3 \
        -o "$build/$name"
}
built=()
target framer Fuzz/FramerFuzz.swift "$build/PushJSON.o" "$build/PushCore.o"
target terminal Fuzz/TerminalFuzz.swift "$build/PushJSON.o" "$build/PushCore.o"
target json Fuzz/JSONFuzz.swift "$build/PushJSON.o" "$build/PushCore.o"
target request Fuzz/RequestFuzz.swift "$build/PushJSON.o" "$build/PushCore.o" "$build/PushStore.o" "$build/PushGateway.o" "$build/PushServer.o" "$build/PushSystem.o" "$build/CSystem.o" \
    -lssl -lcrypto -lnghttp2 -lhttp_parser -lxxhash
target http1 Fuzz/HTTP1Fuzz.swift "$build/PushJSON.o" "$build/PushCore.o" "$build/PushSystem.o" "$build/CSystem.o" "$build/PushGateway.o" -lssl -lcrypto -lnghttp2 -lhttp_parser -lxxhash
target apns Fuzz/APNsFuzz.swift "$build/PushJSON.o" "$build/PushCore.o" "$build/PushSystem.o" "$build/CSystem.o" "$build/PushGateway.o" -lssl -lcrypto -lnghttp2 -lhttp_parser -lxxhash
target fcm Fuzz/FCMFuzz.swift "$build/PushJSON.o" "$build/PushCore.o"
target vendors Fuzz/VendorFuzz.swift "$build/PushJSON.o" "$build/PushCore.o" "$build/PushSystem.o" "$build/CSystem.o" "$build/PushGateway.o" -lssl -lcrypto -lnghttp2 -lhttp_parser -lxxhash

# Seeds: every sample payload and test vector, plus the hand-written request sessions.
seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
for folder in Resources Tests/Fixtures/corpus Fuzz/vectors; do
    [ -d "$folder" ] || continue
    find "$folder" -type f \( -name '*.apns' -o -name '*.json' -o -name '*.jsonl' -o -name '*.http' \) -size -64k -print0 |
        while IFS= read -r -d '' file; do cp "$file" "$seeds/$(echo "$file" | tr '/' '_')"; done
done
echo "fuzz: $(ls "$seeds" | wc -l) seed inputs"

failed=0
summary=()
if [ -z "$seconds" ]; then seconds=$(( ${FUZZ_TOTAL_SECONDS:-240} / ${#built[@]} )); fi
for name in "${built[@]}"; do
    corpus="$build/corpus/$name"
    crashes="$build/crashes/$name"
    mkdir -p "$corpus" "$crashes"
    log="$build/$name.log"
    echo "fuzz: running $name for ${seconds}s"
    status=0
    touch "$build/$name.started"
    "$build/$name" -max_total_time="$seconds" -seed="${FUZZ_SEED:-0}" -print_final_stats=1 -timeout=10 -max_len=8192 \
        -dict=Fuzz/json.dict -artifact_prefix="$crashes/" "$corpus" "$seeds" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    runs="${runs:-$(sed -n 's/^#\([0-9]*\).*DONE.*/\1/p' "$log" | tail -1)}"
    # Crash files of earlier runs are kept for study; only new ones fail this run.
    if [ "$status" -ne 0 ] || find "$crashes" -type f -newer "$build/$name.started" | grep -q .; then
        failed=1
        summary+=("$name: CRASHED after ${runs:-?} executions (exit $status); see $log and $crashes/")
        grep -E 'fuzz invariant broken|ERROR: AddressSanitizer|Fatal error|deadly signal' "$log" | head -5 || true
    else
        summary+=("$name: ${runs:-?} executions in ${seconds}s, no crash ($(ls "$corpus" | wc -l) corpus inputs)")
    fi
done

echo "fuzz: summary"
for line in "${summary[@]}"; do echo "  $line"; done
exit "$failed"
