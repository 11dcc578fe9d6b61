"""Getui pushes for Bench/callgrind-pushes.sh: PORT COUNT PREFIX BODY.json — one /auth (no key
registered: any well-formed sign), then COUNT push/single/cid calls on one HTTP/1.1 connection,
each with its own request_id (Getui refuses a repeat). Prints how many were answered 200."""
import http.client, json, sys, time, hashlib
port, count, prefix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
app = "cgapp01"
c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
ts = str(int(time.time() * 1000))
c.request("POST", "/v2/%s/auth" % app, json.dumps({"sign": hashlib.sha256(b"x").hexdigest(), "timestamp": ts, "appkey": "k"}),
          {"content-type": "application/json"})
token = json.loads(c.getresponse().read())["data"]["token"]
body = json.load(open(sys.argv[4]))
ok = 0
for i in range(count):
    body["request_id"] = "%s-%08d" % (prefix, i)
    c.request("POST", "/v2/%s/push/single/cid" % app, json.dumps(body, ensure_ascii=False).encode(),
              {"content-type": "application/json;charset=utf-8", "token": token})
    r = c.getresponse(); r.read()
    ok += r.status == 200
print(ok)
