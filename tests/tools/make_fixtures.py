#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the binary and derived test fixtures under tests/data (gzip variants, broken gzip,
cut-short JSON, control characters, hand-encoded Chakra protobuf, discovery directories).
Deterministic (gzip mtime 0): run it from anywhere, commit what it writes.
The plain-text fixtures next to them are written by hand."""

import bz2
import gzip
import json
import lzma
import os

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")


def write(rel, data):
    path = os.path.join(DATA, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def gz(data):
    return gzip.compress(data if isinstance(data, bytes) else data.encode(), mtime=0)


# --- protobuf, by hand (wire format: tag = field << 3 | wire type) ---------------------------------
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_varint(num, value):
    return varint(num << 3 | 0) + varint(value)


def field_bytes(num, payload):
    payload = payload.encode() if isinstance(payload, str) else payload
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def attr_int64(name, value):
    return field_bytes(1, name) + field_varint(9, value)


def attr_bool(name, value):
    return field_bytes(1, name) + field_varint(27, 1 if value else 0)


def node(nid, name, ntype, ctrl=(), dur=0, attrs=()):
    msg = field_varint(1, nid) + field_bytes(2, name) + field_varint(3, ntype)
    if ctrl:
        msg += field_bytes(4, b"".join(varint(c) for c in ctrl))  # packed
    if dur:
        msg += field_varint(7, dur)
    for a in attrs:
        msg += field_bytes(10, a)
    return msg


def delimited(*messages):
    return b"".join(varint(len(m)) + m for m in messages)


def chakra_trace(rank):
    meta = field_bytes(1, "0.0.4")
    comm = node(
        1,
        "allreduce",
        7,
        attrs=[attr_int64("comm_type", 0), attr_int64("comm_size", 1024), attr_bool("is_cpu_op", False)],
    )
    comp = node(2, "compute_%d" % rank, 4, ctrl=[1], dur=5, attrs=[attr_bool("is_cpu_op", False)])
    return delimited(meta, comm, comp)


def kineto(rank_head=None, rank_tail=None, name="aten::add"):
    head = '{\n  "schemaVersion": 1,\n'
    if rank_head is not None:
        head += '  "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": 2},\n' % rank_head
    events = [
        {
            "ph": "X",
            "cat": "cpu_op",
            "name": name,
            "pid": 1,
            "tid": 1,
            "ts": 10,
            "dur": 5,
            "args": {"External id": 1, "Record function id": 3},
        },
        {
            "ph": "X",
            "cat": "kernel",
            "name": "k",
            "pid": 0,
            "tid": 7,
            "ts": 20,
            "dur": 2,
            "args": {"correlation": 4, "stream": 7, "device": 0},
        },
    ]
    body = '  "traceEvents": [\n' + ",\n".join("  " + json.dumps(e) for e in events) + "\n  ]"
    if rank_tail is not None:
        body += ',\n  "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": 2}' % rank_tail
    return head + body + "\n}\n"


def et_flat(ts_from=None):
    """An ET 1.0.1; with ts_from, nodes from that index on carry ET+ fields (as a linker adds)."""
    nodes = [
        {
            "name": "[pytorch|profiler|execution_trace|thread]",
            "id": 2,
            "rf_id": 0,
            "parent": 1,
            "fw_parent": 0,
            "seq_id": -1,
            "scope": 7,
            "tid": 1,
            "fw_tid": 0,
            "op_schema": "",
            "inputs": [],
            "input_shapes": [],
            "input_types": [],
            "outputs": [],
            "output_shapes": [],
            "output_types": [],
        }
    ]
    for i in range(6):
        nodes.append(
            {
                "name": "aten::op%d" % i,
                "id": 3 + i,
                "rf_id": 3 + i,
                "parent": 2,
                "fw_parent": 0,
                "seq_id": i,
                "scope": 0,
                "tid": 1,
                "fw_tid": 0,
                "op_schema": "",
                "inputs": [],
                "input_shapes": [],
                "input_types": [],
                "outputs": [],
                "output_shapes": [],
                "output_types": [],
            }
        )
    nodes.append(
        {
            "name": "[pytorch|profiler|execution_trace|process]",
            "id": 1,
            "rf_id": 0,
            "parent": 1,
            "fw_parent": 0,
            "seq_id": -1,
            "scope": 7,
            "tid": 0,
            "fw_tid": 0,
            "op_schema": "",
            "inputs": [],
            "input_shapes": [],
            "input_types": [],
            "outputs": [],
            "output_shapes": [],
            "output_types": [],
        }
    )
    if ts_from is not None:
        for i, n in enumerate(nodes[ts_from:-1]):
            n["ts"] = 10 + 10 * i
            n["inclusive_dur"] = 5
            n["exclusive_dur"] = 5
    doc = {
        "schema": "1.0.1",
        "pid": 9,
        "time": "2024-01-01 00:00:00",
        "start_ts": 1,
        "nodes": nodes,
        "finish_ts": 2,
    }
    return json.dumps(doc, indent=1) + "\n"


def main():
    with open(os.path.join(DATA, "kineto", "basic.json"), "rb") as f:
        basic = f.read()
    write("kineto/basic.json.gz", gz(basic))

    # Bad inputs.
    write("bad/empty.json", b"")
    write("bad/empty.json.gz", gz(b""))
    whole = gz(basic)
    write("bad/truncated.json.gz", whole[: len(whole) // 2])
    write("bad/corrupt.json.gz", whole[:10] + bytes((i * 37 + 11) % 256 for i in range(200)))
    write("bad/truncated.json", basic[: basic.index(b'"cuda_runtime"')])
    write("bad/garbage.bin", bytes((i * 73 + 5) % 256 for i in range(512)))
    write("bad/deep_nesting.json", b"[" * 100000)
    write(
        "bad/control_chars.json",
        b'{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "tab\there\x01\x02 bell\x07", '
        b'"pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": {"note": "line\nbreak"}}]}\n',
    )
    write("bad/truncated.et", chakra_trace(0)[:-4])
    write("bad/a_directory.json/inside.txt", "A directory named like a trace file.\n")
    # Zeros: a whole file of them, and a header followed by them (a preallocated, never-written
    # file). Small here; the large ones are made by the tests at run time.
    write("bad/zeros.et", bytes(4096))
    write("bad/zeros_after_header.json", b'{"traceEvents":[' + bytes(4096))
    write("bad/zeros_after_header.json.gz", gz(b'{"traceEvents":[' + bytes(65536)))
    # Compressed in formats Sutra does not read (bzip2 and xz by Python's own modules).
    write("bad/kineto.json.bz2", bz2.compress(basic))
    write("bad/kineto.json.xz", lzma.compress(basic))
    write("bad/kineto.json.zst", b"\x28\xb5\x2f\xfd" + bytes(60))  # a zstd frame's magic
    # A UTF-8 byte-order mark before the JSON, as some editors write.
    write("bad/bom.json", b"\xef\xbb\xbf" + basic)
    # Chakra of 2023: nodes without a GlobalMetadata before them.
    write(
        "bad/chakra_2023_no_metadata.et",
        delimited(
            node(1, "compute", 4, dur=5, attrs=[attr_bool("is_cpu_op", False)]),
            node(
                2, "allreduce", 7, ctrl=[1], attrs=[attr_int64("comm_type", 0), attr_int64("comm_size", 1024)]
            ),
        ),
    )
    # A node type outside et_def.proto's NodeType (42), and one of an absent id.
    write(
        "bad/chakra_unknown_node_type.et",
        delimited(
            field_bytes(1, "0.0.4"), node(1, "compute", 4, dur=5), node(2, "mystery", 42, ctrl=[1], dur=3)
        ),
    )

    # Discovery: a two-rank run with every kind of file, classified by content.
    write("discover/two_ranks/kineto_rank_0.json", kineto(rank_head=0))
    write("discover/two_ranks/host_trace.json", kineto(rank_tail=1))  # rank only after the events
    write("discover/two_ranks/et_rank_0.json", et_flat())
    write("discover/two_ranks/et_rank_1.json.gz", gz(et_flat()))
    write("discover/two_ranks/linked_rank-1.json", et_flat(ts_from=3))
    write("discover/two_ranks/model.0.et", chakra_trace(0))
    write("discover/two_ranks/model.1.et.gz", gz(chakra_trace(1)))
    write("discover/two_ranks/mislabeled.et", kineto(rank_head=0, name="aten::mul"))  # Kineto inside
    write("discover/two_ranks/README.txt", "Notes about this run.\n")
    # One rank, no rank anywhere: both are rank 0, paired by name.
    write("discover/single/train_kineto.json.gz", gz(kineto()))
    write("discover/single/train_et.json", et_flat())
    # ET+ files of a linker, one per rank, the rank only in the name (dlrm_eg_<r>_plus.json).
    write("discover/et_plus_ranks/dlrm_eg_0_plus.json", et_flat(ts_from=3))
    write("discover/et_plus_ranks/dlrm_eg_1_plus.json", et_flat(ts_from=3))
    write("discover/et_plus_ranks/dlrm_eg_2_plus.json", et_flat(ts_from=3))
    # The rank in the directory name.
    write("discover/rank_dirs/rank0/trace.json", kineto())
    write("discover/rank_dirs/rank1/trace.json", kineto())


if __name__ == "__main__":
    main()
