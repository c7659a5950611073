#!/usr/bin/env python3
"""Tests of tools/compare_rocksdb.py without RocksDB or the network: its
parsing of real db_bench outputs (both engines), the medians and the
table, the command lines it builds, the write-mode cells (their
flags per engine, CPU per op, medians, the speedup table, the share of
its unordered speedup strata's snapshot-safe cells keep, and the
verdicts of issues 8 and 23), the CPU
time it measures of a child, and its run loop driven by fake db_bench
scripts (alternation, fresh directories, failures).

Run: python3 tools/compare_rocksdb_test.py (ctest: compare_rocksdb_test).
"""

import contextlib
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_rocksdb as cr  # noqa: E402

# RocksDB 7.8.3's db_bench (Debian), stdout then stderr, abridged.
ROCKSDB_OUTPUT = """\
Initializing RocksDB Options from the specified file
Initializing RocksDB Options from command-line flags
Integrated BlobDB: blob cache disabled
Keys:       16 bytes each (+ 0 bytes user-defined timestamp)
Values:     100 bytes each (50 bytes after compression)
Entries:    200000
Compression: Snappy
WARNING: Assertions are enabled; benchmarks unnecessarily slow
------------------------------------------------
DB path: [/tmp/cmp-try/r]
readwhilewriting :      22.243 micros/op 89545 ops/sec 4.467 seconds \
400000 operations;    6.3 MB/s (126333 of 200000 found)

RocksDB:    version 7.8.3
Date:       Sun Nov 22 07:38:28 2026
CPU:        2 * Intel(R) Xeon(R) Processor
... finished 100 ops
"""

# strata's db_bench: a fill and a compaction in one invocation.
STRATA_OUTPUT = """\
Keys:       16 bytes each (+ 0 bytes user-defined timestamp)
------------------------------------------------
DB path: [/tmp/cmp-try/s]
fillrandom   :       5.394 micros/op 185403 ops/sec 0.108 seconds \
20000 operations;   20.5 MB/s
DB path: [/tmp/cmp-try/s]
compact      :   60014.000 micros/op 16 ops/sec 0.060 seconds \
1 operations;
strata:     version 0.1.0
Date:       Sun Nov 22 07:38:25 2026
"""


class ParseTest(unittest.TestCase):

    def test_rocksdb_result_line_with_found(self):
        r = cr.parse_result(ROCKSDB_OUTPUT, "readwhilewriting")
        self.assertEqual(r["ops_per_sec"], 89545)
        self.assertAlmostEqual(r["micros_per_op"], 22.243)
        self.assertAlmostEqual(r["seconds"], 4.467)
        self.assertEqual(r["operations"], 400000)
        self.assertEqual(r["rest"], "6.3 MB/s (126333 of 200000 found)")

    def test_picks_the_named_benchmark(self):
        self.assertEqual(cr.parse_result(STRATA_OUTPUT, "fillrandom")
                         ["ops_per_sec"], 185403)
        compact = cr.parse_result(STRATA_OUTPUT, "compact")
        self.assertEqual(compact["ops_per_sec"], 16)
        self.assertEqual(compact["operations"], 1)
        self.assertIsNone(cr.parse_result(STRATA_OUTPUT, "readrandom"))
        self.assertIsNone(cr.parse_result(STRATA_OUTPUT, "fill"))

    def test_last_line_of_a_repeated_benchmark(self):
        text = ("fillseq      :       1.000 micros/op 100 ops/sec 1.0 "
                "seconds 100 operations;\nfillseq      :       2.000 "
                "micros/op 200 ops/sec 1.0 seconds 200 operations;\n")
        self.assertEqual(cr.parse_result(text, "fillseq")["ops_per_sec"], 200)

    def test_skipped_and_progress_lines_are_no_result(self):
        text = ("fillseq      : skipped (--use_existing_db is true)\n"
                "... finished 100 ops\n")
        self.assertIsNone(cr.parse_result(text, "fillseq"))

    def test_versions_and_warnings(self):
        self.assertEqual(cr.parse_version(ROCKSDB_OUTPUT),
                         ("RocksDB", "7.8.3"))
        self.assertEqual(cr.parse_version(STRATA_OUTPUT), ("strata", "0.1.0"))
        self.assertIsNone(cr.parse_version("Keys: 16 bytes\n"))
        self.assertEqual(cr.parse_warnings(ROCKSDB_OUTPUT),
                         ["WARNING: Assertions are enabled; benchmarks "
                          "unnecessarily slow"])
        self.assertEqual(cr.parse_warnings(STRATA_OUTPUT), [])

    def test_timeline_csv(self):
        text = "secs_elapsed,interval_qps\n1,113363\n2,111350\n\n3,122669\n"
        self.assertEqual(cr.parse_timeline(text),
                         [(1, 113363), (2, 111350), (3, 122669)])
        self.assertEqual(cr.parse_timeline("secs_elapsed,interval_qps\n"), [])

    def test_benchmark_list(self):
        self.assertEqual(
            cr.parse_benchmarks(cr.DEFAULT_BENCHMARKS),
            [("fillseq", 1), ("fillrandom", 1), ("overwrite", 1),
             ("readrandom", 1), ("readseq", 1), ("seekrandom", 1),
             ("readwhilewriting", 2), ("fillsync", 4)])
        self.assertEqual(cr.parse_benchmarks("readrandom:8, fillsync:1,"),
                         [("readrandom", 8), ("fillsync", 1)])
        self.assertEqual(cr.parse_benchmarks(""), [])
        for bad in ("readrandom:0", "readrandom:x", "read random", "a;b"):
            with self.assertRaises(ValueError, msg=bad):
                cr.parse_benchmarks(bad)


