"""The plan and the report of tools/compare_rocksdb.py: the db_bench
command lines of each run, parsing db_bench's result, version, warning
and --report_file lines, the median/ratio table and the Markdown/CSV
report."""

import csv
import re
import shlex
import statistics

ENGINES = ("strata", "RocksDB")
DEFAULT_THREADS = {"readwhilewriting": 2, "fillsync": 4}
COMMON_FLAGS = ["--key_size=16", "--value_size=100",
                "--compression_type=snappy", "--bloom_bits=10",
                "--cache_size=8388608", "--write_buffer_size=67108864"]
# Benchmarks that start from an empty DB (db_bench destroys it first).
FRESH_DB = {"fillseq", "fillrandom", "filluniquerandom", "fillsync",
            "fillbatch", "fill100K"}


RESULT_RE = re.compile(
    r"^(?P<name>\S+)\s*:\s*(?P<micros>[0-9.]+) micros/op\s+"
    r"(?P<ops>[0-9.]+) ops/sec(?:\s+(?P<seconds>[0-9.]+) seconds\s+"
    r"(?P<operations>\d+) operations;)?(?P<rest>.*)$", re.M)
VERSION_RE = re.compile(r"^(?P<engine>\w+):\s+version\s+(?P<version>\S+)",
                        re.M)


class CompareError(Exception):
    """A failure the user must see: printed, exit status 1."""


# ---------------------------------------------------------------- parsing

def parse_result(output, name):
    """The result line of benchmark `name` in db_bench's output, as a dict
    (micros_per_op, ops_per_sec, seconds, operations, rest), or None."""
    found = None
    for m in RESULT_RE.finditer(output):
        if m.group("name") == name:
            found = m  # the last one: a benchmark listed twice reports twice
    if found is None:
        return None
    return {
        "micros_per_op": float(found.group("micros")),
        "ops_per_sec": float(found.group("ops")),
        "seconds": float(found.group("seconds") or 0),
        "operations": int(found.group("operations") or 0),
        "rest": found.group("rest").strip(),
    }


def parse_version(output):
    """(engine, version) from db_bench's "RocksDB:    version 7.8.3" line
    (stderr), or None."""
    m = VERSION_RE.search(output)
    return (m.group("engine"), m.group("version")) if m else None


def parse_warnings(output):
    """db_bench's "WARNING: ..." lines (e.g. a build with assertions)."""
    return sorted(set(re.findall(r"^WARNING: .*$", output, re.M)))


def parse_timeline(text):
    """[(seconds, ops/sec)] from a --report_file CSV
    ("secs_elapsed,interval_qps" then one line per interval)."""
    points = []
    for row in csv.reader(text.splitlines()):
        if len(row) < 2 or not row[0].strip().isdigit():
            continue  # the header, a blank line
        points.append((int(row[0]), float(row[1])))
    return points


def median_table(results):
    """results: [{engine, benchmark, threads, ops_per_sec, ...}] ->
    [(benchmark, threads, strata median, RocksDB median, ratio)] in the
    order benchmarks first appear; a missing engine gives None."""
    order = []
    ops = {}
    for r in results:
        key = (r["benchmark"], r["threads"])
        if key not in ops:
            order.append(key)
            ops[key] = {e: [] for e in ENGINES}
        ops[key][r["engine"]].append(r["ops_per_sec"])
    rows = []
    for key in order:
        med = {e: statistics.median(v) if v else None
               for e, v in ops[key].items()}
        s, r = med["strata"], med["RocksDB"]
        ratio = s / r if s is not None and r else None
        rows.append((key[0], key[1], s, r, ratio))
    return rows


def format_table(rows):
    """The Markdown table of median_table's rows."""
    def num(x):
        return "-" if x is None else "{:,.0f}".format(x)

    lines = ["| benchmark | strata ops/s | RocksDB ops/s "
             "| ratio (strata/RocksDB) |",
             "|---|--:|--:|--:|"]
    for name, threads, s, r, ratio in rows:
        label = name if threads == 1 else "%s (%d threads)" % (name, threads)
        lines.append("| %s | %s | %s | %s |" % (
            label, num(s), num(r), "-" if ratio is None else
            "%.2f" % ratio))
    return "\n".join(lines)


def parse_benchmarks(spec):
    """"a,b:2" -> [("a", 1), ("b", 2)]; threads default from
    DEFAULT_THREADS. Raises ValueError on a bad entry."""
    result = []
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        name, _, threads = item.partition(":")
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            raise ValueError("bad benchmark name '%s'" % item)
        if threads:
            if not threads.isdigit() or int(threads) < 1:
                raise ValueError("bad thread count in '%s'" % item)
            n = int(threads)
        else:
            n = DEFAULT_THREADS.get(name, 1)
        result.append((name, n))
    return result


# ------------------------------------------------------------- the plan

