#!/usr/bin/env python3
"""CPU time a push by the team bus, of each process: set up as `pushdeck-bench --only bus` does
(a private mosquitto with the bench's configuration on loopback, instance B owning the device and
a socket subscriber of B's `remote.received` events, instance A's gateway), then h2load's
`-c4 -m32 -nN` pushes of the bench's payload to A's gateway for B's token, until B has committed
every push and A's outbox is empty. Prints, for A, B, mosquitto and h2load, the user and system
CPU time a push (`/proc/PID/stat` utime and stime; h2load's from its rusage), and the rate.
With --broker it measures the broker alone instead: mosquitto_pub -q 1 -l → mosquitto_sub -q 1,
N messages of 640 bytes, the CPU time a message of each of the three. With --local the token is
registered on A itself: the same pushes stay on A (A's cost of a push without the bus).

Usage: Bench/bus-cpu.py .build/release/pushdeck [-n 20000] [--rounds 1] [--broker] [--local]
       [--wrap 'valgrind --tool=callgrind --callgrind-out-file=FILE']  (A under callgrind: its
       instructions, `callgrind_annotate FILE | head`, over the pushes divided by -n)
       [--keep PID-FILE]  (writes the PIDs of A, B and mosquitto, then waits for Enter before
       the pushes: for `perf record -p` or `strace -c -p` of each)
"""
import argparse, json, os, pwd, resource, shutil, socket, subprocess, sys, tempfile, time

TOKEN = "b0b0" + "cd" * 30
APP = "com.example.bench"
AUTH = ("bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ."
        "eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJl")
PAYLOAD = '{"aps":{"alert":{"title":"bus bench","body":"a push by the team bus"},"badge":1}}'
TICK = os.sysconf("SC_CLK_TCK")


def cpu(pid):
    """User and system seconds of a live process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK


def request(path, line, timeout=10):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(timeout)
    s.connect(path)
    s.sendall(line.encode() + b"\n")
    data = b""
    while not data.endswith(b"\n"):
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    return data.decode()


def wait_for(what, condition, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if condition():
                return
        except OSError:
            pass
        time.sleep(0.02)
    sys.exit(f"gave up waiting for {what}")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_broker(folder):
    port = free_port()
    log = folder + "/mosquitto.log"
    conf = folder + "/mosquitto.conf"
    with open(conf, "w") as f:
        f.write(f"""user {pwd.getpwuid(os.getuid()).pw_name}
