"""ldb_test.py errors: bad command lines and bad DBs each exit with status 1
and a message naming what is wrong, with no crash or sanitizer report."""

import os
import re

from ldb_test_common import Failures, Ldb, fresh_dir, show

# (arguments, standard input, what stderr must match). "db" is a DB made
# first; "missing.db" does not exist.
ERROR_CASES = [
    (["--db=missing.db", "get", "a"], b"", r"Failed: .*missing\.db.*"
     r"--create_if_missing creates one"),
    (["--db=missing.db", "scan"], b"", r"Failed: .*missing\.db"),
    (["--db=missing.db", "dump"], b"", r"Failed: .*missing\.db"),
    (["--db=missing.db", "put", "a", "b"], b"", r"Failed: .*missing\.db"),
    (["--db=missing.db", "load"], b"a ==> b\n", r"Failed: .*missing\.db"),
    (["--db=missing.db", "list_column_families"], b"",
     r"Failed: .*missing\.db"),
    (["--db=db", "--column_family=nope", "get", "a"], b"",
     r"Failed: Non-existing column family nope\n"),
    (["--db=db", "--column_family=nope", "put", "a", "b"], b"",
     r"Failed: Non-existing column family nope\n"),
    (["--db=db", "--hex", "get", "0xZZ"], b"",
     r"Failed: Invalid hex input 0xZZ\.  'Z' is not a hex digit\n"),
    (["--db=db", "--hex", "get", "612E31"], b"",
     r"Failed: Invalid hex input 612E31\.  Must start with 0x\n"),
    (["--db=db", "--hex", "get", "0x612"], b"",
     r"Failed: Invalid hex input 0x612\.  Must have an even number"),
    (["--db=db", "--value_hex", "put", "a", "0xG1"], b"",
     r"Failed: Invalid hex input 0xG1\."),
    (["--db=db", "--key_hex", "scan", "--from=0x6"], b"",
     r"Failed: Invalid hex input 0x6\."),
    (["--db=db", "--hex", "load"], b"0x61 ==> 0x62\n0x6 ==> 0x62\n",
     r"Failed: line 2: Invalid hex input 0x6\."),
    (["--db=db", "frobnicate"], b"",
     r"Unknown command frobnicate\n(.|\n)*Data Access Commands:"),
    ([], b"", r"No command given\n(.|\n)*Admin Commands:"),
    (["--db=db", "get", "a", "--bogus"], b"",
     r"Invalid command-line flag bogus\n(.|\n)*Data Access Commands:"),
    (["--db=db", "--bogus=1", "scan"], b"",
     r"Invalid command-line option bogus\n"),
    (["--db=db", "get", "a", "--max_keys=3"], b"",
     r"Invalid command-line option max_keys\n"),
    (["--db", "get", "a"], b"", r"Invalid command-line flag db\n"),
    (["get", "a"], b"", r"Failed: --db=<path_to_db_directory> must be"),
    (["--db=db", "get"], b"",
     r"Failed: <key> must be specified for the get command\n"),
    (["--db=db", "put", "a"], b"",
     r"Failed: <key> and <value> must be specified for the put command\n"),
    (["--db=db", "batchput", "a"], b"",
     r"Failed: At least one <key> <value> pair must be specified"),
    (["--db=db", "delete"], b"", r"Failed: KEY must be specified"),
    (["--db=db", "singledelete"], b"", r"Failed: KEY must be specified"),
    (["--db=db", "deleterange", "a"], b"",
     r"Failed: begin and end keys must be specified"),
    (["--db=db", "approxsize", "--from=a"], b"",
     r"Failed: to must be specified for approxsize command\n"),
    (["--db=db", "approxsize"], b"",
     r"Failed: from must be specified for approxsize command\n"),
    (["--db=db", "scan", "--max_keys=ten"], b"",
     r"Failed: max_keys has an invalid value\n"),
    (["--db=db", "dump", "--max_keys=1x"], b"",
     r"Failed: max_keys has an invalid value\n"),
    (["--db=db", "get_property"], b"",
     r"Failed: property name must be specified\n"),
    (["--db=db", "get_property", "strata.no-such-property"], b"",
     r"Failed: failed to get property: strata\.no-such-property\n"),
    (["--db=db", "create_column_family"], b"",
     r"Failed: new column family name must be specified\n"),
    (["--db=db", "create_column_family", "default"], b"",
     r"Failed: Fail to create new column family: "),
    (["--db=db", "drop_column_family"], b"",
     r"Failed: The name of column family to drop must be specified\n"),
    (["--db=db", "drop_column_family", "nope"], b"",
     r"Failed: Column family: nope doesn't exist in db\.\n"),
    (["--db=db", "drop_column_family", "default"], b"",
     r"Failed: Fail to drop column family: "),
    (["--db=db", "--try_load_options=maybe", "get", "a"], b"",
     r"Failed: try_load_options has an invalid value\n"),
    (["--db=db", "get", "no such key"], b"", r"Failed: Get failed: NotFound"),
    # The commands that read files themselves.
    (["dump_wal"], b"", r"Failed: --walfile=<write_ahead_log_file_path> must"),
    (["dump_wal", "--walfile=db/000999.log"], b"",
     r"Failed: .*NotFound.*000999\.log"),
    (["dump_wal", "--walfile=db/CURRENT"], b"", r"Failed: Corruption: "),
    (["--db=missing.db", "manifest_dump"], b"", r"Failed: .*missing\.db"),
    (["manifest_dump", "--path=db/CURRENT"], b"", r"Failed: Corruption: "),
    (["manifest_dump", "--json"], b"", r"Invalid command-line flag json\n"),
    (["--db=missing.db", "idump"], b"", r"Failed: .*missing\.db"),
    (["--db=db", "--column_family=nope", "idump"], b"",
     r"Failed: Invalid argument: Non-existing column family: nope\n"),
    (["--db=db", "idump", "--max_keys=x"], b"",
     r"Failed: max_keys has an invalid value\n"),
    (["--db=db", "dump", "--path=db/CURRENT"], b"",
     r"Failed: File 'db/CURRENT' is not a WAL, a MANIFEST or a table\n"),
    (["--db=db", "dump", "--path=notes.txt"], b"",
     r"Failed: File 'notes.txt' is not a strata file\n"),
    (["--db=db", "dump", "--path=db/000999.sst"], b"",
     r"Failed: .*000999\.sst"),
    (["--db=missing.db", "list_live_files_metadata"], b"",
     r"Failed: .*missing\.db"),
    (["--db=missing.db", "repair"], b"",
     r"Failed: Invalid argument: missing\.db: .*no DB to repair\n"),
    (["repair"], b"", r"Failed: --db=<path_to_db_directory> must be"),
    (["--db=db", "checkpoint"], b"",
     r"Failed: Invalid argument: invalid checkpoint directory name\n"),
    (["--db=db", "checkpoint", "--checkpoint_dir=db"], b"",
     r"Failed: Invalid argument: CreateCheckpoint: directory exists: db\n"),
    (["--db=missing.db", "checkpoint", "--checkpoint_dir=ckpt"], b"",
     r"Failed: .*missing\.db"),
    (["--db=db", "backup"], b"",
     r"Failed: --backup_dir: missing backup directory\n"),
    (["--db=db", "backup", "--backup_dir=bk", "--num_threads=x"], b"",
     r"Failed: num_threads has an invalid value\n"),
    (["--db=db", "backup", "--backup_dir=bk", "--num_threads=0"], b"",
     r"Failed: num_threads must be from 1 to 1024\n"),
    (["--db=db", "backup", "--backup_dir=bk", "--stderr_log_level=9"], b"",
     r"Failed: stderr_log_level must be from 0 to 5\n"),
    (["--db=db", "backup", "--backup_dir=bk", "--backup_env_uri=x"], b"",
     r"Failed: --backup_env_uri: not supported by strata"),
    (["--db=db", "backup", "--backup_dir=db/CURRENT"], b"",
     r"Failed: IO error: db/CURRENT: exists but is not a directory\n"),
    (["--db=missing.db", "backup", "--backup_dir=bk"], b"",
     r"Failed: .*missing\.db"),
    (["--db=r.db", "restore", "--backup_dir=missing.backups"], b"",
     r"Failed: NotFound: missing\.backups/meta is missing\n"),
    (["--db=r.db", "restore"], b"",
     r"Failed: --backup_dir: missing backup directory\n"),
    (["restore", "--backup_dir=bk"], b"",
     r"Failed: --db=<path_to_db_directory> must be"),
]