class PlanTest(unittest.TestCase):

    def test_fill_runs_alone_on_an_empty_db(self):
        steps = cr.plan_steps("fillrandom", 1, 1000, 7, "fillrandom,compact",
                              [], db="/d")
        self.assertEqual(len(steps), 1)
        args, measured = steps[0]
        self.assertTrue(measured)
        self.assertEqual(args[:3], ["--db=/d", "--num=1000", "--seed=7"])
        for flag in cr.COMMON_FLAGS + ["--benchmarks=fillrandom",
                                       "--threads=1"]:
            self.assertIn(flag, args)
        self.assertFalse(any(a.startswith("--use_existing_db") for a in args))
        self.assertFalse(any(a.startswith("--writes") for a in args))

    def test_read_runs_on_a_fill_of_one_thread(self):
        steps = cr.plan_steps("readwhilewriting", 2, 1000, 1,
                              "fillrandom,compact", ["--histogram=1"],
                              db="/d")
        self.assertEqual(len(steps), 2)
        (fill, fill_measured), (read, read_measured) = steps
        self.assertFalse(fill_measured)
        self.assertTrue(read_measured)
        self.assertIn("--benchmarks=fillrandom,compact", fill)
        self.assertIn("--threads=1", fill)
        self.assertNotIn("--use_existing_db=1", fill)
        self.assertIn("--benchmarks=readwhilewriting", read)
        self.assertIn("--threads=2", read)
        self.assertIn("--use_existing_db=1", read)
        # Both use the same directory; extra flags come last, so they win.
        self.assertEqual(fill[0], read[0])
        self.assertEqual(fill[-1], "--histogram=1")
        self.assertEqual(read[-1], "--histogram=1")

    def test_fillsync_passes_its_write_count(self):
        (args, _), = cr.plan_steps("fillsync", 4, 1000000, 1, "x", [])
        self.assertIn("--writes=1000", args)
        self.assertIn("--threads=4", args)
        (args, _), = cr.plan_steps("fillsync", 4, 10, 1, "x", [])
        self.assertIn("--writes=1", args)

    def test_column_families_reach_the_fill_and_the_benchmark(self):
        # A DB made with N families must be reopened naming all N: the
        # flag goes to the fill step and to the measured one.
        steps = cr.plan_steps("readrandom", 1, 1000, 1, "fillrandom,compact",
                              ["--num_column_families=4"], db="/d")
        self.assertEqual(len(steps), 2)
        for args, _ in steps:
            self.assertEqual(args[-1], "--num_column_families=4")

    def test_commands_text_is_the_same_for_both_engines(self):
        opts = mock.Mock(num=5000, seed=3, fill="fillseq", extra=["--a=b c"],
                         timeline_num=9000)
        text = cr.commands_text(opts, [("readseq", 1)], ("fillrandom", 1))
        lines = text.splitlines()
        self.assertEqual(lines[0].split()[:3],
                         ["$DB_BENCH", "--db=$DB", "--num=5000"])
        self.assertIn("--benchmarks=fillseq", lines[0])
        self.assertIn("--use_existing_db=1", lines[1])
        self.assertTrue(lines[1].endswith("'--a=b c'"))
        self.assertEqual(lines[2], "# timeline")
        self.assertIn("--num=9000", lines[3])
        self.assertTrue(lines[3].endswith(
            "--report_interval_seconds=1 --report_file=timeline-ENGINE.csv"))


