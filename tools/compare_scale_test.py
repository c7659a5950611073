#!/usr/bin/env python3
"""Tests of compare_rocksdb.py --scale (tools/compare_scale.py) without
RocksDB: parsing both engines' stats and levelstats, the phases' command
lines, write and space amplification, and the run loop over a fake
db_bench (engines alternating phase by phase on directories kept across
phases, each child's own peak RSS, the timelines, the report).

Run: python3 tools/compare_scale_test.py (ctest: compare_scale_test).
"""

import contextlib
import csv
import io
import os
import sys
import tempfile
import textwrap
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_rocksdb as cr  # noqa: E402
import compare_scale as sc  # noqa: E402

# The tail of strata's "fillrandom,waitforcompaction,stats,levelstats".
STRATA_STATS = """\
fillrandom   :       4.788 micros/op 208875 ops/sec 1.436 seconds \
300000 operations;   23.1 MB/s
waitforcompaction : 0.0 s

** Compaction Stats **
Sum        2     12.74      -     0.021    0.015     0.006     0.034
Cumulative writes: 300000 writes, 300000 keys, ingest: 0.037 GB
Cumulative WAL: 0 syncs, 0.037 GB written, 0.00 writes per sync
Cumulative compaction: 0.034 GB written (flush 0.017 GB), 0.021 GB read, \
0.000 GB moved, 0.541 sec

Level Files Size(MB)
--------------------
    0     1     1.94
    1     1    10.79
    2     0     0.00
"""

# RocksDB 7.8.3's, abridged.
ROCKSDB_STATS = """\
fillrandom   :       6.020 micros/op 166101 ops/sec 1.806 seconds \
300000 operations;   18.4 MB/s
Flush(GB): cumulative 0.017, interval 0.017
Cumulative compaction: 1.25 GB write, 18.15 MB/s write, 0.02 GB read, \
10.87 MB/s read, 0.7 seconds
Interval compaction: 0.03 GB write, 18.15 MB/s write, 0.02 GB read, \
10.87 MB/s read, 0.7 seconds

Level Files Size(MB)
--------------------
  0        2        3
  1        1       10
  2        0        0
"""

# A db_bench that logs its call, writes a table file into --db, holds
# FAKE_RSS_<ENGINE> MB while it runs, and prints a result line, the stats
# both engines print and a per-second report when asked.
FAKE_DB_BENCH = """\
#!{python}
import os, sys
flags = dict(a[2:].split("=", 1) for a in sys.argv[1:] if "=" in a)
engine = "{engine}"
benches = flags["benchmarks"].split(",")
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write("%s %s %s %s %s\\n" % (engine, flags["benchmarks"], flags["db"],
            flags.get("cache_size"), flags.get("use_direct_reads", "0")))
if os.environ.get("FAKE_FAIL") == benches[0]:
    sys.exit(3)
os.makedirs(flags["db"], exist_ok=True)
n = len(os.listdir(flags["db"]))
size = 1000 if benches[0] == "compact" else 4000
with open(os.path.join(flags["db"], "%06d.sst" % n), "wb") as f:
    f.write(b"x" * size)
hold = bytearray(int(os.environ.get("FAKE_RSS_" + engine.upper(), "0"))
                 << 20)
for i in range(0, len(hold), 4096):
    hold[i] = 1
ops = 2000 if engine == "strata" else 1000
if benches[0] != "compact":
    print("%s : 1.0 micros/op %d ops/sec 1.0 seconds %d operations;" % (
        benches[0], ops, ops))
if "report_file" in flags:
    with open(flags["report_file"], "w") as f:
        f.write("secs_elapsed,interval_qps\\n1,%d\\n2,%d\\n" % (ops, ops))
if "stats" in benches:
    print("Cumulative compaction: %s GB written (flush 0.1 GB)" %
          ("0.5" if engine == "strata" else "1.0"))
if "levelstats" in benches:
    print("Level Files Size(MB)\\n----\\n  0  1  1.0\\n  1  3  9.0\\n  2  0  0")
sys.stderr.write("%s:    version 1.2.3\\n" % engine)
"""


class ParseTest(unittest.TestCase):

    def test_scales(self):
        self.assertEqual(sc.parse_scales("10000000, 1000:800"),
                         [(10000000, 100), (1000, 800)])
        for bad in ("", "x", "10:", "10:0", "0", "-5", "10:8:9"):
            with self.assertRaises(ValueError, msg=bad):
                sc.parse_scales(bad)

    def test_written_bytes_of_both_engines(self):
        self.assertEqual(sc.parse_written_gb(STRATA_STATS), 0.034)
        # RocksDB's cumulative line, not the interval one after it.
        self.assertEqual(sc.parse_written_gb(ROCKSDB_STATS), 1.25)
        self.assertIsNone(sc.parse_written_gb("fillrandom : 1 micros/op"))

    def test_levels_of_both_engines(self):
        self.assertEqual(sc.parse_levels(STRATA_STATS),
                         [(0, 1, 1.94), (1, 1, 10.79), (2, 0, 0.0)])
        self.assertEqual(sc.parse_levels(ROCKSDB_STATS),
                         [(0, 2, 3.0), (1, 1, 10.0), (2, 0, 0.0)])
        self.assertIsNone(sc.parse_levels("no table here"))

    def test_dir_shape_counts_tables_apart(self):
        with tempfile.TemporaryDirectory() as d:
            for name, size in (("000001.sst", 100), ("000002.sst", 50),
                               ("000003.log", 7), ("MANIFEST-1", 3)):
                with open(os.path.join(d, name), "wb") as f:
                    f.write(b"x" * size)
            self.assertEqual(sc.dir_shape(d), (160, 150, 2))


