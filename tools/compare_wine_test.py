#!/usr/bin/env python3
"""Tests of tools/compare_wine.py's pure half: the Windows form of the DB
path, the command of each side, the medians and ratios of the table, and
the command line's checks."""

import contextlib
import io
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_wine as cw  # noqa: E402


class CompareWineTest(unittest.TestCase):

    def test_windows_path(self):
        self.assertEqual(cw.windows_path("/tmp/compare-x/db"),
                         "Z:\\tmp\\compare-x\\db")

    def test_command(self):
        self.assertEqual(cw.command("native", "/b/db_bench", ["--num=1"]),
                         ["/b/db_bench", "--num=1"])
        self.assertEqual(cw.command("Wine", "/b/db_bench.exe", ["--num=1"]),
                         [cw.WINE, "/b/db_bench.exe", "--num=1"])

    def test_only_a_silent_wine_failure_runs_again(self):
        self.assertTrue(cw.failed_to_start("Wine", 1, ""))
        self.assertTrue(cw.failed_to_start("Wine", 1, " \n"))
        self.assertFalse(cw.failed_to_start("Wine", 1, "Invalid flag"))
        self.assertFalse(cw.failed_to_start("Wine", 2, ""))
        self.assertFalse(cw.failed_to_start("Wine", 0, ""))
        self.assertFalse(cw.failed_to_start("native", 1, ""))

    def test_medians_and_ratio(self):
        def r(side, mode, ops, bench="readrandom"):
            return {"side": side, "mode": mode, "benchmark": bench,
                    "threads": 1, "ops_per_sec": ops}

        results = [r("native", "buffered", 100), r("Wine", "buffered", 40),
                   r("native", "buffered", 300), r("Wine", "buffered", 60),
                   r("native", "buffered", 200), r("Wine", "buffered", 50),
                   r("native", "direct", 80), r("Wine", "direct", 20)]
        rows = cw.median_rows(results)
        self.assertEqual(rows, [
            ("readrandom", 1, "buffered", 200, 50, 0.25),
            ("readrandom", 1, "direct", 80, 20, 0.25)])
        # A side with no run: no ratio, a dash in the table.
        rows = cw.median_rows([r("native", "buffered", 100)])
        self.assertEqual(rows, [("readrandom", 1, "buffered", 100, None,
                                 None)])
        table = cw.format_rows(rows)
        self.assertIn("| readrandom | buffered | 100 | - | - |", table)

    def test_table_names_threads(self):
        rows = [("fillsync", 4, "direct", 1000.0, 250.0, 0.25)]
        self.assertIn("| fillsync (4 threads) | direct | 1,000 | 250 | "
                      "0.25 |", cw.format_rows(rows))

    def test_bad_command_lines(self):
        for argv in (["--modes=buffered,mmap"], ["--runs=0"],
                     ["--benchmarks=read random"]):
            with contextlib.redirect_stderr(io.StringIO()):
                with self.assertRaises(SystemExit) as e:
                    cw.parse_args(argv)
            self.assertEqual(e.exception.code, 2, argv)
        opts = cw.parse_args(["--modes=direct", "--", "--cache_size=1"])
        self.assertEqual(opts.modes, ["direct"])
        self.assertEqual(opts.extra, ["--cache_size=1"])
        self.assertEqual(cw.MODES["direct"], ["--use_direct_reads=true"])


if __name__ == "__main__":
    unittest.main()
