"""Faults for Bench/callgrind-faults.sh: SOCKET FROM COUNT — arms COUNT faults that match none of
the bench's requests, on one socket connection (the `fault` op, one line each, each reply read):
APNs faults for tokens nobody sends to, and every tenth one for an app nobody pushes to. Prints
how many were armed."""
import json, socket, sys
path, start, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(path)
reader = s.makefile("rb")
armed = 0
for i in range(start, start + count):
    fault = {"op": "fault", "action": "add", "vendor": "apns", "status": 500}
    if i % 10 == 9:
        fault["app"] = "com.example.never%d" % i
    else:
        fault["token"] = "ffff%x" % i
    s.sendall((json.dumps(fault) + "\n").encode())
    reply = json.loads(reader.readline())
    armed += "error" not in reply
print(armed)
