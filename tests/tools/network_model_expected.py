#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The expected costs in tests/core/network_model_test.cpp, computed here from the closed forms
that test states (independently of Sutra's C++), for a 1-D network of n NPUs, 50 GB/s (GiB/s as
ASTRA-sim reads it), 500 ns per hop, and the default system (ring, 4 chunks, 1 active chunk,
10 ns endpoint delay, 1600 GB/s local memory): 1 MiB collectives, 1 chunk at a time.

Usage: network_model_expected.py   (prints the C++ table rows)
"""

BW = 50 * 2**30 / 1e9  # bytes per ns
LAT = 500.0
E = 10
MEM = 1600e9  # bytes per s
HOPS = {"Ring": 1, "FullyConnected": 1, "Switch": 2}  # between ring neighbours
BYTES = 1 << 20
SPLITS = 4


def t(m, hops):
    return int(hops * LAT + m / BW)


def p(m):
    return 3 * int(m / MEM * 1e9)


def chunk_cost(kind, n, d, h):
    if kind == "AllReduce":
        m = d // n
        return (2 * n - 1) * E + (n - 1) * p(m) + 2 * (n - 1) * t(m, h)
    if kind == "AllGather":
        return n * E + (n - 1) * t(d, h)
    if kind == "ReduceScatter":
        m = d // n
        return n * E + (n - 1) * (p(m) + t(m, h))
    if kind == "AllToAll":
        m = d // n
        s = n * (n - 1) // 2
        return (s + 1) * E + s * t(m, h)
    if kind == "Broadcast":
        m = d // n
        return (2 * n - 1) * E + 2 * (n - 1) * t(m, h)
    raise ValueError(kind)


def main():
    for topo in ("Ring", "FullyConnected", "Switch"):
        for kind in ("AllReduce", "AllGather", "ReduceScatter", "AllToAll", "Broadcast"):
            for n in (2, 4, 8, 16):
                d = BYTES // SPLITS
                total = SPLITS * chunk_cost(kind, n, d, HOPS[topo])
                print(f"    {{NetworkTopology::{topo}, CollectiveKind::{kind}, {n}, {total}}},")


if __name__ == "__main__":
    main()