class WriteModesTest(unittest.TestCase):
    """The pure half of --write_modes: command lines, CPU figures, the
    medians, both tables and the verdicts."""

    MODE_FLAGS = ("--disable_wal=", "--unordered_write=",
                  "--unordered_write_snapshot_safe=", "--transaction_db=")

    def plans(self):
        """{(engine, wal, mode): db_bench arguments} of every cell."""
        return {(engine, wal, mode): cr.wm.plan_cell(
                    engine, wal, mode, 500, 4, ["--threads=32"], db="/d")
                for _, wal, mode in cr.wm.CELLS for engine in cr.ENGINES}

    def without_mode_flags(self, args):
        return [a for a in args if not a.startswith(self.MODE_FLAGS)]

    def test_cells_in_table_order(self):
        self.assertEqual(cr.wm.CELLS, (
            ("WAL, ordered", True, "ordered"),
            ("WAL, unordered", True, "unordered"),
            ("no WAL, ordered", False, "ordered"),
            ("no WAL, unordered", False, "unordered"),
            ("WAL, snapshot-safe", True, "safe"),
            ("no WAL, snapshot-safe", False, "safe")))

    def test_cells_differ_only_in_wal_and_mode(self):
        plans = self.plans()
        self.assertEqual(len(plans), 12)
        base = self.without_mode_flags(plans[("strata", True, "ordered")])
        for (engine, wal, mode), args in plans.items():
            key = (engine, wal, mode)
            self.assertEqual(args[:3], ["--db=/d", "--num=500", "--seed=4"])
            for flag in cr.COMMON_FLAGS + [
                    "--benchmarks=fillrandom", "--threads=16",
                    "--batch_size=8", "--disable_auto_compactions=1",
                    "--enable_pipelined_write=0"]:
                self.assertIn(flag, args, key)
            self.assertIn("--disable_wal=%d" % (not wal), args)
            self.assertEqual(len([a for a in args if a.startswith(
                "--disable_wal=")]), 1, key)
            self.assertIn("--unordered_write=%d" % (mode != "ordered"),
                          args)
            self.assertEqual(len([a for a in args if a.startswith(
                "--unordered_write=")]), 1, key)
            self.assertEqual(args[-1], "--threads=32")  # extra flags win
            self.assertEqual(self.without_mode_flags(args), base, key)
        # Ordered and unordered cells: the same command for both engines.
        for _, wal, mode in cr.wm.CELLS[:4]:
            self.assertEqual(plans[("strata", wal, mode)],
                             plans[("RocksDB", wal, mode)])
        self.assertEqual(plans[("strata", False, "ordered")][-3:-1],
                         ["--disable_wal=1", "--unordered_write=0"])

    def test_snapshot_safe_flags_per_engine(self):
        plans = self.plans()
        for wal in (True, False):
            strata = plans[("strata", wal, "safe")]
            rocksdb = plans[("RocksDB", wal, "safe")]
            self.assertIn("--unordered_write=1", strata)
            self.assertIn("--unordered_write_snapshot_safe=1", strata)
            self.assertFalse(any(a.startswith("--transaction_db")
                                 for a in strata), strata)
            self.assertIn("--unordered_write=1", rocksdb)
            self.assertIn("--transaction_db=1", rocksdb)
            self.assertFalse(any("snapshot_safe" in a for a in rocksdb),
                             rocksdb)
            # Apart from the engine's own flag, the same arguments in the
            # same order, and those of the unordered cell.
            unordered = plans[("strata", wal, "unordered")]
            self.assertEqual([a for a in strata if a !=
                              "--unordered_write_snapshot_safe=1"],
                             unordered)
            self.assertEqual([a for a in rocksdb if a !=
                              "--transaction_db=1"], unordered)
            ordered = plans[("RocksDB", wal, "ordered")]
            self.assertEqual(self.without_mode_flags(strata),
                             self.without_mode_flags(ordered))
            self.assertEqual(self.without_mode_flags(rocksdb),
                             self.without_mode_flags(ordered))
        self.assertEqual(cr.wm.cell_flags("strata", False, "safe"),
                         ["--disable_wal=1", "--unordered_write=1",
                          "--unordered_write_snapshot_safe=1"])
        self.assertEqual(cr.wm.cell_flags("RocksDB", True, "safe"),
                         ["--disable_wal=0", "--unordered_write=1",
                          "--transaction_db=1"])

    def test_unknown_engine_or_mode(self):
        with self.assertRaises(ValueError):
            cr.wm.cell_flags("LevelDB", True, "safe")
        with self.assertRaises(ValueError):
            cr.wm.cell_flags("strata", True, True)
        with self.assertRaises(ValueError):
            cr.wm.plan_cell("strata", True, "snapshot", 1, 1, [])

    def test_cpu_per_op_and_cores_busy(self):
        r = {"operations": 4000, "user_seconds": 0.003, "sys_seconds": 0.001,
             "wall_seconds": 0.002}
        self.assertAlmostEqual(cr.wm.cpu_per_op_micros(r), 1.0)
        self.assertAlmostEqual(cr.wm.cores_busy(r), 2.0)
        self.assertIsNone(cr.wm.cpu_per_op_micros(dict(r, operations=0)))
        self.assertIsNone(cr.wm.cores_busy(dict(r, wall_seconds=0)))

    @staticmethod
    def result(engine, cell, ops, cpu_seconds=1.0, operations=1000000,
               wall=1.0):
        return {"engine": engine, "cell": cell, "ops_per_sec": float(ops),
                "operations": operations, "user_seconds": cpu_seconds * 0.75,
                "sys_seconds": cpu_seconds * 0.25, "wall_seconds": wall}

    # Median ops (strata, RocksDB) of every cell; RocksDB's are one more
    # than given (results() runs it at r and r + 2).
    OPS = {"WAL, ordered": (200, 100), "WAL, unordered": (500, 300),
           "no WAL, ordered": (300, 200), "no WAL, unordered": (600, 500),
           "WAL, snapshot-safe": (440, 250),
           "no WAL, snapshot-safe": (510, 300)}

    def results(self, safe=True, ops=None):
        """Three runs of strata, two of RocksDB, in a scrambled order; the
        snapshot-safe cells only with safe. ops: {cell label: (strata,
        RocksDB)} in place of OPS' for those cells."""
        out = []
        cells = dict(self.OPS)
        for label, pair in (ops or {}).items():
            self.assertIn(label, cells)
            cells[label] = pair
        if not safe:
            cells = {c: v for c, v in cells.items()
                     if "snapshot-safe" not in c}
        for cell in reversed(list(cells)):
            s, r = cells[cell]
            out += [self.result("strata", cell, s + 10, cpu_seconds=3.0),
                    self.result("RocksDB", cell, r, cpu_seconds=2.0,
                                wall=2.0),
                    self.result("strata", cell, s, cpu_seconds=2.0),
                    self.result("RocksDB", cell, r + 2, cpu_seconds=4.0,
                                wall=2.0),
                    self.result("strata", cell, s - 10, cpu_seconds=1.0)]
        return out

    def test_rows_are_medians_in_cell_order(self):
        rows = cr.wm.cell_rows(self.results())
        self.assertEqual([r["cell"] for r in rows],
                         [c[0] for c in cr.wm.CELLS])
        self.assertEqual([(r["wal"], r["mode"]) for r in rows],
                         [c[1:] for c in cr.wm.CELLS])
        first = rows[0]
        self.assertEqual(first["strata"], {"ops": 200, "cpu": 2.0,
                                           "cores": 2.0})
        self.assertEqual(first["RocksDB"], {"ops": 101, "cpu": 3.0,
                                            "cores": 1.5})
        self.assertAlmostEqual(first["ratio"], 200 / 101)
        self.assertAlmostEqual(rows[4]["ratio"], 440 / 251)
        self.assertAlmostEqual(rows[5]["ratio"], 510 / 301)

    def test_missing_cells_and_engines(self):
        rows = cr.wm.cell_rows([self.result("strata", "WAL, unordered", 9)])
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0]["RocksDB"], {"ops": None, "cpu": None,
                                              "cores": None})
        self.assertIsNone(rows[0]["ratio"])
        none = {"strata": {True: None, False: None},
                "RocksDB": {True: None, False: None}}
        self.assertEqual(cr.wm.speedups(rows), none)
        self.assertEqual(cr.wm.speedups(rows, "safe"), none)
        self.assertEqual(cr.wm.kept(rows), {True: None, False: None})
        self.assertIsNone(cr.wm.verdict(rows))
        self.assertIsNone(cr.wm.verdict_safe(rows))
        text = cr.wm.format_tables(rows)
        self.assertIn("| strata | - | - | - | - |", text)
        self.assertIn("unordered speedup - 1): - with the WAL, - without.",
                      text)

    def test_speedups(self):
        rows = cr.wm.cell_rows(self.results())
        ups = cr.wm.speedups(rows)
        self.assertAlmostEqual(ups["strata"][True], 500 / 200)
        self.assertAlmostEqual(ups["strata"][False], 600 / 300)
        self.assertAlmostEqual(ups["RocksDB"][True], 301 / 101)
        self.assertAlmostEqual(ups["RocksDB"][False], 501 / 201)
        safe = cr.wm.speedups(rows, "safe")
        self.assertAlmostEqual(safe["strata"][True], 440 / 200)
        self.assertAlmostEqual(safe["strata"][False], 510 / 300)
        self.assertAlmostEqual(safe["RocksDB"][True], 251 / 101)
        self.assertAlmostEqual(safe["RocksDB"][False], 301 / 201)
        # Without the safe cells the unordered speedups stay.
        rows = cr.wm.cell_rows(self.results(safe=False))
        self.assertEqual(cr.wm.speedups(rows), ups)
        self.assertEqual(cr.wm.speedups(rows, "safe")["strata"],
                         {True: None, False: None})

    def test_kept(self):
        # WAL: unordered 2.5x, safe 2.2x -> 1.2 / 1.5; no WAL: 2.0x and
        # 1.7x -> 0.7 / 1.0.
        kept = cr.wm.kept(cr.wm.cell_rows(self.results()))
        self.assertAlmostEqual(kept[True], 0.8)
        self.assertAlmostEqual(kept[False], 0.7)
        rocksdb = cr.wm.kept(cr.wm.cell_rows(self.results()), "RocksDB")
        self.assertAlmostEqual(rocksdb[True], (251 / 101 - 1) /
                               (301 / 101 - 1))
        # A safe cell slower than the ordered one keeps less than nothing.
        kept = cr.wm.kept(cr.wm.cell_rows(self.results(
            ops={"no WAL, snapshot-safe": (150, 300)})))
        self.assertAlmostEqual(kept[False], -0.5)
        # No unordered gain (speedup 1.0, or below): nothing to keep.
        kept = cr.wm.kept(cr.wm.cell_rows(self.results(
            ops={"WAL, unordered": (200, 300),
                 "no WAL, unordered": (250, 500)})))
        self.assertEqual(kept, {True: None, False: None})
        # Without the safe cells, or without an ordered one.
        self.assertEqual(cr.wm.kept(cr.wm.cell_rows(
            self.results(safe=False))), {True: None, False: None})
        results = [r for r in self.results()
                   if r["cell"] != "no WAL, ordered"]
        kept = cr.wm.kept(cr.wm.cell_rows(results))
        self.assertAlmostEqual(kept[True], 0.8)
        self.assertIsNone(kept[False])

    def test_tables(self):
        text = cr.wm.format_tables(cr.wm.cell_rows(self.results()))
        self.assertEqual(text, textwrap.dedent("""\
            | cell | strata ops/s | RocksDB ops/s | ratio (strata/RocksDB) \
| strata CPU µs/op | RocksDB CPU µs/op | strata cores busy \
| RocksDB cores busy |
            |---|--:|--:|--:|--:|--:|--:|--:|
            | WAL, ordered | 200 | 101 | 1.98 | 2.00 | 3.00 | 2.00 | 1.50 |
            | WAL, unordered | 500 | 301 | 1.66 | 2.00 | 3.00 | 2.00 | 1.50 |
            | no WAL, ordered | 300 | 201 | 1.49 | 2.00 | 3.00 | 2.00 | 1.50 |
            | no WAL, unordered | 600 | 501 | 1.20 | 2.00 | 3.00 | 2.00 \
| 1.50 |
            | WAL, snapshot-safe | 440 | 251 | 1.75 | 2.00 | 3.00 | 2.00 \
| 1.50 |
            | no WAL, snapshot-safe | 510 | 301 | 1.69 | 2.00 | 3.00 | 2.00 \
| 1.50 |

            | engine | unordered speedup, WAL | unordered speedup, no WAL \
| snapshot-safe speedup, WAL | snapshot-safe speedup, no WAL |
            |---|--:|--:|--:|--:|
            | strata | 2.50 | 2.00 | 2.20 | 1.70 |
            | RocksDB | 2.98 | 2.49 | 2.49 | 1.50 |

            Kept by strata's snapshot-safe cells, (snapshot-safe speedup \
- 1) / (unordered speedup - 1): 0.80 with the WAL, 0.70 without."""))

    ISSUE8_SPEEDUP = ("Issue 8's bar is not met: strata's unordered speedup "
                      "is below RocksDB's (WAL, no WAL).")

    def test_verdict_issue8(self):
        rows = cr.wm.cell_rows(self.results(safe=False))
        # Faster everywhere, but RocksDB gains more from unordered_write.
        self.assertEqual(cr.wm.verdict(rows), self.ISSUE8_SPEEDUP)
        results = [r for r in self.results(safe=False)
                   if not (r["engine"] == "RocksDB" and
                           r["cell"] == "WAL, unordered")]
        results += [self.result("RocksDB", "WAL, unordered", 150)] * 2
        rows = cr.wm.cell_rows(results)
        self.assertIn("speedup is below RocksDB's (no WAL)",
                      cr.wm.verdict(rows))
        rows[0]["ratio"] = 0.5
        rows[3]["ratio"] = 0.9
        self.assertIn("ops/s are below RocksDB's in \"WAL, ordered\" and "
                      "\"no WAL, unordered\"; strata's unordered speedup",
                      cr.wm.verdict(rows))
        for row in rows:
            row["ratio"] = 1.0
            for engine in cr.ENGINES:
                row[engine]["ops"] = 100.0 * (
                    1 if row["mode"] == "ordered" else 2)
        self.assertEqual(cr.wm.verdict(rows),
                         "Issue 8's bar is met: strata's ops/s >= RocksDB's "
                         "in every cell, and its unordered speedup >= "
                         "RocksDB's with and without the WAL.")

    def test_verdict_issue8_ignores_the_safe_cells(self):
        alone = cr.wm.verdict(cr.wm.cell_rows(self.results(safe=False)))
        rows = cr.wm.cell_rows(self.results())
        line = cr.wm.verdict(rows)
        self.assertTrue(line.startswith(alone + " Issue 23's bar"), line)
        # A safe cell behind RocksDB is issue 23's business only.
        rows[4]["ratio"] = 0.5
        self.assertTrue(cr.wm.verdict(rows).startswith(alone + " "))
        self.assertNotIn("snapshot-safe\"", cr.wm.verdict(rows))
        # Only some of the safe cells, or a safe cell without RocksDB:
        # issue 8's sentence alone.
        for drop in (lambda r: r["cell"] == "WAL, snapshot-safe",
                     lambda r: "snapshot-safe" in r["cell"] and
                     r["engine"] == "RocksDB"):
            rows = cr.wm.cell_rows([r for r in self.results()
                                    if not drop(r)])
            self.assertEqual(cr.wm.verdict(rows), alone)
            self.assertIsNone(cr.wm.verdict_safe(rows))
        # No verdict without issue 8's four cells, safe cells or not.
        for results in (self.results(), self.results(safe=False)):
            rows = cr.wm.cell_rows([r for r in results if not (
                r["cell"] == "no WAL, ordered" and r["engine"] == "strata")])
            self.assertIsNone(cr.wm.verdict(rows))

    def test_verdict_issue23(self):
        rows = cr.wm.cell_rows(self.results())
        # Kept 0.8 with the WAL, 0.7 without; 1.75x and 1.69x RocksDB.
        self.assertEqual(cr.wm.verdict_safe(rows),
                         "Issue 23's bar is not met: strata's snapshot-safe "
                         "cell keeps less than 75% of its unordered speedup "
                         "(no WAL).")
        self.assertEqual(cr.wm.verdict(rows),
                         self.ISSUE8_SPEEDUP + " " +
                         cr.wm.verdict_safe(rows))
        rows[4]["ratio"] = 1.49
        self.assertEqual(cr.wm.verdict_safe(rows),
                         "Issue 23's bar is not met: strata's snapshot-safe "
                         "cell keeps less than 75% of its unordered speedup "
                         "(no WAL); strata's snapshot-safe ops/s are below "
                         "1.5x RocksDB's (WAL).")
        rows[5]["ratio"] = 1.0
        self.assertTrue(cr.wm.verdict_safe(rows).endswith(
            "below 1.5x RocksDB's (WAL, no WAL)."))

    def test_verdict_issue23_met_at_the_bar(self):
        # Exactly 75% kept (WAL: 2.5x -> 2.125x; no WAL: 2.0x -> 1.75x)
        # and exactly 1.5x RocksDB: met.
        rows = cr.wm.cell_rows(self.results(
            ops={"WAL, snapshot-safe": (425, 250),
                 "no WAL, snapshot-safe": (525, 300)}))
        self.assertEqual(cr.wm.kept(rows), {True: 0.75, False: 0.75})
        rows[4]["ratio"] = rows[5]["ratio"] = 1.5
        met = ("Issue 23's bar is met: with and without the WAL, strata's "
               "snapshot-safe cell keeps >= 75% of its unordered speedup, "
               "and its ops/s are >= 1.5x RocksDB's (TransactionDB, "
               "WritePrepared) in the same cell.")
        self.assertEqual(cr.wm.verdict_safe(rows), met)
        self.assertEqual(cr.wm.verdict(rows),
                         self.ISSUE8_SPEEDUP + " " + met)
        # Just below either bar: not met, and the part named.
        rows[5]["ratio"] = 1.4999
        self.assertEqual(cr.wm.verdict_safe(rows),
                         "Issue 23's bar is not met: strata's snapshot-safe "
                         "ops/s are below 1.5x RocksDB's (no WAL).")
        rows = cr.wm.cell_rows(self.results(
            ops={"WAL, snapshot-safe": (424, 250),
                 "no WAL, snapshot-safe": (525, 300)}))
        rows[4]["ratio"] = rows[5]["ratio"] = 1.5
        self.assertEqual(cr.wm.verdict_safe(rows),
                         "Issue 23's bar is not met: strata's snapshot-safe "
                         "cell keeps less than 75% of its unordered speedup "
                         "(WAL).")

    def test_verdict_issue23_without_an_unordered_gain(self):
        # strata's unordered cell no faster than its ordered one without
        # the WAL: there is no speedup to keep, so the bar is not met.
        rows = cr.wm.cell_rows(self.results(
            ops={"no WAL, unordered": (300, 500),
                 "WAL, snapshot-safe": (425, 100)}))
        self.assertEqual(cr.wm.verdict_safe(rows),
                         "Issue 23's bar is not met: strata's unordered "
                         "speedup is missing or not above 1, so there is "
                         "none to keep (no WAL).")

    def test_commands(self):
        lines = cr.wm.commands_text(100, 1, ["--x=a b"]).splitlines()
        labels = [c[0] for c in cr.wm.CELLS]
        self.assertEqual(lines[0::2], ["# " + c for c in labels[:4]] + [
            "# WAL, snapshot-safe (strata)", "# WAL, snapshot-safe (RocksDB)",
            "# no WAL, snapshot-safe (strata)",
            "# no WAL, snapshot-safe (RocksDB)"])
        for line in lines[1::2]:
            self.assertTrue(line.startswith("$DB_BENCH --db=$DB --num=100 "))
            self.assertTrue(line.endswith("'--x=a b'"))
        self.assertIn("--disable_wal=1 --unordered_write=1 '--x", lines[7])
        self.assertIn("--disable_wal=0 --unordered_write=1 "
                      "--unordered_write_snapshot_safe=1 '--x", lines[9])
        self.assertIn("--disable_wal=0 --unordered_write=1 "
                      "--transaction_db=1 '--x", lines[11])
        self.assertIn("--disable_wal=1 --unordered_write=1 "
                      "--unordered_write_snapshot_safe=1 '--x", lines[13])
        self.assertIn("--disable_wal=1 --unordered_write=1 "
                      "--transaction_db=1 '--x", lines[15])
        self.assertEqual(len(lines), 16)


