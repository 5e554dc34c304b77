#!/usr/bin/python3
"""tests/daemon/daemon_grpc_kinds.py — WinningPoSt, WindowPoSt and SnapDeals
through cuzkd's gRPC door (cuzk.v1), driven by a real gRPC client
(python3-grpcio), with SubmitProofRequests shaped as Curio fills them:

  PoSt (curio extern/cuzk cuzk-core prover.rs prove_winning_post /
  prove_window_post): registered_proof (abi.RegisteredPoStProof), miner_id,
  randomness (32 bytes), partition_index, vanilla_proofs = one bincode
  FallbackPoStSectorProof per sector (`cuzk post gen-vanilla` writes them);
  snap (curio lib/ffi/cuzk_funcs.go, the PSProve path computeSnap):
  registered_proof (abi.RegisteredUpdateProof), sector_size 0,
  vanilla_proofs = one bincode PartitionProof per partition (`cuzk snap
  gen-vanilla`), comm_r_old / comm_r_new / comm_d_new as 32 raw bytes (as
  ProveUpdateCuzk and PSProve send them; CIDv1 bytes are taken too).

  - Prove WINNING_POST -> COMPLETED, 192 bytes, verified with `cuzk verify
    --kind winning-post` from the public values;
  - SubmitProof SNAP_DEALS_UPDATE and WINDOW_POST_PARTITION, kill -9, restart,
    Prove with the same request_ids -> COMPLETED on the same (journaled,
    replayed) jobs; both proofs verify (`cuzk verify --kind window-post /
    snap`);
  - a retry returns the same proof at once; CIDv1 commitments are taken;
  - tampered requests (wrong randomness, wrong comm_r_new, missing
    vanilla_proofs, wrong registered_proof, ...) -> Prove FAILED and
    SubmitProof INVALID_ARGUMENT, the message naming the field; the daemon
    keeps serving;
  - PreloadSRS / EvictSRS "winning-2k", "wpost-2k", "snap-2k"; GetStatus
    lists the three queues and counts the proofs.

Usage: daemon_grpc_kinds.py BIN_DIR DESCRIPTOR POST_PARAMS SNAP_PARAMS: the
2KiB test params (seed 7, Filecoin names) are made into the two cache
directories when missing (shared with daemon_post / cli_post and cli_snap).
Every wait is bounded. Exit 77 (skip) without grpcio / protobuf.
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

BIN, DESC, POST_CACHE, SNAP_CACHE = (os.path.abspath(a) for a in sys.argv[1:5])
CUZK, CUZKD = os.path.join(BIN, "cuzk"), os.path.join(BIN, "cuzkd")
SNAP_NAME = ("v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
             "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194")
POST_NAMES = {   # 2KiB, kinds/post/post.h (parameters.json)
    "winning": "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
               "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e",
    "window": "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
              "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0",
}
PROVE_TIMEOUT = 900   # s; a 2KiB snap proof (1.7M constraints) on 2 shared cores

tmp = tempfile.mkdtemp(prefix="cuzkd-grpc-kinds.")
sock = os.path.join(tmp, "cuzk.sock")
http_sock = os.path.join(tmp, "http.sock")
params = os.path.join(tmp, "params")
log = open(os.path.join(tmp, "daemon.log"), "ab")
daemon = None
api = None
passed = 0


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


def run(*args):
    return subprocess.run(list(args), capture_output=True, cwd=tmp)


def start(*extra):
    global daemon
    daemon = subprocess.Popen(
        [CUZKD, "--socket", http_sock, "--journal", os.path.join(tmp, "journal"),
         "--params-dir", params, "--grpc-listen", "unix://" + sock,
         "--set", "synthesis.threads=2", "--set", "memory.total_budget=6GiB",
         "--set", "devices.workers_per_device=1",
         # seeded TEST params under the Filecoin names: not the published bytes
         "--set", "params.check=false", *extra],
        stdout=log, stderr=log)
    for _ in range(200):   # <= 20 s
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


# ---- the 2KiB test params (made once into the caches) and the inputs -----------------
def ensure_params():
    os.makedirs(params)
    for kind, name in POST_NAMES.items():
        if not os.path.exists(os.path.join(POST_CACHE, name + ".params")):
            os.makedirs(POST_CACHE, exist_ok=True)
            r = run(CUZK, "setup", "--kind", kind + "-post", "--sector-size", "2KiB",
                    "--params-dir", POST_CACHE, "--seed", "7")
            if r.returncode:
                fail("setup %s-post: %s" % (kind, r.stderr.decode()))
        for ext in (".params", ".vk"):
            os.symlink(os.path.join(POST_CACHE, name + ext), os.path.join(params, name + ext))
    if not os.path.exists(os.path.join(SNAP_CACHE, SNAP_NAME + ".vk")):
        os.makedirs(SNAP_CACHE, exist_ok=True)
        t0 = time.time()
        r = run(CUZK, "setup", "--kind", "snap", "--sector-size", "2KiB", "--params-dir", SNAP_CACHE,
                "--seed", "7")
        if r.returncode:
            fail("setup snap: %s" % r.stderr.decode())
        print("note: made the 2KiB snap params in %.0f s" % (time.time() - t0))
    for ext in (".params", ".vk"):
        os.symlink(os.path.join(SNAP_CACHE, SNAP_NAME + ext), os.path.join(params, SNAP_NAME + ext))


def gen(what, *args):
    path = os.path.join(tmp, what + ".json")
    r = run(CUZK, *args, "-o", path)
    if r.returncode:
        fail("%s: %s" % (" ".join(args), r.stderr.decode()))
    return path, json.load(open(path))


def post_request(kind, j, request_id, **change):
    f = dict(request_id=request_id,
             proof_kind=api.enum("ProofKind", "WINNING_POST" if kind == "winning"
                                 else "WINDOW_POST_PARTITION"),
             registered_proof=j["registered_proof_abi"], miner_id=j["miner_id"],
             randomness=bytes.fromhex(j["randomness"]), partition_index=j["partition_index"],
             vanilla_proofs=[bytes.fromhex(v) for v in j["vanilla_proofs"]])
    f.update(change)
    return api.msg("SubmitProofRequest", **f)


def curio_id(kind, j, taskid=None):
    """The request_id exactly as Curio's request builders form it (curio lib/ffi/cuzk_funcs.go,
    tasks/proofshare/task_prove.go; Go's %d prints a []byte as "[b0 b1 ...]")."""
    r8 = bytes.fromhex(j["randomness"])[:8] if "randomness" in j else b""
    if kind == "window":
        return "wdpost-%d-%d-[%s]" % (j["miner_id"], j["partition_index"],
                                       " ".join(str(b) for b in r8))
    if kind == "winning":
        return "winpost-%d-%s" % (j["miner_id"], r8.hex())
    if kind == "snap":
        return ("ps-snap-1000-5-%d" % taskid) if taskid is not None else "snap-1000-5"
    raise ValueError(kind)


