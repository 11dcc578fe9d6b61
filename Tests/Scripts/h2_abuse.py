"""HTTP/2 clients that misbehave on purpose, for the gateway's bad-input tests.

Frames are made by the `h2` / `hyperframe` libraries (pinned in .ci/run's virtualenv), never by
hand. Usage: h2_abuse.py MODE PORT [ARGUMENTS]. Prints one line: what the server did.
"""
import socket
import sys
import time

import h2.config
import h2.connection
import h2.events
from hyperframe.frame import ContinuationFrame, HeadersFrame, SettingsFrame, Frame

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def connect(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    return sock, conn


def outcome(sock, conn, seconds=5):
    """Reads until GOAWAY or close; 'goaway CODE', 'closed' or 'open'."""
    deadline = time.time() + seconds
    sock.settimeout(0.5)
    while time.time() < deadline:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            return "closed"
        if not data:
            return "closed"
        try:
            events = conn.receive_data(data)
        except Exception as error:  # the connection is already broken on our side
            return "error " + type(error).__name__
        for event in events:
            if isinstance(event, h2.events.ConnectionTerminated):
                return "goaway %d" % event.error_code
    return "open"


def headers(stream_id):
    return [(":method", "POST"), (":scheme", "http"), (":authority", "localhost"),
            (":path", "/3/device/00ff"), ("apns-topic", "a.b")]


def rapid_reset(port):
    sock, conn = connect(port)
    try:
        for index in range(600):  # past the burst of 200 resets
            stream = 1 + 2 * index
            conn.send_headers(stream, headers(stream))
            conn.reset_stream(stream)
            sock.sendall(conn.data_to_send())
    except (BrokenPipeError, ConnectionResetError):
        return "closed"
    except h2.exceptions.ProtocolError:
        pass
    return outcome(sock, conn)


def continuation_flood(port):
    sock, conn = connect(port)
    encoded = conn.encoder.encode(headers(1))
    first = HeadersFrame(1)
    first.data = encoded
    first.flags = set()
    try:
        sock.sendall(first.serialize())
        for _ in range(100):  # past the limit of 8
            more = ContinuationFrame(1)
            more.data = b""
            sock.sendall(more.serialize())
    except (BrokenPipeError, ConnectionResetError):
        return "closed"
    return outcome(sock, conn)


def settings_flood(port):
    """SETTINGS frames without ever reading the ACKs; prints how many went out."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    frame = SettingsFrame(0).serialize()
    sock.sendall(PREFACE + frame)
    sock.settimeout(3)
    sent = 0
    try:
        for _ in range(30):
            sock.sendall(frame * 1000)
            sent += 1000
    except (BrokenPipeError, ConnectionResetError, socket.timeout):
        pass
    return "sent %d" % sent


def garbage_after_preface(port):
    sock, conn = connect(port)
    sock.sendall(b"\x00\x00\x04\xff\x00\x00\x00\x00\x00" + b"junk" + b"\xde\xad\xbe\xef" * 64)
    return outcome(sock, conn)


def tls_garbage(port):
    """A good TLS handshake, then bytes that are no TLS record."""
    import ssl
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(["h2"])
    wrapped = context.wrap_socket(raw, server_hostname="localhost")
    plain = socket.socket(fileno=__import__("os").dup(wrapped.fileno()))
    plain.sendall(b"\x00garbage that is no TLS record\r\n" * 8)
    plain.settimeout(5)
    try:
        while True:
            data = plain.recv(65536)
            if not data:
                return "closed"
    except ConnectionResetError:
        return "closed"
    except socket.timeout:
        return "open"


def push_headers(stream_id, length, authorization):
    return headers(stream_id) + [("authorization", authorization), ("content-length", str(length))]


def resets_then_pushes(port, authorization):
    """300 requests each followed by RST_STREAM, then 50 pushes, all in one write (AUTHORIZATION:
    the provider token's header value). Prints the GOAWAY's last_stream_id and the streams
    answered 200, as JSON."""
    import json
    sock, conn = connect(port)
    body = b'{"aps":{"alert":"reset"}}'
    for index in range(300):
        stream = 1 + 2 * index
        conn.send_headers(stream, push_headers(stream, len(body), authorization))
        conn.send_data(stream, body, end_stream=True)
        conn.reset_stream(stream)
    pushes = []
    for index in range(50):
        stream = 601 + 2 * index
        text = ('{"aps":{"alert":"after-%d"}}' % stream).encode()
        conn.send_headers(stream, push_headers(stream, len(text), authorization))
        conn.send_data(stream, text, end_stream=True)
        pushes.append(stream)
    sock.sendall(conn.data_to_send())
    answered = {}
    last_stream_id = None
    deadline = time.time() + 5
    sock.settimeout(0.5)
    while time.time() < deadline:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            break
        if not data:
            break
        try:
            events = conn.receive_data(data)
        except Exception:
            break
        for event in events:
            if isinstance(event, h2.events.ResponseReceived):
                answered[event.stream_id] = dict(event.headers).get(":status")
            if isinstance(event, h2.events.ConnectionTerminated):
                last_stream_id = event.last_stream_id
        try:
            sock.sendall(conn.data_to_send())
        except (BrokenPipeError, ConnectionResetError):
            # The server closed after its GOAWAY; what it sent before is what counts.
            break
    ok = sorted(stream for stream, status in answered.items() if status == "200")
    return json.dumps({"last_stream_id": last_stream_id, "ok": ok})


def unfinished_bodies(port, connections, pid):
    """CONNECTIONS connections, each opening 128 streams and sending each 65 000 body bytes as
    flow control allows, never ending them. Prints, as JSON, the body bytes each connection got
    to send and the server's RSS (kB) before and while they are held."""
    import json

    def rss():
        with open("/proc/%d/status" % pid) as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return -1

    before = rss()
    opened = []
    for _ in range(connections):
        sock, conn = connect(port)
        remaining = {}
        for index in range(128):
            stream = 1 + 2 * index
            conn.send_headers(stream, headers(stream) + [("content-length", "65000")])
            remaining[stream] = 65000
        sock.sendall(conn.data_to_send())
        opened.append((sock, conn, remaining))
    sent = [0] * connections
    # Send while windows allow; read the server's frames (its WINDOW_UPDATEs) until a second
    # passes in which no connection could send anything more.
    quiet_since = time.time()
    deadline = time.time() + 20
    while time.time() - quiet_since < 1.0 and time.time() < deadline:
        progressed = False
        for number, (sock, conn, remaining) in enumerate(opened):
            for stream, left in remaining.items():
                window = min(conn.local_flow_control_window(stream), conn.max_outbound_frame_size)
                # One byte stays unsent: the stream never ends.
                count = min(window, left - 1)
                if count > 0:
                    conn.send_data(stream, b"x" * count)
                    remaining[stream] = left - count
                    sent[number] += count
                    progressed = True
            sock.sendall(conn.data_to_send())
            sock.settimeout(0.05)
            try:
                data = sock.recv(1 << 20)
                if data:
                    conn.receive_data(data)
                    sock.sendall(conn.data_to_send())
            except socket.timeout:
                pass
        if progressed:
            quiet_since = time.time()
    held = rss()
    for sock, _, _ in opened:
        sock.close()
    return json.dumps({"sent": sent, "rss_before_kb": before, "rss_held_kb": held})


def headers_for(path):
    return [(":method", "POST"), (":scheme", "http"), (":authority", "localhost"),
            (":path", path), ("apns-topic", "a.b")]


def answered(status, body):
    """The answer a trickle got before the close, as its second line."""
    if status is None:
        return ""
    return "\nanswered %s %s" % (status, body.decode("utf-8", "replace"))


def h2_trickle(port, seconds, path="/3/device/00ff"):
    """An unfinished request stream kept alive by a PING every 0.25 s: prints 'closed after S'
    (seconds since its HEADERS) or 'open' after SECONDS, then 'answered STATUS BODY' when the
    server answered the stream before it closed."""
    sock, conn = connect(port)
    conn.send_headers(1, headers_for(path) + [("content-length", "10000")])
    conn.send_data(1, b"{")
    sock.sendall(conn.data_to_send())
    started = time.time()
    sock.settimeout(0.25)
    status, body = None, b""

    def closed():
        return "closed after %.1f" % (time.time() - started) + answered(status, body)

    while time.time() - started < seconds:
        try:
            data = sock.recv(65536)
            if not data:
                return closed()
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived):
                    status = dict(event.headers).get(":status")
                elif isinstance(event, h2.events.DataReceived):
                    body += event.data
        except socket.timeout:
            pass
        except (ConnectionResetError, BrokenPipeError):
            return closed()
        try:
            conn.ping(b"12345678")
            sock.sendall(conn.data_to_send())
        except (ConnectionResetError, BrokenPipeError):
            return closed()
        except h2.exceptions.ProtocolError:
            pass  # the stream was answered (and closed) by the server: only PINGs go on
    return "open" + answered(status, body)


def http1_trickle(port, seconds, path="/3/device/00ff"):
    """An HTTP/1.1 body at one byte every 0.25 s: prints 'closed after S' or 'open' after SECONDS,
    then 'answered STATUS BODY' when the server answered before it closed."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"POST " + path.encode() + b" HTTP/1.1\r\nHost: a\r\ncontent-length: 10000\r\n\r\n")
    started = time.time()
    sock.settimeout(0.25)
    received = b""

    def closed():
        head, _, body = received.partition(b"\r\n\r\n")
        status = head.split(b" ")[1].decode() if head.startswith(b"HTTP/1.1 ") else None
        return "closed after %.1f" % (time.time() - started) + answered(status, body)

    while time.time() - started < seconds:
        try:
            data = sock.recv(65536)
            if not data:
                return closed()
            received += data
        except socket.timeout:
            pass
        except ConnectionResetError:
            return closed()
        try:
            sock.sendall(b"x")
        except (ConnectionResetError, BrokenPipeError):
            # The answer may still be in the socket's buffer.
            try:
                sock.settimeout(1)
                while True:
                    data = sock.recv(65536)
                    if not data:
                        break
                    received += data
            except (OSError, socket.timeout):
                pass
            return closed()
    return "open"


MODES = {
    "tls-garbage": tls_garbage,
    "rapid-reset": rapid_reset,
    "continuation": continuation_flood,
    "settings-flood": settings_flood,
    "garbage": garbage_after_preface,
}

WITH_ARGUMENTS = {
    "resets-then-pushes": lambda port, rest: resets_then_pushes(port, rest[0]),
    "unfinished-bodies": lambda port, rest: unfinished_bodies(port, int(rest[0]), int(rest[1])),
    "h2-trickle": lambda port, rest: h2_trickle(port, float(rest[0]), *rest[1:]),
    "http1-trickle": lambda port, rest: http1_trickle(port, float(rest[0]), *rest[1:]),
}

if __name__ == "__main__":
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode in WITH_ARGUMENTS:
        print(WITH_ARGUMENTS[mode](port, sys.argv[3:]))
    else:
        print(MODES[mode](port))
    sys.stdout.flush()
