#!/usr/bin/env python3
"""sst_dump's output against golden files, and its errors on bad input.

sst_dump_fixture writes a DB with one table of known entries; the table
is copied to table.sst in the working directory and every command runs on
relative paths from there (so that the Windows build runs under Wine the
same way). Only what legitimately varies is masked: the creation time and
recompress's timings. Run with --update to rewrite the golden files (then
read the diff: they are the expected output).
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys


def normalize(text):
    text = text.replace("\r\n", "\n")
    text = re.sub(r"creation time: \d+", "creation time: <time>", text)
    text = re.sub(r"Time Taken: +\d+", "Time Taken: <micros>", text)
    return text


class Runner:
    def __init__(self, args):
        self.emulator = shlex.split(args.emulator) if args.emulator else []
        self.sst_dump = args.sst_dump
        self.fixture = args.fixture
        self.failures = []

    def run(self, program, argv):
        proc = subprocess.run(self.emulator + [program] + argv,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=120)
        out = normalize(proc.stdout.decode("latin-1"))
        err = normalize(proc.stderr.decode("latin-1"))
        return proc.returncode, out, err

    def fail(self, name, why, out="", err=""):
        self.failures.append("%s: %s\n--- stdout:\n%s--- stderr:\n%s" %
                             (name, why, out, err))


def decode_varint(data, pos):
    result, shift = 0, 0
    while True:
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def data_block_handles(dump_text):
    """(offset, size) of each data block, from the raw dump's headers."""
    handles = []
    for hexed in re.findall(r"^Data Block # \d+ @ ([0-9A-F]+)$", dump_text,
                            re.M):
        raw = bytes.fromhex(hexed)
        offset, pos = decode_varint(raw, 0)
        size, _ = decode_varint(raw, pos)
        handles.append((offset, size))
    return handles


# name, sst_dump flags; stdout is compared with golden/<name>.txt.
GOLDEN_CASES = [
    ("check", ["--file=table.sst"]),
    ("check_explicit", ["--file=table.sst", "--command=check"]),
    ("scan", ["--file=table.sst", "--command=scan"]),
    ("scan_from_to", ["--file=table.sst", "--command=scan", "--from=key010",
                      "--to=key013"]),
    ("scan_read_num", ["--file=table.sst", "--command=scan", "--read_num=3"]),
    ("scan_hex", ["--file=table.sst", "--command=scan", "--input_key_hex",
                  "--from=0x6B6579303338", "--to=6b657930333a",
                  "--output_hex", "--verify_checksum"]),
    ("scan_properties", ["--file=table.sst", "--command=scan",
                         "--from=key039", "--show_properties"]),
    ("verify", ["--file=table.sst", "--command=verify"]),
    ("identify", ["--file=table.sst", "--command=identify"]),
    ("identify_dir", ["--file=tables", "--command=identify"]),
    ("check_dir_summary", ["--file=tables", "--show_summary"]),
    ("raw", ["--file=table.sst", "--command=raw"]),
    ("recompress", ["--file=table.sst", "--command=recompress",
                    "--set_block_size=512",
                    "--compression_types=kNoCompression,kZlibCompression"]),
]


def check_golden(runner, golden_dir, update, without_codecs):
    for name, argv in GOLDEN_CASES:
        rc, out, err = runner.run(runner.sst_dump, argv)
        if rc != 0:
            runner.fail(name, "exit status %d" % rc, out, err)
            continue
        # A build without zlib says so where recompress would use it.
        suffix = "_without_codecs" if (name == "recompress" and
                                       without_codecs) else ""
        outputs = [(name + suffix + ".txt", out)]
        if name == "raw":
            with open("table_dump.txt", "rb") as f:
                outputs.append(("raw_dump.txt",
                                normalize(f.read().decode("latin-1"))))
        for file_name, text in outputs:
            path = os.path.join(golden_dir, file_name)
            if update:
                with open(path, "w", encoding="latin-1", newline="\n") as f:
                    f.write(text)
                continue
            with open(path, encoding="latin-1", newline="") as f:
                expected = f.read().replace("\r\n", "\n")
            if text != expected:
                runner.fail(name, "differs from %s" % file_name, text, err)


def write_bytes(name, data):
    with open(name, "wb") as f:
        f.write(data)