def snap_request(j, request_id, **change):
    f = dict(request_id=request_id, proof_kind=api.enum("ProofKind", "SNAP_DEALS_UPDATE"),
             registered_proof=j["registered_proof"], priority=api.enum("Priority", "NORMAL"),
             vanilla_proofs=[base64.b64decode(v) for v in j["vanilla_proofs"]],
             sector_number=5, miner_id=1000,
             comm_r_old=bytes.fromhex(j["comm_r_old"]), comm_r_new=bytes.fromhex(j["comm_r_new"]),
             comm_d_new=bytes.fromhex(j["comm_d_new"]))
    f.update(change)
    return api.msg("SubmitProofRequest", **f)


def cid(digest, unsealed):
    """CIDv1 bytes (go-fil-commcid): sealed 0xf102 / poseidon 0xb401, unsealed 0xf101 / 0x1012."""
    head = bytes([0x01, 0x81, 0xe2, 0x03, 0x92, 0x20]) if unsealed else \
        bytes([0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02])
    return head + bytes([32]) + digest


def S():
    return api.cls("AwaitProofResponse")


def prove(submit, timeout=PROVE_TIMEOUT):
    return api.call("Prove", api.msg("ProveRequest", submit=submit), timeout=timeout).result


def verify(kind, input_path, proof, name):
    pf = os.path.join(tmp, name)
    open(pf, "wb").write(proof)
    r = run(CUZK, "verify", "--kind", kind, "--params-dir", params, "--proof", pf,
            "--input", input_path)
    if r.returncode != 0:
        fail("%s does not verify (exit %d): %s" % (name, r.returncode, r.stderr.decode()))


