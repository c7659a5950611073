#!/usr/bin/env python3
"""Tests of tools/compare_fillsync.py's pure half: the command line of a
run, the writes per sync from each engine's tickers, the medians and
speedups of the table, and the probe of the disk."""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_fillsync as cf  # noqa: E402


class FillsyncTest(unittest.TestCase):

    def test_engine_args(self):
        args = cf.engine_args("strata", 4, 500, "/d")
        self.assertEqual(args[:6], ["--db=/d", "--benchmarks=fillsync",
                                    "--num=1000000", "--threads=4",
                                    "--writes=500", "--statistics=1"])
        self.assertEqual(args, cf.engine_args("RocksDB", 4, 500, "/d"))
        off = cf.engine_args(cf.NO_GATHER, 4, 500, "/d")
        self.assertEqual(off, args + ["--write_thread_sync_gather_usec=0"])

    def test_writes_per_sync(self):
        strata = ("strata.wal.synced COUNT : 250\n"
                  "strata.wal.bytes COUNT : 9\n"
                  "strata.wal.synced.writes COUNT : 1000\n")
        self.assertEqual(cf.writes_per_sync("strata", strata), 4.0)
        self.assertEqual(cf.writes_per_sync(cf.NO_GATHER, strata), 4.0)
        rocks = ("rocksdb.wal.synced COUNT : 400\n"
                 "rocksdb.write.wal COUNT : 1000\n")
        self.assertEqual(cf.writes_per_sync("RocksDB", rocks), 2.5)
        # The other engine's names, no syncs, or nothing: unknown.
        self.assertIsNone(cf.writes_per_sync("RocksDB", strata))
        self.assertIsNone(cf.writes_per_sync(
            "strata", strata.replace(": 250", ": 0")))
        self.assertIsNone(cf.writes_per_sync("strata", ""))

    def test_rows(self):
        results = []
        for engine, one, four in (("strata", (100, 110, 90), (400, 300,
                                                            350)),
                                  ("RocksDB", (50, 60, 40), (100, 80, 90))):
            for n, runs in ((1, one), (4, four)):
                for ops in runs:
                    results.append({"engine": engine, "threads": n,
                                    "ops_per_sec": float(ops),
                                    "writes_per_sync": n / 2.0})
        rows = cf.table_rows(results, ["strata", "RocksDB"], [1, 4])
        self.assertEqual([r["threads"] for r in rows], [1, 4])
        self.assertEqual(rows[1]["strata"]["runs"], [400, 300, 350])
        self.assertEqual(rows[1]["strata"]["ops"], 350)
        self.assertAlmostEqual(rows[1]["strata"]["speedup"], 3.5)
        self.assertAlmostEqual(rows[1]["RocksDB"]["speedup"], 1.8)
        self.assertAlmostEqual(rows[1]["ratio"], 350 / 90)
        self.assertEqual(rows[1]["RocksDB"]["per_sync"], 2.0)
        text = cf.format_table(rows, ["strata", "RocksDB"])
        self.assertIn("| 4 | 400, 300, 350 | 350 | 3.50 | 2.00 | 100, 80, "
                      "90 | 90 | 1.80 | 2.00 | 3.89 |", text)

    def test_rows_without_one_thread(self):
        results = [{"engine": e, "threads": 2, "ops_per_sec": 10.0,
                    "writes_per_sync": None} for e in ("strata", "RocksDB")]
        rows = cf.table_rows(results, ["strata", "RocksDB"], [2])
        self.assertIsNone(rows[0]["strata"]["speedup"])
        self.assertIn("| 2 | 10 | 10 | - | - |",
                      cf.format_table(rows, ["strata", "RocksDB"]))

    def test_probe(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertGreater(cf.fdatasync_rate(d, writes=5), 0)
            self.assertEqual(os.listdir(d), [])

    def test_bad_command_lines(self):
        for argv in (["--threads=1,x"], ["--runs=0"], ["--threads=0"]):
            with self.assertRaises(SystemExit) as e, \
                    contextlib.redirect_stderr(io.StringIO()):
                cf.parse_args(argv)
            self.assertEqual(e.exception.code, 2)


if __name__ == "__main__":
    unittest.main()
