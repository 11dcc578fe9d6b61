#!/usr/bin/env python3
"""One client's replies cannot take the server's memory, by hand: 1 000 messages of ~4 KB, one
client sends 64 x list limit 1000 and never reads; prints the server's RSS before and at most,
and the slowest ping of another client.
Usage: python3 Bench/reply-budget.py .build/release/pushdeck (standard library only)."""
import socket, subprocess, sys, time, os, tempfile, json
binary = sys.argv[1]
d = tempfile.mkdtemp(prefix="hsb")
sock = d + "/s.sock"
p = subprocess.Popen([binary, "serve", "--socket", sock, "--db", d + "/i.sqlite"], stderr=subprocess.DEVNULL)
for _ in range(200):
    if os.path.exists(sock): break
    time.sleep(0.02)
time.sleep(0.2)
def rss():
    for line in open(f"/proc/{p.pid}/status"):
        if line.startswith("VmRSS:"): return int(line.split()[1]) // 1024
c = socket.socket(socket.AF_UNIX); c.connect(sock)
body = "m" * 3900
c.sendall("".join(json.dumps({"aps": {"alert": {"title": f"n{i}", "body": body}}, "Simulator Target Bundle": "com.example.a"}) + "\n" for i in range(1000)).encode())
f = c.makefile("rb")
for i in range(1000): f.readline()
before = rss()
hog = socket.socket(socket.AF_UNIX); hog.connect(sock)
hog.sendall(b'{"op":"list","limit":1000}\n' * 64)
o = socket.socket(socket.AF_UNIX); o.connect(sock); of = o.makefile("rb")
worst = 0; peak = 0
for i in range(50):
    t = time.time(); o.sendall(b'{"op":"ping"}\n'); of.readline(); worst = max(worst, time.time() - t)
    peak = max(peak, rss()); time.sleep(0.02)
print(f"RSS {before} MB before, peak {peak} MB; worst ping {worst*1000:.1f} ms (first included)")
p.terminate(); p.wait()
