#!/usr/bin/env python3
# The cost of Getui's /auth and of JPush's Device API tag adds, against a gateway on 127.0.0.1.
#   python3 Bench/vendor-limits.py .build/debug/pushdeck auth 20000
#     N calls of /auth, one connection kept alive: the same stored body (timestamp from 2017) N
#     times, then N bodies with the current time; microseconds per call over the first and the
#     last 1 000 calls of each, how many were answered with a token, and the server's RSS.
#   python3 Bench/vendor-limits.py .build/debug/pushdeck getui 20000
#     N push/single/cid calls, each with a new request_id, one connection kept alive:
#     microseconds per call over the first and the last 1 000 (the ids kept must not slow a push).
#   python3 Bench/vendor-limits.py .build/debug/pushdeck tags 300
#     N POST /v3/devices/{id} adding 100 new tags each while a second client pings the Unix
#     socket every 2 ms: the last add's time, the worst ping (the loop's stall) and the tags kept.
import hashlib, http.client, json, os, socket, ssl, subprocess, sys, tempfile, threading, time

binary, phase, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = tempfile.mkdtemp()
sock = os.path.join(d, "s.sock")
env = dict(os.environ, XDG_DATA_HOME=os.path.join(d, "data"), XDG_CONFIG_HOME=os.path.join(d, "config"))
server = subprocess.Popen([binary, "serve", "--socket", sock, "--memory", "--gateway", "127.0.0.1:0"],
                          stderr=subprocess.DEVNULL, env=env)
def client(*args):
    return subprocess.run([binary, args[0], "--socket", sock] + list(args[1:]), capture_output=True, text=True, env=env).stdout.strip()
for _ in range(200):
    if os.path.exists(sock) and client("ping"): break
    time.sleep(0.05)
port = int(client("gateway").rsplit(":", 1)[1])
context = ssl.create_default_context(cafile=client("gateway", "ca"))
def connection():
    return http.client.HTTPSConnection("localhost", port, context=context)
def rss():
    for line in open("/proc/%d/status" % server.pid):
        if line.startswith("VmRSS:"): return int(line.split()[1]) / 1024.0
def per_call(times):
    return "first 1000: %.0f us, last 1000: %.0f us" % (1e6 * sum(times[:1000]) / len(times[:1000]), 1e6 * sum(times[-1000:]) / len(times[-1000:]))

try:
    if phase == "auth":
        app_id, app_key = "bench0000001", "benchAppKey000001"
        headers = {"Content-Type": "application/json;charset=utf-8"}
        for label in ["stored 2017 body", "current timestamp"]:
            c = connection()
            times, tokens = [], 0
            stored = "1500000000000"
            for i in range(n):
                timestamp = stored if label.startswith("stored") else str(int(time.time() * 1000))
                sign = hashlib.sha256((app_key + timestamp + "secret").encode()).hexdigest()
                body = json.dumps({"sign": sign, "timestamp": timestamp, "appkey": app_key})
                start = time.perf_counter()
                c.request("POST", "/v2/%s/auth" % app_id, body=body, headers=headers)
                reply = json.loads(c.getresponse().read())
                times.append(time.perf_counter() - start)
                tokens += reply.get("code") == 0
            print("%s x %d: %s; %d tokens handed out; RSS %.1f MiB" % (label, n, per_call(times), tokens, rss()))
    elif phase == "getui":
        app_id, app_key = "bench0000001", "benchAppKey000001"
        headers = {"Content-Type": "application/json;charset=utf-8"}
        c = connection()
        timestamp = str(int(time.time() * 1000))
        sign = hashlib.sha256((app_key + timestamp + "secret").encode()).hexdigest()
        c.request("POST", "/v2/%s/auth" % app_id, body=json.dumps({"sign": sign, "timestamp": timestamp, "appkey": app_key}), headers=headers)
        headers["token"] = json.loads(c.getresponse().read())["data"]["token"]
        times, ok = [], 0
        for i in range(n):
            body = json.dumps({"request_id": "bench-%012d" % i, "audience": {"cid": ["benchcid0001"]},
                               "push_message": {"transmission": "t%d" % i}})
            start = time.perf_counter()
            c.request("POST", "/v2/%s/push/single/cid" % app_id, body=body, headers=headers)
            reply = json.loads(c.getresponse().read())
            times.append(time.perf_counter() - start)
            ok += reply.get("code") == 0
        print("%d Getui pushes: %s; %d accepted; RSS %.1f MiB" % (n, per_call(times), ok, rss()))
    elif phase == "tags":
        import base64
        auth = "Basic " + base64.b64encode(b"benchAppKey000001:secret").decode()
        headers = {"Content-Type": "application/json", "Authorization": auth}
        c = connection()
        worst, stop = [0.0], [False]
        def pinger():
            p = socket.socket(socket.AF_UNIX); p.connect(sock); f = p.makefile("rb")
            while not stop[0]:
                start = time.perf_counter()
                p.sendall(b'{"op":"ping"}\n'); f.readline()
                worst[0] = max(worst[0], time.perf_counter() - start)
                time.sleep(0.002)
        thread = threading.Thread(target=pinger); thread.start()
        last, refused = 0.0, 0
        for i in range(n):
            body = json.dumps({"tags": {"add": ["tag%d_%d" % (i, k) for k in range(100)]}})
            start = time.perf_counter()
            c.request("POST", "/v3/devices/benchdevice0001", body=body, headers=headers)
            response = c.getresponse(); response.read()
            last = time.perf_counter() - start
            refused += response.status != 200
        stop[0] = True; thread.join()
        c.request("GET", "/v3/devices/benchdevice0001", headers=headers)
        got = c.getresponse().read()
        print("%d adds of 100 tags: last add %.1f ms, worst ping %.1f ms, %d refused; GET %d bytes, %d tags kept"
              % (n, 1e3 * last, 1e3 * worst[0], refused, len(got), len(json.loads(got)["tags"])))
finally:
    server.terminate(); server.wait()
