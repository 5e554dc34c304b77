#!/usr/bin/python3
"""tests/daemon/daemon_grpc.py — cuzkd as Curio's proving daemon, driven by
a real gRPC client (python3-grpcio) on a temporary unix socket, with
requests shaped exactly like Curio's (lib/ffi/cuzk_funcs.go PoRepSnarkCuzk:
request_id "porep-MINER-SECTOR", the C1 wrapper JSON with base64 Phase1Out,
sector_size, registered_proof, miner_id, sector_number, priority NORMAL):

  - SubmitProof POREP_SEAL_COMMIT of a 2KiB sector's C1, kill -9 while it
    proves, restart, Prove with the same request_id -> COMPLETED on the
    same job, 192 bytes, verified with `cuzk verify --kind porep-c2`; the
    HTTP API sees the job (the one proof this test computes);
  - a retry with the same request_id returns the same proof at once;
  - malformed wrapper / base64 / C1 / wrong sector size -> FAILED naming the
    field; a tampered C1 -> FAILED by the native check; unparsable protobuf
    -> INVALID_ARGUMENT; a snap request without its commitments -> FAILED
    naming comm_r_old (PoSt and snap: daemon_grpc_kinds.py); the daemon
    keeps serving;
  - GetStatus / GetMetrics answer; EvictSRS / PreloadSRS;
  - SubmitProof + CancelProof + AwaitProof -> CANCELLED; a Prove whose
    deadline passes with an AwaitProof also waiting -> the job keeps
    running; with nobody else waiting -> its job is canceled.

Usage: daemon_grpc.py BIN_DIR DESCRIPTOR PARAMS_DIR. Every wait is bounded.
Exit 77 (skip) without grpcio / protobuf or without the 2KiB params.
"""
import base64
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

BIN, DESC, PARAMS = (os.path.abspath(a) for a in sys.argv[1:4])
CUZK, CUZKD = os.path.join(BIN, "cuzk"), os.path.join(BIN, "cuzkd")
C2_NAME = ("v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
           "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f")
if not os.path.exists(os.path.join(PARAMS, C2_NAME + ".params")):
    print("SKIP: no 2KiB PoRep params in %s (copy /work/cache/c2-params there, or run "
          "the cli_porep test once)" % PARAMS)
    sys.exit(77)

tmp = tempfile.mkdtemp(prefix="cuzkd-grpc.")
sock = os.path.join(tmp, "run", "cuzk.sock")   # run/ does not exist: cuzkd creates it
http_sock = os.path.join(tmp, "http.sock")
log = open(os.path.join(tmp, "daemon.log"), "ab")
daemon = None
passed = 0
SECTOR_2K = 2048
MINER = 1000
PROVE_TIMEOUT = 480   # s; one 2KiB proof took 51-370 s here, on 2 cores shared with other builds
RSP_2K_V1_1 = 5   # RegisteredSealProof StackedDrg2KiBV1_1 (filecoin-ffi / go-state-types abi)


def fail(msg):
    print("FAIL: " + msg)
    log.flush()
    with open(os.path.join(tmp, "daemon.log"), "rb") as f:
        lines = [l for l in f.read().decode(errors="replace").splitlines() if "TIMELINE" not in l]
    print("--- daemon log (tail)\n" + "\n".join(lines[-25:]))
    print("%d passed, 1 failed" % passed)
    stop(kill=True)
    shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1)


def ok(msg):
    global passed
    passed += 1
    print("ok: " + msg)


def start():
    global daemon
    daemon = subprocess.Popen(
        [CUZKD, "--socket", http_sock, "--journal", os.path.join(tmp, "journal"),
         "--params-dir", PARAMS, "--grpc-listen", "unix://" + sock,
         "--set", "synthesis.threads=2", "--set", "memory.total_budget=6GiB",
         "--set", "timeline.file=" + os.path.join(tmp, "timeline.log"),
         "--set", "devices.workers_per_device=1",
         # seeded TEST params under the Filecoin names: not the published bytes
         "--set", "params.check=false"],
        stdout=log, stderr=log)
    for _ in range(200):   # <= 20 s; a stale socket left by kill -9 refuses until cuzkd replaced it
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                probe.connect(sock)
            return
        except OSError:
            pass
        if daemon.poll() is not None:
            fail("cuzkd exited at start-up")
        time.sleep(0.1)
    fail("cuzkd did not create %s within 20 s" % sock)


