#!/usr/bin/env python3
"""tests/daemon/dashboard_metrics.py — the Grafana dashboard in contrib/
asks only for what cuzkd exports.

Starts cuzkd (temporary socket, journal and params dir, as tests/daemon/
lib.sh does), scrapes GET /metrics over the unix socket, and checks every
PromQL expression of the dashboard (panel targets and template-variable
queries): each metric it names has a "# TYPE" line in the scrape, and each
label it matches on or groups by is a label of that metric's series
(instance and job, which Prometheus adds, excepted). Also checks that the
dashboard has panels for the devices' efficiency, the queue by kind and
priority, proofs per hour and failures.

Usage: dashboard_metrics.py BIN_DIR DASHBOARD_JSON
Exit 77 (skip) when cuzkd is not built.
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

PROM_LABELS = {"instance", "job"}
# PromQL words that are not metric names: functions (followed by "("),
# aggregation modifiers, binary operators and keywords.
KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool",
            "and", "or", "unless", "offset", "inf", "nan"}


def fail(msg):
    print("FAIL: " + msg)
    print("0 passed, 1 failed")
    sys.exit(1)


def scrape(sock_path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(sock_path)
    s.sendall(b"GET /metrics HTTP/1.0\r\nHost: cuzkd\r\n\r\n")
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status = head.split(b"\r\n", 1)[0]
    if b" 200 " not in status + b" ":
        fail("GET /metrics: %r" % status)
    return body.decode()


def parse_exposition(text):
    """{metric: set of label names} from the TYPE lines and the samples."""
    metrics = {}
    for line in text.splitlines():
        m = re.match(r"# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) ", line)
        if m:
            metrics.setdefault(m.group(1), set())
            continue
        if not line or line.startswith("#"):
            continue
        m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})? ", line)
        if not m:
            fail("not an exposition line: %r" % line)
        labels = set(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="', m.group(3) or ""))
        metrics.setdefault(m.group(1), set()).update(labels)
    return metrics


def expressions(dash):
    """(where, expr) for every PromQL expression in the dashboard."""
    out = []

    def walk_panels(panels):
        for p in panels:
            for t in p.get("targets", []):
                if t.get("expr"):
                    out.append(("panel '%s'" % p.get("title"), t["expr"]))
            walk_panels(p.get("panels", []))

    walk_panels(dash.get("panels", []))
    for v in dash.get("templating", {}).get("list", []):
        q = v.get("query")
        if isinstance(q, dict):
            q = q.get("query")
        if v.get("type") == "query" and q:
            m = re.match(r"\s*label_values\((.*),\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\)\s*$", q)
            out.append(("variable '%s'" % v.get("name"), m.group(1) if m else q))
    return out


def check_expr(where, expr, metrics):
    """The metrics and labels of one expression; fails on an unknown one."""
    used = []
    # grouping clauses: by (a, b) / without (a) / on (...) / ignoring (...)
    groups = re.findall(r"\b(?:by|without|on|ignoring)\s*\(([^)]*)\)", expr)
    rest = re.sub(r"\b(?:by|without|on|ignoring)\s*\([^)]*\)", " ", expr)
    # selectors: name{matchers}; matchers' labels
    for name, matchers in re.findall(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{([^}]*)\}", rest):
        if name not in metrics:
            fail("%s: metric %s is not exported by cuzkd (%s)" % (where, name, expr))
        for label in re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)\s*"', matchers):
            if label not in metrics[name] and label not in PROM_LABELS:
                fail("%s: %s has no label %s (%s)" % (where, name, label, expr))
        used.append(name)
    rest = re.sub(r"\{[^}]*\}", " ", rest)
    rest = re.sub(r'"[^"]*"', " ", rest)
    rest = re.sub(r"\[[^\]]*\]", " ", rest)
    # bare identifiers: functions (followed by "("), keywords, or metric names
    for m in re.finditer(r"[a-zA-Z_:][a-zA-Z0-9_:]*", rest):
        word = m.group(0)
        if word in KEYWORDS or rest[m.end():].lstrip().startswith("("):
            continue
        if re.fullmatch(r"[0-9.eE+-]+", word):
            continue
        if word not in metrics:
            fail("%s: metric %s is not exported by cuzkd (%s)" % (where, word, expr))
        used.append(word)
    if not used:
        fail("%s: no metric in %s" % (where, expr))
    labels = set().union(*(metrics[u] for u in used))
    for g in groups:
        for label in [x.strip() for x in g.split(",") if x.strip()]:
            if label not in labels and label not in PROM_LABELS:
                fail("%s: grouping by %s, a label none of %s has" % (where, label, sorted(set(used))))
    return used


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    bindir, dash_path = sys.argv[1], sys.argv[2]
    cuzkd = os.path.join(bindir, "cuzkd")
    if not os.access(cuzkd, os.X_OK):
        print("SKIP: cuzkd not built")
        sys.exit(77)
    with open(dash_path) as f:
        dash = json.load(f)

    tmp = tempfile.mkdtemp(prefix="cuzkd-dash.")
    sock = os.path.join(tmp, "cuzkd.sock")
    os.mkdir(os.path.join(tmp, "params"))
    log = open(os.path.join(tmp, "daemon.log"), "w")
    proc = subprocess.Popen([cuzkd, "--socket", sock, "--journal", os.path.join(tmp, "journal"),
                             "--params-dir", os.path.join(tmp, "params"),
                             "--set", "memory.total_budget=4GiB"], stdout=log, stderr=log)
    try:
        text = None
        for _ in range(200):
            if proc.poll() is not None:
                fail("cuzkd exited at start-up")
            try:
                text = scrape(sock)
                break
            except OSError:
                time.sleep(0.1)
        if text is None:
            fail("cuzkd did not answer within 20 s")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)

    metrics = parse_exposition(text)
    if "cuzk_uptime_seconds" not in metrics:
        fail("the scrape has no cuzk_uptime_seconds: %r" % text[:300])
    exprs = expressions(dash)
    if not exprs:
        fail("no PromQL expression in %s" % dash_path)
    used = set()
    for where, expr in exprs:
        used.update(check_expr(where, expr, metrics))
    print("ok: %d expressions, %d metrics, all exported by cuzkd" % (len(exprs), len(used)))

    # the panels the dashboard is for
    wanted = {
        "devices' efficiency": "cuzk_device_efficiency",
        "queue by kind and priority": "cuzk_jobs_active",
        "proofs per hour": "cuzk_jobs_ended_total",
        "failures": "cuzk_job_errors_total",
    }
    text_of = "\n".join(e for _, e in exprs)
    for what, metric in wanted.items():
        if metric not in text_of:
            fail("no panel for the %s (%s)" % (what, metric))
    if not re.search(r"by \(kind, priority\) \(cuzk_jobs_active", text_of):
        fail("the queue is not split by kind and priority")
    print("ok: panels for " + ", ".join(wanted))
    print("2 passed, 0 failed")


if __name__ == "__main__":
    main()