def refused(submit, needle, what):
    """Prove -> FAILED and SubmitProof -> INVALID_ARGUMENT, both naming |needle|."""
    res = prove(submit, timeout=120)
    if res.status != S().FAILED or needle not in res.error_message or len(res.proof):
        fail("%s: Prove %s '%s', want FAILED saying '%s'" % (
            what, S().Status.Name(res.status), res.error_message, needle))
    try:
        api.call("SubmitProof", submit, timeout=120)
        fail("%s: SubmitProof accepted it" % what)
    except grpc.RpcError as e:
        if e.code() != grpc.StatusCode.INVALID_ARGUMENT or needle not in e.details():
            fail("%s: SubmitProof %s '%s', want INVALID_ARGUMENT saying '%s'" % (
                what, e.code(), e.details(), needle))


def completed(res, what, nbytes=192):
    if res.status != S().COMPLETED:
        fail("%s: %s %s" % (what, S().Status.Name(res.status), res.error_message))
    if len(res.proof) != nbytes:
        fail("%s: %d proof bytes, want %d" % (what, len(res.proof), nbytes))


def main():
    global api
    ensure_params()
    win_path, win = gen("winning", "post", "gen-vanilla", "--kind", "winning", "--sector-size",
                        "2KiB", "--sectors", "1", "--random", "5")
    wdw_path, wdw = gen("window", "post", "gen-vanilla", "--kind", "window", "--sector-size",
                        "2KiB", "--sectors", "2", "--random", "6")
    snap_path, snap = gen("snap", "snap", "gen-vanilla", "--sector-size", "2KiB", "--random", "5")
    start()
    api = CuzkV1(DESC, "unix://" + sock)

    # ---- bad requests: named before any work, the daemon keeps serving --------------
    r = bytearray(bytes.fromhex(win["randomness"]))
    r[0] ^= 1   # still a field element: only the challenged leaves change
    refused(post_request("winning", win, "winning-bad-r", randomness=bytes(r)),
            "randomness challenges leaf", "WinningPoSt with other randomness")
    refused(post_request("winning", win, "winning-short-r", randomness=bytes(r[:31])),
            "randomness: 31 bytes, want 32", "31-byte randomness")
    refused(post_request("winning", win, "winning-none", vanilla_proofs=[]),
            "vanilla_proofs: none", "WinningPoSt without vanilla_proofs")
    refused(post_request("window", wdw, "window-reg0", registered_proof=0),
            "registered_proof: 0 (StackedDrgWinning2KiBV1) is a WinningPoSt proof",
            "WindowPoSt with a winning registered_proof")
    refused(post_request("winning", win, "winning-reg99", registered_proof=99),
            "registered_proof: 99 is not a RegisteredPoStProof", "unknown registered_proof")
    cut = bytes.fromhex(win["vanilla_proofs"][0])[:-5]
    refused(post_request("winning", win, "winning-cut", vanilla_proofs=[cut]),
            "vanilla_proofs[0] (%d bytes): vanilla proof:" % len(cut), "truncated vanilla proof")
    other = bytearray(bytes.fromhex(snap["comm_r_new"]))
    other[0] ^= 1
    refused(snap_request(snap, "snap-bad-rnew", comm_r_new=bytes(other)), "vanilla_proofs[0]",
            "snap with a wrong comm_r_new")
    refused(snap_request(snap, "snap-none", vanilla_proofs=[]),
            "vanilla_proofs: 0, but registered_proof 0", "snap without vanilla_proofs")
    refused(snap_request(snap, "snap-reg3", registered_proof=3),
            "has 16 partitions", "snap with the 32GiB registered_proof")
    refused(snap_request(snap, "snap-reg9", registered_proof=9),
            "registered_proof: 9 is not a RegisteredUpdateProof", "snap with registered_proof 9")
    refused(snap_request(snap, "snap-no-old", comm_r_old=b""), "comm_r_old: missing",
            "snap without comm_r_old")
    refused(snap_request(snap, "snap-size", sector_size=32 << 30),
            "sector_size: 34359738368, but registered_proof 0", "snap with a wrong sector_size")
    if http("/v1/status") is None:
        fail("the HTTP API stopped answering after refused gRPC requests")
    ok("wrong randomness / comm_r_new / registered_proof, missing vanilla_proofs / comm_r_old, "
       "short randomness, truncated vanilla proof -> Prove FAILED, SubmitProof "
       "INVALID_ARGUMENT, naming the field; still serving")

    # ---- params by Curio's circuit ids -------------------------------------------------
    for cid_name, file_name in (("winning-2k", POST_NAMES["winning"]), ("wpost-2k", POST_NAMES["window"]),
                                ("snap-2k", SNAP_NAME)):
        pre = api.call("PreloadSRS", api.msg("PreloadSrsRequest", circuit_id=cid_name), timeout=300)
        st = api.call("GetStatus", api.msg("GetStatusRequest"), timeout=10)
        if pre.already_loaded or not any(x.circuit_id.startswith(file_name) for x in st.loaded_srs):
            fail("PreloadSRS %s: %s; loaded %s" % (cid_name, pre, list(st.loaded_srs)))
        ev = api.call("EvictSRS", api.msg("EvictSrsRequest", circuit_id=cid_name), timeout=30)
        if not ev.was_loaded or ev.freed_bytes == 0:
            fail("EvictSRS %s: %s" % (cid_name, ev))
    ok("PreloadSRS / EvictSRS winning-2k, wpost-2k, snap-2k load and drop their params")

    # ---- WinningPoSt: Prove -> COMPLETED, verifies --------------------------------------
    t0 = time.time()
    res = prove(post_request("winning", win, curio_id("winning", win)))
    completed(res, "WinningPoSt")
    verify("winning-post", win_path, res.proof, "winning.proof")
    again = prove(post_request("winning", win, curio_id("winning", win)), timeout=30)
    if again.status != S().COMPLETED or again.proof != res.proof or again.job_id != res.job_id:
        fail("WinningPoSt retry: %s, same job %s" % (S().Status.Name(again.status),
                                                       again.job_id == res.job_id))
    # Curio's own daemon answers with job_id = request_id: AwaitProof takes either
    for key in (res.job_id, curio_id("winning", win)):
        aw = api.call("AwaitProof", api.msg("AwaitProofRequest", job_id=key), timeout=30)
        if aw.status != S().COMPLETED or aw.proof != res.proof:
            fail("AwaitProof{%s}: %s %s" % (key, S().Status.Name(aw.status), aw.error_message))
    ok("WINNING_POST -> COMPLETED, 192 bytes, verifies (cuzk verify --kind winning-post); "
       "a retry gets the same proof; AwaitProof by job id and by request_id (%.1f s)"
       % (time.time() - t0))

    # ---- snap (CID commitments) is accepted at submit -----------------------------------
    sub = api.call("SubmitProof", snap_request(
        snap, curio_id("snap", snap), comm_r_old=cid(bytes.fromhex(snap["comm_r_old"]), False),
        comm_r_new=cid(bytes.fromhex(snap["comm_r_new"]), False),
        comm_d_new=cid(bytes.fromhex(snap["comm_d_new"]), True), sector_size=2048), timeout=120)
    api.call("CancelProof", api.msg("CancelProofRequest", job_id=sub.job_id), timeout=10)
    ok("SNAP_DEALS_UPDATE with CIDv1 commitments (Curio sends raw digests; CIDs are taken too) accepted, "
       "its vanilla proof checked against them at submit")

    # ---- snap + window: SubmitProof, kill -9, restart, Prove the same request_ids -------
    snap_sub = api.call("SubmitProof", snap_request(snap, curio_id("snap", snap, 1)), timeout=120)
    wdw_sub = api.call("SubmitProof", post_request("window", wdw, curio_id("window", wdw)),
                       timeout=120)
    states = [http("/v1/proofs/" + s.job_id).get("state") for s in (snap_sub, wdw_sub)]
    api.close()
    stop(kill=True)
    for s in (snap_sub, wdw_sub):
        if not os.path.exists(os.path.join(tmp, "journal", s.job_id + ".job")):
            fail("job %s is not journaled" % s.job_id)
    start()
    api = CuzkV1(DESC, "unix://" + sock)
    t0 = time.time()
    res_w = prove(post_request("window", wdw, curio_id("window", wdw)))
    completed(res_w, "WindowPoSt after kill -9")
    res_s = prove(snap_request(snap, curio_id("snap", snap, 1)))
    completed(res_s, "snap after kill -9")
    if res_w.job_id != wdw_sub.job_id or res_s.job_id != snap_sub.job_id:
        fail("after restart other jobs answered: window %s (submitted %s), snap %s (%s)" % (
            res_w.job_id, wdw_sub.job_id, res_s.job_id, snap_sub.job_id))
    verify("window-post", wdw_path, res_w.proof, "window.proof")
    verify("snap", snap_path, res_s.proof, "snap.proof")
    ok("SubmitProof SNAP_DEALS_UPDATE + WINDOW_POST_PARTITION (%s, %s at kill -9), restart, "
       "Prove with the same request_ids -> COMPLETED on the same jobs, 192 bytes each, both "
       "verify (cuzk verify --kind window-post / snap) (%.1f s)" % (states[0], states[1],
                                                                   time.time() - t0))

    st = api.call("GetStatus", api.msg("GetStatusRequest"), timeout=10)
    queues = {q.proof_kind for q in st.queues}
    for q in ("WINNING_POST", "WINDOW_POST_PARTITION", "SNAP_DEALS_UPDATE"):
        if q not in queues:
            fail("GetStatus has no %s queue: %s" % (q, sorted(queues)))
    if st.total_proofs_completed < 2:
        fail("GetStatus after the restart counts %d proofs" % st.total_proofs_completed)
    ok("GetStatus lists the WINNING_POST, WINDOW_POST_PARTITION, SNAP_DEALS_UPDATE queues and "
       "counts the proofs")
    api.close()
    stop()
    shutdown_grace(win, win_path)


