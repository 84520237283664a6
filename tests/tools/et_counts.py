#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent counts for Sutra's .et tests, decoded with the standard library only (no protobuf).

Usage: et_counts.py FILE.et...   prints, per file: messages, nodes by type, ctrl/data dependency
edges, edges to absent ids, self dependencies, whether the ids are sorted, and attributes by name.
"""

import collections
import gzip
import sys


def varint(buf, pos):
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def fields(buf):
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        fno, wt = key >> 3, key & 7
        if wt == 0:
            val, pos = varint(buf, pos)
        elif wt == 2:
            ln, pos = varint(buf, pos)
            val = buf[pos : pos + ln]
            pos += ln
        elif wt == 1:
            val = buf[pos : pos + 8]
            pos += 8
        elif wt == 5:
            val = buf[pos : pos + 4]
            pos += 4
        else:
            raise ValueError("wire type %d" % wt)
        yield fno, wt, val


def ints(val, wt):
    if wt == 0:
        return [val]
    out, pos = [], 0
    while pos < len(val):
        v, pos = varint(val, pos)
        out.append(v)
    return out


def main():
    for path in sys.argv[1:]:
        data = open(path, "rb").read()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        msgs, pos = [], 0
        while pos < len(data):
            ln, pos = varint(data, pos)
            msgs.append(data[pos : pos + ln])
            pos += ln
        types = collections.Counter()
        attrs = collections.Counter()
        ids, ctrl, dat = [], 0, 0
        deps = []
        for m in msgs[1:]:
            nid, ntype, mydeps = 0, 0, []
            for fno, wt, val in fields(m):
                if fno == 1 and wt == 0:
                    nid = val
                elif fno == 3:
                    ntype = val
                elif fno == 4:
                    d = ints(val, wt)
                    ctrl += len(d)
                    mydeps += d
                elif fno == 5:
                    d = ints(val, wt)
                    dat += len(d)
                    mydeps += d
                elif fno == 10:
                    for f2, w2, v2 in fields(val):
                        if f2 == 1:
                            attrs[v2.decode()] += 1
            ids.append(nid)
            types[ntype] += 1
            deps.append((nid, mydeps))
        idset = set(ids)
        absent = sum(1 for n, ds in deps for d in ds if d not in idset)
        absent_ids = len({d for n, ds in deps for d in ds if d not in idset})
        selfdep = sum(1 for n, ds in deps if n in ds)
        print(path)
        print("  messages %d nodes %d types %s" % (len(msgs), len(ids), dict(sorted(types.items()))))
        print(
            "  ctrl_deps %d data_deps %d absent-edges %d absent-ids %d self-dependent %d sorted %s"
            % (ctrl, dat, absent, absent_ids, selfdep, ids == sorted(ids))
        )
        print("  attrs %s" % dict(sorted(attrs.items())))


if __name__ == "__main__":
    main()
