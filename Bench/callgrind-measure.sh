# Sourced by the callgrind scripts.

# `serve_under_callgrind LOG SERVE-ARGUMENTS…`: a private HOME ($H), then `$BIN serve
# --gateway 127.0.0.1:0 ARGUMENTS…` under callgrind, dumps to $OUT.PID, its output in LOG; waits
# (at most 2 minutes) for its gateway and sets $VPID, $PORT and $TOKEN (a provider token).
serve_under_callgrind() {
  local log=$1; shift
  H=$(mktemp -d); export HOME=$H XDG_RUNTIME_DIR=$H XDG_DATA_HOME=$H/data XDG_CONFIG_HOME=$H/config
  trap 'rm -rf "$H"' EXIT
  rm -f $OUT.*
  valgrind --tool=callgrind --callgrind-out-file=$OUT.%p $BIN serve --gateway 127.0.0.1:0 "$@" >$log 2>&1 &
  VPID=$!
  local address
  for i in $(seq 1 120); do address=$($BIN gateway 2>/dev/null) && break; sleep 1; done
  PORT=${address##*:}
  TOKEN=$($BIN gateway token)
}

# `fcm_bearer`: an access token from the server's /token for `gateway credentials fcm`'s service
# account (an RS256 assertion signed with its key by openssl), in $BEARER; its project in $PROJECT.
fcm_bearer() {
  local account=$H/account.json key=$H/key.pem email now header claims signature
  $BIN gateway credentials fcm --json > $account
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["private_key"])' $account > $key
  email=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["client_email"])' $account)
  PROJECT=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["project_id"])' $account)
  b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
  now=$(date +%s)
  header=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)
  claims=$(printf '{"iss":"%s","scope":"https://www.googleapis.com/auth/firebase.messaging","aud":"https://oauth2.googleapis.com/token","iat":%d,"exp":%d}' "$email" $now $((now + 3600)) | b64url)
  signature=$(printf '%s.%s' "$header" "$claims" | openssl dgst -sha256 -sign $key | b64url)
  BEARER=$(curl -sS --http2-prior-knowledge -d "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=$header.$claims.$signature" "http://127.0.0.1:$PORT/token" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
}

# `measure NAME COMMAND…` zeroes the counters of the server under callgrind ($VPID), runs the
# command, dumps, and prints the instructions of the dump for $N pushes ($OUT: the dump files'
# prefix, $LABEL: the run's name).
measure() {
  local name=$1; shift
  callgrind_control -z $VPID >/dev/null
  "$@"
  callgrind_control -d $VPID >/dev/null
  sleep 1
  local f=$(ls -t $OUT.* | grep -v log | head -1)
  local ir=$(grep -E "^(summary|totals):" $f | head -1 | awk '{print $2}')
  echo "$LABEL $name: $ir Ir for $N = $((ir / N)) per push ($f)"
}
