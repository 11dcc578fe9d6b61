# Sourced by the callgrind scripts: `measure NAME COMMAND…` zeroes the counters of the server
# under callgrind ($VPID), runs the command, dumps, and prints the instructions of the dump for
# $N pushes ($OUT: the dump files' prefix, $LABEL: the run's name).
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