class TableTest(unittest.TestCase):

    @staticmethod
    def result(engine, bench, ops, threads=1):
        return {"engine": engine, "benchmark": bench, "threads": threads,
                "ops_per_sec": float(ops)}

    def test_medians_ratios_and_order(self):
        results = [
            self.result("strata", "readseq", 300),
            self.result("RocksDB", "readseq", 100),
            self.result("strata", "fillseq", 10),
            self.result("RocksDB", "fillseq", 40),
            self.result("strata", "readseq", 100),
            self.result("RocksDB", "readseq", 200),
            self.result("strata", "readseq", 200),
            self.result("RocksDB", "readseq", 1000),
            self.result("strata", "fillseq", 30),
            self.result("RocksDB", "fillseq", 20),
        ]
        rows = cr.median_table(results)
        self.assertEqual(rows, [("readseq", 1, 200, 200, 1.0),
                                ("fillseq", 1, 20, 30, 20 / 30)])

    def test_threads_make_separate_rows_and_missing_engine(self):
        rows = cr.median_table([self.result("strata", "readrandom", 5, 1),
                                self.result("strata", "readrandom", 9, 2),
                                self.result("RocksDB", "readrandom", 3, 2)])
        self.assertEqual(rows, [("readrandom", 1, 5, None, None),
                                ("readrandom", 2, 9, 3, 3.0)])

    def test_markdown(self):
        text = cr.format_table([("fillseq", 1, 1234567.4, 1000000.0,
                                 1.2345674),
                                ("fillsync", 4, 1500.0, 2000.0, 0.75),
                                ("readseq", 1, 10.0, None, None)])
        self.assertEqual(text, textwrap.dedent("""\
            | benchmark | strata ops/s | RocksDB ops/s | ratio (strata/RocksDB) |
            |---|--:|--:|--:|
            | fillseq | 1,234,567 | 1,000,000 | 1.23 |
            | fillsync (4 threads) | 1,500 | 2,000 | 0.75 |
            | readseq | 10 | - | - |"""))


