#!/usr/bin/python3
"""tests/daemon/daemon_grpc_listen.py — cuzkd's gRPC listener, with a real
client (python3-grpcio), no proving params needed:

  - HTTP and gRPC at once: a job submitted over HTTP shows in GetStatus's
    queues (as "circuit"), and GetStatus / /v1/status agree on the device;
  - a request over 256 MiB -> RESOURCE_EXHAUSTED, and the daemon keeps serving;
  - grpc.listen on a path that is not a socket, or that another live cuzkd
    serves -> start-up refused, naming the path;
  - TCP with daemon.auth_token: no token or a wrong one -> UNAUTHENTICATED,
    the right one -> answered;
  - TCP on port 0: the log names the port bound; with grpc.allow_from set,
    a loopback caller is answered without a token (the allowlist's
    refusals of other peers are test_netaddr's: nothing but loopback
    may be bound here).

Usage: daemon_grpc_listen.py BIN_DIR DESCRIPTOR. Every wait is bounded;
exit 77 (skip) without grpcio / protobuf.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

try:
    import grpc
    from cuzk_v1 import CuzkV1
except ImportError as e:
    print("SKIP: python3-grpcio / python3-protobuf missing (%s)" % e)
    sys.exit(77)

BIN, DESC = (os.path.abspath(a) for a in sys.argv[1:3])
CUZK, CUZKD = os.path.join(BIN, "cuzk"), os.path.join(BIN, "cuzkd")
tmp = tempfile.mkdtemp(prefix="cuzkd-grpc-listen.")
log = open(os.path.join(tmp, "daemon.log"), "ab")
daemons = []
passed = 0


def fail(msg):
    print("FAIL: " + msg)
    log.flush()
    with open(os.path.join(tmp, "daemon.log"), "rb") as f:
        print("--- daemon log (tail)\n" + "\n".join(f.read().decode(errors="replace").splitlines()[-20:]))
    print("%d passed, 1 failed" % passed)
    for d in daemons:
        if d.poll() is None:
            d.kill()
            d.wait()
    shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1)


def ok(msg):
    global passed
    passed += 1
    print("ok: " + msg)


def cuzkd(name, grpc_listen, *extra):
    """Start a cuzkd with its own journal and HTTP socket; returns (process, http socket)."""
    http_sock = os.path.join(tmp, name + ".http.sock")
    p = subprocess.Popen([CUZKD, "--socket", http_sock, "--journal", os.path.join(tmp, name + ".journal"),
                          "--params-dir", os.path.join(tmp, "params"), "--grpc-listen", grpc_listen,
                          "--set", "synthesis.threads=2", "--set", "memory.total_budget=2GiB",
                          "--set", "timeline.enabled=false"] + list(extra), stdout=log, stderr=log)
    daemons.append(p)
    return p, http_sock


def ready(p, http_sock):
    for _ in range(200):   # <= 20 s
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.connect(http_sock)
            return
        except OSError:
            if p.poll() is not None:
                fail("cuzkd exited at start-up")
            time.sleep(0.1)
    fail("cuzkd did not answer within 20 s")


def tcp_ready(p, port):
    for _ in range(200):   # <= 20 s
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if p.poll() is not None:
                fail("cuzkd exited before its gRPC port opened")
            time.sleep(0.1)
    fail("cuzkd's gRPC port %d did not open within 20 s" % port)


def refused(grpc_listen, needle, what):
    p, _ = cuzkd("refused", grpc_listen)
    try:
        rc = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        fail("%s: cuzkd did not refuse to start" % what)
    log.flush()
    text = open(os.path.join(tmp, "daemon.log"), "rb").read().decode(errors="replace")
    if rc != 1 or needle not in text.splitlines()[-1]:
        fail("%s: exit %d, last log line %s" % (what, rc, text.splitlines()[-1]))
    shutil.rmtree(os.path.join(tmp, "refused.journal"), ignore_errors=True)


def http(sock, method, path, body=None):
    cmd = ["curl", "-s", "--max-time", "20", "--unix-socket", sock, "-X", method, "http://cuzkd" + path]
    if body is not None:
        cmd += ["-H", "Content-Type: application/json", "--data-binary", body]
    return json.loads(subprocess.run(cmd, capture_output=True).stdout or b"null")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    os.makedirs(os.path.join(tmp, "params"))
    r = subprocess.run([CUZK, "setup", "--circuit", "bench:1024", "--params",
                        os.path.join(tmp, "params", "b1k.params"), "--vk", os.path.join(tmp, "b1k.vk"),
                        "--seed", "3"], capture_output=True)
    if r.returncode:
        fail("setup bench:1024: %s" % r.stderr.decode())
    gsock = os.path.join(tmp, "g", "cuzk.sock")
    a, a_http = cuzkd("a", "unix://" + gsock)
    ready(a, a_http)
    api = CuzkV1(DESC, "unix://" + gsock)

    # ---- both doors at once ---------------------------------------------------------
    job = http(a_http, "POST", "/v1/proofs", json.dumps({"kind": "circuit", "circuit": "bench:1024",
                                                        "params": "b1k", "partitions": 64}))
    if not job or "id" not in job:
        fail("HTTP submit: %s" % job)
    st = api.call("GetStatus", api.msg("GetStatusRequest"), timeout=10)
    q = {x.proof_kind: x for x in st.queues}.get("circuit")
    if not q or q.pending + q.in_progress < 1:
        fail("the HTTP job is not in GetStatus's queues: %s" % list(st.queues))
    if len(st.gpus) != len(http(a_http, "GET", "/v1/status")["devices"]):
        fail("GetStatus and /v1/status disagree on the devices")
    http(a_http, "DELETE", "/v1/proofs/" + job["id"])
    ok("HTTP and gRPC at once: the HTTP job shows in GetStatus (queue 'circuit')")

    # ---- over 256 MiB -----------------------------------------------------------------
    unlimited = grpc.insecure_channel("unix://" + gsock, options=[("grpc.max_send_message_length", -1)])
    big = api.msg("ProveRequest", submit=api.msg("SubmitProofRequest", proof_kind=1,
                                                 vanilla_proof=b"\0" * ((256 << 20) + 1)))
    stub = unlimited.unary_unary("/cuzk.v1.ProvingEngine/Prove",
                                 request_serializer=lambda m: m.SerializeToString(),
                                 response_deserializer=lambda b: b)
    try:
        stub(big, timeout=60)
        fail("a request over 256 MiB was accepted")
    except grpc.RpcError as e:
        if e.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
            fail("over 256 MiB: %s, want RESOURCE_EXHAUSTED" % e.code())
    del big
    unlimited.close()
    api.call("GetStatus", api.msg("GetStatusRequest"), timeout=10)
    ok("a request over 256 MiB -> RESOURCE_EXHAUSTED; the daemon keeps serving")

    # ---- what the socket path may hold ---------------------------------------------
    refused("unix://" + gsock, "another daemon is listening there", "a live socket")
    plain = os.path.join(tmp, "plain")
    open(plain, "w").close()
    refused("unix://" + plain, "exists and is not a socket", "a regular file")
    api.close()
    a.send_signal(signal.SIGTERM)
    if a.wait(timeout=60) != 0:
        fail("cuzkd exit status after SIGTERM")
    if os.path.exists(gsock):
        fail("the gRPC socket was not removed at shutdown")
    ok("grpc.listen refuses a live socket and a non-socket file; the socket goes at shutdown")

    # ---- TCP with a token -----------------------------------------------------------
    port = free_port()
    b, b_http = cuzkd("b", "127.0.0.1:%d" % port, "--set", "daemon.auth_token=s3cret")
    ready(b, b_http)
    tcp_ready(b, port)   # the gRPC listener starts after the HTTP socket answers
    api = CuzkV1(DESC, "127.0.0.1:%d" % port)
    for md in (None, [("authorization", "Bearer wrong")], [("authorization", "s3cret")]):
        try:
            api.call("GetStatus", api.msg("GetStatusRequest"), timeout=10, metadata=md)
            fail("TCP call with metadata %s was answered" % md)
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.UNAUTHENTICATED:
                fail("TCP, metadata %s: %s, want UNAUTHENTICATED" % (md, e.code()))
    api.call("GetStatus", api.msg("GetStatusRequest"), timeout=10,
             metadata=[("authorization", "Bearer s3cret")])
    api.close()
    b.send_signal(signal.SIGTERM)
    if b.wait(timeout=60) != 0:
        fail("cuzkd (TCP) exit status after SIGTERM")
    ok("TCP with daemon.auth_token: UNAUTHENTICATED without the right Bearer token, answered with it")

    # ---- TCP on port 0 (the port logged), grpc.allow_from ---------------------------------
    mark = os.path.getsize(os.path.join(tmp, "daemon.log"))
    c, c_http = cuzkd("c", "127.0.0.1:0", "--set", "daemon.auth_token=s3cret",
                      "--set", "grpc.allow_from=10.1.2.0/24,192.0.2.7,fd00::/8")
    ready(c, c_http)
    port = None
    for _ in range(100):   # <= 10 s
        log.flush()
        with open(os.path.join(tmp, "daemon.log"), "rb") as f:
            f.seek(mark)
            for line in f.read().decode(errors="replace").splitlines():
                if 'msg="listening" grpc=127.0.0.1:' in line:
                    port = int(line.split("grpc=127.0.0.1:")[1].split()[0])
        if port:
            break
        time.sleep(0.1)
    if not port:
        fail("grpc.listen 127.0.0.1:0: no 'listening grpc=127.0.0.1:PORT' line with the bound port")
    tcp_ready(c, port)
    api = CuzkV1(DESC, "127.0.0.1:%d" % port)
    for md in (None, [("authorization", "Bearer wrong")], [("authorization", "Bearer s3cret")]):
        api.call("GetStatus", api.msg("GetStatusRequest"), timeout=10, metadata=md)
    api.close()
    c.send_signal(signal.SIGTERM)
    if c.wait(timeout=60) != 0:
        fail("cuzkd (allow_from) exit status after SIGTERM")
    ok("grpc.listen 127.0.0.1:0 logs its bound port %d; with grpc.allow_from set, loopback calls "
       "are answered with or without the token" % port)

    # ---- a peer outside grpc.allow_from (test.grpc_peer stands in for a remote address) ----
    for peer, allowed in (("ipv4:10.1.2.77:4000", True), ("ipv6:%5Bfd00::9%5D:4000", True),
                          ("ipv4:10.1.3.77:4000", False), ("ipv6:[2001:db8::9]:4000", False)):
        d, d_http = cuzkd("d", "127.0.0.1:0", "--set", "daemon.auth_token=s3cret",
                          "--set", "grpc.allow_from=10.1.2.0/24,fd00::/8",
                          "--set", "test.grpc_peer=" + peer)
        ready(d, d_http)
        dport = None
        for _ in range(100):
            log.flush()
            with open(os.path.join(tmp, "daemon.log"), "rb") as f:
                lines = [ln for ln in f.read().decode(errors="replace").splitlines()
                         if 'msg="listening" grpc=127.0.0.1:' in ln]
            if lines:
                dport = int(lines[-1].split("grpc=127.0.0.1:")[1].split()[0])
                if dport != port:
                    break
            time.sleep(0.1)
        tcp_ready(d, dport)
        api = CuzkV1(DESC, "127.0.0.1:%d" % dport)
        for md in (None, [("authorization", "Bearer wrong")]):
            try:
                api.call("GetStatus", api.msg("GetStatusRequest"), timeout=10, metadata=md)
                if not allowed:
                    fail("peer %s (not in allow_from) was answered" % peer)
            except grpc.RpcError as e:
                if allowed:
                    fail("peer %s (in allow_from): %s %s" % (peer, e.code(), e.details()))
                if e.code() != grpc.StatusCode.PERMISSION_DENIED or peer not in e.details():
                    fail("peer %s: %s '%s', want PERMISSION_DENIED naming the peer"
                         % (peer, e.code(), e.details()))
        # the token still opens the door from anywhere
        api.call("GetStatus", api.msg("GetStatusRequest"), timeout=10,
                 metadata=[("authorization", "Bearer s3cret")])
        api.close()
        d.send_signal(signal.SIGTERM)
        if d.wait(timeout=60) != 0:
            fail("cuzkd (peer %s) exit status after SIGTERM" % peer)
        port = dport
    ok("every call's peer checked against grpc.allow_from: inside answered, outside "
       "PERMISSION_DENIED naming the peer (unless it carries the token)")


try:
    main()
except SystemExit:
    raise
except BaseException as e:
    import traceback
    traceback.print_exc()
    fail("%s: %s" % (type(e).__name__, e))
shutil.rmtree(tmp, ignore_errors=True)
print("%d passed, 0 failed" % passed)
