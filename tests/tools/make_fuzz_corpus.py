#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the fuzz targets' seed corpus under tests/fuzz/corpus/<target>/: small hand-made inputs
(valid traces of each layout, truncated, wrong types, deep nesting, huge numbers, bad UTF-8, gzip
garbage). Deterministic: run it from anywhere, commit what it writes. Crashers that libFuzzer
finds are committed next to these as crash-<what>, by hand, never rewritten here."""

import gzip
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_fixtures as fx  # noqa: E402  (the hand-encoded protobuf and the small traces)

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "corpus")


def write(target, name, data):
    path = os.path.join(CORPUS, target, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def gz(data):
    return gzip.compress(data if isinstance(data, bytes) else data.encode(), mtime=0)


def kineto_cases():
    ev = (
        '{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":2,"ts":10,"dur":5,'
        '"args":{"External id":3,"Record function id":4,"Input Dims":[[2,2]]}}'
    )
    valid = (
        '{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"GPU","totalGlobalMem":1,"numSms":2}],'
        '"distributedInfo":{"rank":1,"world_size":2,"backend":"nccl"},"baseTimeNanoseconds":1700000000000000000,'
        '"traceEvents":['
        + ",".join(
            [
                '{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}}',
                '{"ph":"M","name":"thread_sort_index","pid":1,"tid":2,"args":{"sort_index":5}}',
                ev,
                '{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":20.125,"dur":2.5,'
                '"args":{"correlation":9,"stream":7,"device":0}}',
                '{"ph":"B","name":"b","pid":"p","tid":"t","ts":1}',
                '{"ph":"E","pid":"p","tid":"t","ts":4}',
                '{"ph":"E","pid":"p","tid":"x","ts":4}',
                '{"ph":"s","id":9,"pid":1,"tid":2,"ts":11,"cat":"ac2g","name":"ac2g"}',
                '{"ph":"f","id":9,"pid":0,"tid":7,"ts":20,"cat":"ac2g","name":"ac2g","bp":"e"}',
                '{"ph":"i","name":"mark","pid":1,"tid":2,"ts":12,"s":"g"}',
                '{"ph":"C","name":"mem","pid":1,"ts":13,"args":{"a":1,"b":2.5}}',
                '{"ph":"Q","name":"unknown phase","pid":1,"tid":2,"ts":1}',
                "5",
                '"text"',
                "[1,2]",
                "null",
            ]
        )
        + '],"traceName":"t","extra":{"x":[1,2,{"y":null}]}}'
    )
    yield "valid.json", valid
    yield "valid.json.gz", gz(valid)
    yield "two_members.json.gz", gz(valid[:200]) + gz(valid[200:])
    yield "bare_array.json", "[" + ev + "," + ev + "]"
    for cut in (1, 37, 120, len(valid) // 2, len(valid) - 2):
        yield "truncated_%d.json" % cut, valid[:cut]
    yield "truncated.json.gz", gz(valid)[:80]
    yield "gzip_garbage.gz", b"\x1f\x8b\x08\x00" + bytes((i * 91 + 7) % 256 for i in range(300))
    yield "gzip_header_only.gz", b"\x1f\x8b"
    yield "empty_gzip.gz", gz(b"")
    yield "gzip_then_garbage.gz", gz('{"traceEvents":[]}') + b"garbage"
    yield "events_not_array.json", '{"traceEvents":5}'
    yield "events_object.json", '{"traceEvents":{"ph":"X"}}'
    yield "events_twice.json", '{"traceEvents":[],"traceEvents":[' + ev + "]}"
    yield "no_events.json", '{"schemaVersion":1}'
    yield (
        "wrong_types.json",
        (
            '{"traceEvents":[{"ph":5,"name":[1],"cat":{},"pid":null,"tid":true,"ts":"x",'
            '"dur":{"a":1},"id":[],"args":"str"},{"ph":"X","ts":[1],"dur":"2"},'
            '{"ph":"C","ts":1,"args":{"v":"nan","w":[1]}},{"ph":"s","ts":1,"id":"abc"},'
            '{"ph":"M","name":"process_name","pid":1,"args":{"name":5}},'
            '{"ph":"M","name":"thread_sort_index","pid":1,"tid":1,"args":{"sort_index":"x"}}],'
            '"baseTimeNanoseconds":"x","deviceProperties":{"id":0},"distributedInfo":[1]}'
        ),
    )
    yield (
        "huge_numbers.json",
        (
            '{"traceEvents":[{"ph":"X","name":"a","pid":99999999999999999999999,'
            '"tid":-1e400,"ts":1e300,"dur":18446744073709551616,'
            '"args":{"External id":1e19,"correlation":-9223372036854775809}},'
            '{"ph":"X","name":"b","pid":1,"tid":1,"ts":9223372036854775.807,"dur":-1},'
            '{"ph":"X","name":"c","pid":1,"tid":1,"ts":-9223372036854775808,"dur":1e-320},'
            '{"ph":"f","id":1e30,"ts":0},{"ph":"C","name":"n","pid":1,"ts":1,"args":{"v":1e999}}],'
            '"baseTimeNanoseconds":99999999999999999999999}'
        ),
    )
    yield "deep_nesting.json", '{"traceEvents":[{"ph":"X","args":' + "[" * 3000 + "]" * 3000 + "}]}"
    yield "deep_open.json", "[" * 5000
    yield "deep_object.json", '{"a":' * 2000 + "1" + "}" * 2000
    yield (
        "bad_utf8.json",
        (
            b'{"traceEvents":[{"ph":"X","name":"cut \xe4\xb8","pid":1,"tid":1,"ts":1,"dur":1},'
            b'{"ph":"X","name":"\xff\xfe\xc0\x80\xed\xa0\x80\xf4\x90\x80\x80","pid":1,"tid":1,"ts":2,"dur":1}]}'
        ),
    )
    yield (
        "control_chars.json",
        (
            b'{"traceEvents":[{"ph":"X","name":"a\x01b\tc","pid":1,"tid":1,"ts":1,"dur":1,'
            b'"args":{"n":"x\ny"}}]}'
        ),
    )
    yield (
        "escapes.json",
        (
            '{"traceEvents":[{"ph":"X","name":"q\\"\\\\\\u00e9\\ud83d\\ude00\\ud800","pid":"\\u0031",'
            '"tid":1,"ts":1,"dur":1,"args":{"k\\"":"\\\\"}}]}'
        ),
    )
    yield "empty_elements.json", '{"traceEvents":[,]}'
    yield "trailing_comma.json", '{"traceEvents":[{"ph":"X"},]}'
    yield "trailing_garbage.json", '{"traceEvents":[]} x'
    yield "whitespace.json", " \n\t "
    yield "not_json.json", "hello"
    yield "members_only.json", '{"a":1,"b":"x","c":[1,{"d":2}],"e":null}'
    yield "unclosed_string.json", '{"traceEvents":[{"name":"abc'
    yield "backslash_at_end.json", '{"traceEvents":[{"name":"abc\\'


def et_cases():
    with open(os.path.join(fx.DATA, "et", "flat_1.0.1.json"), "rb") as f:
        flat = f.read()
    with open(os.path.join(fx.DATA, "et", "attrs_1.1.0.json"), "rb") as f:
        attrs = f.read()
    yield "flat_1.0.1.json", flat
    yield "attrs_1.1.0.json", attrs
    yield "flat.json.gz", gz(flat)
    yield "linked.json", fx.et_flat(ts_from=3)
    for cut in (10, len(flat) // 3, len(attrs) - 3):
        yield "truncated_%d.json" % cut, attrs[:cut]
    yield "nodes_not_array.json", '{"schema":"1.0.1","nodes":5}'
    yield (
        "unknown_schema.json",
        (
            '{"schema":"9.9","nodes":[{"id":1,"name":"a","parent":1},'
            '{"id":2,"name":"b","ctrl_deps":1,"attrs":[{"name":"rf_id","type":"uint64","value":3}]}]}'
        ),
    )
    yield (
        "wrong_types.json",
        (
            '{"schema":5,"pid":"x","nodes":[{"id":"a","name":1,"parent":[],"inputs":{"values":5,'
            '"shapes":"s","types":[1]},"outputs":[[1]],"attrs":[{"name":5},{"value":1},5,'
            '{"name":"rf_id","type":"uint64","value":"x"}]},5,null,[],'
            '{"id":2,"inputs":[[1,2,3]],"input_shapes":5,"input_types":[[]]}]}'
        ),
    )
    yield (
        "huge_numbers.json",
        (
            '{"schema":"1.0.1","nodes":[{"id":99999999999999999999999,"name":"a","parent":-1e400,'
            '"rf_id":1e300,"tid":18446744073709551616,"inputs":[[1e999,2,3,4,5,"cpu"]],'
            '"input_shapes":[[99999999999999999999]],"input_types":["Tensor(float)"]}]}'
        ),
    )
    yield (
        "cycle.json",
        (
            '{"schema":"1.0.1","nodes":[{"id":1,"name":"a","parent":2},{"id":2,"name":"b","parent":1},'
            '{"id":3,"name":"c","parent":3},{"id":3,"name":"dup","parent":9}]}'
        ),
    )
    yield (
        "deep_nesting.json",
        '{"schema":"1.0.1","nodes":[{"id":1,"inputs":' + "[" * 3000 + "]" * 3000 + "}]}",
    )
    yield "bad_utf8.json", b'{"schema":"1.0.1","nodes":[{"id":1,"name":"\xff\xe4\xb8","parent":0}]}'
    yield "gzip_garbage.gz", b"\x1f\x8b\x08\x00" + bytes((i * 53 + 3) % 256 for i in range(200))
    yield "empty_gzip.gz", gz(b"")
    yield "kineto_not_et.json", '{"traceEvents":[]}'


def et_plus_cases():
    linked = fx.et_flat(ts_from=3)
    yield "linked.json", linked
    yield "linked.json.gz", gz(linked)
    device = (
        '{"schema":"1.0.1","pid":1,"nodes":['
        '{"id":1,"name":"[pytorch|profiler|execution_trace|process]","parent":1,"tid":0},'
        '{"id":2,"name":"aten::mm","parent":1,"tid":1,"rf_id":2,"ts":10.5,"inclusive_dur":4.25,'
        '"exclusive_dur":1.125,"inter_thread_dep":5,"sync_dep":[3,4]},'
        '{"id":3,"name":"cudaLaunchKernel","parent":2,"tid":1,"ts":11,"inclusive_dur":1,"exclusive_dur":1},'
        '{"id":4,"name":"gemm","parent":3,"cat":"kernel","stream":7,"ts":12.001,"inclusive_dur":3,'
        '"exclusive_dur":3,"pg_name":"0"},'
        '{"id":5,"name":"nccl:all_reduce","parent":4,"cat":"kernel","stream":"x","ts":-1,'
        '"inclusive_dur":1e300,"sync_dep":["a",null,{}]}]}'
    )
    yield "device_nodes.json", device
    for cut in (9, len(device) // 2, len(device) - 3):
        yield "truncated_%d.json" % cut, device[:cut]
    yield (
        "device_parent_loop.json",
        (
            '{"schema":"1.0.1","nodes":[{"id":1,"name":"k","parent":2,"cat":"kernel",'
            '"ts":1,"inclusive_dur":1},{"id":2,"name":"k2","parent":1,"cat":"kernel",'
            '"ts":1,"inclusive_dur":1}]}'
        ),
    )
    yield (
        "huge_times.json",
        (
            '{"schema":"1.0.1","nodes":[{"id":1,"name":"a","parent":1,"ts":1e400,'
            '"inclusive_dur":-99999999999999999999999,"exclusive_dur":"x","cat":5}]}'
        ),
    )
    yield (
        "duplicate_ids.json",
        (
            '{"schema":"1.0.1","nodes":[{"id":1,"name":"a","parent":1,"ts":1,"inclusive_dur":1},'
            '{"id":1,"name":"b","parent":1,"cat":"kernel","ts":1,"inclusive_dur":1}]}'
        ),
    )
    yield (
        "bad_utf8.json",
        b'{"schema":"1.0.1","nodes":[{"id":1,"name":"\xff","parent":1,"cat":"\xe4\xb8","ts":1}]}',
    )
    yield "zeros_after_header.json", b'{"schema":"1.0.1","nodes":[' + bytes(4096)
    yield "kineto_not_et.json", '{"traceEvents":[]}'
    yield "empty", b""


def chakra_cases():
    yield "two_nodes.et", fx.chakra_trace(0)
    yield "two_nodes.et.gz", gz(fx.chakra_trace(1))
    whole = fx.chakra_trace(0)
    for cut in (1, 5, len(whole) // 2, len(whole) - 1):
        yield "truncated_%d.et" % cut, whole[:cut]
    meta = fx.field_bytes(1, "0.0.4")
    yield (
        "cycle.et",
        fx.delimited(meta, fx.node(1, "a", 4, ctrl=[2], dur=3), fx.node(2, "b", 4, ctrl=[1], dur=3)),
    )
    yield "missing_dep.et", fx.delimited(meta, fx.node(1, "a", 4, ctrl=[77, 1], dur=3))
    yield "duplicate_id.et", fx.delimited(meta, fx.node(5, "a", 4, dur=1), fx.node(5, "b", 7, dur=1))
    yield (
        "huge_values.et",
        fx.delimited(
            meta,
            fx.node(
                2**64 - 1, "a", 99, ctrl=[2**64 - 1], dur=2**64 - 1, attrs=[fx.attr_int64("comm_size", 2**63)]
            ),
        ),
    )
    yield "length_too_big.et", fx.varint(2**40) + b"\x0a\x01x"
    yield "varint_overlong.et", b"\xff" * 12
    yield "wrong_wire_type.et", fx.delimited(meta, fx.field_bytes(1, b"\x01\x02"))
    yield "not_protobuf.et", b'{"traceEvents":[]}'
    yield "gzip_garbage.et.gz", b"\x1f\x8b\x08\x00" + bytes((i * 29 + 1) % 256 for i in range(100))
    yield "zeros.et", bytes(4096)
    yield "no_metadata.et", fx.delimited(fx.node(1, "a", 4, dur=2), fx.node(2, "b", 4, ctrl=[1], dur=2))
    yield "empty_node.et", fx.delimited(meta, fx.node(1, "a", 4, dur=2), b"")
    yield "unknown_node_type.et", fx.delimited(meta, fx.node(1, "a", 42, dur=2))


def sniff_cases():
    yield "kineto.json", fx.kineto(rank_head=0)
    yield "kineto_rank_tail.json", fx.kineto(rank_tail=1)
    yield "kineto.json.gz", gz(fx.kineto())
    yield "et.json", fx.et_flat()
    yield "et_plus.json", fx.et_flat(ts_from=3)
    yield "chakra.et", fx.chakra_trace(0)
    yield "chakra.et.gz", gz(fx.chakra_trace(1))
    yield "bare_array.json", '[{"ph":"X","name":"a","ts":1}]'
    yield "array_without_ph.json", '[{"name":"a"}]'
    yield "not_a_trace.json", '{"a":{"b":[1,2,"c\\"d"]},"e":true}'
    yield "deep_nesting.json", "[" * 5000
    yield "bad_utf8.json", b'{"\xff\xfe":1,"traceEvents":[]}'
    yield "huge_numbers.json", '{"distributedInfo":{"rank":99999999999999999999},"traceEvents":[]}'
    yield "truncated.json", fx.kineto(rank_head=0)[:60]
    yield "garbage.bin", bytes((i * 73 + 5) % 256 for i in range(512))
    yield "gzip_garbage.gz", b"\x1f\x8b\x08\x00" + bytes((i * 17 + 9) % 256 for i in range(64))
    yield "empty_gzip.gz", gz(b"")
    yield "empty", b""
    yield "zeros.bin", bytes(4096)
    yield "chakra_no_metadata.et", fx.delimited(fx.node(1, "a", 4, dur=2), fx.node(2, "b", 4, dur=2))
    yield "bom.json", b"\xef\xbb\xbf" + fx.kineto(rank_head=0).encode()
    yield "bzip2.bz2", b"BZh91AY&SY" + bytes(32)
    yield "zstd.zst", b"\x28\xb5\x2f\xfd" + bytes(32)


def main():
    for target, cases in (
        ("kineto", kineto_cases),
        ("et", et_cases),
        ("et_plus", et_plus_cases),
        ("chakra", chakra_cases),
        ("sniff", sniff_cases),
    ):
        for name, data in cases():
            write(target, name, data)


if __name__ == "__main__":
    main()
