#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks `sutra-cli simulate` on Chakra graphs against a schedule computed here, independently
of Sutra's C++, from `sutra-cli jsonize` output (the node fields as the file has them).

Usage: check_simulate_chakra.py SUTRA_CLI [--graph-only] [--comm-bandwidth-gbs X] FILE.et...
(exit 77 = skipped: files absent). All files are simulated together as ranks (rank from the
`<prefix>.<rank>.et` name).

The rules, as the simulator's documentation states them:
- a node runs on a device lane when is_cpu_op is false, or when it has no is_cpu_op and is a
  communication node or has a stream; the lane is its stream, else its tid, else the shared
  "comm" lane; host nodes run on their tid (0 if none);
- each lane runs its nodes one at a time in execution order: dependencies first, then start
  time, then file order; nodes on the "comm" lane are not serialized;
- a node starts after the end of every node it depends on (ctrl_deps and data_deps present in
  the file, not itself) and of the previous node of its lane; nodes with none start at the
  graph's first start;
- with start times in the file and without --graph-only, every op keeps its measured slack, so
  the simulated time equals the measured span (the latest start + duration minus the first start);
- across ranks, device comm nodes match: collectives by (pg_name, comm_type, place), sends and
  recvs by (sender, receiver, tag, place); a collective ends at the latest arrival plus the
  shortest duration; a recv ends when the message arrives (the send's start plus the transfer)
  or at its own start if later, and the send ends after its own duration. Computed here by iterating the ranks' schedules to a
  fixed point (not by the C++'s event queue).
"""

import heapq
import json
import os
import re
import subprocess
import sys


def attrs(node):
    out = {}
    for a in node.get("attr", []):
        for k, v in a.items():
            if k != "name":
                out[a["name"]] = v
    return out


def as_int(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, str)):
        return int(v)
    return None


def load(cli, path):
    out = subprocess.run([cli, "jsonize", path], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["nodes"]


COMM = {"COMM_COLL_NODE", "COMM_SEND_NODE", "COMM_RECV_NODE"}


class Rank:
    def __init__(self, nodes, graph_only, bytes_per_ns):
        self.n = len(nodes)
        index = {}
        for i, nd in enumerate(nodes):
            index.setdefault(int(nd.get("id", 0)), i)
        self.deps = []
        for i, nd in enumerate(nodes):
            ds = set()
            for d in nd.get("ctrl_deps", []) + nd.get("data_deps", []):
                j = index.get(int(d))
                if j is not None and j != i:
                    ds.add(j)
            self.deps.append(sorted(ds))
        self.dur = []
        self.lane = []
        self.device = []
        self.start_us = [int(nd.get("start_time_micros", 0)) for nd in nodes]
        has_times = any(self.start_us)
        for nd in nodes:
            a = attrs(nd)
            comm = nd["type"] in COMM
            if "is_cpu_op" in a and as_int(a["is_cpu_op"]) is not None:
                device = as_int(a["is_cpu_op"]) == 0
            else:
                device = comm or ("stream" in a and as_int(a["stream"]) is not None)
            if device:
                stream = as_int(a.get("stream", a.get("tid", -1)))
                lane = ("dev", str(stream) if stream is not None and stream >= 0 else "comm")
            else:
                lane = ("cpu", str(as_int(a.get("tid", 0))))
            d = int(nd.get("duration_micros", 0)) * 1000
            if d == 0 and comm and bytes_per_ns > 0 and as_int(a.get("comm_size", 0)) > 0:
                d = int(as_int(a["comm_size"]) / bytes_per_ns + 0.5)  # llround
            self.dur.append(d)
            self.lane.append(lane)
            self.device.append(device)
        self.types = [nd["type"] for nd in nodes]
        self.attrs = [attrs(nd) for nd in nodes]
        if not has_times:  # laid out by dependencies, as the timeline does (us)
            self.start_us = self.asap_us(nodes)
        self.keep_gaps = has_times and not graph_only
        self.order = self.exec_order()

    def asap_us(self, nodes):
        dependants = [[] for _ in range(self.n)]
        pending = [0] * self.n
        for i, ds in enumerate(self.deps):
            for d in ds:
                dependants[d].append(i)
                pending[i] += 1
        start = [0] * self.n
        ready = [i for i in range(self.n) if pending[i] == 0]
        while ready:
            i = ready.pop()
            end = start[i] + int(nodes[i].get("duration_micros", 0))
            for d in dependants[i]:
                start[d] = max(start[d], end)
                pending[d] -= 1
                if pending[d] == 0:
                    ready.append(d)
        return start

    def exec_order(self):
        dependants = [[] for _ in range(self.n)]
        pending = [0] * self.n
        for i, ds in enumerate(self.deps):
            for d in ds:
                dependants[d].append(i)
                pending[i] += 1
        heap = [(self.start_us[i], i) for i in range(self.n) if pending[i] == 0]
        heapq.heapify(heap)
        order = []
        placed = [False] * self.n
        by_start = sorted(range(self.n), key=lambda i: (self.start_us[i], i))
        forced = 0
        while len(order) < self.n:
            if not heap:  # a cycle: release its earliest node (start, then file order)
                while placed[by_start[forced]]:
                    forced += 1
                pending[by_start[forced]] = 0
                heapq.heappush(heap, (self.start_us[by_start[forced]], by_start[forced]))
            _, i = heapq.heappop(heap)
            if placed[i]:
                continue
            placed[i] = True
            order.append(i)
            for d in dependants[i]:
                if not placed[d] and pending[d] > 0:
                    pending[d] -= 1
                    if pending[d] == 0:
                        heapq.heappush(heap, (self.start_us[d], d))
        self.position = {i: k for k, i in enumerate(order)}
        return order

    def schedule(self, coupled_end):
        """Start and end (ns) of each node; coupled_end[i] overrides the end of a coupled node
        (given its start) and is a function start -> end."""
        base = min(self.start_us) * 1000
        start = [None] * self.n
        end = [None] * self.n
        last_on_lane = {}
        for i in self.order:
            # dependencies on nodes placed later (a broken cycle) are left out
            preds = [d for d in self.deps[i] if self.position[d] < self.position[i]]
            lane = self.lane[i]
            if lane != ("dev", "comm") and lane in last_on_lane:
                preds.append(last_on_lane[lane])
            if self.keep_gaps:
                s = self.start_us[i] * 1000  # every op at its measured place (no knob, no coupling)
            else:
                s = max([end[p] for p in preds], default=base)
            start[i] = s
            end[i] = coupled_end[i](s) if i in coupled_end else s + self.dur[i]
            last_on_lane[lane] = i
        return start, end


def match(ranks, rank_numbers):
    """[(kind, [(rank index, node)])]: collectives, and (send, recv) pairs."""
    colls, pairs = {}, {}
    for r, rk in enumerate(ranks):
        count = {}
        for i in rk.order:
            t = rk.types[i]
            if t not in COMM or not rk.device[i]:
                continue
            a = rk.attrs[i]
            if t == "COMM_COLL_NODE":
                key = (a.get("pg_name", ""), as_int(a.get("comm_type", -1)))
                k = count.get(("c",) + key, 0)
                count[("c",) + key] = k + 1
                colls.setdefault(key + (k,), []).append((r, i))
            else:
                me = rank_numbers[r]
                if t == "COMM_SEND_NODE":
                    key = (me, as_int(a.get("comm_dst", -1)), as_int(a.get("comm_tag", 0)))
                else:
                    key = (as_int(a.get("comm_src", -1)), me, as_int(a.get("comm_tag", 0)))
                k = count.get(("p", t) + key, 0)
                count[("p", t) + key] = k + 1
                pairs.setdefault(key + (k,), {})[t] = (r, i)
    out = [("coll", m) for m in colls.values() if len(m) > 1]
    out += [("p2p", [p["COMM_SEND_NODE"], p["COMM_RECV_NODE"]]) for p in pairs.values() if len(p) == 2]
    return out


def simulate(ranks, rank_numbers):
    groups = match(ranks, rank_numbers) if len(ranks) > 1 else []
    arrivals = {}  # (rank, node) -> start from the previous round
    for _ in range(10000):
        coupled = [dict() for _ in ranks]
        for kind, members in groups:
            known = [arrivals.get(m) for m in members]
            transfer = min(ranks[r].dur[i] for r, i in members)
            for pos, (r, i) in enumerate(members):
                if kind == "p2p" and pos == 0:
                    continue
                if kind == "p2p":
                    sent = known[0]
                    coupled[r][i] = (lambda a, t: lambda s: s + t if a is None else max(s, a + t))(
                        sent, transfer
                    )
                    continue
                others = [a for a in known if a is not None]
                coupled[r][i] = (lambda o, t: lambda s: max([s] + o) + t)(others, transfer)
        results = [rk.schedule(coupled[r]) for r, rk in enumerate(ranks)]
        new = {}
        for kind, members in groups:
            for r, i in members:
                new[(r, i)] = results[r][0][i]
        if new == arrivals:
            return results
        arrivals = new
    raise RuntimeError("no fixed point")


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__)
        return 2
    cli = args.pop(0)
    graph_only = "--graph-only" in args
    if graph_only:
        args.remove("--graph-only")
    gbs = 0.0
    if "--comm-bandwidth-gbs" in args:
        k = args.index("--comm-bandwidth-gbs")
        gbs = float(args[k + 1])
        del args[k : k + 2]
    files = args
    if not all(os.path.exists(f) for f in files):
        print("skipped: ../shared/traces absent")
        return 77
    numbered = []
    for f in files:
        m = re.search(r"\.(\d+)\.et$", f)
        numbered.append((int(m.group(1)) if m else 0, f))
    numbered.sort()
    ranks = [Rank(load(cli, f), graph_only, gbs) for _, f in numbered]
    results = simulate(ranks, [r for r, _ in numbered])
    expected = {}
    for (number, _), rk, (start, end) in zip(numbered, ranks, results):
        expected[number] = max(end) - min(start) if rk.n else 0
    cmd = [cli, "simulate", "--json"] + (["--graph-only"] if graph_only else [])
    if gbs:
        cmd += ["--comm-bandwidth-gbs", repr(gbs)]
    out = subprocess.run(cmd + files, capture_output=True, text=True)
    if out.returncode != 0:
        print("sutra-cli failed:", out.stderr)
        return 1
    got = {r["rank"]: r["simulated_ns"] for r in json.loads(out.stdout)["ranks"]}
    ok = True
    for number, value in sorted(expected.items()):
        line = f"rank {number}: expected {value} ns, sutra-cli {got.get(number)} ns"
        print(line)
        ok = ok and got.get(number) == value
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