class PlanTest(unittest.TestCase):

    def test_phases(self):
        phases = sc.phase_list(30, 1000)
        names = [p[0] for p in phases]
        self.assertEqual(names[:2], ["fillrandom", "overwrite"])
        self.assertEqual(names[-1], "compact")
        # 12 reads, and a settle step after each readwhilewriting.
        self.assertEqual(len(names), 2 + 2 * 2 * (3 + 1) + 1)
        settles = [p for p in phases if not sc.measured(p[0])]
        self.assertEqual(len(settles), 4)
        for i, p in enumerate(phases):
            if not sc.measured(p[0]):
                self.assertEqual(p[1], "waitforcompaction")
                self.assertEqual(phases[i - 1][1], "readwhilewriting")
        self.assertIn("readwhilewriting, 1 GB cache, direct", names)
        overwrite = phases[1]
        self.assertIn("--duration=60", overwrite[3])
        rww = [p for p in phases if p[1] == "readwhilewriting"]
        self.assertEqual({p[2] for p in rww}, {2})
        # The reads are counted, the writer beside them held to a rate:
        # the same work for both engines.
        for p in rww:
            self.assertIn("--reads=500", p[3])
            self.assertIn("--benchmark_write_rate_limit=%d" % (2 << 20),
                          p[3])
        for bench, reads in (("readrandom", 1000), ("seekrandom", 250)):
            for p in phases:
                if p[1] == bench:
                    self.assertIn("--reads=%d" % reads, p[3])
                    self.assertFalse(any(a.startswith("--duration")
                                         for a in p[3]))

    def test_phase_flags_replace_the_common_ones(self):
        args = sc.phase_args("/d", 1000, 800, 7, "readrandom", 1,
                             ["--cache_size=1073741824",
                              "--use_direct_reads=1"], ["--histogram=1"])
        flags = [a.split("=")[0] for a in args]
        self.assertEqual(len(flags), len(set(flags)))  # none twice
        self.assertIn("--cache_size=1073741824", args)
        self.assertIn("--value_size=800", args)
        self.assertIn("--key_size=16", args)
        self.assertEqual(args[-1], "--histogram=1")


class AmplificationTest(unittest.TestCase):

    def test_write_amp_is_bytes_written_over_user_bytes(self):
        r = {"written_gb": 2.0, "operations": 1 << 20, "value_size": 112}
        # 2 GiB over 1 Mi writes of 128 bytes (128 MiB).
        self.assertAlmostEqual(sc.write_amp(r), 16.0)
        self.assertIsNone(sc.write_amp({"written_gb": None,
                                        "operations": 5,
                                        "value_size": 100}))
        self.assertIsNone(sc.write_amp({"written_gb": 1.0,
                                        "operations": 0,
                                        "value_size": 100}))

    def test_space_amp_compares_the_phase_before_the_compaction(self):
        table = {"fillrandom": {"strata": {"table_bytes": 900}},
                 "reads": {"strata": {"table_bytes": 300},
                           "RocksDB": {"table_bytes": 500}},
                 "compact": {"strata": {"table_bytes": 200},
                             "RocksDB": {"table_bytes": 0}}}
        self.assertAlmostEqual(sc.space_amp(table, "strata"), 1.5)
        self.assertIsNone(sc.space_amp(table, "RocksDB"))  # empty after
        self.assertIsNone(sc.space_amp({"compact": {}}, "strata"))


class RunTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.bins = {}
        for engine in cr.ENGINES:
            path = os.path.join(self.tmp.name, "fake_%s" % engine)
            with open(path, "w") as f:
                f.write(FAKE_DB_BENCH.format(python=sys.executable,
                                             engine=engine))
            os.chmod(path, 0o755)
            self.bins[engine] = path
        self.log = os.path.join(self.tmp.name, "calls.log")
        self.dbs = os.path.join(self.tmp.name, "dbs")
        os.mkdir(self.dbs)
        env = {"FAKE_LOG": self.log, "FAKE_RSS_ROCKSDB": "200",
               "FAKE_FAIL": ""}
        patcher = mock.patch.dict(os.environ, env)
        patcher.start()
        self.addCleanup(patcher.stop)

    def main(self, *args):
        argv = ["--strata=%s" % self.bins["strata"],
                "--rocksdb=%s" % self.bins["RocksDB"],
                "--tmpdir=%s" % self.dbs] + list(args)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            with mock.patch.object(cr, "plot_python", return_value=None):
                status = cr.main(argv)
        return status, out.getvalue(), err.getvalue()

    def calls(self):
        with open(self.log) as f:
            return [line.split() for line in f]

    def test_phases_alternate_on_kept_directories(self):
        out_dir = os.path.join(self.tmp.name, "out")
        status, out, err = self.main("--scale=1000,500:800",
                                     "--scale_seconds=1", "--scale_reads=10",
                                     "--out=%s" % out_dir)
        self.assertEqual(status, 0, err)
        calls = self.calls()
        phases = sc.phase_list(1, 10)
        self.assertEqual(len(calls), 2 * len(phases) * 2)
        # strata then RocksDB in every phase, phases in order.
        self.assertEqual([c[0] for c in calls],
                         list(cr.ENGINES) * (2 * len(phases)))
        self.assertEqual([c[1] for c in calls[:2 * len(phases):2]],
                         [p[1] for p in phases])
        # One directory per engine and scale, for all its phases.
        for first in (0, 2 * len(phases)):
            block = calls[first:first + 2 * len(phases)]
            for engine in cr.ENGINES:
                self.assertEqual(len({c[2] for c in block
                                      if c[0] == engine}), 1)
        self.assertEqual(len({c[2] for c in calls}), 4)
        self.assertEqual(os.listdir(self.dbs), [])  # removed at the end
        caches = [(c[3], c[4]) for c in calls if c[1] == "readrandom"]
        self.assertEqual(caches, [(str(8 << 20), "0")] * 2 +
                         [(str(8 << 20), "1")] * 2 +
                         [(str(1 << 30), "0")] * 2 +
                         [(str(1 << 30), "1")] * 2 +
                         [(str(8 << 20), "0")] * 2 +
                         [(str(8 << 20), "1")] * 2 +
                         [(str(1 << 30), "0")] * 2 +
                         [(str(1 << 30), "1")] * 2)

        self.assertIn("## 1,000 keys, 100-byte values", out)
        self.assertIn("## 500 keys, 800-byte values", out)
        self.assertIn("| fillrandom | 2,000 | 1,000 | 2.00 |", out)
        self.assertIn("| readwhilewriting, 8 MB cache, direct | 2,000 | "
                      "1,000 | 2.00 |", out)
        # 0.5 GiB over 2,000 writes of 116 bytes; 1.0 GiB over 1,000.
        self.assertIn("| fillrandom: write amplification | %.2f | %.2f |" % (
            0.5 * (1 << 30) / (2000 * 116), 1.0 * (1 << 30) / (1000 * 116)),
            out)
        self.assertIn("| fillrandom: levels with data | 2 | 2 |", out)
        # Each phase adds a 4,000-byte table, the compaction 1,000: 18
        # tables before it (the last settle step's count), 18 and the
        # compaction's after it.
        self.assertIn("| space amplification (size before the full "
                      "compaction / after) | %.2f | %.2f |" % (
                          72000 / 73000, 72000 / 73000), out)
        # Settle steps run but stay out of the tables.
        self.assertNotIn("settle after", out.split("Commands:")[0])

        with open(os.path.join(out_dir, "compare.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), len(calls))
        rss = {e: [float(r["peak_rss_mb"]) for r in rows
                   if r["engine"] == e] for e in cr.ENGINES}
        # Each child's own peak: strata's stay small though RocksDB's
        # children, run before some of them, held 200 MB.
        self.assertTrue(all(m >= 200 for m in rss["RocksDB"]), rss)
        self.assertTrue(all(m < 150 for m in rss["strata"]), rss)
        for phase in ("fillrandom", "overwrite"):
            with open(os.path.join(out_dir, "timeline-1000-strata-%s.csv" %
                                   phase)) as f:
                self.assertIn("1,2000", f.read())
        timelines = sc.plot_spec(
            mock.Mock(out=out_dir),
            {"1000": {"fillrandom": {"strata": [(1, 2.0)]},
                      "overwrite": {"strata": [(1, 3.0)]}}},
            {"machine": "cpu, 2 cores", "date": "today"})
        self.assertEqual([p[0] for p in timelines[0]["panels"]],
                         ["fillrandom", "overwrite"])

    def test_failing_phase_stops_with_its_command(self):
        os.environ["FAKE_FAIL"] = "seekrandom"
        status, out, err = self.main("--scale=1000", "--scale_seconds=1")
        self.assertEqual(status, 1)
        self.assertIn("exit status 3", err)
        self.assertIn("--benchmarks=seekrandom", err)
        self.assertEqual(os.listdir(self.dbs), [])

    def test_bad_command_lines(self):
        for args in (["--scale=abc"], ["--scale=10", "--scale_seconds=0"],
                     ["--scale=10", "--scale_reads=0"],
                     ["--scale", "--write_modes"],
                     ["--scale", "--benchmarks=readrandom"]):
            with contextlib.redirect_stderr(io.StringIO()):
                with self.assertRaises(SystemExit, msg=args) as e:
                    cr.parse_args(args)
            self.assertEqual(e.exception.code, 2)
        self.assertEqual(cr.parse_args(["--scale"]).scales,
                         sc.parse_scales(sc.DEFAULT_SCALES))


if __name__ == "__main__":
    unittest.main()
