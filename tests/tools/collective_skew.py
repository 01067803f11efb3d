#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Independent computation of DESIGN.md §4 "Collectives and skew" from Kineto gzip JSON files (one rank each), for
# the figures tests/core/job_real_traces_test.cpp asserts. Timestamps are read as exact decimals (a float64 of a µs
# epoch is off by up to ~0.1 µs). Collectives: kernels whose name starts with nccl/rccl, paired across ranks by
# (kernel name, k-th occurrence in start order). Prints one row per matched collective:
# (first arrival ns, name, k, skew ns, last rank, end spread ns, arrivals by rank), then waits and times last per rank.
# Usage: python3 tests/tools/collective_skew.py RANK_FILE.json.gz...
import gzip, json, sys, collections, decimal
files = sys.argv[1:]
ranks = {}
for f in files:
    d = json.load(gzip.open(f), parse_float=decimal.Decimal)
    r = d['distributedInfo']['rank']
    ks = [e for e in d['traceEvents'] if e.get('ph') == 'X' and e.get('cat') in ('kernel', 'Kernel')
          and (e['name'].lower().startswith('nccl') or e['name'].lower().startswith('rccl'))]
    ks.sort(key=lambda e: (int(round(decimal.Decimal(e['ts']) * 1000)), -(decimal.Decimal(e['ts']) + decimal.Decimal(e['dur']))))
    occ = collections.defaultdict(list)
    for e in ks:
        s = int(round(decimal.Decimal(e['ts']) * 1000)); en = int(round((decimal.Decimal(e['ts']) + decimal.Decimal(e['dur'])) * 1000))
        occ[e['name']].append((s, en))
    ranks[r] = occ
names = sorted(set(n for o in ranks.values() for n in o))
waits = collections.Counter(); last = collections.Counter()
rows = []
for n in names:
    k = min(len(ranks[r][n]) for r in ranks)
    for i in range(k):
        arr = {r: ranks[r][n][i] for r in ranks}
        mx = max(a[0] for a in arr.values()); mn = min(a[0] for a in arr.values())
        lr = min(r for r in arr if arr[r][0] == mx)
        ends = [a[1] for a in arr.values()]
        for r in arr: waits[r] += mx - arr[r][0]
        last[lr] += 1
        rows.append((min(a[0] for a in arr.values()), n[:40], i, mx - mn, lr, max(ends) - min(ends), [arr[r][0] for r in sorted(arr)]))
rows.sort()
for row in rows: print(row)
print('waits', sorted(waits.items())); print('last', sorted(last.items())); print('total wait', sum(waits.values()))
