#!/usr/bin/env python3
# The loop stall a long held queue could cause: with the app terminated, 10 000 delivered APNs
# messages and N held pass-through ones, read then delete the 10 000 ids while a second client pings
# every 5 ms; prints both request times and the worst ping (the loop's stall).
#   python3 Bench/held-queue-stall.py .build/release/pushdeck 60000
import json, os, socket, subprocess, sys, tempfile, time, threading
binary, held_n = sys.argv[1], int(sys.argv[2])
d = tempfile.mkdtemp()
sock = os.path.join(d, "s.sock")
server = subprocess.Popen([binary, "serve", "--socket", sock, "--db", os.path.join(d, "inbox.sqlite")], stderr=subprocess.DEVNULL)
for _ in range(200):
    if os.path.exists(sock): break
    time.sleep(0.05)
time.sleep(0.2)
def connect():
    s = socket.socket(socket.AF_UNIX); s.connect(sock); return s, s.makefile("rb")
c, f = connect()
def req(obj):
    c.sendall((json.dumps(obj) + "\n").encode()); return json.loads(f.readline())
def pipeline(lines):
    for i in range(0, len(lines), 1000):
        chunk = lines[i:i+1000]
        c.sendall(("\n".join(chunk) + "\n").encode())
        for _ in chunk: f.readline()
req({"op": "app", "state": "terminated"})
pipeline(['{"aps":{"alert":"a%d"},"Simulator Target Bundle":"com.a"}' % i for i in range(10000)])
pipeline(['{"taskId":"t","msgId":"m%d","payload":"p%d","appId":"com.h"}' % (i, i) for i in range(held_n)])
ids = list(range(1, 10001))
# A second client pings every 5 ms while the read runs: the worst ping is the loop's stall.
worst = [0.0]; stop = [False]
def pinger():
    p, pf = connect()
    while not stop[0]:
        t = time.monotonic(); p.sendall(b'{"op":"ping"}\n'); pf.readline()
        worst[0] = max(worst[0], time.monotonic() - t); time.sleep(0.005)
th = threading.Thread(target=pinger); th.start(); time.sleep(0.1)
t = time.monotonic(); r = req({"op": "read", "ids": ids}); read_s = time.monotonic() - t
t = time.monotonic(); r2 = req({"op": "delete", "ids": ids}); del_s = time.monotonic() - t
time.sleep(0.1); stop[0] = True; th.join()
print("held=%d read(10000 ids)=%.3fs delete(10000 ids)=%.3fs worst ping=%.3fs ok=%s/%s" % (held_n, read_s, del_s, worst[0], r.get("ok"), r2.get("ok")))
server.terminate(); server.wait()