def errors(args):
    fresh_dir(args.work)
    failures = Failures()
    ldb = Ldb(args.ldb, args.work, args.emulator)
    rc, out, err = ldb.run(["--db=db", "--create_if_missing", "put", "a", "b"])
    failures.check(rc == 0 and out == b"OK\n", "making the DB: " + show(err))
    for argv, stdin, pattern in ERROR_CASES:
        rc, out, err = ldb.run(argv, stdin)
        what = "ldb " + " ".join(argv)
        failures.check(rc == 1, "%s: exit status %d, not 1" % (what, rc))
        failures.check(re.search(pattern.encode(), err) is not None,
                       "%s: stderr does not match %r:\n%s" %
                       (what, pattern, show(err)))
        failures.check(b"Sanitizer" not in err and b"runtime error" not in err,
                       "%s: sanitizer report:\n%s" % (what, show(err)))
        failures.check(b"Failed" not in out and b"Invalid" not in out,
                       "%s: error on stdout:\n%s" % (what, show(out)))
    failures.check(not os.path.exists(os.path.join(args.work, "missing.db")),
                   "a command without --create_if_missing made missing.db")
    # Nothing above changed the DB.
    rc, out, _ = ldb.run(["--db=db", "scan"])
    failures.check(rc == 0 and out == b"a : b\n",
                   "the DB after the errors: " + show(out))
    # --try_load_options loads the DB's OPTIONS file (on by default).
    for flag in ("--try_load_options", "--try_load_options=false",
                 "--ignore_unknown_options"):
        rc, out, err = ldb.run(["--db=db", flag, "get", "a"])
        failures.check(rc == 0 and out == b"b\n",
                       "get with %s: %d %s" % (flag, rc, show(err)))
    # An option no engine knows in it fails the command naming the file
    # and line, unless ignored or not loaded.
    # (Each open writes a new OPTIONS file: the newest is damaged anew.)
    db_dir = os.path.join(args.work, "db")

    def damage_options():
        newest = max(f for f in os.listdir(db_dir) if f.startswith("OPTIONS-"))
        with open(os.path.join(db_dir, newest), "a") as f:
            f.write("  no_such_option=1\n")
        return newest

    newest = damage_options()
    rc, out, err = ldb.run(["--db=db", "get", "a"])
    failures.check(rc == 1 and re.search(
        (r"Failed: loading the OPTIONS file: .*%s:\d+: unknown option: "
         r"no_such_option" % newest).encode(), err) is not None,
                   "get with a damaged OPTIONS file: %d %s" % (rc, show(err)))
    for flag in ("--try_load_options=false", "--ignore_unknown_options"):
        damage_options()
        rc, out, err = ldb.run(["--db=db", flag, "get", "a"])
        failures.check(rc == 0 and out == b"b\n",
                       "get with %s and a damaged OPTIONS file: %d %s" %
                       (flag, rc, show(err)))
    rc, out, _ = ldb.run(["--help"])
    failures.check(rc == 0 and b"Data Access Commands:" in out,
                   "ldb --help: exit %d" % rc)
    return failures.finish("error")