# A db_bench stand-in: prints its engine's version and a result line per
# benchmark (ops/sec from FAKE_OPS_<ENGINE>), logs its command line to
# FAKE_LOG, and misbehaves as FAKE_MODE asks.
FAKE_DB_BENCH = """\
#!{python}
import os, sys
engine = {engine!r}
args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if "=" in a)
os.makedirs(args["db"], exist_ok=True)
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write("%s %s %s %s %s %s %s %s %s\\n" % (
        engine, args["benchmarks"], args["db"],
        args.get("use_existing_db", "0"), args.get("disable_wal", "-"),
        args.get("unordered_write", "-"),
        args.get("num_column_families", "-"),
        args.get("unordered_write_snapshot_safe", "-"),
        args.get("transaction_db", "-")))
sys.stderr.write("%s:    version 1.2.3\\n" % engine)
mode = os.environ.get("FAKE_MODE", "ok")
if mode == "fail" and engine == "RocksDB":
    sys.stderr.write("IO error: disk on fire\\n")
    sys.exit(3)
if "report_file" in args:
    with open(args["report_file"], "w") as f:
        f.write("secs_elapsed,interval_qps\\n")
        if mode != "short":
            f.write("1,10\\n2,20\\n")
for name in args["benchmarks"].split(","):
    if mode == "noresult":
        continue
    ops = int(os.environ["FAKE_OPS_" + engine.upper()])
    if args.get("unordered_write") == "1":
        ops *= 2
    if args.get("unordered_write_snapshot_safe") == "1":
        ops -= 50
    if args.get("transaction_db") == "1":
        ops //= 2
    if args.get("disable_wal") == "1":
        ops += 100
    print("%-12s : 1.000 micros/op %s ops/sec 1.000 seconds 10 operations;"
          % (name, ops))
"""


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
        env = {"FAKE_LOG": self.log, "FAKE_OPS_STRATA": "300",
               "FAKE_OPS_ROCKSDB": "150", "FAKE_MODE": "ok"}
        patcher = mock.patch.dict(os.environ, env)
        patcher.start()
        self.addCleanup(patcher.stop)

    def main(self, *args, strata=None, rocksdb=None):
        argv = ["--strata=%s" % (strata or self.bins["strata"]),
                "--rocksdb=%s" % (rocksdb or self.bins["RocksDB"]),
                "--tmpdir=%s" % self.dbs] + list(args)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            with mock.patch.object(cr, "plot_python", return_value=None):
                status = cr.main(argv)
        return status, out.getvalue(), err.getvalue()

    def calls(self):
        with open(self.log) as f:
            return [line.split() for line in f]

    def test_alternates_engines_in_fresh_directories(self):
        out_dir = os.path.join(self.tmp.name, "out")
        status, out, err = self.main(
            "--num=1000", "--runs=2", "--benchmarks=fillseq,readrandom",
            "--out=%s" % out_dir, "--", "--histogram=1")
        self.assertEqual(status, 0, err)
        self.assertIn("| fillseq | 300 | 150 | 2.00 |", out)
        self.assertIn("| readrandom | 300 | 150 | 2.00 |", out)
        self.assertIn("- strata: version 1.2.3", out)
        self.assertIn("- RocksDB: version 1.2.3", out)
        self.assertIn("--histogram=1", out)  # in the commands
        calls = self.calls()
        # Per run and benchmark: strata then RocksDB; reads after a fill
        # in the same directory.
        expected = []
        for _ in range(2):
            for engine in cr.ENGINES:
                expected.append([engine, "fillseq", "0"])
            for engine in cr.ENGINES:
                expected += [[engine, "fillrandom,compact", "0"],
                             [engine, "readrandom", "1"]]
        self.assertEqual([[c[0], c[1], c[3]] for c in calls], expected)
        fill_read = [c for c in calls if c[1] != "fillseq"]
        for fill, read in zip(fill_read[::2], fill_read[1::2]):
            self.assertEqual(fill[2], read[2])
        self.assertEqual(len({c[2] for c in calls}), 8)  # fresh every run
        self.assertEqual(os.listdir(self.dbs), [])  # and removed
        with open(os.path.join(out_dir, "compare.csv")) as f:
            rows = f.read().splitlines()
        self.assertEqual(rows[0].split(",")[:5],
                         ["engine", "benchmark", "threads", "run",
                          "ops_per_sec"])
        self.assertEqual(len(rows), 1 + 8)
        with open(os.path.join(out_dir, "compare.md")) as f:
            self.assertEqual(f.read(), out)

    def test_db_bench_flags_go_to_both_engines(self):
        status, out, err = self.main(
            "--num=1000", "--runs=1", "--benchmarks=fillseq,readrandom",
            "--", "--num_column_families=4")
        self.assertEqual(status, 0, err)
        calls = self.calls()
        self.assertEqual(len(calls), 6)  # fillseq; fill + readrandom
        self.assertEqual({c[0] for c in calls}, set(cr.ENGINES))
        self.assertEqual({c[6] for c in calls}, {"4"})
        self.assertIn("--num_column_families=4", out)  # in the commands

    def test_write_modes(self):
        out_dir = os.path.join(self.tmp.name, "out")
        status, out, err = self.main("--write_modes", "--runs=1",
                                     "--out=%s" % out_dir)
        self.assertEqual(status, 0, err)
        # Each cell alternates the engines, each run in a fresh directory;
        # the snapshot-safe cells pass each engine its own flag.
        calls = self.calls()
        expected = []
        for wal, unordered in (("0", "0"), ("0", "1"), ("1", "0"),
                               ("1", "1")):
            for engine in cr.ENGINES:
                expected.append([engine, "fillrandom", "0", wal, unordered,
                                 "-", "-"])
        for wal in ("0", "1"):
            expected += [["strata", "fillrandom", "0", wal, "1", "1", "-"],
                         ["RocksDB", "fillrandom", "0", wal, "1", "-", "1"]]
        self.assertEqual([[c[0], c[1], c[3], c[4], c[5], c[7], c[8]]
                          for c in calls], expected)
        self.assertEqual(len({c[2] for c in calls}), 12)
        self.assertEqual(os.listdir(self.dbs), [])
        self.assertIn("# strata vs RocksDB: write modes (issues 8 and 23)",
                      out)
        self.assertIn("| WAL, ordered | 300 | 150 | 2.00 |", out)
        self.assertIn("| no WAL, unordered | 700 | 400 | 1.75 |", out)
        # The fake: snapshot-safe strata 50 ops/s below unordered,
        # RocksDB's TransactionDB half its unordered (before the no-WAL
        # 100).
        self.assertIn("| WAL, snapshot-safe | 550 | 150 | 3.67 |", out)
        self.assertIn("| no WAL, snapshot-safe | 650 | 250 | 2.60 |", out)
        self.assertIn("| strata | 2.00 | 1.75 | 1.83 | 1.62 |", out)
        self.assertIn("| RocksDB | 2.00 | 1.60 | 1.00 | 1.00 |", out)
        self.assertIn("unordered speedup - 1): 0.83 with the WAL, 0.83 "
                      "without.", out)
        self.assertIn("Issue 8's bar is met", out)
        self.assertIn("Issue 23's bar is met", out)
        self.assertIn("--num=200000 ", out)  # the write-mode default
        self.assertIn("# no WAL, snapshot-safe (strata)\n$DB_BENCH ", out)
        self.assertIn("--disable_wal=1 --unordered_write=1 "
                      "--unordered_write_snapshot_safe=1\n"
                      "# no WAL, snapshot-safe (RocksDB)\n$DB_BENCH ", out)
        self.assertIn("--disable_wal=1 --unordered_write=1 "
                      "--transaction_db=1\n```", out)
        with open(os.path.join(out_dir, "compare.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 12)
        for row in rows:
            # Every fake is a Python process: it costs some CPU.
            self.assertGreater(float(row["user_seconds"]) +
                               float(row["sys_seconds"]), 0, row)
            self.assertGreater(float(row["wall_seconds"]), 0, row)
        self.assertEqual(rows[0]["cell"], "WAL, ordered")
        self.assertEqual([r["cell"] for r in rows[-2:]],
                         ["no WAL, snapshot-safe"] * 2)
        self.assertIn("rocksdb-no-wal-snapshot-safe-run1.log",
                      os.listdir(os.path.join(out_dir, "logs")))
        self.assertFalse(os.path.exists(os.path.join(out_dir,
                                                     "ratios.png")))

    def test_timeline(self):
        out_dir = os.path.join(self.tmp.name, "out")
        status, out, err = self.main("--num=1000", "--benchmarks=",
                                     "--timeline=readseq:2",
                                     "--timeline_num=5000",
                                     "--out=%s" % out_dir)
        self.assertEqual(status, 0, err)
        self.assertNotIn("| benchmark |", out)
        self.assertIn("- strata: 300 ops/sec overall, 2 intervals, peak "
                      "20 ops/sec", out)
        with open(os.path.join(out_dir, "timeline-rocksdb.csv")) as f:
            self.assertEqual(cr.parse_timeline(f.read()), [(1, 10), (2, 20)])
        self.assertEqual([c[1] for c in self.calls()],
                         ["fillrandom,compact", "readseq"] * 2)

    def test_timeline_shorter_than_an_interval(self):
        os.environ["FAKE_MODE"] = "short"
        out_dir = os.path.join(self.tmp.name, "out")
        status, out, err = self.main("--num=10", "--benchmarks=",
                                     "--timeline=fillseq",
                                     "--out=%s" % out_dir)
        self.assertEqual(status, 0, err)
        self.assertIn("- strata: 300 ops/sec overall, 0 intervals", out)
        self.assertIn("no run lasted a whole interval", out)

    def test_failing_db_bench(self):
        os.environ["FAKE_MODE"] = "fail"
        status, out, err = self.main("--num=10", "--runs=1",
                                     "--benchmarks=fillseq")
        self.assertEqual(status, 1)
        self.assertIn("RocksDB db_bench failed on fillseq (exit status 3)",
                      err)
        self.assertIn("disk on fire", err)
        self.assertEqual(out, "")
        self.assertEqual(os.listdir(self.dbs), [])

    def test_no_result_line(self):
        os.environ["FAKE_MODE"] = "noresult"
        status, _, err = self.main("--num=10", "--runs=1",
                                   "--benchmarks=readseq")
        self.assertEqual(status, 1)
        self.assertIn("strata db_bench printed no result line for readseq",
                      err)

    def test_wrong_engine_binary(self):
        status, _, err = self.main("--num=10", "--runs=1",
                                   "--benchmarks=fillseq",
                                   rocksdb=self.bins["strata"])
        self.assertEqual(status, 1)
        self.assertIn("the RocksDB binary is strata's db_bench", err)

    def test_missing_strata_binary(self):
        status, _, err = self.main("--benchmarks=fillseq",
                                   strata=os.path.join(self.tmp.name, "no"))
        self.assertEqual(status, 1)
        self.assertIn("./build.sh bench", err)

    def test_bad_command_lines(self):
        for args in (["--runs=0"], ["--benchmarks=a:0"], ["--benchmarks="],
                     ["--timeline=readseq"],
                     ["--write_modes", "--benchmarks=fillseq"],
                     ["--write_modes", "--timeline=fillseq",
                      "--out=x"]):
            with self.assertRaises(SystemExit, msg=args) as e:
                self.main(*args)
            self.assertEqual(e.exception.code, 2)


def python_with_matplotlib():
    """This interpreter or Debian's if either has matplotlib (nothing is
    installed for the test), else None."""
    for python in (sys.executable, cr.DEBIAN_PYTHON):
        if os.access(python, os.X_OK) and subprocess.call(
                [python, "-c", "import matplotlib"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
            return python
    return None


class MeasureTest(unittest.TestCase):

    def test_cpu_time_is_the_childs(self):
        # The child burns at least 0.2 s of its own CPU time; the parent
        # sleeps meanwhile, so only the child's rusage can explain it.
        burn = ("import time\n"
                "while time.process_time() < 0.2: pass\n"
                "print('x')\n")
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "burn.py")
            with open(script, "w") as f:
                f.write(burn)
            output, usage = cr.run_measured(sys.executable, [script],
                                            "strata", "burn")
        self.assertIn("x", output)
        self.assertGreaterEqual(usage["user_seconds"] + usage["sys_seconds"],
                                0.2)
        self.assertGreater(usage["wall_seconds"], 0)


class PlotTest(unittest.TestCase):

    @unittest.skipIf(python_with_matplotlib() is None, "no matplotlib")
    def test_draws_both_pngs(self):
        with tempfile.TemporaryDirectory() as tmp:
            spec = {"title": "t", "ratios": [["fillseq", 1.5],
                                             ["fillsync:4", 0.5]],
                    "ratios_png": os.path.join(tmp, "ratios.png"),
                    "timeline": {"strata": [[1, 10], [2, 20]],
                                 "RocksDB": [[1, 5]]},
                    "timeline_title": "u",
                    "timeline_png": os.path.join(tmp, "timeline.png")}
            path = os.path.join(tmp, "spec.json")
            with open(path, "w") as f:
                json.dump(spec, f)
            subprocess.check_call([python_with_matplotlib(), cr.PLOT_SCRIPT,
                                   path])
            for png in ("ratios.png", "timeline.png"):
                with open(os.path.join(tmp, png), "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    unittest.main()