def plan_steps(bench, threads, num, seed, fill, extra, db="$DB"):
    """The db_bench argument lists (without the binary) of one run of
    bench: [(args, takes_result)]. Only the last step's result counts."""
    common = ["--db=%s" % db, "--num=%d" % num, "--seed=%d" % seed]
    common += COMMON_FLAGS
    steps = []
    args = common + ["--benchmarks=%s" % bench, "--threads=%d" % threads]
    if bench not in FRESH_DB:
        steps.append((common + ["--benchmarks=%s" % fill, "--threads=1"] +
                      extra, False))
        args.append("--use_existing_db=1")
    if bench == "fillsync":
        args.append("--writes=%d" % max(1, num // 1000))
    steps.append((args + extra, True))
    return steps


def shell_word(arg):
    """arg for a shell, $DB left to expand (the commands are meant to be
    pasted with DB_BENCH and DB set)."""
    return arg if re.fullmatch(r"[\w@%+=:,./$-]+", arg) else shlex.quote(arg)


def commands_text(opts, benches, timeline):
    """The exact db_bench command lines, one block per benchmark: both
    engines run these, $DB_BENCH being each one's binary and $DB a fresh
    directory."""
    lines = []
    items = [(b, t, []) for b, t in benches]
    if timeline:
        items.append((timeline[0], timeline[1],
                      ["--report_interval_seconds=1",
                       "--report_file=timeline-ENGINE.csv"]))
    for bench, threads, last in items:
        num = opts.num
        if last:
            num = opts.timeline_num
            lines.append("# timeline")
        for args, measured in plan_steps(bench, threads, num, opts.seed,
                                         opts.fill, opts.extra):
            if measured:
                args = args + last
            lines.append("$DB_BENCH " + " ".join(shell_word(a)
                                                 for a in args))
    return "\n".join(lines)


def header_lines(title, info, binaries):
    """The start of a report: its title, the date, the machine, each
    engine's version and binary, and how the RocksDB binary was built."""
    versions = info["versions"]
    out = ["# " + title, "", "- Date: %s" % info["date"],
           "- Machine: %s" % info["machine"]]
    for engine in ENGINES:
        out.append("- %s: version %s (`%s`)" % (
            engine, versions.get(engine, "?"), binaries[engine]))
    if info.get("rocksdb_build"):
        out.append("- RocksDB's build: %s" % info["rocksdb_build"])
    return out


def report_markdown(opts, benches, rows, info, binaries, timeline_series):
    """The whole report: how it was made, the table, the commands."""
    versions = info["versions"]
    out = ["# strata vs RocksDB: db_bench side by side", ""]
    out.append("- Date: %s" % info["date"])
    out.append("- Machine: %s" % info["machine"])
    out.append("- strata: version %s (`%s`)" % (
        versions.get("strata", "?"), binaries["strata"]))
    out.append("- RocksDB: version %s (`%s`)%s" % (
        versions.get("RocksDB", "?"), binaries["RocksDB"],
        ", " + info["rocksdb_build"] if info.get("rocksdb_build") else ""))
    out.append("- %d keys (`--num`), %d run(s) per engine and benchmark, "
               "alternating strata, RocksDB; the table shows the median "
               "ops/sec." % (opts.num, opts.runs))
    out.append("- Every run in a fresh directory. Fills start empty; the "
               "other benchmarks run on a DB filled by `--benchmarks=%s` "
               "(1 thread, not measured), then reopened by a second "
               "db_bench with `--use_existing_db=1`." % opts.fill)
    if any(b == "fillsync" for b, _ in benches):
        out.append("- fillsync: `--writes=%d` per thread for both (their "
                   "defaults differ)." % max(1, opts.num // 1000))
    for engine, warning in info["warnings"]:
        out.append("- %s's db_bench says: `%s`" % (engine, warning))
    if rows:
        out += ["", format_table(rows)]
    if timeline_series:
        bench = info["timeline"][0]
        out += ["", "Timeline (`timeline.png`): one run of %s on %d keys "
                "per engine; every second the operations of all its "
                "threads (readwhilewriting's writer too), so intervals can "
                "top the result line:" % (bench, opts.timeline_num)]
        for engine, (result, points) in timeline_series.items():
            peak = max((p[1] for p in points), default=0)
            out.append("- %s: %.0f ops/sec overall, %d intervals, peak "
                       "%.0f ops/sec" % (engine, result["ops_per_sec"],
                                         len(points), peak))
        if not any(p for _, p in timeline_series.values()):
            out.append("- no run lasted a whole interval, no timeline.png: "
                       "raise --timeline_num")
    out += ["", "Commands (`$DB_BENCH`: each engine's db_bench; `$DB`: a "
            "fresh directory per run, shared by a fill and the benchmark "
            "after it):", "",
            "```", commands_text(opts, benches, info.get("timeline")), "```"]
    return "\n".join(out) + "\n"


CSV_FIELDS = ["engine", "benchmark", "threads", "run", "ops_per_sec",
              "micros_per_op", "seconds", "operations", "rest",
              "user_seconds", "sys_seconds", "wall_seconds"]


def write_csv(path, results, fields=CSV_FIELDS):
    """Every run, one row each; fields not in a result are left empty."""
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        for r in results:
            writer.writerow(r)