def stop(kill=False):
    global daemon
    if daemon is None:
        return
    if daemon.poll() is None:
        daemon.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            rc = daemon.wait(timeout=30)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
            daemon = None
            fail("cuzkd did not stop within 30 s of SIGTERM")
        if not kill and rc != 0:
            daemon = None
            fail("cuzkd exit status %d after SIGTERM" % rc)
    daemon = None


def http(path):
    out = subprocess.run(["curl", "-s", "--max-time", "20", "--unix-socket", http_sock,
                          "http://cuzkd" + path], capture_output=True)
    return json.loads(out.stdout or b"null")


def run(*args):
    return subprocess.run(list(args), capture_output=True, cwd=tmp)


# ---- the C1 of a 2KiB test sector, wrapped as Curio does -------------------------
def prover_id(miner):
    """The prover_id of a miner actor id: its ID address payload, unsigned LEB128, zero padded."""
    out = bytearray()
    while True:
        b = miner & 0x7f
        miner >>= 7
        out.append(b | (0x80 if miner else 0))
        if not miner:
            return (bytes(out) + bytes(32 - len(out))).hex()


def gen_c1(name, random_seed, sector):
    """The C1 of 2KiB test sector |sector| of miner MINER (its replica_id is theirs)."""
    path = os.path.join(tmp, name)
    r = run(CUZK, "porep", "gen-c1", "--sector-size", "2KiB", "--random", str(random_seed),
            "--prover-id", prover_id(MINER), "--sector-id", str(sector), "-o", path)
    if r.returncode:
        fail("gen-c1: " + r.stderr.decode())
    return path, open(path, "rb").read()


def wrapper(c1_bytes, sector, size=SECTOR_2K):
    # Go: json.Marshal(c1OutputWrapper{SectorNum, Phase1Out []byte, SectorSize})
    return json.dumps({"SectorNum": sector, "Phase1Out": base64.b64encode(c1_bytes).decode(),
                       "SectorSize": size}, separators=(",", ":")).encode()


def porep_request(api, vanilla, sector, size=SECTOR_2K, request_id=None):
    return api.msg("SubmitProofRequest",
                   request_id=request_id if request_id is not None else "porep-%d-%d" % (MINER, sector),
                   proof_kind=api.enum("ProofKind", "POREP_SEAL_COMMIT"), sector_size=size,
                   registered_proof=RSP_2K_V1_1, priority=api.enum("Priority", "NORMAL"),
                   vanilla_proof=vanilla, sector_number=sector, miner_id=MINER)


def prove(api, submit, timeout=300):
    return api.call("Prove", api.msg("ProveRequest", submit=submit), timeout=timeout).result


def verify(c1_path, proof, name):
    pf = os.path.join(tmp, name)
    open(pf, "wb").write(proof)
    r = run(CUZK, "verify", "--kind", "porep-c2", "--params-dir", PARAMS, "--proof", pf, "--c1", c1_path)
    if r.returncode != 0:
        fail("%s does not verify (exit %d): %s" % (name, r.returncode, r.stderr.decode()))


def expect_failed(api, submit, needle, what):
    t0 = time.time()
    res = prove(api, submit, timeout=PROVE_TIMEOUT)
    if res.status != S().FAILED:
        fail("%s: status %s, want FAILED" % (what, S().Status.Name(res.status)))
    if needle not in res.error_message:
        fail("%s: error_message '%s' does not say '%s'" % (what, res.error_message, needle))
    if len(res.proof):
        fail("%s: a FAILED answer carries a proof" % what)
    return time.time() - t0


