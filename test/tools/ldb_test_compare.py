"""ldb_test.py compare: RocksDB's ldb and strata's, run on DBs built from
the same rows by the same commands, print the same bytes."""

import difflib
import os

from ldb_test_common import (BINARY_ROWS, CF2_ROWS, TEXT_ROWS, Failures, Ldb,
                             fresh_dir, load_lines, show)

def compare_steps():
    """(arguments, standard input) run against both tools, in order."""
    build = [
        (["--create_if_missing", "load"],
         load_lines(TEXT_ROWS, False) + b"no arrow here\n" +
         b"k\x00nul ==> raw \xff=>\x00bytes\n" + b"Keys in range: 3\n"),
        (["--hex", "load"], load_lines(BINARY_ROWS, True)),
        (["put", "added", "by put"], b""),
        (["--hex", "put", "0x00FE", "0x3D3E"], b""),
        (["batchput", "bp1", "v1", "bp2", "v 2"], b""),
        (["delete", "apple"], b""),
        (["singledelete", "b.3"], b""),
        (["deleterange", "c", "cherry"], b""),
        (["--key_hex", "delete", "0xFF"], b""),
        (["create_column_family", "cf2"], b""),
        (["--column_family=cf2", "--hex", "load"], load_lines(CF2_ROWS, True)),
    ]
    queries = []
    for flags in ([], ["--hex"], ["--key_hex"], ["--value_hex"]):
        queries += [
            flags + ["scan"],
            flags + ["scan", "--no_value"],
            flags + ["scan", "--max_keys=3"],
            flags + ["scan", "--max_keys=0"],
            flags + ["dump"],
            flags + ["dump", "--max_keys=4"],
            flags + ["dump", "--max_keys=0"],
            flags + ["dump", "--count_only"],
            flags + ["dump", "--count_delim"],
            flags + ["--column_family=cf2", "scan"],
            flags + ["--column_family=cf2", "dump"],
        ]
    queries += [
        ["scan", "--from=b", "--to=c"],
        ["scan", "--from=b.2"],
        ["scan", "--to=b"],
        ["dump", "--from=b", "--to=c"],
        ["dump", "--from=b", "--to=c", "--count_only"],
        ["dump", "--to=b", "--count_delim=."],
        ["dump", "--count_delim=1", "--count_only"],
        ["--hex", "scan", "--from=0x00", "--to=0x0100"],
        ["--key_hex", "dump", "--from=0x20", "--to=0x62", "--max_keys=5"],
        ["--hex", "dump", "--from=0xFF", "--count_only"],
        ["get", "banana"],
        ["get", "d"],
        ["get", "key with spaces"],
        ["get", "missing"],
        ["--hex", "get", "0x00FF"],
        ["--key_hex", "get", "0x6B006D6964"],
        ["--value_hex", "get", "z"],
        ["--column_family=cf2", "get", "cf2.b"],
        ["list_column_families"],
    ]
    return build, queries


def compare(args):
    failures = Failures()
    tools = {}
    for name, program in (("rocksdb", args.rocksdb_ldb),
                          ("strata", args.ldb)):
        work = os.path.join(args.work, name)
        fresh_dir(work)
        tools[name] = Ldb(program, work, args.emulator if name == "strata"
                          else "")
    rc, out, _ = tools["rocksdb"].run(["--help"])
    failures.check(b"RocksDB" in out, "%s is not RocksDB's ldb" %
                   args.rocksdb_ldb)
    build, queries = compare_steps()
    steps = [(argv, stdin) for argv, stdin in build] + [
        (argv, b"") for argv in queries]
    for argv, stdin in steps:
        results = {name: tool.run(["--db=db"] + argv, stdin)
                   for name, tool in tools.items()}
        (rrc, rout, _), (src, sout, serr) = results["rocksdb"], \
            results["strata"]
        what = "ldb --db=db " + " ".join(argv)
        failures.check(rrc == src, "%s: exit %d (RocksDB) vs %d (strata): %s"
                       % (what, rrc, src, show(serr)))
        if rout != sout:
            diff = difflib.unified_diff(show(rout).splitlines(),
                                        show(sout).splitlines(), "rocksdb",
                                        "strata", lineterm="")
            failures.check(False, "%s: outputs differ\n%s" %
                           (what, "\n".join(diff)))
    print("%d commands compared" % len(steps))
    return failures.finish("RocksDB comparison")