listener {port} 127.0.0.1
allow_anonymous true
log_dest file {log}
log_type error
log_type subscribe
max_queued_messages 100000
max_inflight_messages 100
set_tcp_nodelay true
""")
    broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for("mosquitto", lambda: socket.create_connection(("127.0.0.1", port), 1).close() or True)
    return broker, port, log


def broker_alone(args, folder):
    broker, port, log = start_broker(folder)
    lines = folder + "/baseline.txt"
    with open(lines, "w") as f:
        f.write(("x" * 639 + "\n") * args.n)
    try:
        for _ in range(args.rounds):
            topic = "bench/baseline"
            sub = subprocess.Popen(["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-q", "1", "-t", topic,
                                    "-C", str(args.n), "-W", "60", "-i", "bench-sub"], stdout=subprocess.DEVNULL)
            wait_for("mosquitto_sub", lambda: f"bench-sub 1 {topic}" in open(log).read())
            b0 = cpu(broker.pid)
            start = time.time()
            with open(lines) as stdin:
                pub = subprocess.Popen(["/usr/bin/mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-q", "1", "-t", topic,
                                        "-l", "-i", "bench-pub"], stdin=stdin)
            _, _, sub_usage = os.wait4(sub.pid, 0)
            elapsed = time.time() - start
            _, _, pub_usage = os.wait4(pub.pid, 0)
            b1 = cpu(broker.pid)
            us = lambda s: s * 1e6 / args.n
            print(f"broker alone: {args.n / elapsed:8.0f} msgs/s | µs a message, user+sys: "
                  f"mosquitto {us(b1[0]-b0[0]):5.1f}+{us(b1[1]-b0[1]):5.1f}  "
                  f"pub {us(pub_usage.ru_utime):5.1f}+{us(pub_usage.ru_stime):5.1f}  "
                  f"sub {us(sub_usage.ru_utime):5.1f}+{us(sub_usage.ru_stime):5.1f}  "
                  f"all {us(b1[0]-b0[0]+b1[1]-b0[1]+pub_usage.ru_utime+pub_usage.ru_stime+sub_usage.ru_utime+sub_usage.ru_stime):6.1f}")
    finally:
        broker.terminate()
        broker.wait()


def bus(args, folder):
    binary = os.path.abspath(args.binary)
    broker, port, _ = start_broker(folder)
    url = f"mqtt://127.0.0.1:{port}"
    env = dict(os.environ, LANG="C.UTF-8", HOME=folder, XDG_RUNTIME_DIR=folder)
    procs = []
    try:
        b_sock, a_sock = folder + "/b.sock", folder + "/a.sock"
        b = subprocess.Popen([binary, "serve", "--mqtt", url, "--mqtt-id", "b", "--socket", b_sock, "--db", folder + "/b.sqlite"],
                             env=dict(env, XDG_DATA_HOME=folder + "/bdata"), stderr=open(folder + "/b.log", "w"))
        procs.append(b)
        wait_for("b", lambda: os.path.exists(b_sock) and request(b_sock, '{"op":"bus"}'))
        if not args.local:
            request(b_sock, json.dumps({"op": "device", "action": "add", "token": TOKEN, "app": APP}))
        wrap = args.wrap.split() if args.wrap else []
        a = subprocess.Popen(wrap + [binary, "serve", "--gateway", "127.0.0.1:0", "--mqtt", url, "--mqtt-id", "a", "--socket", a_sock,
                              "--db", folder + "/a.sqlite"],
                             env=dict(env, XDG_DATA_HOME=folder + "/adata"), stderr=open(folder + "/a.log", "w"))
        procs.append(a)
        if args.local:
            # The same push to a device of A's own: A's floor, without the bus's part.
            wait_for("a", lambda: os.path.exists(a_sock) and '"bus":"bus connected"' in request(a_sock, '{"op":"bus"}'))
            request(a_sock, json.dumps({"op": "device", "action": "add", "token": TOKEN, "app": APP}))
            b_sock = a_sock
        else:
            wait_for("a to see b's device", lambda: os.path.exists(a_sock) and (
                lambda r: '"bus":"bus connected"' in r and TOKEN in r)(request(a_sock, '{"op":"bus"}')))
        gateway = request(a_sock, '{"op":"gateway"}')
        gport = gateway.split("127.0.0.1:")[1].split('"')[0]
        payload = folder + "/payload.json"
        with open(payload, "w") as f:
            f.write(PAYLOAD)
        if args.keep:
            with open(args.keep, "w") as f:
                f.write(f"{a.pid} {b.pid} {broker.pid}\n")
            print(f"A {a.pid}  B {b.pid}  mosquitto {broker.pid}; Enter to push", flush=True)
            sys.stdin.readline()
        for _ in range(args.rounds):
            events = socket.socket(socket.AF_UNIX)
            events.settimeout(60)
            events.connect(b_sock)
            events.sendall(b'{"op":"subscribe","topics":["remote.received"]}\n')
            buffered = b""
            while b"\n" not in buffered:
                buffered += events.recv(65536)
            buffered = buffered.split(b"\n", 1)[1]
            before = {name: cpu(p.pid) for name, p in (("A", a), ("B", b), ("mosquitto", broker))}
            start = time.time()
            h2 = subprocess.Popen(["h2load", "-c4", "-m32", f"-n{args.n}", "-d", payload, "-H", f"apns-topic: {APP}",
                                   "-H", "apns-push-type: alert", "-H", f"authorization: {AUTH}",
                                   f"http://127.0.0.1:{gport}/3/device/{TOKEN}"], stdout=subprocess.PIPE, text=True)
            seen = buffered.count(b"\n")
            while seen < args.n:
                chunk = events.recv(1 << 20)
                if not chunk:
                    sys.exit("b closed the event subscription")
                seen += chunk.count(b"\n")
            committed = time.time() - start
            _, status, h2_usage = os.wait4(h2.pid, 0)
            out = h2.stdout.read()
            if f"{args.n} succeeded, 0 failed" not in out:
                sys.exit("h2load: " + out)
            wait_for("a's outbox to empty", lambda: '"outbox":0,' in request(a_sock, '{"op":"bus"}'), 60)
            after = {name: cpu(p.pid) for name, p in (("A", a), ("B", b), ("mosquitto", broker))}
            events.close()
            us = lambda s: s * 1e6 / args.n
            parts = []
            total = 0
            for name in ("A", "B", "mosquitto"):
                user = after[name][0] - before[name][0]
                system = after[name][1] - before[name][1]
                total += user + system
                parts.append(f"{name} {us(user):5.1f}+{us(system):5.1f}")
            total += h2_usage.ru_utime + h2_usage.ru_stime
            parts.append(f"h2load {us(h2_usage.ru_utime):4.1f}+{us(h2_usage.ru_stime):4.1f}")
            load = open("/proc/loadavg").read().split()[0]
            print(f"bus: {args.n / committed:7.0f} pushes/s | µs a push, user+sys: " + "  ".join(parts)
                  + f"  all {us(total):6.1f} | load {load}", flush=True)
    finally:
        for p in procs:
            p.terminate()
            p.wait()
        broker.terminate()
        broker.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=".build/release/pushdeck")
    parser.add_argument("-n", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--broker", action="store_true")
    parser.add_argument("--local", action="store_true", help="the token registered on A: the same pushes without the bus")
    parser.add_argument("--keep")
    parser.add_argument("--wrap", help="a command A runs under, e.g. 'valgrind --tool=callgrind --callgrind-out-file=a.out'")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bus-cpu.")
    try:
        broker_alone(args, folder) if args.broker else bus(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


main()