def main():
    global api
    start()
    api = CuzkV1(DESC, "unix://" + sock)
    mode = os.stat(sock).st_mode & 0o777
    if mode != 0o660:
        fail("socket mode %o, want 660" % mode)
    ok("cuzkd created the socket's directory and the socket (mode 0660)")
    c1s = {n: gen_c1("c1-%d.json" % n, 1, n) for n in (7, 8, 20, 21)}
    c1_path, c1 = c1s[7]

    # ---- bad requests: FAILED naming the field, and the daemon keeps serving ----------
    expect_failed(api, porep_request(api, b"{not json", 8), "vanilla_proof: not JSON", "bad wrapper JSON")
    expect_failed(api, porep_request(api, b'{"SectorNum":8,"SectorSize":2048}', 8),
                  "vanilla_proof.Phase1Out: missing", "wrapper without Phase1Out")
    w = wrapper(c1s[8][1], 8)
    at = w.index(b'"Phase1Out":"') + len(b'"Phase1Out":"')
    bad64 = w[:at] + b"#" + w[at + 1:]   # same length, one character outside the alphabet
    expect_failed(api, porep_request(api, bad64, 8),
                  "vanilla_proof.Phase1Out: not base64: '#' (0x23) at offset 0", "bad base64")
    expect_failed(api, porep_request(api, wrapper(c1s[8][1], 9), 8), "vanilla_proof.SectorNum: 9",
                  "SectorNum mismatch")
    big = 32 << 30
    expect_failed(api, porep_request(api, wrapper(c1s[8][1], 8, big), 8, big),
                  "sector_size: the request says", "a 2KiB C1 sent as 32GiB")
    broken = json.loads(c1s[8][1])
    del broken["comm_r"]
    expect_failed(api, porep_request(api, wrapper(json.dumps(broken).encode(), 8), 8), "comm_r",
                  "C1 without comm_r (bad JSON path)")
    tampered = json.loads(c1s[8][1])
    tampered["comm_r"][0] ^= 1
    secs = expect_failed(api, porep_request(api, wrapper(json.dumps(tampered).encode(), 8), 8),
                         "comm_r != H(comm_c, comm_r_last)", "tampered C1 (the native check)")
    # the C1 of sector 7 sent as sector 8 (wrapper and fields agree), or for another miner,
    # or under another registered_proof: named before any work
    expect_failed(api, porep_request(api, wrapper(c1s[7][1], 8), 8, request_id="porep-1000-8-c1-of-7"),
                  "miner_id 1000, sector_number 8: the C1 is not of this sector",
                  "the C1 of another sector")
    other = api.msg("SubmitProofRequest", request_id="porep-1001-7",
                    proof_kind=api.enum("ProofKind", "POREP_SEAL_COMMIT"), sector_size=SECTOR_2K,
                    registered_proof=RSP_2K_V1_1, vanilla_proof=wrapper(c1s[7][1], 7),
                    sector_number=7, miner_id=MINER + 1)
    expect_failed(api, other, "miner_id 1001, sector_number 7: the C1 is not of this sector",
                  "the C1 of another miner")
    synth = api.msg("SubmitProofRequest", request_id="porep-1000-7-synth",
                    proof_kind=api.enum("ProofKind", "POREP_SEAL_COMMIT"), sector_size=SECTOR_2K,
                    registered_proof=RSP_2K_V1_1 + 5, vanilla_proof=wrapper(c1s[7][1], 7),
                    sector_number=7, miner_id=MINER)
    expect_failed(api, synth, "registered_proof: 10 (StackedDrg2KiBV1_1_Feat_SyntheticPoRep), but "
                  "the C1 is StackedDrg2KiBV1_1 (5)", "another registered_proof than the C1's")
    snap = api.msg("SubmitProofRequest", request_id="snap-1000-8",
                   proof_kind=api.enum("ProofKind", "SNAP_DEALS_UPDATE"), sector_size=SECTOR_2K,
                   vanilla_proofs=[b"\x00" * 64], sector_number=8, miner_id=MINER)
    expect_failed(api, snap, "comm_r_old: missing", "snap request without its commitments")
    for method, payload, code in (("Prove", b"\x0a\xff\xff\xff\xff\x0f", grpc.StatusCode.INVALID_ARGUMENT),
                                  ("NoSuchMethod", b"", grpc.StatusCode.UNIMPLEMENTED)):
        try:
            api.call_raw(method, payload, timeout=10)
            fail("%s %r was answered" % (method, payload))
        except grpc.RpcError as e:
            if e.code() != code:
                fail("%s %r: %s, want %s" % (method, payload, e.code(), code))
    ok("malformed wrapper / base64 / C1, wrong sector size, tampered C1 (%.1f s), a snap "
       "request without commitments -> FAILED naming the problem; bad protobuf -> "
       "INVALID_ARGUMENT" % secs)

    # ---- status, metrics, params -----------------------------------------------------
    pre = api.call("PreloadSRS", api.msg("PreloadSrsRequest", circuit_id="porep-2k"), timeout=300)
    pre2 = api.call("PreloadSRS", api.msg("PreloadSrsRequest", circuit_id="porep-2k"), timeout=60)
    if pre.already_loaded or not pre2.already_loaded:
        fail("PreloadSRS: first %s, second %s" % (pre, pre2))
    st = api.call("GetStatus", api.msg("GetStatusRequest"), timeout=10)
    queues = {q.proof_kind: q for q in st.queues}
    if "POREP_SEAL_COMMIT" not in queues or st.total_proofs_failed < 1 or not st.gpus:
        fail("GetStatus: %s" % st)
    if not any(x.circuit_id.startswith(C2_NAME) and x.size_bytes > 0 for x in st.loaded_srs):
        fail("GetStatus does not list the loaded 2KiB params: %s" % list(st.loaded_srs))
    text = api.call("GetMetrics", api.msg("GetMetricsRequest"), timeout=10).prometheus_text
    if "# TYPE" not in text or 'cuzk_jobs{state="failed"}' not in text:
        fail("GetMetrics is not the Prometheus text of /metrics: %s" % text[:300])
    ev = api.call("EvictSRS", api.msg("EvictSrsRequest", circuit_id="porep-2k"), timeout=30)
    if not ev.was_loaded or ev.freed_bytes == 0:
        fail("EvictSRS porep-2k: %s" % ev)
    ev2 = api.call("EvictSRS", api.msg("EvictSrsRequest", circuit_id="porep-2k"), timeout=30)
    if ev2.was_loaded:
        fail("EvictSRS of params not loaded: %s" % ev2)
    ok("PreloadSRS porep-2k (load %d ms, then already loaded), GetStatus (%d queues, %d failed, "
       "uptime %d s), GetMetrics, EvictSRS" % (pre.load_time_ms, len(st.queues), st.total_proofs_failed,
                                               st.uptime_seconds))

    # ---- cancel, deadlines -----------------------------------------------------------
    sub = api.call("SubmitProof", porep_request(api, wrapper(c1s[20][1], 20), 20), timeout=60)
    api.call("CancelProof", api.msg("CancelProofRequest", job_id=sub.job_id), timeout=10)
    aw = api.call("AwaitProof", api.msg("AwaitProofRequest", job_id=sub.job_id, timeout_ms=60000),
                  timeout=90)
    if aw.status != S().CANCELLED:
        fail("SubmitProof + CancelProof + AwaitProof: %s, want CANCELLED" % S().Status.Name(aw.status))
    ok("SubmitProof + CancelProof + AwaitProof -> CANCELLED")

    # ---- kill -9 between submit and completion, restart, Prove -> COMPLETED ----------
    # (the one proof this test runs: 2KiB, one partition)
    sub = api.call("SubmitProof", porep_request(api, wrapper(c1s[7][1], 7), 7), timeout=60)
    for _ in range(1200):   # <= 120 s (the first job loads the 1 GiB params)
        if http("/v1/proofs/" + sub.job_id).get("state") == "running":
            break
        time.sleep(0.1)
    else:
        fail("job %s never ran" % sub.job_id)
    api.close()
    stop(kill=True)
    if not os.path.exists(os.path.join(tmp, "journal", sub.job_id + ".job")):
        fail("the submitted job is not journaled")
    start()
    api = CuzkV1(DESC, "unix://" + sock)
    # deadlines: a Prove whose deadline passes while an AwaitProof also waits
    # leaves the job running; one with nobody else waiting cancels its job
    # (this one queued behind the recovered job, so the cancel lands at once)
    waiter = api.future("AwaitProof", api.msg("AwaitProofRequest", job_id=sub.job_id),
                        timeout=PROVE_TIMEOUT)
    time.sleep(0.3)   # the AwaitProof waits before the Prove's deadline passes
    expire(api, porep_request(api, wrapper(c1s[7][1], 7), 7))
    time.sleep(2)
    state = http("/v1/proofs/" + sub.job_id).get("state")
    if state not in ("queued", "running"):
        fail("a job another call waits on did not keep running after a Prove's deadline: %s" % state)
    expire(api, porep_request(api, wrapper(c1s[21][1], 21), 21))
    wait_state("porep-1000-21", "canceled", 90)
    ok("an expired Prove cancels its job unless another call waits on it")
    t0 = time.time()
    res = prove(api, porep_request(api, wrapper(c1s[7][1], 7), 7), timeout=PROVE_TIMEOUT)
    first_s = time.time() - t0
    if res.status != S().COMPLETED or res.job_id != sub.job_id:
        fail("after kill -9 + restart: %s job %s (submitted %s) %s" % (
            S().Status.Name(res.status), res.job_id, sub.job_id, res.error_message))
    if len(res.proof) != 192:
        fail("Prove: %d proof bytes, want 192 (one 2KiB partition)" % len(res.proof))
    verify(c1_path, res.proof, "proof7.bin")
    aw = waiter.result()
    if aw.status != S().COMPLETED or aw.proof != res.proof:
        fail("the AwaitProof on the same job: %s" % S().Status.Name(aw.status))
    job = http("/v1/proofs/" + res.job_id)
    if not job or job.get("state") != "done" or job.get("request_id") != "porep-1000-7":
        fail("the HTTP API does not see the gRPC job: %s" % job)
    ok("SubmitProof, kill -9 while it runs, restart, Prove with the same request_id -> COMPLETED, "
       "job %s, 192 bytes, verifies (cuzk verify); HTTP sees it (%.1f s, total_ms %d)"
       % (res.job_id, first_s, res.total_ms))

    # ---- the same request_id again: the same proof at once --------------------------
    t0 = time.time()
    again = prove(api, porep_request(api, wrapper(c1s[7][1], 7), 7), timeout=60)
    if again.status != S().COMPLETED or again.proof != res.proof or again.job_id != res.job_id:
        fail("retry: %s job %s (first %s), same proof %s" % (
            S().Status.Name(again.status), again.job_id, res.job_id, again.proof == res.proof))
    if time.time() - t0 > 5:
        fail("retry took %.1f s: proved again?" % (time.time() - t0))
    ok("retry with the same request_id -> the same job and proof, at once")

    st = api.call("GetStatus", api.msg("GetStatusRequest"), timeout=10)
    if st.total_proofs_completed < 1:
        fail("GetStatus after the proof: %s" % st)
    ok("GetStatus counts the completed proof")
    api.close()
    stop()


def S():
    return api.cls("AwaitProofResponse")


def expire(api, submit):
    """A Prove whose 1 s deadline passes."""
    try:
        prove(api, submit, timeout=1.0)
        fail("a 1 s deadline did not expire")
    except grpc.RpcError as e:
        if e.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
            fail("deadline: %s" % e.code())


def wait_state(request_id, state, seconds):
    jobs = []
    for _ in range(seconds * 10):
        jobs = [j for j in http("/v1/proofs")["jobs"] if j.get("request_id") == request_id]
        if jobs and jobs[0]["state"] == state:
            return
        time.sleep(0.1)
    fail("job of %s not %s within %d s: %s" % (request_id, state, seconds, jobs))


api = None
try:
    main()
except SystemExit:
    raise
except BaseException as e:   # a client error is a failure, with the daemon's log; never a leak
    import traceback
    traceback.print_exc()
    fail("%s: %s" % (type(e).__name__, e))
shutil.rmtree(tmp, ignore_errors=True)
print("%d passed, 0 failed" % passed)