def check_errors(runner):
    with open("table.sst", "rb") as f:
        table = f.read()
    with open("table_dump.txt", encoding="latin-1") as f:
        handles = data_block_handles(f.read())
    if len(handles) < 2:
        runner.fail("setup", "the table should have several data blocks")
        return
    write_bytes("truncated.sst", table[: len(table) // 2])
    write_bytes("notatable.sst", b"this is not a table\n" * 8)
    write_bytes("empty.sst", b"")
    flipped = []
    for number, (offset, size) in enumerate(handles[:2], start=1):
        damaged = bytearray(table)
        damaged[offset + size // 2] ^= 0x40
        name = "flipped%d.sst" % number
        write_bytes(name, bytes(damaged))
        flipped.append((name, number, offset, size))
    os.makedirs("no_tables", exist_ok=True)
    write_bytes(os.path.join("no_tables", "notes.txt"), b"no tables here\n")

    # name, flags, regular expression stderr must match (exit status != 0).
    cases = [
        ("missing", ["--file=nosuch.sst"], r"nosuch\.sst"),
        ("dir_without_tables", ["--file=no_tables"],
         r"no_tables: no table files \(\*\.sst\) in the directory"),
        ("truncated", ["--file=truncated.sst"], r"truncated\.sst: .*footer"),
        ("not_a_table", ["--file=notatable.sst", "--command=identify"],
         r"notatable\.sst: Corruption: .*footer(.|\n)*"
         r"notatable\.sst is not a valid SST file"),
        ("empty", ["--file=empty.sst", "--command=scan"],
         r"empty\.sst: Corruption: .*footer"),
        ("unknown_command", ["--file=table.sst", "--command=bogus"],
         r"unknown command 'bogus'(.|\n)*--command="),
        ("unknown_flag", ["--file=table.sst", "--bogus"],
         r"Unrecognized argument '--bogus'(.|\n)*--file="),
        ("malformed_hex", ["--file=table.sst", "--command=scan",
                           "--input_key_hex", "--from=0xZZ"],
         r"--from: malformed hex key '0xZZ'"),
        ("no_file", ["--command=scan"], r"--file is required"),
    ]
    for name, number, offset, size in flipped:
        where = (r"data block #%d at offset %d size %d: .*checksum mismatch" %
                 (number, offset, size))
        for command in ["check", "verify", "raw", "recompress"]:
            cases.append(("%s_%s" % (name, command),
                          ["--file=" + name, "--command=" + command], where))
        cases.append(("%s_scan" % name, ["--file=" + name, "--command=scan",
                                         "--verify_checksum"], where))
    for name, argv, pattern in cases:
        rc, out, err = runner.run(runner.sst_dump, argv)
        if rc == 0:
            runner.fail(name, "exit status 0", out, err)
        elif not re.search(pattern, err):
            runner.fail(name, "stderr does not match " + pattern, out, err)
    # A damaged file in a directory fails that file only: the others are
    # still processed, and the exit status says something failed.
    shutil.copy("flipped2.sst", os.path.join("tables", "c.sst"))
    rc, out, err = runner.run(runner.sst_dump, ["--file=tables"])
    if (rc == 0 or out.count("The file is ok") != 2 or
            not re.search(r"c\.sst: Corruption: data block #2", err)):
        runner.fail("dir_with_damage", "exit %d" % rc, out, err)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sst_dump", required=True)
    parser.add_argument("--fixture", required=True)
    parser.add_argument("--emulator", default="")
    parser.add_argument("--golden", required=True)
    parser.add_argument("--work_dir", required=True)
    parser.add_argument("--update", action="store_true")
    parser.add_argument("--without_codecs", action="store_true",
                        help="sst_dump was built without zlib")
    args = parser.parse_args()

    shutil.rmtree(args.work_dir, ignore_errors=True)
    os.makedirs(args.work_dir)
    golden_dir = os.path.abspath(args.golden)
    os.chdir(args.work_dir)
    runner = Runner(args)
    rc, out, err = runner.run(runner.fixture, ["db", "none"])
    if rc != 0:
        print("fixture failed:\n" + out + err)
        return 1
    tables = sorted(n for n in os.listdir("db") if n.endswith(".sst"))
    if len(tables) != 1:
        print("expected one table in db, found %s" % tables)
        return 1
    shutil.copy(os.path.join("db", tables[0]), "table.sst")
    os.makedirs("tables")
    shutil.copy("table.sst", os.path.join("tables", "b.sst"))
    shutil.copy("table.sst", os.path.join("tables", "a.sst"))
    write_bytes(os.path.join("tables", "readme.txt"), b"not a table\n")

    check_golden(runner, golden_dir, args.update, args.without_codecs)
    check_errors(runner)
    for failure in runner.failures:
        print("FAILED " + failure)
    print("%d failures" % len(runner.failures))
    return 1 if runner.failures else 0


if __name__ == "__main__":
    sys.exit(main())