def shutdown_grace(win, win_path):
    """SIGTERM while a Prove waits on a running job: the job ends within the grace and the
    Prove gets its proof (a WinningPoSt would otherwise miss its block)."""
    global api
    import threading
    start("--set", "test.fault=device_step:1+~1000", "--set", "journal.shutdown_grace=120")
    api = CuzkV1(DESC, "unix://" + sock)
    rid = curio_id("winning", win) + "-grace"
    got = {}

    def call():
        try:
            got["res"] = prove(post_request("winning", win, rid), timeout=300)
        except grpc.RpcError as e:
            got["err"] = "%s %s" % (e.code(), e.details())
    th = threading.Thread(target=call)
    th.start()
    for _ in range(600):   # <= 60 s: until the job is on the device
        jobs = [j for j in (http("/v1/proofs") or {}).get("jobs", []) if j.get("request_id") == rid]
        if jobs and jobs[0].get("state") == "running":
            break
        time.sleep(0.1)
    else:
        fail("the WinningPoSt job did not start: %s" % jobs)
    t0 = time.time()
    daemon.send_signal(signal.SIGTERM)
    th.join(timeout=180)
    if th.is_alive() or "res" not in got:
        fail("Prove during shutdown: %s" % got.get("err", "no answer"))
    completed(got["res"], "WinningPoSt whose job ended within the shutdown grace")
    verify("winning-post", win_path, got["res"].proof, "winning-grace.proof")
    api.close()
    stop()
    ok("SIGTERM while a Prove waits: its job ends within the grace, the Prove gets the proof "
       "(%.1f s after SIGTERM), which verifies; clean exit" % (time.time() - t0))


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
