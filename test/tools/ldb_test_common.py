"""Shared pieces of ldb's tests (ldb_test.py): the rows the tests load,
running an ldb binary, and collecting failed checks."""

import os
import re
import shlex
import shutil
import subprocess

# Rows loaded as "key ==> value" text. Values may hold " ==> " (load splits
# at the first), '=', '>', spaces; one is empty.
TEXT_ROWS = [
    (b"a", b"1"),
    (b"apple", b"red fruit"),
    (b"b.1", b"x"),
    (b"b.2", b"yy"),
    (b"b.3", b"zzz"),
    (b"banana", b"v => not an arrow"),
    (b"c", b"value with ==> arrow"),
    (b"c.1", b"deleted by deleterange"),
    (b"cherry", b"a=b>c"),
    (b"d", b""),
    (b"key with spaces", b" leading and trailing "),
    (b"z", b"last=>"),
]
# Rows loaded with --hex: NUL and 0xFF bytes, spaces, '=' and '>'. No
# "\n", "\r" or 0x1A, which a Windows console stream would change.
BINARY_ROWS = [
    (b"\x00", b"nul key"),
    (b"\x00\xff", b"=>\x00"),
    (b" \xff  ", b" => "),
    (b"k\x00mid", b"v\x00\xff="),
    (b"\xff", b"\xff\xfe"),
    (b"\xff\xff\x00", b"= > ="),
]
# A third family's: 2000 rows of 100-byte values, several table blocks.
BIG_ROWS = [(b"n%05d" % i, b"%c" % (97 + i % 26) * 100) for i in range(2000)]
# The second column family's rows.
CF2_ROWS = [(b"cf2.a", b"one"), (b"cf2.b", b"two ==> 2"), (b"\x01", b"\x02")]


WINE_NOTE = re.compile(rb"^(wine: |[0-9a-f]{4}:(fixme|err|warn|trace):)")


def to_hex(data):
    return "0x" + data.hex().upper()


def c_string(data):
    """What printing data as a C string shows: up to the first NUL."""
    return data.split(b"\x00", 1)[0]


def load_lines(rows, hex_rows):
    text = b""
    for key, value in rows:
        if hex_rows:
            text += (to_hex(key) + " ==> " + to_hex(value) + "\n").encode()
        else:
            text += key + b" ==> " + value + b"\n"
    return text


class Ldb:
    """Runs one ldb binary in a working directory."""

    def __init__(self, program, work, emulator=""):
        self.command = shlex.split(emulator) + [program]
        self.work = work
        env = dict(os.environ)
        env["WINEDEBUG"] = "-all"
        self.env = env

    def run(self, args, stdin=b""):
        proc = subprocess.run(self.command + args, input=stdin,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              cwd=self.work, env=self.env, timeout=300)
        out = proc.stdout.replace(b"\r\n", b"\n")
        err = proc.stderr.replace(b"\r\n", b"\n")
        if len(self.command) > 1:
            # The emulator's own notes (wine's first start, debug
            # channels) are not ldb's.
            err = b"".join(line for line in err.splitlines(True)
                           if not WINE_NOTE.match(line))
        return proc.returncode, out, err


class Failures:
    def __init__(self):
        self.messages = []

    def check(self, ok, message):
        if not ok:
            self.messages.append(message)
            print("FAIL: " + message, flush=True)

    def finish(self, what):
        if self.messages:
            print("%d failed checks in %s" % (len(self.messages), what))
            return 1
        print("all %s checks passed" % what)
        return 0


def show(data):
    return data.decode("utf-8", "backslashreplace")


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
