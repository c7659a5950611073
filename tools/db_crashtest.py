#!/usr/bin/env python3
"""Crash-tests strata with tools/db_stress, as RocksDB's db_crashtest.py does.

  blackbox   runs db_stress with options drawn at random per cycle, kills it
             (SIGKILL; TerminateProcess on Windows) after a random time,
             restarts it on the same DB and expected state: every start
             verifies every key first.
  whitebox   runs db_stress with --kill_random_test, so that it ends itself
             at a kill point inside the engine (a WAL append, a MANIFEST
             sync, the CURRENT rename, ...); the exit code must be the
             crash code or 0; the next start verifies.

--power_loss: db_stress runs on its fault-injection Env and, when it ends
itself (at a kill point, or in blackbox after --crash_after_ms, since a
signal from outside could not drop data), drops everything not synced
first; the expected state then accepts the loss of unsynced writes
(docs/reliability.md, "Stress and crash testing").

A failure (a verification that does not match, an error, a hang) prints
the db_stress output, keeps the DB and expected state for inspection and
exits 1. At the end a summary: cycles, kills, verifications, failures,
seconds. Python 3 standard library only.

Examples:
  python3 tools/db_crashtest.py blackbox --db_stress=build/rel/db_stress \\
      --duration=600
  python3 tools/db_crashtest.py whitebox --power_loss --cycles=200 \\
      --db_stress=build/rel/db_stress
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

# tools/db_stress/crash.h: kCrashExitCode, the exit code of a crash on
# purpose; 3 is a verification failure.
CRASH_EXIT_CODE = 75
VERIFY_FAILED_EXIT_CODE = 3

# Whitebox modes: which kill points may fire, and the odds at each. WAL
# appends come once per write group, far more often than the others, so
# modes 1 and 2 leave them out to reach the rarer points.
WHITEBOX_MODES = [
    ("", 3000),
    ("WAL::", 20),
    ("WAL::,TableFile::,DBImpl::", 10),
]


def parse_args(argv):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["blackbox", "whitebox"])
    p.add_argument("--db_stress", default=None,
                   help="the db_stress binary (default: next to this "
                   "script's build, or on PATH)")
    p.add_argument("--emulator", default=None,
                   help="run db_stress through this program (default: "
                   "wine for a .exe when not on Windows)")
    p.add_argument("--duration", type=float, default=None,
                   help="seconds to run (default 600 unless --cycles)")
    p.add_argument("--cycles", type=int, default=None,
                   help="crash-and-verify cycles to run")
    p.add_argument("--power_loss", action="store_true",
                   help="simulate power loss at each crash")
    p.add_argument("--seed", type=int, default=None,
                   help="seed of the option draws (default: the clock)")
    p.add_argument("--work_dir", default=None,
                   help="where the DB and expected state go (default: a "
                   "new temporary directory, removed unless a cycle fails)")
    p.add_argument("--interval", type=float, default=8.0,
                   help="blackbox: a run is killed 0.5..interval s after its "
                   "first verification")
    p.add_argument("--max_key", type=int, default=10000)
    p.add_argument("--threads", type=int, default=4)
    p.add_argument("--column_families", type=int, default=None,
                   help="default: 1..4 at random, fixed for the DB")
    p.add_argument("--nooverwritepercent", type=int, default=None,
                   help="default: 0, 5 or 20 at random, fixed for the DB")
    p.add_argument("--test_batches_snapshots", type=int, choices=[0, 1],
                   default=None,
                   help="default: 1 in 7 DBs with several families")
    p.add_argument("--run_timeout", type=float, default=300.0,
                   help="a run that takes longer is a hang (a failure)")
    p.epilog = ((p.epilog or "") + "\nAfter --: more db_stress flags, for "
                "every run (after the drawn ones, so they win).")
    # argparse cannot take "-- flags" after its options once the mode
    # positional is filled: the tail is split off here.
    extra = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1:]
    args = p.parse_args(argv)
    args.extra = extra
    return args


def find_db_stress(given):
    if given:
        return given
    here = os.path.dirname(os.path.abspath(__file__))
    for build in ("rel", "release", "asan", ""):
        for name in ("db_stress", "db_stress.exe"):
            path = os.path.join(here, "..", "build", build, name)
            if os.path.isfile(path):
                return os.path.normpath(path)
    found = shutil.which("db_stress")
    if found:
        return found
    sys.exit("db_crashtest: no db_stress; pass --db_stress=PATH")


def command_prefix(db_stress, emulator):
    if emulator:
        return [emulator, db_stress]
    if db_stress.lower().endswith(".exe") and os.name != "nt":
        for wine in ("wine", "wine64", "/usr/lib/wine/wine64"):
            found = shutil.which(wine)
            if found:
                return [found, db_stress]
        sys.exit("db_crashtest: no wine to run %s; pass --emulator" %
                 db_stress)
    return [db_stress]


class Crashtest:
    def __init__(self, args):
        self.args = args
        self.seed = args.seed if args.seed is not None else int(time.time())
        self.rng = random.Random(self.seed)
        self.prefix = command_prefix(find_db_stress(args.db_stress),
                                     args.emulator)
        self.own_work_dir = args.work_dir is None
        self.work_dir = args.work_dir or tempfile.mkdtemp(
            prefix="strata_crashtest_")
        os.makedirs(self.work_dir, exist_ok=True)
        self.db = os.path.join(self.work_dir, "db")
        self.expected = os.path.join(self.work_dir, "expected")
        self.cycles = 0
        self.kills = 0
        self.verifications = 0
        self.failures = 0
        self.kill_points = {}
        self.options_seen = {}
        self.start = time.time()
        # Fixed for the DB's lifetime: what the expected state's shape
        # and the SingleDelete invariant depend on.
        cfs = args.column_families or self.rng.randint(1, 4)
        self.fixed = {
            "max_key": args.max_key,
            "column_families": cfs,
            "threads": args.threads,
            "nooverwritepercent": (self.rng.choice([0, 5, 20])
                                   if args.nooverwritepercent is None else
                                   args.nooverwritepercent),
            "test_batches_snapshots": int(cfs > 1 and (
                self.rng.random() < 0.15
                if args.test_batches_snapshots is None
                else args.test_batches_snapshots == 1)),
            "log2_keys_per_lock": self.rng.choice([0, 2, 5]),
            "db": self.db,
            "expected_values_dir": self.expected,
        }
        self.compressions = [c for c in ("none", "snappy", "zlib")
                             if self.probe(compression_type=c)]
        self.direct_reads = self.probe(use_direct_reads=1)

    def probe(self, **flags):
        """Whether db_stress opens a scratch DB with these flags."""
        d = os.path.join(self.work_dir, "probe")
        cmd = self.prefix + ["--db=" + d, "--destroy_db_initially=1",
                             "--ops_per_thread=0", "--max_key=1",
                             "--reopen=0"]
        cmd += ["--%s=%s" % kv for kv in flags.items()]
        ok = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode == 0
        shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(d + "_expected", ignore_errors=True)
        return ok

    def random_options(self):
        r = self.rng
        o = {}
        o["sync"] = int(r.random() < 0.2)
        o["disable_wal"] = int(not o["sync"] and
                               not self.fixed["test_batches_snapshots"] and
                               r.random() < 0.15)
        # Atomic batches hold in the unordered mode only when it is
        # snapshot-safe, so the batch test picks that form of it.
        o["unordered_write"] = int(r.random() < 0.2)
        o["unordered_write_snapshot_safe"] = int(
            o["unordered_write"] == 1 and
            (self.fixed["test_batches_snapshots"] or r.random() < 0.5))
        o["enable_pipelined_write"] = int(not o["unordered_write"] and
                                          r.random() < 0.3)
        o["memtablerep"] = ("vector" if not o["unordered_write"] and
                            r.random() < 0.1 else "skip_list")
        o["compression_type"] = r.choice(self.compressions)
        o["use_direct_reads"] = int(self.direct_reads and r.random() < 0.2)
        o["write_buffer_size"] = r.choice([16 << 10, 64 << 10, 256 << 10,
                                           1 << 20])
        o["target_file_size_base"] = r.choice([64 << 10, 256 << 10, 2 << 20])
        o["max_bytes_for_level_base"] = r.choice([256 << 10, 1 << 20,
                                                  10 << 20])
        o["use_merge"] = r.choice([0, 1])
        o["use_multiget"] = r.choice([0, 1])
        o["flush_one_in"] = r.choice([500, 2000, 10000])
        o["compact_range_one_in"] = r.choice([0, 1000, 5000])
        o["acquire_snapshot_one_in"] = r.choice([20, 100])
        o["sync_wal_one_in"] = r.choice([100, 1000])
        # Dropping and creating a family again empties it, which a check
        # that all families agree would report.
        o["clear_column_family_one_in"] = (
            0 if self.fixed["column_families"] < 2 or
            self.fixed["test_batches_snapshots"] else r.choice([0, 1000, 5000]))
        o["reopen"] = r.choice([0, 0, 1])
        # RocksDB's crash-test mix.
        o.update(readpercent=45, prefixpercent=5, writepercent=35,
                 delpercent=4, delrangepercent=1, iterpercent=10)
        o["seed"] = r.randrange(1, 2 ** 31 - 1)
        for k in ("sync", "disable_wal", "unordered_write",
                  "unordered_write_snapshot_safe", "enable_pipelined_write", "memtablerep", "compression_type",
                  "use_direct_reads", "write_buffer_size", "reopen",
                  "clear_column_family_one_in"):
            self.options_seen.setdefault(k, set()).add(o[k])
        return o

    def command(self, options):
        flags = dict(self.fixed)
        flags.update(options)
        if self.cycles == 0:
            flags["destroy_db_initially"] = 1
        if self.args.power_loss:
            flags["power_loss"] = 1
        return (self.prefix + ["--%s=%s" % kv for kv in flags.items()] +
                list(self.args.extra))

    def run(self, cmd, kill_after):
        """Runs cmd; kills it kill_after s (None: never) after its first
        verification ends, so the time goes to operations. Returns (exit
        code, None when killed here, or "hang"; the output)."""
        log_path = os.path.join(self.work_dir, "db_stress.log")
        if os.path.exists(log_path):
            # The run before the failing one says what it left behind.
            os.replace(log_path, log_path + ".previous")
        with open(log_path, "w") as log:
            log.write(" ".join(cmd) + "\n")
            log.flush()
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
            deadline = time.time() + self.args.run_timeout
            kill_at = None
            rc = None
            while True:
                rc = proc.poll()
                now = time.time()
                if rc is not None or now >= deadline or (
                        kill_at is not None and now >= kill_at):
                    break
                if kill_after is not None and kill_at is None:
                    with open(log_path) as partial:
                        if "verification after open" in partial.read():
                            kill_at = now + kill_after
                time.sleep(0.05)
            killed = rc is None
            if killed:
                proc.kill()  # SIGKILL; TerminateProcess on Windows
                proc.wait()
        with open(log_path) as log:
            output = log.read()
        if killed and time.time() >= deadline:
            return "hang", output
        return (None if killed else rc), output

    def account(self, output):
        self.verifications += output.count(" keys x ")
        for line in output.splitlines():
            if "crashing on purpose at " in line:
                point = line.split("crashing on purpose at ", 1)[1].strip()
                self.kill_points[point] = self.kill_points.get(point, 0) + 1

    def fail(self, why, output):
        self.failures += 1
        sys.stdout.write("\n==== db_stress output ====\n" + output +
                         "\n==== end of output ====\n")
        print("db_crashtest: FAILED in cycle %d: %s" % (self.cycles, why))
        print("db_crashtest: the run before it: db_stress.log.previous in "
              "the kept directory")
        print("db_crashtest: DB and expected state kept in %s (seed %d)" %
              (self.work_dir, self.seed))
        self.summary()
        sys.exit(1)

    def one_cycle(self):
        options = self.random_options()
        if self.args.mode == "blackbox":
            options["ops_per_thread"] = 100000000
            kill_after = self.rng.uniform(0.5, self.args.interval)
            if self.args.power_loss:
                # A signal could not drop unsynced data: db_stress ends
                # itself, dropping it first.
                options["crash_after_ms"] = int(kill_after * 1000)
                kill_after = None
        else:
            exclude, odds = WHITEBOX_MODES[self.cycles % len(WHITEBOX_MODES)]
            options["kill_random_test"] = odds
            if exclude:
                options["kill_exclude_prefixes"] = exclude
            options["ops_per_thread"] = 20000
            kill_after = None
        cmd = self.command(options)
        rc, output = self.run(cmd, kill_after)
        self.account(output)
        if rc == "hang":
            self.fail("no exit within %.0f s (a hang?)" %
                      self.args.run_timeout, output)
        if rc is None or rc == CRASH_EXIT_CODE:
            self.kills += 1
        elif rc == VERIFY_FAILED_EXIT_CODE:
            self.fail("verification failed", output)
        elif rc != 0:
            self.fail("db_stress exited with %d" % rc, output)
        self.cycles += 1
        if self.cycles % 10 == 0:
            print("db_crashtest: %d cycles, %d kills, %d verifications, "
                  "%.0f s" % (self.cycles, self.kills, self.verifications,
                              time.time() - self.start))
            sys.stdout.flush()

    def final_verify(self):
        options = {"verify_only": 1, "seed": 1}
        if self.args.power_loss:
            options["power_loss"] = 1
        flags = dict(self.fixed)
        flags.update(options)
        cmd = (self.prefix + ["--%s=%s" % kv for kv in flags.items()] +
               list(self.args.extra))
        rc, output = self.run(cmd, None)
        self.account(output)
        if rc != 0:
            self.fail("the final verification failed (exit %s)" % rc, output)

    def summary(self):
        points = ", ".join("%s %d" % kv for kv in sorted(
            self.kill_points.items()))
        print("db_crashtest: %s%s: %d cycles, %d kills, %d verifications, "
              "%d failures, %.0f seconds (seed %d)" % (
                  self.args.mode, " --power_loss" if self.args.power_loss
                  else "", self.cycles, self.kills, self.verifications,
                  self.failures, time.time() - self.start, self.seed))
        if points:
            print("db_crashtest: crashes at: " + points)
        print("db_crashtest: options covered: " + "; ".join(
            "%s %s" % (k, sorted(v, key=str))
            for k, v in sorted(self.options_seen.items())))

    def main(self):
        duration = self.args.duration
        if duration is None and self.args.cycles is None:
            duration = 600
        print("db_crashtest: %s, seed %d, work dir %s, fixed %s" % (
            self.args.mode, self.seed, self.work_dir,
            {k: v for k, v in self.fixed.items()
             if k not in ("db", "expected_values_dir")}))
        sys.stdout.flush()
        while True:
            if self.args.cycles is not None and \
                    self.cycles >= self.args.cycles:
                break
            if duration is not None and \
                    time.time() - self.start >= duration:
                break
            self.one_cycle()
        self.final_verify()
        self.summary()
        if self.own_work_dir:
            shutil.rmtree(self.work_dir, ignore_errors=True)
        return 0


if __name__ == "__main__":
    sys.exit(Crashtest(parse_args(sys.argv[1:])).main())
