#!/usr/bin/env bash
# Makes the test virtualenv once: python3 -m venv, then pip install -r of the pinned requirements.
#
#   make_venv.sh [VENV [REQUIREMENTS]]
#
# VENV defaults to $PUSHDECK_TEST_VENV, else .build/venv of the package; REQUIREMENTS to
# $PUSHDECK_TEST_REQUIREMENTS, else Tests/Clients/requirements.txt. Prints VENV/bin/python on success.
#
# Every caller (parallel tests in one process, parallel test processes) takes an exclusive flock
# on VENV.lock first, so one makes the venv and the others wait for it and then find it made.
# VENV/.requirements.sha256 holds the sha256 of the requirements it was made from: a venv without
# it (a half-made one) or made from other requirements is made again from nothing
# (python3 -m venv --clear), so what is installed is exactly what the file pins.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${1:-${PUSHDECK_TEST_VENV:-$root/.build/venv}}"
requirements="${2:-${PUSHDECK_TEST_REQUIREMENTS:-$root/Tests/Clients/requirements.txt}}"

[ -r "$requirements" ] || { echo "make_venv: no requirements file at $requirements" >&2; exit 1; }
mkdir -p "$(dirname "$venv")"

exec 9>"$venv.lock"
flock 9

want="$(sha256sum "$requirements" | cut -d' ' -f1)"
stamp="$venv/.requirements.sha256"
if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "$venv/bin/python"
    exit 0
fi

echo "make_venv: making $venv from $requirements ($want)" >&2
run() {
    local output
    if ! output="$("$@" 2>&1)"; then
        echo "make_venv: '$*' failed:" >&2
        echo "$output" >&2
        exit 1
    fi
}
rm -f "$stamp"
run python3 -m venv --clear "$venv"
run "$venv/bin/pip" install --disable-pip-version-check -q -r "$requirements"
echo "$want" >"$stamp"
echo "$venv/bin/python"
